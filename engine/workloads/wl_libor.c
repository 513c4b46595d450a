/* LIBOR Monte Carlo (Mike Giles; GPGPU-Sim's ISPASS-2009 benchmark LIB, libor.cu): Pathcalc_Portfolio_KernelGPU2
 * (forward path and portfolio value) then Pathcalc_Portfolio_KernelGPU (forward path storing every step in L2,
 * the portfolio's adjoint, the reverse path), 64 blocks of 64 threads, a path per thread. The per-thread arrays
 * (L, L2, z, B, S, B_b, S_b) are dynamically indexed, so they live in local memory: every access is an LDL/STL,
 * and local words are interleaved across threads as the hardware does (thread t's word w at
 * base + (w * threads + t) * 4, so a warp's same word is one 128 B line). lambda, maturities and swaprates are
 * __constant__ arrays. */
#include "kgen.h"
#include "wl_pml.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NOPT 15
#define LOCAL_BASE 0x40000000ull
/* __constant__ int N, Nmat, Nopt, maturities[NOPT]; float delta, swaprates[NOPT], lambda[NN] */
#define C_MAT 0x10ull
#define C_SWAP (C_MAT + 4 * NOPT + 4)
#define C_LAMBDA (C_SWAP + 4 * NOPT)

static const int maturities[NOPT] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
static const float swaprates[NOPT] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                      .055f, .045f, .05f, .055f, .045f, .05f, .055f};

/* One instruction of a thread's (warp-uniform) dynamic stream. */
enum { K_NONE, K_LOCAL, K_CONST, K_DV, K_DLB };
struct lop {
    uint32_t pc;       /* the site's key while building (AT, INLINE), then its place in the kernel's code */
    uint8_t op, kind;
    uint8_t ndst, nsrc;
    uint8_t dst, s0, s1;
    uint32_t arg;      /* K_LOCAL: word offset in the frame; K_CONST: byte address */
};
struct lstream {
    struct lop *v;
    size_t n, cap;
    uint32_t part;     /* the code part being built (see INLINE) */
    uint32_t ninsts;   /* distinct sites: the kernel's code size */
    bool oom;
};
struct lib {
    int N, Nmat;
    uint32_t threads;          /* grid threads: the stride between a thread's consecutive local words */
    uint64_t dv, dlb;          /* d_v, d_Lb */
    bool taken[NOPT];          /* swapval < 0 for option i (uniform: every path starts from the same L, z) */
    struct lstream k2, k1;     /* KernelGPU2, KernelGPU */
    struct lkern {
        const struct lib *m;
        const struct lstream *st;
    } kd[2];
};

static void push(struct lstream *s, int line, uint8_t op, uint8_t kind, uint32_t arg, int d, int a, int b)
{
    if (s->oom) return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        struct lop *v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            s->oom = true;
            return;
        }
        s->v = v, s->cap = cap;
    }
    struct lop *o = &s->v[s->n++];
    o->pc = s->part << 20 | (uint32_t)line, o->op = op, o->kind = kind, o->arg = arg;
    bool st = op == MW_OP_ST_LOCAL || op == MW_OP_ST_GLOBAL;
    o->ndst = (op == MW_OP_BRANCH || st) ? 0 : 1;
    o->dst = (uint8_t)d, o->s0 = (uint8_t)a, o->s1 = (uint8_t)b;
    o->nsrc = st ? 2 : op == MW_OP_BRANCH ? 1 : 2;
    if (st) o->s0 = (uint8_t)a, o->s1 = (uint8_t)b; /* address, value */
}
/* Emitters: each call site is one static instruction, keyed by its code part, line and place in a composite
 * (line * 8 + place); the kernel's code lays the sites out in key order (layout), which is source order within a
 * function. */
#define AT(k) (__LINE__ * 8 + (k))
/* The device functions are inlined: the code of a call follows its caller's code before the call, and the
 * caller's code after the call follows it. Each function is called once per kernel. */
#define INLINE(call) (s->part++, (call), s->part++)
#define ALU_(k, d, a, b) push(s, AT(k), MW_OP_ALU, K_NONE, 0, d, a, b)
#define SFU_(k, d, a) push(s, AT(k), MW_OP_SFU, K_NONE, 0, d, a, 0)
#define DP_(k, d, a, b) push(s, AT(k), MW_OP_DP, K_NONE, 0, d, a, b)
#define ALU(d, a, b) ALU_(0, d, a, b)
#define SFU(d, a) SFU_(0, d, a)
#define DP(d, a, b) DP_(0, d, a, b)
#define CVT(d, a) SFU(d, a) /* F2F between float and double */
#define BRA(a) push(s, AT(0), MW_OP_BRANCH, K_NONE, 0, 0, a, 0)
#define LDL(d, w, a) push(s, AT(0), MW_OP_LD_LOCAL, K_LOCAL, (uint32_t)(w), d, a, 0)
#define STL(w, a, v) push(s, AT(0), MW_OP_ST_LOCAL, K_LOCAL, (uint32_t)(w), 0, a, v)
#define LDC(d, addr, a) push(s, AT(0), MW_OP_LD_CONST, K_CONST, (uint32_t)(addr), d, a, 0)
#define STG(kind, a, v) push(s, AT(0), MW_OP_ST_GLOBAL, kind, 0, 0, a, v)
#define FDIV(d, a, b) (SFU_(1, d, b), ALU_(2, d, a, d)) /* __fdividef: reciprocal, multiply */
#define EXPF(d, a) (ALU_(1, d, a, 0), SFU_(2, d, d))    /* __expf: scale by log2 e, EX2 */
/* The source writes 1.0 and 0.5 (double literals): 1.0 + delta * x is computed in double and a / (1.0 + ...)
 * is a double division (reciprocal and Newton steps in double), rounded back to float. */
#define ONE_PLUS(d, x) (ALU_(1, d, x, 0), SFU_(2, d, d), DP_(3, d, d, 0))
#define DDIV(d, a, b)                                                                                        \
    (SFU_(1, d, a), SFU_(2, 24, b), DP_(3, 24, 24, b), DP_(4, 24, 24, 24), DP_(5, d, d, 24), DP_(6, d, d, b),   \
     SFU_(7, d, d))

/* Registers: r1 tid/path, r2 address, r3 i, r4 n, r5 v, r6 sqez, r7 lam, r8 con1, r9 L[i], r10-r15 temporaries,
 * r16 b, r17 s, r18 portfolio v, r19 v1, r20 faci, r21 L2 values, r22 L_b[i], r23 sqrt(delta). */

/* Frames (word offsets). KernelGPU2: L[NN], z[NN], portfolio's B[40], S[40]. KernelGPU: L[NN] (= L_b),
 * L2[NN * (NMAT + 1)], z[NN], portfolio_b's B, S, B_b, S_b[N - NMAT]. */
struct frame {
    uint32_t L, z, L2, B, S, Bb, Sb;
};

static void init_paths(struct lstream *s, const struct lib *m, const struct frame *f)
{
    for (int i = 0; i < m->N; i++) { /* z[i] = 0.3; L[i] = 0.05 */
        ALU(2, 3, 0);
        STL(f->z + i, 2, 10);
        STL(f->L + i, 2, 11);
        ALU(3, 3, 0);
        BRA(3);
    }
}

/* path_calc / path_calc_b1 (store = L2 kept for the reverse sweep) */
static void path_fwd(struct lstream *s, const struct lib *m, const struct frame *f, bool store)
{
    if (store)
        for (int i = 0; i < m->N; i++) { /* L2[i] = L[i] */
            LDL(9, f->L + i, 2);
            STL(f->L2 + i, 2, 9);
            ALU(3, 3, 0);
            BRA(3);
        }
    SFU(23, 0); /* sqrtf(delta), hoisted */
    for (int n = 0; n < m->Nmat; n++) {
        LDL(6, f->z + n, 2);
        ALU(6, 23, 6); /* sqez */
        CVT(6, 6);
        ALU(5, 0, 0);  /* v = 0 */
        ALU(3, 4, 0);  /* i = n + 1 */
        for (int i = n + 1; i < m->N; i++) {
            ALU(10, 3, 4); /* i - n - 1 */
            LDC(7, C_LAMBDA + 4u * (uint32_t)(i - n - 1), 10);
            ALU(8, 7, 0); /* con1 = delta * lam */
            LDL(9, f->L + i, 2);
            ONE_PLUS(11, 9); /* 1.0 + delta * L[i] */
            CVT(11, 11);
            ALU(12, 8, 9); /* con1 * L[i] */
            FDIV(13, 12, 11);
            ALU(5, 5, 13); /* v += */
            CVT(14, 8);
            DP(14, 6, 14); /* sqez - 0.5 * con1 */
            CVT(15, 7);
            DP(14, 15, 14); /* lam * (...) */
            ALU(15, 8, 5);
            CVT(15, 15);
            DP(14, 15, 14); /* con1 * v + ... */
            CVT(14, 14);
            EXPF(15, 14);
            ALU(9, 9, 15); /* L[i] *= vrat */
            STL(f->L + i, 2, 9);
            if (store) {
                ALU(10, 3, 4); /* i + (n + 1) * N */
                STL(f->L2 + (uint32_t)(i + (n + 1) * m->N), 10, 9);
            }
            ALU(3, 3, 0);
            BRA(3);
        }
        ALU(4, 4, 0);
        BRA(4);
    }
}

/* portfolio(L): the value only */
static void portfolio(struct lstream *s, const struct lib *m, const struct frame *f)
{
    ALU(16, 0, 0);
    ALU(17, 0, 0);
    for (int n = m->Nmat; n < m->N; n++) {
        LDL(9, f->L + n, 2);
        ONE_PLUS(10, 9);
        DDIV(16, 16, 10); /* b = b / (1.0 + delta * L[n]) */
        ALU(17, 16, 17);  /* s += delta * b */
        STL(f->B + (n - m->Nmat), 2, 16);
        STL(f->S + (n - m->Nmat), 2, 17);
        ALU(4, 4, 0);
        BRA(4);
    }
    ALU(18, 0, 0);
    for (int i = 0; i < NOPT; i++) {
        LDC(10, C_MAT + 4u * (uint32_t)i, 3);
        ALU(10, 10, 0);
        LDL(11, f->B + (uint32_t)(maturities[i] - 1), 10);
        LDL(12, f->S + (uint32_t)(maturities[i] - 1), 10);
        LDC(13, C_SWAP + 4u * (uint32_t)i, 3);
        ALU(14, 13, 12);
        ALU(14, 14, 11);
        CVT(14, 14);
        DP(14, 14, 0); /* swapval = B[m] + swaprates[i] * S[m] - 1.0 */
        CVT(14, 14);
        BRA(14);
        if (m->taken[i]) { /* v += -100.0 * swapval */
            CVT(15, 18);
            CVT(14, 14);
            DP(15, 14, 15);
            CVT(18, 15);
        }
        ALU(3, 3, 0);
        BRA(3);
    }
    ALU(16, 0, 0);
    for (int n = 0; n < m->Nmat; n++) {
        LDL(9, f->L + n, 2);
        ONE_PLUS(10, 9);
        DDIV(16, 16, 10);
        BRA(4);
    }
    ALU(18, 16, 18);
}

/* portfolio_b(L, L_b), L_b aliasing L */
static void portfolio_b(struct lstream *s, const struct lib *m, const struct frame *f)
{
    int M = m->N - m->Nmat;
    ALU(16, 0, 0);
    ALU(17, 0, 0);
    for (int mm = 0; mm < M; mm++) {
        LDL(9, f->L + (mm + m->Nmat), 2);
        ONE_PLUS(10, 9);
        CVT(10, 10);
        FDIV(16, 16, 10); /* b = __fdividef(b, 1.0 + delta * L[n]) */
        ALU(17, 16, 17);
        STL(f->B + mm, 2, 16);
        STL(f->S + mm, 2, 17);
        ALU(4, 4, 0);
        BRA(4);
    }
    ALU(18, 0, 0);
    for (int mm = 0; mm < M; mm++) {
        STL(f->Bb + mm, 2, 0);
        STL(f->Sb + mm, 2, 0);
        ALU(4, 4, 0);
        BRA(4);
    }
    for (int n = 0; n < NOPT; n++) {
        uint32_t mi = (uint32_t)(maturities[n] - 1);
        LDC(10, C_MAT + 4u * (uint32_t)n, 3);
        ALU(10, 10, 0);
        LDL(11, f->B + mi, 10);
        LDC(13, C_SWAP + 4u * (uint32_t)n, 3);
        LDL(12, f->S + mi, 10);
        ALU(14, 13, 12);
        ALU(14, 14, 11);
        CVT(14, 14);
        DP(14, 14, 0);
        CVT(14, 14);
        BRA(14);
        if (m->taken[n]) {
            ALU(18, 18, 14);
            LDL(15, f->Sb + mi, 10);
            ALU(15, 15, 13);
            STL(f->Sb + mi, 10, 15);
            LDL(15, f->Bb + mi, 10);
            ALU(15, 15, 0);
            STL(f->Bb + mi, 10, 15);
        }
        ALU(3, 3, 0);
        BRA(3);
    }
    for (int mm = M - 1; mm >= 0; mm--) {
        uint32_t n = (uint32_t)(mm + m->Nmat);
        LDL(11, f->Bb + (uint32_t)mm, 2);
        LDL(12, f->Sb + (uint32_t)mm, 2);
        ALU(11, 12, 11); /* B_b[m] += delta * S_b[m] */
        STL(f->Bb + (uint32_t)mm, 2, 11);
        LDL(13, f->B + (uint32_t)mm, 2);
        LDL(9, f->L + n, 2);
        ONE_PLUS(10, 9);
        CVT(10, 10);
        FDIV(14, 0, 10);
        ALU(15, 11, 13);
        ALU(15, 15, 14);
        STL(f->L + n, 2, 15); /* L_b[n] */
        BRA(4);
        if (mm > 0) {
            LDL(14, f->Sb + (uint32_t)(mm - 1), 2);
            ALU(14, 14, 12);
            STL(f->Sb + (uint32_t)(mm - 1), 2, 14);
            LDL(14, f->Bb + (uint32_t)(mm - 1), 2);
            FDIV(15, 11, 10);
            ALU(14, 14, 15);
            STL(f->Bb + (uint32_t)(mm - 1), 2, 14);
        }
        ALU(4, 4, 0);
        BRA(4);
    }
    ALU(16, 0, 0);
    for (int n = 0; n < m->Nmat; n++) { /* apply discount */
        LDL(9, f->L + (uint32_t)n, 2);
        ONE_PLUS(10, 9);
        DDIV(16, 16, 10);
        BRA(4);
    }
    ALU(18, 16, 18);
    for (int n = 0; n < m->Nmat; n++) { /* L_b[n] = -v * delta / (1 + delta * L[n]) */
        LDL(9, f->L + (uint32_t)n, 2);
        ONE_PLUS(10, 9);
        ALU(11, 18, 0);
        DDIV(12, 11, 10);
        STL(f->L + (uint32_t)n, 2, 12);
        BRA(4);
    }
    for (int n = m->Nmat; n < m->N; n++) { /* L_b[n] = b * L_b[n] */
        LDL(9, f->L + (uint32_t)n, 2);
        ALU(9, 16, 9);
        STL(f->L + (uint32_t)n, 2, 9);
        BRA(4);
    }
}

/* path_calc_b2(L_b, z, L2) */
static void path_rev(struct lstream *s, const struct lib *m, const struct frame *f)
{
    for (int n = m->Nmat - 1; n >= 0; n--) {
        ALU(19, 0, 0);
        for (int i = m->N - 1; i > n; i--) {
            ALU(10, 3, 4);
            LDC(7, C_LAMBDA + 4u * (uint32_t)(i - n - 1), 10);
            ALU(2, 3, 4); /* i + (n + 1) * N */
            LDL(21, f->L2 + (uint32_t)(i + (n + 1) * m->N), 2);
            LDL(22, f->L + (uint32_t)i, 3);
            ALU(11, 7, 21);
            ALU(19, 11, 22); /* v1 += lambda * L2 * L_b */
            ALU(2, 3, 4);    /* i + n * N */
            LDL(12, f->L2 + (uint32_t)(i + n * m->N), 2);
            ONE_PLUS(13, 12);
            CVT(13, 13);
            FDIV(20, 0, 13); /* faci = __fdividef(delta, 1.0 + delta * L2[i + n * N]) */
            FDIV(14, 21, 12);
            ALU(22, 22, 14);
            ALU(15, 19, 7);
            ALU(15, 15, 20);
            ALU(22, 15, 20);
            STL(f->L + (uint32_t)i, 3, 22);
            ALU(3, 3, 0);
            BRA(3);
        }
        ALU(4, 4, 0);
        BRA(4);
    }
}

static void build_k2(struct lib *m)
{
    struct lstream *s = &m->k2;
    struct frame f = {.L = 0, .z = (uint32_t)m->N};
    f.B = 2u * (uint32_t)m->N, f.S = f.B + 40;
    ALU(1, 0, 0); /* path = tid; path < NPATH */
    ALU(1, 1, 0);
    ALU(3, 1, 0);
    BRA(3);
    INLINE(init_paths(s, m, &f));
    INLINE(path_fwd(s, m, &f, false));
    INLINE(portfolio(s, m, &f));
    ALU(2, 1, 0);
    STG(K_DV, 2, 18); /* d_v[path] = portfolio(L) */
    ALU(1, 1, 0); /* path += threadN */
    ALU(3, 1, 0);
    BRA(3);
}

static void build_k1(struct lib *m)
{
    struct lstream *s = &m->k1;
    uint32_t N = (uint32_t)m->N, M = (uint32_t)(m->N - m->Nmat);
    struct frame f = {.L = 0, .L2 = N};
    f.z = f.L2 + N * (uint32_t)(m->Nmat + 1), f.B = f.z + N, f.S = f.B + M, f.Bb = f.S + M, f.Sb = f.Bb + M;
    ALU(1, 0, 0);
    ALU(1, 1, 0);
    ALU(3, 1, 0);
    BRA(3);
    INLINE(init_paths(s, m, &f));
    INLINE(path_fwd(s, m, &f, true));
    INLINE(portfolio_b(s, m, &f));
    ALU(2, 1, 0);
    STG(K_DV, 2, 18); /* d_v[path] = portfolio_b(L, L_b) */
    INLINE(path_rev(s, m, &f));
    LDL(9, f.L + N - 1, 2);
    ALU(2, 1, 0);
    STG(K_DLB, 2, 9); /* d_Lb[path] = L_b[NN - 1] */
    ALU(1, 1, 0);
    ALU(3, 1, 0);
    BRA(3);
}

static int key_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Lay the stream's sites out densely in key order: each instruction's pc becomes its site's index. */
static void layout(struct lstream *s)
{
    if (s->oom || !s->n) return;
    uint32_t *keys = malloc(s->n * sizeof *keys);
    if (!keys) {
        s->oom = true;
        return;
    }
    for (size_t i = 0; i < s->n; i++) keys[i] = s->v[i].pc;
    qsort(keys, s->n, sizeof *keys, key_cmp);
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!n || keys[i] != keys[n - 1]) keys[n++] = keys[i];
    for (size_t i = 0; i < s->n; i++)
        s->v[i].pc = (uint32_t)((uint32_t *)bsearch(&s->v[i].pc, keys, n, sizeof *keys, key_cmp) - keys);
    s->ninsts = (uint32_t)n;
    free(keys);
}

/* The swaption test swapval < 0 of each option, from the forward path every thread computes (z = 0.3,
 * L = 0.05, lambda = 0.2, delta = 0.25). */
void mw_wl_libor_taken(int N, int Nmat, bool taken[NOPT])
{
    float L[128], B[128], S[128], delta = 0.25f, lam = 0.2f;
    for (int i = 0; i < N; i++) L[i] = 0.05f;
    for (int n = 0; n < Nmat; n++) {
        float sqez = sqrtf(delta) * 0.3f, v = 0, con1 = delta * lam;
        for (int i = n + 1; i < N; i++) {
            v += con1 * L[i] / (1.0f + delta * L[i]);
            L[i] = L[i] * expf(con1 * v + lam * (sqez - 0.5f * con1));
        }
    }
    float b = 1, s = 0;
    for (int n = Nmat; n < N; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - Nmat] = b, S[n - Nmat] = s;
    }
    for (int i = 0; i < NOPT; i++) taken[i] = B[maturities[i] - 1] + swaprates[i] * S[maturities[i] - 1] - 1.0f < 0;
}

struct lwarp {
    size_t i;
};
static int gen(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
               struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct lib *m = ((const struct lkern *)k->data)->m;
    const struct lstream *st = ((const struct lkern *)k->data)->st;
    struct lwarp *w = scratch;
    if (w->i >= st->n) return 0;
    const struct lop *p = &st->v[w->i++];
    pml_inst(o, (uint64_t)p->pc * 16, p->op, mask);
    o->ndst = p->ndst, o->nsrc = p->nsrc;
    o->dst[0] = p->dst, o->src[0] = p->s0, o->src[1] = p->s1;
    if (p->kind == K_LOCAL || p->kind == K_DV || p->kind == K_DLB) o->width = 4; /* LDC: no width, as traces have it */
    switch (p->kind) {
    case K_LOCAL:
        PML_LANES(mask, l) o->addr[l] = LOCAL_BASE + ((uint64_t)p->arg * m->threads + t0->gtid + (uint64_t)l) * 4;
        break;
    case K_CONST: PML_LANES(mask, l) o->addr[l] = p->arg; break;
    case K_DV: PML_LANES(mask, l) o->addr[l] = m->dv + (t0->gtid + (uint64_t)l) * 4; break;
    case K_DLB: PML_LANES(mask, l) o->addr[l] = m->dlb + (t0->gtid + (uint64_t)l) * 4; break;
    default: break;
    }
    return 1;
}

static void lib_free(void *p)
{
    struct lib *m = p;
    if (!m) return;
    free(m->k1.v), free(m->k2.v), free(m);
}

int mw_wl_libor(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed; /* the benchmark's paths are deterministic (z = 0.3 for every step) */
    /* NN, NMAT, GRID_SIZE; N - NMAT stays 40 (the portfolio's maturities reach 40). paper: libor.cu's 80, 40, 64 */
    static const int nn[4] = {44, 46, 50, 80}, nmat[4] = {4, 6, 10, 40};
    static const uint32_t grids[4] = {1, 16, 64, 64};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct lib *m = calloc(1, sizeof *m);
    if (!m) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    m->N = nn[sz], m->Nmat = nmat[sz];
    m->threads = grids[sz] * 64; /* NPATH = BLOCK_SIZE * GRID_SIZE: one path per thread */
    m->dv = 0x10000000ull, m->dlb = m->dv + (((uint64_t)m->threads * 4 + 255) & ~255ull);
    mw_wl_libor_taken(m->N, m->Nmat, m->taken);
    build_k2(m);
    build_k1(m);
    layout(&m->k2);
    layout(&m->k1);
    struct mw_kgen_program p = {.owned = m, .free_owned = lib_free};
    if (m->k1.oom || m->k2.oom) goto oom;
    for (int i = 0; i < 2; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        snprintf(k->k.name, sizeof k->k.name, "%s", i ? "Pathcalc_Portfolio_KernelGPU" : "Pathcalc_Portfolio_KernelGPU2");
        k->k.grid[0] = grids[sz], k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = 64, k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = i ? 32 : 28; /* estimates for sm_20 */
        m->kd[i] = (struct lkern){m, i ? &m->k1 : &m->k2};
        k->data = &m->kd[i];
        k->custom = gen;
        k->ninsts = m->kd[i].st->ninsts;
        k->scratch_bytes = sizeof(struct lwarp);
    }
    return mw_kgen_workload(w, "libor.libor", &p, e);
oom:
    free(p.kernels);
    lib_free(m);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
