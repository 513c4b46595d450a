/* Read-only views into a simulation (engine/inspect.h): copies of warp, L1D line, MSHR and DRAM bank state for
 * the Lua inspector. Every accessor checks its indices, since the REPL passes whatever the user typed. */
#include "inspect.h"

#include "sim_internal.h"

bool mw_inspect_started(const struct mw_sim *s) { return s->started; }
int mw_inspect_n_partitions(const struct mw_sim *s) { return (int)s->cfg.l2.n_partitions; }
int mw_inspect_dram_banks(const struct mw_sim *s) { return (int)s->cfg.dram.banks; }

static const struct mw_sm *sm_at(const struct mw_sim *s, int sm)
{
    if (!s->started || sm < 0 || sm >= s->nsms) return NULL;
    return &s->sms[sm];
}

int mw_inspect_warp(const struct mw_sim *s, int sm, int w, struct mw_warp_info *out)
{
    const struct mw_sm *p = sm_at(s, sm);
    if (!p || w < 0 || w >= p->nwarps) return -1;
    const struct mw_warp *wp = &p->warps[w];
    *out = (struct mw_warp_info){.state = wp->state, .cta_slot = wp->cta_slot, .warp_in_cta = (int)wp->warp_in_cta,
                                 .age = wp->age, .insts = wp->insts, .wake = wp->wake,
                                 .pending_loads = wp->pending_loads, .pending_stores = wp->pending_stores,
                                 .ibuffer = wp->ib_n, .stream_done = wp->stream_done};
    if (wp->ib_n) {
        const struct mw_inst *in = &wp->ib[wp->ib_head];
        out->has_inst = true;
        out->pc = in->pc;
        out->op = in->op;
        out->mask = in->mask;
    }
    return 0;
}

int mw_inspect_l1d_line(const struct mw_sim *s, int sm, int set, int way, struct mw_line_info *out)
{
    const struct mw_sm *p = sm_at(s, sm);
    if (!p || set < 0 || set >= p->l1.sets || way < 0 || way >= p->l1.assoc) return -1;
    const struct mw_line *l = &p->l1.lines[set * p->l1.assoc + way];
    *out = (struct mw_line_info){.used = l->used, .line = l->tag, .last_access = l->last_access,
                                 .fill_time = l->fill_time, .pc = l->pc, .hits = l->hits, .warp = l->warp,
                                 .valid = l->valid, .pending = l->pending, .dirty = l->dirty,
                                 .meta_bytes = p->l1.meta_bytes};
    if (p->l1.meta && p->l1.meta_bytes)
        out->meta = p->l1.meta + (size_t)(set * p->l1.assoc + way) * p->l1.meta_bytes;
    else out->meta_bytes = 0;
    return 0;
}

int mw_inspect_mshr_entries(const struct mw_sim *s) { return (int)s->cfg.l1d.mshr_entries; }

int mw_inspect_mshr(const struct mw_sim *s, int sm, int i, struct mw_mshr_info *out)
{
    const struct mw_sm *p = sm_at(s, sm);
    if (!p || !p->mshr || i < 0 || i >= s->cfg.l1d.mshr_entries) return -1;
    const struct mw_mshr *m = &p->mshr[i];
    *out = (struct mw_mshr_info){.valid = m->valid, .line = m->line, .pc = m->pc, .sectors = m->sectors,
                                 .waiters = m->nwait, .inflight = m->inflight, .way = m->way, .warp = m->warp};
    return 0;
}

int mw_inspect_miss_queue(const struct mw_sim *s, int sm)
{
    const struct mw_sm *p = sm_at(s, sm);
    return p ? p->missq.n : -1;
}

int mw_inspect_ldst_used(const struct mw_sim *s, int sm)
{
    const struct mw_sm *p = sm_at(s, sm);
    return p ? p->slots_used : -1;
}

static const struct mw_dram *dram_at(const struct mw_sim *s, int ch)
{
    if (!s->started || ch < 0 || ch >= s->nparts || !s->dram) return NULL;
    return s->dram[ch];
}

int mw_inspect_dram_bank(const struct mw_sim *s, int channel, int bank, struct mw_bank_info *out)
{
    const struct mw_dram *d = dram_at(s, channel);
    if (!d || bank < 0 || bank >= s->cfg.dram.banks) return -1;
    out->open_row = mw_dram_open_row(d, bank);
    return 0;
}

int mw_inspect_dram_queue(const struct mw_sim *s, int channel)
{
    const struct mw_dram *d = dram_at(s, channel);
    return d ? mw_dram_queue_len(d) : -1;
}

int mw_inspect_dram_pending(const struct mw_sim *s, int channel)
{
    const struct mw_dram *d = dram_at(s, channel);
    return d ? mw_dram_pending(d) : -1;
}
