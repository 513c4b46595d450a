/* GPGPU-Sim 3.2.1's back-pressure from the interconnect, driven unit by unit (tests/unitsim.h): SMs of one cluster
 * share a crossbar port (icnt.sms_per_cluster, -gpgpu_n_cores_per_cluster), and an L2 slice holding
 * l2.reply_queue replies for the reply network looks nothing up (the L2-to-icnt queue of
 * -gpgpu_dram_partition_queues). The defaults (1 SM per port, 0 = unbounded) keep the old behaviour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "unitsim.h"

#include "l1d.h"

/* ---- icnt.sms_per_cluster: the request side ---- */

/* A 128 B store of SM sm waiting in its L1D miss queue, as mw_l1d_access queues one. */
static void queue_store(struct mw_sim *s, int sm, uint64_t line)
{
    struct mw_req *r = us_req(s, sm, line, 0xf, MW_REQ_WRITE);
    r->size = 128;
    mw_fifo_push(&s->l1d[sm].missq, r);
}

/* SMs 0 and 1 each drain one store in the same core cycle. Returns how many left their SM. */
static int drain_two_stores(const char *const *sets, int nsets, int *port0, int *port1)
{
    struct mw_sim *s = us_machine(sets, nsets);
    queue_store(s, 0, 0x100700);
    queue_store(s, 1, 0x100800);
    int n = mw_l1d_drain(s, &s->l1d[0]);
    n += mw_l1d_drain(s, &s->l1d[1]);
    *port0 = s->req_net->qflits[0];
    *port1 = s->req_net->nsrc > 1 ? s->req_net->qflits[1] : -1;
    mw_sim_destroy(s);
    return n;
}

static void test_cluster_shares_injection(void **st)
{
    (void)st;
    int p0, p1;
    /* A store is header 8 + data 128 = 136 B = 5 flits of 32 B; a port's injection buffer holds 9 flits. One SM a
     * port (the default): each store fits its own port, 5 flits waiting at each. */
    assert_int_equal(drain_two_stores(NULL, 0, &p0, &p1), 2);
    assert_int_equal(p0, 5);
    assert_int_equal(p1, 5);
    /* Two SMs a port: SM 0's store takes 5 of port 0's 9 flits; SM 1's needs 5 more, 5 + 5 = 10 > 9, so it stays
     * in SM 1's miss queue (GPGPU-Sim: icnt_has_buffer of the cluster fails, the L1D keeps its miss queue head). */
    assert_int_equal(drain_two_stores((const char *[]){"icnt.sms_per_cluster=2"}, 1, &p0, &p1), 1);
    assert_int_equal(p0, 5);
    assert_int_equal(p1, 0); /* port 1 is SMs 2 and 3's */
}

/* ---- icnt.sms_per_cluster: the reply side ---- */

/* Acknowledgements (1 flit each) of `n` writes of SM 0 and `n` of SM 1 (alternating) from slice 11, the
 * destination ports holding at most 5 flits (icnt.in_buffer_flits = 5, the least that holds a read reply; nobody
 * pops them here). Returns the flits delivered. */
static uint64_t deliver_acks(const char *cluster, int n)
{
    const char *sets[] = {"icnt.in_buffer_flits=5", cluster};
    struct mw_sim *s = us_machine(sets, 2);
    struct mw_l2 *l2 = &s->l2[11];
    mw_partition_wake(s, &s->parts[5]);
    uint64_t before = s->reply_net->st.flits; /* the empty kernel's instruction fetch (one 5-flit reply) */
    for (int i = 0; i < 2 * n; i++) {
        struct mw_req *r = us_req(s, i & 1, 0x100700, 0xf, MW_REQ_WRITE);
        r->size = 128;
        r->t_ready = s->now_fs;
        mw_fifo_push(&l2->pipe, r);
    }
    for (int i = 0; i < 400; i++) us_step_memory(s);
    uint64_t flits = s->reply_net->st.flits - before;
    assert_int_equal(l2->st.writes, 2 * n);
    mw_sim_destroy(s);
    return flits;
}

static void test_cluster_shares_ejection(void **st)
{
    (void)st;
    /* Six acks for SM 0 and six for SM 1, alternating. One port each: 5 flits of room at each, 5 + 5 = 10 acks
     * delivered (the 11th, SM 0's sixth, finds no room and blocks the slice's queue). One port for both: 5 flits of
     * room in all, 5 acks delivered; the rest wait in the network. */
    assert_int_equal(deliver_acks("icnt.sms_per_cluster=1", 6), 10);
    assert_int_equal(deliver_acks("icnt.sms_per_cluster=2", 6), 5);
}

/* ---- l2.reply_queue ---- */

struct rq_run {
    uint64_t writes, reply_full, replies, inq;
};

/* 20 writes of one line, in slice 11's lookup pipe, due now; SM 0's reply port holds 5 flits (nobody pops them
 * here); 200 L2 cycles (far more than the 20 lookups need). */
static void run_acks(const char *reply_queue, struct rq_run *o)
{
    const char *sets[] = {"icnt.in_buffer_flits=5", reply_queue};
    struct mw_sim *s = us_machine(sets, 2);
    struct mw_l2 *l2 = &s->l2[11];
    mw_partition_wake(s, &s->parts[5]);
    uint64_t before = s->reply_net->st.packets; /* the empty kernel's instruction fetch */
    for (int i = 0; i < 20; i++) {
        struct mw_req *r = us_req(s, 0, 0x100700, 0xf, MW_REQ_WRITE);
        r->size = 128;
        r->t_ready = s->now_fs;
        mw_fifo_push(&l2->pipe, r);
    }
    uint64_t l2_start = s->clk[MW_CLK_L2].cycle;
    while (s->clk[MW_CLK_L2].cycle < l2_start + 200) us_step_memory(s);
    o->writes = l2->st.writes;
    o->reply_full = l2->st.reply_full;
    o->replies = (uint64_t)l2->replies.n;
    o->inq = (uint64_t)s->reply_net->inq[11].n;
    assert_int_equal(s->reply_net->st.packets - before, 5);
    mw_sim_destroy(s);
}

static void test_reply_queue_holds_lookups(void **st)
{
    (void)st;
    struct rq_run o;
    /* Each write is looked up and answered by a 1-flit acknowledgement. SM 0's port takes 5 of them (5 flits of
     * room); the slice's injection buffer holds 9 more (icnt.inject_flits = 9 flits, out_queue 16 packets): 14
     * acks leave the slice's reply queue. Unbounded (the default): all 20 writes are looked up and 20 - 14 = 6
     * acks stay in the reply queue; the lookup never waits. */
    run_acks("l2.reply_queue=0", &o);
    assert_int_equal(o.writes, 20);
    assert_int_equal(o.inq, 9);
    assert_int_equal(o.replies, 6);
    assert_int_equal(o.reply_full, 0);
    /* reply_queue = 3: lookups stop once 3 acks wait in the reply queue: 14 + 3 = 17 writes looked up, 3 left in
     * the pipe. */
    run_acks("l2.reply_queue=3", &o);
    assert_int_equal(o.writes, 17);
    assert_int_equal(o.inq, 9);
    assert_int_equal(o.replies, 3);
    /* one lookup an L2 cycle from the first cycle stepped: the 17 take cycles 1-17, and in each of the other
     * 200 - 17 = 183 the pipe's head waits for the reply queue */
    assert_int_equal(o.reply_full, 183);
    /* reply_queue = 6: the 20th lookup is the one that brings the queue to 6 (it held 5 before): all 20 looked
     * up, no wait */
    run_acks("l2.reply_queue=6", &o);
    assert_int_equal(o.writes, 20);
    assert_int_equal(o.replies, 6);
    assert_int_equal(o.reply_full, 0);
}

/* ---- fast-forward with both on ---- */

/* 2MM (small) on the OAWS machine, whose shared ports and bounded reply queue make slices and SMs wait on each
 * other: the same stats with fast-forward on and off (the engine's effort aside), and the reply queue did hold the
 * L2 (the case is not vacuous). */
static void run_2mm(const char *ff, const char *rotate, struct mw_stat_list *l)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, "experiments/configs/oaws.yaml", &e)) fail_msg("config: %s", e.msg);
    assert_int_equal(c.icnt.sms_per_cluster, 2);
    assert_int_equal(c.l2.reply_queue, 8);
    if (mw_config_set(&c, ff, &e)) fail_msg("%s: %s", ff, e.msg);
    if (mw_config_set(&c, rotate, &e)) fail_msg("%s: %s", rotate, e.msg);
    struct mw_workload w;
    assert_int_equal(mw_workload_open_builtin(&w, "polybench.2mm", "small", 1, &e), 0);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 0, "polybench.2mm small");
    sr_stats(s, l);
    mw_sim_destroy(s);
}

static void test_fast_forward_same(void **st)
{
    (void)st;
    struct mw_stat_list on, off;
    run_2mm("sim.fast_forward=true", "icnt.cluster_rotate=false", &on);
    run_2mm("sim.fast_forward=false", "icnt.cluster_rotate=false", &off);
    sr_same_stats(&on, &off, "2mm small, fast-forward on / off");
    assert_true(sr_stat(&on, "l2.reply_full") > 0);
    assert_true(sr_stat(&on, "sm.ldst_stall_miss_queue") > 0);
    mw_stat_list_fini(&on);
    mw_stat_list_fini(&off);
}

/* With icnt.cluster_rotate (the SMs of a cluster taking turns to go first; tests/test_cluster_rotate.c) the skipped
 * SMs' accounting follows the order of turns: fast-forward on and off give the same stats, and the rotation changes
 * the run (it is not vacuous here). */
static void test_fast_forward_same_rotating(void **st)
{
    (void)st;
    struct mw_stat_list on, off, fixed;
    run_2mm("sim.fast_forward=true", "icnt.cluster_rotate=true", &on);
    run_2mm("sim.fast_forward=false", "icnt.cluster_rotate=true", &off);
    run_2mm("sim.fast_forward=true", "icnt.cluster_rotate=false", &fixed);
    sr_same_stats(&on, &off, "2mm small, rotating, fast-forward on / off");
    assert_true(sr_stat(&on, "gpu.cycles") != sr_stat(&fixed, "gpu.cycles") ||
                sr_stat(&on, "sm.ldst_stall_miss_queue") != sr_stat(&fixed, "sm.ldst_stall_miss_queue"));
    mw_stat_list_fini(&on);
    mw_stat_list_fini(&off);
    mw_stat_list_fini(&fixed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cluster_shares_injection),
        cmocka_unit_test(test_cluster_shares_ejection),
        cmocka_unit_test(test_reply_queue_holds_lookups),
        cmocka_unit_test(test_fast_forward_same),
        cmocka_unit_test(test_fast_forward_same_rotating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
