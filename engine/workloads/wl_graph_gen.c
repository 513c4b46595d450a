/* The input of the GraphBig-style graph models: a seeded R-MAT graph (Graph500's Kronecker generator, Chakrabarti
 * et al. 2004) in the CSR form GraphBig's gpu_bench kernels read (cudaGraph: vertex offsets, edge targets), and
 * the named sizes. The paper size has the counts of GraphBig's own run input (dataset/small: 1000 vertices,
 * 29790 edges). */
#include "wl_graph.h"

#include <stdlib.h>

uint64_t gr_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

bool gr_pair_new(uint64_t *hash, uint64_t hsize, uint32_t u, uint32_t v)
{
    uint64_t key = (uint64_t)(u < v ? u : v) << 32 | (u < v ? v : u), h = key * 0x9e3779b97f4a7c15ull;
    uint64_t slot = (h >> 20) & (hsize - 1);
    while (hash[slot] && hash[slot] != key + 1) slot = (slot + 1) & (hsize - 1);
    if (hash[slot]) return false;
    hash[slot] = key + 1;
    return true;
}

int gr_csr_from_pairs(struct mw_graph *g, uint32_t n, const uint32_t *u, const uint32_t *v, size_t stride,
                      uint64_t pairs)
{
    uint32_t *fill = calloc(n, sizeof *fill);
    g->row = calloc((size_t)n + 1, sizeof *g->row);
    g->col = malloc((pairs ? 2 * pairs : 1) * sizeof *g->col);
    if (!fill || !g->row || !g->col) {
        free(fill);
        return -1;
    }
    for (uint64_t k = 0; k < pairs; k++) g->row[u[k * stride] + 1]++, g->row[v[k * stride] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->row[i + 1] += g->row[i];
    for (uint64_t k = 0; k < pairs; k++) {
        uint32_t a = u[k * stride], b = v[k * stride];
        g->col[g->row[a] + fill[a]++] = b;
        g->col[g->row[b] + fill[b]++] = a;
    }
    free(fill);
    g->n = n, g->m = (uint32_t)(2 * pairs);
    return 0;
}

void mw_wl_graph_free(struct mw_graph *g)
{
    if (!g) return;
    free(g->row), free(g->col);
    g->row = g->col = NULL;
}

/* One R-MAT edge over 2^scale vertices: at each bit pick a quadrant with probabilities A, B, C, D. */
static void rmat_edge(uint64_t *s, int scale, uint32_t *u, uint32_t *v)
{
    uint32_t a = 0, b = 0;
    for (int i = 0; i < scale; i++) {
        double r = (double)(gr_splitmix(s) >> 11) * (1.0 / 9007199254740992.0);
        a <<= 1, b <<= 1;
        if (r < 0.57) continue;
        if (r < 0.76) b |= 1;
        else if (r < 0.95) a |= 1;
        else a |= 1, b |= 1;
    }
    *u = a, *v = b;
}

int mw_wl_graph_rmat(uint32_t n, uint32_t m, uint64_t seed, struct mw_graph *g)
{
    memset(g, 0, sizeof *g);
    uint64_t pairs = m / 2;
    if (n < 2 || pairs > (uint64_t)n * (n - 1) / 4) return -1; /* keep well below the complete graph */
    int scale = 0;
    while ((1ull << scale) < n) scale++;
    uint32_t side = 1u << scale;
    uint64_t hsize = 1;
    while (hsize < 2 * pairs + 2) hsize <<= 1;
    uint32_t *perm = malloc((size_t)side * sizeof *perm), *pu = malloc(pairs * sizeof *pu),
             *pv = malloc(pairs * sizeof *pv);
    uint64_t *hash = calloc(hsize, sizeof *hash);
    int rc = -1;
    if (!perm || !pu || !pv || !hash) goto out;
    uint64_t s = seed * 0x2545f4914f6cdd1dull ^ ((uint64_t)n << 32 | m);
    for (uint32_t i = 0; i < side; i++) perm[i] = i;
    for (uint32_t i = side - 1; i > 0; i--) { /* Graph500 relabels vertices so hubs spread over the ids */
        uint32_t j = (uint32_t)(gr_splitmix(&s) % (i + 1)), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (uint64_t k = 0; k < pairs;) {
        uint32_t u, v;
        rmat_edge(&s, scale, &u, &v);
        u = perm[u], v = perm[v];
        if (u >= n || v >= n || u == v || !gr_pair_new(hash, hsize, u, v)) continue; /* (a duplicate) */
        pu[k] = u, pv[k] = v, k++;
    }
    rc = gr_csr_from_pairs(g, n, pu, pv, 1, pairs);
out:
    free(perm), free(pu), free(pv), free(hash);
    if (rc) mw_wl_graph_free(g);
    return rc;
}

int mw_wl_graph_input(const char *size, uint64_t seed, struct mw_graph *g, struct mw_err *e)
{
    return gr_input(size, seed, 0, g, e);
}

int gr_input(const char *size, uint64_t seed, unsigned default_shift, struct mw_graph *g, struct mw_err *e)
{
    /* tiny and small: edge factor 8 (16 stored edges per vertex); default: scale 15, edge factor 8; paper: the
     * counts of GraphBig's dataset/small */
    static const uint32_t nv[4] = {256, 4096, 32768, 1000}, ne[4] = {2048, 32768, 524288, 29790};
    uint32_t n[4], m[4];
    for (int i = 0; i < 4; i++) n[i] = nv[i], m[i] = ne[i];
    n[MW_SIZE_DEFAULT] >>= default_shift, m[MW_SIZE_DEFAULT] >>= default_shift;
    return gr_input_graph(size, seed, n, m, g, e);
}

int gr_input_sized(const char *size, uint64_t seed, const uint32_t n[4], const uint32_t m[4], struct mw_graph *g,
                   struct mw_err *e)
{
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    if (mw_wl_graph_rmat(n[sz], m[sz], seed, g) != 0) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}
