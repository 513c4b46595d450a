/* The YAML config loader with --set lines: the input is a YAML document, then (after a line "---set") one
 * "section.key=value" assignment a line. Every input must end in success or a clean error. */
#include "fuzz_common.h"

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const uint8_t *sep = NULL;
    for (size_t i = 0; i + 7 <= n; i++)
        if (!memcmp(d + i, "\n---set", 7)) {
            sep = d + i;
            break;
        }
    size_t ylen = sep ? (size_t)(sep - d) : n;
    const char *path = fz_write(0, "config.yaml", d, ylen);
    struct mw_config *c = malloc(sizeof *c);
    struct mw_err e;
    mw_err_clear(&e);
    mw_config_defaults(c);
    int rc = mw_config_load_file(c, path, &e);
    if (!rc && sep) {
        char line[512];
        size_t i = (size_t)(sep - d) + 7;
        while (!rc && i < n) {
            size_t k = 0;
            while (i < n && d[i] != '\n' && k + 1 < sizeof line) line[k++] = (char)d[i++];
            line[k] = 0;
            i++;
            if (k) rc = mw_config_set(c, line, &e);
        }
    }
    if (!rc) rc = mw_config_validate(c, &e);
    if (rc && !e.msg[0]) abort(); /* an error must say what is wrong */
    free(c);
    return 0;
}
