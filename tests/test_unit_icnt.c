/* Unit tests of the crossbar (engine/icnt.h), a standalone struct mw_xbar over the GTX480 config (32 B flits,
 * latency 8, 16-packet injection queues, 64-flit destination buffers) with a 1,000 fs clock, its cycles called by
 * hand: packet size in flits and arrival time, serialisation at a destination port and at a source, credits,
 * the rotating priority and the next-event time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "icnt.h"
#include "unitsim.h"

#define P 1000ull /* clock period, fs */

static struct mw_req rq[8];

static void xb_make(struct mw_xbar *x, int nsrc, int ndst, const char *const *sets, int nsets)
{
    struct mw_config c;
    sr_config(&c, sets, nsets);
    assert_int_equal(mw_xbar_init(x, nsrc, ndst, &c, P), 0);
    memset(rq, 0, sizeof rq);
}

/* A packet of N bytes is ceil(N / 32) flits (at least one); granted at cycle g, its last flit arrives at
 * (g + flits - 1 + latency) x period. */
static void test_packet_timing(void **st)
{
    (void)st;
    struct mw_xbar x;
    xb_make(&x, 2, 2, NULL, 0);
    static const int bytes[] = {0, 1, 8, 32, 33, 40, 136};
    static const int flits[] = {1, 1, 1, 1, 2, 2, 5};
    for (int i = 0; i < 7; i++) {
        mw_xbar_inject(&x, 0, &rq[i], 1, bytes[i]);
        assert_int_equal(rq[i].flits, flits[i]);
        assert_int_equal(rq[i].port, 1);
    }
    mw_xbar_fini(&x);

    xb_make(&x, 2, 2, NULL, 0);
    mw_xbar_inject(&x, 0, &rq[0], 1, 8 + 128); /* a read reply: header + line = 5 flits */
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    assert_null(mw_xbar_peek(&x, 1, 100 * P)); /* not granted yet */
    mw_xbar_cycle(&x, 3);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 0);
    /* granted at 3: (3 + 5 - 1 + 8) x P = 15 P */
    assert_int_equal(rq[0].t_ready, 15 * P);
    assert_null(mw_xbar_peek(&x, 1, 15 * P - 1));
    assert_null(mw_xbar_peek(&x, 0, 15 * P)); /* the other destination has nothing */
    assert_ptr_equal(mw_xbar_peek(&x, 1, 15 * P), &rq[0]);
    assert_int_equal(x.credits[1], 64 - 5);
    assert_ptr_equal(mw_xbar_pop(&x, 1), &rq[0]);
    assert_int_equal(x.credits[1], 64);
    assert_null(mw_xbar_pop(&x, 1));
    assert_int_equal(x.st.packets, 1);
    assert_int_equal(x.st.flits, 5);
    mw_xbar_fini(&x);
}

/* A destination port takes one flit per cycle: two 5-flit packets from two sources to one destination, both
 * ready at cycle 0, are granted at 0 and 5 (arrivals 12 P and 17 P). A source sends one flit per cycle: its two
 * 5-flit packets to two destinations go at 0 and 5 too. Different sources to different destinations go in the
 * same cycle. */
static void test_port_serialisation(void **st)
{
    (void)st;
    struct mw_xbar x;
    xb_make(&x, 2, 2, NULL, 0);
    mw_xbar_inject(&x, 0, &rq[0], 0, 136);
    mw_xbar_inject(&x, 1, &rq[1], 0, 136);
    mw_xbar_cycle(&x, 0);
    assert_int_equal(rq[0].t_ready, 12 * P); /* (0 + 4 + 8) */
    for (uint64_t c = 1; c <= 4; c++) {
        mw_xbar_cycle(&x, c);
        if (mw_xbar_queued_at(&x, 1) != 1) fail_msg("source 1 granted at cycle %llu, destination busy until 5",
                                                    (unsigned long long)c);
    }
    mw_xbar_cycle(&x, 5);
    assert_int_equal(mw_xbar_queued_at(&x, 1), 0);
    assert_int_equal(rq[1].t_ready, 17 * P); /* (5 + 4 + 8) */
    mw_xbar_fini(&x);

    xb_make(&x, 2, 2, NULL, 0);
    mw_xbar_inject(&x, 0, &rq[0], 0, 136);
    mw_xbar_inject(&x, 0, &rq[1], 1, 136);
    for (uint64_t c = 0; c <= 4; c++) mw_xbar_cycle(&x, c);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    mw_xbar_cycle(&x, 5);
    assert_int_equal(rq[1].t_ready, 17 * P);
    mw_xbar_fini(&x);

    xb_make(&x, 2, 2, NULL, 0);
    mw_xbar_inject(&x, 0, &rq[0], 0, 136);
    mw_xbar_inject(&x, 1, &rq[1], 1, 136);
    mw_xbar_cycle(&x, 0);
    assert_int_equal(rq[0].t_ready, 12 * P);
    assert_int_equal(rq[1].t_ready, 12 * P);
    mw_xbar_fini(&x);
}

/* With 4 flits of buffer at the destination, four 1-flit packets from one source go at cycles 0-3 and use every
 * credit; the fifth waits (and is no event of its own) until a pop returns a credit, then goes at the next cycle. */
static void test_credits(void **st)
{
    (void)st;
    struct mw_xbar x;
    xb_make(&x, 1, 1, (const char *[]){"icnt.in_buffer_flits=4"}, 1);
    for (int i = 0; i < 5; i++) mw_xbar_inject(&x, 0, &rq[i], 0, 8);
    for (uint64_t c = 0; c < 4; c++) {
        mw_xbar_cycle(&x, c);
        assert_int_equal(rq[c].t_ready, (c + 8) * P);
    }
    assert_int_equal(x.credits[0], 0);
    mw_xbar_cycle(&x, 4);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    /* the blocked fifth is no event: the next one is the first arrival, 8 P, not cycle 5 */
    assert_int_equal(mw_xbar_next_event(&x, 5, 5 * P), 8 * P);
    for (uint64_t c = 5; c < 8; c++) mw_xbar_cycle(&x, c);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    assert_ptr_equal(mw_xbar_peek(&x, 0, 8 * P), &rq[0]);
    mw_xbar_cycle(&x, 8); /* still no credit: nothing popped yet */
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    assert_ptr_equal(mw_xbar_pop(&x, 0), &rq[0]);
    assert_int_equal(x.credits[0], 1);
    mw_xbar_cycle(&x, 9);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 0);
    assert_int_equal(rq[4].t_ready, (9 + 8) * P);
    assert_int_equal(x.credits[0], 0);
    mw_xbar_fini(&x);

    /* a 2-flit packet needs two credits: one is not enough */
    xb_make(&x, 1, 1, (const char *[]){"icnt.in_buffer_flits=4"}, 1);
    for (int i = 0; i < 3; i++) mw_xbar_inject(&x, 0, &rq[i], 0, 8);
    mw_xbar_inject(&x, 0, &rq[3], 0, 40);
    for (uint64_t c = 0; c < 6; c++) mw_xbar_cycle(&x, c);
    assert_int_equal(x.credits[0], 1);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    mw_xbar_pop(&x, 0);
    mw_xbar_cycle(&x, 6);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 0);
    assert_int_equal(rq[3].t_ready, (6 + 1 + 8) * P);
    mw_xbar_fini(&x);
}

/* Three sources with 1-flit packets for one destination. The priority starts at source 0 and moves one place
 * after each cycle with a grant: source 0 wins at cycle 0 even though 1 and 2 wait too; at cycle 1 the order is
 * 1, 2, 0, so source 1 wins over source 0's second packet (fixed priority would send 0 again); then 2, then 0.
 * A cycle with no grant leaves the priority where it is. */
static void test_round_robin(void **st)
{
    (void)st;
    struct mw_xbar x;
    xb_make(&x, 3, 2, NULL, 0);
    mw_xbar_inject(&x, 0, &rq[0], 0, 8);
    mw_xbar_inject(&x, 0, &rq[1], 0, 8);
    mw_xbar_inject(&x, 1, &rq[2], 0, 8);
    mw_xbar_inject(&x, 2, &rq[3], 0, 8);
    static const int order[4] = {0, 2, 3, 1}; /* rq granted at cycles 0, 1, 2, 3 */
    for (uint64_t c = 0; c < 4; c++) {
        assert_int_equal(x.rr, (int)(c % 3));
        mw_xbar_cycle(&x, c);
        if (rq[order[c]].t_ready != (c + 8) * P) fail_msg("cycle %llu: packet %d not granted", (unsigned long long)c, order[c]);
    }
    assert_int_equal(x.rr, 1);
    /* source 2 sends a 5-flit packet to destination 1 at cycle 4; source 0's packet for destination 1 then finds
     * the port busy at cycle 5: no grant, no rotation */
    mw_xbar_inject(&x, 2, &rq[4], 1, 136);
    mw_xbar_cycle(&x, 4);
    assert_int_equal(rq[4].t_ready, (4 + 4 + 8) * P);
    int rr = x.rr;
    assert_int_not_equal(rr, 1); /* a grant: it moved */
    mw_xbar_inject(&x, 0, &rq[5], 1, 8);
    mw_xbar_cycle(&x, 5);
    assert_int_equal(mw_xbar_queued_at(&x, 0), 1);
    assert_int_equal(x.rr, rr);
    mw_xbar_fini(&x);
}

/* The next event (fs): a packet that can be granted now -> now; one waiting for a busy port -> the cycle the
 * port frees; otherwise the earliest arrival (or now, if it has arrived and waits to be popped); none -> never. */
static void test_next_event(void **st)
{
    (void)st;
    struct mw_xbar x;
    xb_make(&x, 3, 1, NULL, 0);
    assert_int_equal(mw_xbar_next_event(&x, 0, 0), MW_NEVER);
    mw_xbar_inject(&x, 0, &rq[0], 0, 8);
    assert_int_equal(mw_xbar_next_event(&x, 3, 3 * P), 3 * P);
    mw_xbar_cycle(&x, 3);
    assert_int_equal(mw_xbar_next_event(&x, 4, 4 * P), 11 * P); /* arrival (3 + 0 + 8) */
    mw_xbar_inject(&x, 1, &rq[1], 0, 136);
    mw_xbar_cycle(&x, 4); /* 5 flits: the port is busy until cycle 9 */
    mw_xbar_inject(&x, 2, &rq[2], 0, 8);
    assert_int_equal(mw_xbar_next_event(&x, 5, 5 * P), 9 * P);
    assert_int_equal(mw_xbar_next_event(&x, 20, 20 * P), 20 * P); /* grantable, and arrivals waiting */
    mw_xbar_cycle(&x, 9);
    assert_int_equal(mw_xbar_next_event(&x, 10, 10 * P), 11 * P);
    assert_ptr_equal(mw_xbar_pop(&x, 0), &rq[0]);
    assert_int_equal(mw_xbar_next_event(&x, 12, 12 * P), 16 * P); /* rq[1]: (4 + 4 + 8) */
    assert_ptr_equal(mw_xbar_pop(&x, 0), &rq[1]);
    assert_ptr_equal(mw_xbar_pop(&x, 0), &rq[2]);
    assert_int_equal(mw_xbar_next_event(&x, 30, 30 * P), MW_NEVER);
    mw_xbar_fini(&x);
}

/* ENGINE BUG (skipped), or at least a question for the allocator's design: the priority moves one place per cycle
 * with a grant, whoever got it, so a source right after an idle one is asked first twice as often. Sources 0 and 2
 * of 3 both always waiting for one destination, source 1 idle: rr 0 grants 0, rr 1 (order 1, 2, 0) grants 2, rr 2
 * grants 2, rr 0 grants 0, ...: 0 gets a third of the port, 2 two thirds. iSLIP, which engine/icnt.c stands in
 * for, moves the pointer to one past the source it granted, which alternates 0, 2, 0, 2. Remove the skip() if the
 * allocator is meant to be fair (engine/icnt.c, mw_xbar_cycle: x->rr = (x->rr + 1) % x->nsrc). */
static void test_round_robin_fair(void **st)
{
    (void)st;
    skip();
    static struct mw_req a[16], b[16];
    struct mw_xbar x;
    xb_make(&x, 3, 1, NULL, 0);
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (int i = 0; i < 16; i++) {
        mw_xbar_inject(&x, 0, &a[i], 0, 8);
        mw_xbar_inject(&x, 2, &b[i], 0, 8);
    }
    for (uint64_t c = 0; c < 24; c++) mw_xbar_cycle(&x, c);
    int g0 = 16 - mw_xbar_queued_at(&x, 0), g2 = 16 - mw_xbar_queued_at(&x, 2);
    assert_int_equal(g0 + g2, 24); /* one flit per cycle through the port */
    if (g0 != 12 || g2 != 12) fail_msg("24 cycles of contention: source 0 got %d grants, source 2 %d", g0, g2);
    mw_xbar_fini(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packet_timing),
        cmocka_unit_test(test_port_serialisation),
        cmocka_unit_test(test_credits),
        cmocka_unit_test(test_round_robin),
        cmocka_unit_test(test_round_robin_fair),
        cmocka_unit_test(test_next_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
