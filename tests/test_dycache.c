/* DyCache (spec/003_dycache.md section 7): the chunked L1D organisation (engine/l1d_chunk.c) driven through the
 * L1D's own access / fill functions with hand-built requests, the granularity selector of the dycache policy fed
 * hand-built windows of events, and two whole runs (a streaming kernel and a 4-byte gather). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "l1d.h"
#include "l1d_chunk.h"
#include "runcmd.h"
#include "unitsim.h"

struct acc {
    struct mw_coal_req q;
    uint8_t rflags, verdict;
    struct mw_l1d_access a;
};

/* A global load of `sectors` of 128 B block `line` from SM 0, warp 0. */
static int load(struct mw_sim *s, struct acc *x, uint64_t line, uint8_t sectors, uint32_t tracker)
{
    memset(x, 0, sizeof *x);
    x->q = (struct mw_coal_req){.line = line, .sectors = sectors, .size = (uint8_t)(32 * mw_popcount32(sectors)),
                                .set = (uint16_t)mw_l1d_set(&s->l1d[0], line), .lanes = 0xffffffffu};
    x->verdict = 0xff;
    x->a = (struct mw_l1d_access){.warp = 0, .op = MW_OP_LD_GLOBAL, .pc = 0x100, .reqs = &x->q, .index = 0, .n = 1,
                                  .tracker = tracker, .inst = tracker, .rflags = &x->rflags, .verdict = &x->verdict};
    return mw_l1d_access(s, &s->l1d[0], &x->a);
}
/* Give every queued read back as its fill. Returns how many there were. */
static int fill_all(struct mw_sim *s)
{
    struct mw_l1d *l1 = &s->l1d[0];
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t tc[MW_MSHR_WAITERS_MAX];
    int n = 0, set;
    bool freed;
    struct mw_req *r;
    while ((r = mw_fifo_pop(&l1->missq))) {
        mw_l1d_fill(s, l1, r, waiters, tc, &set, &freed);
        n++;
    }
    return n;
}
static int resident_chunks(const struct mw_l1d *l1)
{
    int n = 0;
    const struct mw_l1d_chunk *ck = mw_l1d_chunk_of(l1);
    for (int i = 0; i < ck->sets * ck->assoc; i++) n += mw_popcount32(ck->lines[i].valid);
    return n;
}

static const char *const chunked32k[] = {"l1d.organisation=chunked", "l1d.size_bytes=32768", "l1d.index=linear"};

/* 7.1: 0x04000100 in a 32 KB L1D of 64 sets: common 0x01 (bits 31:26), chunk 0x0000 (bits 25:13 = 0, chunk
 * index (0x100 >> 5) & 3 = 0), set (0x100 >> 7) % 64 = 2. At G = 64 a 128 B request's mask is (0,-,+2,-):
 * expected tags (0x0000,-,0x0002,-); it hits a line holding chunks (0,1,2,3), all valid. */
static void test_decode_and_mask(void **st)
{
    (void)st;
    uint64_t common, chunk, exp[4];
    int set;
    mw_ck_decode(0x04000100u, 64, 26, &common, &chunk, &set);
    assert_int_equal(common, 0x01);
    assert_int_equal(chunk, 0x0000);
    assert_int_equal(set, 2);
    mw_ck_expected(64, 128, chunk, exp);
    assert_int_equal(exp[0], 0x0000);
    assert_true(exp[1] == MW_CK_NONE);
    assert_int_equal(exp[2], 0x0002);
    assert_true(exp[3] == MW_CK_NONE);
    /* the other masks of Fig. 5: G = 32, S = 64 -> (c, c+1, -, -); G = 64, S = 32 on chunk 3 -> the 64 B-aligned 2 */
    mw_ck_expected(32, 64, 5, exp);
    assert_true(exp[0] == 5 && exp[1] == 6 && exp[2] == MW_CK_NONE && exp[3] == MW_CK_NONE);
    mw_ck_expected(64, 32, 3, exp);
    assert_true(exp[0] == 2 && exp[1] == MW_CK_NONE);
    assert_int_equal(mw_ck_cover(0x4, 64), 0xC);
    assert_int_equal(mw_ck_cover(0x4, 32), 0x4);
    assert_int_equal(mw_ck_cover(0x4, 128), 0xF);

    struct mw_sim *s = us_machine(chunked32k, 3);
    struct mw_l1d *l1 = &s->l1d[0];
    assert_non_null(mw_l1d_chunk_of(l1));
    assert_int_equal(mw_l1d_chunk_of(l1)->sets, 64);
    struct acc x;
    us_set_core_now(s, 10);
    assert_int_equal(load(s, &x, 0x04000100u, 0xF, 1), MW_STALL_NONE); /* G = 128: a whole-line miss */
    assert_true(x.a.miss);
    assert_int_equal(x.q.set, 2);
    assert_int_equal(fill_all(s), 1);
    /* the line holds chunk tags (0,1,2,3) under common tag 1 */
    const struct mw_ck_line *l = mw_ck_line(mw_l1d_chunk_of(l1), 2, 0);
    assert_int_equal(l->common, 1);
    assert_int_equal(l->valid, 0xF);
    for (int j = 0; j < 4; j++) {
        mw_ck_decode(l->addr[j], 64, 26, &common, &chunk, &set);
        assert_int_equal(chunk, (uint64_t)j);
    }
    assert_int_equal(mw_l1d_set_granularity(s, 0, 64), 0);
    us_set_core_now(s, 20);
    assert_int_equal(load(s, &x, 0x04000100u, 0xF, 2), MW_STALL_NONE);
    assert_false(x.a.miss);
    assert_int_equal(x.a.data_at, 20 + 20);
    mw_sim_destroy(s);
}

/* 7.2: at G = 128, 8 blocks of sets 0-7 are resident (one line each);
 * 128 -> 32 keeps all 32 chunks hittable by 32 B requests (no flush, no miss); 32 -> 128 flushes: no chunk stays,
 * every line is free, and nothing is written back (a write-through L1D holds no dirty chunk: the miss queue
 * stays empty). */
static void test_switch_keeps_then_flushes(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(chunked32k, 3);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t B = 0x04000000u;
    for (int i = 0; i < 8; i++) {
        us_set_core_now(s, 10 + (uint64_t)i);
        assert_int_equal(load(s, &x, B + 128u * (uint64_t)i, 0x1, (uint32_t)i), MW_STALL_NONE);
        assert_true(x.a.miss);
        assert_int_equal(fill_all(s), 1); /* (the miss queue holds 8, a read needs two free slots) */
    }
    assert_int_equal(resident_chunks(l1), 32); /* 8 blocks x 4 chunks: G = 128 fetched whole lines */
    assert_int_equal(mw_l1d_set_granularity(s, 0, 32), 0);
    assert_int_equal(l1->st.gran_flushes, 0);
    uint64_t misses = l1->st.misses;
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++) {
            us_set_core_now(s, 100 + (uint64_t)(4 * i + c));
            assert_int_equal(load(s, &x, B + 128u * (uint64_t)i, (uint8_t)(1u << c), 100), MW_STALL_NONE);
            assert_false(x.a.miss);
        }
    assert_int_equal(l1->st.misses, misses);
    assert_int_equal(mw_l1d_set_granularity(s, 0, 128), 0);
    assert_int_equal(l1->st.gran_flushes, 1);
    assert_int_equal(l1->st.gran_switches, 2);
    assert_int_equal(resident_chunks(l1), 0);
    const struct mw_l1d_chunk *ck = mw_l1d_chunk_of(l1);
    for (int i = 0; i < ck->sets * ck->assoc; i++) assert_int_equal(ck->lines[i].used, 0);
    assert_int_equal(l1->missq.n, 0);
    assert_int_equal(l1->st.chunk_evictions, 32);
    /* and the next access misses */
    assert_int_equal(load(s, &x, B, 0x1, 200), MW_STALL_NONE);
    assert_true(x.a.miss);
    assert_int_equal(mw_l1d_set_granularity(s, 0, 48), -1);
    mw_sim_destroy(s);
}

/* 7.3: G = 32, a 32 B load of chunk 0 fetches 32 B only (sectors 0x1) into the first slot of a line; a 64 B load
 * of chunks 0-1 finds chunk 0 only: a partial hit. Chunk 0 is invalidated and one 64 B fetch (sectors 0x3)
 * is made; after its fill the 64 B load hits. */
static void test_partial_hit(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(chunked32k, 3);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t B = 0x04000100u;
    assert_int_equal(mw_l1d_set_granularity(s, 0, 32), 0);
    us_set_core_now(s, 10);
    assert_int_equal(load(s, &x, B, 0x1, 1), MW_STALL_NONE);
    assert_int_equal(l1->missq.n, 1);
    assert_int_equal(l1->missq.head->sectors, 0x1);
    assert_int_equal(fill_all(s), 1);
    assert_int_equal(resident_chunks(l1), 1);
    us_set_core_now(s, 20);
    assert_int_equal(load(s, &x, B, 0x3, 2), MW_STALL_NONE);
    assert_true(x.a.miss);
    assert_int_equal(l1->st.chunk_partial_hits, 1);
    assert_int_equal(l1->st.chunk_evictions, 1);   /* chunk 0 invalidated */
    assert_int_equal(l1->missq.n, 1);              /* one request ... */
    assert_int_equal(l1->missq.head->sectors, 0x3);/* ... of 64 B */
    assert_int_equal(fill_all(s), 1);
    assert_int_equal(resident_chunks(l1), 2);
    us_set_core_now(s, 30);
    assert_int_equal(load(s, &x, B, 0x3, 3), MW_STALL_NONE);
    assert_false(x.a.miss);
    mw_sim_destroy(s);
}

/* G = 32: a 64 B load of chunks 0-1 while chunk 0 is still on its way fetches chunk 1 only (sectors 0x2) into the
 * same MSHR entry (two requests in flight, one entry); the first fill releases nobody, the second both loads. */
static void test_pending_and_absent_merge(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(chunked32k, 3);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x, y;
    const uint64_t B = 0x04000100u;
    assert_int_equal(mw_l1d_set_granularity(s, 0, 32), 0);
    us_set_core_now(s, 10);
    assert_int_equal(load(s, &x, B, 0x1, 1), MW_STALL_NONE);
    assert_int_equal(load(s, &y, B, 0x3, 2), MW_STALL_NONE);
    assert_true(y.a.miss);
    assert_int_equal(l1->mshr_used, 1);
    assert_int_equal(l1->missq.n, 2);
    assert_int_equal(l1->missq.head->sectors, 0x1);
    assert_int_equal(l1->missq.head->next->sectors, 0x2);
    assert_int_equal(l1->st.chunk_partial_hits, 0);
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t tc[MW_MSHR_WAITERS_MAX];
    int set;
    bool freed;
    assert_int_equal(mw_l1d_fill(s, l1, mw_fifo_pop(&l1->missq), waiters, tc, &set, &freed), 0);
    assert_int_equal(mw_l1d_fill(s, l1, mw_fifo_pop(&l1->missq), waiters, tc, &set, &freed), 2);
    assert_true(freed);
    assert_int_equal(resident_chunks(l1), 2);
    mw_sim_destroy(s);
}

/* Fine misses of different blocks with one common tag share a line: at G = 32, 32 B loads of chunk 1 of four
 * blocks of set 2 (blocks 8 KB apart: 64 sets x 128 B) fill slots 0, 1, 2, 3 of ONE line (the first fine miss
 * takes a free way and its first slot, the next ones the free slots of the line with their common tag). A fifth
 * block: with l1d.chunk_victim = set it takes the next free way (way 1, slot 0); with = line (the paper's literal
 * rule) it replaces the least recently used chunk of that line (slot 0, block 0's, filled at cycle 10). */
static void non_contiguous(const char *scope, bool literal)
{
    const char *sets[] = {"l1d.organisation=chunked", "l1d.size_bytes=32768", "l1d.index=linear", scope};
    struct mw_sim *s = us_machine(sets, 4);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t B = 0x04000100u;
    assert_int_equal(mw_l1d_set_granularity(s, 0, 32), 0);
    for (int i = 0; i < 4; i++) {
        us_set_core_now(s, 10 + (uint64_t)i);
        assert_int_equal(load(s, &x, B + 8192u * (uint64_t)i, 0x2, (uint32_t)i), MW_STALL_NONE);
        assert_int_equal(l1->missq.n, i + 1);
    }
    assert_int_equal(fill_all(s), 4);
    const struct mw_ck_line *l = mw_ck_line(mw_l1d_chunk_of(l1), 2, 0);
    assert_int_equal(l->valid, 0xF);
    for (int i = 0; i < 4; i++) assert_int_equal(l->addr[i], B + 8192u * (uint64_t)i + 32);
    assert_int_equal(mw_ck_line(mw_l1d_chunk_of(l1), 2, 1)->used, 0);
    us_set_core_now(s, 20);
    assert_int_equal(load(s, &x, B + 8192u * 4, 0x2, 9), MW_STALL_NONE);
    assert_int_equal(fill_all(s), 1);
    if (literal) {
        assert_int_equal(l->addr[0], B + 8192u * 4 + 32);
        assert_int_equal(l1->st.chunk_evictions, 1);
        assert_int_equal(mw_ck_line(mw_l1d_chunk_of(l1), 2, 1)->used, 0);
    } else {
        assert_int_equal(l->addr[0], B + 32);
        assert_int_equal(mw_ck_line(mw_l1d_chunk_of(l1), 2, 1)->addr[0], B + 8192u * 4 + 32);
        assert_int_equal(l1->st.chunk_evictions, 0);
    }
    mw_sim_destroy(s);
}
static void test_non_contiguous_chunks_share_a_line(void **st)
{
    (void)st;
    non_contiguous("l1d.chunk_victim=set", false);
    non_contiguous("l1d.chunk_victim=line", true);
}

/* ---- the granularity selector (policy dycache) ---- */
static void feed(struct mw_policy_inst *pi, int sm, int kind, int size, int n)
{
    struct mw_event ev = {.kind = kind, .sm = sm, .size = (uint8_t)size};
    for (int i = 0; i < n; i++) pi->pol->on_event(pi, &ev);
}

/* T = 50 %, windows of 1000 requests, on SM 0:
 *  999 32 B misses: no decision yet (G = 128); the 1000th: miss rate 100 % >= 50, fine ratio 100 % >= 50, at G = 128
 *    with n32 = 1000 > n64 = 0 -> G = 32, no flush;
 *  then 600 128 B misses + 400 128 B hits: miss rate 60 % >= 50 (poor), fine ratio 0 % < 50 (coarse) at G = 32
 *    -> G = 128 and the L1D is flushed;
 *  then 300 32 B + 300 64 B misses + 400 128 B hits: miss 60 %, fine 60 %, n32 = n64 -> the tie goes to 64;
 *  then 400 misses + 600 hits, all 32 B: miss 40 % < 50: good locality, G stays 64. SM 1 saw nothing: G = 128. */
/* Elastic-Cache: every SM at the static granule from the start, and fetch() the granule-aligned sectors of what a
 * miss needs. By hand at granule 64: sector 2 alone -> sectors 2-3 (0b1100); sectors 0 and 2 -> all four; sector
 * 1 -> 0-1 (0b0011). At granule 32 the needed sectors are fetched as they are (0b0101 stays 0b0101). */
static void test_elastic_decides(void **st)
{
    (void)st;
    static const struct { const char *granule; uint8_t need, want; } cases[] = {
        {"policies.granularity.granule=64", 0x4, 0xC}, {"policies.granularity.granule=64", 0x5, 0xF},
        {"policies.granularity.granule=64", 0x2, 0x3}, {"policies.granularity.granule=32", 0x5, 0x5},
        {"policies.granularity.granule=32", 0x8, 0x8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *sets[] = {"l1d.organisation=chunked", "policies.granularity=elastic", cases[i].granule};
        struct mw_sim *s = us_machine(sets, 3);
        int g = strstr(cases[i].granule, "64") ? 64 : 32;
        for (int sm = 0; sm < mw_n_sms(s); sm++) assert_int_equal(mw_l1d_granularity(s, sm), g);
        struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_GRANULARITY);
        assert_string_equal(pi->pol->name, "elastic");
        const struct mw_gran_ctx c = {.sm = 0, .line = 0x1000, .need = cases[i].need, .size = 32};
        assert_int_equal(((const struct mw_granularity_ops *)pi->pol)->fetch(pi, &c), cases[i].want);
        mw_sim_destroy(s);
    }
}

static void test_selector_decisions(void **st)
{
    (void)st;
    static const char *const sets[] = {"l1d.organisation=chunked", "policies.granularity=dycache"};
    struct mw_sim *s = us_machine(sets, 2);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_GRANULARITY);
    assert_string_equal(pi->pol->name, "dycache");
    feed(pi, 0, MW_EV_L1D_MISS, 32, 999);
    assert_int_equal(mw_l1d_granularity(s, 0), 128);
    feed(pi, 0, MW_EV_L1D_MISS, 32, 1);
    assert_int_equal(mw_l1d_granularity(s, 0), 32);
    assert_int_equal(s->l1d[0].st.gran_flushes, 0);
    feed(pi, 0, MW_EV_L1D_MISS, 128, 600);
    feed(pi, 0, MW_EV_L1D_HIT, 128, 400);
    assert_int_equal(mw_l1d_granularity(s, 0), 128);
    assert_int_equal(s->l1d[0].st.gran_flushes, 1);
    feed(pi, 0, MW_EV_L1D_MISS, 32, 300);
    feed(pi, 0, MW_EV_L1D_MISS, 64, 300);
    feed(pi, 0, MW_EV_L1D_HIT, 128, 400);
    assert_int_equal(mw_l1d_granularity(s, 0), 64);
    feed(pi, 0, MW_EV_L1D_MISS, 32, 400);
    feed(pi, 0, MW_EV_L1D_HIT, 32, 600);
    assert_int_equal(mw_l1d_granularity(s, 0), 64);
    assert_int_equal(mw_l1d_granularity(s, 1), 128);
    mw_sim_destroy(s);
}

/* T = 75 %: 700 32 B misses + 300 32 B hits: miss rate 70 % < 75: good locality, G stays 128; with T = 50 the
 * same window goes to 32. Threshold exactly met (compare = ge): 750 misses of 1000 at T = 75 switches, with
 * compare = gt it does not. */
static void test_selector_threshold(void **st)
{
    (void)st;
    const char *t75[] = {"l1d.organisation=chunked", "policies.granularity=dycache",
                         "policies.granularity.threshold=75", NULL};
    struct mw_sim *s = us_machine(t75, 3);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_GRANULARITY);
    feed(pi, 0, MW_EV_L1D_MISS, 32, 700);
    feed(pi, 0, MW_EV_L1D_HIT, 32, 300);
    assert_int_equal(mw_l1d_granularity(s, 0), 128);
    feed(pi, 0, MW_EV_L1D_MISS, 32, 750);
    feed(pi, 0, MW_EV_L1D_HIT, 32, 250);
    assert_int_equal(mw_l1d_granularity(s, 0), 32);
    mw_sim_destroy(s);
    t75[3] = "policies.granularity.compare=gt";
    s = us_machine(t75, 4);
    pi = mw_sim_policy(s, MW_PT_GRANULARITY);
    feed(pi, 0, MW_EV_L1D_MISS, 32, 750);
    feed(pi, 0, MW_EV_L1D_HIT, 32, 250);
    assert_int_equal(mw_l1d_granularity(s, 0), 128);
    mw_sim_destroy(s);
}

/* refine (the extraction's inferred choice for a poor + fine window at a fine G) and fine_by = bytes.
 * G reaches 64 with the tie window (300 32 B + 300 64 B misses + 400 128 B hits). The next window, 400 32 B and
 * 200 64 B misses + 400 128 B hits, is poor (60 %) and fine (60 %) with n32 > n64: refine = 0 keeps 64 (only a
 * coarse window leaves a fine G), refine = 1 moves to 32 without a flush (a smaller G keeps resident chunks).
 * fine_by = bytes: 600 32 B + 400 128 B misses is fine by count (60 %) but not by bytes (19,200 of 70,400 B =
 * 27 %), so G stays 128; 900 32 B + 100 128 B misses is fine by bytes too (28,800 of 41,600 B = 69 %) -> 32. */
static void test_selector_refine_and_bytes(void **st)
{
    (void)st;
    for (int refine = 0; refine <= 1; refine++) {
        const char *sets[] = {"l1d.organisation=chunked", "policies.granularity=dycache",
                              refine ? "policies.granularity.refine=1" : "policies.granularity.refine=0"};
        struct mw_sim *s = us_machine(sets, 3);
        struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_GRANULARITY);
        feed(pi, 0, MW_EV_L1D_MISS, 32, 300);
        feed(pi, 0, MW_EV_L1D_MISS, 64, 300);
        feed(pi, 0, MW_EV_L1D_HIT, 128, 400);
        assert_int_equal(mw_l1d_granularity(s, 0), 64);
        feed(pi, 0, MW_EV_L1D_MISS, 32, 400);
        feed(pi, 0, MW_EV_L1D_MISS, 64, 200);
        feed(pi, 0, MW_EV_L1D_HIT, 128, 400);
        assert_int_equal(mw_l1d_granularity(s, 0), refine ? 32 : 64);
        assert_int_equal(s->l1d[0].st.gran_flushes, 0);
        mw_sim_destroy(s);
    }
    for (int bytes = 0; bytes <= 1; bytes++) {
        const char *sets[] = {"l1d.organisation=chunked", "policies.granularity=dycache",
                              bytes ? "policies.granularity.fine_by=bytes" : "policies.granularity.fine_by=count"};
        struct mw_sim *s = us_machine(sets, 3);
        struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_GRANULARITY);
        feed(pi, 0, MW_EV_L1D_MISS, 32, 600);
        feed(pi, 0, MW_EV_L1D_MISS, 128, 400);
        assert_int_equal(mw_l1d_granularity(s, 0), bytes ? 128 : 32);
        if (bytes) {
            feed(pi, 0, MW_EV_L1D_MISS, 32, 900);
            feed(pi, 0, MW_EV_L1D_MISS, 128, 100);
            assert_int_equal(mw_l1d_granularity(s, 0), 32);
        }
        mw_sim_destroy(s);
    }
}

/* ---- whole runs (7.4) ---- */
static double run_stat(const char *wl, const char *size, const char *const *sets, int n, const char *name,
                       double *other, const char *other_name)
{
    struct mw_config c;
    sr_config(&c, sets, n);
    struct mw_err e;
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, wl, size, 1, &e)) fail_msg("%s: %s", wl, e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 0, wl);
    struct mw_stat_list l;
    sr_stats(s, &l);
    double v = sr_stat(&l, name);
    if (other) *other = sr_stat(&l, other_name);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
    return v;
}

/* micro.stream (default size: 2,048 128 B requests per SM, every one a miss) has poor locality but coarse access:
 * all of its 30 windows are poor (miss rate 100 %), none fine (ratio 0), so it stays at 128 B.
 * micro.colstride (32 lanes 4 KB apart: 32 4-byte requests of 32 B per load, all missing) goes to 32 B at the end
 * of each SM's first window and stays: to_fine = one per SM that ended a window, and every later window runs at
 * 32 B. */
static void test_stream_stays_gather_goes_fine(void **st)
{
    (void)st;
    static const char *const sets[] = {"l1d.organisation=chunked", "policies.granularity=dycache"};
    double poor = 0, fine = 0, windows = 0;
    run_stat("micro.stream", "default", sets, 2, "policy.granularity.windows_poor", &poor,
             "policy.granularity.windows_poor");
    double tofine = run_stat("micro.stream", "default", sets, 2, "policy.granularity.to_fine", &windows,
                             "policy.granularity.windows");
    run_stat("micro.stream", "default", sets, 2, "policy.granularity.windows_fine", &fine,
             "policy.granularity.windows_fine");
    assert_true(windows == 30);
    assert_true(poor == 30);
    assert_true(fine == 0);
    assert_true(tofine == 0);
    double win = 0, at32 = 0;
    tofine = run_stat("micro.colstride", "small", sets, 2, "policy.granularity.to_fine", &win,
                      "policy.granularity.windows");
    run_stat("micro.colstride", "small", sets, 2, "policy.granularity.windows_at_32", &at32,
             "policy.granularity.windows_at_32");
    assert_true(tofine == 15);          /* every SM ended at least one window */
    assert_true(at32 == win - tofine);  /* all windows but each SM's first ran at 32 B */
    assert_true(win > 2 * tofine);
}

/* The chunked organisation at G = 128 (granularity `line` never changes it) is the line organisation: on
 * rodinia.bfs and graph.dc (tiny) every stat is bit-identical but the chunk_evictions it alone counts. */
static void stats_of(const char *wl, const char *org, struct mw_stat_list *l)
{
    const char *sets[] = {org};
    struct mw_config c;
    sr_config(&c, sets, 1);
    struct mw_err e;
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, wl, "tiny", 1, &e)) fail_msg("%s: %s", wl, e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 0, wl);
    sr_stats(s, l);
    mw_sim_destroy(s);
}
static void test_chunked_at_128_is_line(void **st)
{
    (void)st;
    static const char *const wls[] = {"rodinia.bfs", "graph.dc"};
    for (int k = 0; k < 2; k++) {
        struct mw_stat_list a, b;
        stats_of(wls[k], "l1d.organisation=line", &a);
        stats_of(wls[k], "l1d.organisation=chunked", &b);
        assert_int_equal(a.n, b.n);
        int compared = 0;
        for (int i = 0; i < a.n; i++) {
            assert_string_equal(a.v[i].name, b.v[i].name);
            if (sr_effort_stat(a.v[i].name) || strstr(a.v[i].name, "chunk_evictions")) continue;
            if (a.v[i].value != b.v[i].value)
                fail_msg("%s: %s differs: %.17g vs %.17g", wls[k], a.v[i].name, a.v[i].value, b.v[i].value);
            compared++;
        }
        assert_true(compared > 100);
        assert_true(sr_stat(&b, "l1d.hits") > 0 && sr_stat(&b, "l1d.misses") > 0);
        mw_stat_list_fini(&a);
        mw_stat_list_fini(&b);
    }
}

/* The Lua twin of the selector (tests/lua/pol_dycache.lua) gives the C policy's stats, every counter. */
static void test_lua_twin(void **st)
{
    (void)st;
    static char out[1 << 15];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/dycache_parity.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  chunked  micro.colstride  T=50 switches 15"));
    assert_non_null(strstr(out, "ok  line     micro.stream     T=50 switches 0"));
    assert_non_null(strstr(out, "dycache parity:"));
}

/* Determinism on the chunked organisation with granularity switches (rodinia.bfs tiny at T = 25 switches): the
 * same stats with sim.fast_forward on and off, and on a second run. */
static void test_fast_forward_same(void **st)
{
    (void)st;
    const char *sets[] = {"l1d.organisation=chunked", "policies.granularity=dycache",
                          "policies.granularity.threshold=25", "sim.fast_forward=true"};
    struct mw_stat_list a, b, c;
    struct mw_config cfg;
    struct mw_err e;
    struct mw_workload w;
    struct mw_stat_list *out[3] = {&a, &b, &c};
    for (int k = 0; k < 3; k++) {
        sets[3] = k == 1 ? "sim.fast_forward=false" : "sim.fast_forward=true";
        sr_config(&cfg, sets, 4);
        if (mw_workload_open_builtin(&w, "rodinia.bfs", "tiny", 1, &e)) fail_msg("%s", e.msg);
        struct mw_sim *s = sr_sim(&cfg, &w);
        sr_run(s, 0, "rodinia.bfs");
        sr_stats(s, out[k]);
        mw_sim_destroy(s);
    }
    assert_true(sr_stat(&a, "l1d.gran_switches") > 0);
    sr_same_stats(&a, &b, "fast_forward off");
    sr_same_stats(&a, &c, "second run");
    mw_stat_list_fini(&a);
    mw_stat_list_fini(&b);
    mw_stat_list_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_and_mask),
        cmocka_unit_test(test_switch_keeps_then_flushes),
        cmocka_unit_test(test_partial_hit),
        cmocka_unit_test(test_pending_and_absent_merge),
        cmocka_unit_test(test_non_contiguous_chunks_share_a_line),
        cmocka_unit_test(test_elastic_decides), cmocka_unit_test(test_selector_decisions),
        cmocka_unit_test(test_selector_threshold), cmocka_unit_test(test_selector_refine_and_bytes),
        cmocka_unit_test(test_stream_stays_gather_goes_fine),
        cmocka_unit_test(test_chunked_at_128_is_line),
        cmocka_unit_test(test_lua_twin),
        cmocka_unit_test(test_fast_forward_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
