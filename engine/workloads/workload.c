/* Workload registry and helpers: the built-in list (micro-kernels, benchmark models) and opening by name. */
#include "workload.h"
#include "workloads.h"

#include <string.h>

const char *const mw_op_names[MW_OP_COUNT] = {
    "nop",       "alu",       "dp",        "sfu",       "tensor",   "branch",   "barrier",   "membar",   "exit",
    "ld_global", "st_global", "atomic",    "ld_local",  "st_local", "ld_shared", "st_shared", "ld_const",
};

const struct mw_builtin_desc mw_builtin_workloads[] = {
    {"micro.stream", "micro", "coalesced streaming loads, one 128 B line per warp load", "tiny|small|default",
     mw_wl_micro_stream},
    {"micro.colstride", "micro", "column-strided load: 32 lanes, 4 KB apart, all in one L1D set", "tiny|small|default",
     mw_wl_micro_colstride},
    {"micro.reuse", "micro", "a loop re-reading a 4 KB array (fits in L1D)", "tiny|small|default", mw_wl_micro_reuse},
    {"micro.compute", "micro", "ALU only, dependent chains", "tiny|small|default", mw_wl_micro_compute},
    {"polybench.atax", "polybench", "ATAX: A^T (A x); kernel1 strides down columns (divergent), kernel2 rows", "tiny|small|default|paper|choo", mw_wl_polybench_atax},
    {"polybench.bicg", "polybench", "BICG sub-kernel: s = A^T r (coalesced), q = A p (column-strided)", "tiny|small|default|paper|choo", mw_wl_polybench_bicg},
    {"polybench.mvt", "polybench", "MVT: x1 += A y1 (divergent), x2 += A^T y2 (coalesced)", "tiny|small|default|paper|choo", mw_wl_polybench_mvt},
    {"polybench.gesummv", "polybench", "GESUMMV: y = alpha A x + beta B x, two divergent row walks", "tiny|small|default|paper|choo", mw_wl_polybench_gesummv},
    {"polybench.syrk", "polybench", "SYRK: C = alpha A A^T + beta C, 32x8 blocks, a[j*M+k] divergent", "tiny|small|default|paper|choo|mid", mw_wl_polybench_syrk},
    {"polybench.syr2k", "polybench", "SYR2K: C = alpha A B^T + alpha B A^T + beta C", "tiny|small|default|paper|choo|mid", mw_wl_polybench_syr2k},
    {"polybench.gemm", "polybench", "GEMM: C = alpha A B + beta C, 32x8 blocks, coalesced rows", "tiny|small|default|paper", mw_wl_polybench_gemm},
    {"polybench.2mm", "polybench", "2MM: two chained matrix multiplications", "tiny|small|default|paper|choo", mw_wl_polybench_2mm},
    {"polybench.3mm", "polybench", "3MM: three matrix multiplications", "tiny|small|default|paper", mw_wl_polybench_3mm},
    {"polybench.2dconv", "polybench", "2DCONV: 3x3 stencil over a 2-D grid", "tiny|small|default|paper|choo", mw_wl_polybench_2dconv},
    {"polybench.3dconv", "polybench", "3DCONV: 3-D stencil, one launch per plane", "tiny|small|default|paper", mw_wl_polybench_3dconv},
    {"polybench.fdtd2d", "polybench", "FDTD-2D: three kernels per time step", "tiny|small|default|paper|mid", mw_wl_polybench_fdtd2d},
    {"rodinia.bfs", "rodinia", "BFS: Kernel + Kernel2 per level on a seeded random graph (6 edges per node; rmat: an R-MAT graph)", "tiny|small|default|paper|rmat", mw_wl_rodinia_bfs},
    {"rodinia.hotspot", "rodinia", "HOTSPOT: 16x16 shared-memory tiles, pyramid height 2 stencil steps per launch", "tiny|small|default|paper", mw_wl_rodinia_hotspot},

    /* @group rodinia-a */
    {"rodinia.srad_v2", "rodinia", "SRAD v2: srad_cuda_1 + srad_cuda_2 per iteration, 16x16 shared-memory tiles", "tiny|small|default|paper", mw_wl_rodinia_srad_v2},
    {"rodinia.backprop", "rodinia", "BACKPROP: layerforward (16x16 shared tree reduction) + adjust_weights, 16 hidden units", "tiny|small|default|paper", mw_wl_rodinia_backprop},
    {"rodinia.nw", "rodinia", "NW: needle_cuda_shared_1/2 per block anti-diagonal, 16-thread CTAs sweeping 16x16 shared tiles", "tiny|small|default|paper", mw_wl_rodinia_nw},
    {"rodinia.lud", "rodinia", "LUD: lud_diagonal, lud_perimeter, lud_internal per 16x16 block step", "tiny|small|default|paper", mw_wl_rodinia_lud},
    {"rodinia.gaussian", "rodinia", "GAUSSIAN: Fan1 (multipliers down a column) + Fan2 (4x4-block trailing update) per column", "tiny|small|default|paper", mw_wl_rodinia_gaussian},
    {"rodinia.srad_v1", "rodinia", "SRAD v1: extract, then prepare/reduce/srad/srad2 per iteration, compress; 512-thread CTAs", "tiny|small|default|paper", mw_wl_rodinia_srad_v1},

    /* @group rodinia-b */
    {"rodinia.kmeans", "rodinia", "KMEANS: invert_mapping, then kmeansPoint per iteration (features via the transposed layout)", "tiny|small|default|paper", mw_wl_rodinia_kmeans},
    {"rodinia.btree", "rodinia", "B+TREE: findRangeK then findK, one 508-thread CTA per query on an order-508 tree", "tiny|small|default|paper", mw_wl_rodinia_btree},
    {"rodinia.streamcluster", "rodinia", "STREAMCLUSTER: kernel_compute_cost per pgain call of pFL on seeded points", "tiny|small|default|paper", mw_wl_rodinia_streamcluster},
    {"rodinia.cfd", "rodinia", "CFD euler3d: step_factor, then 3 x (compute_flux, time_step) per iteration on a seeded 4-neighbour mesh", "tiny|small|default|paper", mw_wl_rodinia_cfd},
    {"rodinia.particlefilter", "rodinia", "PARTICLEFILTER (float): likelihood, sum, normalize_weights (CDF), find_index per frame on a seeded video", "tiny|small|default|paper", mw_wl_rodinia_particlefilter},
    {"rodinia.heartwall", "rodinia", "HEARTWALL: one kernel per frame, a CTA per tracked point (template, search-area convolution, cumulative sums, max search)", "tiny|small|default|paper", mw_wl_rodinia_heartwall},

    /* @group parboil-mars-libor */
    {"parboil.spmv", "parboil", "SPMV: spmv_jds on a seeded skewed sparse matrix in padded JDS, x gathered by column", "tiny|small|default|paper", mw_wl_parboil_spmv},
    {"parboil.lbm", "parboil", "LBM: performStreamCollide per time step, D3Q19 SoA lattice, 19 neighbour stores a cell", "tiny|small|default|paper", mw_wl_parboil_lbm},
    {"libor.libor", "gpgpu-sim", "LIBOR Monte Carlo (ISPASS-2009 LIB): per-thread arrays in interleaved local memory", "tiny|small|default|paper", mw_wl_libor},
    {"mars.iix", "mars", "Mars inverted index: byte-wise link scan per 1 KB record, prefix sums, bitonic sort, grouping", "tiny|small|default|paper", mw_wl_mars_iix},
    {"mars.ss", "mars", "Mars similarity score: one document pair per map thread (float4 dot product and norms), prefix sums, bitonic sort by score, grouping", "tiny|small|default", mw_wl_mars_ss},

    /* @group graph */
    {"graph.sssp", "graphbig", "SSSP: Bellman-Ford relax (atomicMin) + fold per iteration, R-MAT graph, unit weights", "tiny|small|default|paper|ldbc", mw_wl_graph_sssp},
    {"graph.cc", "graphbig", "CC: edge-parallel hooking, update, pointer jumping until no hook, R-MAT graph", "tiny|small|default|paper|ldbc", mw_wl_graph_cc},
    {"graph.dc", "graphbig", "DC: per-vertex edge walk, atomicAdd on each target's in-degree, R-MAT graph", "tiny|small|default|paper|ldbc", mw_wl_graph_dc},
    {"graph.bc", "graphbig", "BC: per root, BFS forward levels (atomicAdd path counts) and backward dependency sums", "tiny|small|default|paper|ldbc", mw_wl_graph_bc},
    {"graph.tc", "graphbig", "TC: per-thread quicksort of neighbour lists (local stack), sorted-list intersections, atomicAdd", "tiny|small|default|paper|ldbc", mw_wl_graph_tc},
    {"graph.gc", "graphbig", "GC: one launch per colour, uncoloured vertices with the largest random number win", "tiny|small|default|paper|ldbc", mw_wl_graph_gc},
    /* @group sdk */
    {"sdk.vectoradd", "cuda-sdk", "vectorAdd: C[i] = A[i] + B[i], 256-thread CTAs, 50000 elements", "tiny|small|default|paper", mw_wl_sdk_vectoradd},
    {"sdk.scalarprod", "cuda-sdk", "scalarProd: scalarProdGPU<<<128, 256>>>, 256 dot products of 4096 floats, 1024 accumulators and a shared tree", "tiny|small|default|paper", mw_wl_sdk_scalarprod},
    {"sdk.blackscholes", "cuda-sdk", "BlackScholes: BlackScholesGPU<<<480, 128>>> grid-stride over 4M options (one of the sample's 512 launches)", "tiny|small|default|paper", mw_wl_sdk_blackscholes},
    {"sdk.reduction", "cuda-sdk", "reduction: reduce6 (int, 256 threads, 64 CTAs) over 2^24 elements, then one reduce6<32> CTA on the partial sums", "tiny|small|default|paper", mw_wl_sdk_reduction},
    {"sdk.transpose", "cuda-sdk", "transpose 1024x1024: naive, coalesced (32-way bank conflicts), no-bank-conflict and diagonal kernels, 32x16 threads a 32x32 tile", "tiny|small|default|paper", mw_wl_sdk_transpose},
    {"sdk.convsep", "cuda-sdk", "convolutionSeparable 3072x3072, 17 taps: convolutionRowsKernel (16x4) then convolutionColumnsKernel (16x8), once (the sample: 17 times)", "tiny|small|default|paper", mw_wl_sdk_convsep},
    {"sdk.histogram", "cuda-sdk", "histogram 64 MB of seeded bytes: histogram64Kernel + merge, then histogram256Kernel (per-warp tag-loop counters) + merge", "tiny|small|default|paper", mw_wl_sdk_histogram},

    /* @group li */
    {"gpgpusim.sssp", "gpgpu-sim", "SSSP (Harish & Narayanan): Kernel1 atomicMin relax of masked vertices + Kernel2 fold per iteration, weighted R-MAT graph", "tiny|small|default|paper", mw_wl_gpgpusim_sssp},
    {"rodinia.mergesort", "rodinia", "MERGESORT (hybridsort): histogram, bucketcount/prefix/bucketsort into 1024 buckets, mergeSortFirst, mergeSortPass per run length, mergepack", "tiny|small|default|paper", mw_wl_rodinia_mergesort},
    {"lonestar.sp", "lonestar", "SP survey propagation: calc_pi_values + update_eta until converged, update_bias, decimate_2 per round, random 3-SAT", "tiny|small|default|paper", mw_wl_lonestar_sp},
    {"lonestar.pta", "lonestar", "PTA Andersen points-to (copy rule): copyInv unions of difference sets + updatePtsInformation per iteration, 32-word elements, warp per variable", "tiny|small|default|paper", mw_wl_lonestar_pta},
    {"rodinia.nn", "rodinia", "NN: euclid, one thread per 8-byte (lat, lng) record, distance to the query point", "tiny|small|default|paper", mw_wl_rodinia_nn},
    {"rodinia.leukocyte", "rodinia", "LEUKOCYTE detection: GICOV_kernel (7 circles x 150 points per pixel) + dilate_kernel (25x25 disk max); IMGVF tracking not modelled", "tiny|small|default|paper", mw_wl_rodinia_leukocyte},

    /* @group oaws */
    {"shoc.spmv", "shoc", "SPMV (SHOC): spmv_csr_scalar_kernel (thread per row) then spmv_csr_vector_kernel (warp per row), random CSR matrix with 1% nonzeros", "tiny|small|default|paper", mw_wl_shoc_spmv},

    /* @group lbbfs */
    {"gpgpusim.bfs", "gpgpu-sim", "BFS (ISPASS-2009 suite): one Kernel per level, 256-thread CTAs, a frontier thread sets its neighbours' mask itself; seeded random graph (6 edges per node, graph65536 at default)", "tiny|small|default|paper", mw_wl_gpgpusim_bfs},
};
const int mw_builtin_nworkloads = (int)(sizeof mw_builtin_workloads / sizeof mw_builtin_workloads[0]);

int mw_workload_open_builtin(struct mw_workload *w, const char *name, const char *size, uint64_t seed,
                             struct mw_err *e)
{
    for (int i = 0; i < mw_builtin_nworkloads; i++)
        if (strcmp(mw_builtin_workloads[i].name, name) == 0) return mw_builtin_workloads[i].open(w, size, seed, e);
    return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "unknown workload '%s' (see 'moonwarp list-workloads')", name);
}

void mw_workload_close(struct mw_workload *w)
{
    if (w->ops && w->ops->destroy) w->ops->destroy(w);
    memset(w, 0, sizeof *w);
}
