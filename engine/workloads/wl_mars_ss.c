/* Mars similarity score (He et al., PACT'08; sample_apps/SimilarityScore, the "SS" of the GPGPU-Sim-era benchmark
 * lists, which Li 2015's Table 5.2 files under Rodinia: Rodinia has no such benchmark). The host adds one map record
 * per document pair (doc1 < doc2) of a rand() % 100 matrix of ndoc x dim floats (run.sh: 1024 x 256); one record
 * per map thread (256-thread blocks, DEFAULT_NUMTASK 1). Mapper reads both rows as float4 (dim / 4 iterations:
 * the dot product and both squared norms), writes score and ids to its shared output slot (GET_OUTPUT_BUF: 20 B a
 * thread) and EmitIntermediate copies them byte by byte to the intermediate arrays. MAP_GROUP: MapperCount, three
 * prefix sums, Mapper, then the group phase as mars.iix has it (initialize_kernel, one bitonicKernel launch per
 * (k, j) comparing the float keys through compare.cu, the key-boundary kernels). Registers are estimates. */
#include "kloop.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLK 256      /* DEFAULT_DIMBLOCK */
#define KEYSZ 8      /* sizeof(SS_KEY_T): the matrix pointer */
#define VALSZ 16     /* sizeof(SS_VAL_T): doc1, doc2, dim, result */
#define SLOT 20      /* GET_OUTPUT_BUF: threadIdx.x * 5 * sizeof(int) */
#define CH (512u * 512u)

struct ss {
    uint32_t ndoc, dim, nrec, threads, R, nstage, ngroups;
    float *score;            /* the key each record emits */
    uint32_t *d1, *d2;       /* each record's document pair (added for doc1 = 0.., doc2 = doc1 + 1..) */
    uint32_t *sk, *sj;       /* bitonic stage s: (k, j) */
    int32_t *cur;            /* d_R's record numbers (-1 padding) before stage cstage, replayed on demand */
    uint32_t cstage;
    uint8_t *bflag;          /* sorted position starts a new key */
    uint32_t *bsum;          /* exclusive prefix of bflag */
    /* device addresses, cudaMalloc order */
    uint64_t matrix, in_keys, in_vals, in_os, cnt_k, cnt_v, cnt_c, ps_k, ps_v, ps_c, ikeys, ivals, ios, kvo, curi;
    uint64_t okeys, ovals, oos, dR, start, startsum, bound, range, sums;
};

/* One launch: the kloop header, then what its callbacks read. */
struct sl {
    struct mw_kl_hdr h;
    struct ss *m;
    uint32_t k, j, stage;    /* bitonic */
    uint32_t n, start;       /* elements; chunk start */
    uint64_t in, out, sums;  /* scans */
};

/* compare.cu through getCompareValue: 1 when a's score is below b's (the sort puts high scores last), 0 within
 * 1e-7, -1 padding first. */
static int ss_cmp(const struct ss *m, int32_t a, int32_t b)
{
    if (a == -1 || b == -1) return a == b ? 0 : a == -1 ? -1 : 1;
    float x = m->score[a], y = m->score[b];
    if (fabsf(x - y) < 0.0000001f) return 0;
    return x < y ? 1 : -1;
}

static void stage_apply(const struct ss *m, int32_t *X, uint32_t s)
{
    uint32_t k = m->sk[s], j = m->sj[s];
    for (uint32_t i = 0; i < m->R; i++) {
        uint32_t x = i ^ j;
        if (x <= i) continue;
        int c = ss_cmp(m, X[i], X[x]);
        if (((i & k) == 0 && c == 1) || ((i & k) != 0 && c == -1)) {
            int32_t t = X[i];
            X[i] = X[x], X[x] = t;
        }
    }
}

static void stage_reset(const struct ss *m, int32_t *X)
{
    for (uint32_t i = 0; i < m->R; i++) X[i] = i < m->nrec ? (int32_t)i : -1;
}

/* d_R before the launch's stage. Launches run in order, so this steps one stage forward at a time. */
static const int32_t *at_stage(const struct sl *L)
{
    struct ss *m = L->m;
    if (m->cstage > L->stage) stage_reset(m, m->cur), m->cstage = 0;
    while (m->cstage < L->stage) stage_apply(m, m->cur, m->cstage++);
    return m->cur;
}

#define G ((int64_t)t->gtid)
#define TIDX ((int64_t)t->tid[0])
#define BIDX ((int64_t)t->ctaid[0])
#define M (P->m)
static uint64_t row_a(const struct sl *P, int64_t r) { return P->m->matrix + (uint64_t)P->m->d1[r] * P->m->dim * 4; }
static uint64_t row_b(const struct sl *P, int64_t r) { return P->m->matrix + (uint64_t)P->m->d2[r] * P->m->dim * 4; }

#define KL_LDGW(w, d, a, fn, p) MW_KL_I(MW_OP_LD_GLOBAL, w, 1, 1, d, a, 0, fn, p)
#define KL_STGW(w, v, a, fn, p) MW_KL_I(MW_OP_ST_GLOBAL, w, 0, 2, 0, a, v, fn, p)
#define KL_LDSW(w, d, a, fn, p) MW_KL_I(MW_OP_LD_SHARED, w, 1, 1, d, a, 0, fn, p)
#define KL_STSW(w, v, a, fn, p) MW_KL_I(MW_OP_ST_SHARED, w, 0, 2, 0, a, v, fn, p)

/* ---- MapperCount and Mapper ---- */
MW_KL_PRED(mp_in, struct sl, G < M->nrec)
MW_KL_TRIPS(mp_one, struct sl, 1) /* for (i = recordBase + tid; i < terminate; i += blockDim.x): one record */
MW_KL_ADDR(a_os, struct sl, M->in_os + (uint64_t)G * 16)
MW_KL_ADDR(a_cntk, struct sl, M->cnt_k + (uint64_t)G * 4)
MW_KL_ADDR(a_cntv, struct sl, M->cnt_v + (uint64_t)G * 4)
MW_KL_ADDR(a_cntc, struct sl, M->cnt_c + (uint64_t)G * 4)
MW_KL_ADDR(a_psk, struct sl, M->ps_k + (uint64_t)G * 4)
MW_KL_ADDR(a_psv, struct sl, M->ps_v + (uint64_t)G * 4)
MW_KL_ADDR(a_psc, struct sl, M->ps_c + (uint64_t)G * 4)
MW_KL_ADDR(a_key, struct sl, M->in_keys + (uint64_t)G * KEYSZ)
MW_KL_ADDR(a_doc1, struct sl, M->in_vals + (uint64_t)G * VALSZ)
MW_KL_ADDR(a_doc2, struct sl, M->in_vals + (uint64_t)G * VALSZ + 4)
MW_KL_ADDR(a_dim, struct sl, M->in_vals + (uint64_t)G * VALSZ + 8)
MW_KL_TRIPS(mp_col4, struct sl, (int64_t)(M->dim >> 2))
MW_KL_TRIPS(mp_rem, struct sl, (int64_t)(M->dim & 3))
MW_KL_ADDR(a_a4, struct sl, row_a(P, G) + (uint64_t)lc[1] * 16)
MW_KL_ADDR(a_b4, struct sl, row_b(P, G) + (uint64_t)lc[1] * 16)
MW_KL_ADDR(a_a1, struct sl, row_a(P, G) + (uint64_t)(M->dim >> 2) * 16 + (uint64_t)lc[1] * 4)
MW_KL_ADDR(a_b1, struct sl, row_b(P, G) + (uint64_t)(M->dim >> 2) * 16 + (uint64_t)lc[1] * 4)
MW_KL_ADDR(s_res, struct sl, (uint64_t)TIDX * SLOT)
MW_KL_ADDR(s_d1, struct sl, (uint64_t)TIDX * SLOT + 4)
MW_KL_ADDR(s_d2, struct sl, (uint64_t)TIDX * SLOT + 8)
MW_KL_ADDR(a_kvo, struct sl, M->kvo + (uint64_t)G * 8)
MW_KL_ADDR(s_kbyte, struct sl, (uint64_t)TIDX * SLOT + (uint64_t)lc[1])
MW_KL_ADDR(a_ikey, struct sl, M->ikeys + (uint64_t)G * 4 + (uint64_t)lc[1])
MW_KL_ADDR(s_vbyte, struct sl, (uint64_t)TIDX * SLOT + 4 + (uint64_t)lc[1])
MW_KL_ADDR(a_ival, struct sl, M->ivals + (uint64_t)G * 8 + (uint64_t)lc[1])
MW_KL_ADDR(a_curi, struct sl, M->curi + (uint64_t)G * 4)
MW_KL_PRED(mp_prev, struct sl, false) /* curIndex[index] > 0: never, one emission a thread */
MW_KL_ADDR(a_iosprev, struct sl, M->ios + ((uint64_t)G - 1) * 16)
MW_KL_ADDR(a_ios, struct sl, M->ios + (uint64_t)G * 16)

/* r1 index, r2 recordBase, r3 terminate, r4 i, r6 os, r7/r8 key/val pointers, r9..r11 counters */
static const struct mw_kl_op mc_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_ALU(5, 1, 0),
    KL_IF(mp_in, 5),                                                           /* 3 */
    KL_ALU(3, 2, 0), KL_ALU(4, 2, 0),
    KL_LOOP(mp_one, NULL, 5),                                                  /* 6 */
    KL_LDGW(16, 6, 4, a_os, NULL), KL_ALU(7, 6, 0), KL_ALU(8, 6, 0),           /* 7..9 */
    KL_LDG(9, 1, a_cntk, NULL), KL_ALU(9, 9, 0), KL_STG(9, 1, a_cntk, NULL),   /* 10..12 keySize */
    KL_LDG(10, 1, a_cntv, NULL), KL_ALU(10, 10, 0), KL_STG(10, 1, a_cntv, NULL), /* 13..15 valSize */
    KL_LDG(11, 1, a_cntc, NULL), KL_ALU(11, 11, 0), KL_STG(11, 1, a_cntc, NULL), /* 16..18 count */
    KL_ALU(4, 4, 0), KL_ALU(5, 4, 3),
    KL_END,                                                                    /* 21 */
    KL_END,                                                                    /* 22 */
};

/* r1 index, r3 ps_c, r4/r5 ps_k/ps_v, r6 os, r9 matrix, r10..r12 doc1 doc2 dim, r15/r16 rows, r17 col4,
 * r19..r21 up, doc1Down, doc2Down, r22..r29 float4 a and b, r30.. the emit */
static const struct mw_kl_op mp_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_ALU(40, 1, 0),
    KL_IF(mp_in, 40),                                                          /* 3 */
    KL_LDG(3, 1, a_psc, NULL), KL_ALU(3, 3, 0),                                /* 4, 5 */
    KL_LDG(4, 1, a_psk, NULL), KL_LDG(5, 1, a_psv, NULL),                      /* 6, 7 */
    KL_ALU(41, 2, 0), KL_ALU(42, 2, 0),                                        /* 8, 9 */
    KL_LOOP(mp_one, NULL, 40),                                                 /* 10 */
    KL_LDGW(16, 6, 42, a_os, NULL), KL_ALU(7, 6, 0), KL_ALU(8, 6, 0),          /* 11..13 */
    KL_LDGW(8, 9, 7, a_key, NULL),                                             /* 14 pKey->matrix */
    KL_LDG(10, 8, a_doc1, NULL), KL_LDG(11, 8, a_doc2, NULL), KL_LDG(12, 8, a_dim, NULL), /* 15..17 */
    KL_ALU(13, 10, 12), KL_ALU(15, 9, 13), KL_ALU(14, 11, 12), KL_ALU(16, 9, 14), /* 18..21 */
    KL_ALU(17, 12, 0), KL_ALU(18, 12, 0), KL_ALU(19, 0, 0), KL_ALU(20, 0, 0), KL_ALU(21, 0, 0), /* 22..26 */
    KL_LOOP(mp_col4, NULL, 17),                                                /* 27 */
    KL_LDGW(16, 22, 15, a_a4, NULL), KL_LDGW(16, 26, 16, a_b4, NULL),          /* 28, 29 */
    KL_ALU(30, 22, 26), KL_ALU(30, 23, 27), KL_ALU(30, 24, 28), KL_ALU(30, 25, 29), /* up */
    KL_ALU(31, 22, 22), KL_ALU(31, 23, 23), KL_ALU(31, 24, 24), KL_ALU(31, 25, 25), /* doc1Down */
    KL_ALU(32, 26, 26), KL_ALU(32, 27, 27), KL_ALU(32, 28, 28), KL_ALU(32, 29, 29), /* doc2Down */
    KL_ALU(19, 19, 30), KL_ALU(20, 20, 31), KL_ALU(21, 21, 32),               /* 42..44 */
    KL_ALU(15, 15, 0), KL_ALU(16, 16, 0), KL_ALU(33, 33, 17),                 /* 45..47 */
    KL_END,                                                                    /* 48 */
    KL_LOOP(mp_rem, NULL, 18),                                                 /* 49 */
    KL_LDG(22, 15, a_a1, NULL), KL_LDG(26, 16, a_b1, NULL),
    KL_ALU(19, 22, 26), KL_ALU(20, 22, 22), KL_ALU(21, 26, 26), KL_ALU(34, 34, 18),
    KL_END,                                                                    /* 56 */
    KL_SFU(35, 20), KL_SFU(36, 21), KL_ALU(35, 35, 36), KL_SFU(35, 35), KL_ALU(37, 19, 35), /* 57..61 */
    KL_ALU(38, 0, 0),                                                          /* 62 sbuf + tid * 20 */
    KL_STSW(4, 37, 38, s_res, NULL), KL_STSW(4, 10, 38, s_d1, NULL), KL_STSW(4, 11, 38, s_d2, NULL), /* 63..65 */
    /* EmitIntermediate(o_result, o_doc, 4, 8) */
    KL_LDGW(8, 43, 1, a_kvo, NULL), KL_LDG(44, 1, a_psk, NULL), KL_LDG(45, 1, a_psv, NULL), /* 66..68 */
    KL_ALU(46, 43, 44), KL_ALU(47, 43, 45),                                    /* 69, 70 */
    KL_LOOPN(4, 46),                                                           /* 71 */
    KL_LDSW(1, 48, 38, s_kbyte, NULL), KL_STGW(1, 48, 46, a_ikey, NULL), KL_ALU(46, 46, 0), KL_ALU(49, 46, 0),
    KL_END,                                                                    /* 76 */
    KL_LOOPN(8, 47),                                                           /* 77 */
    KL_LDSW(1, 48, 38, s_vbyte, NULL), KL_STGW(1, 48, 47, a_ival, NULL), KL_ALU(47, 47, 0), KL_ALU(49, 47, 0),
    KL_END,                                                                    /* 82 */
    KL_ALU(43, 43, 0), KL_STGW(8, 43, 1, a_kvo, NULL),                         /* 83, 84 */
    KL_LDG(50, 1, a_curi, NULL), KL_LDG(51, 1, a_psc, NULL), KL_ALU(52, 50, 51), /* 85..87 */
    KL_IF(mp_prev, 50),                                                        /* 88 */
    KL_LDGW(16, 53, 52, a_iosprev, NULL), KL_ALU(54, 53, 0),
    KL_END,                                                                    /* 91 */
    KL_ALU(54, 44, 0), KL_STGW(16, 54, 52, a_ios, NULL), KL_ALU(50, 50, 0), KL_STG(50, 1, a_curi, NULL), /* 92..95 */
    KL_ALU(42, 42, 0), KL_ALU(40, 42, 41),                                     /* 96, 97 */
    KL_END,                                                                    /* 98 */
    KL_END,                                                                    /* 99 */
};

/* ---- prescanArray (CUDA SDK scan_largearray, MarsScan.cu): 256 threads scan 512 ints in shared memory ---- */
#define BB ((int64_t)t->ctaid[0] * 512)
#define CF(x) ((uint64_t)((x) + ((x) >> 4)) * 4) /* CONFLICT_FREE_OFFSET */
#define SCAN_SHMEM ((512 + 512 / 16) * 4)          /* s_data: 2 * blockSize + 2 * blockSize / NUM_BANKS ints */
MW_KL_PRED(sc_a, struct sl, BB + TIDX < (int64_t)P->n)
MW_KL_PRED(sc_b, struct sl, BB + TIDX + 256 < (int64_t)P->n)
MW_KL_ADDR(sc_ina, struct sl, P->in + (uint64_t)(BB + TIDX) * 4)
MW_KL_ADDR(sc_inb, struct sl, P->in + (uint64_t)(BB + TIDX + 256) * 4)
MW_KL_ADDR(sc_outa, struct sl, P->out + (uint64_t)(BB + TIDX) * 4)
MW_KL_ADDR(sc_outb, struct sl, P->out + (uint64_t)(BB + TIDX + 256) * 4)
MW_KL_ADDR(sc_sa, struct sl, CF(TIDX))
MW_KL_ADDR(sc_sb, struct sl, CF(TIDX + 256))
MW_KL_PRED(sc_up, struct sl, TIDX < (256 >> lc[0]))
MW_KL_ADDR(sc_upa, struct sl, (uint64_t)(((int64_t)1 << lc[0]) * (2 * TIDX + 1) - 1) * 4)
MW_KL_ADDR(sc_upb, struct sl, (uint64_t)(((int64_t)1 << lc[0]) * (2 * TIDX + 2) - 1) * 4)
MW_KL_PRED(sc_t0, struct sl, TIDX == 0)
MW_KL_PRED(sc_sums, struct sl, P->sums != 0)
MW_KL_ADDR(sc_last, struct sl, 511 * 4)
MW_KL_ADDR(sc_sum, struct sl, P->sums + (uint64_t)t->ctaid[0] * 4)
MW_KL_PRED(sc_dn, struct sl, TIDX < ((int64_t)1 << lc[0]))
MW_KL_ADDR(sc_dna, struct sl, (uint64_t)((256 >> lc[0]) * (2 * TIDX + 1) - 1) * 4)
MW_KL_ADDR(sc_dnb, struct sl, (uint64_t)((256 >> lc[0]) * (2 * TIDX + 2) - 1) * 4)

static const struct mw_kl_op scan_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0),
    KL_IF(sc_a, 2), KL_LDG(3, 2, sc_ina, NULL), KL_END,
    KL_IF(sc_b, 2), KL_LDG(4, 2, sc_inb, NULL), KL_END,
    KL_STS(3, 1, sc_sa, NULL), KL_STS(4, 1, sc_sb, NULL), KL_ALU(8, 0, 0),
    KL_LOOPN(9, 8),
    KL_BAR,
    KL_IF(sc_up, 1), KL_ALU(5, 1, 8), KL_LDS(6, 5, sc_upa, NULL), KL_LDS(7, 5, sc_upb, NULL), KL_ALU(7, 7, 6),
    KL_STS(7, 5, sc_upb, NULL), KL_END,
    KL_ALU(8, 8, 0), KL_ALU(9, 9, 0),
    KL_END,
    KL_BAR,
    KL_IF(sc_t0, 1), KL_LDS(6, 0, sc_last, NULL),
    KL_IF(sc_sums, 6), KL_STG(6, 1, sc_sum, NULL), KL_END,
    KL_STS(0, 0, sc_last, NULL), KL_END,
    KL_LOOPN(9, 8),
    KL_BAR,
    KL_IF(sc_dn, 1), KL_LDS(6, 5, sc_dna, NULL), KL_LDS(7, 5, sc_dnb, NULL), KL_STS(7, 5, sc_dna, NULL),
    KL_ALU(7, 7, 6), KL_STS(7, 5, sc_dnb, NULL), KL_END,
    KL_ALU(8, 8, 0), KL_ALU(9, 9, 0),
    KL_END,
    KL_BAR, KL_LDS(3, 1, sc_sa, NULL), KL_LDS(4, 1, sc_sb, NULL),
    KL_IF(sc_a, 2), KL_STG(3, 2, sc_outa, NULL), KL_END,
    KL_IF(sc_b, 2), KL_STG(4, 2, sc_outb, NULL), KL_END,
};

/* uniformAdd(g_data, uniforms, n, blockOffset 1, baseIndex 512) */
MW_KL_PRED(ua_a, struct sl, BB + 512 + TIDX < (int64_t)P->n)
MW_KL_PRED(ua_b, struct sl, BB + 512 + TIDX + 256 < (int64_t)P->n)
MW_KL_ADDR(ua_uni, struct sl, P->sums + (uint64_t)t->ctaid[0] * 4 + 4)
MW_KL_ADDR(ua_s, struct sl, 0)
MW_KL_ADDR(ua_da, struct sl, P->out + (uint64_t)(BB + 512 + TIDX) * 4)
MW_KL_ADDR(ua_db, struct sl, P->out + (uint64_t)(BB + 512 + TIDX + 256) * 4)
static const struct mw_kl_op uadd_ops[] = {
    KL_ALU(1, 0, 0),
    KL_IF(sc_t0, 1), KL_LDG(2, 1, ua_uni, NULL), KL_STS(2, 0, ua_s, NULL), KL_END,
    KL_BAR, KL_LDS(2, 0, ua_s, NULL), KL_ALU(3, 1, 0),
    KL_IF(ua_a, 3), KL_LDG(4, 3, ua_da, NULL), KL_ALU(4, 4, 2), KL_STG(4, 3, ua_da, NULL), KL_END,
    KL_IF(ua_b, 3), KL_LDG(5, 3, ua_db, NULL), KL_ALU(5, 5, 2), KL_STG(5, 3, ua_db, NULL), KL_END,
};

/* ---- the group phase ---- */
#define POS ((int64_t)P->start + G)
MW_KL_PRED(ch_in, struct sl, POS < (int64_t)P->n)
MW_KL_ADDR(in_dR, struct sl, M->dR + (uint64_t)POS * 16)
static const struct mw_kl_op init_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_IF(ch_in, 2), KL_STGW(16, 0, 2, in_dR, NULL), KL_END,
};

/* bitonicKernel(k, j): dataIdx = global thread, ixj = dataIdx ^ j; if ixj > dataIdx compare and maybe swap, the
 * two directions compiled as two copies of the compare. */
static int32_t bt_v(const struct sl *P, const struct mw_tctx *t, bool other)
{
    return at_stage(P)[other ? (uint32_t)G ^ P->j : (uint32_t)G];
}
MW_KL_PRED(bt_act, struct sl, ((uint64_t)G ^ P->j) > (uint64_t)G)
MW_KL_PRED(bt_up, struct sl, ((uint64_t)G & P->k) == 0)
MW_KL_PRED(bt_dn, struct sl, ((uint64_t)G & P->k) != 0)
MW_KL_PRED(bt_real, struct sl, bt_v(P, t, false) != -1 && bt_v(P, t, true) != -1)
MW_KL_PRED(bt_swap, struct sl,
           ss_cmp(M, bt_v(P, t, false), bt_v(P, t, true)) == (((uint64_t)G & P->k) == 0 ? 1 : -1))
MW_KL_ADDR(bt_ri, struct sl, M->dR + (uint64_t)G * 16)
MW_KL_ADDR(bt_rx, struct sl, M->dR + ((uint64_t)G ^ P->j) * 16)
MW_KL_ADDR(bt_ki, struct sl, M->ikeys + (uint64_t)bt_v(P, t, false) * 4)
MW_KL_ADDR(bt_kx, struct sl, M->ikeys + (uint64_t)bt_v(P, t, true) * 4)
#define BT_CMP(dir)                                                                                          \
    KL_IF(dir, 7), KL_ALU(8, 5, 6), KL_IF(bt_real, 8), KL_LDG(9, 5, bt_ki, NULL), KL_LDG(10, 6, bt_kx, NULL),  \
        KL_ALU(11, 9, 10), KL_ALU(12, 11, 0), KL_ALU(13, 9, 10), KL_END, KL_ALU(14, 12, 13),                   \
        KL_IF(bt_swap, 14), KL_STGW(16, 6, 3, bt_ri, NULL), KL_STGW(16, 5, 4, bt_rx, NULL), KL_END, KL_END
static const struct mw_kl_op bt_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_ALU(3, 2, 0), KL_ALU(4, 3, 2),
    KL_IF(bt_act, 4),                                                          /* 4 */
    KL_LDGW(16, 5, 2, bt_ri, NULL), KL_LDGW(16, 6, 3, bt_rx, NULL), KL_ALU(7, 2, 0), /* 5..7 */
    BT_CMP(bt_up),                                                             /* 8..22 */
    BT_CMP(bt_dn),                                                             /* 23..37 */
    KL_END,
};

/* getChunkBoundary_kernel: d_startArray[pos] = pos == 0 || compare(sorted key pos, pos - 1) != 0 */
MW_KL_PRED(gb_rest, struct sl, POS > 0)
MW_KL_ADDR(gb_os, struct sl, M->oos + (uint64_t)POS * 16)
MW_KL_ADDR(gb_osp, struct sl, M->oos + (uint64_t)(POS - 1) * 16)
MW_KL_ADDR(gb_k, struct sl, M->okeys + (uint64_t)POS * 4)
MW_KL_ADDR(gb_kp, struct sl, M->okeys + (uint64_t)(POS - 1) * 4)
MW_KL_ADDR(gb_st, struct sl, M->start + (uint64_t)POS * 4)
static const struct mw_kl_op gb_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_IF(ch_in, 2), KL_ALU(3, 2, 0),
    KL_IF(gb_rest, 3), KL_LDGW(16, 4, 2, gb_os, NULL), KL_LDGW(16, 5, 2, gb_osp, NULL), KL_ALU(6, 4, 5),
    KL_LDG(7, 4, gb_k, NULL), KL_LDG(8, 5, gb_kp, NULL), KL_ALU(9, 7, 8), KL_ALU(10, 9, 0), KL_ALU(3, 7, 8),
    KL_END,
    KL_STG(3, 2, gb_st, NULL), KL_END,
};

/* writeBoundary_kernel: if (d_startArray[pos] == 1) d_boundary[d_startSumArray[pos]] = pos */
MW_KL_PRED(wb_flag, struct sl, M->bflag[POS] != 0)
MW_KL_ADDR(wb_st, struct sl, M->start + (uint64_t)POS * 4)
MW_KL_ADDR(wb_ss, struct sl, M->startsum + (uint64_t)POS * 4)
MW_KL_ADDR(wb_b, struct sl, M->bound + (uint64_t)M->bsum[POS] * 4)
static const struct mw_kl_op wb_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_IF(ch_in, 2), KL_LDG(3, 2, wb_st, NULL), KL_LDG(4, 2, wb_ss, NULL),
    KL_IF(wb_flag, 3), KL_ALU(5, 4, 0), KL_STG(2, 5, wb_b, NULL), KL_END, KL_END,
};

/* setBoundaryInt2_kernel: range[pos] = (bound[pos], pos + 1 < n ? bound[pos + 1] : rLen) */
MW_KL_PRED(sb_next, struct sl, POS + 1 < (int64_t)P->n)
MW_KL_ADDR(sb_b, struct sl, M->bound + (uint64_t)POS * 4)
MW_KL_ADDR(sb_bn, struct sl, M->bound + (uint64_t)(POS + 1) * 4)
MW_KL_ADDR(sb_r, struct sl, M->range + (uint64_t)POS * 8)
static const struct mw_kl_op sb_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_IF(ch_in, 2), KL_LDG(3, 2, sb_b, NULL), KL_ALU(4, 2, 0),
    KL_IF(sb_next, 4), KL_LDG(4, 2, sb_bn, NULL), KL_END, KL_STGW(8, 3, 2, sb_r, NULL), KL_END,
};

#define OPS(a) (a), (int)(sizeof(a) / sizeof((a)[0]))

/* ---- the host side ---- */
struct owned {
    struct ss *m;
    struct sl *ls;
};
static void owned_free(void *p)
{
    struct owned *o = p;
    if (!o) return;
    if (o->m) {
        struct ss *m = o->m;
        free(m->score), free(m->d1), free(m->d2), free(m->sk), free(m->sj), free(m->cur), free(m->bflag), free(m->bsum), free(m);
    }
    free(o->ls), free(o);
}

static struct sl *add(struct mw_kgen_program *p, struct owned *o, uint32_t *nl, uint32_t capl, const char *name,
                      const struct mw_kl_op *ops, int nops, uint32_t grid, uint32_t regs, uint32_t shmem,
                      uint32_t block)
{
    if (*nl == capl) return NULL; /* sized in advance: the kernels point into the array */
    struct sl *L = &o->ls[(*nl)++];
    memset(L, 0, sizeof *L);
    L->h = (struct mw_kl_hdr){ops, nops};
    L->m = o->m;
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return NULL;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = grid, k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = block, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = regs, k->k.shmem = shmem;
    mw_kloop_kernel(k, &L->h);
    return L;
}

/* prefexSum over n ints: the block scan, and for several blocks the scan of the block sums and uniformAdd. */
static int add_scan(struct mw_kgen_program *p, struct owned *o, uint32_t *nl, uint32_t capl, uint32_t n, uint64_t in,
                    uint64_t out)
{
    uint32_t nb = (n + 511) / 512;
    struct sl *L = add(p, o, nl, capl, "prescan", OPS(scan_ops), nb, 12, SCAN_SHMEM, 256);
    if (!L) return -1;
    L->n = n, L->in = in, L->out = out, L->sums = nb > 1 ? o->m->sums : 0;
    if (nb > 1) {
        if (nb > 512) return -1; /* one level of block sums */
        if (!(L = add(p, o, nl, capl, "prescan", OPS(scan_ops), 1, 12, SCAN_SHMEM, 256))) return -1;
        L->n = nb, L->in = o->m->sums, L->out = o->m->sums;
        if (!(L = add(p, o, nl, capl, "uniformAdd", OPS(uadd_ops), nb - 1, 8, 4, 256))) return -1;
        L->n = n, L->out = out, L->sums = o->m->sums;
    }
    return 0;
}

/* The SS matrix of a seed: rand() % 100 per entry, as GenMatrix. */
float mw_wl_ss_value(uint64_t seed, uint32_t i)
{
    uint64_t s = (seed * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)i * 0xd1b54a32d192ed03ull) ^ 0x55aa55aa55aa55aaull;
    s ^= s >> 31, s *= 0xbf58476d1ce4e5b9ull, s ^= s >> 27, s *= 0x94d049bb133111ebull, s ^= s >> 31;
    return (float)(s % 100);
}

/* The map function's score for documents d1, d2 of an ndoc x dim matrix, in the kernel's float order. */
float mw_wl_ss_score(uint64_t seed, uint32_t dim, uint32_t d1, uint32_t d2)
{
    float up = 0, n1 = 0, n2 = 0;
    uint32_t c4 = dim >> 2;
    for (uint32_t i = 0; i < c4; i++) {
        float a[4], b[4];
        for (int q = 0; q < 4; q++)
            a[q] = mw_wl_ss_value(seed, d1 * dim + 4 * i + (uint32_t)q),
            b[q] = mw_wl_ss_value(seed, d2 * dim + 4 * i + (uint32_t)q);
        up += a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        n1 += a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
        n2 += b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
    }
    for (uint32_t i = 4 * c4; i < dim; i++) {
        float a = mw_wl_ss_value(seed, d1 * dim + i), b = mw_wl_ss_value(seed, d2 * dim + i);
        up += a * b, n1 += a * a, n2 += b * b;
    }
    return up / (sqrtf(n1) * sqrtf(n2));
}

int mw_wl_mars_ss(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* documents x dimensions; run.sh's input is 1024 x 256 (paper), whose 523,776 records need MarsSort's chunked
     * path (unitBitonicSortKernel / partBitonicSortKernel past 256K records), which is not modelled */
    static const uint32_t docs[4] = {32, 128, 512, 1024}, dims[4] = {256, 256, 256, 256};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    uint32_t ndoc = docs[sz], dim = dims[sz], nrec = ndoc * (ndoc - 1) / 2;
    if (nrec > 256u * 1024u)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                          "mars.ss: size '%s' (%u documents, %u pairs) needs the chunked bitonic sort of more than "
                          "262144 records, which is not modelled; use tiny, small or default",
                          size, ndoc, nrec);
    struct owned *o = calloc(1, sizeof *o);
    struct ss *m = o ? calloc(1, sizeof *m) : NULL;
    struct mw_kgen_program p = {.owned = o, .free_owned = owned_free};
    if (!m) {
        free(o);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    o->m = m;
    m->ndoc = ndoc, m->dim = dim, m->nrec = nrec;
    m->score = malloc((size_t)nrec * sizeof *m->score);
    m->d1 = malloc((size_t)nrec * sizeof *m->d1);
    m->d2 = malloc((size_t)nrec * sizeof *m->d2);
    if (!m->score || !m->d1 || !m->d2) goto oom;
    {
        /* the scores from the matrix, row norms and dot products in the kernel's order */
        uint32_t r = 0;
        for (uint32_t i = 0; i < ndoc; i++)
            for (uint32_t j = i + 1; j < ndoc; j++) m->d1[r] = i, m->d2[r] = j, m->score[r++] = mw_wl_ss_score(seed, dim, i, j);
    }
    /* bitonicSortGPU: R = 2^level >= rLen, at least one 256-thread block; one launch per (k, j) */
    m->R = 256;
    uint32_t levels = 8;
    while (m->R < nrec) m->R *= 2, levels++;
    m->nstage = levels * (levels + 1) / 2;
    m->sk = malloc(m->nstage * sizeof *m->sk);
    m->sj = malloc(m->nstage * sizeof *m->sj);
    m->cur = malloc((size_t)m->R * sizeof *m->cur);
    m->bflag = calloc(nrec, 1);
    m->bsum = calloc(nrec, sizeof *m->bsum);
    if (!m->sk || !m->sj || !m->cur || !m->bflag || !m->bsum) goto oom;
    {
        uint32_t s = 0;
        for (uint32_t k = 2; k <= m->R; k *= 2)
            for (uint32_t j = k / 2; j > 0; j /= 2) m->sk[s] = k, m->sj[s] = j, s++;
    }
    /* the sorted output (d_R's last rLen entries) and its key boundaries */
    stage_reset(m, m->cur);
    for (uint32_t s = 0; s < m->nstage; s++) stage_apply(m, m->cur, s);
    {
        const int32_t *S = m->cur + (m->R - nrec);
        uint32_t g = 0;
        for (uint32_t i = 0; i < nrec; i++) {
            m->bflag[i] = i == 0 || ss_cmp(m, S[i], S[i - 1]) != 0;
            m->bsum[i] = g;
            g += m->bflag[i];
        }
        m->ngroups = g;
    }
    stage_reset(m, m->cur);
    m->cstage = 0;
    /* device memory in cudaMalloc order: the matrix (main.cu), then MapReduce's arrays */
    uint32_t grid = (nrec + BLK - 1) / BLK;
    m->threads = grid * BLK;
    uint64_t a = 0x10000000ull;
#define ALLOC(f, bytes) (m->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(matrix, (uint64_t)ndoc * dim * 4);
    ALLOC(in_keys, (uint64_t)nrec * KEYSZ);
    ALLOC(in_vals, (uint64_t)nrec * VALSZ);
    ALLOC(in_os, (uint64_t)nrec * 16);
    ALLOC(cnt_k, m->threads * 4ull);
    ALLOC(cnt_v, m->threads * 4ull);
    ALLOC(cnt_c, m->threads * 4ull);
    ALLOC(ps_k, m->threads * 4ull);
    ALLOC(ps_v, m->threads * 4ull);
    ALLOC(ps_c, m->threads * 4ull);
    ALLOC(ikeys, (uint64_t)nrec * 4);
    ALLOC(ivals, (uint64_t)nrec * 8);
    ALLOC(ios, (uint64_t)nrec * 16);
    ALLOC(kvo, m->threads * 8ull);
    ALLOC(curi, m->threads * 4ull);
    ALLOC(okeys, (uint64_t)nrec * 4);
    ALLOC(ovals, (uint64_t)nrec * 8);
    ALLOC(oos, (uint64_t)nrec * 16);
    ALLOC(dR, (uint64_t)m->R * 16);
    ALLOC(start, (uint64_t)nrec * 4);
    ALLOC(startsum, (uint64_t)nrec * 4);
    ALLOC(bound, (uint64_t)m->ngroups * 4);
    ALLOC(range, (uint64_t)m->ngroups * 8);
    ALLOC(sums, 4096 * 4);
#undef ALLOC
    /* the launch sequence */
    uint32_t capl = 32 + m->nstage;
    o->ls = calloc(capl, sizeof *o->ls);
    if (!o->ls) goto oom;
    uint32_t n = 0;
    struct sl *L;
    /* the chunked helpers launch 512 blocks of 512 threads a chunk; tiny and small only the blocks holding
     * elements, so that unit tests stay small (as mars.iix) */
#define CHUNK_GRID(cnt, st) (sz <= MW_SIZE_SMALL ? ((cnt) - (st) < CH ? ((cnt) - (st) + 511) / 512 : 512) : 512)
    if (!add(&p, o, &n, capl, "MapperCount", OPS(mc_ops), grid, 28, 0, BLK)) goto oom;
    if (add_scan(&p, o, &n, capl, m->threads, m->cnt_k, m->ps_k) ||
        add_scan(&p, o, &n, capl, m->threads, m->cnt_v, m->ps_v) ||
        add_scan(&p, o, &n, capl, m->threads, m->cnt_c, m->ps_c))
        goto oom;
    if (!add(&p, o, &n, capl, "Mapper", OPS(mp_ops), grid, 32, BLK * SLOT, BLK)) goto oom;
    for (uint32_t st = 0; st < m->R; st += CH) {
        if (!(L = add(&p, o, &n, capl, "initialize_kernel", OPS(init_ops), CHUNK_GRID(m->R, st), 8, 0, 512))) goto oom;
        L->n = m->R, L->start = st;
    }
    for (uint32_t s = 0; s < m->nstage; s++) {
        if (!(L = add(&p, o, &n, capl, "bitonicKernel", OPS(bt_ops), m->R / 256, 20, 0, 256))) goto oom;
        L->k = m->sk[s], L->j = m->sj[s], L->stage = s;
    }
    for (uint32_t st = 0; st < nrec; st += CH) {
        if (!(L = add(&p, o, &n, capl, "getChunkBoundary_kernel", OPS(gb_ops), CHUNK_GRID(nrec, st), 20, 0, 512)))
            goto oom;
        L->n = nrec, L->start = st;
    }
    if (add_scan(&p, o, &n, capl, nrec, m->start, m->startsum)) goto oom;
    for (uint32_t st = 0; st < nrec; st += CH) {
        if (!(L = add(&p, o, &n, capl, "writeBoundary_kernel", OPS(wb_ops), CHUNK_GRID(nrec, st), 10, 0, 512)))
            goto oom;
        L->n = nrec, L->start = st;
    }
    for (uint32_t st = 0; st < m->ngroups; st += CH) {
        if (!(L = add(&p, o, &n, capl, "setBoundaryInt2_kernel", OPS(sb_ops), CHUNK_GRID(m->ngroups, st), 10, 0,
                      512)))
            goto oom;
        L->n = m->ngroups, L->start = st;
    }
#undef CHUNK_GRID
    return mw_kgen_workload(w, "mars.ss", &p, e);
oom:
    free(p.kernels);
    owned_free(o);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
