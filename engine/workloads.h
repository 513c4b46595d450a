/* Openers of the built-in workloads, listed in engine/workload.c's registry. */
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

/* @group parboil-mars-libor */

/* @group graph */

#endif
