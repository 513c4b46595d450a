/* Unit tests of the memory partition side (engine/addrmap.h, engine/partition.h) on a GTX480 machine the engine
 * built: address interleaving over 6 partitions x 2 slices in 256 B chunks, partition- and slice-local addresses
 * worked out by hand, and one L2 read miss driven through the partition's L2 and DRAM cycles by a hand clock,
 * where a request waits dram.latency L2 cycles on its way to the DRAM channel and its data comes back at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "partition.h"
#include "unitsim.h"

/* chunk c = addr / 256 goes to partition c % 6 and, within it, slice (c / 6) % 2: chunks 0-5 to partitions 0-5
 * on their first slices (global slice = partition x 2), chunks 6-11 to the second slices, chunk 12 starts over. */
static void test_slice_interleave(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    assert_int_equal(s->cfg.l2.interleave_bytes, 256);
    static const int slice_of_chunk[12] = {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11};
    for (uint64_t c = 0; c < 48; c++)
        for (uint64_t off = 0; off < 256; off += 0x7f) /* first byte, 0x7f, 0xfe */
            if (mw_addr_slice(s, c * 256 + off) != slice_of_chunk[c % 12])
                fail_msg("address 0x%llx (chunk %llu): slice %d, expected %d", (unsigned long long)(c * 256 + off),
                         (unsigned long long)c, mw_addr_slice(s, c * 256 + off), slice_of_chunk[c % 12]);
    /* a chunk's last byte and the next chunk's first */
    assert_int_equal(mw_addr_slice(s, 0xff), 0);
    assert_int_equal(mw_addr_slice(s, 0x100), 2);
    /* 0x100700 = chunk 4103 = 6 x 683 + 5: partition 5, 683 odd -> second slice, 11 */
    assert_int_equal(mw_addr_slice(s, 0x100700), 11);
    mw_sim_destroy(s);
}

/* Partition-local (DRAM) address: the chunks of one partition packed, (c / 6) x 256 + offset. Slice-local (L2
 * index) address: the chunks of one slice packed, (c / 6 / 2) x 256 + offset. */
static void test_local_addresses(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    assert_int_equal(mw_addr_local(s, 0x0), 0x0);
    assert_int_equal(mw_addr_local(s, 0x5ff), 0xff);      /* chunk 5, offset 0xff: partition 5's first chunk */
    assert_int_equal(mw_addr_local(s, 0x600), 0x100);     /* chunk 6: partition 0's second chunk */
    assert_int_equal(mw_addr_local(s, 0x1234), 0x334);    /* chunk 18, offset 0x34: 18 / 6 = 3 -> 0x300 + 0x34 */
    assert_int_equal(mw_addr_local(s, 0x100700), 0x2ab00);/* chunk 4103: 683 x 256 = 0x2ab00 */
    assert_int_equal(mw_addr_slice_local(s, 0x600), 0x0); /* chunk 6: slice 1's first chunk */
    assert_int_equal(mw_addr_slice_local(s, 0xc00), 0x100);/* chunk 12: slice 0's second chunk */
    assert_int_equal(mw_addr_slice_local(s, 0x1234), 0x134); /* chunk 18: 18 / 6 / 2 = 1 -> 0x100 + 0x34 */
    assert_int_equal(mw_addr_slice_local(s, 0x100700), 0x15500); /* 683 / 2 = 341 -> 341 x 256 = 0x15500 */

    /* no two lines of the first 3 MB share a (partition, local) or a (slice, slice-local) address, and each
     * slice's lines fill its local space densely: 3 MB / 128 B = 24,576 lines, 2,048 per slice */
    enum { LINES = 24576, PER_SLICE = LINES / 12, PER_PART = LINES / 6 };
    static uint8_t seen_slice[12][PER_SLICE], seen_part[6][PER_PART];
    memset(seen_slice, 0, sizeof seen_slice);
    memset(seen_part, 0, sizeof seen_part);
    for (uint64_t i = 0; i < LINES; i++) {
        uint64_t a = i * 128;
        int sl = mw_addr_slice(s, a), part = sl / 2;
        uint64_t ls = mw_addr_slice_local(s, a) / 128, lp = mw_addr_local(s, a) / 128;
        if (ls >= PER_SLICE || seen_slice[sl][ls]++) fail_msg("line 0x%llx: slice %d local line %llu taken or out of range",
                                                             (unsigned long long)a, sl, (unsigned long long)ls);
        if (lp >= PER_PART || seen_part[part][lp]++) fail_msg("line 0x%llx: partition %d local line %llu taken or out of range",
                                                             (unsigned long long)a, part, (unsigned long long)lp);
    }
    mw_sim_destroy(s);
}

struct timeline {
    uint64_t t_lookup, t_dram_in, t_dram_out, t_fill; /* fs */
    uint64_t c_dram_in, c_dram_out;                   /* DRAM cycles */
};

static int steps_left;
static unsigned step(struct mw_sim *s)
{
    if (--steps_left < 0) fail_msg("the read did not come back");
    return us_step_memory(s);
}

/* One read of line 0x100700 (slice 11, the second slice of partition 5) put at the head of the slice's lookup
 * pipe, then the interconnect, L2 and DRAM clocks stepped by hand (GTX480: L2 at 700 MHz, DRAM at 924 MHz) until
 * the slice fills the line. */
static void run_read(const char *const *sets, int nsets, struct timeline *tl)
{
    struct mw_sim *s = us_machine(sets, nsets);
    const uint64_t A = 0x100700;
    const int k = 1; /* slice 11 = partition 5's second slice */
    struct mw_partition *p = &s->parts[5];
    struct mw_l2 *l2 = &s->l2[11];
    uint64_t pl2 = s->clk[MW_CLK_L2].period_fs, pd = s->clk[MW_CLK_DRAM].period_fs;
    uint64_t pipe = (uint64_t)s->cfg.dram.latency * pl2; /* 100 L2 cycles */
    mw_partition_wake(s, p);
    struct mw_req *r = us_req(s, 0, A, 0xf, MW_REQ_READ);
    r->size = 128;
    assert_int_equal(r->slice, 11);
    r->t_ready = s->now_fs;
    mw_fifo_push(&l2->pipe, r);
    steps_left = 1000000;

    /* the lookup misses; in the same L2 cycle the DRAM read leaves the slice's miss queue for the pipe, due at
     * the DRAM side dram.latency L2 cycles later */
    while (l2->st.misses == 0) step(s);
    tl->t_lookup = s->now_fs;
    assert_int_equal(l2->missq.n, 0);
    assert_int_equal(p->to_dram[k].n, 1);
    const struct mw_req *d = p->to_dram[k].head;
    assert_int_equal(d->kind, MW_REQ_READ);
    assert_true(d->flags & MW_RQ_L2_FILL);
    assert_int_equal(d->addr, A);
    assert_int_equal(d->dram_addr, 0x2ab00); /* partition-local: chunk 4103 / 6 = 683 -> 683 x 256 */
    assert_int_equal(d->sectors, 0xf);
    assert_int_equal(p->to_dram[k].head_ready, tl->t_lookup + pipe);

    /* the channel takes it at its first cycle starting at or after that time */
    while (p->to_dram[k].n) step(s);
    tl->t_dram_in = s->now_fs;
    tl->c_dram_in = s->clk[MW_CLK_DRAM].cycle - 1;
    assert_int_equal(tl->t_dram_in, (tl->t_lookup + pipe + pd - 1) / pd * pd);

    /* the data goes back into slice 11's queue from DRAM, due at once (no delay on the way back) */
    while (p->from_dram[k].n == 0) {
        step(s);
        assert_int_equal(p->from_dram[1 - k].n, 0); /* not the partition's other slice */
    }
    tl->t_dram_out = s->now_fs;
    tl->c_dram_out = s->clk[MW_CLK_DRAM].cycle - 1;
    assert_int_equal(p->from_dram[k].head_ready, tl->t_dram_out);
    assert_ptr_equal(p->from_dram[k].head, d);

    /* the slice fills the line at its first L2 cycle starting at or after that time, and the waiting read's reply
     * enters the reply network in the same cycle */
    while (l2->st.fills == 0) step(s);
    tl->t_fill = s->now_fs;
    assert_int_equal(tl->t_fill, (tl->t_dram_out + pl2 - 1) / pl2 * pl2);
    assert_int_equal(p->from_dram[k].n, 0);
    assert_ptr_equal(s->reply_net->inq[11].head, r);
    assert_true(r->flags & MW_RQ_REPLY);
    assert_int_equal(s->reply_net->inq[11].head->port, 0); /* back to SM 0 */
    mw_sim_destroy(s);
}

static void test_l2_dram_pipes(void **st)
{
    (void)st;
    struct timeline on, off;
    run_read(NULL, 0, &on);
    /* DRAM service of one read on an idle channel (all banks closed), counted from the cycle the channel took it:
     * 1 to enter the queue, then ACT, tRCD later the first 64 B column read, tCCD later the second, tCL + BL/4
     * later the second's last beat: 1 + 1 + 12 + 2 + 12 + 2 = 30 DRAM cycles */
    assert_int_equal(on.c_dram_out - on.c_dram_in, 30);
    /* with fast-forward off every unit ticks every cycle (no slice or channel sleeps): the lookup at the same
     * time (the empty kernel ends at the same time), and every hand-off as many fs after it */
    run_read((const char *[]){"sim.fast_forward=false"}, 1, &off);
    assert_int_equal(off.t_lookup, on.t_lookup);
    assert_int_equal(off.t_dram_in - off.t_lookup, on.t_dram_in - on.t_lookup);
    assert_int_equal(off.t_dram_out - off.t_lookup, on.t_dram_out - on.t_lookup);
    assert_int_equal(off.t_fill - off.t_lookup, on.t_fill - on.t_lookup);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slice_interleave),
        cmocka_unit_test(test_local_addresses),
        cmocka_unit_test(test_l2_dram_pipes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
