/* Rodinia NN (cuda/nn: euclid in nn_cuda.cu): one launch, one thread per record, computing the distance of each
 * (lat, lng) record to the query point: globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) +
 * threadIdx.x; if (globalId < numRecords) d_distances[globalId] = sqrt((lat - r.lat)^2 + (lng - r.lng)^2) with r =
 * d_locations[globalId] (8-byte LatLong records: each warp's lat loads span two 128 B lines). 256 threads per block
 * (DEFAULT_THREADS_PER_BLOCK), gridY = ceil(blocks / 65535) = 1 at these sizes. The host's k-nearest selection is
 * not a kernel. Registers per thread are an estimate. */
#include "kgen.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define NN_THREADS 256

struct nn {
    uint64_t n, loc, dist;
};

static bool g_rec(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < ((const struct nn *)d)->n;
}
static uint64_t a_lat(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return ((const struct nn *)d)->loc + t->gtid * 8;
}
static uint64_t a_lng(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return ((const struct nn *)d)->loc + t->gtid * 8 + 4;
}
static uint64_t a_dist(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return ((const struct nn *)d)->dist + t->gtid * 4;
}

/* r1 globalId, r2 &d_locations[globalId], r3 lat, r4 lng, r5..r7 the distance */
static const struct mw_tinst pro[] = {
    MW_T_ALU(1, 0, 0), MW_T_ALU(1, 1, 0), MW_T_ALU(2, 1, 0), MW_T_LD(3, 2, a_lat), MW_T_LD(4, 2, a_lng),
    MW_T_ALU(5, 3, 0), MW_T_ALU(6, 4, 0),  MW_T_ALU(7, 6, 6), MW_T_ALU(7, 5, 7),  MW_T_SFU(7, 7),
    MW_T_ALU(8, 1, 0), MW_T_ST(7, 8, a_dist),
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_nn(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* records: Rodinia's run (filelist_4: four hurricane files of 10,691 records) is 42,764 */
    static const uint64_t recs[4] = {4096, 16384, 42764, 42764};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct nn *d = calloc(1, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    d->n = recs[sz];
    d->loc = 0x10000000ull;
    d->dist = d->loc + ((d->n * 8 + 255) & ~255ull);
    struct mw_kgen_kernel *k = mw_kgen_append(&p);
    if (!k) {
        free(d);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    snprintf(k->k.name, sizeof k->k.name, "euclid");
    k->k.grid[0] = (uint32_t)((d->n + NN_THREADS - 1) / NN_THREADS), k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = NN_THREADS, k->k.block[1] = k->k.block[2] = 1;
    k->lane_affine = true; /* loc + 8 gtid (+ 4), dist + 4 gtid */
    k->k.nregs = 10;
    k->pro = pro, k->npro = (int)(sizeof pro / sizeof pro[0]);
    k->guard = g_rec;
    k->data = d;
    return mw_kgen_workload(w, "rodinia.nn", &p, e);
}
