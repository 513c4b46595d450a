/* Openers of the built-in workloads, listed in engine/workloads/workload.c's registry. */
#ifndef MW_WORKLOADS_H
#define MW_WORKLOADS_H

#include "workload.h"

int mw_wl_micro_stream(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_micro_colstride(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_micro_reuse(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_micro_compute(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_atax(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_bicg(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_mvt(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_gesummv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_syrk(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_syr2k(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_gemm(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_2mm(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_3mm(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_2dconv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_3dconv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_polybench_fdtd2d(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_bfs(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* The BFS input: a seeded uniform random undirected graph in CSR form (row: n + 1 offsets, col: m targets). */
int mw_wl_bfs_graph(uint32_t n, uint32_t avg, uint64_t seed, uint32_t **row, uint32_t **col, uint32_t *m);

int mw_wl_rodinia_hotspot(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);

/* @group rodinia-a */
int mw_wl_rodinia_srad_v2(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_backprop(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_nw(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_lud(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_gaussian(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_srad_v1(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);

/* @group rodinia-b */
int mw_wl_rodinia_kmeans(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_btree(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* B+TREE query i of a seed (range = 1: findRangeK's starts, 0: findK's keys), in [0, size). */
int32_t mw_wl_btree_query(uint64_t seed, int range, uint32_t i, uint32_t size);
int mw_wl_rodinia_streamcluster(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_cfd(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* The CFD mesh: nbr[j * nelr + i] for the NNB = 4 faces of element i (-1 wing, -2 far field), seeded. */
int mw_wl_cfd_mesh(int64_t nel, int64_t nelr, uint64_t seed, int32_t *nbr);
int mw_wl_rodinia_particlefilter(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* PARTICLEFILTER's synthetic video I[x][y][frame] (X * Y * nfr bytes; noise from seed[0] = 0, so seed-free). */
int mw_wl_particlefilter_video(int64_t X, int64_t Y, int64_t nfr, uint8_t *I);
int mw_wl_rodinia_heartwall(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* HEARTWALL's seeded move of point coordinate `point` (2 * block + 0 row, + 1 column) at an update frame, in [-2, 2]. */
int mw_wl_heartwall_offset(uint64_t seed, int64_t frame, int point);

/* @group parboil-mars-libor */
int mw_wl_parboil_spmv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* The SPMV input: a seeded random sparse n x n matrix in CSR (row: n + 1 offsets, col: sorted columns) whose
 * row lengths are log-normal with mean avg. 0 or -1 when out of memory. */
int mw_wl_spmv_matrix(uint32_t n, uint32_t avg, uint64_t seed, uint32_t **row, uint32_t **col);
int mw_wl_parboil_lbm(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* The LBM cell flags of an X x Y x Z box (x fastest): 1 obstacle (the faces and seeded spheres), 2 accelerated. */
void mw_wl_lbm_flags(int64_t X, int64_t Y, int64_t Z, uint64_t seed, uint8_t *f);
int mw_wl_libor(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* LIBOR's swaption test (swapval < 0) for each of the 15 options after the forward path of N rates, Nmat steps. */
void mw_wl_libor_taken(int N, int Nmat, bool taken[15]);
int mw_wl_mars_iix(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* The inverted index's input at size index sz (enum mw_kgen_size): all files' text as copied to the device (each
 * file 256 B aligned, record-ending newlines turned into '\0'), and the map records (start in text, size, file). */
int mw_wl_iix_docs(int sz, uint64_t seed, char **text, uint64_t *len, uint32_t **rec_off, uint32_t **rec_size,
                   uint32_t **rec_file, uint32_t *nrec, uint32_t *nfiles);
int mw_wl_mars_ss(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* mars.ss's matrix entry i (row-major, rand() % 100 as GenMatrix) of a seed, and the map function's score of
 * documents d1, d2 (rows of dim floats) in the kernel's order of float operations. */
float mw_wl_ss_value(uint64_t seed, uint32_t i);
float mw_wl_ss_score(uint64_t seed, uint32_t dim, uint32_t d1, uint32_t d2);

/* @group graph */
/* The graph benchmarks' input: a seeded R-MAT (Graph500 Kronecker, A = 0.57, B = C = 0.19) undirected graph
 * with n vertices and m stored (directed) edges, both directions stored, no self-loops or duplicates, vertex
 * labels randomly permuted, each neighbour list in generation order; CSR row (n + 1 offsets) and col (m). */
struct mw_graph {
    uint32_t n, m;
    uint32_t *row, *col;
};
int mw_wl_graph_rmat(uint32_t n, uint32_t m, uint64_t seed, struct mw_graph *g);
void mw_wl_graph_free(struct mw_graph *g);
/* The graph of a named size (tiny|small|default|paper): graph.sssp, graph.cc and graph.dc run on it; graph.bc,
 * graph.tc and graph.gc, whose work grows faster with the graph, use smaller default graphs (see their files). */
int mw_wl_graph_input(const char *size, uint64_t seed, struct mw_graph *g, struct mw_err *e);
int mw_wl_graph_sssp(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_graph_cc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_graph_dc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_graph_bc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_graph_tc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_graph_gc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);

/* @group sdk */
int mw_wl_sdk_vectoradd(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_sdk_scalarprod(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_sdk_blackscholes(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_sdk_reduction(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_sdk_transpose(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_sdk_convsep(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_sdk_histogram(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* Byte b of sdk.histogram's input for a seed. */
uint32_t mw_wl_histogram_byte(uint64_t seed, uint64_t b);

/* @group li */
int mw_wl_gpgpusim_sssp(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* gpgpusim.sssp's weight (1..10) of stored edge i of the R-MAT graph of a seed. */
uint32_t mw_wl_gsssp_weight(uint64_t seed, uint32_t i);
int mw_wl_gpgpusim_bfs(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* gpgpusim.bfs on a given CSR graph (copied; row has n + 1 offsets) searched from src. */
int mw_wl_gpgpusim_bfs_on(struct mw_workload *w, const struct mw_graph *g, uint32_t src, struct mw_err *e);
int mw_wl_rodinia_mergesort(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* rodinia.mergesort's element i of a seed's list, in [0, 1). */
float mw_wl_mergesort_value(uint64_t seed, uint32_t i);
int mw_wl_lonestar_sp(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* lonestar.sp's formula: literal k of clause c (of N variables) is variable *var, negated if *neg. */
void mw_wl_sp_literal(uint64_t seed, uint32_t N, uint32_t c, int k, uint32_t *var, bool *neg);
int mw_wl_lonestar_pta(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_nn(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_rodinia_leukocyte(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* the li group's end */
/* the oaws group */
int mw_wl_shoc_spmv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
/* SHOC initRandomMatrix: a dim x dim CSR matrix, dim^2 / 100 entries (rowDelimiters, cols); 0 or -1 */
int mw_wl_shoc_spmv_matrix(uint32_t dim, uint64_t seed, uint32_t **row_out, uint32_t **col_out);

#endif
