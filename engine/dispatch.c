/* The kernel launcher and CTA dispatcher (engine/dispatch.h). */
#include "dispatch.h"

#include "sm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Code addresses: each distinct kernel name gets its own range (a relaunch of the same kernel reuses its code),
 * 16 MB apart from MW_CODE_BASE, so PC-indexed tables and the instruction cache never mix kernels. */
#define MW_CODE_BASE 0xF0000000ull
#define MW_CODE_SPAN 0x1000000ull

static int code_base(struct mw_sim *s, const char *name, uint64_t *base, struct mw_err *e)
{
    int i = 0;
    while (i < s->ncode && strcmp(s->code_names[i], name) != 0) i++;
    if (i == s->ncode) {
        if (s->ncode == s->capcode) {
            int cap = s->capcode ? 2 * s->capcode : 8;
            char(*n)[128] = realloc(s->code_names, (size_t)cap * sizeof *n);
            if (!n) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
            s->code_names = n;
            s->capcode = cap;
        }
        snprintf(s->code_names[i], sizeof s->code_names[i], "%s", name);
        s->ncode++;
    }
    *base = MW_CODE_BASE + (uint64_t)i * MW_CODE_SPAN;
    return 0;
}

uint64_t mw_code_addr(const struct mw_sim *s, uint64_t fe_pc) { return mw_code_addr_of(s, fe_pc); }

uint64_t mw_code_offset(const struct mw_sim *s, uint64_t pc)
{
    if (pc < MW_CODE_BASE) return pc; /* not a code address */
    uint64_t off = (pc - MW_CODE_BASE) % MW_CODE_SPAN;
    return s->pcs_scaled ? off / (uint64_t)s->cfg.sm.inst_bytes * 16 : off;
}

/* The CTAs of kernel k one SM can hold at once by its limits alone (CTAs, warps, threads, registers as allocated,
 * shared memory): the kernel's maximum occupancy, whatever the grid or a throttle policy does. */
uint32_t mw_occupancy(const struct mw_config *c, const struct mw_kernel *k)
{
    uint64_t nw = mw_kernel_cta_warps(k), regs = mw_cta_regs(c, k), n = (uint64_t)c->sm.max_ctas;
    if (!nw) return 0;
    n = mw_min_u64(n, (uint64_t)c->sm.max_warps / nw);
    n = mw_min_u64(n, (uint64_t)c->sm.max_threads / (nw * MW_WARP_SIZE));
    if (regs) n = mw_min_u64(n, (uint64_t)c->sm.registers / regs);
    if (k->shmem) n = mw_min_u64(n, (uint64_t)c->sm.shmem_bytes / k->shmem);
    return (uint32_t)n;
}

/* a kernel ended: its cycles weigh its maximum-occupancy facts */
static void occupancy_end(struct mw_sim *s)
{
    struct mw_gpu_stats *g = &s->gst;
    uint64_t cyc = mw_core_now(s) - g->occ_kernel_start, regs = (uint64_t)g->occ_ctas * g->occ_cta_regs;
    g->occ_cycles += cyc;
    g->occ_reg_cycles += cyc * regs;
    g->occ_cta_reg_cycles += cyc * g->occ_cta_regs;
    g->occ_warp_reg_cycles += cyc * (g->occ_cta_regs / g->occ_cta_warps); /* registers are allocated per warp */
    uint64_t warps = (uint64_t)g->occ_ctas * g->occ_cta_warps;
    bool first = g->occ_kernels++ == 0;
    if (first || warps < g->occ_warps_min) g->occ_warps_min = warps;
    if (first || regs > g->occ_regs_max) g->occ_regs_max = regs;
    if (first || regs < g->occ_regs_min) g->occ_regs_min = regs;
    if (first || g->occ_ctas < g->occ_ctas_min) g->occ_ctas_min = g->occ_ctas;
}

int mw_dispatch_kernels(struct mw_sim *s, struct mw_err *e)
{
    if (s->kernel_active) {
        if (s->ctas_done < s->kernel_ctas) return 0;
        s->kernel_active = false;
        occupancy_end(s);
        if (s->cfg.l1d.flush_at_kernel_end)
            for (int i = 0; i < s->nsms; i++) mw_l1d_flush(s, i);
        if (mw_wants(s, MW_EV_KERNEL_END)) {
            struct mw_event ev = {.kind = MW_EV_KERNEL_END, .value = s->kern.id, .cycle = mw_core_now(s)};
            mw_emit(s, &ev);
        }
    }
    while (!s->kernel_active && !s->wl_done) {
        int rc = s->wl.ops->next_kernel(&s->wl, &s->kern, e);
        if (rc < 0) return rc;
        if (rc == 0) {
            s->wl_done = true;
            break;
        }
        const struct mw_config *c = &s->cfg;
        uint32_t nw = mw_kernel_cta_warps(&s->kern);
        if (mw_kernel_ctas(&s->kern) == 0 || nw == 0) continue;
        if (nw > (uint32_t)c->sm.max_warps || nw * MW_WARP_SIZE > (uint64_t)c->sm.max_threads ||
            s->kern.shmem > (uint64_t)c->sm.shmem_bytes)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                              "kernel '%s': a CTA of %u threads / %u B shared memory cannot fit on an SM", s->kern.name,
                              mw_kernel_cta_threads(&s->kern), s->kern.shmem);
        uint64_t regs = mw_cta_regs(c, &s->kern);
        if (regs > (uint64_t)c->sm.registers)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "kernel '%s': a CTA needs %llu registers, the SM has %lld",
                              s->kern.name, (unsigned long long)regs, (long long)c->sm.registers);
        rc = code_base(s, s->kern.name, &s->kern.code_base, e);
        if (rc) return rc;
        s->kernel_active = true;
        s->kernel_ctas = mw_kernel_ctas(&s->kern);
        s->next_cta = 0;
        s->ctas_done = 0;
        s->gst.kernels++;
        s->gst.occ_kernel_start = mw_core_now(s);
        s->gst.occ_ctas = mw_occupancy(c, &s->kern);
        s->gst.occ_cta_regs = (uint32_t)regs;
        s->gst.occ_cta_warps = nw;
        if (mw_wants(s, MW_EV_KERNEL_START)) {
            struct mw_event ev = {.kind = MW_EV_KERNEL_START, .value = s->kern.id, .cycle = mw_core_now(s)};
            mw_emit(s, &ev);
        }
    }
    return 0;
}

/* A CTA throttle policy with a limit hook may answer differently at any time; without one, whether an SM can take a
 * CTA depends only on its resources, which only a CTA's end (ctas_done) or a new kernel (gst.kernels) changes. */
static bool throttle_hook(const struct mw_sim *s)
{
    const struct mw_cta_throttle_ops *ops = (const struct mw_cta_throttle_ops *)s->pol[MW_PT_CTA_THROTTLE].pol;
    return ops && ops->limit;
}

/* (set only without a throttle hook; a policy is chosen between runs, and mw_sim_run clears it) */
static bool cta_full(const struct mw_sim *s)
{
    return s->cta_full && s->cta_full_done == s->ctas_done && s->cta_full_kernel == s->gst.kernels;
}

int mw_dispatch_ctas(struct mw_sim *s, struct mw_err *e)
{
    if (!s->kernel_active || s->next_cta >= s->kernel_ctas) return 0;
    if (cta_full(s)) return 0;
    int launched = 0;
    for (int k = 0; k < s->nsms && s->next_cta < s->kernel_ctas; k++) {
        struct mw_sm *sm = &s->sms[(s->cta_order_rr + k) % s->nsms];
        if (!mw_sm_can_take_cta(s, sm)) continue;
        int rc = mw_sm_launch_cta(s, sm, s->next_cta++, e);
        if (rc) return rc;
        launched++;
    }
    /* rotate only when something was placed, so that skipped (fast-forwarded) cycles change nothing */
    if (launched) s->cta_order_rr = (s->cta_order_rr + 1) % (uint32_t)s->nsms;
    else if (!throttle_hook(s)) { /* every SM was refused on its resources alone: they change when a CTA ends */
        s->cta_full = true;
        s->cta_full_done = s->ctas_done;
        s->cta_full_kernel = s->gst.kernels;
    }
    return launched;
}

bool mw_dispatch_ready(struct mw_sim *s)
{
    if (!s->kernel_active || s->next_cta >= s->kernel_ctas) return false;
    if (cta_full(s)) return false;
    for (int i = 0; i < s->nsms; i++)
        if (mw_sm_can_take_cta(s, &s->sms[i])) return true;
    return false;
}
