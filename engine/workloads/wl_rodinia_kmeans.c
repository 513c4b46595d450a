/* Rodinia KMEANS (cuda/kmeans: invert_mapping and kmeansPoint in kmeans_cuda_kernel.cu, the host loop in
 * kmeans_clustering.c): the points are transposed once to feature-major order, then every iteration launches
 * kmeansPoint on a square grid of 256-thread CTAs, one thread per point, reading the point's features through
 * the transposed layout (t_features, coalesced) against the centres in constant memory. */
#include "kgen.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define KM_THREADS 256 /* THREADS_PER_DIM * THREADS_PER_DIM */

struct km {
    int64_t npoints, nfeatures, nclusters;
    uint64_t flipped, feature, membership; /* feature_flipped_d (row-major input), feature_d, membership_d */
};

/* invert_mapping: point_id = threadIdx.x + blockDim.x * blockIdx.x; output[point_id + npoints*i] =
 * input[point_id*nfeatures + i] for i < nfeatures. */
static bool g_inv(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return (int64_t)t->gtid < ((const struct km *)d)->npoints;
}
static uint64_t a_in(const struct mw_tctx *t, int64_t it, const void *d)
{
    const struct km *m = d;
    return m->flipped + ((uint64_t)t->gtid * (uint64_t)m->nfeatures + (uint64_t)it) * 4;
}
static uint64_t a_out(const struct mw_tctx *t, int64_t it, const void *d)
{
    const struct km *m = d;
    return m->feature + ((uint64_t)t->gtid + (uint64_t)m->npoints * (uint64_t)it) * 4;
}

/* kmeansPoint: block_id = gridDim.x * blockIdx.y + blockIdx.x, point_id = block_id * blockDim.x + threadIdx.x;
 * for i < nclusters, j < nfeatures: tex1Dfetch(t_features, point_id + j*npoints) - c_clusters[i*nfeatures + j].
 * The body runs nclusters * nfeatures times with it = i * nfeatures + j. */
static uint64_t point_id(const struct mw_tctx *t)
{
    return ((uint64_t)t->nctaid[0] * t->ctaid[1] + t->ctaid[0]) * t->ntid[0] + t->tid[0];
}
static bool g_pt(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return (int64_t)point_id(t) < ((const struct km *)d)->npoints;
}
static uint64_t a_feat(const struct mw_tctx *t, int64_t it, const void *d)
{
    const struct km *m = d;
    return m->feature + (point_id(t) + (uint64_t)(it % m->nfeatures) * (uint64_t)m->npoints) * 4;
}
static uint64_t a_memb(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return ((const struct km *)d)->membership + point_id(t) * 4;
}
/* the end of a cluster's inner loop: if (dist < min_dist) { min_dist = dist; index = i; } */
static bool p_last_j(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)t;
    const struct km *m = d;
    return it % m->nfeatures == m->nfeatures - 1;
}

/* Registers: r1 point index, r2 input / feature address, r3 output address, r4 loaded value, r5 centre value,
 * r6 diff, r7 ans, r8 min_dist, r9 index, r10 cluster base. */
static const struct mw_tinst inv_pro[] = {MW_T_ALU(1, 0, 0), MW_T_ALU(1, 1, 0), MW_T_ALU(11, 0, 0),
                                          MW_T_ALU(2, 1, 11), MW_T_ALU(3, 1, 0)};
static const struct mw_tinst inv_body[] = {MW_T_LD(4, 2, a_in), MW_T_ST(4, 3, a_out), MW_T_ALU(2, 2, 0),
                                           MW_T_ALU(3, 3, 0)};

#define ALUP(d, s1, s2, p) {MW_OP_ALU, 0, 1, 2, {d}, {s1, s2}, NULL, p}
#define LDC(d, a) {MW_OP_LD_CONST, 4, 1, 1, {d}, {a}, NULL, NULL}
static const struct mw_tinst pt_pro[] = {MW_T_ALU(1, 0, 0), MW_T_ALU(1, 1, 0), MW_T_ALU(1, 1, 0),
                                         MW_T_ALU(8, 0, 0), MW_T_ALU(9, 0, 0), MW_T_ALU(2, 1, 0),
                                         MW_T_ALU(10, 0, 0), MW_T_ALU(7, 0, 0)};
static const struct mw_tinst pt_body[] = {
    MW_T_LD(4, 2, a_feat), LDC(5, 10),     MW_T_ALU(6, 4, 5),  MW_T_ALU(7, 6, 7), MW_T_ALU(2, 2, 0),
    MW_T_ALU(10, 10, 0),   ALUP(12, 7, 8, p_last_j), ALUP(8, 7, 12, p_last_j), ALUP(9, 12, 0, p_last_j),
    ALUP(7, 0, 0, p_last_j), ALUP(2, 1, 0, p_last_j)};
static const struct mw_tinst pt_epi[] = {MW_T_ALU(3, 1, 0), MW_T_ST(9, 3, a_memb)};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_kmeans(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* The addresses do not depend on the points' values (membership only changes what is stored), so the seed
     * does not matter; the convergence loop is a fixed number of kmeansPoint launches per size. paper: the
     * kdd_cup input of Rodinia's run script (494020 points, 34 features, 5 clusters). */
    (void)seed;
    static const int64_t np[4] = {2048, 8192, 32768, 494020}, nf[4] = {8, 34, 34, 34}, nc[4] = {3, 5, 5, 5};
    static const int iters[4] = {2, 2, 2, 10};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct km *m = calloc(1, sizeof *m);
    if (!m) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    m->npoints = np[sz], m->nfeatures = nf[sz], m->nclusters = nc[sz];
    uint64_t bytes = ((uint64_t)m->npoints * (uint64_t)m->nfeatures * 4 + 255) & ~255ull;
    m->flipped = 0x10000000ull;
    m->feature = m->flipped + bytes;
    m->membership = m->feature + bytes;
    /* allocateMemory: num_blocks = ceil(npoints / 256), rounded up to a square for kmeansPoint's 2-D grid;
     * invert_mapping is launched after the rounding with the squared count */
    uint32_t blocks = (uint32_t)((m->npoints + KM_THREADS - 1) / KM_THREADS);
    uint32_t perdim = (uint32_t)sqrt((double)blocks);
    while (perdim * perdim < blocks) perdim++;
    struct mw_kgen_program p = {.owned = m, .free_owned = free_owned};
    for (int i = 0; i <= iters[sz]; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(m);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        k->data = m;
        k->k.block[0] = KM_THREADS, k->k.block[1] = k->k.block[2] = 1;
        k->lane_affine = true; /* a_in, a_out, a_feat, a_memb: base + 4 * (gtid or point_id, each tid.x plus
                                * uniform terms, times a uniform factor + uniform terms) */
        k->k.grid[2] = 1;
        if (i == 0) {
            snprintf(k->k.name, sizeof k->k.name, "invert_mapping");
            k->k.grid[0] = perdim * perdim, k->k.grid[1] = 1;
            k->k.nregs = 10; /* estimate */
            k->guard = g_inv;
            k->pro = inv_pro, k->npro = (int)(sizeof inv_pro / sizeof inv_pro[0]);
            k->body = inv_body, k->nbody = (int)(sizeof inv_body / sizeof inv_body[0]);
            k->iters = m->nfeatures;
        } else {
            snprintf(k->k.name, sizeof k->k.name, "kmeansPoint");
            k->k.grid[0] = perdim, k->k.grid[1] = perdim;
            k->k.nregs = 14; /* estimate */
            k->guard = g_pt;
            k->pro = pt_pro, k->npro = (int)(sizeof pt_pro / sizeof pt_pro[0]);
            k->body = pt_body, k->nbody = (int)(sizeof pt_body / sizeof pt_body[0]);
            k->epi = pt_epi, k->nepi = (int)(sizeof pt_epi / sizeof pt_epi[0]);
            k->iters = m->nclusters * m->nfeatures;
        }
    }
    return mw_kgen_workload(w, "rodinia.kmeans", &p, e);
}
