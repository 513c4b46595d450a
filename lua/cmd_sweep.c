/* `moonwarp sweep spec.yaml`: a sweep (workloads x policies x seeds) written in YAML for people who do not write
 * Lua, validated here with file:line:col errors and run by moonwarp.experiment's X.sweep (the store, jobs and
 * progress of X.run); `moonwarp results DB`: what a results store holds, as lines or CSV. docs/sweeps.md. */
#include "cmd_sweep.h"
#include "config.h"
#include "lworkload.h"
#include "repl.h"
#include "workload.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

enum { EXIT_INPUT = 2, EXIT_RUN = 3 };

/* ---- the spec ------------------------------------------------------------------------------------------------ */

struct spec {
    const char *file;
    yaml_document_t *doc;
    lua_State *L;
    struct mw_config *cfg; /* the preset with `sets` applied: policies are checked against it */
};

static int line_of(const yaml_node_t *n) { return (int)n->start_mark.line + 1; }
static int col_of(const yaml_node_t *n) { return (int)n->start_mark.column + 1; }
static const char *text(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }
static yaml_node_t *nd(struct spec *S, int id) { return yaml_document_get_node(S->doc, id); }

__attribute__((format(printf, 4, 5))) static int at(struct spec *S, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d:%d: ", S->file, line, col);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}
#define ERR(S, n, ...) at(S, line_of(n), col_of(n), __VA_ARGS__)

static const char *kind(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE ? "a scalar" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a mapping";
}

static int want(struct spec *S, yaml_node_t *n, yaml_node_type_t t, const char *what)
{
    if (n->type == t) return 0;
    const char *exp = t == YAML_SCALAR_NODE ? "a scalar" : t == YAML_SEQUENCE_NODE ? "a list" : "a mapping";
    return ERR(S, n, "%s: expected %s, got %s", what, exp, kind(n));
}

static int want_int(struct spec *S, yaml_node_t *n, const char *what, long long *out)
{
    if (want(S, n, YAML_SCALAR_NODE, what)) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(text(n), &end, 10);
    if (errno || end == text(n) || *end || v < 0)
        return ERR(S, n, "%s: expected a non-negative integer, got '%s'", what, text(n));
    *out = v;
    return 0;
}

/* Keys of a mapping must be scalars and appear once. */
static int check_key(struct spec *S, yaml_node_t *map, yaml_node_pair_t *pair)
{
    yaml_node_t *k = nd(S, pair->key);
    if (k->type != YAML_SCALAR_NODE) return ERR(S, k, "a key must be a scalar, got %s", kind(k));
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pair; q++)
        if (!strcmp(text(nd(S, q->key)), text(k))) return ERR(S, k, "'%s' given twice", text(k));
    return 0;
}

/* "section.key=value" applied to S->cfg, its errors placed at the YAML key or value they came from. */
static int assign(struct spec *S, yaml_node_t *k, yaml_node_t *v, const char *what)
{
    if (want(S, v, YAML_SCALAR_NODE, what)) return -1;
    char a[1024];
    size_t klen = strlen(text(k));
    if (snprintf(a, sizeof a, "%s=%s", text(k), text(v)) >= (int)sizeof a) return ERR(S, v, "%s: too long", what);
    struct mw_err e;
    mw_err_clear(&e);
    if (!mw_config_set(S->cfg, a, &e)) return 0;
    if (e.col > (int)klen + 1) return at(S, line_of(v), col_of(v) + e.col - (int)klen - 2, "%s", e.msg);
    return at(S, line_of(k), col_of(k) + (e.col > 0 ? e.col - 1 : 0), "%s", e.msg);
}

static const struct mw_builtin_desc *builtin(const char *name)
{
    for (int i = 0; i < mw_builtin_nworkloads; i++)
        if (!strcmp(mw_builtin_workloads[i].name, name)) return &mw_builtin_workloads[i];
    return NULL;
}

static bool size_ok(const char *sizes, const char *size)
{
    size_t n = strlen(size);
    for (const char *p = sizes; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, size, n)) return true;
        p = bar ? bar + 1 : NULL;
    }
    return false;
}

/* One workload: a name (built-in or a .lua file) or {name, size}; pushes {name=, size=}. */
static int workload(struct spec *S, yaml_node_t *n, const char *dflt_size)
{
    yaml_node_t *name = NULL, *size = NULL;
    if (n->type == YAML_SCALAR_NODE) name = n;
    else if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            if (check_key(S, n, p)) return -1;
            yaml_node_t *k = nd(S, p->key), *v = nd(S, p->value);
            if (!strcmp(text(k), "name")) name = v;
            else if (!strcmp(text(k), "size")) size = v;
            else return ERR(S, k, "workloads: unknown key '%s' (name, size)", text(k));
            if (want(S, v, YAML_SCALAR_NODE, text(k))) return -1;
        }
        if (!name) return ERR(S, n, "workloads: an entry needs a name");
    } else return ERR(S, n, "workloads: expected a name or a mapping {name, size}, got a list");
    const char *sz = size ? text(size) : dflt_size;
    const struct mw_builtin_desc *d = builtin(text(name));
    if (!d && !(mw_lua_workload_path(text(name)) && access(text(name), R_OK) == 0))
        return ERR(S, name, "unknown workload '%s' (moonwarp list-workloads)", text(name));
    if (d && sz && !size_ok(d->sizes, sz))
        return size ? ERR(S, size, "workload %s has no size '%s' (%s)", d->name, sz, d->sizes)
                    : ERR(S, name, "workload %s has no size '%s' (%s)", d->name, sz, d->sizes);
    lua_createtable(S->L, 0, 2);
    lua_pushstring(S->L, text(name));
    lua_setfield(S->L, -2, "name");
    if (size) {
        lua_pushstring(S->L, text(size));
        lua_setfield(S->L, -2, "size");
    }
    return 0;
}

/* One policy: name plus policies.<point>[.<param>] assignments; pushes {name=, set={...}}. Checked against a
 * copy of the config so that one policy's choices do not leak into the next. */
static int policy(struct spec *S, yaml_node_t *n)
{
    if (want(S, n, YAML_MAPPING_NODE, "policies: an entry")) return -1;
    struct mw_config *saved = malloc(sizeof *saved);
    if (!saved) return ERR(S, n, "out of memory");
    *saved = *S->cfg;
    yaml_node_t *name = NULL;
    int rc = 0, nset = 0;
    lua_createtable(S->L, 0, 2);
    lua_newtable(S->L);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; !rc && p < n->data.mapping.pairs.top; p++) {
        if ((rc = check_key(S, n, p))) break;
        yaml_node_t *k = nd(S, p->key), *v = nd(S, p->value);
        if (!strcmp(text(k), "name")) {
            name = v;
            rc = want(S, v, YAML_SCALAR_NODE, "name");
        } else if (strncmp(text(k), "policies.", 9)) {
            rc = ERR(S, k, "policies: unknown key '%s' (name, policies.<point>, policies.<point>.<param>)", text(k));
        } else if (!(rc = assign(S, k, v, text(k)))) {
            lua_pushfstring(S->L, "%s=%s", text(k), text(v));
            lua_rawseti(S->L, -2, ++nset);
        }
    }
    *S->cfg = *saved;
    free(saved);
    if (rc) return rc;
    if (!name) return ERR(S, n, "policies: an entry needs a name");
    lua_setfield(S->L, -2, "set");
    lua_pushstring(S->L, text(name));
    lua_setfield(S->L, -2, "name");
    return 0;
}

static int seq(struct spec *S, yaml_node_t *v, const char *what)
{
    if (want(S, v, YAML_SEQUENCE_NODE, what)) return -1;
    if (v->data.sequence.items.start == v->data.sequence.items.top) return ERR(S, v, "%s: the list is empty", what);
    return 0;
}

#define EACH(v, it) for (yaml_node_item_t *it = (v)->data.sequence.items.start; it < (v)->data.sequence.items.top; it++)

/* A yes/no scalar (YAML 1.1 spellings). */
static int want_bool(struct spec *S, yaml_node_t *n, const char *what, bool *out)
{
    if (want(S, n, YAML_SCALAR_NODE, what)) return -1;
    static const char *const yes[] = {"true", "yes", "on", "True", "Yes", "On", "TRUE", "YES", "ON", NULL};
    static const char *const no[] = {"false", "no", "off", "False", "No", "Off", "FALSE", "NO", "OFF", NULL};
    for (int i = 0; yes[i]; i++)
        if (!strcmp(text(n), yes[i])) return *out = true, 0;
    for (int i = 0; no[i]; i++)
        if (!strcmp(text(n), no[i])) return *out = false, 0;
    return ERR(S, n, "%s: expected true or false, got '%s'", what, text(n));
}

/* A number of seconds > 0. */
static int want_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return errno || end == s || *end || !(*out > 0) || *out > 1e6 ? -1 : 0;
}

/* The Slurm backend's keys (docs/sweeps.md): v[0..8] = backend, partition, time, shared, binary, wait, poll,
 * submit, sbatch; set in the spec table on top of the stack. */
static int slurm_keys(struct spec *S, yaml_node_t **v)
{
    lua_State *L = S->L;
    static const char *const str[] = {"backend", "partition", "time", "shared", "binary"};
    for (int i = 0; i < 5; i++) {
        if (!v[i]) continue;
        if (want(S, v[i], YAML_SCALAR_NODE, str[i])) return -1;
        if (!*text(v[i])) return ERR(S, v[i], "%s: the value is empty", str[i]);
        lua_pushstring(L, text(v[i]));
        lua_setfield(L, -2, str[i]);
    }
    if (v[0] && strcmp(text(v[0]), "local") && strcmp(text(v[0]), "slurm"))
        return ERR(S, v[0], "backend: expected local or slurm, got '%s'", text(v[0]));
    for (int i = 5; i <= 7; i += 2) {
        bool b = false;
        if (!v[i]) continue;
        if (want_bool(S, v[i], i == 5 ? "wait" : "submit", &b)) return -1;
        lua_pushboolean(L, b);
        lua_setfield(L, -2, i == 5 ? "wait" : "submit");
    }
    if (v[6]) {
        double p;
        if (want(S, v[6], YAML_SCALAR_NODE, "poll")) return -1;
        if (want_seconds(text(v[6]), &p)) return ERR(S, v[6], "poll: expected seconds > 0, got '%s'", text(v[6]));
        lua_pushnumber(L, p);
        lua_setfield(L, -2, "poll");
    }
    if (v[8]) {
        if (want(S, v[8], YAML_SEQUENCE_NODE, "sbatch")) return -1;
        lua_newtable(L);
        int n = 0;
        EACH(v[8], it) {
            yaml_node_t *a = nd(S, *it);
            if (want(S, a, YAML_SCALAR_NODE, "sbatch: an entry")) return -1;
            if (strncmp(text(a), "--", 2) || strchr(text(a), '\n'))
                return ERR(S, a, "sbatch: expected an option such as --mem=2G, got '%s'", text(a));
            lua_pushstring(L, text(a));
            lua_rawseti(L, -2, ++n);
        }
        lua_setfield(L, -2, "sbatch");
    }
    return 0;
}

/* The root mapping; leaves the spec table for X.sweep on the Lua stack. */
static int root(struct spec *S, yaml_node_t *r)
{
    if (!r) return at(S, 1, 1, "the spec is empty");
    if (want(S, r, YAML_MAPPING_NODE, "the spec")) return -1;
    static const char *const known[] = {"config",  "workloads", "traces",    "policies", "sets",  "seeds",
                                        "size",    "store",     "jobs",      "out",      "metric", "baseline",
                                        "backend", "partition", "time",      "shared",   "binary", "wait",
                                        "poll",    "submit",    "sbatch",    NULL};
    yaml_node_t *val[21] = {0};
    for (yaml_node_pair_t *p = r->data.mapping.pairs.start; p < r->data.mapping.pairs.top; p++) {
        if (check_key(S, r, p)) return -1;
        yaml_node_t *k = nd(S, p->key);
        int i = 0;
        while (known[i] && strcmp(known[i], text(k))) i++;
        if (!known[i])
            return ERR(S, k, "unknown key '%s' (config, workloads, traces, policies, sets, seeds, size, store, jobs, "
                             "out, metric, baseline, backend, partition, time, shared, binary, wait, poll, submit, "
                             "sbatch)", text(k));
        val[i] = nd(S, p->value);
    }
    enum { CONFIG, WORKLOADS, TRACES, POLICIES, SETS, SEEDS, SIZE, STORE, JOBS, OUT, METRIC, BASELINE, BACKEND,
           PARTITION, TIME, SHARED, BINARY, WAIT, POLL, SUBMIT, SBATCH };
    if (!val[WORKLOADS] && !val[TRACES]) return ERR(S, r, "missing 'workloads' (or 'traces')");
    if (!val[POLICIES]) return ERR(S, r, "missing 'policies'");
    lua_State *L = S->L;
    lua_newtable(L);
    for (int i = SIZE; i <= BASELINE; i++) {
        if (!val[i] || i == JOBS) continue;
        if (want(S, val[i], YAML_SCALAR_NODE, known[i])) return -1;
        lua_pushstring(L, text(val[i]));
        lua_setfield(L, -2, known[i]);
    }
    if (val[JOBS]) {
        long long j;
        if (want_int(S, val[JOBS], "jobs", &j)) return -1;
        lua_pushinteger(L, j);
        lua_setfield(L, -2, "jobs");
    }
    if (slurm_keys(S, val + BACKEND)) return -1;
    struct mw_err e;
    mw_err_clear(&e);
    if (val[CONFIG]) {
        if (want(S, val[CONFIG], YAML_SCALAR_NODE, "config")) return -1;
        if (access(text(val[CONFIG]), R_OK))
            return ERR(S, val[CONFIG], "config: cannot read '%s': %s", text(val[CONFIG]), strerror(errno));
        if (mw_config_load_file(S->cfg, text(val[CONFIG]), &e)) {
            char buf[1600];
            return ERR(S, val[CONFIG], "config: %s", mw_err_str(&e, buf, sizeof buf));
        }
        lua_pushstring(L, text(val[CONFIG]));
        lua_setfield(L, -2, "config");
    }
    if (val[SETS]) {
        if (want(S, val[SETS], YAML_MAPPING_NODE, "sets")) return -1;
        lua_newtable(L);
        int n = 0;
        for (yaml_node_pair_t *p = val[SETS]->data.mapping.pairs.start; p < val[SETS]->data.mapping.pairs.top; p++) {
            if (check_key(S, val[SETS], p)) return -1;
            yaml_node_t *k = nd(S, p->key), *v = nd(S, p->value);
            if (assign(S, k, v, text(k))) return -1;
            lua_pushfstring(L, "%s=%s", text(k), text(v));
            lua_rawseti(L, -2, ++n);
        }
        lua_setfield(L, -2, "set");
    }
    if (mw_config_validate(S->cfg, &e)) {
        char buf[1600];
        return ERR(S, val[SETS] ? val[SETS] : val[CONFIG] ? val[CONFIG] : r, "%s", mw_err_str(&e, buf, sizeof buf));
    }
    const char *dsize = val[SIZE] ? text(val[SIZE]) : NULL;
    lua_newtable(L);
    int n = 0;
    if (val[WORKLOADS]) {
        if (seq(S, val[WORKLOADS], "workloads")) return -1;
        EACH(val[WORKLOADS], it) {
            if (workload(S, nd(S, *it), dsize)) return -1;
            lua_rawseti(L, -2, ++n);
        }
    }
    if (val[TRACES]) {
        if (seq(S, val[TRACES], "traces")) return -1;
        EACH(val[TRACES], it) {
            yaml_node_t *t = nd(S, *it);
            if (want(S, t, YAML_SCALAR_NODE, "traces: an entry")) return -1;
            if (access(text(t), R_OK)) return ERR(S, t, "traces: cannot read '%s': %s", text(t), strerror(errno));
            lua_createtable(L, 0, 1);
            lua_pushstring(L, text(t));
            lua_setfield(L, -2, "trace");
            lua_rawseti(L, -2, ++n);
        }
    }
    lua_setfield(L, -2, "workloads");
    if (seq(S, val[POLICIES], "policies")) return -1;
    lua_newtable(L);
    n = 0;
    EACH(val[POLICIES], it) {
        if (policy(S, nd(S, *it))) return -1;
        lua_getfield(L, -1, "name");
        for (yaml_node_item_t *jt = val[POLICIES]->data.sequence.items.start; jt < it; jt++) {
            lua_rawgeti(L, -3, (lua_Integer)(jt - val[POLICIES]->data.sequence.items.start) + 1);
            lua_getfield(L, -1, "name");
            bool same = lua_rawequal(L, -1, -3);
            lua_pop(L, 2);
            if (same) return ERR(S, nd(S, *it), "policies: the name '%s' is used twice", lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        lua_rawseti(L, -2, ++n);
    }
    lua_setfield(L, -2, "policies");
    if (val[BASELINE]) {
        bool found = false;
        for (int i = 1; i <= n; i++) {
            lua_getfield(L, -1, "policies");
            lua_rawgeti(L, -1, i);
            lua_getfield(L, -1, "name");
            found |= !strcmp(lua_tostring(L, -1), text(val[BASELINE]));
            lua_pop(L, 3);
        }
        if (!found) return ERR(S, val[BASELINE], "baseline: no policy is named '%s'", text(val[BASELINE]));
    }
    if (val[SEEDS]) {
        if (seq(S, val[SEEDS], "seeds")) return -1;
        lua_newtable(L);
        n = 0;
        EACH(val[SEEDS], it) {
            long long sd;
            if (want_int(S, nd(S, *it), "seeds", &sd)) return -1;
            if (sd > 4294967295LL) return ERR(S, nd(S, *it), "seeds: %lld is not below 2^32", sd);
            lua_pushinteger(L, sd);
            lua_rawseti(L, -2, ++n);
        }
        lua_setfield(L, -2, "seeds");
    }
    return 0;
}

/* Parse and check the spec; on success the spec table is on L's stack. */
int mw_sweep_load_spec(lua_State *L, const char *path)
{
    unsigned char *buf;
    size_t len;
    struct mw_err e;
    mw_err_clear(&e);
    if (mw_yaml_read(path, &buf, &len, &e)) { /* the limits of every YAML input */
        if (e.line) fprintf(stderr, "%s:%d:%d: %s\n", e.file, e.line, e.col, e.msg);
        else fprintf(stderr, "moonwarp: sweep: %s: %s\n", path, e.msg);
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    struct mw_config *cfg = malloc(sizeof *cfg);
    if (!cfg || !yaml_parser_initialize(&parser)) {
        free(cfg);
        free(buf);
        fprintf(stderr, "moonwarp: out of memory\n");
        return -1;
    }
    mw_config_defaults(cfg);
    yaml_parser_set_input_string(&parser, buf, len);
    struct spec S = {path, &doc, L, cfg};
    int rc;
    if (!yaml_parser_load(&parser, &doc)) {
        const char *problem = parser.problem ? parser.problem : "malformed document";
        rc = at(&S, (int)parser.problem_mark.line + 1, (int)parser.problem_mark.column + 1, "YAML syntax error: %s",
                problem);
    } else {
        rc = root(&S, yaml_document_get_root_node(&doc));
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    free(cfg);
    free(buf);
    return rc;
}

#define SWEEP_USAGE                                                                                               \
    "usage: moonwarp sweep SPEC.yaml [--store DB] [--jobs N] [--out DIR]\n"                                        \
    "         [--backend local|slurm] [--shared DIR] [--partition P] [--time T] [--sbatch OPTION]...\n"            \
    "         [--binary PATH] [--wait] [--poll SECONDS] [--no-submit]\n"

int mw_cmd_sweep(int argc, char **argv)
{
    const char *file = NULL, *store = NULL, *out = NULL, *jobs = NULL, *backend = NULL, *shared = NULL;
    const char *partition = NULL, *time = NULL, *binary = NULL, *poll = NULL;
    const char **sbatch = calloc((size_t)argc, sizeof *sbatch);
    int nsbatch = 0, wait = -1, submit = -1, rc = EXIT_INPUT;
    if (!sbatch) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], **dst = !strcmp(a, "--store")       ? &store
                                         : !strcmp(a, "--out")       ? &out
                                         : !strcmp(a, "--jobs")      ? &jobs
                                         : !strcmp(a, "--backend")   ? &backend
                                         : !strcmp(a, "--shared")    ? &shared
                                         : !strcmp(a, "--partition") ? &partition
                                         : !strcmp(a, "--time")      ? &time
                                         : !strcmp(a, "--binary")    ? &binary
                                         : !strcmp(a, "--poll")      ? &poll
                                         : !strcmp(a, "--sbatch")    ? &sbatch[nsbatch]
                                                                     : NULL;
        if (dst) {
            if (i + 1 >= argc) {
                fprintf(stderr, "moonwarp: sweep: %s needs a value\n", a);
                goto done;
            }
            *dst = argv[++i];
            if (dst == &sbatch[nsbatch]) nsbatch++;
        } else if (!strcmp(a, "--wait")) {
            wait = 1;
        } else if (!strcmp(a, "--no-submit")) {
            submit = 0;
        } else if (a[0] == '-' || file) {
            fprintf(stderr, "moonwarp: sweep: unexpected argument '%s'\n" SWEEP_USAGE, a);
            goto done;
        } else file = a;
    }
    if (!file) {
        fputs(SWEEP_USAGE, stderr);
        goto done;
    }
    long long nj = -1;
    if (jobs) {
        char *end;
        nj = strtoll(jobs, &end, 10);
        if (*end || end == jobs || nj < 0) {
            fprintf(stderr, "moonwarp: sweep: --jobs: '%s' is not a non-negative integer\n", jobs);
            goto done;
        }
    }
    double pollv = 0;
    if (poll && want_seconds(poll, &pollv)) {
        fprintf(stderr, "moonwarp: sweep: --poll: '%s' is not a number of seconds > 0\n", poll);
        goto done;
    }
    if (backend && strcmp(backend, "local") && strcmp(backend, "slurm")) {
        fprintf(stderr, "moonwarp: sweep: --backend: expected local or slurm, got '%s'\n", backend);
        goto done;
    }
    for (int i = 0; i < nsbatch; i++)
        if (strncmp(sbatch[i], "--", 2)) {
            fprintf(stderr, "moonwarp: sweep: --sbatch: expected an option such as --mem=2G, got '%s'\n", sbatch[i]);
            goto done;
        }
    lua_State *L = mw_lua_new_state();
    if (!L) {
        fprintf(stderr, "moonwarp: cannot create a Lua state\n");
        rc = 1;
        goto done;
    }
    if (mw_sweep_load_spec(L, file)) {
        lua_close(L);
        goto done;
    }
    /* the options override the spec */
    const char *const names[] = {"store", "out", "backend", "shared", "partition", "time", "binary"};
    const char *const vals[] = {store, out, backend, shared, partition, time, binary};
    for (int i = 0; i < 7; i++)
        if (vals[i]) lua_pushstring(L, vals[i]), lua_setfield(L, -2, names[i]);
    if (nj >= 0) lua_pushinteger(L, nj), lua_setfield(L, -2, "jobs");
    if (poll) lua_pushnumber(L, pollv), lua_setfield(L, -2, "poll");
    if (wait >= 0) lua_pushboolean(L, wait), lua_setfield(L, -2, "wait");
    if (submit >= 0) lua_pushboolean(L, submit), lua_setfield(L, -2, "submit");
    if (nsbatch) {
        lua_createtable(L, nsbatch, 0);
        for (int i = 0; i < nsbatch; i++) lua_pushstring(L, sbatch[i]), lua_rawseti(L, -2, i + 1);
        lua_setfield(L, -2, "sbatch");
    }
    lua_getfield(L, -1, "backend");
    bool slurm = lua_isstring(L, -1) && !strcmp(lua_tostring(L, -1), "slurm");
    lua_getfield(L, -2, "shared");
    lua_getfield(L, -3, "store");
    if (slurm && (lua_isnil(L, -2) || lua_isnil(L, -1))) {
        fprintf(stderr, "moonwarp: sweep: the slurm backend needs %s (--%s or '%s:' in the spec)\n",
                lua_isnil(L, -2) ? "a folder every node sees" : "a store", lua_isnil(L, -2) ? "shared DIR" : "store DB",
                lua_isnil(L, -2) ? "shared" : "store");
        lua_close(L);
        goto done;
    }
    lua_pop(L, 3);
    lua_pushstring(L, file);
    lua_setfield(L, -2, "file");
    int spec = lua_gettop(L);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "moonwarp.experiment");
    rc = EXIT_RUN;
    if (mw_lua_docall(L, 1, 1) == LUA_OK) {
        lua_getfield(L, -1, "sweep");
        lua_pushvalue(L, spec);
        if (mw_lua_docall(L, 1, 1) == LUA_OK) rc = lua_toboolean(L, -1) ? 0 : EXIT_RUN;
    }
    lua_close(L);
done:
    free(sbatch);
    return rc;
}

/* `moonwarp sweep-task SUB [INDEX]`: one task of a Slurm job array (moonwarp.slurm): the run described in
 * SUB/tasks/INDEX.run (INDEX: default $SLURM_ARRAY_TASK_ID), its result or error file into the shared folder. */
int mw_cmd_sweep_task(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : NULL;
    const char *index = argc > 2 ? argv[2] : getenv("SLURM_ARRAY_TASK_ID");
    if (!sub || argc > 3 || !index || !*index || strspn(index, "0123456789") != strlen(index)) {
        fprintf(stderr, "usage: moonwarp sweep-task SUBMISSION_DIR [INDEX]   (INDEX: default $SLURM_ARRAY_TASK_ID, "
                        "a non-negative integer)\n");
        return EXIT_INPUT;
    }
    lua_State *L = mw_lua_new_state();
    if (!L) {
        fprintf(stderr, "moonwarp: cannot create a Lua state\n");
        return 1;
    }
    int rc = EXIT_RUN;
    lua_getglobal(L, "require");
    lua_pushliteral(L, "moonwarp.slurm");
    if (mw_lua_docall(L, 1, 1) == LUA_OK) {
        lua_getfield(L, -1, "task");
        lua_pushstring(L, sub);
        lua_pushstring(L, index);
        if (mw_lua_docall(L, 2, 1) == LUA_OK) rc = (int)lua_tointeger(L, -1) ? EXIT_RUN : 0;
    }
    lua_close(L);
    return rc;
}

/* ---- results ------------------------------------------------------------------------------------------------- */

/* The value of stat `name` in a store row's stats text ("name<TAB>value" lines), or NULL; the value ends at '\n'. */
static const char *stat_in(const char *stats, const char *name, size_t *len)
{
    size_t n = strlen(name);
    for (const char *p = stats; p && *p;) {
        if (!strncmp(p, name, n) && p[n] == '\t') {
            const char *v = p + n + 1, *nl = strchr(v, '\n');
            *len = nl ? (size_t)(nl - v) : strlen(v);
            return v;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return NULL;
}

/* "workload=A policy=B config=C" split into its three labels (the labels have no " policy=" in them). */
static void split_descr(const char *d, char w[256], char p[256], char c[256])
{
    w[0] = p[0] = c[0] = 0;
    const char *wp = strstr(d, "workload="), *pp = strstr(d, " policy="), *cp = strstr(d, " config=");
    if (!wp || !pp || !cp || pp < wp || cp < pp) {
        snprintf(w, 256, "%s", d);
        return;
    }
    snprintf(w, 256, "%.*s", (int)(pp - wp - 9), wp + 9);
    snprintf(p, 256, "%.*s", (int)(cp - pp - 8), pp + 8);
    snprintf(c, 256, "%s", cp + 8);
}

static void csv_field(const char *s, size_t n)
{
    if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n)) {
        fwrite(s, 1, n, stdout);
        return;
    }
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') putchar('"');
        putchar(s[i]);
    }
    putchar('"');
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every stat name of every row, sorted and distinct (the CSV's columns when --stats is not given). */
static int all_stats(sqlite3 *db, char ***names)
{
    sqlite3_stmt *q;
    int n = 0, cap = 0;
    *names = NULL;
    if (sqlite3_prepare_v2(db, "SELECT stats FROM runs", -1, &q, NULL) != SQLITE_OK) return -1;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *s = (const char *)sqlite3_column_text(q, 0);
        for (const char *p = s; p && *p;) {
            const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
            if (tab && (!nl || tab < nl)) {
                if (n == cap) *names = realloc(*names, sizeof **names * (size_t)(cap = cap ? 2 * cap : 256));
                (*names)[n++] = strndup(p, (size_t)(tab - p));
            }
            p = nl ? nl + 1 : NULL;
        }
    }
    sqlite3_finalize(q);
    qsort(*names, (size_t)n, sizeof **names, cmp_str);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && !strcmp((*names)[m - 1], (*names)[i])) free((*names)[i]);
        else (*names)[m++] = (*names)[i];
    }
    return m;
}

int mw_cmd_results(int argc, char **argv)
{
    const char *path = NULL, *stats = NULL;
    bool csv = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv")) csv = true;
        else if (!strcmp(argv[i], "--stats") && i + 1 < argc) stats = argv[++i];
        else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "moonwarp: results: unexpected argument '%s'\n"
                            "usage: moonwarp results DB [--csv] [--stats a,b,...]\n", argv[i]);
            return EXIT_INPUT;
        } else path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: moonwarp results DB [--csv] [--stats a,b,...]\n");
        return EXIT_INPUT;
    }
    struct stat sb;
    errno = 0;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "moonwarp: results: %s: %s\n", path, errno ? strerror(errno) : "not a file");
        return EXIT_INPUT;
    }
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(db, 60000) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT key, status, descr, cpu_s, wall_s, host, created, stats FROM runs "
                           "ORDER BY created, key",
                           -1, &q, NULL) != SQLITE_OK) {
        fprintf(stderr, "moonwarp: results: %s is not a moonwarp results store (%s)\n", path,
                db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return EXIT_INPUT;
    }
    /* the chosen stats: --stats, else every stat (CSV) or IPC and cycles (lines) */
    char **names = NULL;
    int nnames = 0;
    if (stats) {
        char *copy = strdup(stats);
        for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
            names = realloc(names, sizeof *names * (size_t)(nnames + 1));
            names[nnames++] = strdup(t);
        }
        free(copy);
    } else if (csv) {
        nnames = all_stats(db, &names);
    } else {
        names = malloc(2 * sizeof *names);
        names[nnames++] = strdup("gpu.ipc");
        names[nnames++] = strdup("gpu.cycles");
    }
    if (csv) {
        fputs("key,workload,policy,config,status,cpu_s,wall_s,host,created", stdout);
        for (int i = 0; i < nnames; i++) putchar(','), csv_field(names[i], strlen(names[i]));
        putchar('\n');
    }
    int rows = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *col[8];
        for (int i = 0; i < 8; i++) col[i] = sqlite3_column_text(q, i) ? (const char *)sqlite3_column_text(q, i) : "";
        char w[256], p[256], c[256];
        split_descr(col[2], w, p, c);
        if (csv) {
            const char *fields[] = {col[0], w, p, c, col[1], col[3], col[4], col[5], col[6]};
            for (int i = 0; i < 9; i++) {
                if (i) putchar(',');
                csv_field(fields[i], strlen(fields[i]));
            }
        } else {
            printf("%-22s %-14s %-10s %-9s %.12s", w, p, c, col[1], col[0]);
        }
        for (int i = 0; i < nnames; i++) {
            size_t len = 0;
            const char *v = stat_in(col[7], names[i], &len);
            if (csv) {
                putchar(',');
                if (v) csv_field(v, len);
            } else {
                printf("  %s %.*s", names[i], v ? (int)len : 1, v ? v : "-");
            }
        }
        putchar('\n');
        rows++;
    }
    int rc = sqlite3_errcode(db) == SQLITE_DONE || sqlite3_errcode(db) == SQLITE_OK ? 0 : EXIT_INPUT;
    if (rc) fprintf(stderr, "moonwarp: results: %s: %s\n", path, sqlite3_errmsg(db));
    else if (!csv) fprintf(stderr, "%d runs in %s\n", rows, path);
    for (int i = 0; i < nnames; i++) free(names[i]);
    free(names);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return rc;
}
