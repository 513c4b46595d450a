/* Read-only views into a simulation (engine/inspect.h): copies of warp, L1D line, MSHR and DRAM bank state for
 * the Lua inspector. Every accessor checks its indices, since the REPL passes whatever the user typed. */
#include "inspect.h"

#include "l1d.h"
#include "partition.h"
#include "sm.h"

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

static const struct mw_l1d *l1d_at(const struct mw_sim *s, int sm)
{
    return sm_at(s, sm) ? &s->l1d[sm] : NULL;
}

int mw_inspect_l1d_line(const struct mw_sim *s, int sm, int set, int way, struct mw_line_info *out)
{
    const struct mw_l1d *l1 = l1d_at(s, sm);
    if (!l1 || set < 0 || set >= l1->tags.sets || way < 0 || way >= l1->tags.assoc) return -1;
    const struct mw_line *l = &l1->tags.lines[set * l1->tags.assoc + way];
    *out = (struct mw_line_info){.used = l->used, .line = l->tag, .last_access = l->last_access,
                                 .fill_time = l->fill_time, .pc = l->pc, .hits = l->hits, .warp = l->warp,
                                 .valid = l->valid, .pending = l->pending, .dirty = l->dirty,
                                 .meta_bytes = l1->tags.meta_bytes};
    if (l1->tags.meta && l1->tags.meta_bytes)
        out->meta = l1->tags.meta + (size_t)(set * l1->tags.assoc + way) * l1->tags.meta_bytes;
    else out->meta_bytes = 0;
    return 0;
}

int mw_inspect_mshr_entries(const struct mw_sim *s) { return (int)s->cfg.l1d.mshr_entries; }

int mw_inspect_mshr(const struct mw_sim *s, int sm, int i, struct mw_mshr_info *out)
{
    const struct mw_l1d *l1 = l1d_at(s, sm);
    if (!l1 || !l1->mshr || i < 0 || i >= l1->mshr_entries) return -1;
    const struct mw_mshr *m = &l1->mshr[i];
    bool valid = l1->mshr_key[i] != MW_MSHR_NO_LINE;
    *out = (struct mw_mshr_info){.valid = valid, .line = valid ? l1->mshr_key[i] : 0, .pc = m->pc, .sectors = m->sectors,
                                 .waiters = m->nwait, .inflight = m->inflight, .way = m->way, .warp = m->warp};
    return 0;
}

int mw_inspect_miss_queue(const struct mw_sim *s, int sm)
{
    const struct mw_l1d *l1 = l1d_at(s, sm);
    return l1 ? l1->missq.n : -1;
}

int mw_inspect_ldst_used(const struct mw_sim *s, int sm)
{
    const struct mw_sm *p = sm_at(s, sm);
    return p ? p->ldst.slots_used : -1;
}

static const struct mw_dram *dram_at(const struct mw_sim *s, int ch)
{
    if (!s->started || ch < 0 || ch >= s->nparts || !s->parts) return NULL;
    return s->parts[ch].dram;
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
