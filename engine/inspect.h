/* Read-only views into a running or paused simulation for the Lua inspector and the REPL: warp states, L1D
 * lines with their policy metadata, MSHR entries, DRAM banks and queues. Nothing here changes the machine. */
#ifndef MW_INSPECT_H
#define MW_INSPECT_H

#include "sim.h"

/* Has the machine been built (the first run started)? Before that there are no SMs, caches or banks. */
bool mw_inspect_started(const struct mw_sim *s);
int mw_inspect_n_partitions(const struct mw_sim *s);
int mw_inspect_dram_banks(const struct mw_sim *s);

struct mw_warp_info {
    int state;                 /* 0 free, 1 active, 2 at a barrier, 3 exited */
    int cta_slot, warp_in_cta;
    uint64_t age, insts, wake;
    uint32_t pending_loads, pending_stores;
    int ibuffer;               /* decoded instructions waiting */
    bool stream_done;
    bool has_inst;             /* next instruction decoded: */
    uint64_t pc;
    int op;                    /* enum mw_op */
    uint32_t mask;
};
/* 0, or -1 when the machine is not built or sm/w is out of range. */
int mw_inspect_warp(const struct mw_sim *s, int sm, int w, struct mw_warp_info *out);

struct mw_line_info {
    bool used;
    uint64_t line, last_access, fill_time, pc;
    uint32_t hits;
    int warp;
    uint8_t valid, pending;    /* sector masks: valid data; being filled (a reserved line has pending, no valid) */
    uint8_t dirty;             /* sector mask (0 in the write-evict L1D) */
    const uint8_t *meta;       /* the replacement policy's per-line bytes (meta_bytes of them), or NULL */
    size_t meta_bytes;
};
int mw_inspect_l1d_line(const struct mw_sim *s, int sm, int set, int way, struct mw_line_info *out);

struct mw_mshr_info {
    bool valid;
    uint64_t line, pc;
    uint8_t sectors;
    int waiters, inflight, way, warp;
};
int mw_inspect_mshr_entries(const struct mw_sim *s); /* entries per SM */
int mw_inspect_mshr(const struct mw_sim *s, int sm, int i, struct mw_mshr_info *out);
/* The SM's L1D miss queue occupancy and its LDST slots in use; -1 when out of range. */
int mw_inspect_miss_queue(const struct mw_sim *s, int sm);
int mw_inspect_ldst_used(const struct mw_sim *s, int sm);

struct mw_bank_info {
    uint32_t open_row;         /* MW_ROW_NONE when precharged */
};
int mw_inspect_dram_bank(const struct mw_sim *s, int channel, int bank, struct mw_bank_info *out);
/* Requests queued at the channel's scheduler, and queued or in flight; -1 when out of range. */
int mw_inspect_dram_queue(const struct mw_sim *s, int channel);
int mw_inspect_dram_pending(const struct mw_sim *s, int channel);

#endif
