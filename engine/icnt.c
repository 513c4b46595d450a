/* Crossbar between SMs and L2 slices (one instance for requests, one for replies): per-source injection
 * queues, one flit per cycle per source and per destination port, a rotating-priority allocator, a fixed
 * traversal latency, and credit-based back-pressure on each destination's input buffer. A simplified
 * stand-in for GPGPU-Sim's intersim crossbar/iSLIP. */
#include "icnt.h"

#include <stdlib.h>
#include <string.h>

MW_STATS_DEFINE(icnt, MW_ICNT_STATS)

int mw_xbar_init(struct mw_xbar *x, int nsrc, int ndst, const struct mw_config *c, uint64_t period_fs)
{
    memset(x, 0, sizeof *x);
    x->period_fs = period_fs;
    x->nsrc = nsrc;
    x->ndst = ndst;
    x->flit = (int)c->icnt.flit_bytes;
    x->latency = (int)c->icnt.latency;
    x->credits_init = (int)c->icnt.in_buffer_flits;
    x->inject_flits = (int)c->icnt.inject_flits;
    x->qflits = calloc((size_t)nsrc, sizeof *x->qflits);
    x->inq = calloc((size_t)nsrc, sizeof *x->inq);
    x->arrive = calloc((size_t)ndst, sizeof *x->arrive);
    x->src_busy = calloc((size_t)nsrc, sizeof *x->src_busy);
    x->dst_busy = calloc((size_t)ndst, sizeof *x->dst_busy);
    x->credits = calloc((size_t)ndst, sizeof *x->credits);
    x->waiting = calloc((size_t)(nsrc + 63) / 64, sizeof *x->waiting);
    x->arrived = calloc((size_t)(ndst + 63) / 64, sizeof *x->arrived);
    if (!x->inq || !x->arrive || !x->src_busy || !x->dst_busy || !x->credits || !x->waiting || !x->qflits || !x->arrived)
        return MW_ENOMEM;
    for (int i = 0; i < nsrc; i++) mw_fifo_init(&x->inq[i], (int)c->icnt.out_queue);
    for (int i = 0; i < ndst; i++) {
        mw_fifo_init(&x->arrive[i], 1 << 30);
        x->credits[i] = x->credits_init;
    }
    return 0;
}

void mw_xbar_fini(struct mw_xbar *x)
{
    free(x->inq);
    free(x->arrive);
    free(x->src_busy);
    free(x->dst_busy);
    free(x->credits);
    free(x->waiting);
    free(x->qflits);
    free(x->arrived);
    memset(x, 0, sizeof *x);
}

static inline int flits_of(const struct mw_xbar *x, int bytes) { return bytes <= 0 ? 1 : (bytes + x->flit - 1) / x->flit; }

void mw_xbar_inject(struct mw_xbar *x, int src, struct mw_req *r, int dst, int bytes)
{
    int fl = flits_of(x, bytes);
    r->flits = (uint8_t)(fl > 255 ? 255 : fl);
    r->port = (uint16_t)dst;
    x->qflits[src] += r->flits;
    mw_fifo_push(&x->inq[src], r);
    x->waiting[src >> 6] |= 1ull << (src & 63);
    x->queued++;
    x->grant_due = 0;
}

/* Offer source src's head packet to its destination port. */
static bool try_grant(struct mw_xbar *x, int src, uint64_t now)
{
    struct mw_req *r = x->inq[src].head;
    if (x->src_busy[src] > now) return false;
    int dst = r->port, fl = r->flits;
    if (x->dst_busy[dst] > now || x->credits[dst] < fl) return false;
    mw_fifo_pop(&x->inq[src]);
    x->qflits[src] -= fl;
    if (x->src_wake) x->src_wake[src] = *x->src_due = 0;
    if (!x->inq[src].head) x->waiting[src >> 6] &= ~(1ull << (src & 63));
    x->queued--;
    x->credits[dst] -= fl;
    x->src_busy[src] = x->dst_busy[dst] = now + (uint64_t)fl;
    r->t_ready = (now + (uint64_t)fl - 1 + (uint64_t)x->latency) * x->period_fs; /* last flit's arrival */
    mw_fifo_push(&x->arrive[dst], r);
    x->arrived[dst >> 6] |= 1ull << (dst & 63);
    if (x->arrival_due && r->t_ready < *x->arrival_due) *x->arrival_due = r->t_ready;
    if (x->dst_wake) x->dst_wake[dst] = mw_min_u64(x->dst_wake[dst], x->arrive[dst].head_ready);
    x->inflight++;
    x->st.packets++;
    x->st.flits += (uint64_t)fl;
    return true;
}

bool mw_xbar_cycle(struct mw_xbar *x, uint64_t now)
{
    if (!x->queued || now < x->grant_due) return false;
    bool granted = false;
    /* sources with a packet, in priority order rr, rr+1, ..., nsrc-1, 0, ..., rr-1 */
    for (int pass = 0; pass < 2; pass++) {
        int lo = pass ? 0 : x->rr, hi = pass ? x->rr : x->nsrc;
        for (int w = lo >> 6; lo < hi && w <= (hi - 1) >> 6; w++) {
            int base = w << 6;
            uint64_t m = x->waiting[w];
            if (base < lo) m &= ~0ull << (lo - base);
            if (hi - base < 64) m &= (1ull << (hi - base)) - 1;
            for (; m; m &= m - 1) granted |= try_grant(x, base + __builtin_ctzll(m), now);
        }
    }
    /* the priority rotates after a grant (not every cycle, so fast-forwarded cycles change nothing) */
    if (granted) {
        x->rr = (x->rr + 1) % x->nsrc;
        return true;
    }
    /* nothing granted: nothing can be before a busy source or port frees, or (credits) before a pop */
    uint64_t due = MW_NEVER;
    for (int w = 0; w < (x->nsrc + 63) >> 6; w++)
        for (uint64_t m = x->waiting[w]; m; m &= m - 1) {
            int src = (w << 6) + __builtin_ctzll(m);
            const struct mw_req *r = x->inq[src].head;
            if (x->credits[r->port] >= r->flits)
                due = mw_min_u64(due, mw_max_u64(x->src_busy[src], x->dst_busy[r->port]));
        }
    x->grant_due = due;
    return true;
}

struct mw_req *mw_xbar_pop(struct mw_xbar *x, int dst)
{
    struct mw_req *r = mw_fifo_pop(&x->arrive[dst]);
    if (r) {
        x->credits[dst] += r->flits;
        x->inflight--;
        x->grant_due = 0;
        if (!x->arrive[dst].head) x->arrived[dst >> 6] &= ~(1ull << (dst & 63));
    }
    return r;
}

uint64_t mw_xbar_next_event(const struct mw_xbar *x, uint64_t now, uint64_t now_fs)
{
    uint64_t t = MW_NEVER;
    if (x->queued)
        for (int w = 0; w < (x->nsrc + 63) >> 6; w++)
            for (uint64_t m = x->waiting[w]; m; m &= m - 1) { /* the sources with a packet */
                int s = (w << 6) + __builtin_ctzll(m);
                const struct mw_req *r = x->inq[s].head;
                int dst = r->port;
                uint64_t when = mw_max_u64(x->src_busy[s], x->dst_busy[dst]);
                if (x->credits[dst] < r->flits) continue; /* waits for a pop, which is someone else's event */
                t = mw_min_u64(t, mw_max_u64(when, now) * x->period_fs);
            }
    for (int w = 0; w < (x->ndst + 63) >> 6; w++)
        for (uint64_t m = x->arrived[w]; m; m &= m - 1) {
            int d = (w << 6) + __builtin_ctzll(m);
            t = mw_min_u64(t, mw_max_u64(x->arrive[d].head_ready, now_fs));
        }
    return t;
}
