/* Machine configuration: the field table generated from MW_CONFIG_FIELDS, defaults, the YAML loader (libyaml
 * document API, one handler per section in the manner of netplan's parse.c), --set overrides and the
 * cross-field checks. Every error is "file:line:col: message" with 1-based positions. */
#include "config.h"
#include "policy.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* ---- the field table ------------------------------------------------------------------------------------ */

#define DEFNUM_INT(d) ((double)(d))
#define DEFNUM_DOUBLE(d) ((double)(d))
#define DEFNUM_BOOL(d) ((double)(d))
#define DEFNUM_ENUM(d) ((double)(d))
#define DEFNUM_STR(d) 0.0
#define DEFSTR_INT(d) NULL
#define DEFSTR_DOUBLE(d) NULL
#define DEFSTR_BOOL(d) NULL
#define DEFSTR_ENUM(d) NULL
#define DEFSTR_STR(d) (d)

#define FIELD_ROW(sec, key, type, def, mn, mx, unit, help)                                                     \
    {#sec, #key, MW_CT_##type, DEFNUM_##type(def), DEFSTR_##type(def), (double)(mn), (double)(mx), unit, help, \
     offsetof(struct mw_config, sec.key)},
const struct mw_cfg_field mw_cfg_fields[] = {MW_CONFIG_FIELDS(FIELD_ROW)};
const int mw_cfg_nfields = (int)(sizeof mw_cfg_fields / sizeof mw_cfg_fields[0]);
_Static_assert(sizeof mw_cfg_fields / sizeof mw_cfg_fields[0] == MW_CFG_NFIELDS, "field count");
_Static_assert(MW_POLICY_POINTS == MW_SLOT_COUNT, "config.h and policy.h disagree on the policy slots");

/* The struct is written by hand; these keep it and the table in step (size and type of every member). */
#define SIZE_INT sizeof(int64_t)
#define SIZE_DOUBLE sizeof(double)
#define SIZE_BOOL sizeof(bool)
#define SIZE_ENUM sizeof(int)
#define SIZE_STR ((size_t)MW_STR_MAX)
#define TYPEOK_INT(m) _Generic((m), int64_t: 1, default: 0)
#define TYPEOK_DOUBLE(m) _Generic((m), double: 1, default: 0)
#define TYPEOK_BOOL(m) _Generic((m), bool: 1, default: 0)
#define TYPEOK_ENUM(m) _Generic((m), int: 1, default: 0)
#define TYPEOK_STR(m) _Generic(&(m), char(*)[MW_STR_MAX]: 1, default: 0)
#define MEMBER(sec, key) (((struct mw_config *)0)->sec.key)
#define FIELD_CHECK(sec, key, type, ...)                                                                        \
    _Static_assert(sizeof MEMBER(sec, key) == SIZE_##type, "struct mw_config member " #sec "." #key            \
                                                            " has the wrong size for type " #type);            \
    _Static_assert(TYPEOK_##type(MEMBER(sec, key)), "struct mw_config member " #sec "." #key                   \
                                                    " has the wrong type for " #type);
MW_CONFIG_FIELDS(FIELD_CHECK)

/* Field indices by name, for the cross-field checks. */
#define FIELD_ENUM(sec, key, ...) FI_##sec##_##key,
enum { MW_CONFIG_FIELDS(FIELD_ENUM) FI_COUNT_ };

#define POLICIES "policies"
#define SET_FILE "--set"

/* ---- small helpers -------------------------------------------------------------------------------------- */

static int verr_at(struct mw_err *e, int code, const char *file, int line, int col, const char *fmt, va_list ap)
{
    char msg[sizeof e->msg];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return mw_err_set(e, code, file, line, col, "%s", msg);
}

__attribute__((format(printf, 5, 6))) static int err_at(struct mw_err *e, const char *file, int line, int col,
                                                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = verr_at(e, MW_EINVAL, file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

static bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int log2_i64(int64_t v)
{
    int n = 0;
    while (v > 1) v >>= 1, n++;
    return n;
}

/* Levenshtein distance, capped: names longer than 63 characters count as far from everything. */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63) return 1000;
    int row[64];
    for (size_t j = 0; j <= m; j++) row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* Collects candidate names: the closest one (for "did you mean") and a comma-separated list. */
struct namelist {
    const char *word;
    const char *best;
    int best_d;
    char list[512];
};

static void names_init(struct namelist *nl, const char *word)
{
    nl->word = word;
    nl->best = NULL;
    nl->best_d = 1000;
    nl->list[0] = 0;
}

static void names_add(struct namelist *nl, const char *name)
{
    int d = edit_distance(nl->word, name);
    if (d < nl->best_d) nl->best_d = d, nl->best = name;
    size_t len = strlen(nl->list);
    snprintf(nl->list + len, sizeof nl->list - len, "%s%s", len ? ", " : "", name);
}

/* "; did you mean 'x'?" when a name is within two edits, else "" */
static const char *names_hint(const struct namelist *nl, char *buf, size_t n)
{
    if (nl->best && nl->best_d <= 2)
        snprintf(buf, n, "; did you mean '%s'?", nl->best);
    else
        buf[0] = 0;
    return buf;
}

static bool section_known(const char *sec)
{
    for (int i = 0; i < mw_cfg_nfields; i++)
        if (strcmp(mw_cfg_fields[i].section, sec) == 0) return true;
    return false;
}

/* All section names (fields' sections in table order, then policies). */
static void sections_names(struct namelist *nl)
{
    for (int i = 0; i < mw_cfg_nfields; i++)
        if (i == 0 || strcmp(mw_cfg_fields[i].section, mw_cfg_fields[i - 1].section) != 0)
            names_add(nl, mw_cfg_fields[i].section);
    names_add(nl, POLICIES);
}

static int unknown_section(struct mw_err *e, const char *file, int line, int col, const char *sec)
{
    struct namelist nl;
    char hint[128];
    names_init(&nl, sec);
    sections_names(&nl);
    if (nl.best_d <= 2) return err_at(e, file, line, col, "unknown section '%s'%s", sec, names_hint(&nl, hint, sizeof hint));
    return err_at(e, file, line, col, "unknown section '%s' (sections: %s)", sec, nl.list);
}

static int unknown_key(struct mw_err *e, const char *file, int line, int col, const char *sec, const char *key)
{
    struct namelist nl;
    char hint[128];
    names_init(&nl, key);
    for (int i = 0; i < mw_cfg_nfields; i++)
        if (strcmp(mw_cfg_fields[i].section, sec) == 0) names_add(&nl, mw_cfg_fields[i].key);
    return err_at(e, file, line, col, "unknown key '%s' in section '%s'%s", key, sec,
                  names_hint(&nl, hint, sizeof hint));
}

static int unknown_point(struct mw_err *e, const char *file, int line, int col, const char *name)
{
    struct namelist nl;
    char hint[128];
    names_init(&nl, name);
    for (int i = 0; i < MW_SLOT_COUNT; i++) names_add(&nl, mw_slot_names[i]);
    if (nl.best_d <= 2)
        return err_at(e, file, line, col, "unknown decision point '%s' in section 'policies'%s", name,
                      names_hint(&nl, hint, sizeof hint));
    return err_at(e, file, line, col, "unknown decision point '%s' in section 'policies' (points: %s)", name,
                  nl.list);
}

/* impl must be a built-in of point pt or "lua". */
static int check_impl(int pt, const char *impl, struct mw_err *e, const char *file, int line, int col)
{
    if (strcmp(impl, "lua") == 0 || mw_policy_find(mw_slot_point(pt), impl)) return 0;
    struct namelist nl;
    names_init(&nl, impl);
    for (const struct mw_policy *const *p = mw_policies(mw_slot_point(pt)); p && *p; p++) names_add(&nl, (*p)->name);
    names_add(&nl, "lua");
    return err_at(e, file, line, col, "unknown %s policy '%s' (available: %s)", mw_slot_names[pt], impl, nl.list);
}

static int unknown_param(const struct mw_policy *p, const char *key, struct mw_err *e, const char *file, int line,
                         int col)
{
    struct namelist nl;
    char hint[128];
    names_init(&nl, key);
    for (int i = 0; i < p->nparams; i++) names_add(&nl, p->params[i].name);
    if (p->nparams == 0)
        return err_at(e, file, line, col, "policy '%s' has no parameter '%s' (it takes none)", p->name, key);
    if (nl.best_d <= 2)
        return err_at(e, file, line, col, "policy '%s' has no parameter '%s'%s", p->name, key,
                      names_hint(&nl, hint, sizeof hint));
    return err_at(e, file, line, col, "policy '%s' has no parameter '%s' (parameters: %s)", p->name, key, nl.list);
}

/* Check one parameter value with the registry's parser (into a scratch params struct), then place the error. */
static int check_param_value(const struct mw_policy *p, const char *key, const char *value, struct mw_err *e,
                             const char *file, int line, int col)
{
    size_t size = p->params_size;
    for (int i = 0; i < p->nparams; i++)
        if (p->params[i].offset + sizeof(int64_t) > size) size = p->params[i].offset + sizeof(int64_t);
    void *scratch = calloc(1, size ? size : 1);
    if (!scratch) return mw_err_set(e, MW_ENOMEM, file, line, col, "out of memory");
    int rc = mw_policy_param_set(p, scratch, key, value, e);
    free(scratch);
    if (rc && e) {
        snprintf(e->file, sizeof e->file, "%s", file ? file : "");
        e->line = line;
        e->col = col;
    }
    return rc;
}

/* ---- scalar parsing -------------------------------------------------------------------------------------- */

/* Decimal or 0x hex, '_' between digits, optional K/M/G (x1024) when `sizes`. */
static int parse_int(const char *s, bool sizes, int64_t *out)
{
    const char *p = s;
    bool neg = false;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    unsigned base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) base = 16, p += 2;
    uint64_t v = 0;
    int digits = 0;
    bool after_sep = false;
    for (; *p; p++) {
        unsigned d;
        if (*p == '_') {
            if (!digits || after_sep) return -1;
            after_sep = true;
            continue;
        }
        if (isdigit((unsigned char)*p))
            d = (unsigned)(*p - '0');
        else if (base == 16 && isxdigit((unsigned char)*p))
            d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
        else
            break;
        if (v > (UINT64_MAX - d) / base) return -1;
        v = v * base + d;
        digits++;
        after_sep = false;
    }
    if (!digits || after_sep) return -1;
    uint64_t mult = 1;
    if (sizes && *p) {
        switch (*p) {
        case 'K': case 'k': mult = 1ull << 10; break;
        case 'M': case 'm': mult = 1ull << 20; break;
        case 'G': case 'g': mult = 1ull << 30; break;
        default: return -1;
        }
        p++;
    }
    if (*p) return -1;
    if (v > UINT64_MAX / mult) return -1;
    v *= mult;
    if (v > (uint64_t)INT64_MAX) return -1;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char buf[128];
    size_t n = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '_') continue;
        if (n + 1 >= sizeof buf) return -1;
        buf[n++] = *p;
    }
    buf[n] = 0;
    if (!n) return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* Index of s in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *s)
{
    size_t n = strlen(s);
    int idx = 0;
    for (const char *p = choices; p && *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, s, n) == 0) return idx;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

static const char *expected_what(const struct mw_cfg_field *f, char *buf, size_t n)
{
    switch (f->type) {
    case MW_CT_INT: return "an integer";
    case MW_CT_DOUBLE: return "a number";
    case MW_CT_BOOL: return "true or false";
    case MW_CT_ENUM: snprintf(buf, n, "one of %s", f->unit); return buf;
    case MW_CT_STR: return "a string";
    }
    return "a value";
}

static int field_index(const struct mw_cfg_field *f) { return (int)(f - mw_cfg_fields); }

/* Parse `text` for field f and store it in c, recording where it came from. Nothing is written on error. */
static int set_field(struct mw_config *c, const struct mw_cfg_field *f, const char *text, int kind,
                     const char *file, int line, int col, struct mw_err *e)
{
    char *at = (char *)c + f->offset;
    switch (f->type) {
    case MW_CT_INT: {
        int64_t v;
        if (parse_int(text, strcmp(f->unit, "bytes") == 0, &v))
            return err_at(e, file, line, col, "%s.%s: expected an integer, got '%.200s'", f->section, f->key, text);
        if ((double)v < f->min || (double)v > f->max)
            return err_at(e, file, line, col, "%s.%s: %lld is out of range [%.0f, %.0f]", f->section, f->key,
                          (long long)v, f->min, f->max);
        *(int64_t *)at = v;
        break;
    }
    case MW_CT_DOUBLE: {
        double v;
        if (parse_double(text, &v))
            return err_at(e, file, line, col, "%s.%s: expected a number, got '%.200s'", f->section, f->key, text);
        if (v < f->min || v > f->max)
            return err_at(e, file, line, col, "%s.%s: %g is out of range [%g, %g]", f->section, f->key, v, f->min,
                          f->max);
        *(double *)at = v;
        break;
    }
    case MW_CT_BOOL: {
        bool v;
        if (mw_parse_bool(text, &v))
            return err_at(e, file, line, col, "%s.%s: expected true or false, got '%.200s'", f->section, f->key,
                          text);
        *(bool *)at = v;
        break;
    }
    case MW_CT_ENUM: {
        int v = choice_index(f->unit, text);
        if (v < 0)
            return err_at(e, file, line, col, "%s.%s: '%.200s' is not one of %s", f->section, f->key, text, f->unit);
        *(int *)at = v;
        break;
    }
    case MW_CT_STR:
        if (strlen(text) >= MW_STR_MAX)
            return err_at(e, file, line, col, "%s.%s: longer than %d characters", f->section, f->key,
                          MW_STR_MAX - 1);
        snprintf(at, MW_STR_MAX, "%s", text);
        break;
    }
    c->origin[field_index(f)] = (struct mw_cfg_origin){kind, line, col};
    return 0;
}

/* ---- policy choices -------------------------------------------------------------------------------------- */

static void choice_reset(struct mw_policy_choice *ch, const char *impl, const char *file, int line, int col)
{
    memset(ch, 0, sizeof *ch);
    snprintf(ch->impl, sizeof ch->impl, "%s", impl);
    snprintf(ch->file, sizeof ch->file, "%s", file ? file : "");
    ch->line = line;
    ch->col = col;
}

/* Add or replace the parameter `key`; line/col locate its value. */
static int choice_put(struct mw_policy_choice *ch, int pt, const char *key, const char *value, const char *file,
                      int line, int col, struct mw_err *e)
{
    if (strlen(key) >= sizeof ch->params[0].key)
        return err_at(e, file, line, col, "policies.%s: parameter name '%.80s...' is too long", mw_slot_names[pt],
                      key);
    if (strlen(value) >= sizeof ch->params[0].value)
        return err_at(e, file, line, col, "policies.%s.%s: value longer than %zu characters", mw_slot_names[pt],
                      key, sizeof ch->params[0].value - 1);
    int i = 0;
    while (i < ch->nparams && strcmp(ch->params[i].key, key) != 0) i++;
    if (i == ch->nparams) {
        if (ch->nparams >= MW_POLICY_MAX_PARAMS)
            return err_at(e, file, line, col, "policies.%s: more than %d parameters", mw_slot_names[pt],
                          MW_POLICY_MAX_PARAMS);
        ch->nparams++;
    }
    snprintf(ch->params[i].key, sizeof ch->params[i].key, "%s", key);
    snprintf(ch->params[i].value, sizeof ch->params[i].value, "%s", value);
    snprintf(ch->params[i].file, sizeof ch->params[i].file, "%s", file ? file : "");
    ch->params[i].line = line;
    ch->params[i].col = col;
    return 0;
}

/* ---- defaults and lookup ------------------------------------------------------------------------------- */

void mw_config_defaults(struct mw_config *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < mw_cfg_nfields; i++) {
        const struct mw_cfg_field *f = &mw_cfg_fields[i];
        char *at = (char *)c + f->offset;
        switch (f->type) {
        case MW_CT_INT: *(int64_t *)at = (int64_t)f->def_num; break;
        case MW_CT_DOUBLE: *(double *)at = f->def_num; break;
        case MW_CT_BOOL: *(bool *)at = f->def_num != 0; break;
        case MW_CT_ENUM: *(int *)at = (int)f->def_num; break;
        case MW_CT_STR: snprintf(at, MW_STR_MAX, "%s", f->def_str ? f->def_str : ""); break;
        }
    }
    for (int pt = 0; pt < MW_SLOT_COUNT; pt++)
        choice_reset(&c->policy[pt], mw_policy_default_name(mw_slot_point(pt)), NULL, 0, 0);
}

const struct mw_cfg_field *mw_config_find(const char *section, const char *key)
{
    if (!section || !key) return NULL;
    for (int i = 0; i < mw_cfg_nfields; i++)
        if (strcmp(mw_cfg_fields[i].section, section) == 0 && strcmp(mw_cfg_fields[i].key, key) == 0)
            return &mw_cfg_fields[i];
    return NULL;
}

/* ---- YAML loader ------------------------------------------------------------------------------------------ */

struct loader {
    yaml_document_t *doc;
    struct mw_config *c; /* the caller's config, restored by mw_config_load_file on an error */
    const char *file;
    struct mw_err *e;
    int hint; /* where the last key was found in mw_cfg_fields: a file's keys mostly follow the table's order */
};

typedef int (*section_fn)(struct loader *L, const char *sec, yaml_node_t *key, yaml_node_t *val);

static int node_line(const yaml_node_t *n) { return (int)n->start_mark.line + 1; }
static int node_col(const yaml_node_t *n) { return (int)n->start_mark.column + 1; }
static const char *scalar(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }

__attribute__((format(printf, 3, 4))) static int node_err(struct loader *L, const yaml_node_t *n, const char *fmt,
                                                          ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = verr_at(L->e, MW_EINVAL, L->file, node_line(n), node_col(n), fmt, ap);
    va_end(ap);
    return rc;
}

static const char *kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_MAPPING_NODE: return "a mapping";
    case YAML_SEQUENCE_NODE: return "a sequence";
    default: return "a scalar";
    }
}

static yaml_node_t *node(struct loader *L, int id) { return yaml_document_get_node(L->doc, id); }

/* Keys must be scalars; a key seen earlier in the same mapping is a duplicate. */
static int check_key(struct loader *L, yaml_node_t *map, yaml_node_pair_t *pair, const char *what)
{
    yaml_node_t *k = node(L, pair->key);
    if (k->type != YAML_SCALAR_NODE) return node_err(L, k, "expected a key name in %s, got %s", what, kind_name(k));
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pair; q++) {
        yaml_node_t *qk = node(L, q->key);
        if (qk->type == YAML_SCALAR_NODE && strcmp(scalar(qk), scalar(k)) == 0)
            return node_err(L, k, "duplicate key '%s' in %s", scalar(k), what);
    }
    return 0;
}

/* mw_config_find from L->hint on, wrapping around: the same field (a section and key name one field, as the
 * struct members they fill are distinct), in a comparison or two instead of a scan of the table. */
static const struct mw_cfg_field *find_field(struct loader *L, const char *sec, const char *key)
{
    for (int n = 0, i = L->hint; n < mw_cfg_nfields; n++, i = i + 1 < mw_cfg_nfields ? i + 1 : 0) {
        const struct mw_cfg_field *f = &mw_cfg_fields[i];
        if (f->key[0] == key[0] && strcmp(f->key, key) == 0 && strcmp(f->section, sec) == 0) {
            L->hint = i + 1 < mw_cfg_nfields ? i + 1 : 0;
            return f;
        }
    }
    return NULL;
}

/* A node to point at when a value is missing or of the wrong kind: an empty scalar has no useful position. */
static const yaml_node_t *blame(const yaml_node_t *key, const yaml_node_t *val)
{
    return (val->type == YAML_SCALAR_NODE && val->data.scalar.length == 0) ? key : val;
}

static int load_fields(struct loader *L, const char *sec, yaml_node_t *key, yaml_node_t *map)
{
    if (map->type != YAML_MAPPING_NODE)
        return node_err(L, blame(key, map), "section '%s' must be a mapping of key: value pairs, got %s", sec,
                        kind_name(map));
    char what[96];
    snprintf(what, sizeof what, "section '%s'", sec);
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        int rc = check_key(L, map, pair, what);
        if (rc) return rc;
        yaml_node_t *k = node(L, pair->key), *v = node(L, pair->value);
        const struct mw_cfg_field *f = find_field(L, sec, scalar(k));
        if (!f) return unknown_key(L->e, L->file, node_line(k), node_col(k), sec, scalar(k));
        if (v->type != YAML_SCALAR_NODE) {
            char buf[160];
            return node_err(L, v, "%s.%s: expected %s, got %s", sec, f->key, expected_what(f, buf, sizeof buf),
                            kind_name(v));
        }
        rc = set_field(L->c, f, scalar(v), MW_ORIGIN_FILE, L->file, node_line(v), node_col(v), L->e);
        if (rc) return rc;
    }
    return 0;
}

/* policies: <point>: name | {impl: name, script: path.lua, <param>: value, ...} */
static int load_choice_map(struct loader *L, int pt, yaml_node_t *pkey, yaml_node_t *map,
                           struct mw_policy_choice *ch)
{
    const char *pname = mw_slot_names[pt];
    char what[96];
    snprintf(what, sizeof what, "policies.%s", pname);
    yaml_node_t *impl = NULL, *script = NULL, *script_key = NULL;
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        if (pair - map->data.mapping.pairs.start >= MW_POLICY_MAX_PARAMS + 2) /* + impl and script: counted first */
            return node_err(L, node(L, pair->key), "policies.%s: more than %d parameters", pname,
                            MW_POLICY_MAX_PARAMS);
        int rc = check_key(L, map, pair, what);
        if (rc) return rc;
        yaml_node_t *k = node(L, pair->key), *v = node(L, pair->value);
        if (v->type != YAML_SCALAR_NODE)
            return node_err(L, v, "policies.%s.%s: expected a scalar value, got %s", pname, scalar(k), kind_name(v));
        if (strcmp(scalar(k), "impl") == 0) impl = v;
        if (strcmp(scalar(k), "script") == 0) script = v, script_key = k;
    }
    if (!impl) return node_err(L, pkey, "policies.%s: missing 'impl' (the policy name)", pname);
    int rc = check_impl(pt, scalar(impl), L->e, L->file, node_line(impl), node_col(impl));
    if (rc) return rc;
    bool lua = strcmp(scalar(impl), "lua") == 0;
    if (lua && (!script || !*scalar(script))) return node_err(L, impl, "policies.%s: impl 'lua' needs a 'script'", pname);
    if (!lua && script) return node_err(L, script_key, "policies.%s: 'script' is only used with impl: lua", pname);
    choice_reset(ch, scalar(impl), L->file, node_line(impl), node_col(impl));
    if (script) {
        if (strlen(scalar(script)) >= sizeof ch->script)
            return node_err(L, script, "policies.%s.script: longer than %zu characters", pname,
                            sizeof ch->script - 1);
        snprintf(ch->script, sizeof ch->script, "%s", scalar(script));
    }
    const struct mw_policy *p = lua ? NULL : mw_policy_find(mw_slot_point(pt), scalar(impl));
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        yaml_node_t *k = node(L, pair->key), *v = node(L, pair->value);
        const char *pk = scalar(k);
        if (strcmp(pk, "impl") == 0 || strcmp(pk, "script") == 0) continue;
        if (p) {
            if (!mw_policy_param_find(p, pk)) return unknown_param(p, pk, L->e, L->file, node_line(k), node_col(k));
            rc = check_param_value(p, pk, scalar(v), L->e, L->file, node_line(v), node_col(v));
            if (rc) return rc;
        }
        rc = choice_put(ch, pt, pk, scalar(v), L->file, node_line(v), node_col(v), L->e);
        if (rc) return rc;
    }
    return 0;
}

static int load_policies(struct loader *L, const char *sec, yaml_node_t *key, yaml_node_t *map)
{
    if (map->type != YAML_MAPPING_NODE)
        return node_err(L, blame(key, map), "section '%s' must be a mapping of key: value pairs, got %s", sec,
                        kind_name(map));
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        int rc = check_key(L, map, pair, "section 'policies'");
        if (rc) return rc;
        yaml_node_t *k = node(L, pair->key), *v = node(L, pair->value);
        int pt = mw_slot_from_name(scalar(k));
        if (pt < 0) return unknown_point(L->e, L->file, node_line(k), node_col(k), scalar(k));
        struct mw_policy_choice *ch = &L->c->policy[pt];
        if (v->type == YAML_SCALAR_NODE) {
            if (!*scalar(v)) return node_err(L, k, "policies.%s: missing the policy name", scalar(k));
            rc = check_impl(pt, scalar(v), L->e, L->file, node_line(v), node_col(v));
            if (rc) return rc;
            if (strcmp(scalar(v), "lua") == 0)
                return node_err(L, v, "policies.%s: impl 'lua' needs a 'script'", scalar(k));
            choice_reset(ch, scalar(v), L->file, node_line(v), node_col(v));
        } else if (v->type == YAML_MAPPING_NODE) {
            rc = load_choice_map(L, pt, k, v, ch);
            if (rc) return rc;
        } else {
            return node_err(L, v, "policies.%s: expected a policy name or {impl: name, ...}, got %s", scalar(k),
                            kind_name(v));
        }
    }
    return 0;
}

/* Sections with their own handler; every other section of mw_cfg_fields goes through load_fields. */
static const struct {
    const char *name;
    section_fn fn;
} special_sections[] = {
    {POLICIES, load_policies},
};

static int load_root(struct loader *L, yaml_node_t *root)
{
    if (root->type != YAML_MAPPING_NODE)
        return node_err(L, root, "the top level must be a mapping of sections (sim:, gpu:, l1d:, ...), got %s",
                        kind_name(root));
    for (yaml_node_pair_t *pair = root->data.mapping.pairs.start; pair < root->data.mapping.pairs.top; pair++) {
        yaml_node_t *k = node(L, pair->key), *v = node(L, pair->value);
        if (k->type != YAML_SCALAR_NODE) return node_err(L, k, "expected a section name, got %s", kind_name(k));
        for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < pair; q++) {
            yaml_node_t *qk = node(L, q->key);
            if (qk->type == YAML_SCALAR_NODE && strcmp(scalar(qk), scalar(k)) == 0)
                return node_err(L, k, "duplicate section '%s'", scalar(k));
        }
        section_fn fn = NULL;
        for (size_t i = 0; i < sizeof special_sections / sizeof special_sections[0]; i++)
            if (strcmp(special_sections[i].name, scalar(k)) == 0) fn = special_sections[i].fn;
        if (!fn && section_known(scalar(k))) fn = load_fields;
        if (!fn) return unknown_section(L->e, L->file, node_line(k), node_col(k), scalar(k));
        int rc = fn(L, scalar(k), k, v);
        if (rc) return rc;
    }
    return 0;
}

static int syntax_error(const yaml_parser_t *p, const char *file, struct mw_err *e)
{
    if (p->error == YAML_MEMORY_ERROR) return mw_err_set(e, MW_ENOMEM, file, 0, 0, "out of memory reading YAML");
    const char *problem = p->problem ? p->problem : "malformed document";
    if (p->error == YAML_READER_ERROR)
        return err_at(e, file, 0, 0, "YAML syntax error: %s at byte %zu", problem, p->problem_offset);
    int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
    if (p->context) return err_at(e, file, line, col, "YAML syntax error: %s (%s)", problem, p->context);
    return err_at(e, file, line, col, "YAML syntax error: %s", problem);
}

/* Limits a config file is read under: its size, and how deeply its mappings and sequences nest (libyaml's
 * loader takes minutes on 200,000 levels). A real config is a few KB and 3 levels deep. */
#define MW_YAML_MAX_BYTES (1 << 20)
#define MW_YAML_MAX_DEPTH 32

/* The whole file (at most MW_YAML_MAX_BYTES) in *buf; 0 or an error naming the file. */
static int read_capped(const char *path, FILE *f, unsigned char **buf, size_t *len, struct mw_err *e)
{
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
        return mw_err_set(e, MW_EIO, path, 0, 0, "is a folder, not a config file");
    size_t cap = 0;
    *len = 0;
    do { /* grows to the file's size, at most one byte past the limit */
        if (*len == cap) {
            cap = cap ? 4 * cap : 16384;
            if (cap > MW_YAML_MAX_BYTES + 1) cap = MW_YAML_MAX_BYTES + 1;
            unsigned char *nb = realloc(*buf, cap);
            if (!nb) return mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
            *buf = nb;
        }
        *len += fread(*buf + *len, 1, cap - *len, f);
    } while (*len == cap && cap <= MW_YAML_MAX_BYTES && !ferror(f));
    if (ferror(f)) return mw_err_set(e, MW_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    if (*len > MW_YAML_MAX_BYTES)
        return mw_err_set(e, MW_EINVAL, path, 0, 0, "larger than %d bytes: not a config file (a limit)",
                          MW_YAML_MAX_BYTES);
    return 0;
}

/* Nesting deeper than MW_YAML_MAX_DEPTH is an error at the node that goes past it, found by scanning events
 * (stopping there) before the document is loaded. Syntax errors are left to the loader. */
/* An upper bound on the nesting depth from the bytes alone: flow collections need a '[' or '{' each, and a
 * block collection nested in another starts at a deeper column (a sequence may share its mapping's column once,
 * and "- " / "? " prefixes count as columns), so depth <= 2 x (deepest content column) + 4 + brackets. Lines
 * that hold only a comment do not count. A real config stays far below the limit, and then the event scan is
 * not needed (it costs as much as loading the file). */
static size_t depth_bound(const unsigned char *buf, size_t len)
{
    size_t flow = 0, maxcol = 0;
    for (size_t i = 0; i < len;) {
        size_t col = 0;
        while (i + col < len && buf[i + col] == ' ') col++;
        while (i + col + 1 < len && (buf[i + col] == '-' || buf[i + col] == '?') && buf[i + col + 1] == ' ') {
            col += 2;
            while (i + col < len && buf[i + col] == ' ') col++;
        }
        bool comment = i + col < len && buf[i + col] == '#';
        if (!comment && i + col < len && buf[i + col] != '\n' && col > maxcol) maxcol = col;
        for (; i < len && buf[i] != '\n'; i++) flow += buf[i] == '[' || buf[i] == '{';
        i++;
    }
    return 2 * maxcol + 4 + flow;
}

static int check_depth(const unsigned char *buf, size_t len, const char *path, struct mw_err *e)
{
    if (depth_bound(buf, len) <= MW_YAML_MAX_DEPTH) return 0;
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) return mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
    yaml_parser_set_input_string(&p, buf, len);
    int depth = 0, rc = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) break;
        yaml_event_type_t t = ev.type;
        if (t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT) {
            if (++depth > MW_YAML_MAX_DEPTH)
                rc = err_at(e, path, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                            "nested more than %d levels deep: not a config file (a limit)", MW_YAML_MAX_DEPTH);
        } else if (t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT) depth--;
        yaml_event_delete(&ev);
        if (rc || t == YAML_STREAM_END_EVENT) break;
    }
    yaml_parser_delete(&p);
    return rc;
}

bool mw_config_slot_chosen(const struct mw_config *c, int k)
{
    const struct mw_policy_choice *ch = &c->policy[k];
    const char *dflt = mw_policy_default_name(mw_slot_point(k));
    return ch->nparams > 0 || !dflt || strcmp(ch->impl, dflt) != 0;
}

int mw_yaml_read(const char *path, unsigned char **text, size_t *len, struct mw_err *e)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return mw_err_set(e, MW_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    int rc = read_capped(path, f, text, len, e);
    fclose(f);
    if (!rc) rc = check_depth(*text, *len, path, e);
    if (rc) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

int mw_config_load_file(struct mw_config *c, const char *path, struct mw_err *e)
{
    unsigned char *text;
    size_t text_len;
    int crc = mw_yaml_read(path, &text, &text_len, e);
    if (crc) return crc;
    /* the file is read into c itself and c is restored from this copy on an error: one copy of the (large)
     * struct on success instead of two */
    struct mw_config *saved = malloc(sizeof *saved);
    yaml_parser_t parser;
    if (!saved || !yaml_parser_initialize(&parser)) {
        free(saved);
        free(text);
        return mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
    }
    yaml_parser_set_input_string(&parser, text, text_len);
    *saved = *c;
    uintptr_t at = (uintptr_t)path, lo = (uintptr_t)c;
    if (at >= lo && at < lo + sizeof *c) path = (const char *)saved + (at - lo); /* a name kept in c: use the copy */
    /* positions recorded from an earlier file would now be read against this one */
    for (int i = 0; i < MW_CFG_NFIELDS; i++)
        if (c->origin[i].kind == MW_ORIGIN_FILE) c->origin[i] = (struct mw_cfg_origin){0, 0, 0};

    yaml_document_t doc;
    int rc;
    if (!yaml_parser_load(&parser, &doc)) {
        rc = syntax_error(&parser, path, e);
    } else {
        struct loader L = {&doc, c, path, e, 0};
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        rc = root ? load_root(&L, root) : 0;
        yaml_document_delete(&doc);
        if (!rc && root) { /* a second document would be silently ignored otherwise */
            if (!yaml_parser_load(&parser, &doc)) {
                rc = syntax_error(&parser, path, e);
            } else {
                yaml_node_t *r2 = yaml_document_get_root_node(&doc);
                if (r2) rc = err_at(e, path, node_line(r2), node_col(r2), "only one YAML document per config file");
                yaml_document_delete(&doc);
            }
        }
    }
    if (!rc) snprintf(c->source, sizeof c->source, "%s", path);
    else *c = *saved;
    yaml_parser_delete(&parser);
    free(saved);
    free(text);
    return rc;
}

/* ---- --set -------------------------------------------------------------------------------------------------- */

/* "policies.<point>[.<param>]=value"; rest/rcol: the text after "policies." and its column. */
static int set_policy(struct mw_config *c, const char *rest, int rcol, const char *val, int vcol, struct mw_err *e)
{
    char point[128], param[128] = "";
    const char *dot = strchr(rest, '.');
    size_t plen = dot ? (size_t)(dot - rest) : strlen(rest);
    if (plen >= sizeof point) plen = sizeof point - 1;
    memcpy(point, rest, plen);
    point[plen] = 0;
    int pcol = rcol + (int)(dot ? dot - rest + 1 : 0);
    if (dot) snprintf(param, sizeof param, "%s", dot + 1);
    int pt = mw_slot_from_name(point);
    if (pt < 0) return unknown_point(e, SET_FILE, 1, rcol, point);
    struct mw_policy_choice *ch = &c->policy[pt];
    if (!dot || strcmp(param, "impl") == 0) {
        int rc = check_impl(pt, val, e, SET_FILE, 1, vcol);
        if (rc) return rc;
        choice_reset(ch, val, SET_FILE, 1, vcol); /* a new implementation starts from its own defaults */
        return 0;
    }
    if (!*param) return err_at(e, SET_FILE, 1, pcol, "expected policies.%s.<parameter>=value", point);
    bool lua = strcmp(ch->impl, "lua") == 0;
    if (strcmp(param, "script") == 0) {
        if (!lua) return err_at(e, SET_FILE, 1, pcol, "policies.%s: 'script' is only used with impl: lua", point);
        if (strlen(val) >= sizeof ch->script)
            return err_at(e, SET_FILE, 1, vcol, "policies.%s.script: longer than %zu characters", point,
                          sizeof ch->script - 1);
        snprintf(ch->script, sizeof ch->script, "%s", val);
        return 0;
    }
    if (!lua) {
        const struct mw_policy *p = mw_policy_find(mw_slot_point(pt), ch->impl);
        if (!p) return check_impl(pt, ch->impl, e, SET_FILE, 1, rcol);
        if (!mw_policy_param_find(p, param)) return unknown_param(p, param, e, SET_FILE, 1, pcol);
        int rc = check_param_value(p, param, val, e, SET_FILE, 1, vcol);
        if (rc) return rc;
    }
    return choice_put(ch, pt, param, val, SET_FILE, 1, vcol, e);
}

int mw_config_set(struct mw_config *c, const char *a, struct mw_err *e)
{
    const char *eq = strchr(a, '=');
    const char *dot = strchr(a, '.');
    if (!eq || !dot || dot > eq || dot == a)
        return err_at(e, SET_FILE, 1, 1, "expected section.key=value, got '%.200s'", a);
    char sec[128], key[256];
    size_t slen = (size_t)(dot - a), klen = (size_t)(eq - dot - 1);
    if (slen >= sizeof sec) slen = sizeof sec - 1;
    if (klen >= sizeof key) klen = sizeof key - 1;
    memcpy(sec, a, slen);
    sec[slen] = 0;
    memcpy(key, dot + 1, klen);
    key[klen] = 0;
    int kcol = (int)(dot - a) + 2, vcol = (int)(eq - a) + 2;
    if (strcmp(sec, POLICIES) == 0) return set_policy(c, key, kcol, eq + 1, vcol, e);
    if (!section_known(sec)) return unknown_section(e, SET_FILE, 1, 1, sec);
    const struct mw_cfg_field *f = mw_config_find(sec, key);
    if (!f) return unknown_key(e, SET_FILE, 1, kcol, sec, key);
    return set_field(c, f, eq + 1, MW_ORIGIN_SET, SET_FILE, 1, vcol, e);
}

/* ---- cross-field checks ------------------------------------------------------------------------------------ */

/* Report at the first of `fields` (ended by -1) whose value was set somewhere, else at the config file. */
__attribute__((format(printf, 4, 5))) static int vfail(const struct mw_config *c, struct mw_err *e,
                                                       const int *fields, const char *fmt, ...)
{
    const char *file = c->source[0] ? c->source : NULL;
    int line = 0, col = 0;
    /* a --set among the fields first: the user's last change is what made a consistent file inconsistent */
    for (const int *f = fields; *f >= 0 && !line; f++)
        if (c->origin[*f].kind == MW_ORIGIN_SET) file = SET_FILE, line = 1, col = c->origin[*f].col;
    for (const int *f = fields; *f >= 0 && !line; f++) {
        const struct mw_cfg_origin *o = &c->origin[*f];
        if (o->kind == MW_ORIGIN_FILE && o->line > 0) line = o->line, col = o->col;
    }
    va_list ap;
    va_start(ap, fmt);
    int rc = verr_at(e, MW_EINVAL, file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

/* The fields a check involves, most specific first. */
#define AT(...) ((const int[]){__VA_ARGS__, -1})
#define LL(x) ((long long)(x))

static int validate_sm(const struct mw_config *c, struct mw_err *e)
{
    if (c->sm.max_threads % MW_WARP_SIZE)
        return vfail(c, e, AT(FI_sm_max_threads), "sm.max_threads: %lld is not a multiple of the warp size %d",
                     LL(c->sm.max_threads), MW_WARP_SIZE);
    if (c->sm.max_threads > c->sm.max_warps * MW_WARP_SIZE)
        return vfail(c, e, AT(FI_sm_max_threads, FI_sm_max_warps),
                     "sm.max_threads: %lld threads need %lld warps but sm.max_warps is %lld", LL(c->sm.max_threads),
                     LL(c->sm.max_threads / MW_WARP_SIZE), LL(c->sm.max_warps));
    if (c->sm.n_schedulers > c->sm.max_warps)
        return vfail(c, e, AT(FI_sm_n_schedulers, FI_sm_max_warps),
                     "sm.n_schedulers: %lld schedulers for %lld warps leaves some without a warp",
                     LL(c->sm.n_schedulers), LL(c->sm.max_warps));
    if (c->sm.max_ctas > c->sm.max_warps)
        return vfail(c, e, AT(FI_sm_max_ctas, FI_sm_max_warps),
                     "sm.max_ctas: %lld CTAs cannot be resident in %lld warps (a CTA holds at least one warp)",
                     LL(c->sm.max_ctas), LL(c->sm.max_warps));
    if (c->sm.reg_alloc_unit > c->sm.registers)
        return vfail(c, e, AT(FI_sm_reg_alloc_unit, FI_sm_registers),
                     "sm.reg_alloc_unit: %lld is larger than the register file (sm.registers %lld)",
                     LL(c->sm.reg_alloc_unit), LL(c->sm.registers));
    return 0;
}

/* Line and sector sizes of one cache level. */
static int validate_line(const struct mw_config *c, struct mw_err *e, const char *lvl, int64_t line, int fline,
                         int64_t sector, int fsector)
{
    if (!is_pow2(line) || line < 32)
        return vfail(c, e, AT(fline), "%s.line_bytes: %lld is not a power of two of at least 32", lvl, LL(line));
    if (!is_pow2(sector))
        return vfail(c, e, AT(fsector), "l1d.sector_bytes: %lld is not a power of two", LL(sector));
    if (line % sector)
        return vfail(c, e, AT(fline, fsector), "%s.line_bytes: %lld is not a multiple of l1d.sector_bytes %lld", lvl,
                     LL(line), LL(sector));
    if (line / sector > 8)
        return vfail(c, e, AT(fline, fsector),
                     "%s.line_bytes: %lld holds %lld sectors of %lld bytes; at most 8 fit the sector masks", lvl,
                     LL(line), LL(line / sector), LL(sector));
    return 0;
}

static int validate_caches(const struct mw_config *c, struct mw_err *e)
{
    int rc = validate_line(c, e, "l1d", c->l1d.line_bytes, FI_l1d_line_bytes, c->l1d.sector_bytes,
                           FI_l1d_sector_bytes);
    if (rc) return rc;
    if (c->l1d.organisation == MW_L1D_ORG_CHUNKED && c->l1d.line_bytes != 128)
        return vfail(c, e, AT(FI_l1d_organisation, FI_l1d_line_bytes),
                     "l1d.organisation: chunked needs 128 B lines, l1d.line_bytes is %lld", LL(c->l1d.line_bytes));
    if (c->l1d.organisation == MW_L1D_ORG_CHUNKED && c->l1d.alloc != MW_ALLOC_ON_MISS)
        return vfail(c, e, AT(FI_l1d_organisation, FI_l1d_alloc), "l1d.organisation: chunked needs l1d.alloc: on_miss");
    rc = validate_line(c, e, "l2", c->l2.line_bytes, FI_l2_line_bytes, c->l1d.sector_bytes, FI_l1d_sector_bytes);
    if (rc) return rc;
    rc = validate_line(c, e, "l1i", c->l1i.line_bytes, FI_l1i_line_bytes, c->l1d.sector_bytes, FI_l1d_sector_bytes);
    if (rc) return rc;
    int64_t seti = c->l1i.line_bytes * c->l1i.assoc;
    if (c->l1i.size_bytes % seti || c->l1i.size_bytes < seti)
        return vfail(c, e, AT(FI_l1i_size_bytes, FI_l1i_assoc, FI_l1i_line_bytes),
                     "l1i.size_bytes: %lld is not a whole number of sets of line_bytes x assoc = %lld bytes",
                     LL(c->l1i.size_bytes), LL(seti));
    if (!is_pow2(c->sm.inst_bytes))
        return vfail(c, e, AT(FI_sm_inst_bytes), "sm.inst_bytes: %lld is not a power of two", LL(c->sm.inst_bytes));
    /* L1D: any whole number of sets (Linebacker's 48 KB 8-way L1D has 48); the L2 slice: a power of two */
    int64_t set1 = c->l1d.line_bytes * c->l1d.assoc;
    if (c->l1d.size_bytes % set1 || c->l1d.size_bytes < set1)
        return vfail(c, e, AT(FI_l1d_size_bytes, FI_l1d_assoc, FI_l1d_line_bytes),
                     "l1d.size_bytes: %lld is not a whole number of sets of line_bytes x assoc = %lld bytes",
                     LL(c->l1d.size_bytes), LL(set1));
    int64_t nset1 = c->l1d.size_bytes / set1;
    if (c->l1d.index == MW_IDX_FERMI_HASH && nset1 != 32 && nset1 != 64)
        return vfail(c, e, AT(FI_l1d_index, FI_l1d_size_bytes), "l1d.index: fermi_hash needs 32 or 64 sets, the L1D has %lld",
                     LL(nset1));
    if (c->l1d.index == MW_IDX_XOR && !is_pow2(nset1))
        return vfail(c, e, AT(FI_l1d_index, FI_l1d_size_bytes), "l1d.index: xor needs a power-of-two set count, the L1D has %lld",
                     LL(nset1));
    if (c->l1d.index == MW_IDX_XOR_FOLD && !is_pow2(nset1))
        return vfail(c, e, AT(FI_l1d_index, FI_l1d_size_bytes),
                     "l1d.index: xor_fold needs a power-of-two set count, the L1D has %lld", LL(nset1));
    int64_t set2 = c->l2.line_bytes * c->l2.assoc;
    if (c->l2.slice_bytes % set2 || c->l2.slice_bytes < set2)
        return vfail(c, e, AT(FI_l2_slice_bytes, FI_l2_assoc, FI_l2_line_bytes),
                     "l2.slice_bytes: %lld is not a whole number of sets of line_bytes x assoc = %lld bytes",
                     LL(c->l2.slice_bytes), LL(set2));
    if (!is_pow2(c->l2.slice_bytes / set2))
        return vfail(c, e, AT(FI_l2_slice_bytes, FI_l2_assoc, FI_l2_line_bytes),
                     "l2.slice_bytes: %lld gives %lld sets of %lld bytes; the set count must be a power of two",
                     LL(c->l2.slice_bytes), LL(c->l2.slice_bytes / set2), LL(set2));
    if (c->l1d.line_bytes > c->l2.line_bytes)
        return vfail(c, e, AT(FI_l1d_line_bytes, FI_l2_line_bytes),
                     "l1d.line_bytes: %lld is larger than l2.line_bytes %lld", LL(c->l1d.line_bytes),
                     LL(c->l2.line_bytes));
    if (!is_pow2(c->l2.interleave_bytes))
        return vfail(c, e, AT(FI_l2_interleave_bytes), "l2.interleave_bytes: %lld is not a power of two",
                     LL(c->l2.interleave_bytes));
    if (c->l2.interleave_bytes < c->l2.line_bytes)
        return vfail(c, e, AT(FI_l2_interleave_bytes, FI_l2_line_bytes),
                     "l2.interleave_bytes: %lld is smaller than l2.line_bytes %lld (a line would span partitions)",
                     LL(c->l2.interleave_bytes), LL(c->l2.line_bytes));
    /* the largest packet (a line of data plus its header) must fit a destination buffer */
    int64_t pkt = c->icnt.header_bytes + c->l1d.line_bytes;
    int64_t flits = (pkt + c->icnt.flit_bytes - 1) / c->icnt.flit_bytes;
    if (c->icnt.in_buffer_flits < flits)
        return vfail(c, e, AT(FI_icnt_in_buffer_flits, FI_icnt_flit_bytes, FI_icnt_header_bytes),
                     "icnt.in_buffer_flits: %lld flits cannot hold one %lld-byte packet (%lld flits of %lld bytes)",
                     LL(c->icnt.in_buffer_flits), LL(pkt), LL(flits), LL(c->icnt.flit_bytes));
    return 0;
}

static int validate_dram(const struct mw_config *c, struct mw_err *e)
{
    if (!is_pow2(c->dram.banks))
        return vfail(c, e, AT(FI_dram_banks), "dram.banks: %lld is not a power of two", LL(c->dram.banks));
    if (c->dram.banks % c->dram.bank_groups)
        return vfail(c, e, AT(FI_dram_bank_groups, FI_dram_banks), "dram.bank_groups: %lld does not divide dram.banks %lld",
                     LL(c->dram.bank_groups), LL(c->dram.banks));
    int64_t atom = c->dram.bus_bytes * c->dram.burst_length;
    if (!is_pow2(atom))
        return vfail(c, e, AT(FI_dram_bus_bytes, FI_dram_burst_length),
                     "dram.bus_bytes x dram.burst_length = %lld bytes is not a power of two", LL(atom));
    if (c->dram.tRC < c->dram.tRAS + c->dram.tRP)
        return vfail(c, e, AT(FI_dram_tRC, FI_dram_tRAS, FI_dram_tRP), "dram.tRC: %lld is less than tRAS + tRP = %lld",
                     LL(c->dram.tRC), LL(c->dram.tRAS + c->dram.tRP));
    if (c->dram.write_low > c->dram.write_high)
        return vfail(c, e, AT(FI_dram_write_low, FI_dram_write_high), "dram.write_low: %lld is above dram.write_high %lld",
                     LL(c->dram.write_low), LL(c->dram.write_high));
    if (c->dram.write_high > c->dram.write_queue)
        return vfail(c, e, AT(FI_dram_write_high, FI_dram_write_queue),
                     "dram.write_high: %lld is above dram.write_queue %lld", LL(c->dram.write_high),
                     LL(c->dram.write_queue));
    int n[4] = {0, 0, 0, 0}; /* R B C S */
    for (const char *p = c->dram.address_map; *p; p++) {
        const char *k = strchr("RBCS", *p);
        if (*p == '.') continue;
        if (!k)
            return vfail(c, e, AT(FI_dram_address_map), "dram.address_map: '%c' is not one of R, B, C, S or '.'",
                         *p);
        n[k - "RBCS"]++;
    }
    if (n[1] != log2_i64(c->dram.banks))
        return vfail(c, e, AT(FI_dram_address_map, FI_dram_banks),
                     "dram.address_map: %d B bits but dram.banks %lld needs %d", n[1], LL(c->dram.banks),
                     log2_i64(c->dram.banks));
    if (n[3] != log2_i64(atom))
        return vfail(c, e, AT(FI_dram_address_map, FI_dram_bus_bytes, FI_dram_burst_length),
                     "dram.address_map: %d S bits but a burst (bus_bytes x burst_length) is %lld bytes and needs %d",
                     n[3], LL(atom), log2_i64(atom));
    if (!n[0]) return vfail(c, e, AT(FI_dram_address_map), "dram.address_map: no R (row) bits");
    if (!n[2]) return vfail(c, e, AT(FI_dram_address_map), "dram.address_map: no C (column) bits");
    if (n[0] + n[1] + n[2] + n[3] > 48)
        return vfail(c, e, AT(FI_dram_address_map), "dram.address_map: %d bits is more than 48",
                     n[0] + n[1] + n[2] + n[3]);
    return 0;
}

static int validate_policies(const struct mw_config *c, struct mw_err *e)
{
    for (int pt = 0; pt < MW_SLOT_COUNT; pt++) {
        const struct mw_policy_choice *ch = &c->policy[pt];
        const char *file = ch->file[0] ? ch->file : NULL;
        if (!ch->impl[0]) return err_at(e, file, ch->line, ch->col, "policies.%s: no policy chosen", mw_slot_names[pt]);
        int rc = check_impl(pt, ch->impl, e, file, ch->line, ch->col);
        if (rc) return rc;
        if (strcmp(ch->impl, "lua") == 0) {
            if (pt == MW_SLOT_L2_REPLACEMENT || pt == MW_SLOT_BUNDLE2) /* a Lua bundle (policies.bundle) is a script like any other */
                return err_at(e, file, ch->line, ch->col,
                              "policies.%s: impl 'lua' is not supported here (use a built-in)", mw_slot_names[pt]);
            if (!ch->script[0])
                return err_at(e, file, ch->line, ch->col, "policies.%s: impl 'lua' needs a 'script'",
                              mw_slot_names[pt]);
            continue;
        }
        const struct mw_policy *p = mw_policy_find(mw_slot_point(pt), ch->impl);
        for (int i = 0; i < ch->nparams; i++) {
            const char *pf = ch->params[i].file[0] ? ch->params[i].file : NULL;
            if (!mw_policy_param_find(p, ch->params[i].key))
                return unknown_param(p, ch->params[i].key, e, pf, ch->params[i].line, ch->params[i].col);
            rc = check_param_value(p, ch->params[i].key, ch->params[i].value, e, pf, ch->params[i].line,
                                   ch->params[i].col);
            if (rc) return rc;
        }
    }
    return 0;
}

int mw_config_validate(const struct mw_config *c, struct mw_err *e)
{
    int rc = validate_sm(c, e);
    if (!rc) rc = validate_caches(c, e);
    if (!rc) rc = validate_dram(c, e);
    if (!rc) rc = validate_policies(c, e);
    return rc;
}
