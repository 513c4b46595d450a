/* How the REPL prints a value: tables as indented, key-sorted text (list entries first, in order, then the other
 * keys sorted: numbers, then strings), short tables on one line, a list of flat records (sim:warps(0),
 * sim:mshrs(0)) as columns, long lists cut with a count, tables deeper than the depth limit as {...}, cycles
 * marked; userdata and tables with __tostring through it; pc/line/addr/mask fields in hex. */
#include "lshow.h"

#include <lauxlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sb {
    char *p;
    size_t n, cap;
};

struct ctx {
    int seen;  /* stack index of a table: tables being printed (cycle check) */
    int depth; /* deepest table level shown */
    int items;  /* list entries shown before "... N more entries" */
    int fields; /* other keys shown before "... N more fields" */
    int rows;  /* rows of a record list shown */
    int width; /* a table fits on one line up to this many columns */
};

static void sb_put(lua_State *L, struct sb *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) luaL_error(L, "out of memory");
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void sb_str(lua_State *L, struct sb *b, const char *s) { sb_put(L, b, s, strlen(s)); }
static void sb_spaces(lua_State *L, struct sb *b, int n)
{
    for (int i = 0; i < n; i++) sb_put(L, b, " ", 1);
}

/* A buffer owned by a userdata, so that an error (a __tostring that fails) does not leak it. */
static int sb_gc(lua_State *L)
{
    struct sb *b = lua_touserdata(L, 1);
    free(b->p);
    b->p = NULL;
    return 0;
}
static struct sb *sb_new(lua_State *L)
{
    struct sb *b = lua_newuserdatauv(L, sizeof *b, 0);
    memset(b, 0, sizeof *b);
    if (luaL_newmetatable(L, "moonwarp.showbuf")) {
        lua_pushcfunction(L, sb_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    return b;
}

static bool is_name(const char *s)
{
    static const char *const kw[] = {"and",   "break", "do",  "else", "elseif", "end",    "false", "for",
                                     "function", "goto", "if", "in",   "local",  "nil",    "not",   "or",
                                     "repeat", "return", "then", "true", "until", "while", NULL};
    if (!s[0] || (s[0] >= '0' && s[0] <= '9')) return false;
    for (const char *p = s; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return false;
    for (int i = 0; kw[i]; i++)
        if (!strcmp(kw[i], s)) return false;
    return true;
}

static void quoted(lua_State *L, struct sb *b, const char *s, size_t n)
{
    size_t shown = n > 200 ? 200 : n;
    sb_put(L, b, "\"", 1);
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '"' || c == '\\') snprintf(esc, sizeof esc, "\\%c", c);
        else if (c == '\n') snprintf(esc, sizeof esc, "\\n");
        else if (c == '\t') snprintf(esc, sizeof esc, "\\t");
        else if (c < 0x20 || c == 0x7f) snprintf(esc, sizeof esc, "\\%d", c);
        else esc[0] = (char)c, esc[1] = 0;
        sb_str(L, b, esc);
    }
    sb_put(L, b, "\"", 1);
    if (shown < n) {
        char more[48];
        snprintf(more, sizeof more, "...(%zu bytes)", n);
        sb_str(L, b, more);
    }
}

static bool hex_key(const char *key)
{
    return key && (!strcmp(key, "pc") || !strcmp(key, "line") || !strcmp(key, "addr") || !strcmp(key, "mask"));
}

/* A value that is not a plain table (or one shown through __tostring). */
static void scalar(lua_State *L, int idx, struct sb *b, const char *key, bool quote)
{
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    if (t == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        if (quote) quoted(L, b, s, n);
        else sb_put(L, b, s, n);
        return;
    }
    if (t == LUA_TNUMBER && lua_isinteger(L, idx) && hex_key(key) && lua_tointeger(L, idx) >= 0) {
        char h[32];
        snprintf(h, sizeof h, "0x%llx", (unsigned long long)lua_tointeger(L, idx));
        sb_str(L, b, h);
        return;
    }
    if (t == LUA_TFUNCTION) {
        lua_Debug ar;
        lua_pushvalue(L, idx);
        lua_getinfo(L, ">S", &ar);
        char f[300];
        if (ar.what[0] == 'C') snprintf(f, sizeof f, "function: builtin");
        else snprintf(f, sizeof f, "function: %s:%d", ar.short_src, ar.linedefined);
        sb_str(L, b, f);
        return;
    }
    size_t n;
    const char *s = luaL_tolstring(L, idx, &n); /* __tostring / __name, numbers as Lua writes them */
    sb_put(L, b, s, n);
    lua_pop(L, 1);
}

/* The keys of table t in display order, as a new list at the top of the stack; returns their count and the
 * length of the list part (keys 1..seq). __pairs is honoured (read-only proxies list their names). */
struct key {
    int type, pos;
    lua_Number num;
    const char *str;
};
static int cmp_key(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;
    int ra = a->type == LUA_TNUMBER ? 0 : a->type == LUA_TSTRING ? 1 : 2;
    int rb = b->type == LUA_TNUMBER ? 0 : b->type == LUA_TSTRING ? 1 : 2;
    if (ra != rb) return ra - rb;
    if (ra == 0) return a->num < b->num ? -1 : a->num > b->num;
    if (ra == 1) return strcmp(a->str, b->str);
    return a->pos - b->pos;
}

static int sorted_keys(lua_State *L, int t, int *seq)
{
    lua_newtable(L);
    int keys = lua_gettop(L), n = 0;
    if (luaL_getmetafield(L, t, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, t);
        lua_call(L, 1, 3);
        for (;;) {
            lua_pushvalue(L, -3);
            lua_pushvalue(L, -3);
            lua_pushvalue(L, -3);
            lua_call(L, 2, 1);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                break;
            }
            lua_pushvalue(L, -1);
            lua_rawseti(L, keys, ++n);
            lua_replace(L, -2); /* the control variable */
        }
        lua_pop(L, 3);
    } else {
        lua_pushnil(L);
        while (lua_next(L, t)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, keys, ++n);
        }
    }
    struct key *k = malloc((size_t)(n ? n : 1) * sizeof *k);
    if (!k) luaL_error(L, "out of memory");
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, keys, i + 1);
        k[i].type = lua_type(L, -1);
        k[i].pos = i + 1;
        k[i].num = k[i].type == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
        k[i].str = k[i].type == LUA_TSTRING ? lua_tostring(L, -1) : NULL; /* kept alive by `keys` */
        lua_pop(L, 1);
    }
    qsort(k, (size_t)n, sizeof *k, cmp_key);
    lua_createtable(L, n, 0);
    /* the list part (1, 2, ... without a gap) first, then every other key in sorted order */
    *seq = 0;
    for (int i = 0; i < n; i++)
        if (k[i].type == LUA_TNUMBER && k[i].num == *seq + 1) {
            lua_rawgeti(L, keys, k[i].pos);
            bool integer = lua_isinteger(L, -1);
            lua_pop(L, 1);
            if (!integer) continue;
            k[i].type = -1; /* taken */
            lua_rawgeti(L, keys, k[i].pos);
            lua_rawseti(L, -2, ++*seq);
        }
    for (int i = 0, j = *seq; i < n; i++)
        if (k[i].type != -1) {
            lua_rawgeti(L, keys, k[i].pos);
            lua_rawseti(L, -2, ++j);
        }
    free(k);
    lua_remove(L, keys);
    return n;
}

static void show(lua_State *L, int idx, struct ctx *c, struct sb *b, int indent, int level, bool compact,
                 const char *key);

static void put_key(lua_State *L, struct sb *b, int kidx)
{
    if (lua_type(L, kidx) == LUA_TSTRING && is_name(lua_tostring(L, kidx))) {
        sb_str(L, b, lua_tostring(L, kidx));
    } else {
        sb_put(L, b, "[", 1);
        scalar(L, kidx, b, NULL, true);
        sb_put(L, b, "]", 1);
    }
    sb_str(L, b, " = ");
}

/* A list of at least two plain tables whose fields are all named and scalar: shown as rows and columns. The
 * sorted column names are left in a new list on the stack (count returned), or nothing and 0. */
static int record_columns(lua_State *L, int t, int seq)
{
    if (seq < 2) return 0;
    lua_newtable(L); /* name -> true */
    int set = lua_gettop(L), ncols = 0;
    for (int i = 1; i <= seq; i++) {
        lua_rawgeti(L, t, i);
        if (!lua_istable(L, -1) || lua_getmetatable(L, -1)) goto no;
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_istable(L, -1)) goto no;
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            if (lua_rawget(L, set) == LUA_TNIL) {
                if (++ncols > 24) goto no;
                lua_pushvalue(L, -2);
                lua_pushboolean(L, 1);
                lua_rawset(L, set);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    int dummy;
    sorted_keys(L, set, &dummy);
    lua_remove(L, set);
    return ncols;
no:
    lua_settop(L, set - 1);
    return 0;
}

static void show_rows(lua_State *L, int t, int seq, int cols, int ncols, struct ctx *c, struct sb *b, int indent)
{
    int rows = seq > c->rows ? c->rows : seq;
    /* cells as strings, row-major, with the header as row 0 */
    lua_createtable(L, (rows + 1) * (ncols + 1), 0);
    int cells = lua_gettop(L);
    int *w = calloc((size_t)ncols + 1, sizeof *w);
    bool *num = calloc((size_t)ncols + 1, sizeof *num);
    if (!w || !num) {
        free(w), free(num);
        luaL_error(L, "out of memory");
    }
    for (int r = 0; r <= rows; r++) {
        for (int k = 0; k <= ncols; k++) {
            struct sb *cell = sb_new(L);
            if (r == 0) sb_str(L, cell, k == 0 ? "#" : (lua_rawgeti(L, cols, k), lua_tostring(L, -1)));
            else if (k == 0) {
                char i[24];
                snprintf(i, sizeof i, "%d", r);
                sb_str(L, cell, i);
            } else {
                lua_rawgeti(L, t, r);
                lua_rawgeti(L, cols, k);
                const char *name = lua_tostring(L, -1);
                lua_pushvalue(L, -1);
                int ty = lua_rawget(L, -3);
                bool plain = ty == LUA_TSTRING && !strpbrk(lua_tostring(L, -1), " \t\n\"") && lua_rawlen(L, -1) > 0;
                if (ty != LUA_TNIL) scalar(L, -1, cell, name, !plain);
                if (ty == LUA_TNUMBER) num[k] = true;
                lua_pop(L, 3);
            }
            if (r == 0 && k > 0) lua_pop(L, 1);
            if (k == 0) num[k] = true;
            if ((int)cell->n > w[k]) w[k] = (int)cell->n;
            lua_pushlstring(L, cell->p ? cell->p : "", cell->n);
            lua_rawseti(L, cells, r * (ncols + 1) + k + 1);
            lua_pop(L, 1); /* the buffer */
        }
    }
    for (int r = 0; r <= rows; r++) {
        sb_spaces(L, b, indent + 2);
        for (int k = 0; k <= ncols; k++) {
            lua_rawgeti(L, cells, r * (ncols + 1) + k + 1);
            size_t n;
            const char *s = lua_tolstring(L, -1, &n);
            int pad = w[k] - (int)n;
            if (num[k] && r > 0) sb_spaces(L, b, pad);
            sb_put(L, b, s, n);
            if (k < ncols && !(num[k] && r > 0)) sb_spaces(L, b, pad);
            if (k < ncols) sb_str(L, b, "  ");
            lua_pop(L, 1);
        }
        while (b->n && b->p[b->n - 1] == ' ') b->p[--b->n] = 0;
        sb_str(L, b, "\n");
    }
    if (rows < seq) {
        char more[64];
        snprintf(more, sizeof more, "... %d more rows (%d in all)\n", seq - rows, seq);
        sb_spaces(L, b, indent + 2);
        sb_str(L, b, more);
    }
    free(w), free(num);
    lua_pop(L, 1);
}

static void show_table(lua_State *L, int t, struct ctx *c, struct sb *b, int indent, int level, bool compact)
{
    lua_pushvalue(L, t);
    if (lua_rawget(L, c->seen) != LUA_TNIL) {
        lua_pop(L, 1);
        sb_str(L, b, "{<cycle>}");
        return;
    }
    lua_pop(L, 1);
    int seq, n = sorted_keys(L, t, &seq);
    int keys = lua_gettop(L);
    if (n == 0) {
        sb_str(L, b, "{}");
        lua_pop(L, 1);
        return;
    }
    if (level >= c->depth) {
        char s[48];
        snprintf(s, sizeof s, "{...%d entr%s}", n, n == 1 ? "y" : "ies");
        sb_str(L, b, s);
        lua_pop(L, 1);
        return;
    }
    if (!compact) { /* one line when it fits */
        struct sb *one = sb_new(L);
        show_table(L, t, c, one, indent, level, true);
        if ((int)one->n + indent <= c->width && !memchr(one->p, '\n', one->n)) {
            sb_put(L, b, one->p, one->n);
            lua_settop(L, keys - 1);
            return;
        }
        lua_pop(L, 1);
    }
    lua_pushvalue(L, t);
    lua_pushboolean(L, 1);
    lua_rawset(L, c->seen);
    int ncols = compact ? 0 : record_columns(L, t, seq);
    int cols = lua_gettop(L);
    sb_str(L, b, compact ? "{" : "{\n");
    if (ncols) {
        show_rows(L, t, seq, cols, ncols, c, b, indent);
        lua_pop(L, 1);
    }
    int shown_list = 0, shown_hash = 0;
    int col = 0; /* multi-line: scalar list entries share a line up to the width; col = its length so far */
    bool first = true;
    for (int i = ncols ? seq + 1 : 1; i <= n; i++) {
        bool in_list = i <= seq;
        if (in_list ? shown_list == c->items : shown_hash == c->fields) {
            char more[64];
            int rest = in_list ? seq - i + 1 : n - i + 1;
            snprintf(more, sizeof more, "... %d more %s", rest, in_list ? "entries" : "fields");
            if (!compact) {
                if (col) sb_str(L, b, "\n"), col = 0;
                sb_spaces(L, b, indent + 2);
            } else if (!first) sb_str(L, b, ", ");
            sb_str(L, b, more);
            sb_str(L, b, compact ? "" : "\n");
            first = false;
            if (in_list) {
                i = seq; /* on to the fields */
                continue;
            }
            break;
        }
        in_list ? shown_list++ : shown_hash++;
        lua_rawgeti(L, keys, i);
        lua_pushvalue(L, -1);
        lua_gettable(L, t);
        bool nested = lua_istable(L, -1);
        const char *kname = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (!compact && in_list && !nested) { /* packed */
            struct sb *v = sb_new(L);
            show(L, -2, c, v, indent + 2, level + 1, true, kname);
            if (col && col + 1 + (int)v->n + 1 > c->width) sb_str(L, b, "\n"), col = 0;
            if (!col) sb_spaces(L, b, indent + 2), col = indent + 2;
            else sb_str(L, b, " "), col++;
            sb_put(L, b, v->p, v->n);
            sb_str(L, b, ",");
            col += (int)v->n + 1;
            lua_pop(L, 3);
            first = false;
            continue;
        }
        if (!compact && col) sb_str(L, b, "\n"), col = 0;
        if (compact && !first) sb_str(L, b, ", ");
        if (!compact) sb_spaces(L, b, indent + 2);
        first = false;
        if (!in_list || (nested && !compact)) put_key(L, b, -2);
        show(L, -1, c, b, indent + 2, level + 1, compact, kname);
        lua_pop(L, 2);
        if (!compact) sb_str(L, b, ",\n");
    }
    if (!compact && col) sb_str(L, b, "\n");
    if (!compact) sb_spaces(L, b, indent);
    sb_str(L, b, "}");
    lua_pushvalue(L, t);
    lua_pushnil(L);
    lua_rawset(L, c->seen);
    lua_settop(L, keys - 1);
}

static void show(lua_State *L, int idx, struct ctx *c, struct sb *b, int indent, int level, bool compact,
                 const char *key)
{
    idx = lua_absindex(L, idx);
    luaL_checkstack(L, 20, "table too deep to show");
    if (lua_type(L, idx) == LUA_TTABLE && luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL)
        show_table(L, idx, c, b, indent, level, compact);
    else {
        if (lua_type(L, idx) == LUA_TTABLE) lua_pop(L, 1);
        scalar(L, idx, b, key, level > 0);
    }
}

/* show(v [, depth [, items]]) -> string */
int mw_lua_show(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_Integer depth = luaL_optinteger(L, 2, 4), items = luaL_optinteger(L, 3, 20);
    luaL_argcheck(L, depth >= 1 && depth <= 100, 2, "depth must be in [1, 100]");
    luaL_argcheck(L, items >= 1 && items <= 1000000, 3, "items must be in [1, 1000000]");
    struct ctx c = {.depth = (int)depth, .items = (int)items, .fields = items > 50 ? (int)items : 50,
                    .rows = items > 50 ? (int)items : 50, .width = 100};
    lua_settop(L, 1);
    lua_newtable(L);
    c.seen = lua_gettop(L);
    struct sb *b = sb_new(L);
    show(L, 1, &c, b, 0, 0, false, NULL);
    lua_pushlstring(L, b->p ? b->p : "", b->n);
    return 1;
}
