/* Rodinia BFS (cuda/bfs: Kernel and Kernel2 in kernel.cu / kernel2.cu), run level by level on a seeded uniform
 * random undirected graph like Rodinia's graphgen inputs (graph4096 ... graph1MW_6, six edges per node on
 * average): 512-thread CTAs, one thread per node, the host loop launching Kernel then Kernel2 until no update. */
#include "kgen.h"
#include "wl_rodinia_step.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BFS_THREADS 512 /* MAX_THREADS_PER_BLOCK */

/* Kernel(L) sees as frontier the nodes with level == L and as visited those with level <= L, so the whole run
 * is determined by the BFS levels computed once on the host. */
struct bfs {
    uint32_t n, m, src;
    uint32_t *row;   /* n + 1 offsets (Node.starting, Node.no_of_edges = row[v+1] - row[v]) */
    uint32_t *col;   /* m edge targets */
    int32_t *level;  /* -1 = unreachable */
    uint64_t nodes, edges, mask, upd, visited, cost, over; /* device arrays */
    uint32_t *launch_level; /* per launch: its level L */
};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void bfs_free(void *p)
{
    struct bfs *g = p;
    if (!g) return;
    free(g->row), free(g->col), free(g->level), free(g->launch_level);
    free(g);
}

/* n nodes, n * avg / 2 random undirected edges (both directions stored), neighbours in generation order. */
int mw_wl_bfs_graph(uint32_t n, uint32_t avg, uint64_t seed, uint32_t **row_out, uint32_t **col_out, uint32_t *m_out)
{
    uint64_t pairs = (uint64_t)n * avg / 2, s = seed * 0x2545f4914f6cdd1dull + n;
    uint32_t *u = malloc(pairs * sizeof *u), *v = malloc(pairs * sizeof *v);
    uint32_t *row = calloc((size_t)n + 1, sizeof *row), *col = malloc(2 * pairs * sizeof *col);
    uint32_t *fill = calloc((size_t)n, sizeof *fill);
    if (!u || !v || !row || !col || !fill) {
        free(u), free(v), free(row), free(col), free(fill);
        return -1;
    }
    for (uint64_t i = 0; i < pairs; i++) {
        u[i] = (uint32_t)(splitmix(&s) % n);
        do v[i] = (uint32_t)(splitmix(&s) % n);
        while (v[i] == u[i] && n > 1);
        row[u[i] + 1]++, row[v[i] + 1]++;
    }
    for (uint32_t i = 0; i < n; i++) row[i + 1] += row[i];
    for (uint64_t i = 0; i < pairs; i++) {
        col[row[u[i]] + fill[u[i]]++] = v[i];
        col[row[v[i]] + fill[v[i]]++] = u[i];
    }
    free(u), free(v), free(fill);
    *row_out = row, *col_out = col, *m_out = (uint32_t)(2 * pairs);
    return 0;
}

struct bfs_launch {
    const struct bfs *g;
    uint32_t L;
};

struct bfs_warp {
    int step;
    int64_t it;
    uint32_t a, act, upd;       /* frontier lanes, lanes still looping, lanes updating a neighbour */
    uint32_t tid[MW_WARP_SIZE];
};


/* Both kernels' opening, steps 0..2: tid, then if (tid < n && flags[tid]); the lanes whose flag is set are those
 * at BFS level lvl (w->a). */
static void flag_test(struct mw_inst *o, struct bfs_warp *w, const struct bfs *g, const struct mw_tctx *t0,
                      uint32_t mask, int step, uint64_t flags, int32_t lvl)
{
    switch (step) {
    case 0:
        FOR_LANES(mask, l) w->tid[l] = (uint32_t)(t0->gtid + (uint32_t)l);
        rs_alu(o, MW_OP_ALU, mask, 1, 0, 0);
        break;
    case 1:
        rs_mem(o, MW_OP_LD_GLOBAL, 1, mask, 2, 1, 0);
        FOR_LANES(mask, l) o->addr[l] = flags + w->tid[l];
        break;
    default:
        w->a = 0;
        FOR_LANES(mask, l) if (g->level[w->tid[l]] == lvl) w->a |= 1u << l;
        rs_alu(o, MW_OP_BRANCH, mask, 0, 2, 0);
        break;
    }
}

/* Kernel: if (tid < n && mask[tid]) { mask[tid] = false; for (i = starting; i < starting + no_of_edges; i++)
 * { id = edges[i]; if (!visited[id]) { cost[id] = cost[tid] + 1; updating[id] = true; } } } */
static int gen_kernel1(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                       struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bfs_launch *bl = k->data;
    const struct bfs *g = bl->g;
    struct bfs_warp *w = scratch;
    for (;;) {
        uint16_t pc = (uint16_t)w->step;
        switch (w->step++) {
        case 0: case 1: case 2: flag_test(o, w, g, t0, mask, pc, g->mask, (int32_t)bl->L); break;
        case 3:
            if (!w->a) return 0;
            rs_mem(o, MW_OP_ST_GLOBAL, 1, w->a, 0, 1, 0);
            FOR_LANES(w->a, l) o->addr[l] = g->mask + w->tid[l];
            break;
        case 4:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->a, 3, 1, 0);
            FOR_LANES(w->a, l) o->addr[l] = g->nodes + (uint64_t)w->tid[l] * 8;
            break;
        case 5:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->a, 4, 1, 0);
            FOR_LANES(w->a, l) o->addr[l] = g->nodes + (uint64_t)w->tid[l] * 8 + 4;
            break;
        case 6:
            rs_alu(o, MW_OP_ALU, w->a, 5, 3, 4);
            w->it = 0;
            break;
        case 7: /* loop test */
            w->act = 0;
            FOR_LANES(w->a, l) if (g->row[w->tid[l]] + w->it < g->row[w->tid[l] + 1]) w->act |= 1u << l;
            if (!w->act) return 0;
            rs_alu(o, MW_OP_BRANCH, w->a, 0, 3, 5);
            break;
        case 8:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->act, 6, 3, 0);
            FOR_LANES(w->act, l) o->addr[l] = g->edges + ((uint64_t)g->row[w->tid[l]] + (uint64_t)w->it) * 4;
            break;
        case 9:
            rs_mem(o, MW_OP_LD_GLOBAL, 1, w->act, 7, 6, 0);
            FOR_LANES(w->act, l) o->addr[l] = g->visited + g->col[g->row[w->tid[l]] + w->it];
            break;
        case 10:
            w->upd = 0;
            FOR_LANES(w->act, l) if (g->level[g->col[g->row[w->tid[l]] + w->it]] > (int32_t)bl->L) w->upd |= 1u << l;
            rs_alu(o, MW_OP_BRANCH, w->act, 0, 7, 0);
            if (!w->upd) w->step = 15;
            break;
        case 11:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->upd, 8, 1, 0);
            FOR_LANES(w->upd, l) o->addr[l] = g->cost + (uint64_t)w->tid[l] * 4;
            break;
        case 12: rs_alu(o, MW_OP_ALU, w->upd, 8, 8, 0); break;
        case 13:
            rs_mem(o, MW_OP_ST_GLOBAL, 4, w->upd, 0, 6, 8);
            FOR_LANES(w->upd, l) o->addr[l] = g->cost + (uint64_t)g->col[g->row[w->tid[l]] + w->it] * 4;
            break;
        case 14:
            rs_mem(o, MW_OP_ST_GLOBAL, 1, w->upd, 0, 6, 9);
            FOR_LANES(w->upd, l) o->addr[l] = g->upd + g->col[g->row[w->tid[l]] + w->it];
            break;
        case 15:
            rs_alu(o, MW_OP_ALU, w->act, 3, 3, 0);
            w->it++;
            w->step = 7;
            break;
        default: return 0;
        }
        o->pc = (uint64_t)pc * 16;
        return 1;
    }
}

/* Kernel2: if (tid < n && updating[tid]) { mask[tid] = true; visited[tid] = true; *over = true;
 * updating[tid] = false; } */
static int gen_kernel2(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                       struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bfs_launch *bl = k->data;
    const struct bfs *g = bl->g;
    struct bfs_warp *w = scratch;
    uint16_t pc = (uint16_t)w->step;
    switch (w->step++) {
    case 0: case 1: case 2: flag_test(o, w, g, t0, mask, pc, g->upd, (int32_t)bl->L + 1); break;
    case 3: case 4: case 5: case 6: {
        if (!w->a) return 0;
        rs_mem(o, MW_OP_ST_GLOBAL, 1, w->a, 0, 1, 3);
        int s = pc - 3;
        FOR_LANES(w->a, l) o->addr[l] = s == 0 ? g->mask + w->tid[l] : s == 1 ? g->visited + w->tid[l]
                                      : s == 2 ? g->over : g->upd + w->tid[l];
        break;
    }
    default: return 0;
    }
    o->pc = (uint64_t)pc * 16;
    return 1;
}

static bool g_node(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < ((const struct bfs_launch *)d)->g->n;
}

struct bfs_owned {
    struct bfs *g;
    struct bfs_launch *launches;
};
static void owned_free(void *p)
{
    struct bfs_owned *o = p;
    if (!o) return;
    bfs_free(o->g);
    free(o->launches);
    free(o);
}

int mw_wl_rodinia_bfs(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    static const uint32_t nodes[4] = {2048, 16384, 65536, 1000000}; /* paper: graph1MW_6 */
    /* "rmat": the degree skew of real graphs (a few hub vertices that many SMs read at once, Li 2015 §1.1) on
     * GraphBig's default R-MAT input (2^15 vertices, 524288 stored edges: 2.6 MB of device arrays, past a
     * 768 KB L2), searched from the first vertex with an edge */
    bool rmat = size && strcmp(size, "rmat") == 0;
    int sz = rmat ? MW_SIZE_DEFAULT : mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct bfs_owned *own = calloc(1, sizeof *own);
    struct bfs *g = own ? calloc(1, sizeof *g) : NULL;
    if (!g) {
        free(own);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    own->g = g;
    g->n = nodes[sz];
    g->src = 0;
    struct mw_kgen_program p = {.owned = own, .free_owned = owned_free};
    uint32_t *queue = NULL;
    if (rmat) {
        struct mw_graph rg;
        if (mw_wl_graph_rmat(32768, 524288, seed, &rg) != 0) goto oom;
        g->n = rg.n, g->m = rg.m, g->row = rg.row, g->col = rg.col;
        while (g->src + 1 < g->n && g->row[g->src + 1] == g->row[g->src]) g->src++;
    } else if (mw_wl_bfs_graph(g->n, 6, seed, &g->row, &g->col, &g->m) != 0) goto oom;
    g->level = malloc((size_t)g->n * sizeof *g->level);
    queue = malloc((size_t)g->n * sizeof *queue);
    if (!g->level || !queue) goto oom;
    for (uint32_t i = 0; i < g->n; i++) g->level[i] = -1;
    uint32_t qh = 0, qt = 0, maxl = 0;
    g->level[g->src] = 0, queue[qt++] = g->src;
    while (qh < qt) {
        uint32_t v = queue[qh++];
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++)
            if (g->level[g->col[i]] < 0) {
                g->level[g->col[i]] = g->level[v] + 1;
                if ((uint32_t)g->level[v] + 1 > maxl) maxl = (uint32_t)g->level[v] + 1;
                queue[qt++] = g->col[i];
            }
    }
    free(queue), queue = NULL;
    /* device arrays in bfs.cu's cudaMalloc order */
    uint64_t a = 0x10000000ull;
#define ALLOC(f, bytes) (g->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(nodes, (uint64_t)g->n * 8);
    ALLOC(edges, (uint64_t)g->m * 4);
    ALLOC(mask, g->n);
    ALLOC(upd, g->n);
    ALLOC(visited, g->n);
    ALLOC(cost, (uint64_t)g->n * 4);
    ALLOC(over, 4);
#undef ALLOC
    /* levels 0 .. maxl each run Kernel and Kernel2; Kernel2 after level maxl updates nothing and the loop stops */
    own->launches = calloc((size_t)maxl + 1, sizeof *own->launches);
    if (!own->launches) goto oom;
    uint32_t blocks = g->n > BFS_THREADS ? (g->n + BFS_THREADS - 1) / BFS_THREADS : 1;
    uint32_t threads = g->n > BFS_THREADS ? BFS_THREADS : g->n;
    for (uint32_t L = 0; L <= maxl; L++) {
        own->launches[L] = (struct bfs_launch){g, L};
        for (int kk = 0; kk < 2; kk++) {
            struct mw_kgen_kernel *k = mw_kgen_append(&p);
            if (!k) goto oom;
            snprintf(k->k.name, sizeof k->k.name, "%s", kk ? "Kernel2" : "Kernel");
            k->k.grid[0] = blocks, k->k.grid[1] = k->k.grid[2] = 1;
            k->k.block[0] = threads, k->k.block[1] = k->k.block[2] = 1;
            k->k.nregs = kk ? 8 : 16;
            k->data = &own->launches[L];
            k->guard = g_node;
            k->custom = kk ? gen_kernel2 : gen_kernel1;
            k->ninsts = kk ? 7 : 16; /* the steps of gen_kernel2 / gen_kernel1 */
            k->scratch_bytes = sizeof(struct bfs_warp);
        }
    }
    return mw_kgen_workload(w, "rodinia.bfs", &p, e);
oom:
    free(queue);
    free(p.kernels);
    owned_free(own);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
