/* The simulated machine as data. Every parameter is declared once in MW_CONFIG_FIELDS (section, key, type,
 * default, range, unit, help); the YAML loader, --set overrides, the Lua table loader and --list-config all
 * read that one table. Defaults are GPGPU-Sim 3.2.x's shipped GTX480 config unless a comment says otherwise. */
#ifndef MW_CONFIG_H
#define MW_CONFIG_H

#include "common.h"

enum mw_cfg_type { MW_CT_INT, MW_CT_DOUBLE, MW_CT_BOOL, MW_CT_ENUM, MW_CT_STR };

/* Enumerations used by config fields; the choice strings list them in value order. */
enum { MW_ALLOC_ON_MISS = 0, MW_ALLOC_ON_FILL = 1 };
#define MW_ALLOC_CHOICES "on_miss|on_fill"
enum { MW_IDX_LINEAR = 0, MW_IDX_FERMI_HASH = 1, MW_IDX_XOR = 2, MW_IDX_XOR_FOLD = 3, MW_IDX_MASK = 4 };
#define MW_IDX_CHOICES "linear|fermi_hash|xor|xor_fold|mask"
enum { MW_COAL_LINE = 0, MW_COAL_SECTOR = 1 };
#define MW_COAL_CHOICES "line|sector"
enum { MW_DRAMQ_SPLIT = 0, MW_DRAMQ_UNIFIED = 1 };
#define MW_DRAMQ_CHOICES "split|unified"
enum { MW_DCMDARB_OLDEST = 0, MW_DCMDARB_ROUND_ROBIN = 1 };
#define MW_DCMDARB_CHOICES "oldest|round_robin"
enum { MW_MINFO_INSTANT = 0, MW_MINFO_MIB = 1 };
#define MW_MINFO_CHOICES "instant|mib"
enum { MW_L1D_ORG_LINE = 0, MW_L1D_ORG_CHUNKED = 1 };
#define MW_L1D_ORG_CHOICES "line|chunked"
#define MW_CK_VICTIM_CHOICES "set|line"

#define MW_STR_MAX 96

/* F(section, key, type, default, min, max, unit, help)
 * For ENUM the default is the value's index and `unit` holds the choice list ("a|b|c").
 * For STR the default is a string literal and min/max are unused. */
#define MW_CONFIG_FIELDS(F)                                                                                   \
    F(sim, seed, INT, 1, 0, 4294967295.0, "", "seed for every random choice (workload inputs, Lua math.random)") \
    F(sim, max_cycles, INT, 0, 0, 1e15, "core cycles", "stop after this many core cycles (0 = run to completion)") \
    F(sim, max_warp_insts, INT, 0, 0, 1e15, "warp instructions", "stop at the end of the core cycle in which this many warp instructions have issued (0 = no limit): the same work for every scheme compared") \
    F(sim, fast_forward, BOOL, 1, 0, 1, "", "jump the clocks over cycles in which every unit only waits (results are identical)") \
    F(sim, watchdog_cycles, INT, 1000000, 0, 1e15, "core cycles", "stop a run in which no warp instruction issues and no memory request moves for this many core cycles (0 = never)") \
    F(sim, lua_memory_mib, INT, 64, 1, 65536, "MiB", "ceiling of a Lua policy script's memory (a script may set a lower memory = N)") \
    F(gpu, n_sms, INT, 15, 1, 1024, "SMs", "streaming multiprocessors (GTX480: 15 clusters x 1 core)")          \
    F(clock, core_mhz, DOUBLE, 700.0, 1, 1e5, "MHz", "SM clock (GPGPU-Sim -gpgpu_clock_domains, 1st field)")    \
    F(clock, icnt_mhz, DOUBLE, 700.0, 1, 1e5, "MHz", "interconnect clock (2nd field)")                          \
    F(clock, l2_mhz, DOUBLE, 700.0, 1, 1e5, "MHz", "L2 clock (3rd field)")                                      \
    F(clock, dram_mhz, DOUBLE, 924.0, 1, 1e5, "MHz", "DRAM command clock (4th field)")                          \
    F(sm, max_threads, INT, 1536, 32, 65536, "threads", "resident threads per SM")                             \
    F(sm, max_warps, INT, 48, 1, 256, "warps", "resident warps per SM")                                        \
    F(sm, max_ctas, INT, 8, 1, 64, "CTAs", "resident CTAs per SM")                                             \
    F(sm, registers, INT, 32768, 1024, 1048576, "32-bit registers", "register file size per SM")              \
    F(sm, reg_alloc_unit, INT, 64, 1, 4096, "registers", "register allocation granularity per warp")           \
    F(sm, shmem_bytes, INT, 49152, 0, 1048576, "bytes", "shared memory per SM")                                \
    F(sm, n_schedulers, INT, 2, 1, 16, "schedulers", "warp schedulers per SM (warp w goes to w % n)")           \
    F(sm, issue_width, INT, 1, 1, 4, "inst/cycle", "instructions one scheduler may issue per cycle")           \
    F(sm, ibuffer_size, INT, 2, 1, 16, "insts", "decoded instructions buffered per warp")                      \
    F(sm, alu_units, INT, 2, 1, 16, "pipes", "SP (int/fp32) pipelines")                                        \
    F(sm, alu_latency, INT, 4, 1, 1000, "core cycles", "int/fp32 result latency (-ptx_opcode_latency_int)")    \
    F(sm, alu_interval, INT, 2, 1, 1000, "core cycles", "initiation interval of one SP pipe (32 lanes on 16)") \
    F(sm, dp_latency, INT, 8, 1, 1000, "core cycles", "fp64 latency (-ptx_opcode_latency_dp)")                  \
    F(sm, dp_interval, INT, 8, 1, 1000, "core cycles", "fp64 initiation interval")                             \
    F(sm, sfu_units, INT, 1, 1, 16, "pipes", "special-function pipelines")                                     \
    F(sm, sfu_latency, INT, 20, 1, 1000, "core cycles", "SFU latency")                                         \
    F(sm, sfu_interval, INT, 8, 1, 1000, "core cycles", "SFU initiation interval (32 lanes on 4 SFUs)")        \
    F(sm, tensor_latency, INT, 32, 1, 1000, "core cycles", "tensor-core latency (traces of sm_70+)")           \
    F(sm, tensor_interval, INT, 8, 1, 1000, "core cycles", "tensor-core initiation interval")                  \
    F(sm, branch_latency, INT, 4, 1, 1000, "core cycles", "branch / control latency")                          \
    F(sm, shmem_latency, INT, 24, 1, 1000, "core cycles", "shared-memory load latency")                        \
    F(sm, const_latency, INT, 8, 1, 1000, "core cycles", "constant-cache hit latency")                         \
    F(sm, inst_bytes, INT, 8, 4, 64, "bytes",                                                                    \
      "code bytes per instruction of built-in models and Lua generators (Fermi 8, sm_70+ 16); traces carry PCs") \
    F(coalescer, mode, ENUM, MW_COAL_LINE, 0, 0, MW_COAL_CHOICES,                                               \
      "line: one request per 128 B segment, shrunk to 64/32 B (Fermi); sector: one per 32 B sector")          \
    F(l1d, enabled, BOOL, 1, 0, 1, "", "L1 data cache present (false: every global load goes to L2)")         \
    F(l1d, size_bytes, INT, 16384, 128, 16777216, "bytes", "L1D capacity (16 KB / 48 KB shared split)")       \
    F(l1d, line_bytes, INT, 128, 32, 128, "bytes", "L1D line size (at most four 32 B sectors)")               \
    F(l1d, sector_bytes, INT, 32, 32, 32, "bytes", "sector size: the caches track 32 B sectors")               \
    F(l1d, assoc, INT, 4, 1, 64, "ways", "L1D associativity")                                                  \
    F(l1d, hit_latency, INT, 20, 1, 1000, "core cycles", "load-to-use latency of an L1D hit [X]")             \
    F(l1d, mshr_entries, INT, 32, 1, 4096, "entries", "L1D MSHR entries (-gpgpu_cache:dl1 A:32:8)")            \
    F(l1d, mshr_max_merge, INT, 8, 1, 64, "requests", "requests merged into one MSHR entry")                  \
    F(l1d, miss_queue, INT, 8, 1, 4096, "requests", "L1D miss queue toward the interconnect")                \
    F(l1d, alloc, ENUM, MW_ALLOC_ON_MISS, 0, 0, MW_ALLOC_CHOICES, "when a missing line takes its way")         \
    F(l1d, index, ENUM, MW_IDX_LINEAR, 0, 0, MW_IDX_CHOICES,                                                    \
      "set-index function: linear (modulo), GPGPU-Sim's Fermi hash (32 or 64 sets), index XOR upper tag bits, "  \
      "or mask (GPGPU-Sim 3.2's linear: line & (sets - 1))")                                                    \
    F(l1d, flush_at_kernel_end, BOOL, 0, 0, 1, "",                                                               \
      "invalidate every SM's L1D when a kernel ends (GPGPU-Sim -gpgpu_flush_l1_cache)")                        \
    F(l1d, latency_pipe, BOOL, 0, 0, 1, "",                                                                      \
      "misses and stores also leave hit_latency cycles after the access (GPGPU-Sim 4's -gpgpu_l1_latency pipe)") \
    F(l1d, bypass_cg, BOOL, 1, 0, 1, "",                                                                         \
      "trace loads marked .CG skip L1D (PTX ld.cg, GPGPU-Sim 3.x); false: only .STRONG.GPU loads do (Accel-Sim)") \
    F(l1d, organisation, ENUM, MW_L1D_ORG_LINE, 0, 0, MW_L1D_ORG_CHOICES,                                        \
      "line: one tag per line; chunked: 32 B chunks of different blocks with their own chunk tags (DyCache)")   \
    F(l1d, chunk_common_shift, INT, 26, 8, 63, "bit",                                                          \
      "chunked: chunks in one line share the address bits from here up (6-bit common tag of a 32-bit address)") \
    F(l1d, chunk_victim, ENUM, 0, 0, 0, MW_CK_VICTIM_CHOICES,                                                  \
      "chunked: a fine miss takes free slots or ways before replacing chunks of the lines with its common tag (set), or only that line's (line)") \
    F(l1d, classify_misses, BOOL, 0, 0, 1, "",                                                                  \
      "count each L1D miss as cold (the line never filled this L1D before) or capacity/conflict (it was): stats " \
      "l1d.miss_cold, l1d.miss_2c (a per-SM set of filled lines; false: no set, no cost)")                     \
    F(l1i, enabled, BOOL, 1, 0, 1, "",                                                                           \
      "fetch through an L1 instruction cache and GPGPU-Sim's fetch/decode stage (false: perfect fetch)")       \
    F(l1i, size_bytes, INT, 2048, 128, 1048576, "bytes", "L1I capacity (-gpgpu_cache:il1 4:128:4 = 2 KB)")     \
    F(l1i, line_bytes, INT, 128, 32, 128, "bytes", "L1I line size")                                             \
    F(l1i, assoc, INT, 4, 1, 64, "ways", "L1I associativity")                                                   \
    F(l1i, mshr_entries, INT, 2, 1, 4096, "entries", "L1I MSHR entries (il1 A:2:32)")                          \
    F(l1i, mshr_max_merge, INT, 32, 1, 1024, "fetches", "fetches merged into one L1I MSHR entry")              \
    F(l1i, miss_queue, INT, 4, 1, 4096, "requests", "L1I miss queue toward the interconnect")                  \
    F(icnt, latency, INT, 8, 1, 10000, "icnt cycles", "crossbar traversal latency")                            \
    F(icnt, flit_bytes, INT, 32, 4, 1024, "bytes", "flit size (-icnt_flit_size 32)")                           \
    F(icnt, header_bytes, INT, 8, 0, 1024, "bytes", "control bytes of a packet (address, ids)")                \
    F(icnt, in_buffer_flits, INT, 64, 1, 1 << 20, "flits", "buffer at each destination port (back-pressure)")  \
    F(icnt, out_queue, INT, 16, 1, 1 << 20, "packets", "injection queue at each source port")                 \
    F(icnt, inject_flits, INT, 9, 0, 1 << 20, "flits",                                                          \
      "flits that may wait at a source to enter the network (intersim's input buffer: 9; 0 = packets only)")  \
    F(icnt, sms_per_cluster, INT, 1, 1, 64, "SMs",                                                            \
      "SMs sharing one crossbar port (-gpgpu_n_cores_per_cluster): one injection queue and input buffer for their requests, one ejection port for their replies") \
    F(icnt, cluster_rotate, BOOL, 0, 0, 1, "",                                                                   \
      "the SMs of a cluster take turns to go first each core cycle (-gpgpu_simt_core_sim_order 1; false: in id order)") \
    F(l2, n_partitions, INT, 6, 1, 64, "partitions", "memory partitions (one DRAM channel each)")              \
    F(l2, subpartitions, INT, 2, 1, 8, "slices", "L2 slices per partition (-gpgpu_n_sub_partition_per_mchannel)") \
    F(l2, slice_bytes, INT, 65536, 1024, 1 << 28, "bytes", "L2 capacity per slice (12 x 64 KB = 768 KB)")     \
    F(l2, line_bytes, INT, 128, 32, 128, "bytes", "L2 line size (at most four 32 B sectors)")                  \
    F(l2, assoc, INT, 16, 1, 64, "ways", "L2 associativity (papers: 16-way)")                                  \
    F(l2, latency, INT, 120, 1, 10000, "L2 cycles", "L2 access pipeline latency (-rop_latency 120)")          \
    F(l2, mshr_entries, INT, 32, 1, 4096, "entries", "L2 MSHR entries per slice (A:32:4)")                    \
    F(l2, mshr_max_merge, INT, 4, 1, 64, "requests", "requests merged into one L2 MSHR entry")                \
    F(l2, miss_queue, INT, 8, 1, 4096, "requests", "L2 miss queue toward DRAM")                              \
    F(l2, input_queue, INT, 8, 1, 4096, "requests", "requests buffered at a slice's input")                  \
    F(l2, interleave_bytes, INT, 256, 32, 1 << 20, "bytes", "partition interleaving chunk (dramid@8)")        \
    F(l2, sectored, BOOL, 0, 0, 1, "",                                                                           \
      "a read or write of several sectors is looked up, merged and fetched per 32 B sector (Accel-Sim's L2)")  \
    F(l2, merge_info, ENUM, MW_MINFO_INSTANT, 0, 0, MW_MINFO_CHOICES,                                          \
      "how the DRAM controller learns L2 MSHR merges: instant (the queued read's merge and age are kept "    \
      "current) or mib (Li §4.4: merge information buffers, dummy requests through the L2-to-DRAM pipe)") \
    F(l2, reply_queue, INT, 0, 0, 4096, "requests",                                                             \
      "replies a slice may hold for the reply network; while it holds this many its lookup pipe's head waits (GPGPU-Sim: no L2 access while the L2-to-icnt queue, -gpgpu_dram_partition_queues 4th field, is full); 0 = unbounded") \
    F(dram, latency, INT, 100, 0, 10000, "L2 cycles", "fixed delay of a request from L2 to DRAM; data returns without one (-dram_latency)") \
    F(dram, banks, INT, 16, 1, 64, "banks", "banks per channel")                                               \
    F(dram, bank_groups, INT, 1, 1, 16, "groups", "bank groups (1 = off; GTX480 nbkgrp=4)")                    \
    F(dram, bus_bytes, INT, 8, 1, 128, "bytes", "channel width (2 x32 chips = 64-bit)")                        \
    F(dram, burst_length, INT, 8, 1, 64, "beats", "burst length (BL)")                                          \
    F(dram, data_rate, INT, 4, 1, 16, "beats/cycle", "data beats per command clock (GDDR5: 4)")               \
    F(dram, tCL, INT, 12, 1, 1000, "dram cycles", "CAS (read) latency")                                        \
    F(dram, tCWL, INT, 4, 0, 1000, "dram cycles", "CAS write latency (WL)")                                   \
    F(dram, tRCD, INT, 12, 1, 1000, "dram cycles", "ACT to READ")                                              \
    F(dram, tRCDWR, INT, 7, 1, 1000, "dram cycles", "ACT to WRITE (GPGPU-Sim: tRCD - (WL + 1))")              \
    F(dram, tRP, INT, 12, 1, 1000, "dram cycles", "PRE to ACT")                                                \
    F(dram, tRAS, INT, 28, 1, 1000, "dram cycles", "ACT to PRE")                                               \
    F(dram, tRC, INT, 40, 1, 1000, "dram cycles", "ACT to ACT, same bank")                                     \
    F(dram, tRRD, INT, 6, 1, 1000, "dram cycles", "ACT to ACT, other bank")                                    \
    F(dram, tCCD, INT, 2, 1, 1000, "dram cycles", "column to column (other bank group)")                       \
    F(dram, tCCDL, INT, 3, 1, 1000, "dram cycles", "column to column, same bank group")                        \
    F(dram, tWR, INT, 12, 1, 1000, "dram cycles", "write recovery")                                            \
    F(dram, tWTR, INT, 5, 1, 1000, "dram cycles", "write to read turnaround (GPGPU-Sim CDLR)")                 \
    F(dram, tRTP, INT, 2, 1, 1000, "dram cycles", "read to precharge (RTPL)")                                  \
    F(dram, tRTRS, INT, 2, 0, 1000, "dram cycles", "rank/bus turnaround added to read-to-write")               \
    F(dram, queue_mode, ENUM, MW_DRAMQ_UNIFIED, 0, 0, MW_DRAMQ_CHOICES, "one queue for reads and writes, or two") \
    F(dram, queue_size, INT, 16, 1, 4096, "requests", "unified queue size (-gpgpu_frfcfs_dram_sched_queue_size)") \
    F(dram, read_queue, INT, 64, 1, 4096, "requests", "read queue size (split mode)")                         \
    F(dram, write_queue, INT, 128, 1, 4096, "requests", "write queue size (split mode)")                      \
    F(dram, write_high, INT, 96, 0, 4096, "requests", "start draining writes at this many (split mode)")      \
    F(dram, write_low, INT, 80, 0, 4096, "requests", "stop draining writes at this many (split mode)")        \
    F(dram, max_row_hits, INT, 0, 0, 1 << 20, "requests", "row hits served before an older miss may close the row (0 = no cap)") \
    F(dram, return_queue, INT, 32, 1, 4096, "requests", "completed reads waiting to go back to L2")          \
    F(dram, input_queue, INT, 0, 0, 4096, "requests",                                                         \
      "requests buffered ahead of the scheduler queue, moved into it one per cycle in arrival order "        \
      "(DRAMSim3's transaction queue in front of its command queue; 0 = none)")                              \
    F(dram, address_map, STR, "RRRR.RRRRRRRR.BBBBCCCC.CCSSSSSS", 0, 0, "",                                     \
      "partition-local address bits, MSB first: R row, B bank, C column, S byte ('.' ignored)")              \
    F(dram, perfect, BOOL, 0, 0, 1, "",                                                                       \
      "perfect DRAM (Li 2015 §5.2): a request that reaches the controller is done at once, no queue limit")   \
    F(dram, drain_on_empty, BOOL, 0, 0, 1, "",                                                                \
      "split mode: an empty read queue starts a write drain that runs down to write_low (Li §2.3); "         \
      "off: writes are served only while no read is queued")                                                 \
    F(dram, cmd_arbiter, ENUM, MW_DCMDARB_OLDEST, 0, 0, MW_DCMDARB_CHOICES,                                   \
      "which ready bank issues its command: the oldest request's, or round robin from the bank after the "   \
      "last one that issued (Li §2.3)")                                                                        \
    F(trace, cache, BOOL, 1, 0, 1, "",                                                                          \
      "keep a binary cache (.mwtrace) of each parsed trace kernel file and read that instead of the text "    \
      "while the file's size and modification time are unchanged (results are identical)")                    \
    F(trace, cache_dir, STR, "", 0, 0, "",                                                                      \
      "where .mwtrace files go: \"\" = beside the trace when its folder is writable, else "                       \
      "$XDG_CACHE_HOME/moonwarp (~/.cache/moonwarp)")

/* Storage per type: INT int64_t, DOUBLE double, BOOL bool, ENUM int, STR char[MW_STR_MAX]. The struct below
 * is written out by hand (sections as nested structs, cfg.l1d.assoc) and checked against the table by
 * a static assertion per field in config.c. */

/* Where each field's value came from (indexed like mw_cfg_fields), so that cross-field checks can point at the
 * line that set it. kind DEFAULT: never set; FILE: line/col in `source`; SET: col in a --set assignment. */
#define MW_CFG_COUNT_(s, k, t, d, mn, mx, u, h) +1
enum { MW_CFG_NFIELDS = 0 MW_CONFIG_FIELDS(MW_CFG_COUNT_) };
enum { MW_ORIGIN_DEFAULT = 0, MW_ORIGIN_FILE, MW_ORIGIN_SET };
struct mw_cfg_origin {
    int kind, line, col;
};

/* Decision points, in the order of engine/policy.h's enum mw_point. */
#define MW_POLICY_POINTS 10 /* policy slots: the seven decision points, the L2 replacement instance, two bundles */
#define MW_POLICY_MAX_PARAMS 16

/* A policy chosen in the config: its implementation name and raw parameter values, each with the place it
 * was written so that validation against the registry can point at it. */
struct mw_policy_choice {
    char impl[64];       /* built-in name, or "lua" */
    char script[256];    /* impl: lua, script: path.lua */
    int nparams;
    struct {
        char key[64];
        char value[128];
        char file[256];
        int line, col;
    } params[MW_POLICY_MAX_PARAMS];
    char file[256];      /* where impl was set ("" = default) */
    int line, col;
};

struct mw_config {
    struct {
        int64_t seed, max_cycles, max_warp_insts;
        bool fast_forward;
        int64_t watchdog_cycles, lua_memory_mib;
    } sim;
    struct {
        int64_t n_sms;
    } gpu;
    struct {
        double core_mhz, icnt_mhz, l2_mhz, dram_mhz;
    } clock;
    struct {
        int64_t max_threads, max_warps, max_ctas, registers, reg_alloc_unit, shmem_bytes, n_schedulers,
            issue_width, ibuffer_size, alu_units, alu_latency, alu_interval, dp_latency, dp_interval, sfu_units,
            sfu_latency, sfu_interval, tensor_latency, tensor_interval, branch_latency, shmem_latency,
            const_latency, inst_bytes;
    } sm;
    struct {
        bool enabled;
        int64_t size_bytes, line_bytes, assoc, mshr_entries, mshr_max_merge, miss_queue;
    } l1i;
    struct {
        int mode;
    } coalescer;
    struct {
        bool enabled;
        int64_t size_bytes, line_bytes, sector_bytes, assoc, hit_latency, mshr_entries, mshr_max_merge,
            miss_queue;
        int alloc;
        int index;
        bool flush_at_kernel_end, latency_pipe, bypass_cg;
        int organisation;
        int64_t chunk_common_shift;
        int chunk_victim;
        bool classify_misses;
    } l1d;
    struct {
        int64_t latency, flit_bytes, header_bytes, in_buffer_flits, out_queue, inject_flits, sms_per_cluster;
        bool cluster_rotate;
    } icnt;
    struct {
        int64_t n_partitions, subpartitions, slice_bytes, line_bytes, assoc, latency, mshr_entries,
            mshr_max_merge, miss_queue, input_queue, interleave_bytes;
        bool sectored;
        int merge_info;
        int64_t reply_queue;
    } l2;
    struct {
        int64_t latency, banks, bank_groups, bus_bytes, burst_length, data_rate, tCL, tCWL, tRCD, tRCDWR, tRP,
            tRAS, tRC, tRRD, tCCD, tCCDL, tWR, tWTR, tRTP, tRTRS;
        int queue_mode;
        int64_t queue_size, read_queue, write_queue, write_high, write_low, max_row_hits, return_queue,
            input_queue;
        char address_map[MW_STR_MAX];
        bool perfect, drain_on_empty;
        int cmd_arbiter;
    } dram;
    struct {
        bool cache;
        char cache_dir[MW_STR_MAX];
    } trace;
    /* policies: one choice per decision point, indexed by enum mw_point */
    struct mw_policy_choice policy[MW_POLICY_POINTS];
    char source[256]; /* file the config came from ("" = defaults only) */
    struct mw_cfg_origin origin[MW_CFG_NFIELDS];
};

/* Field descriptor generated from MW_CONFIG_FIELDS. */
struct mw_cfg_field {
    const char *section, *key; /* "l1d", "assoc" */
    enum mw_cfg_type type;
    double def_num;
    const char *def_str;
    double min, max;
    const char *unit;    /* for ENUM: the choice list */
    const char *help;
    size_t offset;       /* into struct mw_config */
};
extern const struct mw_cfg_field mw_cfg_fields[];
extern const int mw_cfg_nfields;

/* Fill every field with its default and the default policies. */
void mw_config_defaults(struct mw_config *c);
/* A YAML file's text, read under the limits every YAML input of moonwarp has (1 MiB, 32 levels of nesting; a
 * folder is named as such); *text is the caller's to free. 0, or an error with file:line:col. */
int mw_yaml_read(const char *path, unsigned char **text, size_t *len, struct mw_err *e);
/* Whether slot k's choice is the user's: anything but the slot's default policy bare (a preset naming the
 * default, as every preset does, chooses nothing), so that a bundle may fill it. */
bool mw_config_slot_chosen(const struct mw_config *c, int k);
/* Load a YAML file over the defaults. Errors: "file:line:col: message", code MW_EINVAL. */
int mw_config_load_file(struct mw_config *c, const char *path, struct mw_err *e);
/* Apply "section.key=value" (or "policies.<point>=impl", "policies.<point>.<param>=value"). */
int mw_config_set(struct mw_config *c, const char *assignment, struct mw_err *e);
/* Cross-field checks (derived geometry must be whole, watermarks ordered, ...). */
int mw_config_validate(const struct mw_config *c, struct mw_err *e);
const struct mw_cfg_field *mw_config_find(const char *section, const char *key);

/* Derived geometry. */
static inline int mw_l1d_sets(const struct mw_config *c)
{
    return (int)(c->l1d.size_bytes / (c->l1d.line_bytes * c->l1d.assoc));
}
static inline int mw_l2_sets(const struct mw_config *c)
{
    return (int)(c->l2.slice_bytes / (c->l2.line_bytes * c->l2.assoc));
}
static inline int mw_l1i_sets(const struct mw_config *c)
{
    return (int)(c->l1i.size_bytes / (c->l1i.line_bytes * c->l1i.assoc));
}
static inline int mw_n_slices(const struct mw_config *c) { return (int)(c->l2.n_partitions * c->l2.subpartitions); }

#endif
