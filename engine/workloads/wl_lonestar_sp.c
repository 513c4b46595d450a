/* LonestarGPU 2.0 survey propagation (apps/sp: sp.cu) on a seeded random 3-SAT formula: the factor graph is
 * clauses (CSR of their edges), variables (CSR of their edges) and one edge per literal (src clause, dst
 * variable, bar = negated, eta, pi_0, pi_S, pi_U, structure of arrays). The host loop:
 *   while (converge()) { update_bias; [cub radix sort of the bias list]; if paramagnetic: stop; decimate_2 }
 *   converge(): do { calc_pi_values; update_eta } while (max_eps > 0.01 && i++ < 1000)
 * Every kernel is a grid-stride loop over edges (calc_pi_values, update_eta) or variables (update_bias,
 * decimate_2) with 384-thread CTAs and nSM x residency CTAs (15 x 3: 384 threads of about 24 registers fit three
 * times in the GTX480's 32 K registers; the registers are an estimate). Each edge thread walks the whole edge
 * list of its variable (calc_pi_values) or clause (update_eta): the edges of one variable are spread over the
 * edge array, so threads on different SMs read the same variable's lists and etas at once.
 * The host runs the same float computation to know each launch's work: the number of converge iterations, the
 * decimated variables and satisfied clauses. Not modelled: cub's radix sort of the bias list (library kernels);
 * update_bias's atomicAdd slots are given in variable order; decimate_2 sees the clause flags as they were when it
 * started; update_eta's early exit on a zero sum is not taken (the host counts such sums: none on these inputs).
 * The number of decimation rounds simulated is capped per size (the whole solve is tens of rounds, each of tens of
 * converge iterations): tiny to default run one round (converge, update_bias, decimate_2), paper up to 100. At the
 * default size (4,000 variables, 16,800 clauses: 1.3 MB of graph arrays, past the L2) the whole first converge is
 * 54 M warp instructions, so its first 8 calc_pi_values/update_eta pairs are simulated, then update_bias and
 * decimate_2 of the converged state (the host still iterates to convergence). */
#include "wl_graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define SP_THREADS 384
#define SP_CTAS (15 * 3)
#define SP_NT ((uint64_t)SP_THREADS * SP_CTAS)
#define SP_K 3
#define SP_EPS 0.01f
#define SP_PARAMAGNET 0.01f

enum { K_PI, K_ETA, K_BIAS, K_DEC };

struct sp_launch {
    const struct sp *s;
    int kind;
    uint32_t round;     /* index of the sat bitmaps in force */
    uint8_t *nonzero;   /* update_eta: threads whose lmaxeps > 0 */
    uint32_t *list;     /* decimate_2: the variables it fixes; update_bias: unused */
    uint32_t nlist, len; /* decimate_2: variables fixed, the bias list's length */
    uint32_t *slot;      /* update_bias: each variable's place in the bias list */
    uint8_t *clsat_new; /* decimate_2: clauses it satisfies */
};

struct sp {
    uint32_t N, M, E;
    uint32_t *crow, *ccol, *vrow, *vcol, *src, *dst;
    uint8_t *bar;
    uint8_t **clsat, **vsat; /* per round */
    uint8_t **value;         /* per round: vars.value after update_bias */
    uint32_t nrounds;
    struct sp_launch *l;
    uint32_t nl, capl;
    uint32_t zero_sums;
    /* device */
    uint64_t max_eps, summag, c_row, c_col, c_sat, v_row, v_col, v_sat, v_bias, v_value, e_src, e_dst, e_bar, e_eta,
        e_pi0, e_pis, e_piu, blist, blist2, bvars, bvars2, blen;
};

static void sp_free(void *p)
{
    struct sp *s = p;
    if (!s) return;
    for (uint32_t r = 0; r < s->nrounds + 1; r++) {
        if (s->clsat) free(s->clsat[r]);
        if (s->vsat) free(s->vsat[r]);
        if (s->value) free(s->value[r]);
    }
    for (uint32_t i = 0; i < s->nl; i++)
        free(s->l[i].nonzero), free(s->l[i].list), free(s->l[i].clsat_new), free(s->l[i].slot);
    free(s->clsat), free(s->vsat), free(s->value), free(s->l);
    free(s->crow), free(s->ccol), free(s->vrow), free(s->vcol), free(s->src), free(s->dst), free(s->bar), free(s);
}

/* The formula of a seed: clause c's literal k is variable var, negated if *neg (distinct variables per clause). */
void mw_wl_sp_literal(uint64_t seed, uint32_t N, uint32_t c, int k, uint32_t *var, bool *neg)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + (uint64_t)c * 0x632be59bd9b4e019ull + 0x5350ull;
    uint32_t v[SP_K];
    for (int i = 0; i <= k; i++) {
        bool dup;
        do {
            v[i] = (uint32_t)(gr_splitmix(&z) % N);
            dup = false;
            for (int j = 0; j < i; j++) dup |= v[j] == v[i];
        } while (dup);
    }
    *var = v[k];
    *neg = gr_splitmix(&z) & 1u;
}

static struct sp_launch *push(struct sp *s, int kind, uint32_t round)
{
    if (s->nl == s->capl) {
        uint32_t c = s->capl ? 2 * s->capl : 64;
        struct sp_launch *n = realloc(s->l, c * sizeof *n);
        if (!n) return NULL;
        s->l = n, s->capl = c;
    }
    struct sp_launch *L = &s->l[s->nl++];
    memset(L, 0, sizeof *L);
    L->s = s, L->kind = kind, L->round = round;
    return L;
}

/* The solve, as the kernels compute it, up to `maxrounds` decimation rounds. */
static int sp_host(struct sp *s, uint64_t seed, uint32_t maxrounds, uint32_t maxconv)
{
    uint32_t N = s->N, M = s->M, E = s->E;
    float *eta = malloc(E * sizeof(float)), *pi0 = malloc(E * sizeof(float)), *pis = malloc(E * sizeof(float)),
          *piu = malloc(E * sizeof(float)), *bias = malloc(N * sizeof(float));
    uint32_t *order = malloc(N * sizeof(uint32_t));
    s->clsat = calloc(maxrounds + 1, sizeof *s->clsat), s->vsat = calloc(maxrounds + 1, sizeof *s->vsat);
    s->value = calloc(maxrounds + 1, sizeof *s->value);
    int rc = -1;
    if (!eta || !pi0 || !pis || !piu || !bias || !order || !s->clsat || !s->vsat || !s->value) goto out;
    uint64_t z = seed ^ 0x6574614574614574ull;
    for (uint32_t e = 0; e < E; e++) eta[e] = (float)(gr_splitmix(&z) >> 40) / (float)(1u << 24);
    s->clsat[0] = calloc(M, 1), s->vsat[0] = calloc(N, 1);
    if (!s->clsat[0] || !s->vsat[0]) goto out;
    uint32_t canfix = N / 100 ? N / 100 : 1;
    for (uint32_t r = 0; r < maxrounds; r++) {
        const uint8_t *cs = s->clsat[r], *vs = s->vsat[r];
        /* converge */
        float maxeps;
        uint32_t it = 0;
        do {
            bool emit = !maxconv || it < maxconv;
            if (emit && !push(s, K_PI, r)) goto out;
            for (uint32_t e = 0; e < E; e++) {
                uint32_t j = s->dst[e], a = s->src[e];
                if (cs[a] || vs[j]) continue;
                float p0 = 1, vsa = 1, vua = 1;
                for (uint32_t i = s->vrow[j]; i < s->vrow[j + 1]; i++) {
                    uint32_t eb = s->vcol[i], b = s->src[eb];
                    if (cs[b] || b == a) continue;
                    p0 *= 1 - eta[eb];
                    if (s->bar[eb] == s->bar[e]) vsa *= 1 - eta[eb];
                    else vua *= 1 - eta[eb];
                }
                pi0[e] = p0, piu[e] = (1 - vua) * vsa, pis[e] = (1 - vsa) * vua;
            }
            struct sp_launch *L = emit ? push(s, K_ETA, r) : NULL;
            if (emit && (!L || !(L->nonzero = calloc(SP_NT, 1)))) goto out;
            maxeps = 0;
            for (uint32_t e = 0; e < E; e++) {
                uint32_t a = s->src[e], i = s->dst[e];
                if (cs[a] || vs[i]) continue;
                float ne = 1;
                for (uint32_t q = s->crow[a]; q < s->crow[a + 1]; q++) {
                    uint32_t je = s->ccol[q], j = s->dst[je];
                    if (j == i || vs[j]) continue;
                    float sum = pi0[je] + pis[je] + piu[je];
                    if (sum == 0.0f) {
                        ne = 0, s->zero_sums++;
                        break;
                    }
                    ne *= piu[je] / sum;
                }
                float eps = fabsf(ne - eta[e]);
                if (eps > 0 && L) L->nonzero[e % SP_NT] = 1;
                if (eps > maxeps) maxeps = eps;
                eta[e] = ne;
            }
        } while (maxeps > SP_EPS && it++ < 1000);
        if (maxeps > SP_EPS) break; /* unconverged: the program exits */
        /* update_bias */
        struct sp_launch *B = push(s, K_BIAS, r);
        if (!B || !(B->slot = calloc(N, 4))) goto out;
        s->value[r] = calloc(N, 1);
        if (!s->value[r]) goto out;
        float summag = 0;
        uint32_t len = 0;
        for (uint32_t v = 0; v < N; v++) {
            if (vs[v]) continue;
            float p0 = 1, vm = 1, vp = 1;
            for (uint32_t i = s->vrow[v]; i < s->vrow[v + 1]; i++) {
                uint32_t ed = s->vcol[i];
                if (cs[s->src[ed]]) continue;
                p0 *= 1 - eta[ed];
                if (s->bar[ed]) vm *= 1 - eta[ed];
                else vp *= 1 - eta[ed];
            }
            float pp = (1 - vp) * vm, pm = (1 - vm) * vp, wp = 0, wm = 0;
            if (p0 + pp + pm != 0.0f) wp = pp / (p0 + pp + pm), wm = pm / (p0 + pp + pm);
            bias[v] = fabsf(wp - wm);
            s->value[r][v] = wp > wm;
            summag += wp > wm ? wp : wm;
            s->l[s->nl - 1].slot[v] = len;
            order[len++] = v;
        }
        if (!len || summag / (float)len < SP_PARAMAGNET) break;
        /* the sort leaves the largest biases last; decimate_2 fixes the last canfix (ties: higher variable last) */
        for (uint32_t a = 1; a < len; a++)
            for (uint32_t b = a; b > 0; b--) {
                uint32_t x = order[b - 1], y = order[b];
                if (bias[x] < bias[y] || (bias[x] == bias[y] && x < y)) break;
                order[b - 1] = y, order[b] = x;
            }
        uint32_t fix = canfix > len ? 1 : canfix;
        struct sp_launch *L = push(s, K_DEC, r);
        if (!L) goto out;
        L->list = malloc(fix * sizeof *L->list), L->clsat_new = calloc(M, 1);
        s->clsat[r + 1] = malloc(M), s->vsat[r + 1] = malloc(N);
        if (!L->list || !L->clsat_new || !s->clsat[r + 1] || !s->vsat[r + 1]) goto out;
        memcpy(s->clsat[r + 1], cs, M), memcpy(s->vsat[r + 1], vs, N);
        L->nlist = fix, L->len = len;
        for (uint32_t q = 0; q < fix; q++) {
            uint32_t v = L->list[q] = order[len - fix + q];
            s->vsat[r + 1][v] = 1;
            for (uint32_t i = s->vrow[v]; i < s->vrow[v + 1]; i++) {
                uint32_t ed = s->vcol[i], cl = s->src[ed];
                if (!cs[cl] && s->bar[ed] != s->value[r][v]) s->clsat[r + 1][cl] = 1, L->clsat_new[cl] = 1;
            }
        }
        s->nrounds = r + 1;
    }
    rc = 0;
out:
    free(eta), free(pi0), free(pis), free(piu), free(bias), free(order);
    return rc;
}

struct spw {
    int line;
    uint32_t a, b, c, d, act;
    int64_t k, it;
    uint64_t e[MW_WARP_SIZE], x[MW_WARP_SIZE], y[MW_WARP_SIZE];
};

#define PC(i) ((uint64_t)(i) * 16u)
/* one load of `width` bytes per lane of m from base + idx * width */
#define LDX(pc, m, width, d, a, base, IDX)                                                                   \
    do {                                                                                                     \
        gi_ld(o, PC(pc), m, width, d, a);                                                                    \
        FOR_LANES(m, l) o->addr[l] = (base) + (uint64_t)(IDX) * (width);                                     \
        CO_YIELD(w);                                                                                         \
    } while (0)
#define STX(pc, m, width, v, a, base, IDX)                                                                   \
    do {                                                                                                     \
        gi_st(o, PC(pc), m, width, a, v);                                                                    \
        FOR_LANES(m, l) o->addr[l] = (base) + (uint64_t)(IDX) * (width);                                     \
        CO_YIELD(w);                                                                                         \
    } while (0)
#define ALU(pc, m, d, s1, s2)                                                                                \
    do {                                                                                                     \
        gi_alu(o, PC(pc), m, d, s1, s2);                                                                     \
        CO_YIELD(w);                                                                                         \
    } while (0)
#define BR(pc, m, s1, s2)                                                                                    \
    do {                                                                                                     \
        gi_br(o, PC(pc), m, s1, s2);                                                                         \
        CO_YIELD(w);                                                                                         \
    } while (0)

/* calc_pi_values: for each edge e = a -> j with neither sat: over all edges b -> j of variable j: if b is not
 * satisfied and b != a, multiply (1 - eta) into pi_0 and V_s or V_u (same or other sign); store pi_0, pi_U, pi_S */
static int gen_pi(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                  struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct sp_launch *L = k->data;
    const struct sp *s = L->s;
    const uint8_t *cs = s->clsat[L->round], *vs = s->vsat[L->round];
    struct spw *w = scratch;
    CO_BEGIN(w);
    ALU(0, mask, 1, 0, 0);
    ALU(1, mask, 2, 0, 0);
    for (w->k = 0;; w->k++) {
        GR_WHERE(w->a, mask, l, (w->e[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * SP_NT) < s->E);
        BR(2, mask, 1, 2);
        if (!w->a) break;
        LDX(3, w->a, 4, 3, 1, s->e_dst, w->e[l]);
        LDX(4, w->a, 4, 4, 1, s->e_src, w->e[l]);
        LDX(5, w->a, 1, 5, 4, s->c_sat, s->src[w->e[l]]);
        GR_WHERE(w->b, w->a, l, !cs[s->src[w->e[l]]]);
        BR(6, w->a, 5, 0);
        if (w->b) LDX(7, w->b, 1, 6, 3, s->v_sat, s->dst[w->e[l]]);
        GR_WHERE(w->d, w->b, l, !vs[s->dst[w->e[l]]]);
        w->b = w->d;
        BR(8, w->a, 6, 0);
        if (w->b) {
            LDX(9, w->b, 4, 7, 3, s->v_row, s->dst[w->e[l]]);
            LDX(10, w->b, 4, 8, 3, s->v_row, s->dst[w->e[l]] + 1);
            ALU(11, w->b, 8, 8, 7);
            LDX(12, w->b, 1, 9, 1, s->e_bar, w->e[l]);
            FOR_LANES(w->b, l) w->x[l] = s->vrow[s->dst[w->e[l]]], w->y[l] = s->vrow[s->dst[w->e[l]] + 1];
            for (w->it = 0;; w->it++) {
                GR_WHERE(w->c, w->b, l, w->x[l] + (uint64_t)w->it < w->y[l]);
                BR(13, w->b, 10, 8);
                if (!w->c) break;
                LDX(14, w->c, 4, 11, 10, s->v_col, w->x[l] + (uint64_t)w->it);
                LDX(15, w->c, 4, 12, 11, s->e_src, s->vcol[w->x[l] + w->it]);
                LDX(16, w->c, 1, 13, 12, s->c_sat, s->src[s->vcol[w->x[l] + w->it]]);
                GR_WHERE(w->d, w->c, l, !cs[s->src[s->vcol[w->x[l] + w->it]]]);
                BR(17, w->c, 13, 0);
                GR_WHERE(w->act, w->d, l, s->src[s->vcol[w->x[l] + w->it]] != s->src[w->e[l]]);
                if (w->d) BR(18, w->d, 12, 4);
                if (w->act) {
                    LDX(19, w->act, 4, 14, 11, s->e_eta, s->vcol[w->x[l] + w->it]);
                    ALU(20, w->act, 14, 14, 0);
                    ALU(21, w->act, 15, 15, 14);
                    LDX(22, w->act, 1, 16, 11, s->e_bar, s->vcol[w->x[l] + w->it]);
                    BR(23, w->act, 16, 9);
                    ALU(24, w->act, 17, 17, 14);
                }
                ALU(25, w->c, 10, 10, 0);
            }
            ALU(26, w->b, 18, 17, 0);
            STX(27, w->b, 4, 15, 1, s->e_pi0, w->e[l]);
            ALU(28, w->b, 19, 18, 17);
            STX(29, w->b, 4, 19, 1, s->e_piu, w->e[l]);
            ALU(30, w->b, 20, 18, 17);
            STX(31, w->b, 4, 20, 1, s->e_pis, w->e[l]);
        }
        ALU(32, mask, 1, 1, 2);
    }
    CO_END(w);
}
enum { PI_INSTS = 33 };

/* update_eta: for each edge e = a -> i with neither sat: new_eta = product over the other unsat variables j of
 * clause a of pi_U / (pi_0 + pi_S + pi_U) of edge a -> j; eps = |new - eta|; eta = new; then atomicMax of the
 * thread's largest eps into *max_eps if it is not 0 */
static int gen_eta(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                   struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct sp_launch *L = k->data;
    const struct sp *s = L->s;
    const uint8_t *cs = s->clsat[L->round], *vs = s->vsat[L->round];
    struct spw *w = scratch;
    CO_BEGIN(w);
    ALU(0, mask, 1, 0, 0);
    ALU(1, mask, 2, 0, 0);
    ALU(2, mask, 3, 0, 0);
    for (w->k = 0;; w->k++) {
        GR_WHERE(w->a, mask, l, (w->e[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * SP_NT) < s->E);
        BR(3, mask, 1, 2);
        if (!w->a) break;
        LDX(4, w->a, 4, 4, 1, s->e_src, w->e[l]);
        LDX(5, w->a, 4, 5, 1, s->e_dst, w->e[l]);
        LDX(6, w->a, 1, 6, 4, s->c_sat, s->src[w->e[l]]);
        GR_WHERE(w->b, w->a, l, !cs[s->src[w->e[l]]]);
        BR(7, w->a, 6, 0);
        if (w->b) LDX(8, w->b, 1, 7, 5, s->v_sat, s->dst[w->e[l]]);
        GR_WHERE(w->d, w->b, l, !vs[s->dst[w->e[l]]]);
        w->b = w->d;
        BR(9, w->a, 7, 0);
        if (w->b) {
            LDX(10, w->b, 4, 8, 4, s->c_row, s->src[w->e[l]]);
            LDX(11, w->b, 4, 9, 4, s->c_row, s->src[w->e[l]] + 1);
            ALU(12, w->b, 9, 9, 8);
            ALU(13, w->b, 10, 0, 0);
            FOR_LANES(w->b, l) w->x[l] = s->crow[s->src[w->e[l]]], w->y[l] = s->crow[s->src[w->e[l]] + 1];
            for (w->it = 0;; w->it++) {
                GR_WHERE(w->c, w->b, l, w->x[l] + (uint64_t)w->it < w->y[l]);
                BR(14, w->b, 11, 9);
                if (!w->c) break;
                LDX(15, w->c, 4, 12, 8, s->c_col, w->x[l] + (uint64_t)w->it);
                LDX(16, w->c, 4, 13, 12, s->e_dst, s->ccol[w->x[l] + w->it]);
                GR_WHERE(w->d, w->c, l, s->dst[s->ccol[w->x[l] + w->it]] != s->dst[w->e[l]]);
                BR(17, w->c, 13, 5);
                if (w->d) LDX(18, w->d, 1, 14, 13, s->v_sat, s->dst[s->ccol[w->x[l] + w->it]]);
                GR_WHERE(w->act, w->d, l, !vs[s->dst[s->ccol[w->x[l] + w->it]]]);
                if (w->d) BR(19, w->d, 14, 0);
                if (w->act) {
                    LDX(20, w->act, 4, 15, 12, s->e_pi0, s->ccol[w->x[l] + w->it]);
                    LDX(21, w->act, 4, 16, 12, s->e_pis, s->ccol[w->x[l] + w->it]);
                    LDX(22, w->act, 4, 17, 12, s->e_piu, s->ccol[w->x[l] + w->it]);
                    ALU(23, w->act, 18, 15, 16);
                    ALU(24, w->act, 18, 18, 17);
                    BR(25, w->act, 18, 0);
                    gi_op(o, PC(26), MW_OP_SFU, w->act, 19, 18, 0); /* 1 / sum */
                    CO_YIELD(w);
                    ALU(27, w->act, 10, 10, 19);
                }
                ALU(28, w->c, 11, 11, 0);
            }
            LDX(29, w->b, 4, 20, 1, s->e_eta, w->e[l]);
            ALU(30, w->b, 21, 20, 10);
            ALU(31, w->b, 3, 3, 21);
            STX(32, w->b, 4, 10, 1, s->e_eta, w->e[l]);
        }
        ALU(33, mask, 1, 1, 2);
    }
    GR_WHERE(w->a, mask, l, L->nonzero[t0->gtid + (uint64_t)l]);
    BR(34, mask, 3, 0);
    if (w->a) {
        gi_atom(o, PC(35), w->a, 0, 0, 3);
        FOR_LANES(w->a, l) o->addr[l] = s->max_eps;
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { ETA_INSTS = 36 };

/* update_bias: for each unsat variable: products over its unsat clauses' edges, W+ and W-, bias and value
 * stores, ndx = atomicAdd(bias_len, 1), bias_list[ndx], bias_list_vars[ndx]; then a block sum of the magnitudes
 * (cub BlockReduce: per-warp shared-memory reduction, warp totals summed by thread 0) and atomicAdd(g_summag) */
static int gen_bias(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct sp_launch *L = k->data;
    const struct sp *s = L->s;
    const uint8_t *cs = s->clsat[L->round], *vs = s->vsat[L->round];
    struct spw *w = scratch;
    const uint32_t tid0 = t0->tid[0];
    CO_BEGIN(w);
    ALU(0, mask, 1, 0, 0);
    ALU(1, mask, 2, 0, 0);
    ALU(2, mask, 3, 0, 0);
    for (w->k = 0;; w->k++) {
        GR_WHERE(w->a, mask, l, (w->e[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * SP_NT) < s->N);
        BR(3, mask, 1, 2);
        if (!w->a) break;
        LDX(4, w->a, 1, 4, 1, s->v_sat, w->e[l]);
        GR_WHERE(w->b, w->a, l, !vs[w->e[l]]);
        BR(5, w->a, 4, 0);
        if (w->b) {
            LDX(6, w->b, 4, 5, 1, s->v_row, w->e[l]);
            LDX(7, w->b, 4, 6, 1, s->v_row, w->e[l] + 1);
            ALU(8, w->b, 6, 6, 5);
            ALU(9, w->b, 7, 0, 0);
            FOR_LANES(w->b, l) w->x[l] = s->vrow[w->e[l]], w->y[l] = s->vrow[w->e[l] + 1];
            for (w->it = 0;; w->it++) {
                GR_WHERE(w->c, w->b, l, w->x[l] + (uint64_t)w->it < w->y[l]);
                BR(10, w->b, 8, 6);
                if (!w->c) break;
                LDX(11, w->c, 4, 9, 5, s->v_col, w->x[l] + (uint64_t)w->it);
                LDX(12, w->c, 4, 10, 9, s->e_src, s->vcol[w->x[l] + w->it]);
                LDX(13, w->c, 1, 11, 10, s->c_sat, s->src[s->vcol[w->x[l] + w->it]]);
                GR_WHERE(w->d, w->c, l, !cs[s->src[s->vcol[w->x[l] + w->it]]]);
                BR(14, w->c, 11, 0);
                if (w->d) {
                    LDX(15, w->d, 4, 12, 9, s->e_eta, s->vcol[w->x[l] + w->it]);
                    ALU(16, w->d, 12, 12, 0);
                    ALU(17, w->d, 7, 7, 12);
                    LDX(18, w->d, 1, 13, 9, s->e_bar, s->vcol[w->x[l] + w->it]);
                    BR(19, w->d, 13, 0);
                    ALU(20, w->d, 14, 14, 12);
                }
                ALU(21, w->c, 8, 8, 0);
            }
            ALU(22, w->b, 15, 14, 7);
            ALU(23, w->b, 16, 14, 7);
            ALU(24, w->b, 17, 15, 16);
            BR(25, w->b, 17, 0);
            gi_op(o, PC(26), MW_OP_SFU, w->b, 18, 17, 0);
            CO_YIELD(w);
            ALU(27, w->b, 19, 15, 18);
            ALU(28, w->b, 20, 16, 18);
            ALU(29, w->b, 21, 19, 20);
            STX(30, w->b, 4, 21, 1, s->v_bias, w->e[l]);
            STX(31, w->b, 1, 22, 1, s->v_value, w->e[l]);
            ALU(32, w->b, 23, 19, 20);
            ALU(33, w->b, 3, 3, 23);
            gi_atom(o, PC(34), w->b, 24, 0, 0);
            FOR_LANES(w->b, l) o->addr[l] = s->blen;
            CO_YIELD(w);
            FOR_LANES(w->b, l) w->y[l] = L->slot[w->e[l]];
            STX(35, w->b, 4, 21, 24, s->blist, w->y[l]);
            STX(36, w->b, 4, 1, 24, s->bvars, w->y[l]);
        }
        ALU(37, mask, 1, 1, 2);
    }
    /* BlockReduce<float, 384>: five shared-memory steps per warp, warp totals, thread 0 adds the 12 */
    for (w->it = 0; w->it < 5; w->it++) {
        gi_head(o, PC(38), MW_OP_ST_SHARED, mask);
        o->width = 4, o->nsrc = 2, o->src[0] = 25, o->src[1] = 3;
        FOR_LANES(mask, l) o->addr[l] = (tid0 + (uint64_t)l) * 4;
        CO_YIELD(w);
        gi_head(o, PC(39), MW_OP_LD_SHARED, mask);
        o->width = 4, o->ndst = 1, o->dst[0] = 26, o->nsrc = 1, o->src[0] = 25;
        FOR_LANES(mask, l) o->addr[l] = (tid0 + ((uint64_t)l + (1u << w->it)) % 32) * 4;
        CO_YIELD(w);
        ALU(40, mask, 3, 3, 26);
    }
    gi_head(o, PC(41), MW_OP_ST_SHARED, mask & 1u);
    o->width = 4, o->nsrc = 2, o->src[0] = 25, o->src[1] = 3;
    o->addr[0] = SP_THREADS * 4 + (uint64_t)(tid0 / 32) * 4;
    CO_YIELD(w);
    gi_head(o, PC(42), MW_OP_BARRIER, mask);
    CO_YIELD(w);
    if (tid0 == 0) {
        for (w->it = 1; w->it < SP_THREADS / 32; w->it++) {
            gi_head(o, PC(43), MW_OP_LD_SHARED, 1u);
            o->width = 4, o->ndst = 1, o->dst[0] = 26, o->nsrc = 1, o->src[0] = 25;
            o->addr[0] = SP_THREADS * 4 + (uint64_t)w->it * 4;
            CO_YIELD(w);
            ALU(44, 1u, 3, 3, 26);
        }
        gi_atom(o, PC(45), 1u, 0, 0, 3);
        o->addr[0] = s->summag;
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { BIAS_INSTS = 46 };

/* decimate_2: for l = len - fixperstep + id ..: v = bias_list_vars[l]; vars.sat[v] = true; for each edge of v:
 * if its clause is not sat and the literal's sign disagrees with value[v], clauses.sat[cl] = true */
static int gen_dec(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                   struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct sp_launch *L = k->data;
    const struct sp *s = L->s;
    const uint8_t *cs = s->clsat[L->round], *val = s->value[L->round];
    struct spw *w = scratch;
    const uint32_t len = L->len;
    CO_BEGIN(w);
    ALU(0, mask, 1, 0, 0);
    ALU(1, mask, 2, 0, 0);
    gi_ld(o, PC(2), mask, 4, 3, 0);
    FOR_LANES(mask, l) o->addr[l] = s->blen;
    CO_YIELD(w);
    ALU(3, mask, 4, 3, 1);
    for (w->k = 0;; w->k++) {
        GR_WHERE(w->a, mask, l, (w->e[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * SP_NT) < L->nlist);
        BR(4, mask, 4, 3);
        if (!w->a) break;
        LDX(5, w->a, 4, 5, 4, s->bvars, len - L->nlist + w->e[l]);
        STX(6, w->a, 1, 0, 5, s->v_sat, L->list[w->e[l]]);
        LDX(7, w->a, 4, 6, 5, s->v_row, L->list[w->e[l]]);
        LDX(8, w->a, 4, 7, 5, s->v_row, L->list[w->e[l]] + 1);
        ALU(9, w->a, 7, 7, 6);
        FOR_LANES(w->a, l) w->x[l] = s->vrow[L->list[w->e[l]]], w->y[l] = s->vrow[L->list[w->e[l]] + 1];
        for (w->it = 0;; w->it++) {
            GR_WHERE(w->c, w->a, l, w->x[l] + (uint64_t)w->it < w->y[l]);
            BR(10, w->a, 8, 7);
            if (!w->c) break;
            LDX(11, w->c, 4, 9, 6, s->v_col, w->x[l] + (uint64_t)w->it);
            LDX(12, w->c, 4, 10, 9, s->e_src, s->vcol[w->x[l] + w->it]);
            LDX(13, w->c, 1, 11, 10, s->c_sat, s->src[s->vcol[w->x[l] + w->it]]);
            GR_WHERE(w->d, w->c, l, !cs[s->src[s->vcol[w->x[l] + w->it]]]);
            BR(14, w->c, 11, 0);
            if (w->d) {
                LDX(15, w->d, 1, 12, 9, s->e_bar, s->vcol[w->x[l] + w->it]);
                LDX(16, w->d, 1, 13, 5, s->v_value, L->list[w->e[l]]);
                GR_WHERE(w->act, w->d, l, s->bar[s->vcol[w->x[l] + w->it]] != val[L->list[w->e[l]]]);
                BR(17, w->d, 12, 13);
                if (w->act) STX(18, w->act, 1, 0, 10, s->c_sat, s->src[s->vcol[w->x[l] + w->it]]);
            }
            ALU(19, w->c, 8, 8, 0);
        }
        ALU(20, mask, 4, 4, 2);
    }
    CO_END(w);
}
enum { DEC_INSTS = 21 };

int mw_wl_lonestar_sp(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* variables, clauses (ratio 4.2 as LonestarGPU's random 3-SAT inputs; 3.8 for tiny and small, whose small
     * formulas at 4.2 often do not converge), decimation rounds simulated */
    static const uint32_t nv[4] = {250, 1000, 4000, 10000}, nc[4] = {950, 3800, 16800, 42000},
                          rounds[4] = {1, 1, 1, 100}, conv[4] = {0, 0, 8, 0};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct sp *s = calloc(1, sizeof *s);
    if (!s) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = s, .free_owned = sp_free};
    uint32_t N = s->N = nv[sz], M = s->M = nc[sz], E = s->E = M * SP_K;
    s->crow = malloc((M + 1) * 4), s->ccol = malloc(E * 4), s->vrow = calloc(N + 1, 4), s->vcol = malloc(E * 4);
    s->src = malloc(E * 4), s->dst = malloc(E * 4), s->bar = malloc(E);
    uint32_t *fill = calloc(N, 4);
    if (!s->crow || !s->ccol || !s->vrow || !s->vcol || !s->src || !s->dst || !s->bar || !fill) {
        free(fill);
        goto oom;
    }
    for (uint32_t c = 0; c < M; c++) {
        s->crow[c] = c * SP_K;
        for (int k = 0; k < SP_K; k++) {
            uint32_t ed = c * SP_K + (uint32_t)k, v;
            bool neg;
            mw_wl_sp_literal(seed, N, c, k, &v, &neg);
            s->src[ed] = c, s->dst[ed] = v, s->bar[ed] = neg, s->ccol[ed] = ed;
            s->vrow[v + 1]++;
        }
    }
    s->crow[M] = E;
    for (uint32_t v = 0; v < N; v++) s->vrow[v + 1] += s->vrow[v];
    for (uint32_t ed = 0; ed < E; ed++) s->vcol[s->vrow[s->dst[ed]] + fill[s->dst[ed]]++] = ed;
    free(fill);
    if (sp_host(s, seed, rounds[sz], conv[sz]) != 0) goto oom;
    uint64_t top = 0x10000000ull; /* cudaMalloc order: max_eps, summag, clauses, vars, edges, bias lists */
    s->max_eps = gr_alloc(&top, 4), s->summag = gr_alloc(&top, 4);
    s->c_row = gr_alloc(&top, (M + 1) * 4ull), s->c_col = gr_alloc(&top, E * 4ull), s->c_sat = gr_alloc(&top, M);
    s->v_row = gr_alloc(&top, (N + 1) * 4ull), s->v_col = gr_alloc(&top, E * 4ull), s->v_sat = gr_alloc(&top, N);
    s->v_bias = gr_alloc(&top, N * 4ull), s->v_value = gr_alloc(&top, N);
    s->e_src = gr_alloc(&top, E * 4ull), s->e_dst = gr_alloc(&top, E * 4ull), s->e_bar = gr_alloc(&top, E);
    s->e_eta = gr_alloc(&top, E * 4ull), s->e_pi0 = gr_alloc(&top, E * 4ull), s->e_pis = gr_alloc(&top, E * 4ull);
    s->e_piu = gr_alloc(&top, E * 4ull);
    s->blist = gr_alloc(&top, N * 4ull), s->blist2 = gr_alloc(&top, N * 4ull), s->bvars = gr_alloc(&top, N * 4ull);
    s->bvars2 = gr_alloc(&top, N * 4ull), s->blen = gr_alloc(&top, 4);
    static const char *const names[4] = {"calc_pi_values", "update_eta", "update_bias", "decimate_2"};
    static int (*const gens[4])(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t, void *,
                                struct mw_inst *, struct mw_err *) = {gen_pi, gen_eta, gen_bias, gen_dec};
    static const uint32_t ninsts[4] = {PI_INSTS, ETA_INSTS, BIAS_INSTS, DEC_INSTS}, regs[4] = {24, 24, 24, 16};
    for (uint32_t i = 0; i < s->nl; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        int kd = s->l[i].kind;
        snprintf(k->k.name, sizeof k->k.name, "%s", names[kd]);
        k->k.grid[0] = SP_CTAS, k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = SP_THREADS, k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = regs[kd];
        k->k.shmem = kd == K_BIAS ? (SP_THREADS + SP_THREADS / 32) * 4 : 0;
        k->data = &s->l[i], k->custom = gens[kd], k->ninsts = ninsts[kd], k->scratch_bytes = sizeof(struct spw);
    }
    return mw_kgen_workload(w, "lonestar.sp", &p, e);
oom:
    return gr_fail(&p, e);
}
