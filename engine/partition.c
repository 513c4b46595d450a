/* A memory partition (engine/partition.h): L2 slices, DRAM channel, the pipes between them. */
#include "partition.h"

#include "icnt.h"

#include <stdlib.h>
#include <string.h>

int mw_partition_init(struct mw_sim *s, struct mw_partition *p, int id, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    memset(p, 0, sizeof *p);
    p->id = id;
    p->nsub = (int)c->l2.subpartitions;
    p->slices = &s->l2[id * p->nsub];
    p->to_dram = calloc((size_t)p->nsub, sizeof *p->to_dram);
    p->from_dram = calloc((size_t)p->nsub, sizeof *p->from_dram);
    p->slice_wake = &s->slice_wake[id * p->nsub];
    if (!p->to_dram || !p->from_dram || !p->slice_wake) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int k = 0; k < p->nsub; k++) {
        mw_fifo_init(&p->to_dram[k], 1 << 30);
        mw_fifo_init(&p->from_dram[k], 1 << 30);
    }
    p->dram = mw_dram_create(c, id, &s->pol[MW_PT_DRAM_SCHED], e);
    if (!p->dram) return e->code ? e->code : MW_EINVAL;
    return 0;
}

void mw_partition_fini(struct mw_sim *s, struct mw_partition *p)
{
    for (int k = 0; p->to_dram && p->from_dram && k < p->nsub; k++) {
        mw_req_free_list(&s->pool, p->to_dram[k].head);
        mw_req_free_list(&s->pool, p->from_dram[k].head);
    }
    free(p->to_dram);
    free(p->from_dram);
    mw_dram_destroy(p->dram);
}

void mw_partition_wake(struct mw_sim *s, struct mw_partition *p)
{
    s->l2_due = s->dram_due = 0;
    for (int k = 0; k < p->nsub; k++) p->slice_wake[k] = 0;
    p->dram_wake = 0;
}

void mw_partition_slice_cycle(struct mw_sim *s, struct mw_partition *p, int k, uint64_t now)
{
    s->visits_l2++;
    uint64_t now_fs = s->now_fs, pl2 = s->clk[MW_CLK_L2].period_fs;
    struct mw_l2 *l2 = &p->slices[k];
    /* one fill from DRAM, then the slice's own cycle, then its miss queue's head enters the pipe to DRAM */
    if (p->from_dram[k].head_ready <= now_fs) mw_l2_fill(s, l2, mw_fifo_pop(&p->from_dram[k]), now);
    mw_l2_cycle(s, l2, now);
    /* Li's MUX (l2.merge_info = mib): a valid MIB entry goes first as a dummy request */
    struct mw_req *m = l2->mib_nvalid ? mw_l2_pop_dummy(s, l2) : mw_l2_pop_miss(l2);
    if (m) {
        m->t_seg[0] = mw_core_stamp(s);
        m->t_ready = now_fs + (uint64_t)s->cfg.dram.latency * pl2;
        mw_fifo_push(&p->to_dram[k], m);
        s->dram_due = mw_min_u64(s->dram_due, p->to_dram[k].head_ready);
    }
    if (s->cfg.sim.fast_forward) /* its own next event or its arrival queue's head (the network lowers it on a push) */
        p->slice_wake[k] = mw_min_u64(mw_partition_slice_next_event(s, p, k), s->req_net->arrive[l2->id].head_ready);
}

void mw_partition_dram_tick(struct mw_sim *s, struct mw_partition *p, uint64_t now)
{
    s->visits_dram++;
    uint64_t now_fs = s->now_fs;
    int nsub = p->nsub;
    bool nap = s->cfg.sim.fast_forward;
    struct mw_dram *d = p->dram;
    /* the partition's slices take turns offering one request per cycle */
    bool refused = false;
    int first = (int)(now % (uint64_t)nsub);
    for (int k = 0; k < nsub; k++) {
        int j = first + k < nsub ? first + k : first + k - nsub;
        struct mw_req_fifo *f = &p->to_dram[j];
        if (f->head_ready > now_fs) continue;
        struct mw_req *r = f->head;
        if (r->kind == MW_REQ_MIB) { /* Li's DEMUX: a dummy updates the controller's MIB and queues nothing */
            while (r && r->kind == MW_REQ_MIB && f->head_ready <= now_fs) {
                mw_fifo_pop(f);
                struct mw_l2mshr *m = (struct mw_l2mshr *)r->owner;
                struct mw_req *target = m->dram_req;
                uint64_t age = (uint64_t)((double)r->age_sum * mw_dram_age_scale(d));
                if (target && target->id == r->inst) mw_dram_mib_update(d, target, r->merge, age, now);
                else { /* its read is back: counted as dropped */
                    r->mib_state = MW_MIB_DONE;
                    mw_dram_mib_update(d, r, r->merge, age, now);
                }
                mw_req_free(&s->pool, r);
                r = f->head;
            }
            if (!r || f->head_ready > now_fs) continue;
        }
        if (!mw_dram_can_accept(d, r->kind)) {
            refused = true;
            continue;
        }
        mw_fifo_pop(f);
        r->t_seg[1] = mw_core_stamp(s);
        if (r->kind == MW_REQ_READ && s->cfg.l2.merge_info == MW_MINFO_MIB && (r->flags & MW_RQ_L2_FILL))
            r->age_sum += mw_core_now(s) - r->t_create; /* its own age on arrival (Li's DMIB entry) */
        mw_dram_push(d, r, now);
        refused = false;
        break;
    }
    if (refused) mw_dram_note_refused(d, 1);
    mw_dram_cycle(d, now);
    const char *derr = mw_dram_error(d);
    if (derr && !s->failed) {
        struct mw_err e;
        mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "dram_scheduler (channel %d): %s", p->id, derr);
        mw_sim_fail(s, &e);
    }
    struct mw_req *r;
    while ((r = mw_dram_pop_done(d))) {
        if (r->kind == MW_REQ_READ) {
            int k = r->slice - p->id * nsub;
            r->t_ready = now_fs; /* GPGPU-Sim's dram_L2 queue: no fixed delay on the way back */
            r->t_seg[2] = mw_core_stamp(s);
            mw_fifo_push(&p->from_dram[k], r);
            p->slice_wake[k] = mw_min_u64(p->slice_wake[k], r->t_ready);
            s->l2_due = mw_min_u64(s->l2_due, r->t_ready);
        } else {
            mw_req_free(&s->pool, r);
        }
    }
    if (nap) p->dram_wake = mw_dram_next_event(d, now + 1);
}

/* ---- facts ---- */
int mw_sim_n_slices(const struct mw_sim *s) { return mw_n_slices(&s->cfg); }
int mw_l2_queue_len(const struct mw_sim *s, int slice)
{
    if (!s->l2 || slice < 0 || slice >= s->nslices) return 0;
    return s->l2[slice].pipe.n + s->l2[slice].missq.n;
}
int mw_dram_queue_len_of(const struct mw_sim *s, int channel)
{
    if (!s->parts || channel < 0 || channel >= s->nparts) return 0;
    return mw_dram_queue_len(s->parts[channel].dram);
}

void mw_l2_edge(struct mw_sim *s, uint64_t now)
{
    /* every slice over the flat arrays (slice i is partition i / nsub's slice i % nsub). One pass: a slice's cycle
     * changes only its own wake and arrival queue, so each slice's due time is taken after its visit; a lowering
     * from elsewhere during the pass (none known) is kept. With fast_forward a slice's wake is the earlier of its
     * own next event and its arrival queue's head (mw_partition_slice_cycle sets it, the request network lowers
     * it at each push), exactly: only the slice's own cycle pops the queue */
    const uint64_t *wake = s->slice_wake;
    uint64_t T = s->now_fs, d = MW_NEVER;
    int nsub = s->parts[0].nsub;
    bool nap = s->cfg.sim.fast_forward;
    s->l2_due = MW_NEVER;
    for (int i = 0; i < s->nslices; i++) {
        if (!nap || wake[i] <= T) mw_partition_slice_cycle(s, &s->parts[i / nsub], i % nsub, now);
        d = mw_min_u64(d, wake[i]);
    }
    s->l2_due = mw_min_u64(s->l2_due, d);
}
