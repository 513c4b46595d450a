/* Allocation failure, as Lua's and SQLite's harnesses test it: config loading, a --set and opening a trace are
 * run with their k-th allocation failing, for k = 1, 2, ... until a run needs fewer allocations than k. Each
 * must end in success or a clean error carrying a message, and free everything it allocated (checked by a table
 * of the live allocations made while the failure is armed, so a leak fails this test in every build, not only
 * under LeakSanitizer).
 *
 * malloc, calloc, realloc and free are defined here, so they interpose for the whole process (libyaml and
 * liblzma included); each passes on to the next definition (libc's, or the sanitizer's) found with
 * dlsym(RTLD_NEXT). dlsym may allocate before that is known: those few come from a static arena. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "workload.h"

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

static _Alignas(16) unsigned char arena[1 << 16];
static size_t arena_used;
static int resolving;

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (arena_used + n > sizeof arena) return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}
static int in_arena(const void *p) { return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof arena; }

static void resolve(void)
{
    if (real_free || resolving) return;
    resolving = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

/* ---- the failure and the live set ---- */
static long countdown;       /* > 0: allocations left before the one that fails; 0: disarmed */
static int failed_once;      /* the armed failure happened */
static long allocs;          /* allocations while armed */
#define LIVE 65536
static void *live[LIVE];     /* open addressing, pointers allocated while armed */
static int tracking;
/* libyaml 0.2.5's loader leaks a mapping's (or sequence's) new pair (item) stack when pushing the node onto the
 * document's node stack fails to grow it (loader.c, yaml_parser_load_mapping / _sequence: their error path frees
 * the tag and anchor, not the stack). Not ours to free: a failure inside yaml_stack_extend that leaves exactly one
 * block is counted and freed here, not failed; every other failure point must leave nothing. */
static int failed_in_yaml_stack;
static long yaml_stack_leaks;

static size_t slot(const void *p) { return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 48; }
static void live_add(void *p)
{
    if (!tracking || !p) return;
    size_t i = slot(p);
    while (live[i] && live[i] != (void *)1) i = (i + 1) & (LIVE - 1);
    live[i] = p;
}
static void live_del(void *p)
{
    if (!tracking || !p) return;
    for (size_t i = slot(p), n = 0; live[i] && n < LIVE; i = (i + 1) & (LIVE - 1), n++)
        if (live[i] == p) {
            live[i] = (void *)1; /* a tombstone */
            return;
        }
}
static long live_count(void)
{
    long n = 0;
    for (size_t i = 0; i < LIVE; i++) n += live[i] && live[i] != (void *)1;
    return n;
}
/* Whether this allocation is the one to fail. */
static int fail_now(void)
{
    if (!countdown) return 0;
    allocs++;
    if (--countdown) return 0;
    failed_once = 1;
    return 1;
}

void *malloc(size_t n)
{
    resolve();
    if (!real_malloc) return arena_alloc(n);
    if (fail_now()) return NULL;
    void *p = real_malloc(n);
    live_add(p);
    return p;
}
void *calloc(size_t a, size_t b)
{
    resolve();
    if (!real_calloc) return arena_alloc(a * b); /* the arena is zeroed static storage */
    if (fail_now()) return NULL;
    void *p = real_calloc(a, b);
    live_add(p);
    return p;
}
void *realloc(void *q, size_t n)
{
    resolve();
    if (in_arena(q)) { /* rare: grow out of the arena */
        void *p = malloc(n);
        if (p) memcpy(p, q, n);
        return p;
    }
    if (fail_now()) {
        Dl_info di;
        failed_in_yaml_stack = dladdr(__builtin_return_address(0), &di) && di.dli_sname &&
                               strcmp(di.dli_sname, "yaml_stack_extend") == 0;
        return NULL;
    }
    void *p = real_realloc(q, n);
    if (p) {
        live_del(q);
        live_add(p);
    }
    return p;
}
void free(void *p)
{
    if (!p || in_arena(p)) return;
    resolve();
    live_del(p);
    real_free(p);
}

/* Runs op with its k-th allocation failing for k = 1, 2, ... until op runs with no failure. op returns 0 or an
 * error code with e filled. Returns the number of allocations op makes. */
static long each_failure(int (*op)(struct mw_err *e, void *arg), void *arg, const char *what)
{
    for (long k = 1;; k++) {
        struct mw_err e;
        mw_err_clear(&e);
        memset(live, 0, sizeof live);
        allocs = 0, failed_once = 0, failed_in_yaml_stack = 0;
        tracking = 1;
        countdown = k;
        int rc = op(&e, arg);
        countdown = 0;
        tracking = 0;
        long left = live_count();
        if (left == 1 && failed_in_yaml_stack) { /* libyaml's lost block (above): freed here, so LSan is quiet too */
            yaml_stack_leaks++;
            left = 0;
            for (size_t i = 0; i < LIVE; i++)
                if (live[i] && live[i] != (void *)1) real_free(live[i]);
            memset(live, 0, sizeof live);
        }
        if (left) fail_msg("%s, allocation %ld failing: %ld allocations not freed (rc %d: %s)", what, k, left, rc, e.msg);
        if (!failed_once) {
            if (rc) fail_msg("%s with no failure: rc %d: %s", what, rc, e.msg);
            return allocs;
        }
        if (rc && !e.msg[0]) fail_msg("%s, allocation %ld failing: error %d without a message", what, k, rc);
    }
}

/* ---- what is tested: each op frees what it made before returning ---- */
static int op_config(struct mw_err *e, void *arg)
{
    struct mw_config *c = real_malloc(sizeof *c); /* the test's own, outside the count */
    mw_config_defaults(c);
    int rc = mw_config_load_file(c, (const char *)arg, e);
    if (!rc) rc = mw_config_set(c, "l1d.assoc=8", e);
    if (!rc) rc = mw_config_set(c, "policies.warp_scheduler=lrr", e);
    if (!rc) rc = mw_config_validate(c, e);
    real_free(c);
    return rc;
}
static int op_trace(struct mw_err *e, void *arg)
{
    struct mw_workload w;
    memset(&w, 0, sizeof w);
    int rc = mw_workload_open_trace(&w, (const char *)arg, e);
    if (!rc) mw_workload_close(&w);
    return rc;
}
static int op_builtin(struct mw_err *e, void *arg)
{
    struct mw_workload w;
    memset(&w, 0, sizeof w);
    int rc = mw_workload_open_builtin(&w, (const char *)arg, "tiny", 1, e);
    if (!rc) mw_workload_close(&w);
    return rc;
}

static void test_config(void **state)
{
    (void)state;
    long n = each_failure(op_config, "experiments/configs/gtx480.yaml", "loading gtx480.yaml");
    assert_true(n > 10); /* libyaml's parser, tokens and nodes: the failures above covered each of them */
    n = each_failure(op_config, "experiments/configs/linebacker.yaml", "loading linebacker.yaml");
    assert_true(n > 10);
    /* libyaml's own (above): only where a mapping's push meets a growth of the document's node stack, which doubles,
     * so a few times per file at most (each file: its 107th allocation and one near its 1,400th) */
    assert_true(yaml_stack_leaks <= 4);
}

static void test_trace(void **state)
{
    (void)state;
    long n = each_failure(op_trace, "../shared/traces/microgpusim_vectoradd_100", "opening a plain trace");
    assert_true(n > 2);
    n = each_failure(op_trace, "../shared/traces/mgpusim_vectoradd", "opening an xz trace");
    assert_true(n > 2);
}

/* Every built-in model's opener at its tiny size (inputs, graphs, kernel lists). */
static void test_builtin(void **state)
{
    (void)state;
    long total = 0;
    for (int i = 0; i < mw_builtin_nworkloads; i++) {
        char what[128];
        snprintf(what, sizeof what, "opening %s", mw_builtin_workloads[i].name);
        total += each_failure(op_builtin, (void *)mw_builtin_workloads[i].name, what);
    }
    assert_true(total > 2 * mw_builtin_nworkloads);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_config), cmocka_unit_test(test_trace),
                                       cmocka_unit_test(test_builtin)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
