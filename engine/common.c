/* Error helpers and the boolean spelling shared by every engine module. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void mw_err_clear(struct mw_err *e)
{
    if (e) memset(e, 0, sizeof *e);
}

int mw_err_set(struct mw_err *e, int code, const char *file, int line, int col, const char *fmt, ...)
{
    if (!e) return code;
    e->code = code;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *mw_err_str(const struct mw_err *e, char *buf, size_t n)
{
    if (e->file[0] && e->line > 0 && e->col > 0)
        snprintf(buf, n, "%s:%d:%d: %s", e->file, e->line, e->col, e->msg);
    else if (e->file[0] && e->line > 0)
        snprintf(buf, n, "%s:%d: %s", e->file, e->line, e->msg);
    else if (e->file[0])
        snprintf(buf, n, "%s: %s", e->file, e->msg);
    else
        snprintf(buf, n, "%s", e->msg);
    return buf;
}

int mw_parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) return *out = true, 0;
        if (strcasecmp(s, no[i]) == 0) return *out = false, 0;
    }
    return -1;
}
