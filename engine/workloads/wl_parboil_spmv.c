/* Parboil SPMV (benchmarks/spmv/src/cuda: spmv_jds in jds_kernels.cu, host loop in main.cu): y = A x with A in
 * the padded JDS format of Parboil's coo_to_jds (rows sorted by length, warp groups of 32 rows padded to the
 * group's longest row, padding entries with column -1), on a seeded random matrix with a skewed row-length
 * distribution. One thread per JDS row, the kernel's software-pipelined loop, 50 launches at the paper size. */
#include "kgen.h"
#include "wl_pml.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define WARP 32

struct spmv {
    uint32_t dim, rows;   /* matrix rows; rows padded to a multiple of 32 */
    uint32_t ngroups, depth;
    uint32_t *row, *col;  /* CSR of the generated matrix */
    uint32_t *perm;       /* JDS row -> matrix row (d_perm) */
    uint32_t *len;        /* entries of JDS row i */
    uint32_t *bound;      /* per warp group: its longest row (sh_zcnt_int) */
    uint32_t *ptr;        /* jds_ptr_int: start of each jagged diagonal */
    uint64_t data, index, dptr, dperm, nzcnt, x, y; /* device arrays, cudaMalloc order */
    uint64_t c_ptr, c_zcnt;                         /* __constant__ jds_ptr_int[5000], sh_zcnt_int[5000] */
};

static void spmv_free(void *p)
{
    struct spmv *s = p;
    if (!s) return;
    free(s->row), free(s->col), free(s->perm), free(s->len), free(s->bound), free(s->ptr);
    free(s);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int mw_wl_spmv_matrix(uint32_t n, uint32_t avg, uint64_t seed, uint32_t **row_out, uint32_t **col_out)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)n * 0x632be59bd9b4e019ull ^ 0x5350u;
    uint32_t *row = malloc(((size_t)n + 1) * sizeof *row);
    if (!row) return -1;
    /* row lengths: log-normal (sigma 0.8) with mean `avg`, at least the diagonal, at most 4000 */
    const double sigma = 0.8, mu = log((double)avg) - sigma * sigma / 2;
    uint32_t cap = n < 4000 ? n : 4000;
    row[0] = 0;
    for (uint32_t r = 0; r < n; r++) {
        double l = exp(mu + sigma * pml_normal(&s));
        uint32_t len = l < 1 ? 1 : l > cap ? cap : (uint32_t)(l + 0.5);
        row[r + 1] = row[r] + len;
    }
    uint32_t *col = malloc((size_t)row[n] * sizeof *col);
    if (!col) {
        free(row);
        return -1;
    }
    /* columns: the diagonal, then three in four near the diagonal (a band a few times the mean row length
     * wide, as in banded FEM matrices), the rest anywhere; sorted, without repeats */
    int64_t band = 4 * (int64_t)avg + 8;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t *c = col + row[r], len = row[r + 1] - row[r], have = 1;
        c[0] = r;
        while (have < len) {
            for (uint32_t i = have; i < len; i++) {
                int64_t v = pml_unif(&s) < 0.75 ? (int64_t)r + (int64_t)(pml_normal(&s) * (double)band)
                                                : (int64_t)(pml_rand(&s) % n);
                if (v < 0) v = -v;
                if (v >= (int64_t)n) v = 2 * (int64_t)n - 2 - v;
                if (v < 0) v = 0;
                c[i] = (uint32_t)v;
            }
            qsort(c, len, sizeof *c, cmp_u32);
            have = 1;
            for (uint32_t i = 1; i < len; i++)
                if (c[i] != c[have - 1]) c[have++] = c[i];
        }
    }
    *row_out = row, *col_out = col;
    return 0;
}

/* coo_to_jds: rows sorted by length, longest first (qsort in Parboil; ties kept in row order here), groups of
 * 32 rows padded to the group's first row, jagged diagonal k holding the groups longer than k. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int build_jds(struct spmv *m)
{
    m->rows = (m->dim + WARP - 1) / WARP * WARP;
    m->ngroups = m->rows / WARP;
    uint64_t *key = malloc((size_t)m->dim * sizeof *key); /* (~length, row): ascending = longest first */
    m->perm = calloc(m->rows, sizeof *m->perm);
    m->len = calloc(m->rows, sizeof *m->len);
    m->bound = calloc(m->ngroups, sizeof *m->bound);
    if (!key || !m->perm || !m->len || !m->bound) {
        free(key);
        return -1;
    }
    for (uint32_t r = 0; r < m->dim; r++) key[r] = (uint64_t)(~(m->row[r + 1] - m->row[r])) << 32 | r;
    qsort(key, m->dim, sizeof *key, cmp_u64);
    for (uint32_t i = 0; i < m->dim; i++) {
        m->perm[i] = (uint32_t)key[i];
        m->len[i] = m->row[m->perm[i] + 1] - m->row[m->perm[i]];
    }
    free(key);
    for (uint32_t g = 0; g < m->ngroups; g++) m->bound[g] = m->len[g * WARP];
    m->depth = m->bound[0];
    m->ptr = calloc((size_t)m->depth + 1, sizeof *m->ptr);
    if (!m->ptr) return -1;
    uint32_t g = m->ngroups;
    for (uint32_t k = 0; k < m->depth; k++) {
        while (g > 0 && m->bound[g - 1] <= k) g--;
        m->ptr[k + 1] = m->ptr[k] + g * WARP;
    }
    return 0;
}

/* Register use: r1 ix, r2 bound, r3 j, r4 d, r5 i, r6 t, r7 sum, r8 in, r9 dn, r10 tn, r11-r18 addresses. */
struct spmv_warp {
    int step;
    uint32_t k, bound, warp_id;
    uint32_t ix[WARP];
};

#define PC(n) ((uint64_t)(n) * 16u)
enum { S_LOOP = 21, S_TAIL = S_LOOP + 14, S_FINAL = S_TAIL + 7, S_END = S_FINAL + 5 }; /* S_END: the EXIT */

static int32_t jcol(const struct spmv *m, uint32_t ix, uint32_t k)
{
    return k < m->len[ix] ? (int32_t)m->col[m->row[m->perm[ix]] + k] : -1;
}

static int gen(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
               struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct spmv *m = k->data;
    struct spmv_warp *w = scratch;
    for (;;) {
        int st = w->step++;
        uint64_t pc = PC(st);
        switch (st) {
        case 0:
            PML_LANES(mask, l) w->ix[l] = (uint32_t)t0->gtid + (uint32_t)l;
            w->warp_id = w->ix[0] >> 5;
            w->bound = m->bound[w->warp_id];
            pml_alu(o, pc, MW_OP_ALU, mask, 1, 0, 0); /* ix = blockIdx.x * blockDim.x + threadIdx.x */
            return 1;
        case 1: pml_alu(o, pc, MW_OP_ALU, mask, 1, 1, 0); return 1;
        case 2: pml_alu(o, pc, MW_OP_ALU, mask, 11, 1, 0); return 1;  /* ix < dim */
        case 3: pml_branch(o, pc, mask, 11); return 1;
        case 4: pml_alu(o, pc, MW_OP_ALU, mask, 2, 1, 0); return 1;   /* warp_id = ix >> 5 */
        case 5:
            pml_ld(o, pc, MW_OP_LD_CONST, 0, mask, 2, 2); /* bound = sh_zcnt_int[warp_id] */
            PML_LANES(mask, l) o->addr[l] = m->c_zcnt + (uint64_t)w->warp_id * 4;
            return 1;
        case 6:
            pml_ld(o, pc, MW_OP_LD_CONST, 0, mask, 3, 0); /* jds_ptr_int[0] */
            PML_LANES(mask, l) o->addr[l] = m->c_ptr;
            return 1;
        case 7: pml_alu(o, pc, MW_OP_ALU, mask, 3, 3, 1); return 1; /* j = jds_ptr_int[0] + ix */
        case 8: pml_alu(o, pc, MW_OP_ALU, mask, 12, 3, 0); return 1;
        case 9:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 4, 12); /* d = d_data[j] */
            PML_LANES(mask, l) o->addr[l] = m->data + ((uint64_t)m->ptr[0] + w->ix[l]) * 4;
            return 1;
        case 10: pml_alu(o, pc, MW_OP_ALU, mask, 13, 3, 0); return 1;
        case 11:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 5, 13); /* i = d_index[j] */
            PML_LANES(mask, l) o->addr[l] = m->index + ((uint64_t)m->ptr[0] + w->ix[l]) * 4;
            return 1;
        case 12: pml_alu(o, pc, MW_OP_ALU, mask, 14, 5, 0); return 1;
        case 13:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 6, 14); /* t = x_vec[i] */
            PML_LANES(mask, l) o->addr[l] = m->x + (uint64_t)((int64_t)jcol(m, w->ix[l], 0) * 4);
            return 1;
        case 14: pml_alu(o, pc, MW_OP_ALU, mask, 7, 0, 0); return 1;  /* sum = 0 */
        case 15: pml_alu(o, pc, MW_OP_ALU, mask, 15, 2, 0); return 1; /* bound > 1 */
        case 16:
            pml_branch(o, pc, mask, 15);
            if (w->bound <= 1) w->step = S_FINAL;
            return 1;
        case 17:
            pml_ld(o, pc, MW_OP_LD_CONST, 0, mask, 3, 0); /* jds_ptr_int[1] */
            PML_LANES(mask, l) o->addr[l] = m->c_ptr + 4;
            return 1;
        case 18: pml_alu(o, pc, MW_OP_ALU, mask, 3, 3, 1); return 1;
        case 19: pml_alu(o, pc, MW_OP_ALU, mask, 13, 3, 0); return 1;
        case 20:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 5, 13); /* i = d_index[j] */
            PML_LANES(mask, l) o->addr[l] = m->index + ((uint64_t)m->ptr[1] + w->ix[l]) * 4;
            w->k = 2;
            w->step = w->k < w->bound ? S_LOOP : S_TAIL;
            return 1;
        /* for (k = 2; k < bound; k++): j is jds_ptr_int[k-1] + ix on entry */
        case S_LOOP: pml_alu(o, pc, MW_OP_ALU, mask, 12, 3, 0); return 1;
        case S_LOOP + 1:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 9, 12); /* dn = d_data[j] */
            PML_LANES(mask, l) o->addr[l] = m->data + ((uint64_t)m->ptr[w->k - 1] + w->ix[l]) * 4;
            return 1;
        case S_LOOP + 2:
            pml_ld(o, pc, MW_OP_LD_CONST, 0, mask, 3, 16); /* jds_ptr_int[k] */
            PML_LANES(mask, l) o->addr[l] = m->c_ptr + (uint64_t)w->k * 4;
            return 1;
        case S_LOOP + 3: pml_alu(o, pc, MW_OP_ALU, mask, 3, 3, 1); return 1;
        case S_LOOP + 4: pml_alu(o, pc, MW_OP_ALU, mask, 13, 3, 0); return 1;
        case S_LOOP + 5:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 8, 13); /* in = d_index[j] */
            PML_LANES(mask, l) o->addr[l] = m->index + ((uint64_t)m->ptr[w->k] + w->ix[l]) * 4;
            return 1;
        case S_LOOP + 6: pml_alu(o, pc, MW_OP_ALU, mask, 14, 5, 0); return 1;
        case S_LOOP + 7:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 10, 14); /* tn = x_vec[i] */
            PML_LANES(mask, l) o->addr[l] = m->x + (uint64_t)((int64_t)jcol(m, w->ix[l], w->k - 1) * 4);
            return 1;
        case S_LOOP + 8: pml_alu(o, pc, MW_OP_ALU, mask, 7, 4, 6); return 1;  /* sum += d * t */
        case S_LOOP + 9: pml_alu(o, pc, MW_OP_ALU, mask, 5, 8, 0); return 1;  /* i = in */
        case S_LOOP + 10: pml_alu(o, pc, MW_OP_ALU, mask, 4, 9, 0); return 1; /* d = dn */
        case S_LOOP + 11: pml_alu(o, pc, MW_OP_ALU, mask, 6, 10, 0); return 1; /* t = tn */
        case S_LOOP + 12: pml_alu(o, pc, MW_OP_ALU, mask, 16, 16, 2); return 1; /* k++, k < bound */
        case S_LOOP + 13:
            pml_branch(o, pc, mask, 16);
            w->k++;
            w->step = w->k < w->bound ? S_LOOP : S_TAIL;
            return 1;
        /* fetch last: dn = d_data[j]; tn = x_vec[i]; sum += d * t (j, i of diagonal bound - 1) */
        case S_TAIL: pml_alu(o, pc, MW_OP_ALU, mask, 12, 3, 0); return 1;
        case S_TAIL + 1:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 9, 12);
            PML_LANES(mask, l) o->addr[l] = m->data + ((uint64_t)m->ptr[w->bound - 1] + w->ix[l]) * 4;
            return 1;
        case S_TAIL + 2: pml_alu(o, pc, MW_OP_ALU, mask, 14, 5, 0); return 1;
        case S_TAIL + 3:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 10, 14);
            PML_LANES(mask, l) o->addr[l] = m->x + (uint64_t)((int64_t)jcol(m, w->ix[l], w->bound - 1) * 4);
            return 1;
        case S_TAIL + 4: pml_alu(o, pc, MW_OP_ALU, mask, 7, 4, 6); return 1;
        case S_TAIL + 5: pml_alu(o, pc, MW_OP_ALU, mask, 4, 9, 0); return 1;
        case S_TAIL + 6:
            pml_alu(o, pc, MW_OP_ALU, mask, 6, 10, 0);
            w->step = S_FINAL;
            return 1;
        /* sum += d * t; dst_vector[d_perm[ix]] = sum */
        case S_FINAL: pml_alu(o, pc, MW_OP_ALU, mask, 7, 4, 6); return 1;
        case S_FINAL + 1: pml_alu(o, pc, MW_OP_ALU, mask, 17, 1, 0); return 1;
        case S_FINAL + 2:
            pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 18, 17);
            PML_LANES(mask, l) o->addr[l] = m->dperm + (uint64_t)w->ix[l] * 4;
            return 1;
        case S_FINAL + 3: pml_alu(o, pc, MW_OP_ALU, mask, 18, 18, 0); return 1;
        case S_FINAL + 4:
            pml_st(o, pc, MW_OP_ST_GLOBAL, 4, mask, 18, 7);
            PML_LANES(mask, l) o->addr[l] = m->y + (uint64_t)m->perm[w->ix[l]] * 4;
            return 1;
        default: return 0;
        }
    }
}

static bool g_row(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < ((const struct spmv *)d)->dim;
}

int mw_wl_parboil_spmv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* paper: Parboil's "large" input (Dubcova3: 146689 rows, 3636643 nonzeros, about 25 a row) */
    static const uint32_t dims[4] = {2048, 8192, 40960, 146689}, avgs[4] = {8, 12, 16, 25};
    static const int launches[4] = {2, 4, 6, 50}; /* the host loop runs the kernel 50 times */
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct spmv *m = calloc(1, sizeof *m);
    if (!m) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    m->dim = dims[sz];
    struct mw_kgen_program p = {.owned = m, .free_owned = spmv_free};
    if (mw_wl_spmv_matrix(m->dim, avgs[sz], seed, &m->row, &m->col) != 0 || build_jds(m) != 0) goto oom;
    uint64_t len = m->ptr[m->depth], a = 0x10000000ull;
#define ALLOC(f, bytes) (m->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(data, len * 4);
    ALLOC(index, len * 4);
    ALLOC(dptr, (uint64_t)m->depth * 4);
    ALLOC(dperm, (uint64_t)m->dim * 4);
    ALLOC(nzcnt, (uint64_t)m->ngroups * 4);
    ALLOC(x, (uint64_t)m->dim * 4);
    ALLOC(y, (uint64_t)m->dim * 4);
#undef ALLOC
    m->c_ptr = 0x100, m->c_zcnt = 0x100 + 5000 * 4;
    /* compute_active_thread (gpu_info.cc) for a GTX480, compute 2.0, 15 SMs: 1536 threads and 8 blocks per SM */
    uint32_t block, grid;
    if ((uint64_t)m->ngroups * WARP > 15u * 1536u) block = 1536 / 8, grid = (m->ngroups * WARP + block - 1) / block;
    else block = WARP, grid = m->ngroups;
    for (int i = 0; i < launches[sz]; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        snprintf(k->k.name, sizeof k->k.name, "spmv_jds");
        k->k.grid[0] = grid, k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = block, k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = 16;
        k->data = m;
        k->guard = g_row;
        k->custom = gen;
        k->ninsts = S_END;
        k->scratch_bytes = sizeof(struct spmv_warp);
    }
    return mw_kgen_workload(w, "parboil.spmv", &p, e);
oom:
    free(p.kernels);
    spmv_free(m);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
