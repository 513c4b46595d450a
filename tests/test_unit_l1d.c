/* Unit tests of the L1 data cache (engine/l1d.h) driven through its own access, fill and drain functions with
 * hand-built coalesced requests, on a GTX480 machine the engine built (16 KB, 128 B lines, 4 ways = 32 sets,
 * linear index, 32 MSHRs of up to 8 requests, miss queue 8, hit latency 20, LRU, allocate on miss): misses,
 * MSHR merging, fills and their waiters, hits, the three reservation stalls, stores and bypasses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "l1d.h"
#include "unitsim.h"

/* One coalesced request and the per-request state the LDST unit keeps for it. */
struct acc {
    struct mw_coal_req q;
    uint8_t rflags, verdict;
    struct mw_l1d_access a;
};

/* Build an offer of `sectors` of `line` to SM 0's L1D for warp `warp` (op: a global load unless said otherwise),
 * load tracker `tracker`, verdict not asked yet. The set is line / 128 % 32 (linear, 32 sets), checked against
 * the L1D's own index. */
static void prep(struct mw_sim *s, struct acc *x, int op, uint64_t line, uint8_t sectors, int warp, uint32_t tracker)
{
    memset(x, 0, sizeof *x);
    x->q = (struct mw_coal_req){.line = line, .sectors = sectors, .size = (uint8_t)(32 * mw_popcount32(sectors)),
                                .set = (uint16_t)(line / 128 % 32), .lanes = 0xffffffffu};
    assert_int_equal(x->q.set, mw_l1d_set(&s->l1d[0], line));
    x->verdict = 0xff;
    x->a = (struct mw_l1d_access){.warp = warp, .op = op, .pc = 0x100 + 16u * (uint64_t)warp, .reqs = &x->q,
                                  .index = 0, .n = 1, .tracker = tracker, .inst = tracker, .rflags = &x->rflags,
                                  .verdict = &x->verdict};
}
/* Offer it: the stall cause. */
static int go(struct mw_sim *s, struct acc *x) { return mw_l1d_access(s, &s->l1d[0], &x->a); }
static int offer(struct mw_sim *s, struct acc *x, int op, uint64_t line, uint8_t sectors, int warp, uint32_t tracker)
{
    prep(s, x, op, line, sectors, warp, tracker);
    return go(s, x);
}
static int load(struct mw_sim *s, struct acc *x, uint64_t line, uint32_t tracker)
{
    return offer(s, x, MW_OP_LD_GLOBAL, line, 0xf, 0, tracker);
}

static const struct mw_line *line_of(struct mw_l1d *l1, uint64_t line)
{
    int set = mw_l1d_set(l1, line), way = mw_tags_find(&l1->tags, set, line);
    return way < 0 ? NULL : mw_tags_line(&l1->tags, set, way);
}

/* Pop the miss queue's head and give it back as its own fill; returns the waiters released. */
static int fill_head(struct mw_sim *s, uint32_t *waiters, uint64_t *t_create, bool *freed)
{
    struct mw_l1d *l1 = &s->l1d[0];
    struct mw_req *r = mw_fifo_pop(&l1->missq);
    assert_non_null(r);
    int set;
    return mw_l1d_fill(s, l1, r, waiters, t_create, &set, freed);
}

/* A miss reserves a way and an MSHR entry and queues one read; a second miss to the line merges (no new read);
 * the fill releases both waiters and frees the entry; the next access hits, data ready hit_latency later. */
static void test_miss_merge_fill_hit(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t L = 0x100380; /* line number 0x2007: set 7 */

    us_set_core_now(s, 100);
    assert_int_equal(load(s, &x, L, 11), MW_STALL_NONE);
    assert_true(x.a.miss);
    assert_int_equal(x.a.data_at, MW_NEVER);
    assert_int_equal(l1->mshr_used, 1);
    assert_int_equal(l1->missq.n, 1);
    const struct mw_req *r = l1->missq.head;
    assert_int_equal(r->addr, L);
    assert_int_equal(r->sectors, 0xf); /* granularity "line": the whole line */
    assert_int_equal(r->kind, MW_REQ_READ);
    assert_int_equal(r->flags, 0);
    assert_int_equal(r->t_create, 100);
    /* 0x100380 / 256 = chunk 4099; 4099 % 6 = 1 (partition 1), 4099 / 6 = 683, odd: the second slice -> 3 */
    assert_int_equal(r->slice, 3);
    assert_int_equal(r->partition, 1);
    const struct mw_line *l = line_of(l1, L);
    assert_non_null(l); /* allocate on miss: the way is taken now, its sectors pending */
    assert_int_equal(l->pending, 0xf);
    assert_int_equal(l->valid, 0);
    assert_int_equal(l1->st.misses, 1);
    assert_int_equal(l1->st.accesses, 1);

    us_set_core_now(s, 101);
    assert_int_equal(offer(s, &x, MW_OP_LD_GLOBAL, L, 0xf, 1, 12), MW_STALL_NONE);
    assert_true(x.a.miss);
    assert_int_equal(l1->missq.n, 1); /* merged: no second read */
    assert_int_equal(l1->mshr_used, 1);
    assert_int_equal(l1->st.mshr_merges, 1);
    assert_int_equal(l1->st.hit_reserved, 1);
    assert_int_equal(l1->st.misses, 2);

    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    bool freed;
    int set;
    struct mw_req *fill = mw_fifo_pop(&l1->missq);
    assert_int_equal(mw_l1d_fill(s, l1, fill, waiters, t_create, &set, &freed), 2);
    assert_true(freed);
    assert_int_equal(set, 7);
    assert_int_equal(waiters[0], 11);
    assert_int_equal(waiters[1], 12);
    assert_int_equal(t_create[0], 100);
    assert_int_equal(t_create[1], 101);
    assert_int_equal(l1->mshr_used, 0);
    assert_int_equal(l1->st.fills, 1);
    assert_int_equal(l->valid, 0xf);
    assert_int_equal(l->pending, 0);

    us_set_core_now(s, 200);
    assert_int_equal(load(s, &x, L, 13), MW_STALL_NONE);
    assert_false(x.a.miss);
    assert_int_equal(x.a.data_at, 200 + 20); /* now + l1d.hit_latency */
    assert_int_equal(l1->st.hits, 1);
    assert_int_equal(l1->missq.n, 0);
    assert_int_equal(l1->mshr_used, 0);
    mw_sim_destroy(s);
}

/* Five lines 4 KB apart share a set (line numbers 32 apart): four misses reserve the four ways, all pending; the
 * fifth finds no way to evict -> MW_STALL_LINE_ALLOC, changing nothing. Once a fill makes one way evictable,
 * the fifth takes it (LRU: the only candidate). */
static void test_line_alloc_stall(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t L = 0x100380;
    for (int k = 0; k < 4; k++) assert_int_equal(load(s, &x, L + 4096u * (uint64_t)k, (uint32_t)k), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 4);
    assert_int_equal(l1->mshr_used, 4);
    assert_int_equal(load(s, &x, L + 4 * 4096, 4), MW_STALL_LINE_ALLOC);
    assert_false(x.a.miss);
    assert_int_equal(l1->missq.n, 4);
    assert_int_equal(l1->mshr_used, 4);
    assert_int_equal(l1->st.accesses, 4);
    assert_int_equal(l1->st.line_alloc_fail, 0); /* counted by the caller, which knows how often it retried */
    mw_l1d_count_fail(l1, MW_STALL_LINE_ALLOC, 3);
    assert_int_equal(l1->st.line_alloc_fail, 3);

    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    bool freed;
    assert_int_equal(fill_head(s, waiters, t_create, &freed), 1); /* line L is valid now, no longer pending */
    assert_int_equal(waiters[0], 0);
    assert_int_equal(load(s, &x, L + 4 * 4096, 4), MW_STALL_NONE);
    assert_null(line_of(l1, L));
    assert_non_null(line_of(l1, L + 4 * 4096));
    assert_int_equal(l1->st.evictions, 1);
    mw_sim_destroy(s);
}

/* With 2 MSHR entries, a third line in flight (in a set with free ways) stalls on the MSHR; so does a ninth
 * request merging into one entry (mshr_max_merge 8). */
static void test_mshr_stalls(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine((const char *[]){"l1d.mshr_entries=2"}, 1);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    assert_int_equal(l1->mshr_entries, 2);
    assert_int_equal(load(s, &x, 0x200000, 1), MW_STALL_NONE); /* set 0 */
    assert_int_equal(load(s, &x, 0x200080, 2), MW_STALL_NONE); /* set 1 */
    assert_int_equal(load(s, &x, 0x200100, 3), MW_STALL_MSHR); /* set 2: a free way, but no entry */
    assert_int_equal(l1->missq.n, 2);
    assert_null(line_of(l1, 0x200100)); /* a failed reservation takes no way */
    mw_sim_destroy(s);

    s = us_machine(NULL, 0);
    l1 = &s->l1d[0];
    for (uint32_t k = 0; k < 8; k++) assert_int_equal(load(s, &x, 0x200000, k), MW_STALL_NONE);
    assert_int_equal(l1->st.mshr_merges, 7);
    assert_int_equal(load(s, &x, 0x200000, 8), MW_STALL_MSHR);
    assert_int_equal(l1->st.mshr_merges, 7);
    assert_int_equal(l1->missq.n, 1);
    mw_sim_destroy(s);
}

/* A read miss needs two free slots of the miss queue (8), a store one (GPGPU-Sim's rd_miss_base keeps one for a
 * possible second request): seven misses to seven sets leave one slot, which an eighth miss cannot take but a
 * store can; then a bypassed load stalls too, but a merge that needs no new read does not. A drain sends the head
 * into the request network (one header flit to the line's slice); after a second one the eighth miss goes
 * through. */
static void test_miss_queue_stall(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    for (uint32_t k = 0; k < 7; k++) assert_int_equal(load(s, &x, 0x200000 + 128u * k, k), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 7);
    assert_int_equal(load(s, &x, 0x200000 + 128 * 8, 8), MW_STALL_MISS_QUEUE);
    assert_int_equal(l1->mshr_used, 7);
    assert_null(line_of(l1, 0x200000 + 128 * 8));
    assert_int_equal(offer(s, &x, MW_OP_ST_GLOBAL, 0x300000, 0x1, 0, 9), MW_STALL_NONE);
    assert_int_equal(l1->st.stores, 1);
    assert_int_equal(l1->missq.n, 8);
    assert_int_equal(offer(s, &x, MW_OP_ST_GLOBAL, 0x300000, 0x1, 0, 9), MW_STALL_MISS_QUEUE);
    prep(s, &x, MW_OP_LD_GLOBAL, 0x300000, 0xf, 0, 10);
    x.verdict = MW_BYPASS;
    assert_int_equal(go(s, &x), MW_STALL_MISS_QUEUE);
    assert_int_equal(l1->st.bypasses, 0);
    /* a miss to a line in flight merges without a new read: no slot needed */
    assert_int_equal(load(s, &x, 0x200000, 11), MW_STALL_NONE);
    assert_int_equal(l1->st.mshr_merges, 1);
    assert_int_equal(l1->missq.n, 8);

    assert_int_equal(s->req_net->inq[0].n, 0);
    assert_true(mw_l1d_drain(s, l1));
    assert_int_equal(l1->missq.n, 7);
    assert_int_equal(s->req_net->inq[0].n, 1);
    const struct mw_req *r = s->req_net->inq[0].head;
    assert_int_equal(r->addr, 0x200000);
    /* 0x200000 / 256 = chunk 8192; 8192 % 6 = 2 (partition 2), 8192 / 6 = 1365, odd: the second slice -> 5 */
    assert_int_equal(r->port, 5);
    assert_int_equal(r->flits, 1); /* a read is its 8 B header: ceil(8 / 32) = 1 flit */
    assert_int_equal(load(s, &x, 0x200000 + 128 * 8, 8), MW_STALL_MISS_QUEUE); /* 7 queued: one slot free */
    assert_true(mw_l1d_drain(s, l1));
    assert_int_equal(l1->missq.n, 6);
    assert_int_equal(load(s, &x, 0x200000 + 128 * 8, 8), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 7);
    mw_sim_destroy(s);
}

/* A store writes through: one write request of its sectors and size. On a present line it invalidates the line
 * (a later load misses); on an absent line or one waiting for its fill it invalidates nothing. */
static void test_store(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    bool freed;
    const uint64_t L = 0x100380, P = 0x100400;
    assert_int_equal(load(s, &x, L, 1), MW_STALL_NONE);
    assert_int_equal(fill_head(s, waiters, t_create, &freed), 1);
    assert_non_null(line_of(l1, L));

    assert_int_equal(offer(s, &x, MW_OP_ST_GLOBAL, L, 0x2, 0, 2), MW_STALL_NONE);
    assert_int_equal(l1->st.stores, 1);
    assert_int_equal(l1->st.store_invalidates, 1);
    assert_null(line_of(l1, L));
    assert_int_equal(l1->missq.n, 1);
    const struct mw_req *r = l1->missq.head;
    assert_int_equal(r->kind, MW_REQ_WRITE);
    assert_int_equal(r->addr, L);
    assert_int_equal(r->sectors, 0x2);
    assert_int_equal(r->size, 32);
    assert_int_equal(r->flags, 0);
    assert_int_equal(l1->mshr_used, 0);
    assert_true(mw_l1d_drain(s, l1));
    assert_int_equal(s->req_net->inq[0].head->flits, 2); /* header + data: ceil((8 + 32) / 32) = 2 flits */

    /* the line is gone: a store to it now invalidates nothing, and a load misses */
    assert_int_equal(offer(s, &x, MW_OP_ST_GLOBAL, L, 0x2, 0, 3), MW_STALL_NONE);
    assert_int_equal(l1->st.store_invalidates, 1);
    assert_int_equal(load(s, &x, L, 4), MW_STALL_NONE);
    assert_true(x.a.miss);

    /* a line waiting for its fill stays */
    assert_int_equal(load(s, &x, P, 5), MW_STALL_NONE);
    assert_int_equal(offer(s, &x, MW_OP_ST_GLOBAL, P, 0x1, 0, 6), MW_STALL_NONE);
    assert_int_equal(l1->st.stores, 3);
    assert_int_equal(l1->st.store_invalidates, 1);
    assert_non_null(line_of(l1, P));
    assert_int_equal(line_of(l1, P)->pending, 0xf);
    mw_sim_destroy(s);
}

/* Bypassed loads queue one read flagged MW_RQ_BYPASS_L1 carrying the load's tracker, with no way and no MSHR:
 * a bypass verdict, the instruction's .CG flag, an atomic (flagged MW_RQ_ATOMIC too, not counted as a bypass),
 * the policy "all"; a bypass-probe verdict serves a hit from L1D and bypasses a miss. */
static void test_bypass(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t L = 0x100380;

    prep(s, &x, MW_OP_LD_GLOBAL, L, 0xf, 2, 21);
    x.verdict = MW_BYPASS;
    assert_int_equal(go(s, &x), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 1);
    struct mw_req *r = l1->missq.tail;
    assert_int_equal(r->flags, MW_RQ_BYPASS_L1);
    assert_int_equal(r->kind, MW_REQ_READ);
    assert_int_equal(r->inst, 21);
    assert_int_equal(r->sectors, 0xf);
    assert_int_equal(r->warp, 2);
    assert_int_equal(l1->mshr_used, 0);
    assert_null(line_of(l1, L));
    assert_int_equal(l1->st.bypasses, 1);
    assert_int_equal(l1->st.accesses, 0);

    prep(s, &x, MW_OP_LD_GLOBAL, L, 0xf, 0, 22);
    x.a.inst_flags = MW_IF_BYPASS_L1;
    assert_int_equal(go(s, &x), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 2);
    assert_int_equal(l1->missq.tail->flags, MW_RQ_BYPASS_L1);
    assert_int_equal(x.verdict, 0xff); /* the policy was not asked */
    assert_false(x.a.hooked);

    assert_int_equal(offer(s, &x, MW_OP_ATOMIC, L, 0x1, 0, 23), MW_STALL_NONE);
    assert_int_equal(l1->missq.tail->flags, MW_RQ_BYPASS_L1 | MW_RQ_ATOMIC);
    assert_int_equal(l1->missq.tail->inst, 23);
    assert_int_equal(l1->st.bypasses, 2);
    assert_int_equal(l1->mshr_used, 0);

    /* bypass-probe: after L is filled, a hit is served by L1D; a miss goes past it */
    while (l1->missq.n) mw_req_free(&s->pool, mw_fifo_pop(&l1->missq));
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    bool freed;
    assert_int_equal(load(s, &x, L, 24), MW_STALL_NONE);
    assert_int_equal(fill_head(s, waiters, t_create, &freed), 1);
    us_set_core_now(s, 500);
    prep(s, &x, MW_OP_LD_GLOBAL, L, 0xf, 0, 25);
    x.verdict = MW_BYPASS_PROBE;
    assert_int_equal(go(s, &x), MW_STALL_NONE);
    assert_int_equal(x.a.data_at, 520);
    assert_int_equal(l1->missq.n, 0);
    prep(s, &x, MW_OP_LD_GLOBAL, L + 4096, 0xf, 0, 26);
    x.verdict = MW_BYPASS_PROBE;
    assert_int_equal(go(s, &x), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 1);
    assert_int_equal(l1->missq.head->flags, MW_RQ_BYPASS_L1);
    assert_int_equal(l1->mshr_used, 0);
    mw_sim_destroy(s);

    /* the bypass policy "all": asked once, its verdict kept in the request's state */
    s = us_machine((const char *[]){"policies.l1d_bypass=all"}, 1);
    l1 = &s->l1d[0];
    assert_int_equal(load(s, &x, L, 27), MW_STALL_NONE);
    assert_true(x.a.hooked);
    assert_int_equal(x.verdict, MW_BYPASS);
    assert_int_equal(l1->missq.head->flags, MW_RQ_BYPASS_L1);
    assert_int_equal(l1->mshr_used, 0);
    mw_sim_destroy(s);
}

/* Sector granularity: two loads of different sectors of one line share an MSHR entry but need two reads; the
 * first fill validates its sector and releases nobody (a read of the entry is still out), a load of that sector
 * then hits; the second fill releases both waiters and frees the entry. */
static void test_sector_fills(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine((const char *[]){"policies.granularity=sector"}, 1);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t L = 0x100380;
    us_set_core_now(s, 50);
    assert_int_equal(offer(s, &x, MW_OP_LD_GLOBAL, L, 0x1, 0, 1), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 1);
    assert_int_equal(l1->missq.head->sectors, 0x1);
    assert_int_equal(l1->missq.head->size, 32);
    us_set_core_now(s, 51);
    assert_int_equal(offer(s, &x, MW_OP_LD_GLOBAL, L, 0x2, 1, 2), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 2);
    assert_int_equal(l1->missq.tail->sectors, 0x2);
    assert_int_equal(l1->mshr_used, 1);
    assert_int_equal(l1->st.mshr_merges, 1);
    assert_int_equal(l1->st.sector_misses, 1);

    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    bool freed = true;
    assert_int_equal(fill_head(s, waiters, t_create, &freed), 0);
    assert_false(freed);
    assert_int_equal(l1->mshr_used, 1);
    assert_int_equal(line_of(l1, L)->valid, 0x1);
    assert_int_equal(line_of(l1, L)->pending, 0x2);

    us_set_core_now(s, 60);
    assert_int_equal(offer(s, &x, MW_OP_LD_GLOBAL, L, 0x1, 2, 3), MW_STALL_NONE);
    assert_false(x.a.miss);
    assert_int_equal(x.a.data_at, 80);

    assert_int_equal(fill_head(s, waiters, t_create, &freed), 2);
    assert_true(freed);
    assert_int_equal(waiters[0], 1);
    assert_int_equal(waiters[1], 2);
    assert_int_equal(t_create[0], 50);
    assert_int_equal(t_create[1], 51);
    assert_int_equal(l1->mshr_used, 0);
    assert_int_equal(line_of(l1, L)->valid, 0x3);
    assert_int_equal(line_of(l1, L)->pending, 0);
    mw_sim_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_merge_fill_hit),
        cmocka_unit_test(test_line_alloc_stall),
        cmocka_unit_test(test_mshr_stalls),
        cmocka_unit_test(test_miss_queue_stall),
        cmocka_unit_test(test_store),
        cmocka_unit_test(test_bypass),
        cmocka_unit_test(test_sector_fills),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
