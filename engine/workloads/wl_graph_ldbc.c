/* GraphBig's LDBC social graphs as a seeded generator: the `ldbc` size of the graph.* models.
 *
 * GraphBig (Nai et al., SC'15) characterises its GPU kernels on social graphs made by the LDBC Social Network
 * Benchmark's data generator; its dataset table lists the LDBC graph at 1 M vertices and 28.82 M edges, and the
 * repository's own run input (dataset/small, the `paper` size) is the same generator at 1,000 vertices (29,790
 * edges). The LDBC generator draws each person's friend count from Facebook's degree distribution: one of 100
 * percentile buckets uniformly, then an integer uniformly between the bucket's bounds, the bounds being Facebook's
 * (mean 190) scaled by mean / 190 (ldbc_snb_datagen, FacebookDegreeDistribution and facebookBucket100.dat, whose
 * upper bounds are the table below). Here every vertex draws its degree that way with mean = 28.82 (GraphBig's
 * edges per vertex), and the stubs are paired at random (a configuration model): a self-loop or a repeated pair
 * is dropped. Vertex ids carry no locality: which neighbours LDBC's similarity windows put next to each other in
 * id order is not known for GraphBig's files [I]. The graph is stored in CSR with both directions of each edge. */
#include "wl_graph.h"

#include <stdlib.h>

#define FB_MEAN 190.0

/* Upper bounds of the 100 percentile buckets of Facebook's degree distribution; bucket b spans
 * [hi[b - 1], hi[b]] (the first three start at 0). */
static const double fb_hi[100] = {
    1, 1, 1.5, 2.2, 3.55, 4.37, 5.37, 6.61, 8.13, 10,
    11.22, 12, 14, 16, 17, 19, 20, 22, 23, 25,
    26, 28, 30, 31, 33, 35, 36, 38, 40, 42,
    44, 46, 49, 51, 54, 56, 59, 61, 64, 66,
    69, 72, 75, 78, 82, 85, 88, 92, 95, 99,
    102, 106, 110, 113, 117, 122, 126, 130, 135, 139,
    144, 149, 154, 160, 166, 172, 180, 188, 196, 204,
    211, 217, 223, 229, 236, 243, 252, 261, 272, 283,
    295, 307, 320, 334, 349, 365, 383, 402, 423, 447,
    478, 519, 570, 623, 674, 723, 781, 863, 1029, 5000,
};

uint32_t gr_ldbc_degree(uint64_t *s, double mean)
{
    uint32_t b = (uint32_t)(gr_splitmix(s) % 100);
    double lo = (b < 3 ? 0.0 : fb_hi[b - 1]) * mean / FB_MEAN, hi = fb_hi[b] * mean / FB_MEAN;
    if (hi < lo) hi = lo;
    uint32_t a = (uint32_t)lo, c = (uint32_t)hi;
    return a + (uint32_t)(gr_splitmix(s) % ((uint64_t)c - a + 1));
}

int mw_wl_graph_ldbc(uint32_t n, double mean, uint64_t seed, struct mw_graph *g)
{
    memset(g, 0, sizeof *g);
    if (n < 2 || !(mean >= 0.0) || mean > 1000.0) return -1;
    uint32_t *deg = malloc((size_t)n * sizeof *deg);
    uint32_t *st = NULL;
    uint64_t *hash = NULL;
    int rc = -1;
    if (!deg) goto out;
    uint64_t s = (seed + 1) * 0x2545f4914f6cdd1dull ^ ((uint64_t)n << 32 | 0x6c646263u);
    uint64_t stubs = 0;
    for (uint32_t v = 0; v < n; v++) {
        deg[v] = gr_ldbc_degree(&s, mean);
        if (deg[v] > n - 1) deg[v] = n - 1;
        stubs += deg[v];
    }
    for (uint32_t v = n; (stubs & 1) && v-- > 0;) /* an even number of stubs: the last vertex with one gives one up */
        if (deg[v]) deg[v]--, stubs--;
    if (stubs > 0xfffffff0ull) goto out;
    uint64_t hsize = 1;
    while (hsize < stubs + 2) hsize <<= 1;
    st = malloc((stubs ? stubs : 1) * sizeof *st);
    hash = calloc(hsize, sizeof *hash);
    if (!st || !hash) goto out;
    uint64_t k = 0;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = 0; i < deg[v]; i++) st[k++] = v;
    for (uint64_t i = stubs; i > 1; i--) { /* Fisher-Yates */
        uint64_t j = gr_splitmix(&s) % i;
        uint32_t t = st[i - 1];
        st[i - 1] = st[j], st[j] = t;
    }
    uint64_t pairs = 0; /* kept pairs, compacted to the front of st */
    for (uint64_t i = 0; i + 1 < stubs; i += 2) {
        uint32_t u = st[i], v = st[i + 1];
        if (u == v || !gr_pair_new(hash, hsize, u, v)) continue; /* a self-loop or a repeated pair */
        st[2 * pairs] = u, st[2 * pairs + 1] = v, pairs++;
    }
    rc = gr_csr_from_pairs(g, n, st, st + 1, 2, pairs);
out:
    free(deg), free(st), free(hash);
    if (rc) mw_wl_graph_free(g);
    return rc;
}

int gr_size(const char *size, struct mw_err *e)
{
    if (size && strcmp(size, "ldbc") == 0) return GR_SIZE_LDBC;
    if (size && *size && strcmp(size, "tiny") && strcmp(size, "small") && strcmp(size, "default") &&
        strcmp(size, "paper"))
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "unknown size '%s' (tiny|small|default|paper|ldbc)", size);
    return mw_kgen_size(size, e);
}

int gr_input_graph(const char *size, uint64_t seed, const uint32_t n[4], const uint32_t m[4], struct mw_graph *g,
                   struct mw_err *e)
{
    int sz = gr_size(size, e);
    if (sz < 0) return sz;
    if (sz != GR_SIZE_LDBC) return gr_input_sized(size, seed, n, m, g, e);
    if (mw_wl_graph_ldbc(GR_LDBC_VERTICES, GR_LDBC_MEAN, seed, g) != 0)
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}
