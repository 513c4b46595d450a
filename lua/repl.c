/* The interactive moonwarp REPL and the script runner (after lua.c): readline editing, history and TAB
 * completion (lua/complete.c), multi-line chunks while the parse ends in <eof>, `return <line>` first (and
 * `=expr`) so expressions print, values shown as readable text (lua/lshow.c). Ctrl-C during sim:run() only asks
 * the simulation to pause at a cycle boundary; during plain Lua code it arms a hook that errors. */
#include "repl.h"

#include "complete.h"
#include "lmoonwarp.h"
#include "lshow.h"

#include <lauxlib.h>
#include <lualib.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static lua_State *volatile global_L; /* for the SIGINT handler, as in lua.c */
static volatile sig_atomic_t got_sigint;

static void lstop(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted!");
}

/* While code runs: pause a running simulation, else stop the Lua code through a hook. */
static void on_sigint_exec(int sig)
{
    (void)sig;
    if (mw_lua_interrupt()) return;
    if (global_L) lua_sethook(global_L, lstop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}
/* While reading input: drop the line being typed. */
static void on_sigint_read(int sig)
{
    (void)sig;
    got_sigint = 1;
}
static int rl_signal(void)
{
    if (got_sigint) {
        got_sigint = 0;
        rl_replace_line("", 0);
        rl_done = 1;
        fputs("^C", stdout);
    }
    return 0;
}

static void set_sigint(void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: readline sees EINTR and calls rl_signal_event_hook */
    sigaction(SIGINT, &sa, NULL);
}

static int msgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static int docall(lua_State *L, int narg, int nres)
{
    int base = lua_gettop(L) - narg;
    lua_pushcfunction(L, msgh);
    lua_insert(L, base);
    global_L = L;
    set_sigint(on_sigint_exec);
    int st = lua_pcall(L, narg, nres, base);
    set_sigint(SIG_DFL);
    global_L = NULL;
    lua_remove(L, base);
    return st;
}

static void report(lua_State *L, int st, const char *prog)
{
    if (st != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "%s: %s\n", prog, msg ? msg : "(error object is not a string)");
        fflush(stderr);
        lua_pop(L, 1);
    }
}

/* A state with the full standard library, the moonwarp module preloaded and the shipped library on the path. */
static lua_State *new_state(void)
{
    lua_State *L = luaL_newstate();
    if (!L) return NULL;
    luaL_openlibs(L);
    luaL_requiref(L, "moonwarp", luaopen_moonwarp, 0);
    lua_pop(L, 1);
    return L;
}

lua_State *mw_lua_new_state(void) { return new_state(); }
int mw_lua_docall(lua_State *L, int narg, int nres)
{
    int st = docall(L, narg, nres);
    report(L, st, "moonwarp");
    return st;
}

/* ---- scripts ---------------------------------------------------------------------------------------------- */
int mw_script_main(int argc, char **argv)
{
    lua_State *L = new_state();
    if (!L) {
        fprintf(stderr, "moonwarp: cannot create a Lua state\n");
        return 1;
    }
    lua_createtable(L, argc - 1, 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");
    int st = luaL_loadfile(L, argv[0]);
    if (st == LUA_OK) {
        for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
        st = docall(L, argc - 1, 0);
    }
    report(L, st, "moonwarp");
    lua_close(L);
    return st == LUA_OK ? 0 : 1;
}

/* ---- REPL ------------------------------------------------------------------------------------------------- */
static char *read_line(const char *prompt, bool tty)
{
    if (tty) return readline(prompt);
    fputs(prompt, stdout);
    fflush(stdout);
    size_t cap = 0;
    char *buf = NULL;
    ssize_t n = getline(&buf, &cap, stdin);
    if (n < 0) {
        free(buf);
        return NULL;
    }
    if (n && buf[n - 1] == '\n') buf[n - 1] = 0;
    return buf;
}

static bool incomplete(lua_State *L, int st)
{
    if (st != LUA_ERRSYNTAX) return false;
    size_t lmsg;
    const char *msg = lua_tolstring(L, -1, &lmsg);
    const char *eof = "<eof>";
    size_t le = strlen(eof);
    if (lmsg >= le && !strcmp(msg + lmsg - le, eof)) {
        lua_pop(L, 1);
        return true;
    }
    return false;
}

/* Read and compile one chunk; 1 = function on the stack, 0 = error message on the stack, -1 = end of input. */
static int load_chunk(lua_State *L, bool tty)
{
    char *line = read_line("mw> ", tty);
    if (!line) return -1;
    if (!line[0]) {
        free(line);
        lua_pushliteral(L, "");
        return 2; /* nothing to do */
    }
    /* an expression first, so that it prints; `=expr` as in Lua 5.1 */
    const char *ret = lua_pushfstring(L, "return %s", line[0] == '=' ? line + 1 : line);
    int st = luaL_loadbuffer(L, ret, strlen(ret), "=stdin");
    lua_remove(L, -2);
    if (st == LUA_OK) {
        if (tty) add_history(line);
        free(line);
        return 1;
    }
    lua_pop(L, 1);
    luaL_Buffer b;
    size_t len = strlen(line);
    char *chunk = malloc(len + 1);
    memcpy(chunk, line, len + 1);
    free(line);
    for (;;) {
        st = luaL_loadbuffer(L, chunk, len, "=stdin");
        if (!incomplete(L, st)) break;
        char *more = read_line(">> ", tty);
        if (!more || got_sigint) {
            free(more);
            free(chunk);
            lua_pushliteral(L, "");
            return 2;
        }
        size_t ml = strlen(more);
        char *grown = realloc(chunk, len + ml + 2);
        if (!grown) {
            free(more);
            break;
        }
        chunk = grown;
        chunk[len] = '\n';
        memcpy(chunk + len + 1, more, ml + 1);
        len += ml + 1;
        free(more);
    }
    (void)b;
    if (tty) add_history(chunk);
    free(chunk);
    return st == LUA_OK ? 1 : 0;
}

/* Every result as show() writes it: on one line separated by tabs when each fits on one, else one per line. */
static void print_results(lua_State *L, int n)
{
    if (n <= 0) return;
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    int base = lua_gettop(L) - n;
    bool multi = false;
    for (int i = 1; i <= n; i++) {
        lua_pushcfunction(L, mw_lua_show);
        lua_pushvalue(L, base + i);
        if (docall(L, 1, 1) != LUA_OK) {
            report(L, LUA_ERRRUN, "moonwarp");
            lua_pushliteral(L, "?");
        }
        if (strchr(lua_tostring(L, -1), '\n')) multi = true;
    }
    for (int i = 1; i <= n; i++) {
        fputs(lua_tostring(L, base + n + i), stdout);
        fputs(i == n ? "\n" : multi ? "\n" : "\t", stdout);
    }
    fflush(stdout);
    lua_settop(L, base);
}

int mw_repl_main(void)
{
    lua_State *L = new_state();
    if (!L) {
        fprintf(stderr, "moonwarp: cannot create a Lua state\n");
        return 1;
    }
    luaL_requiref(L, "moonwarp", luaopen_moonwarp, 0);
    lua_setglobal(L, "mw");
    lua_pushcfunction(L, mw_lua_show);
    lua_setglobal(L, "show");
    bool tty = isatty(0);
    if (tty) {
        mw_complete_init(L);
        stifle_history(2000);
        rl_catch_signals = 0;
        rl_signal_event_hook = rl_signal;
        const char *home = getenv("HOME");
        char hist[1024] = "";
        if (home) snprintf(hist, sizeof hist, "%s/.moonwarp_history", home);
        if (hist[0]) read_history(hist);
        printf("moonwarp %s REPL (%s). `mw` is the module, TAB completes, show(v, depth) prints a value; Ctrl-C pauses "
               "a running sim:run(); Ctrl-D quits.\n",
               MW_VERSION, LUA_RELEASE);
        for (;;) {
            set_sigint(on_sigint_read);
            int r = load_chunk(L, tty);
            if (r < 0) break;
            if (r == 2) {
                lua_pop(L, 1);
                if (got_sigint) got_sigint = 0;
                putchar('\n');
                continue;
            }
            if (hist[0]) write_history(hist); /* now: a crash or kill later keeps it */
            int st = r == 1 ? docall(L, 0, LUA_MULTRET) : LUA_ERRSYNTAX;
            if (st == LUA_OK) print_results(L, lua_gettop(L));
            else report(L, st, "moonwarp");
            lua_settop(L, 0);
        }
        if (hist[0]) write_history(hist);
        putchar('\n');
    } else {
        for (;;) {
            int r = load_chunk(L, tty);
            if (r < 0) break;
            if (r == 2) {
                lua_pop(L, 1);
                continue;
            }
            int st = r == 1 ? docall(L, 0, LUA_MULTRET) : LUA_ERRSYNTAX;
            if (st == LUA_OK) print_results(L, lua_gettop(L));
            else report(L, st, "moonwarp");
            lua_settop(L, 0);
        }
    }
    lua_close(L);
    return 0;
}
