/* TAB completion in the REPL (GNU readline): globals and keywords; fields after `t.`; methods after `obj:` (a
 * simulation's from its metatable); inside a string: stat names after `:stats()[`, workload names after
 * `workload =`, preset names after `config =`, sizes after `size =`, decision points after `policy(`, a point's
 * policies after `policy("point", ` or `point =`; file names in any other string. Names are looked up without
 * calling anything except a simulation's stats(). */
#include "complete.h"

#include "cmd_info.h"
#include "paths.h"
#include "policy.h"
#include "workload.h"

#include <ctype.h>
#include <lauxlib.h>
#include <readline/readline.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lua_State *comp_L;
/* the candidates of the completion under way (readline's generator reads them one at a time) */
static char **cands;
static int ncands, capcands;

static void add(const char *s)
{
    if (ncands == capcands) {
        int cap = capcands ? 2 * capcands : 64;
        char **v = realloc(cands, (size_t)cap * sizeof *v);
        if (!v) return;
        cands = v, capcands = cap;
    }
    char *d = strdup(s);
    if (d) cands[ncands++] = d;
}
static void add2(const char *a, const char *b, const char *c)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s%s%s", a, b, c);
    add(buf);
}
static void clear(void)
{
    for (int i = 0; i < ncands; i++) free(cands[i]);
    ncands = 0;
}

static char *gen(const char *text, int state)
{
    static int i;
    static size_t len;
    if (!state) i = 0, len = strlen(text);
    while (i < ncands) {
        const char *c = cands[i++];
        if (!strncmp(c, text, len)) return strdup(c);
    }
    return NULL;
}

/* ---- contexts ------------------------------------------------------------------------------------------------ */
/* the text before position `end`, trailing spaces dropped, ends with `suffix` */
static bool ends_with(const char *s, int end, const char *suffix)
{
    while (end > 0 && s[end - 1] == ' ') end--;
    int n = (int)strlen(suffix);
    return end >= n && !strncmp(s + end - n, suffix, (size_t)n);
}
/* the identifier (letters, digits, _) ending at `end`, trailing spaces skipped; its start in *from */
static void ident_before(const char *s, int end, char *out, size_t n, int *from)
{
    while (end > 0 && s[end - 1] == ' ') end--;
    int b = end;
    while (b > 0 && (isalnum((unsigned char)s[b - 1]) || s[b - 1] == '_')) b--;
    snprintf(out, n, "%.*s", end - b, s + b);
    if (from) *from = b;
}

/* Push the value of a dotted name (a.b.c) from the globals; false (nil pushed) if it cannot be found. Called
 * protected (pcall_resolve): a lookup through __index may run Lua code or fail. */
static bool resolve(lua_State *L, const char *expr, size_t len)
{
    lua_pushglobaltable(L);
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && expr[j] != '.') j++;
        if (j == i || !(lua_istable(L, -1) || lua_isuserdata(L, -1))) {
            lua_pop(L, 1);
            lua_pushnil(L);
            return false;
        }
        lua_pushlstring(L, expr + i, j - i);
        lua_gettable(L, -2);
        lua_remove(L, -2);
        i = j + 1;
    }
    return !lua_isnil(L, -1);
}

static int pcall_resolve(lua_State *L)
{
    size_t n;
    const char *e = lua_tolstring(L, 1, &n);
    resolve(L, e, n);
    return 1;
}

/* the value of the name chain ending at `end` (before `:` or `.`) on the stack, or false and nothing */
static bool value_of(lua_State *L, const char *s, int end)
{
    int b = end;
    while (b > 0 && (isalnum((unsigned char)s[b - 1]) || s[b - 1] == '_' || s[b - 1] == '.')) b--;
    if (b == end) return false;
    lua_pushcfunction(L, pcall_resolve);
    lua_pushlstring(L, s + b, (size_t)(end - b));
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    return true;
}

/* keys of the table at idx (and of its __index table) that are strings: as prefix..key plus "(" for functions;
 * methods_only keeps functions only */
static void add_keys(lua_State *L, int idx, const char *prefix, bool methods_only)
{
    idx = lua_absindex(L, idx);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            if (!lua_istable(L, idx)) continue;
            lua_pushvalue(L, idx);
        } else {
            int t = luaL_getmetafield(L, idx, "__index");
            if (t != LUA_TTABLE) {
                if (t != LUA_TNIL) lua_pop(L, 1);
                return;
            }
        }
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) == LUA_TSTRING) {
                bool fn = lua_isfunction(L, -1);
                if (!methods_only || fn) add2(prefix, lua_tostring(L, -2), fn ? "(" : "");
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

static void add_stats(lua_State *L, const char *s, int end)
{
    /* s[..end) ends with `:stats()[`: the object before it, if it is a simulation, lists its own stats */
    while (end > 0 && s[end - 1] == ' ') end--;
    int obj_end = end - (int)strlen(":stats()[");
    if (obj_end > 0 && value_of(L, s, obj_end)) {
        if (luaL_testudata(L, -1, "moonwarp.sim")) {
            lua_getfield(L, -1, "stats");
            lua_pushvalue(L, -2);
            if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_istable(L, -1)) {
                int before = ncands;
                lua_pushnil(L);
                while (lua_next(L, -2)) {
                    if (lua_type(L, -2) == LUA_TSTRING) add(lua_tostring(L, -2));
                    lua_pop(L, 1);
                }
                lua_pop(L, 2);
                if (ncands > before) return;
            } else lua_pop(L, 2);
        } else lua_pop(L, 1);
    }
    /* the catalogue: every total counter */
    static struct mw_stat_list cat;
    static bool have;
    if (!have) {
        mw_stat_list_init(&cat);
        have = mw_stat_catalogue(&cat) == 0;
    }
    for (int i = 0; have && i < cat.n; i++) add(cat.v[i].name);
}

static void add_preset(void *ud, const char *name, const char *path, const char *desc)
{
    (void)ud, (void)path, (void)desc;
    add(name);
}

static int point_of(const char *name)
{
    for (int i = 0; i < MW_PT_COUNT; i++)
        if (!strcmp(mw_point_names[i], name)) return i;
    return -1;
}

/* Candidates for a word inside a string that starts at `start` (s[start - 1] is the quote). False: no idea. */
static bool string_context(lua_State *L, const char *s, int start)
{
    int q = start - 1;
    char word[64];
    int from;
    if (ends_with(s, q, ":stats()[")) {
        add_stats(L, s, q);
        return true;
    }
    if (ends_with(s, q, "policy(")) {
        for (int i = 0; i < MW_SLOT_COUNT; i++) add(mw_slot_names[i]);
        return true;
    }
    if (ends_with(s, q, ",")) { /* policy("point", "... */
        int e = q;
        while (e > 0 && s[e - 1] == ' ') e--;
        e--; /* the comma */
        while (e > 0 && s[e - 1] == ' ') e--;
        if (e > 0 && (s[e - 1] == '"' || s[e - 1] == '\'')) {
            int b = e - 1;
            while (b > 0 && s[b - 1] != s[e - 1]) b--;
            char pt[64];
            snprintf(pt, sizeof pt, "%.*s", e - 1 - b, s + b);
            int p = point_of(pt);
            if (p >= 0 && b > 0 && ends_with(s, b - 1, "policy(")) {
                for (const struct mw_policy *const *pp = mw_policies((enum mw_point)p); *pp; pp++) add((*pp)->name);
                return true;
            }
        }
    }
    if (ends_with(s, q, "=")) {
        int e = q;
        while (e > 0 && s[e - 1] == ' ') e--;
        ident_before(s, e - 1, word, sizeof word, &from);
        if (!strcmp(word, "workload")) {
            for (int i = 0; i < mw_builtin_nworkloads; i++) add(mw_builtin_workloads[i].name);
            return true;
        }
        if (!strcmp(word, "config")) {
            mw_list_presets(add_preset, NULL);
            return true;
        }
        if (!strcmp(word, "size")) {
            add("tiny"), add("small"), add("default"), add("paper");
            return true;
        }
        int p = point_of(word);
        if (p >= 0) {
            for (const struct mw_policy *const *pp = mw_policies((enum mw_point)p); *pp; pp++) add((*pp)->name);
            return true;
        }
    }
    if (ends_with(s, q, "{") || ends_with(s, q, ",")) { /* workloads = { "a", "b... */
        int e = q;
        while (e > 0 && s[e - 1] != '=' && s[e - 1] != '(' && s[e - 1] != ')') e--;
        if (e > 0 && s[e - 1] == '=') {
            ident_before(s, e - 1, word, sizeof word, &from);
            if (!strcmp(word, "workloads")) {
                for (int i = 0; i < mw_builtin_nworkloads; i++) add(mw_builtin_workloads[i].name);
                return true;
            }
        }
    }
    return false;
}

static char **attempt(const char *text, int start, int end)
{
    (void)end;
    lua_State *L = comp_L;
    rl_completion_append_character = '\0';
    rl_attempted_completion_over = 1;
    clear();
    const char *s = rl_line_buffer;
    int top = lua_gettop(L);
    if (start > 0 && (s[start - 1] == '"' || s[start - 1] == '\'')) {
        if (!string_context(L, s, start)) {
            rl_attempted_completion_over = 0; /* file names */
            lua_settop(L, top);
            return NULL;
        }
    } else {
        const char *sep = strrchr(text, ':'), *dot = strrchr(text, '.');
        if (dot > sep) sep = dot;
        if (sep) {
            char prefix[256];
            snprintf(prefix, sizeof prefix, "%.*s", (int)(sep - text + 1), text);
            if (value_of(L, text, (int)(sep - text))) add_keys(L, -1, prefix, *sep == ':');
        } else {
            static const char *const kw[] = {"and", "break", "do", "else", "elseif", "end", "false", "for",
                                             "function", "goto", "if", "in", "local", "nil", "not", "or",
                                             "repeat", "return", "then", "true", "until", "while", NULL};
            for (int i = 0; kw[i]; i++) add(kw[i]);
            lua_pushglobaltable(L);
            add_keys(L, -1, "", false);
        }
    }
    lua_settop(L, top);
    return rl_completion_matches(text, gen);
}

void mw_complete_init(lua_State *L)
{
    comp_L = L;
    rl_readline_name = "moonwarp";
    rl_attempted_completion_function = attempt;
    /* `.` and `:` stay inside a word (sim:stats, mw.sim), quotes and brackets end one */
    rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{}()[],+-*/%^~#";
    rl_completer_word_break_characters = rl_basic_word_break_characters;
}
