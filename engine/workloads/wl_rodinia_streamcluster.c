/* Rodinia STREAMCLUSTER (cuda/streamcluster: kernel_compute_cost in streamcluster_cuda.cu, the host in
 * streamcluster_cuda_cpu.cpp): one chunk of seeded uniform points; the host builds the initial solution (pspeedy,
 * halving the facility cost z until kmin centres open), picks the feasible centres, then runs pFL's first round of
 * pgain calls, each launching kernel_compute_cost (512-thread CTAs, one thread per point) and applying the
 * result on the host as pgain does, so every launch sees the assignment its predecessors left. */
#include "kgen.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SC_THREADS 512
#define PT_BYTES 32u /* struct Point {float weight; float *coord; long assign; float cost;} */
#define SWITCH UINT32_MAX

struct sc_launch {
    int64_t num, dim, x, K, stride;
    uint64_t coord, work, ctab, sw, p;
    const uint32_t *code; /* per point: SWITCH (x_cost < cost) or center_table[p.assign] */
};

struct sc {
    int64_t n, dim;
    float *coord;   /* [n][dim] */
    float *cost;
    int64_t *assign;
    bool *is_center;
    int32_t *ctab;
    uint32_t *codes; /* launches * n */
    struct sc_launch *launches;
    int nlaunch;
};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double unif(uint64_t *s) { return (double)(splitmix(s) >> 11) / 9007199254740992.0; }

static float dist(const struct sc *c, int64_t a, int64_t b)
{
    const float *p = &c->coord[a * c->dim], *q = &c->coord[b * c->dim];
    float r = 0;
    for (int64_t i = 0; i < c->dim; i++) r += (p[i] - q[i]) * (p[i] - q[i]);
    return r;
}

/* pspeedy: open the first point, then each point with probability cost / z */
static int64_t pspeedy(struct sc *c, float z, uint64_t *rng)
{
    for (int64_t k = 0; k < c->n; k++) c->cost[k] = dist(c, k, 0), c->assign[k] = 0;
    int64_t kc = 1;
    for (int64_t i = 1; i < c->n; i++)
        if ((float)unif(rng) < c->cost[i] / z) {
            kc++;
            for (int64_t k = 0; k < c->n; k++) {
                float d = dist(c, i, k);
                if (d < c->cost[k]) c->cost[k] = d, c->assign[k] = i;
            }
        }
    return kc;
}

/* pgain(x) on the host: records what each kernel thread does, then applies the gain as the CPU part does */
static void pgain(struct sc *c, int64_t x, float z, int64_t *numcenters, uint32_t *code, float *lowsum, float *gl)
{
    int32_t count = 0;
    for (int64_t i = 0; i < c->n; i++)
        if (c->is_center[i]) c->ctab[i] = count++;
    memset(lowsum, 0, (size_t)c->n * sizeof *lowsum);
    float open = z;
    for (int64_t j = 0; j < c->n; j++) {
        float xc = dist(c, j, x);
        if (xc < c->cost[j]) code[j] = SWITCH, open += xc - c->cost[j];
        else code[j] = (uint32_t)c->ctab[c->assign[j]], lowsum[c->ctab[c->assign[j]]] += c->cost[j] - xc;
    }
    int64_t close = 0;
    for (int64_t i = 0; i < c->n; i++)
        if (c->is_center[i]) {
            float low = z + lowsum[c->ctab[i]];
            gl[c->ctab[i]] = low;
            if (low > 0) close++, open -= low;
        }
    if (open < 0) {
        for (int64_t i = 0; i < c->n; i++)
            if (code[i] == SWITCH || gl[c->ctab[c->assign[i]]] > 0) c->cost[i] = dist(c, i, x), c->assign[i] = x;
        for (int64_t i = 0; i < c->n; i++)
            if (c->is_center[i] && gl[c->ctab[i]] > 0) c->is_center[i] = false;
        c->is_center[x] = true;
        *numcenters += 1 - close;
    }
}

/* ---- kernel_compute_cost: bid = blockIdx.x + gridDim.x * blockIdx.y, tid = blockDim.x * bid + threadIdx.x ---- */
#define L ((const struct sc_launch *)d)
static uint64_t tidx(const struct mw_tctx *t)
{
    return ((uint64_t)t->ctaid[0] + (uint64_t)t->nctaid[0] * t->ctaid[1]) * t->ntid[0] + t->tid[0];
}
static bool g_num(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return (int64_t)tidx(t) < L->num;
}
static bool p_sw(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return L->code[tidx(t)] == SWITCH;
}
static bool p_keep(const struct mw_tctx *t, int64_t it, const void *d) { return !p_sw(t, it, d); }
/* d_dist: coord_d[(i*num)+p1] - coord_d[(i*num)+p2] */
static uint64_t a_c1(const struct mw_tctx *t, int64_t it, const void *d)
{
    return L->coord + ((uint64_t)it * (uint64_t)L->num + tidx(t)) * 4;
}
static uint64_t a_c2(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)t;
    return L->coord + ((uint64_t)it * (uint64_t)L->num + (uint64_t)L->x) * 4;
}
static uint64_t a_weight(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return L->p + tidx(t) * PT_BYTES;
}
static uint64_t a_assign(const struct mw_tctx *t, int64_t it, const void *d) { return a_weight(t, it, d) + 16; }
static uint64_t a_cost(const struct mw_tctx *t, int64_t it, const void *d) { return a_weight(t, it, d) + 24; }
static uint64_t a_switch(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return L->sw + tidx(t);
}
static uint64_t a_lowk(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return L->work + (tidx(t) * (uint64_t)L->stride + (uint64_t)L->K) * 4;
}
static uint64_t a_ctab(const struct mw_tctx *t, int64_t it, const void *d);
static uint64_t a_lowc(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return L->work + (tidx(t) * (uint64_t)L->stride + L->code[tidx(t)]) * 4;
}

/* Registers: r1 tid, r2/r3 coordinate addresses, r4/r5 coordinates, r6 diff, r7 retval, r8 point address,
 * r9 weight, r10 x_cost, r11 cost, r12 lower address, r13 lower value, r14 assign, r15 table entry. */
#define LDP(dst, a, fn, pr, w) {MW_OP_LD_GLOBAL, w, 1, 1, {dst}, {a}, fn, pr}
#define STP(v, a, fn, pr, w) {MW_OP_ST_GLOBAL, w, 0, 2, {0}, {a, v}, fn, pr}
#define ALUP(d, s1, s2, p) {MW_OP_ALU, 0, 1, 2, {d}, {s1, s2}, NULL, p}
#define BRA(s1, p) {MW_OP_BRANCH, 0, 0, 1, {0}, {s1}, NULL, p}
static const struct mw_tinst pro[] = {MW_T_ALU(1, 0, 0), MW_T_ALU(1, 1, 0), MW_T_ALU(1, 1, 0), MW_T_ALU(2, 1, 0),
                                      MW_T_ALU(3, 0, 0), MW_T_ALU(7, 0, 0), MW_T_ALU(12, 1, 0)};
static const struct mw_tinst body[] = {MW_T_LD(4, 2, a_c1), MW_T_LD(5, 3, a_c2), MW_T_ALU(6, 4, 5),
                                       MW_T_ALU(7, 6, 7),   MW_T_ALU(2, 2, 0),   MW_T_ALU(3, 3, 0)};
static const struct mw_tinst epi[] = {
    MW_T_ALU(8, 1, 0), LDP(9, 8, a_weight, NULL, 4), ALUP(10, 7, 9, NULL), LDP(11, 8, a_cost, NULL, 4),
    ALUP(16, 10, 11, NULL), BRA(16, NULL),
    /* x_cost < p[tid].cost: switch_membership_d[tid] = 1; lower[K] += x_cost - p[tid].cost */
    STP(16, 1, a_switch, p_sw, 1), LDP(11, 8, a_cost, p_sw, 4), ALUP(17, 10, 11, p_sw), LDP(13, 12, a_lowk, p_sw, 4),
    ALUP(13, 13, 17, p_sw), STP(13, 12, a_lowk, p_sw, 4),
    /* else lower[center_table_d[p[tid].assign]] += p[tid].cost - x_cost */
    LDP(14, 8, a_assign, p_keep, 8), ALUP(14, 14, 0, p_keep), LDP(15, 14, a_ctab, p_keep, 4),
    ALUP(15, 15, 12, p_keep), LDP(13, 15, a_lowc, p_keep, 4), ALUP(17, 11, 10, p_keep), ALUP(13, 13, 17, p_keep),
    STP(13, 15, a_lowc, p_keep, 4)};
#undef L

/* center_table_d[p[tid].assign]: each launch keeps the assign values beside its codes */
static uint64_t a_ctab(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    const struct sc_launch *l = d;
    const int64_t *as = (const int64_t *)(const void *)(l->code + l->num); /* laid out after the codes */
    return l->ctab + (uint64_t)as[tidx(t)] * 4;
}

static void sc_free(void *p)
{
    struct sc *c = p;
    if (!c) return;
    free(c->coord), free(c->cost), free(c->assign), free(c->is_center), free(c->ctab), free(c->codes);
    free(c->launches);
    free(c);
}

int mw_wl_rodinia_streamcluster(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* points, dimensions, pgain launches modelled. paper: Rodinia's run `sc_gpu 10 20 256 65536 65536 1000`
     * (k1 = 10, k2 = 20, one chunk of 65536 points of 256 dimensions): pFL's first round, ITER * k2 * ln(k2) =
     * 179 pgain calls. */
    static const int64_t npts[4] = {1024, 8192, 32768, 65536}, dims[4] = {8, 16, 32, 256};
    static const int nl[4] = {3, 6, 10, 179};
    const int64_t kmin = 10, kmax = 20;
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct sc *c = calloc(1, sizeof *c);
    struct mw_kgen_program p = {.owned = c, .free_owned = sc_free};
    float *lowsum = NULL, *gl = NULL;
    int *feasible = NULL;
    if (!c) goto oom;
    c->n = npts[sz], c->dim = dims[sz], c->nlaunch = nl[sz];
    int64_t n = c->n;
    /* per launch: n codes (4 B) then n assign values (8 B) */
    size_t per = (size_t)n * 3;
    c->coord = malloc((size_t)(n * c->dim) * sizeof *c->coord);
    c->cost = malloc((size_t)n * sizeof *c->cost);
    c->assign = malloc((size_t)n * sizeof *c->assign);
    c->is_center = calloc((size_t)n, sizeof *c->is_center);
    c->ctab = calloc((size_t)n, sizeof *c->ctab);
    c->codes = malloc(per * (size_t)c->nlaunch * sizeof *c->codes);
    c->launches = calloc((size_t)c->nlaunch, sizeof *c->launches);
    lowsum = malloc((size_t)n * sizeof *lowsum);
    gl = malloc((size_t)n * sizeof *gl);
    if (!c->coord || !c->cost || !c->assign || !c->is_center || !c->ctab || !c->codes || !c->launches || !lowsum ||
        !gl)
        goto oom;
    uint64_t rng = seed * 0x2545f4914f6cdd1dull + (uint64_t)n;
    for (int64_t i = 0; i < n * c->dim; i++) c->coord[i] = (float)unif(&rng);
    /* pkmedian: hiz = sum of distances to point 0, z = hiz / 2; speedy until kmin centres (SP = 1 retry) */
    float hiz = 0, loz = 0;
    for (int64_t k = 0; k < n; k++) hiz += dist(c, k, 0);
    float z = (hiz + loz) / 2;
    int64_t k = pspeedy(c, z, &rng);
    int tries = 0;
    if (k < kmin) k = pspeedy(c, z, &rng), tries++;
    while (k < kmin) {
        if (tries >= 1) hiz = z, z = (hiz + loz) / 2, tries = 0;
        k = pspeedy(c, z, &rng);
        tries++;
    }
    /* selectfeasible_fast: ITER * kmin * ln(kmin) points drawn by weight (all weights 1: uniformly) */
    int nfeas = (int)(3 * kmin * log((double)kmin));
    if (nfeas > n) nfeas = (int)n;
    feasible = malloc((size_t)nfeas * sizeof *feasible);
    if (!feasible) goto oom;
    for (int i = 0; i < nfeas; i++) feasible[i] = nfeas == n ? i : (int)(unif(&rng) * (double)n);
    for (int64_t i = 0; i < n; i++) c->is_center[c->assign[i]] = true;
    for (int i = 0; i < nfeas; i++) { /* intshuffle */
        int j = i + (int)(unif(&rng) * (nfeas - i)), tmp = feasible[i];
        feasible[i] = feasible[j], feasible[j] = tmp;
    }
    (void)kmax;
    /* device arrays (allocDevMem order), then work_mem, sized for the largest stride */
    uint64_t a = 0x10000000ull;
#define ALLOC(bytes) (a += ((uint64_t)(bytes) + 255) & ~255ull, a - (((uint64_t)(bytes) + 255) & ~255ull))
    uint64_t ctab = ALLOC(n * 4), sw = ALLOC(n), pts = ALLOC(n * PT_BYTES), coord = ALLOC(n * c->dim * 4);
    uint64_t work = ALLOC(0);
#undef ALLOC
    uint32_t blocks = (uint32_t)((n + SC_THREADS - 1) / SC_THREADS);
    for (int i = 0; i < c->nlaunch; i++) {
        int64_t x = feasible[i % nfeas];
        uint32_t *code = c->codes + per * (size_t)i;
        int64_t *as = (int64_t *)(void *)(code + n);
        memcpy(as, c->assign, (size_t)n * sizeof *as);
        struct sc_launch *l = &c->launches[i];
        *l = (struct sc_launch){n, c->dim, x, k, k + 1, coord, work, ctab, sw, pts, code};
        pgain(c, x, z, &k, code, lowsum, gl);
        struct mw_kgen_kernel *kk = mw_kgen_append(&p);
        if (!kk) goto oom;
        snprintf(kk->k.name, sizeof kk->k.name, "kernel_compute_cost");
        kk->k.grid[0] = blocks, kk->k.grid[1] = kk->k.grid[2] = 1;
        kk->k.block[0] = SC_THREADS, kk->k.block[1] = kk->k.block[2] = 1;
        kk->k.nregs = 20; /* estimate */
        kk->data = l;
        kk->guard = g_num;
        kk->pro = pro, kk->npro = (int)(sizeof pro / sizeof pro[0]);
        kk->body = body, kk->nbody = (int)(sizeof body / sizeof body[0]);
        kk->epi = epi, kk->nepi = (int)(sizeof epi / sizeof epi[0]);
        kk->iters = c->dim;
    }
    free(lowsum), free(gl), free(feasible);
    return mw_kgen_workload(w, "rodinia.streamcluster", &p, e);
oom:
    free(lowsum), free(gl), free(feasible);
    free(p.kernels);
    sc_free(c);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
