/* Rodinia BACKPROP (cuda/backprop: bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda in backprop_cuda_kernel.cu):
 * one training step of a net with `in` inputs and 16 hidden units; grid (1, in/16) of 16x16 blocks, the forward
 * kernel summing a 16x16 weight tile by a shared-memory tree over threadIdx.y, the host then launching the weight
 * adjustment. Registers per thread are estimates of the sm_20 compile (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define H 16   /* HEIGHT = WIDTH */
#define HID 16 /* hidden units, fixed by facetrain.c */

struct bp {
    struct mw_kl_hdr h;
    uint64_t input, output_hidden, input_hidden, partial, hidden_delta, prev_weights;
};

#define TX ((int64_t)t->tid[0])
#define TY ((int64_t)t->tid[1])
#define BY ((int64_t)t->ctaid[1])
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
#define INDEX ((HID + 1) * H * BY + (HID + 1) * TY + TX + 1 + (HID + 1))
#define SH_NODE(i) ((uint64_t)(i)*4u)                  /* input_node[HEIGHT] */
#define SH_W(y, x) (H * 4u + (uint64_t)((y)*H + (x)) * 4u) /* weight_matrix[HEIGHT][WIDTH] */
#define POW2 (2ll << lc[0])                           /* power_two = 2^i, i = 1 + loop counter */

/* ---- bpnn_layerforward_CUDA ---- */
MW_KL_PRED(p_tx0, struct bp, TX == 0)
MW_KL_ADDR(a_in, struct bp, F4(P->input, H * BY + TY + 1))
MW_KL_ADDR(a_w, struct bp, F4(P->input_hidden, INDEX))
MW_KL_ADDR(a_psum, struct bp, F4(P->partial, BY * HID + TY))
MW_KL_ADDR(s_node, struct bp, SH_NODE(TY))
MW_KL_ADDR(s_w, struct bp, SH_W(TY, TX))
MW_KL_ADDR(s_wt, struct bp, SH_W(TX, TY)) /* weight_matrix[tx][ty] */
MW_KL_PRED(p_red, struct bp, TY % POW2 == 0)
MW_KL_ADDR(s_wpart, struct bp, SH_W(TY + POW2 / 2, TX))

/* r1 tx, r2 ty, r3 by, r4 index, r5 shared [ty][tx] */
static const struct mw_kl_op fwd_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 0, 0),  KL_ALU(4, 3, 2),  KL_ALU(4, 4, 1),  KL_ALU(6, 3, 2),
    KL_ALU(5, 2, 1),  KL_ALU(7, 1, 0),
    KL_IF(p_tx0, 7),  KL_LDG(8, 6, a_in, NULL),          KL_STS(8, 2, s_node, NULL),           KL_END,
    KL_BAR,           KL_LDG(9, 4, a_w, NULL),           KL_STS(9, 5, s_w, NULL),              KL_BAR,
    KL_LDS(9, 5, s_w, NULL),            KL_LDS(8, 2, s_node, NULL),            KL_ALU(9, 9, 8),
    KL_STS(9, 5, s_w, NULL),            KL_BAR,
    /* for (i = 1; i <= __log2f(HEIGHT); i++) { power_two = __powf(2, i); if (ty % power_two == 0) ... } */
    KL_LOOPN(4, 10),  KL_ALU(11, 10, 0), KL_SFU(11, 11),  KL_SFU(11, 11),   KL_ALU(11, 11, 0), KL_ALU(12, 2, 11),
    KL_IF(p_red, 12), KL_ALU(13, 11, 5), KL_LDS(9, 5, s_w, NULL),               KL_LDS(14, 13, s_wpart, NULL),
    KL_ALU(9, 9, 14), KL_STS(9, 5, s_w, NULL),           KL_END,
    KL_BAR,           KL_ALU(10, 10, 0), KL_SFU(15, 0),   KL_ALU(15, 10, 15), KL_END,
    KL_LDS(9, 5, s_w, NULL),            KL_STG(9, 4, a_w, NULL),               KL_BAR,
    KL_IF(p_tx0, 7),  KL_ALU(16, 1, 2), KL_LDS(17, 16, s_wt, NULL),            KL_ALU(18, 3, 2),
    KL_STG(17, 18, a_psum, NULL),       KL_END,
};

/* ---- bpnn_adjust_weights_cuda: w[index] += ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
 * oldw[index] = the same sum, with delta, ly and oldw reloaded after the store to w (they may alias it) ---- */
MW_KL_ADDR(b_delta, struct bp, F4(P->hidden_delta, TX + 1))
MW_KL_ADDR(b_ly, struct bp, F4(P->input, H * BY + TY + 1))
MW_KL_ADDR(b_oldw, struct bp, F4(P->prev_weights, INDEX))
MW_KL_ADDR(b_w, struct bp, F4(P->input_hidden, INDEX))
MW_KL_ADDR(b_oldwx, struct bp, F4(P->prev_weights, TX + 1))
MW_KL_ADDR(b_wx, struct bp, F4(P->input_hidden, TX + 1))
MW_KL_PRED(p_first_row, struct bp, TY == 0 && BY == 0)

static const struct mw_kl_op adj_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 0, 0),  KL_ALU(4, 3, 2),  KL_ALU(4, 4, 1),  KL_ALU(5, 3, 2),
    KL_ALU(6, 1, 0),
    KL_LDG(7, 6, b_delta, NULL),        KL_LDG(8, 5, b_ly, NULL),              KL_LDG(9, 4, b_oldw, NULL),
    KL_SFU(10, 7),    KL_DP(10, 10, 0), KL_SFU(11, 8),    KL_DP(10, 10, 11), KL_SFU(12, 9),    KL_DP(10, 12, 10),
    KL_LDG(13, 4, b_w, NULL),           KL_SFU(14, 13),   KL_DP(14, 14, 10), KL_SFU(14, 14),
    KL_STG(14, 4, b_w, NULL),
    KL_LDG(7, 6, b_delta, NULL),        KL_LDG(8, 5, b_ly, NULL),              KL_LDG(9, 4, b_oldw, NULL),
    KL_SFU(10, 7),    KL_DP(10, 10, 0), KL_SFU(11, 8),    KL_DP(10, 10, 11), KL_SFU(12, 9),    KL_DP(10, 12, 10),
    KL_SFU(10, 10),   KL_STG(10, 4, b_oldw, NULL),
    KL_BAR,           KL_ALU(15, 2, 3),
    KL_IF(p_first_row, 15),
    KL_LDG(7, 6, b_delta, NULL),        KL_LDG(9, 6, b_oldwx, NULL),           KL_SFU(10, 7),    KL_DP(10, 10, 0),
    KL_SFU(12, 9),    KL_DP(10, 12, 10), KL_LDG(13, 6, b_wx, NULL),            KL_SFU(14, 13),   KL_DP(14, 14, 10),
    KL_SFU(14, 14),   KL_STG(14, 6, b_wx, NULL),
    KL_LDG(7, 6, b_delta, NULL),        KL_LDG(9, 6, b_oldwx, NULL),           KL_SFU(10, 7),    KL_DP(10, 10, 0),
    KL_SFU(12, 9),    KL_DP(10, 12, 10), KL_SFU(10, 10),  KL_STG(10, 6, b_oldwx, NULL),
    KL_END,
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_backprop(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* input units (Rodinia's usual run: backprop 65536) */
    static const int64_t inputs[4] = {256, 4096, 65536, 65536};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t in = inputs[sz], nb = in / 16;
    struct bp *d = calloc(2, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    /* device arrays in bpnn_train_cuda's cudaMalloc order */
    uint64_t a = 0x10000000ull;
#define ALLOC(f, bytes) (d[0].f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(input, (in + 1) * 4);
    ALLOC(output_hidden, (HID + 1) * 4);
    ALLOC(input_hidden, (in + 1) * (HID + 1) * 4);
    ALLOC(partial, nb * H * 4);
    ALLOC(hidden_delta, (HID + 1) * 4);
    ALLOC(prev_weights, (in + 1) * (HID + 1) * 4);
#undef ALLOC
    d[1] = d[0];
    d[0].h = (struct mw_kl_hdr){fwd_ops, (int)(sizeof fwd_ops / sizeof fwd_ops[0])};
    d[1].h = (struct mw_kl_hdr){adj_ops, (int)(sizeof adj_ops / sizeof adj_ops[0])};
    for (int i = 0; i < 2; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", i ? "bpnn_adjust_weights_cuda" : "bpnn_layerforward_CUDA");
        k->k.grid[0] = 1, k->k.grid[1] = (uint32_t)nb, k->k.grid[2] = 1;
        k->k.block[0] = H, k->k.block[1] = H, k->k.block[2] = 1;
        k->k.nregs = i ? 20 : 16;
        k->k.shmem = i ? 0 : (H + H * H) * 4;
        mw_kloop_kernel(k, &d[i].h);
    }
    return mw_kgen_workload(w, "rodinia.backprop", &p, e);
}
