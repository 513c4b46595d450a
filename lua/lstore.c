/* `moonwarp.store`: the results store of sweeps (one SQLite row per completed run, keyed by a SHA-256 of
 * everything that determines the result), the run key itself, and the fork-based process pool that
 * moonwarp.experiment runs its cells in. docs/sweeps.md describes the schema, the key and resume semantics. */
#define _GNU_SOURCE /* pipe2, strsignal */
#include "lmoonwarp.h"

#include "config.h"
#include "lworkload.h"
#include "policy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STORE_MT "moonwarp.store.db"
#define JOB_MT "moonwarp.store.job"

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------------------------- */
struct sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t n;
};

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(struct sha256 *s, const unsigned char *p)
{
    uint32_t w[64], a[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(a, s->h, sizeof a);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = a[7] + (ROR(a[4], 6) ^ ROR(a[4], 11) ^ ROR(a[4], 25)) + ((a[4] & a[5]) ^ (~a[4] & a[6])) +
                      sha_k[i] + w[i];
        uint32_t t2 = (ROR(a[0], 2) ^ ROR(a[0], 13) ^ ROR(a[0], 22)) + ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
        memmove(a + 1, a, 7 * sizeof *a);
        a[4] += t1;
        a[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) s->h[i] += a[i];
}

static void sha_init(struct sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->n = 0;
}

static void sha_update(struct sha256 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->len += len;
    while (len) {
        size_t k = 64 - s->n < len ? 64 - s->n : len;
        memcpy(s->buf + s->n, p, k);
        s->n += k, p += k, len -= k;
        if (s->n == 64) {
            sha_block(s, s->buf);
            s->n = 0;
        }
    }
}

static void sha_hex(struct sha256 *s, char out[65])
{
    uint64_t bits = s->len * 8;
    unsigned char pad = 0x80, zero = 0, lenb[8];
    sha_update(s, &pad, 1);
    while (s->n != 56) sha_update(s, &zero, 1);
    for (int i = 0; i < 8; i++) lenb[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha_update(s, lenb, 8);
    for (int i = 0; i < 8; i++) snprintf(out + 8 * i, 9, "%08x", s->h[i]);
}

static void sha_str(struct sha256 *s, const char *str) { sha_update(s, str, strlen(str) + 1); } /* NUL-separated */

static void sha_fmt(struct sha256 *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sha_fmt(struct sha256 *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sha_str(s, buf);
}

/* A file's content into the hash ("missing:<path>" when it cannot be read, so the key still differs). */
static void sha_file(struct sha256 *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        sha_fmt(s, "missing:%s", path);
        return;
    }
    char buf[65536];
    size_t n;
    sha_fmt(s, "file:%s", path);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sha_update(s, buf, n);
    fclose(f);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A trace's identity: its path and every file's name, size and modification time (sorted by name). */
static void sha_trace(struct sha256 *s, const char *dir)
{
    sha_fmt(s, "trace:%s", dir);
    DIR *d = opendir(dir);
    if (!d) {
        struct stat st;
        if (stat(dir, &st) == 0) sha_fmt(s, "%lld %lld", (long long)st.st_size, (long long)st.st_mtime);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) break;
            names = nn;
        }
        if (!(names[n] = strdup(de->d_name))) break;
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (stat(p, &st) == 0)
            sha_fmt(s, "%s %lld %lld.%09ld", names[i], (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                    st.st_mtim.tv_nsec);
        free(names[i]);
    }
    free(names);
}

/* Push the built-in policies' defaults as text, a line each: every point's default policy ("default POINT=NAME"),
 * then every registered policy with each parameter's default ("builtin POINT.NAME KEY=DEFAULT ..."). It is part
 * of every run key, so a default changed in the source changes every key and a store never hands back runs made
 * under the old default (a parameter the run spelled out was in the key already). */
static void push_defaults_text(lua_State *L)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int li = 0; li <= MW_PT_COUNT; li++) {
        enum mw_point pt = li < MW_PT_COUNT ? (enum mw_point)li : MW_PT_BUNDLE;
        const char *dn = mw_policy_default_name(pt);
        luaL_addstring(&b, "default "), luaL_addstring(&b, mw_point_name(pt)), luaL_addchar(&b, '=');
        luaL_addstring(&b, dn ? dn : ""), luaL_addchar(&b, '\n');
        for (const struct mw_policy *const *l = mw_policies(pt); l && *l; l++) {
            luaL_addstring(&b, "builtin "), luaL_addstring(&b, mw_point_name(pt)), luaL_addchar(&b, '.');
            luaL_addstring(&b, (*l)->name);
            for (int i = 0; i < (*l)->nparams; i++) {
                luaL_addchar(&b, ' '), luaL_addstring(&b, (*l)->params[i].name), luaL_addchar(&b, '=');
                luaL_addstring(&b, (*l)->params[i].def);
            }
            luaL_addchar(&b, '\n');
        }
    }
    luaL_pushresult(&b);
}

/* store.defaults_text() -> the built-in policies' defaults as the run key sees them (push_defaults_text) */
static int l_defaults_text(lua_State *L)
{
    push_defaults_text(L);
    return 1;
}

/* store.key(opts, extra) -> 64 hex digits. opts as for mw.sim (config, set, seed, max_cycles, workload, size,
 * trace); extra: the caller's canonical text of what the config does not hold (policies chosen with
 * sim:policy, with their parameters and Lua sources). Every config field is hashed in MW_CONFIG_FIELDS order,
 * then the config's policy choices (a Lua script's content), the workload (a .lua workload's content) or the
 * trace's files, and moonwarp's version. */
static int l_key(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    size_t elen = 0;
    const char *extra = luaL_optlstring(L, 2, "", &elen);
    struct mw_config *cfg = lua_newuserdatauv(L, sizeof *cfg, 0); /* freed by the GC even if an error is raised */
    mw_lua_opts_config(L, 1, cfg, "store.key");
    struct sha256 s;
    sha_init(&s);
    sha_fmt(&s, "moonwarp %s", MW_VERSION);
    push_defaults_text(L);
    sha_str(&s, lua_tostring(L, -1));
    lua_pop(L, 1);
    for (int i = 0; i < mw_cfg_nfields; i++) {
        const struct mw_cfg_field *f = &mw_cfg_fields[i];
        const char *at = (const char *)cfg + f->offset;
        switch (f->type) {
        case MW_CT_INT: sha_fmt(&s, "%s.%s=%lld", f->section, f->key, (long long)*(const int64_t *)at); break;
        case MW_CT_DOUBLE: sha_fmt(&s, "%s.%s=%.17g", f->section, f->key, *(const double *)at); break;
        case MW_CT_BOOL: sha_fmt(&s, "%s.%s=%d", f->section, f->key, (int)*(const bool *)at); break;
        case MW_CT_ENUM: sha_fmt(&s, "%s.%s=%d", f->section, f->key, *(const int *)at); break;
        case MW_CT_STR: sha_fmt(&s, "%s.%s=%s", f->section, f->key, at); break;
        }
    }
    for (int p = 0; p < MW_POLICY_POINTS; p++) {
        const struct mw_policy_choice *ch = &cfg->policy[p];
        sha_fmt(&s, "policy%d=%s", p, ch->impl);
        if (ch->script[0]) sha_file(&s, ch->script);
        for (int i = 0; i < ch->nparams; i++) sha_fmt(&s, "%s=%s", ch->params[i].key, ch->params[i].value);
    }
    if (lua_getfield(L, 1, "workload") == LUA_TSTRING) {
        const char *wl = lua_tostring(L, -1);
        sha_fmt(&s, "workload:%s", wl);
        if (mw_lua_workload_path(wl)) sha_file(&s, wl);
    } else if (!lua_isnil(L, -1)) {
        sha_str(&s, "workload:table"); /* the caller's extra text describes a workload table */
    }
    if (lua_getfield(L, 1, "size") == LUA_TSTRING) sha_fmt(&s, "size:%s", lua_tostring(L, -1));
    if (lua_getfield(L, 1, "trace") == LUA_TSTRING) sha_trace(&s, lua_tostring(L, -1));
    sha_str(&s, "extra");
    sha_update(&s, extra, elen);
    char hex[65];
    sha_hex(&s, hex);
    lua_pushstring(L, hex);
    return 1;
}

/* store.sha256(text) -> 64 hex digits */
static int l_sha256(lua_State *L)
{
    size_t n;
    const char *t = luaL_checklstring(L, 1, &n);
    struct sha256 s;
    sha_init(&s);
    sha_update(&s, t, n);
    char hex[65];
    sha_hex(&s, hex);
    lua_pushstring(L, hex);
    return 1;
}

/* ---- flat tables as text: "name\tvalue\n" lines sorted by name --------------------------------------------
 * value: an integer, a float in %.17g (with ".0" when it would read back as an integer, inf, -inf, nan), true,
 * false, or a string prefixed with '='. Round-trips every value exactly, integer or float subtype included. */
static int l_encode(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_newtable(L); /* 2: the sorted key list */
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "store.encode: keys must be strings");
        lua_pushvalue(L, -1);
        lua_rawseti(L, 2, ++n);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, 2);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    for (int i = 1; i <= n; i++) { /* each key's slot in the list becomes its line; table.concat joins them */
        lua_rawgeti(L, 2, i);
        const char *k = lua_tostring(L, -1);
        if (strpbrk(k, "\t\n")) return luaL_error(L, "store.encode: key '%s' holds a tab or newline", k);
        lua_pushvalue(L, -1);
        lua_rawget(L, 1);
        char v[64];
        int t = lua_type(L, -1);
        if (t == LUA_TNUMBER && lua_isinteger(L, -1)) {
            snprintf(v, sizeof v, "%lld", (long long)lua_tointeger(L, -1));
        } else if (t == LUA_TNUMBER) {
            double d = lua_tonumber(L, -1);
            if (isnan(d)) snprintf(v, sizeof v, "nan");
            else if (isinf(d)) snprintf(v, sizeof v, d > 0 ? "inf" : "-inf");
            else {
                snprintf(v, sizeof v, "%.17g", d);
                if (!strpbrk(v, ".e")) strcat(v, ".0");
            }
        } else if (t == LUA_TBOOLEAN) {
            snprintf(v, sizeof v, "%s", lua_toboolean(L, -1) ? "true" : "false");
        } else if (t != LUA_TSTRING) {
            return luaL_error(L, "store.encode: '%s' is a %s (numbers, booleans and strings only)", k,
                              lua_typename(L, t));
        }
        if (t == LUA_TSTRING) {
            const char *sv = lua_tostring(L, -1);
            if (strchr(sv, '\n')) return luaL_error(L, "store.encode: '%s' holds a newline", k);
            lua_pushfstring(L, "%s\t=%s\n", k, sv);
        } else {
            lua_pushfstring(L, "%s\t%s\n", k, v);
        }
        lua_rawseti(L, 2, i);
        lua_pop(L, 2);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "concat");
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);
    return 1;
}

static int decode_into(lua_State *L, const char *s, size_t len)
{
    lua_newtable(L);
    const char *end = s + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *tab = memchr(s, '\t', (size_t)((nl ? nl : end) - s));
        if (!nl || !tab) return luaL_error(L, "store.decode: malformed record");
        lua_pushlstring(L, s, (size_t)(tab - s));
        const char *v = tab + 1;
        size_t vl = (size_t)(nl - v);
        char num[64];
        if (vl && *v == '=') lua_pushlstring(L, v + 1, vl - 1);
        else if (vl == 4 && !memcmp(v, "true", 4)) lua_pushboolean(L, 1);
        else if (vl == 5 && !memcmp(v, "false", 5)) lua_pushboolean(L, 0);
        else if (vl == 3 && !memcmp(v, "nan", 3)) lua_pushnumber(L, NAN);
        else if (vl == 3 && !memcmp(v, "inf", 3)) lua_pushnumber(L, HUGE_VAL);
        else if (vl == 4 && !memcmp(v, "-inf", 4)) lua_pushnumber(L, -HUGE_VAL);
        else if (vl < sizeof num) {
            memcpy(num, v, vl);
            num[vl] = 0;
            if (!lua_stringtonumber(L, num)) return luaL_error(L, "store.decode: bad number '%s'", num);
        } else return luaL_error(L, "store.decode: malformed value");
        lua_rawset(L, -3);
        s = nl + 1;
    }
    return 1;
}

static int l_decode(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    return decode_into(L, s, n);
}

/* ---- the store ---------------------------------------------------------------------------------------------
 * One table, one row per completed run. A put is one transaction (BEGIN IMMEDIATE .. COMMIT): after a kill at
 * any moment SQLite's WAL recovery leaves either the whole row or none, so nothing half-written is read back. */
struct store {
    sqlite3 *db;
};

static const char SCHEMA[] = "CREATE TABLE IF NOT EXISTS runs ("
                             " key TEXT PRIMARY KEY,"   /* store.key of the run */
                             " status TEXT NOT NULL,"   /* complete | capped (stopped at max_cycles) */
                             " stats TEXT NOT NULL,"    /* the whole stats map, store.encode's text */
                             " cpu_s REAL, wall_s REAL," /* the run's CPU seconds (its process) and wall seconds */
                             " host TEXT,"              /* where it ran */
                             " descr TEXT,"             /* the run's description: workload, policy, config */
                             " created TEXT NOT NULL DEFAULT (datetime('now'))"
                             ") WITHOUT ROWID;"
                             /* runs in flight: which process runs which key, so that two sweeps sharing the
                              * store split the work instead of both running it; put removes the claim */
                             "CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, host TEXT NOT NULL,"
                             " pid INTEGER NOT NULL, since TEXT NOT NULL DEFAULT (datetime('now'))) WITHOUT ROWID;";

static struct store *check_store(lua_State *L)
{
    struct store *st = luaL_checkudata(L, 1, STORE_MT);
    if (!st->db) luaL_error(L, "store: the store is closed");
    return st;
}

static int db_fail(lua_State *L, struct store *st, const char *what)
{
    return luaL_error(L, "store: %s: %s", what, sqlite3_errmsg(st->db));
}

/* store.open(path) -> db: creates the file and its schema if needed; WAL mode and a 60 s busy timeout so that
 * several processes (two sweeps, or a sweep and a reader) share one store. */
static int l_open(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    struct store *st = lua_newuserdatauv(L, sizeof *st, 0);
    st->db = NULL;
    luaL_setmetatable(L, STORE_MT);
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        lua_pushfstring(L, "store.open: %s: %s", path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
        sqlite3_close(st->db);
        st->db = NULL;
        return lua_error(L);
    }
    sqlite3_busy_timeout(st->db, 60000);
    char *msg = NULL;
    int rc = SQLITE_OK;
    /* Switching a new file to WAL takes an exclusive lock and SQLite does not wait for it through the busy
     * handler: two sweeps creating one store at once retry here (up to 60 s) instead of failing. */
    for (int tries = 0; tries < 6000; tries++) {
        rc = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, &msg);
        if (rc == SQLITE_OK) rc = sqlite3_exec(st->db, SCHEMA, NULL, NULL, &msg);
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) break;
        sqlite3_free(msg);
        msg = NULL;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (rc != SQLITE_OK) {
        lua_pushfstring(L, "store.open: %s: %s", path, msg ? msg : "error");
        sqlite3_free(msg);
        sqlite3_close(st->db);
        st->db = NULL;
        return lua_error(L);
    }
    return 1;
}

/* db:get(key) -> stats, record {status, cpu_s, wall_s, host, descr, created} | nil */
static int db_get(lua_State *L)
{
    struct store *st = check_store(L);
    const char *key = luaL_checkstring(L, 2);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT stats, status, cpu_s, wall_s, host, descr, created FROM runs WHERE key=?",
                           -1, &q, NULL) != SQLITE_OK)
        return db_fail(L, st, "get");
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_DONE) {
        sqlite3_finalize(q);
        lua_pushnil(L);
        return 1;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(q);
        return db_fail(L, st, "get");
    }
    /* copy everything out before decoding: a decode error must not leak the statement */
    lua_pushlstring(L, (const char *)sqlite3_column_text(q, 0), (size_t)sqlite3_column_bytes(q, 0));
    lua_createtable(L, 0, 6);
    static const char *const names[] = {"status", "cpu_s", "wall_s", "host", "descr", "created"};
    for (int i = 0; i < 6; i++) {
        int c = i + 1;
        switch (sqlite3_column_type(q, c)) {
        case SQLITE_NULL: continue;
        case SQLITE_FLOAT:
        case SQLITE_INTEGER: lua_pushnumber(L, sqlite3_column_double(q, c)); break;
        default: lua_pushstring(L, (const char *)sqlite3_column_text(q, c));
        }
        lua_setfield(L, -2, names[i]);
    }
    sqlite3_finalize(q);
    size_t n;
    const char *s = lua_tolstring(L, -2, &n);
    decode_into(L, s, n);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "stats");
    lua_insert(L, -2);
    return 2;
}

static int unclaim(struct store *st, const char *key)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "DELETE FROM claims WHERE key=?", -1, &q, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void bind_opt(lua_State *L, sqlite3_stmt *q, int col, int rec, const char *field)
{
    int t = lua_getfield(L, rec, field);
    if (t == LUA_TNUMBER) sqlite3_bind_double(q, col, lua_tonumber(L, -1));
    else if (t == LUA_TSTRING) sqlite3_bind_text(q, col, lua_tostring(L, -1), -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(q, col);
    lua_pop(L, 1);
}

/* db:put(key, {stats = {...}, status = "complete", cpu_s, wall_s, host, descr}) -> true if stored, false if the
 * key was already there (the first result stays: runs are deterministic, so two sweeps racing on one key
 * computed the same values). One transaction. */
static int db_put(lua_State *L)
{
    struct store *st = check_store(L);
    const char *key = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    lua_pushcfunction(L, l_encode);
    if (lua_getfield(L, 3, "stats") != LUA_TTABLE) return luaL_error(L, "db:put: record.stats must be a table");
    lua_call(L, 1, 1); /* 4: the encoded stats */
    if (lua_getfield(L, 3, "status") != LUA_TSTRING) return luaL_error(L, "db:put: record.status must be a string");
    lua_pop(L, 1);
    sqlite3_stmt *q;
    if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return db_fail(L, st, "put");
    if (sqlite3_prepare_v2(st->db,
                           "INSERT OR IGNORE INTO runs (key, status, stats, cpu_s, wall_s, host, descr) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           -1, &q, NULL) != SQLITE_OK) {
        lua_pushfstring(L, "store: put: %s", sqlite3_errmsg(st->db));
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        return lua_error(L);
    }
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    bind_opt(L, q, 2, 3, "status");
    size_t n;
    const char *stats = lua_tolstring(L, 4, &n);
    sqlite3_bind_text(q, 3, stats, (int)n, SQLITE_TRANSIENT);
    bind_opt(L, q, 4, 3, "cpu_s");
    bind_opt(L, q, 5, 3, "wall_s");
    bind_opt(L, q, 6, 3, "host");
    bind_opt(L, q, 7, 3, "descr");
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    int added = sqlite3_changes(st->db);
    if (rc == SQLITE_DONE) rc = unclaim(st, key) ? SQLITE_ERROR : SQLITE_DONE;
    if (rc != SQLITE_DONE || sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        lua_pushfstring(L, "store: put: %s", sqlite3_errmsg(st->db));
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        return lua_error(L);
    }
    lua_pushboolean(L, added > 0);
    return 1;
}

/* db:claim(key) -> true when this process may run key: nobody claimed it, or its claimant was a process of
 * this host that is gone (a killed sweep); false while another live process runs it, or it is stored. */
static int db_claim(lua_State *L)
{
    struct store *st = check_store(L);
    const char *key = luaL_checkstring(L, 2);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return db_fail(L, st, "claim");
    sqlite3_stmt *q;
    int mine = 1, rc;
    rc = sqlite3_prepare_v2(st->db,
                            "SELECT 'stored', '', 0 FROM runs WHERE key=?1 UNION ALL "
                            "SELECT 'claim', host, pid FROM claims WHERE key=?1", -1, &q, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            const char *what = (const char *)sqlite3_column_text(q, 0);
            const char *h = (const char *)sqlite3_column_text(q, 1);
            pid_t pid = (pid_t)sqlite3_column_int64(q, 2);
            if (!strcmp(what, "stored")) mine = 0;
            else if (strcmp(h, host) || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) mine &= pid == getpid();
        }
        sqlite3_finalize(q);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    if (rc == SQLITE_OK && mine) {
        rc = sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO claims (key, host, pid) VALUES (?, ?, ?)", -1, &q,
                                NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(q, 2, host, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(q, 3, getpid());
            rc = sqlite3_step(q) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
            sqlite3_finalize(q);
        }
    }
    if (rc != SQLITE_OK || sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        lua_pushfstring(L, "store: claim: %s", sqlite3_errmsg(st->db));
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        return lua_error(L);
    }
    lua_pushboolean(L, mine);
    return 1;
}

/* db:unclaim(key): give a claim up (a failed run: another sweep, or a rerun, may try it) */
static int db_unclaim(lua_State *L)
{
    struct store *st = check_store(L);
    if (unclaim(st, luaL_checkstring(L, 2))) return db_fail(L, st, "unclaim");
    return 0;
}

/* db:keys() -> sorted list of stored keys; db:count() -> number of rows */
static int db_keys(lua_State *L)
{
    struct store *st = check_store(L);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT key FROM runs ORDER BY key", -1, &q, NULL) != SQLITE_OK)
        return db_fail(L, st, "keys");
    lua_newtable(L);
    int i = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        lua_pushstring(L, (const char *)sqlite3_column_text(q, 0));
        lua_rawseti(L, -2, ++i);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) return db_fail(L, st, "keys");
    return 1;
}

static int db_count(lua_State *L)
{
    struct store *st = check_store(L);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM runs", -1, &q, NULL) != SQLITE_OK)
        return db_fail(L, st, "count");
    int rc = sqlite3_step(q);
    lua_Integer n = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
    sqlite3_finalize(q);
    if (n < 0) return db_fail(L, st, "count");
    lua_pushinteger(L, n);
    return 1;
}

static int db_close(lua_State *L)
{
    struct store *st = luaL_checkudata(L, 1, STORE_MT);
    if (st->db) sqlite3_close(st->db);
    st->db = NULL;
    return 0;
}

/* ---- the process pool -------------------------------------------------------------------------------------
 * store.spawn(fn) forks; the child calls fn() (protected, with a traceback) and sends its string result, or the
 * error, back through a pipe, then _exits without running any of the parent's cleanup (atexit handlers, stdio
 * buffers, the parent's SQLite connection are the parent's). store.wait(jobs, timeout_s) collects. */
struct job {
    pid_t pid;
    int fd;
    char *buf;
    size_t len, cap;
    int done;
};

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w, n -= (size_t)w;
    }
}

static int l_spawn(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    struct job *j = lua_newuserdatauv(L, sizeof *j, 0);
    memset(j, 0, sizeof *j);
    j->fd = -1;
    luaL_setmetatable(L, JOB_MT);
    int p[2];
    if (pipe2(p, O_CLOEXEC)) return luaL_error(L, "store.spawn: pipe: %s", strerror(errno));
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return luaL_error(L, "store.spawn: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(p[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed sweep takes its runs in flight with it */
        lua_pushcfunction(L, traceback);
        lua_pushvalue(L, 1);
        int st = lua_pcall(L, 0, 1, -2);
        size_t n = 0;
        const char *s = lua_tolstring(L, -1, &n);
        if (st == LUA_OK && !s) st = -1, s = "the run returned no string", n = strlen(s);
        if (!s) s = "(error object is not a string)", n = strlen(s);
        write_all(p[1], st == LUA_OK ? "+" : "-", 1);
        write_all(p[1], s, n);
        fflush(NULL);
        _exit(st == LUA_OK ? 0 : 1);
    }
    close(p[1]);
    j->pid = pid;
    j->fd = p[0];
    return 1;
}

/* Read what is there; returns 1 at end of file. */
static int job_read(struct job *j)
{
    for (;;) {
        if (j->cap - j->len < 65536) {
            size_t nc = j->cap ? 2 * j->cap : 131072;
            char *nb = realloc(j->buf, nc);
            if (!nb) return 1;
            j->buf = nb, j->cap = nc;
        }
        ssize_t r = read(j->fd, j->buf + j->len, j->cap - j->len);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && errno == EAGAIN) return 0;
        if (r <= 0) return 1;
        j->len += (size_t)r;
        return 0; /* once per poll: other jobs get their turn */
    }
}

/* store.wait(jobs, timeout_s) -> index, ok, text_or_error, cpu_s for one finished job of the list, or nothing
 * when none finished within the timeout. A job that crashed (a signal) or exited without a result is a failure
 * with a message saying so. cpu_s: the child's user + system time. */
static int l_wait(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    double timeout = luaL_optnumber(L, 2, -1);
    int n = (int)luaL_len(L, 1);
    if (n <= 0) return 0;
    if (n > 4096) return luaL_error(L, "store.wait: too many jobs");
    struct pollfd pf[4096];
    struct job *js[4096];
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 1, i + 1);
        js[i] = luaL_checkudata(L, -1, JOB_MT);
        lua_pop(L, 1);
        pf[i] = (struct pollfd){.fd = js[i]->done ? -1 : js[i]->fd, .events = POLLIN};
    }
    int ms = timeout < 0 ? -1 : (int)(timeout * 1000);
    int r = poll(pf, (nfds_t)n, ms);
    if (r < 0 && errno != EINTR) return luaL_error(L, "store.wait: poll: %s", strerror(errno));
    for (int i = 0; i < n && r > 0; i++) {
        struct job *j = js[i];
        if (!pf[i].revents || !job_read(j)) continue;
        close(j->fd);
        j->fd = -1;
        j->done = 1;
        int status = 0;
        struct rusage ru;
        memset(&ru, 0, sizeof ru);
        while (wait4(j->pid, &status, 0, &ru) < 0 && errno == EINTR) {}
        double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                     ru.ru_stime.tv_usec * 1e-6;
        lua_pushinteger(L, i + 1);
        int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && j->len && j->buf[0] == '+';
        lua_pushboolean(L, ok);
        if (j->len > 1 && (ok || j->buf[0] == '-')) lua_pushlstring(L, j->buf + 1, j->len - 1);
        else if (WIFSIGNALED(status))
            lua_pushfstring(L, "the run's process was killed by signal %d (%s)", WTERMSIG(status),
                            strsignal(WTERMSIG(status)));
        else lua_pushfstring(L, "the run's process exited with status %d and no result", WEXITSTATUS(status));
        lua_pushnumber(L, cpu);
        free(j->buf);
        j->buf = NULL;
        j->len = j->cap = 0;
        return 4;
    }
    return 0;
}

static int job_gc(lua_State *L)
{
    struct job *j = luaL_checkudata(L, 1, JOB_MT);
    if (j->fd >= 0) close(j->fd);
    j->fd = -1;
    if (!j->done && j->pid > 0) { /* abandoned (an error in the parent): do not leave it running */
        kill(j->pid, SIGKILL);
        waitpid(j->pid, NULL, 0);
        j->done = 1;
    }
    free(j->buf);
    j->buf = NULL;
    return 0;
}

static int l_ncpu(lua_State *L)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    lua_pushinteger(L, n > 0 ? n : 1);
    return 1;
}

static int l_hostname(lua_State *L)
{
    char h[256] = "";
    gethostname(h, sizeof h - 1);
    lua_pushstring(L, h);
    return 1;
}

/* store.rename(from, to): atomic replacement (rename(2)); for outputs written to a temporary file first. */
static int l_rename(lua_State *L)
{
    const char *a = luaL_checkstring(L, 1), *b = luaL_checkstring(L, 2);
    int fd = open(a, O_RDONLY); /* the data on disk before the file takes its name */
    if (fd >= 0) fsync(fd), close(fd);
    if (rename(a, b)) return luaL_error(L, "rename %s -> %s: %s", a, b, strerror(errno));
    return 0;
}

static int l_sleep(lua_State *L)
{
    double t = luaL_checknumber(L, 1);
    struct timespec ts = {(time_t)t, (long)((t - (double)(time_t)t) * 1e9)};
    while (nanosleep(&ts, &ts) && errno == EINTR) {}
    return 0;
}

static int l_getpid(lua_State *L)
{
    lua_pushinteger(L, getpid());
    return 1;
}

/* store.exe() -> the running binary's path (/proc/self/exe): what a Slurm task runs. */
static int l_exe(lua_State *L)
{
    char p[4096];
    ssize_t n = readlink("/proc/self/exe", p, sizeof p - 1);
    if (n <= 0) return luaL_error(L, "store.exe: /proc/self/exe: %s", strerror(errno));
    lua_pushlstring(L, p, (size_t)n);
    return 1;
}

/* store.cwd() -> the working directory */
static int l_cwd(lua_State *L)
{
    char p[4096];
    if (!getcwd(p, sizeof p)) return luaL_error(L, "store.cwd: %s", strerror(errno));
    lua_pushstring(L, p);
    return 1;
}

/* store.listdir(path) -> sorted list of the names in a folder (without . and ..), or nil and the error */
static int l_listdir(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    DIR *d = opendir(path);
    if (!d) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    lua_newtable(L);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        lua_pushstring(L, de->d_name);
        lua_rawseti(L, -2, ++n);
    }
    closedir(d);
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return 1;
}

static const luaL_Reg store_methods[] = {
    {"get", db_get},     {"put", db_put},     {"claim", db_claim}, {"unclaim", db_unclaim},
    {"keys", db_keys},   {"count", db_count}, {"close", db_close}, {NULL, NULL}};
static const luaL_Reg store_funcs[] = {{"open", l_open},         {"key", l_key},       {"sha256", l_sha256},
                                       {"defaults_text", l_defaults_text},
                                       {"encode", l_encode},     {"decode", l_decode}, {"spawn", l_spawn},
                                       {"wait", l_wait},         {"ncpu", l_ncpu},     {"hostname", l_hostname},
                                       {"rename", l_rename},     {"getpid", l_getpid}, {"sleep", l_sleep},
                                       {"exe", l_exe},           {"cwd", l_cwd},       {"listdir", l_listdir},
                                       {NULL, NULL}};

int luaopen_moonwarp_store(lua_State *L)
{
    if (luaL_newmetatable(L, STORE_MT)) {
        lua_pushcfunction(L, db_close);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, db_close);
        lua_setfield(L, -2, "__close");
        luaL_newlib(L, store_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    if (luaL_newmetatable(L, JOB_MT)) {
        lua_pushcfunction(L, job_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_newlib(L, store_funcs);
    lua_pushliteral(L, MW_VERSION);
    lua_setfield(L, -2, "version");
    return 1;
}
