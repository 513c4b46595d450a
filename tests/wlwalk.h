/* Shared by the workload tests: walk every instruction of a built-in workload and summarise it per kernel and
 * per PC (warp instructions, distinct 128 B lines per global load/store, loads of thread 0). Include after
 * cmocka.h. */
#ifndef MW_TEST_WLWALK_H
#define MW_TEST_WLWALK_H

#include "workload.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-PC summary of one kernel's warp instructions. */
#define MAXPC 64
struct pcstat {
    uint64_t pc;
    uint8_t op;
    uint64_t n;                  /* warp instructions */
    uint32_t min_lines, max_lines;
};
struct kstat {
    struct mw_kernel k;
    struct pcstat pc[MAXPC];
    int npc;
    uint64_t warp_insts, thread_loads0; /* loads executed by thread 0 of CTA 0 */
    uint64_t loads, stores;
};

static inline uint32_t lines_of(const struct mw_inst *in)
{
    uint64_t seen[MW_WARP_SIZE];
    uint32_t n = 0;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1u)) continue;
        uint64_t line = in->addr[l] >> 7;
        bool dup = false;
        for (uint32_t i = 0; i < n; i++) dup |= seen[i] == line;
        if (!dup) seen[n++] = line;
    }
    return n;
}

static inline struct pcstat *pcstat(struct kstat *s, uint64_t pc, uint8_t op)
{
    for (int i = 0; i < s->npc; i++)
        if (s->pc[i].pc == pc) return &s->pc[i];
    assert_true(s->npc < MAXPC);
    struct pcstat *p = &s->pc[s->npc++];
    memset(p, 0, sizeof *p);
    p->pc = pc, p->op = op, p->min_lines = 99;
    return p;
}

/* Walk every kernel of `name` at `size`; at most `maxk` kernels are summarised into ks (later ones still run,
 * without a per-PC table, so they may have any number of PCs). `cb` sees every instruction (may be NULL), and
 * can read the kernel (0-based launch index), CTA and warp being walked from walk_kernel, walk_cta, walk_warp.
 * Returns the kernel count. */
typedef void (*inst_cb)(void *arg, const struct mw_kernel *k, const struct mw_inst *in);
static uint32_t walk_kernel, walk_cta, walk_warp;
static inline int walk(const char *name, const char *size, uint64_t seed, struct kstat *ks, int maxk, inst_cb cb,
                void *arg)
{
    struct mw_workload w;
    struct mw_err e = {0};
    assert_int_equal(mw_workload_open_builtin(&w, name, size, seed, &e), 0);
    struct mw_kernel k;
    int nk = 0;
    int rc;
    while ((rc = w.ops->next_kernel(&w, &k, &e)) == 1) {
        struct kstat dummy;
        bool table = nk < maxk;
        struct kstat *s = table ? &ks[nk] : &dummy;
        memset(s, 0, sizeof *s);
        s->k = k;
        walk_kernel = (uint32_t)nk;
        uint32_t nctas = mw_kernel_ctas(&k), nwarps = mw_kernel_cta_warps(&k);
        for (uint32_t c = 0; c < nctas; c++) {
            void *st = NULL;
            assert_int_equal(w.ops->cta_open(&w, c, &st, &e), 0);
            for (uint32_t wi = 0; wi < nwarps; wi++) {
                struct mw_inst in;
                int guard = 0;
                walk_cta = c, walk_warp = wi;
                while ((rc = w.ops->warp_next(&w, st, wi, &in, &e)) == 1) {
                    assert_true(++guard < 50000000);
                    s->warp_insts++;
                    if (cb) cb(arg, &k, &in);
                    if (in.op == MW_OP_EXIT) break;
                    if (!table) continue;
                    if (!mw_op_is_global_mem(in.op) && in.op != MW_OP_BRANCH && in.op != MW_OP_ALU) continue;
                    struct pcstat *p = pcstat(s, in.pc, in.op);
                    p->n++;
                    if (in.op == MW_OP_LD_GLOBAL || in.op == MW_OP_ST_GLOBAL) {
                        uint32_t ln = lines_of(&in);
                        if (ln < p->min_lines) p->min_lines = ln;
                        if (ln > p->max_lines) p->max_lines = ln;
                        if (in.op == MW_OP_LD_GLOBAL) s->loads++;
                        else s->stores++;
                        if (in.op == MW_OP_LD_GLOBAL && c == 0 && wi == 0 && (in.mask & 1u)) s->thread_loads0++;
                    }
                }
                assert_true(rc >= 0);
            }
            w.ops->cta_close(&w, st);
        }
        nk++;
    }
    assert_int_equal(rc, 0);
    mw_workload_close(&w);
    return nk;
}

static inline const struct pcstat *at(const struct kstat *s, uint64_t pc)
{
    for (int i = 0; i < s->npc; i++)
        if (s->pc[i].pc == pc) return &s->pc[i];
    fail_msg("no instruction at pc 0x%llx in %s", (unsigned long long)pc, s->k.name);
    return NULL;
}
/* PCs of a template kernel's instructions in kgen's layout: prologue instruction i, body instruction i after a
 * prologue of npro, epilogue instruction i after the body's nbody and its loop branch. */
#define PRO(i) (16u * (i))
#define BODY(npro, i) (16u * ((npro) + (i)))
#define EPI(npro, nbody, i) (16u * ((npro) + (nbody) + 1 + (i)))

static inline void check_shape(const struct mw_kernel *k, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by)
{
    assert_int_equal(k->grid[0], gx);
    assert_int_equal(k->grid[1], gy);
    assert_int_equal(k->grid[2], 1);
    assert_int_equal(k->block[0], bx);
    assert_int_equal(k->block[1], by);
    assert_int_equal(k->block[2], 1);
}

/* Only the launch shapes of a size, without walking the instructions. */
static inline int shapes(const char *name, const char *size, struct mw_kernel *ks, int maxk)
{
    struct mw_workload w;
    struct mw_err e = {0};
    assert_int_equal(mw_workload_open_builtin(&w, name, size, 1, &e), 0);
    int n = 0;
    struct mw_kernel k;
    while (w.ops->next_kernel(&w, &k, &e) == 1) {
        if (n < maxk) ks[n] = k;
        n++;
    }
    mw_workload_close(&w);
    return n;
}

#endif
