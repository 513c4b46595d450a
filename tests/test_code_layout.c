/* The code layout of every built-in model and of the Lua generators, as an instruction cache fetches it: a
 * kernel's PCs are byte offsets in its code at MW_WL_INST_BYTES per static instruction, from 0, dense, with one
 * EXIT PC per kernel after every other PC. The built-in models are walked through mw_workload_ops (no simulation);
 * the Lua generators are exported as a trace and read back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcmd.h"

/* A correct layout leaves small holes where a model skips code it does not model (a loop's entry test, an
 * unused case of a state machine) or code a small input never reaches: its highest PC, in instructions, stays
 * below this many times its distinct PCs. The old layouts (body at 0x1000, EXIT at 0xfff0) are 10x and more.
 * The PCs counted are those of every launch of the kernel with the same code (name and EXIT PC). */
#define MAX_SPREAD 2.0
#define MAX_CTAS 64     /* CTAs walked per launch: the first ones and the last ones */
#define MAX_SITES 1024  /* distinct PCs per kernel */
#define MAX_KERNELS 64  /* distinct kernel codes per workload */

struct site {
    uint64_t pc;
    uint8_t op;
};

/* One kernel launch's PCs, or those of every launch of one kernel code. */
struct layout {
    char name[128];
    struct site s[MAX_SITES];
    int n;
    uint64_t max_pc, exit_pc;
    bool have_exit;
};

/* Worst spread over every launch walked: (highest PC / MW_WL_INST_BYTES + 1) / distinct PCs. */
static double worst_spread;
static char worst_at[256];

static void add_pc(struct layout *y, const struct mw_kernel *k, const struct mw_inst *in)
{
    if (in->pc % MW_WL_INST_BYTES)
        fail_msg("%s: pc 0x%llx is not a multiple of %d", k->name, (unsigned long long)in->pc, MW_WL_INST_BYTES);
    if (in->pc > y->max_pc) y->max_pc = in->pc;
    for (int i = 0; i < y->n; i++) {
        if (y->s[i].pc != in->pc) continue;
        /* one static site, one opcode: two sites with different opcodes never share a PC */
        if (y->s[i].op != in->op)
            fail_msg("%s: pc 0x%llx is both %s and %s", k->name, (unsigned long long)in->pc,
                     mw_op_names[y->s[i].op], mw_op_names[in->op]);
        return;
    }
    assert_true(y->n < MAX_SITES);
    y->s[y->n++] = (struct site){in->pc, in->op};
}

/* One warp to its end: every instruction's PC, then exactly one EXIT, then the end of the stream. */
static void walk_warp(struct mw_workload *w, void *cta, uint32_t warp, const struct mw_kernel *k, struct layout *y)
{
    struct mw_err e = {0};
    struct mw_inst in;
    uint64_t guard = 0;
    int rc;
    while ((rc = w->ops->warp_next(w, cta, warp, &in, &e)) == 1) {
        assert_true(++guard < 100000000);
        add_pc(y, k, &in);
        if (in.op != MW_OP_EXIT) continue;
        if (y->have_exit && in.pc != y->exit_pc)
            fail_msg("%s: warp %u exits at 0x%llx, another warp at 0x%llx", k->name, warp,
                     (unsigned long long)in.pc, (unsigned long long)y->exit_pc);
        y->have_exit = true, y->exit_pc = in.pc;
        rc = w->ops->warp_next(w, cta, warp, &in, &e);
        break;
    }
    if (rc != 0) fail_msg("%s: warp %u: %s (rc %d)", k->name, warp, rc < 0 ? e.msg : "an instruction after its EXIT",
                          rc);
}

/* A launch: one EXIT PC for every warp, after every other PC. */
static void check_launch(const char *wl, const struct mw_kernel *k, const struct layout *y)
{
    if (!y->have_exit) fail_msg("%s %s: no warp exits", wl, k->name);
    for (int i = 0; i < y->n; i++)
        if (y->s[i].op != MW_OP_EXIT && y->s[i].pc >= y->exit_pc)
            fail_msg("%s %s: pc 0x%llx at or after its EXIT at 0x%llx", wl, k->name,
                     (unsigned long long)y->s[i].pc, (unsigned long long)y->exit_pc);
}

/* Add a launch's PCs to those of its kernel's code (name and EXIT PC) in ks (nk of them). */
static void merge(struct layout *ks, int *nk, const struct mw_kernel *k, const struct layout *y)
{
    struct layout *u = NULL;
    for (int i = 0; i < *nk && !u; i++)
        if (!strcmp(ks[i].name, k->name) && ks[i].exit_pc == y->exit_pc) u = &ks[i];
    if (!u) {
        assert_true(*nk < MAX_KERNELS);
        u = &ks[(*nk)++];
        memset(u, 0, sizeof *u);
        snprintf(u->name, sizeof u->name, "%s", k->name);
        u->exit_pc = y->exit_pc, u->have_exit = true;
    }
    struct mw_inst in = {0};
    for (int i = 0; i < y->n; i++) {
        in.pc = y->s[i].pc, in.op = y->s[i].op;
        add_pc(u, k, &in);
    }
}

/* A kernel's code: from 0, dense. */
static void check_code(const char *wl, const struct layout *u)
{
    uint64_t min_pc = UINT64_MAX;
    for (int i = 0; i < u->n; i++)
        if (u->s[i].pc < min_pc) min_pc = u->s[i].pc;
    if (min_pc != 0) fail_msg("%s %s: the code starts at 0x%llx, not 0", wl, u->name, (unsigned long long)min_pc);
    double spread = (double)(u->max_pc / MW_WL_INST_BYTES + 1) / u->n;
    if (spread > worst_spread) {
        worst_spread = spread;
        snprintf(worst_at, sizeof worst_at, "%s %s: %d PCs up to 0x%llx", wl, u->name, u->n,
                 (unsigned long long)u->max_pc);
    }
    if (spread > MAX_SPREAD)
        fail_msg("%s %s: %d distinct PCs up to 0x%llx (%.2f slots a PC, at most %.1f)", wl, u->name, u->n,
                 (unsigned long long)u->max_pc, spread, MAX_SPREAD);
}

/* Every launch of one built-in workload at size tiny. */
static void walk_workload(const struct mw_builtin_desc *d, struct layout *y, struct layout *ks)
{
    int nk = 0;
    struct mw_workload w;
    struct mw_err e = {0};
    if (mw_workload_open_builtin(&w, d->name, "tiny", 1, &e) != 0) fail_msg("%s: %s", d->name, e.msg);
    struct mw_kernel k;
    int rc;
    while ((rc = w.ops->next_kernel(&w, &k, &e)) == 1) {
        memset(y, 0, sizeof *y);
        uint32_t nctas = mw_kernel_ctas(&k), nwarps = mw_kernel_cta_warps(&k);
        for (uint32_t c = 0; c < nctas; c++) {
            if (nctas > MAX_CTAS && c >= MAX_CTAS / 2 && c < nctas - MAX_CTAS / 2) continue;
            void *st = NULL;
            if (w.ops->cta_open(&w, c, &st, &e) != 0) fail_msg("%s %s: CTA %u: %s", d->name, k.name, c, e.msg);
            for (uint32_t wi = 0; wi < nwarps; wi++) walk_warp(&w, st, wi, &k, y);
            w.ops->cta_close(&w, st);
        }
        check_launch(d->name, &k, y);
        merge(ks, &nk, &k, y);
    }
    if (rc < 0) fail_msg("%s: %s", d->name, e.msg);
    mw_workload_close(&w);
    for (int i = 0; i < nk; i++) check_code(d->name, &ks[i]);
}

static void test_builtin_layouts(void **state)
{
    (void)state;
    struct layout *y = malloc(sizeof *y), *ks = malloc(MAX_KERNELS * sizeof *ks);
    assert_non_null(y);
    assert_non_null(ks);
    for (int i = 0; i < mw_builtin_nworkloads; i++) walk_workload(&mw_builtin_workloads[i], y, ks);
    free(y), free(ks);
    print_message("worst spread %.2f PC slots per distinct PC: %s\n", worst_spread, worst_at);
}

/* ---- Lua generators, through an exported trace ------------------------------------------------------------- */

/* The PCs of kernel-<id>.traceg in dir (its EXIT lines' PC in *exit_pc, every other PC in pcs). */
static int trace_pcs(const char *dir, int id, uint64_t *pcs, int max, uint64_t *exit_pc)
{
    char path[512], line[4096];
    snprintf(path, sizeof path, "%s/kernel-%d.traceg", dir, id);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int n = 0;
    *exit_pc = 0;
    while (fgets(line, sizeof line, f)) {
        char *end;
        unsigned long long pc = strtoull(line, &end, 16);
        if (end == line || *end != ' ' || !strchr("0123456789abcdef", line[0])) continue;
        if (strstr(line, " EXIT ")) {
            assert_true(*exit_pc == 0 || *exit_pc == pc);
            *exit_pc = pc;
            continue;
        }
        bool seen = false;
        for (int i = 0; i < n; i++) seen |= pcs[i] == pc;
        if (!seen && n < max) pcs[n++] = pc;
    }
    fclose(f);
    return n;
}

static int lines_of_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int n = 0, c, last = '\n';
    while ((c = fgetc(f)) != EOF) n += c == '\n', last = c;
    fclose(f);
    return n + (last != '\n');
}

/* tests/lua/wl_layout.lua: a warp generator's PCs are its emitter calls' lines * 16 and its EXIT follows the
 * script's last line; the per-thread form is a two-instruction loop at 0x10, 0x20, its EXIT at 0x30. */
static void test_lua_layouts(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_layout_XXXXXX", cmd[1024], out[8192];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'" MW_BINARY "' trace --workload tests/lua/wl_layout.lua --out %s", dir);
    int rc = run_cmd(cmd, out, sizeof out);
    if (rc) fail_msg("%s", out);
    uint64_t pcs[64], exit_pc;
    int n = trace_pcs(dir, 1, pcs, 64, &exit_pc);
    /* the emitter calls are on lines 9, 11, 12 and 14 of the script */
    assert_int_equal(n, 4);
    const uint64_t want[4] = {9 * 16, 11 * 16, 12 * 16, 14 * 16};
    for (int i = 0; i < 4; i++) assert_int_equal(pcs[i], want[i]);
    assert_int_equal(exit_pc, (uint64_t)(lines_of_file(MW_SOURCE_DIR "/tests/lua/wl_layout.lua") + 1) * 16);
    n = trace_pcs(dir, 2, pcs, 64, &exit_pc);
    assert_int_equal(n, 2);
    assert_int_equal(pcs[0], 0x10);
    assert_int_equal(pcs[1], 0x20);
    assert_int_equal(exit_pc, 0x30);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_builtin_layouts), cmocka_unit_test(test_lua_layouts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
