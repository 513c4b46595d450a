/* One DRAM channel after DRAMSim3 (timing.cc's command x scope delay table, bankstate.cc's per-bank earliest
 * issue time per command, command_queue.cc's oldest-ready-first issue and 4-row-hit cap), with GPGPU-Sim's
 * split read/write queues and write-drain watermarks, and the bank's next request chosen by a policy. */
#include "dram.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MW_STATS_DEFINE(dram, MW_DRAM_STATS)

const char *const mw_dram_cmd_names[MW_DCMD_COUNT] = {"ACT", "PRE", "RD", "WR"};

#define NIL (-1)

/* A request in the scheduler queue. Slots live in one array; a bank links its schedulable slots in arrival
 * order. */
struct slot {
    struct mw_req *r;
    uint64_t enq;        /* cycle it entered the controller (push cycle + 1) */
    uint64_t sched_from; /* first cycle its first command may issue */
    uint64_t seq;        /* arrival order: the age used everywhere */
    uint32_t row, col;
    uint16_t bank;
    uint16_t atoms;      /* column commands still to issue */
    uint8_t is_write;
    uint8_t conflict;    /* its first command was a PRE */
    int32_t prev, next;  /* bank list, or free list (next) */
};

/* The largest constraint contributed by each source (a bank within its group, or a group within the channel)
 * kept as the top value, its source, and the top value of any other source: a bank must not see the
 * other-bank delays of its own commands, and this keeps that exact in O(1) per command. */
struct top2 {
    uint64_t v1, v2;
    int who;
};

static inline void top2_put(struct top2 *t, uint64_t v, int who)
{
    if (who == t->who) {
        if (v > t->v1) t->v1 = v;
    } else if (v > t->v1) {
        t->v2 = t->v1;
        t->v1 = v;
        t->who = who;
    } else if (v > t->v2) {
        t->v2 = v;
    }
}
static inline uint64_t top2_get(const struct top2 *t, int self) { return t->who == self ? t->v2 : t->v1; }

struct bank {
    uint64_t next[MW_DCMD_COUNT]; /* earliest cycle each command may issue here, from this bank's commands */
    uint64_t repick_at;           /* re-ask the policy at this cycle (row-hit cap waiting for PRE), or NEVER */
    uint32_t open_row;            /* MW_ROW_NONE when precharged */
    uint32_t cols;                /* column commands since the ACT */
    int32_t head, tail;           /* schedulable slots, oldest first */
    int32_t cur;                  /* slot being served (first command issued), or NIL */
    int32_t choice;               /* slot picked, nothing issued yet, or NIL */
    int nq;                       /* slots in the list */
    uint8_t group;
};

struct inflight {
    uint64_t done;
    uint64_t seq;
    struct mw_req *r;
};

/* One run of consecutive address bits that belong to one field. */
struct bitrun {
    uint8_t src, len, dst, field;
};
enum { F_ROW, F_BANK, F_COL, F_NFIELDS };

struct eff_list {
    uint8_t n, to[MW_DCMD_COUNT];
    uint16_t dl[MW_DCMD_COUNT];
};

struct mw_dram {
    int channel;
    struct mw_policy_inst *sched;
    struct mw_dram_stats st;

    /* geometry and timing */
    int nbanks, ngroups, burst, atom;
    int tCL, tCWL;
    int timing[MW_DCMD_COUNT][MW_DCMD_COUNT][MW_DSCOPE_COUNT];
    /* the same table as sparse lists: for (from, scope), the commands it constrains and by how much */
    struct eff_list eff[MW_DCMD_COUNT][MW_DSCOPE_COUNT];
    uint8_t aff_other[MW_DCMD_COUNT]; /* commands (bit mask) a command constrains on other banks */
    struct bitrun runs[64];
    int nruns;
    double age_scale; /* core cycles -> DRAM cycles */

    /* queues */
    bool split;
    int cap_unified, cap_read, cap_write, write_high, write_low, max_row_hits;
    bool perfect, drain_empty, rr, mib; /* dram.perfect, drain_on_empty, cmd_arbiter, l2.merge_info */
    int rr_next;             /* round robin: the bank asked first */
    struct slot *slots;
    int nslots, free_slot;
    int q_reads, q_writes;   /* slots in use by kind (staged, listed or being served) */
    int32_t *staged;         /* ring of slot indices waiting for sched_from, in push order */
    int st_head, st_n;
    struct mw_req **inq;     /* input FIFO (dram.input_queue) */
    int in_cap, in_head, in_n;
    bool draining, serve_writes, serve_reads;
    uint64_t seq;

    struct bank *banks;
    struct top2 *grp;        /* [group * MW_DCMD_COUNT + cmd]: constraints from the group's other banks */
    struct top2 chan[MW_DCMD_COUNT]; /* constraints from the other groups */
    uint64_t *bready;        /* per bank: cycle its pending command may issue (NEVER = nothing pending) */
    uint64_t *bseq;          /* per bank: arrival order of the request that command serves */
    uint8_t *bcmd;           /* per bank: that command */
    uint64_t dirty;          /* banks (bit b) whose choice must be re-asked (banks <= 64) */
    uint64_t repick;         /* banks with a repick_at time */
    uint64_t active;         /* banks with a request chosen or in service */
    struct mw_dram_cand *cands;
    int32_t *cand_slot;
    uint64_t bus_free;       /* first cycle the data bus is free */

    struct inflight *heap;   /* min-heap by (done, seq) */
    int heap_n, heap_cap;
    struct mw_req_fifo done;
    int ndone;

    mw_dram_cmd_log_fn log_fn;
    void *log_ctx;
    char err[256];
};

/* ---- construction ------------------------------------------------------------------------------------------ */

static int imax(int a, int b) { return a > b ? a : b; }

static void build_timing(struct mw_dram *d, const struct mw_config *c)
{
    int burst = d->burst;
    bool bg = d->ngroups > 1;
    /* DRAMSim3 timing.cc; with bank groups off, every *_L delay takes its *_S value */
    int rr_l = imax(burst, (int)(bg ? c->dram.tCCDL : c->dram.tCCD)), rr_s = imax(burst, (int)c->dram.tCCD);
    int rtw = imax(0, (int)(c->dram.tCL + burst - c->dram.tCWL + c->dram.tRTRS));
    int wtr = (int)(c->dram.tCWL + burst + c->dram.tWTR);
    int wtp = (int)(c->dram.tCWL + burst + c->dram.tWR);
    int(*t)[MW_DCMD_COUNT][MW_DSCOPE_COUNT] = d->timing;
    memset(d->timing, 0, sizeof d->timing);
    enum { A = MW_DCMD_ACT, P = MW_DCMD_PRE, R = MW_DCMD_RD, W = MW_DCMD_WR };
    enum { SB = MW_DSCOPE_BANK, SG = MW_DSCOPE_GROUP, SO = MW_DSCOPE_OTHER };
    t[R][R][SB] = rr_l, t[R][W][SB] = rtw, t[R][P][SB] = (int)c->dram.tRTP;
    t[W][R][SB] = wtr, t[W][W][SB] = rr_l, t[W][P][SB] = wtp;
    t[A][A][SB] = (int)c->dram.tRC, t[A][R][SB] = (int)c->dram.tRCD, t[A][W][SB] = (int)c->dram.tRCDWR;
    t[A][P][SB] = (int)c->dram.tRAS;
    t[P][A][SB] = (int)c->dram.tRP;
    t[R][R][SG] = rr_l, t[R][W][SG] = rtw, t[W][R][SG] = wtr, t[W][W][SG] = rr_l, t[A][A][SG] = (int)c->dram.tRRD;
    t[R][R][SO] = rr_s, t[R][W][SO] = rtw, t[W][R][SO] = wtr, t[W][W][SO] = rr_s, t[A][A][SO] = (int)c->dram.tRRD;
    for (int from = 0; from < MW_DCMD_COUNT; from++)
        for (int sc = 0; sc < MW_DSCOPE_COUNT; sc++) {
            d->eff[from][sc].n = 0;
            for (int to = 0; to < MW_DCMD_COUNT; to++)
                if (t[from][to][sc] > 0) {
                    int k = d->eff[from][sc].n++;
                    d->eff[from][sc].to[k] = (uint8_t)to;
                    d->eff[from][sc].dl[k] = (uint16_t)t[from][to][sc];
                    if (sc != MW_DSCOPE_BANK) d->aff_other[from] |= (uint8_t)(1u << to);
                }
        }
    /* a column command also moves the data bus, which every RD and WR waits for */
    d->aff_other[MW_DCMD_RD] |= 1u << MW_DCMD_RD | 1u << MW_DCMD_WR;
    d->aff_other[MW_DCMD_WR] |= 1u << MW_DCMD_RD | 1u << MW_DCMD_WR;
}

static int parse_map(struct mw_dram *d, const struct mw_config *c, struct mw_err *e)
{
    const char *m = c->dram.address_map, *src = c->source[0] ? c->source : NULL;
    int nbits = 0, count[F_NFIELDS] = {0};
    for (const char *p = m; *p; p++)
        if (*p != '.') nbits++;
    if (nbits > 64) return mw_err_set(e, MW_EINVAL, src, 0, 0, "dram.address_map: more than 64 bits");
    int bit = nbits;
    d->nruns = 0;
    for (const char *p = m; *p; p++) {
        int f;
        switch (*p) {
        case '.': continue;
        case 'R': f = F_ROW; break;
        case 'B': f = F_BANK; break;
        case 'C': f = F_COL; break;
        case 'S': f = -1; break;
        default:
            return mw_err_set(e, MW_EINVAL, src, 0, 0,
                              "dram.address_map: '%c' is not R (row), B (bank), C (column), S (byte) or '.'", *p);
        }
        bit--;
        if (f < 0) continue;
        count[f]++;
        /* runs are built MSB first; extend the previous run if this bit continues it downward */
        struct bitrun *prev = d->nruns ? &d->runs[d->nruns - 1] : NULL;
        if (prev && prev->field == f && prev->src == bit + 1) {
            prev->src = (uint8_t)bit;
            prev->len++;
        } else {
            d->runs[d->nruns++] = (struct bitrun){.src = (uint8_t)bit, .len = 1, .field = (uint8_t)f};
        }
    }
    /* destination positions: within a field, earlier (more significant) runs take the higher bits */
    int dst[F_NFIELDS] = {0};
    for (int i = d->nruns - 1; i >= 0; i--) {
        d->runs[i].dst = (uint8_t)dst[d->runs[i].field];
        dst[d->runs[i].field] += d->runs[i].len;
    }
    if ((1LL << count[F_BANK]) != c->dram.banks)
        return mw_err_set(e, MW_EINVAL, src, 0, 0,
                          "dram.address_map has %d bank bits (%lld banks) but dram.banks is %lld", count[F_BANK],
                          1LL << count[F_BANK], (long long)c->dram.banks);
    if (count[F_ROW] == 0 || count[F_ROW] > 32)
        return mw_err_set(e, MW_EINVAL, src, 0, 0, "dram.address_map needs 1 to 32 row bits (R), has %d",
                          count[F_ROW]);
    return 0;
}

struct mw_dram *mw_dram_create(const struct mw_config *c, int channel, struct mw_policy_inst *sched,
                               struct mw_err *e)
{
    const char *src = c->source[0] ? c->source : NULL;
    if (c->dram.banks > 64) { /* bank sets are 64-bit masks */
        mw_err_set(e, MW_EINVAL, src, 0, 0, "dram.banks: at most 64 banks per channel, got %lld",
                   (long long)c->dram.banks);
        return NULL;
    }
    if (c->dram.banks % c->dram.bank_groups) {
        mw_err_set(e, MW_EINVAL, src, 0, 0, "dram.bank_groups (%lld) must divide dram.banks (%lld)",
                   (long long)c->dram.bank_groups, (long long)c->dram.banks);
        return NULL;
    }
    struct mw_dram *d = calloc(1, sizeof *d);
    if (!d) {
        mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    d->channel = channel;
    d->sched = sched;
    d->nbanks = (int)c->dram.banks;
    d->ngroups = (int)c->dram.bank_groups;
    d->burst = (int)((c->dram.burst_length + c->dram.data_rate - 1) / c->dram.data_rate);
    d->atom = (int)(c->dram.bus_bytes * c->dram.burst_length);
    d->tCL = (int)c->dram.tCL;
    d->tCWL = (int)c->dram.tCWL;
    d->age_scale = c->clock.dram_mhz / c->clock.core_mhz;
    if (parse_map(d, c, e)) {
        free(d);
        return NULL;
    }
    build_timing(d, c);
    d->split = c->dram.queue_mode == MW_DRAMQ_SPLIT;
    d->cap_unified = (int)c->dram.queue_size;
    d->cap_read = (int)c->dram.read_queue;
    d->cap_write = (int)c->dram.write_queue;
    d->write_high = (int)c->dram.write_high;
    d->write_low = (int)c->dram.write_low;
    d->max_row_hits = (int)c->dram.max_row_hits;
    d->perfect = c->dram.perfect;
    d->drain_empty = c->dram.drain_on_empty;
    d->rr = c->dram.cmd_arbiter == MW_DCMDARB_ROUND_ROBIN;
    d->mib = c->l2.merge_info == MW_MINFO_MIB;
    d->nslots = d->split ? d->cap_read + d->cap_write : d->cap_unified;
    d->in_cap = (int)c->dram.input_queue;
    /* in flight: at most one column command per cycle, each done within max(CL, CWL) + burst cycles */
    d->heap_cap = imax(d->tCL, d->tCWL) + d->burst + 2 + d->nslots;
    d->slots = calloc((size_t)d->nslots, sizeof *d->slots);
    d->staged = calloc((size_t)d->nslots, sizeof *d->staged);
    d->inq = calloc((size_t)(d->in_cap ? d->in_cap : 1), sizeof *d->inq);
    d->banks = calloc((size_t)d->nbanks, sizeof *d->banks);
    d->bready = calloc((size_t)d->nbanks, sizeof *d->bready);
    d->grp = calloc((size_t)(d->ngroups * MW_DCMD_COUNT), sizeof *d->grp);
    d->bseq = calloc((size_t)d->nbanks, sizeof *d->bseq);
    d->bcmd = calloc((size_t)d->nbanks, sizeof *d->bcmd);
    d->cands = calloc((size_t)d->nslots, sizeof *d->cands);
    d->cand_slot = calloc((size_t)d->nslots, sizeof *d->cand_slot);
    d->heap = calloc((size_t)d->heap_cap, sizeof *d->heap);
    if (!d->slots || !d->staged || !d->inq || !d->banks || !d->grp || !d->bready || !d->bseq || !d->bcmd ||
        !d->cands || !d->cand_slot || !d->heap) {
        mw_dram_destroy(d);
        mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    for (int i = 0; i < d->nslots; i++) d->slots[i].next = i + 1 < d->nslots ? i + 1 : NIL;
    d->free_slot = 0;
    for (int b = 0; b < d->nbanks; b++) {
        struct bank *k = &d->banks[b];
        k->open_row = MW_ROW_NONE;
        k->head = k->tail = k->cur = k->choice = NIL;
        k->repick_at = MW_NEVER;
        k->group = (uint8_t)(b % d->ngroups);
        d->bready[b] = MW_NEVER;
    }
    for (int i = 0; i < d->ngroups * MW_DCMD_COUNT; i++) d->grp[i].who = -1;
    for (int i = 0; i < MW_DCMD_COUNT; i++) d->chan[i].who = -1;
    mw_fifo_init(&d->done, 1 << 30);
    d->serve_reads = true;
    d->serve_writes = !d->split;
    return d;
}

void mw_dram_destroy(struct mw_dram *d)
{
    if (!d) return;
    free(d->slots);
    free(d->staged);
    free(d->inq);
    free(d->banks);
    free(d->bready);
    free(d->grp);
    free(d->bseq);
    free(d->bcmd);
    free(d->cands);
    free(d->cand_slot);
    free(d->heap);
    free(d);
}

/* ---- small accessors --------------------------------------------------------------------------------------- */

void mw_dram_decode(const struct mw_dram *d, uint64_t a, uint32_t *bank, uint32_t *row, uint32_t *col)
{
    uint64_t f[F_NFIELDS] = {0};
    for (int i = 0; i < d->nruns; i++) {
        const struct bitrun *r = &d->runs[i];
        f[r->field] |= ((a >> r->src) & ((1ull << r->len) - 1)) << r->dst;
    }
    if (bank) *bank = (uint32_t)f[F_BANK];
    if (row) *row = (uint32_t)f[F_ROW];
    if (col) *col = (uint32_t)f[F_COL];
}

int mw_dram_timing(const struct mw_dram *d, int from, int to, int scope)
{
    if ((unsigned)from >= MW_DCMD_COUNT || (unsigned)to >= MW_DCMD_COUNT || (unsigned)scope >= MW_DSCOPE_COUNT)
        return 0;
    return d->timing[from][to][scope];
}
int mw_dram_burst_cycles(const struct mw_dram *d) { return d->burst; }
int mw_dram_atom_bytes(const struct mw_dram *d) { return d->atom; }
int mw_dram_bank_group(const struct mw_dram *d, int bank) { return d->banks[bank].group; }
void mw_dram_note_refused(struct mw_dram *d, uint64_t cycles) { d->st.queue_full += cycles; }
const char *mw_dram_error(const struct mw_dram *d) { return d->err[0] ? d->err : NULL; }
void mw_dram_set_cmd_log(struct mw_dram *d, mw_dram_cmd_log_fn fn, void *ctx)
{
    d->log_fn = fn;
    d->log_ctx = ctx;
}
const struct mw_dram_stats *mw_dram_get_stats(const struct mw_dram *d) { return &d->st; }
uint32_t mw_dram_open_row(const struct mw_dram *d, int bank)
{
    return bank >= 0 && bank < d->nbanks ? d->banks[bank].open_row : MW_ROW_NONE;
}
int mw_dram_queue_len(const struct mw_dram *d) { return d->q_reads + d->q_writes + d->in_n; }
int mw_dram_pending(const struct mw_dram *d) { return d->q_reads + d->q_writes + d->in_n + d->heap_n + d->ndone; }

/* ---- queues ------------------------------------------------------------------------------------------------- */

static bool sched_room(const struct mw_dram *d, int kind)
{
    if (!d->split) return d->q_reads + d->q_writes < d->cap_unified;
    return kind == MW_REQ_WRITE ? d->q_writes < d->cap_write : d->q_reads < d->cap_read;
}

bool mw_dram_can_accept(const struct mw_dram *d, int kind)
{
    if (d->perfect) return true;
    if (d->in_cap) return d->in_n < d->in_cap;
    return sched_room(d, kind);
}

/* Take a slot for r and stage it: it joins its bank's list at sched_from. */
static void stage(struct mw_dram *d, struct mw_req *r, uint64_t sched_from)
{
    int i = d->free_slot;
    assert(i != NIL && "mw_dram_push without mw_dram_can_accept");
    struct slot *s = &d->slots[i];
    d->free_slot = s->next;
    uint32_t bank, row, col;
    mw_dram_decode(d, r->dram_addr, &bank, &row, &col);
    s->r = r;
    s->enq = r->t_dram_enq;
    s->sched_from = sched_from;
    s->seq = d->seq++;
    s->bank = (uint16_t)bank;
    s->row = row;
    s->col = col;
    s->is_write = r->kind == MW_REQ_WRITE;
    s->conflict = 0;
    uint32_t atoms = r->size > (uint32_t)d->atom ? (r->size + (uint32_t)d->atom - 1) / (uint32_t)d->atom : 1;
    s->atoms = (uint16_t)atoms;
    s->prev = s->next = NIL;
    if (s->is_write) d->q_writes++;
    else d->q_reads++;
    d->staged[(d->st_head + d->st_n) % d->nslots] = i;
    d->st_n++;
}

void mw_dram_push(struct mw_dram *d, struct mw_req *r, uint64_t now)
{
    r->t_dram_enq = now + 1;
    if (r->kind == MW_REQ_WRITE) d->st.writes++;
    else d->st.reads++;
    if (d->perfect) { /* Li §5.2: zero latency, the request is at once in the return queue */
        r->t_dram_enq = now;
        r->t_ready = now;
        r->mib_state = MW_MIB_DONE;
        if (r->kind == MW_REQ_READ) d->st.reads_done++;
        mw_fifo_push(&d->done, r);
        d->ndone++;
        return;
    }
    if (d->mib && r->kind == MW_REQ_READ) {
        /* the DMIB entry: merge 1 and the request's own age, or what dummies sent ahead of it left (their
         * merged requests aged at merge - 1 per cycle since: the first one's age is `own`) */
        uint64_t own = (uint64_t)((double)r->age_sum * d->age_scale);
        if (r->mib_state == MW_MIB_EARLY) {
            r->mib_age = own + r->mib_age + (uint64_t)(r->mib_merge - 1) * (now - r->mib_t);
        } else {
            r->mib_merge = 1;
            r->mib_age = own;
        }
        r->mib_t = now;
        r->mib_state = MW_MIB_QUEUED;
    }
    if (d->in_cap) {
        d->inq[(d->in_head + d->in_n) % d->in_cap] = r;
        d->in_n++;
    } else {
        stage(d, r, now + 2);
    }
}

static void list_append(struct mw_dram *d, int i)
{
    struct slot *s = &d->slots[i];
    struct bank *k = &d->banks[s->bank];
    s->prev = k->tail;
    s->next = NIL;
    if (k->tail != NIL) d->slots[k->tail].next = i;
    else k->head = i;
    k->tail = i;
    k->nq++;
    d->dirty |= 1ull << s->bank;
}

static void list_remove(struct mw_dram *d, int i)
{
    struct slot *s = &d->slots[i];
    struct bank *k = &d->banks[s->bank];
    if (s->prev != NIL) d->slots[s->prev].next = s->next;
    else k->head = s->next;
    if (s->next != NIL) d->slots[s->next].prev = s->prev;
    else k->tail = s->prev;
    k->nq--;
}

static void free_slot(struct mw_dram *d, int i)
{
    struct slot *s = &d->slots[i];
    if (s->is_write) d->q_writes--;
    else d->q_reads--;
    s->r = NULL;
    s->next = d->free_slot;
    d->free_slot = i;
}

/* ---- completion heap ---------------------------------------------------------------------------------------- */

static bool heap_less(const struct inflight *a, const struct inflight *b)
{
    return a->done < b->done || (a->done == b->done && a->seq < b->seq);
}

static void heap_push(struct mw_dram *d, struct inflight x)
{
    int i = d->heap_n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!heap_less(&x, &d->heap[p])) break;
        d->heap[i] = d->heap[p];
        i = p;
    }
    d->heap[i] = x;
}

static struct inflight heap_pop(struct mw_dram *d)
{
    struct inflight top = d->heap[0], x = d->heap[--d->heap_n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, m = i;
        const struct inflight *best = &x;
        if (l < d->heap_n && heap_less(&d->heap[l], best)) m = l, best = &d->heap[l];
        if (l + 1 < d->heap_n && heap_less(&d->heap[l + 1], best)) m = l + 1;
        if (m == i) break;
        d->heap[i] = d->heap[m];
        i = m;
    }
    if (d->heap_n) d->heap[i] = x;
    return top;
}

struct mw_req *mw_dram_pop_done(struct mw_dram *d)
{
    struct mw_req *r = mw_fifo_pop(&d->done);
    if (r) d->ndone--;
    return r;
}

/* ---- scheduling ------------------------------------------------------------------------------------------- */

/* The command slot i needs next on its bank. */
static int next_cmd(const struct bank *k, const struct slot *s)
{
    if (k->open_row == MW_ROW_NONE) return MW_DCMD_ACT;
    if (k->open_row != s->row) return MW_DCMD_PRE;
    return s->is_write ? MW_DCMD_WR : MW_DCMD_RD;
}

/* Earliest cycle `cmd` may issue on bank b by the timing table: its own commands, its group's other banks,
 * the other groups. */
static uint64_t next_time(const struct mw_dram *d, int b, int cmd)
{
    const struct bank *k = &d->banks[b];
    uint64_t t = k->next[cmd];
    t = mw_max_u64(t, top2_get(&d->grp[k->group * MW_DCMD_COUNT + cmd], b));
    return mw_max_u64(t, top2_get(&d->chan[cmd], k->group));
}

/* Earliest cycle the command can issue (timing table and data bus). */
static uint64_t cmd_ready(const struct mw_dram *d, int b, int cmd)
{
    uint64_t t = next_time(d, b, cmd);
    if (cmd == MW_DCMD_RD || cmd == MW_DCMD_WR) {
        uint64_t lat = (uint64_t)(cmd == MW_DCMD_RD ? d->tCL : d->tCWL);
        if (d->bus_free > lat) t = mw_max_u64(t, d->bus_free - lat);
    }
    return t;
}

static bool kind_served(const struct mw_dram *d, const struct slot *s)
{
    return s->is_write ? d->serve_writes : d->serve_reads;
}

/* Which kinds the banks may start now: everything (unified), or reads unless writes are draining (split:
 * drain from write_high down to write_low, and whenever no read is queued). Returns the new drain state. */
static bool mode_of(const struct mw_dram *d, bool *r, bool *w)
{
    if (!d->split) {
        *r = *w = true;
        return false;
    }
    bool drain = d->draining;
    if (!drain && d->q_writes > 0 &&
        (d->q_writes >= d->write_high || (d->drain_empty && d->q_reads == 0 && d->q_writes > d->write_low)))
        drain = true;
    else if (drain && d->q_writes <= d->write_low) drain = false;
    *w = drain || (d->q_reads == 0 && d->q_writes > 0);
    *r = !*w;
    return drain;
}

static void pick(struct mw_dram *d, int b, uint64_t now)
{
    struct bank *k = &d->banks[b];
    d->dirty &= ~(1ull << b);
    d->repick &= ~(1ull << b);
    k->repick_at = MW_NEVER;
    k->choice = NIL;
    int n = 0, oldest_other = NIL;
    for (int i = k->head; i != NIL; i = d->slots[i].next) {
        const struct slot *s = &d->slots[i];
        if (!kind_served(d, s)) continue;
        if (oldest_other == NIL && s->row != k->open_row) oldest_other = i;
        d->cand_slot[n++] = i;
    }
    if (!n) return;
    /* row-hit cap: after max_row_hits column commands, an older request to another row may close the row as
     * soon as its PRE is allowed; from then on the younger hits are hidden from the policy */
    if (d->max_row_hits && k->open_row != MW_ROW_NONE && oldest_other != NIL &&
        k->cols >= (uint32_t)d->max_row_hits) {
        uint64_t limit = d->slots[oldest_other].seq;
        bool younger_hit = false;
        for (int j = 0; j < n; j++) {
            const struct slot *s = &d->slots[d->cand_slot[j]];
            if (s->row == k->open_row && s->seq > limit) younger_hit = true;
        }
        if (younger_hit) {
            uint64_t pre = next_time(d, b, MW_DCMD_PRE);
            if (pre <= now) {
                int m = 0;
                for (int j = 0; j < n; j++) {
                    const struct slot *s = &d->slots[d->cand_slot[j]];
                    if (!(s->row == k->open_row && s->seq > limit)) d->cand_slot[m++] = d->cand_slot[j];
                }
                n = m;
            } else {
                k->repick_at = pre;
                d->repick |= 1ull << b;
            }
        }
    }
    int idx = 0;
    const struct mw_policy_inst *pi = d->sched;
    const struct mw_dram_sched_ops *ops = pi && pi->pol ? (const struct mw_dram_sched_ops *)pi->pol : NULL;
    if (ops && ops->pick && n > 1) {
        for (int j = 0; j < n; j++) {
            const struct slot *s = &d->slots[d->cand_slot[j]];
            const struct mw_req *r = s->r;
            struct mw_dram_cand *c = &d->cands[j];
            uint32_t merge = d->mib ? (r->mib_merge ? r->mib_merge : 1) : r->merge ? r->merge : 1;
            c->arrival = s->enq;
            c->id = (uint32_t)s->seq;
            c->row = s->row;
            c->bank = s->bank;
            c->is_write = s->is_write;
            c->row_hit = s->row == k->open_row;
            c->merge = merge;
            c->age = d->mib && !s->is_write ? r->mib_age + (uint64_t)merge * (now - r->mib_t)
                                            : (uint64_t)((double)r->age_sum * d->age_scale) + (uint64_t)merge * (now - s->enq);
            c->line = r->addr;
            c->sm = (r->flags & MW_RQ_WRITEBACK) ? -1 : (int)r->sm;
            c->created = r->t_create;
        }
        struct mw_dram_sched_ctx ctx = {.channel = d->channel, .bank = b, .open_row = k->open_row,
                                        .hits_in_row = k->cols, .now = now};
        idx = ops->pick(d->sched, &ctx, d->cands, n);
        if (idx < 0 || idx >= n) {
            if (!d->err[0])
                snprintf(d->err, sizeof d->err,
                         "dram scheduler '%s' returned candidate %d of %d (channel %d, bank %d, cycle %llu)",
                         pi->pol->name, idx, n, d->channel, b, (unsigned long long)now);
            idx = 0;
        }
    }
    k->choice = d->cand_slot[idx];
}

/* Cache the cycle bank b's pending command may issue and whose request it serves. */
static void bank_refresh(struct mw_dram *d, int b)
{
    const struct bank *k = &d->banks[b];
    int i = k->cur != NIL ? k->cur : k->choice;
    if (i == NIL) {
        d->bready[b] = MW_NEVER;
        d->active &= ~(1ull << b);
        return;
    }
    d->active |= 1ull << b;
    const struct slot *s = &d->slots[i];
    int cmd = next_cmd(k, s);
    d->bcmd[b] = (uint8_t)cmd;
    d->bready[b] = mw_max_u64(cmd_ready(d, b, cmd), s->sched_from);
    d->bseq[b] = s->seq;
}

/* Apply the timing effects of `cmd` issued on bank b at `now` to every bank. */
static void apply_timing(struct mw_dram *d, int b, int cmd, uint64_t now)
{
    struct bank *k = &d->banks[b];
    int g = k->group;
    const struct eff_list *ef = &d->eff[cmd][MW_DSCOPE_BANK];
    for (int x = 0; x < ef->n; x++) {
        uint64_t t = now + ef->dl[x];
        if (t > k->next[ef->to[x]]) k->next[ef->to[x]] = t;
    }
    ef = &d->eff[cmd][MW_DSCOPE_GROUP];
    for (int x = 0; x < ef->n; x++) top2_put(&d->grp[g * MW_DCMD_COUNT + ef->to[x]], now + ef->dl[x], b);
    ef = &d->eff[cmd][MW_DSCOPE_OTHER];
    for (int x = 0; x < ef->n; x++) top2_put(&d->chan[ef->to[x]], now + ef->dl[x], g);
}

static void issue_column(struct mw_dram *d, int b, int i, int cmd, uint64_t now);

static void issue(struct mw_dram *d, int b, uint64_t now)
{
    struct bank *k = &d->banks[b];
    int i = k->cur != NIL ? k->cur : k->choice;
    struct slot *s = &d->slots[i];
    int cmd = next_cmd(k, s);
    if (k->cur == NIL) {
        k->cur = i;
        k->choice = NIL;
    }
    apply_timing(d, b, cmd, now);
    if (d->log_fn) d->log_fn(d->log_ctx, now, cmd, b, s->row, s->col, s->r);
    switch (cmd) {
    case MW_DCMD_PRE:
        s->conflict = 1;
        k->open_row = MW_ROW_NONE;
        k->cols = 0;
        d->st.precharges++;
        break;
    case MW_DCMD_ACT:
        k->open_row = s->row;
        k->cols = 0;
        d->st.activates++;
        break;
    default:
        issue_column(d, b, i, cmd, now);
        break;
    }
    /* this bank's state and timing moved; on the others, only the commands this one constrains */
    bank_refresh(d, b);
    unsigned aff = d->aff_other[cmd];
    for (uint64_t m = d->active & ~(1ull << b); m; m &= m - 1) {
        int j = __builtin_ctzll(m);
        if (aff >> d->bcmd[j] & 1) bank_refresh(d, j);
    }
}

static void issue_column(struct mw_dram *d, int b, int i, int cmd, uint64_t now)
{
    struct bank *k = &d->banks[b];
    struct slot *s = &d->slots[i];
    /* column command */
    if (k->cols) d->st.row_hits++;
    else if (s->conflict) d->st.row_conflicts++;
    else d->st.row_misses++;
    k->cols++;
    uint64_t lat = (uint64_t)(cmd == MW_DCMD_RD ? d->tCL : d->tCWL);
    d->bus_free = now + lat + (uint64_t)d->burst;
    d->st.data_bus_busy += (uint64_t)d->burst;
    d->dirty |= 1ull << b; /* the open row was used: hits_in_row changed */
    if (--s->atoms) return;
    list_remove(d, i);
    k->cur = NIL;
    heap_push(d, (struct inflight){.done = now + lat + (uint64_t)d->burst, .seq = s->seq, .r = s->r});
    free_slot(d, i);
}

void mw_dram_cycle(struct mw_dram *d, uint64_t now)
{
    /* 1. data returned */
    while (d->heap_n && d->heap[0].done <= now) {
        struct inflight f = heap_pop(d);
        struct mw_req *r = f.r;
        r->t_ready = f.done;
        r->mib_state = MW_MIB_DONE;
        if (r->kind == MW_REQ_READ) {
            uint64_t lat = f.done - r->t_dram_enq;
            d->st.reads_done++;
            d->st.read_latency_sum += lat;
            if (lat > d->st.read_latency_max) d->st.read_latency_max = lat;
        }
        mw_fifo_push(&d->done, r);
        d->ndone++;
    }
    /* 2. decoded requests join their banks */
    while (d->st_n && d->slots[d->staged[d->st_head]].sched_from <= now) {
        list_append(d, d->staged[d->st_head]);
        d->st_head = (d->st_head + 1) % d->nslots;
        d->st_n--;
    }
    /* 3. read/write mode (split queues); a change re-opens every bank's choice */
    bool sr, sw;
    d->draining = mode_of(d, &sr, &sw);
    if (sr != d->serve_reads || sw != d->serve_writes) {
        d->serve_reads = sr, d->serve_writes = sw;
        d->dirty = d->nbanks == 64 ? ~0ull : (1ull << d->nbanks) - 1;
    }
    /* 4. banks without a committed request (re)choose */
    uint64_t ask = d->dirty;
    for (uint64_t m = d->repick; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        if (d->banks[b].repick_at <= now) ask |= 1ull << b;
    }
    for (; ask; ask &= ask - 1) {
        int b = __builtin_ctzll(ask);
        struct bank *k = &d->banks[b];
        if (k->cur != NIL) continue; /* asked again when its request is done */
        if (k->nq) {
            pick(d, b, now);
        } else {
            d->dirty &= ~(1ull << b);
            d->repick &= ~(1ull << b);
            k->choice = NIL;
            k->repick_at = MW_NEVER;
        }
        bank_refresh(d, b);
    }
    /* 5. the oldest ready command issues */
    int best = NIL;
    uint64_t best_seq = UINT64_MAX;
    if (d->rr) { /* Li §2.3: the first ready bank from the pointer; the pointer moves past the one that issued */
        for (int j = 0; j < d->nbanks && best == NIL; j++) {
            int b = (d->rr_next + j) % d->nbanks;
            if ((d->active >> b & 1) && d->bready[b] <= now) best = b;
        }
        if (best != NIL) d->rr_next = (best + 1) % d->nbanks;
    } else {
        for (uint64_t m = d->active; m; m &= m - 1) {
            int b = __builtin_ctzll(m);
            if (d->bready[b] <= now && d->bseq[b] < best_seq) best = b, best_seq = d->bseq[b];
        }
    }
    if (best != NIL) issue(d, best, now);
    /* 6. the input FIFO's head moves into the scheduler queue */
    if (d->in_n) {
        struct mw_req *r = d->inq[d->in_head];
        if (r->t_dram_enq <= now && sched_room(d, r->kind)) {
            d->in_head = (d->in_head + 1) % d->in_cap;
            d->in_n--;
            stage(d, r, now + 1);
        }
    }
    if (now + 1 > d->st.cycles) d->st.cycles = now + 1;
}

uint64_t mw_dram_next_event(const struct mw_dram *d, uint64_t now)
{
    uint64_t t = MW_NEVER;
    if (d->heap_n) t = mw_min_u64(t, d->heap[0].done);
    if (d->st_n) t = mw_min_u64(t, d->slots[d->staged[d->st_head]].sched_from);
    if (d->split) {
        bool sr, sw, drain = mode_of(d, &sr, &sw);
        if (sr != d->serve_reads || sw != d->serve_writes || drain != d->draining) return now;
    }
    for (uint64_t m = d->dirty; m; m &= m - 1) {
        const struct bank *k = &d->banks[__builtin_ctzll(m)];
        if (k->cur == NIL && k->nq) return now;
    }
    for (uint64_t m = d->repick; m; m &= m - 1) {
        const struct bank *k = &d->banks[__builtin_ctzll(m)];
        if (k->cur == NIL) t = mw_min_u64(t, k->repick_at);
    }
    for (uint64_t m = d->active; m; m &= m - 1) t = mw_min_u64(t, d->bready[__builtin_ctzll(m)]);
    if (d->in_n && sched_room(d, d->inq[d->in_head]->kind)) t = mw_min_u64(t, d->inq[d->in_head]->t_dram_enq);
    return t == MW_NEVER ? MW_NEVER : mw_max_u64(t, now);
}

/* ---- Li's merge information (l2.merge_info = mib) -------------------------------------------------------- */

void mw_dram_mib_update(struct mw_dram *d, struct mw_req *r, uint32_t merge, uint64_t age, uint64_t now)
{
    d->st.mib_dummies++;
    switch (r->mib_state) {
    case MW_MIB_QUEUED: { /* the DMIB entry ages by its merge length per cycle; merge is overwritten, age added */
        r->mib_age += (uint64_t)r->mib_merge * (now - r->mib_t) + age;
        r->mib_merge = merge;
        r->mib_t = now;
        uint32_t bank;
        mw_dram_decode(d, r->dram_addr, &bank, NULL, NULL);
        d->dirty |= 1ull << bank; /* "update the score ... and make scheduling decisions based on the new score" */
        break;
    }
    case MW_MIB_NONE: /* ahead of its request: the entry is filled in before the request arrives */
        r->mib_merge = merge;
        r->mib_age = age;
        r->mib_t = now;
        r->mib_state = MW_MIB_EARLY;
        break;
    case MW_MIB_EARLY:
        r->mib_age += (uint64_t)(r->mib_merge - 1) * (now - r->mib_t) + age;
        r->mib_merge = merge;
        r->mib_t = now;
        break;
    default: /* served already: the information is dropped */
        d->st.mib_dropped++;
        break;
    }
}

double mw_dram_age_scale(const struct mw_dram *d) { return d->age_scale; }
