/* Address generation for the LDST unit: the Fermi coalescer (or 32 B sector requests), shared-memory bank
 * conflicts and local-memory address interleaving (engine/coalescer.h). */
#include "coalescer.h"

#define SECTOR 32

void mw_coalescer_init(struct mw_coalescer *co, const struct mw_config *c, const struct mw_set_index *idx)
{
    co->line_bytes = (uint64_t)c->l1d.line_bytes;
    co->sector_mode = c->coalescer.mode == MW_COAL_SECTOR;
    co->idx = *idx;
}

/* One request per distinct unit touched by the active lanes, in lane order of first touch. The unit is the
 * Fermi segment (GPGPU-Sim arch 13: 32 B for 1-byte, 64 B for 2-byte, the line for wider accesses) in line
 * mode, the 32 B sector in sector mode. A line-mode request is then shrunk to the aligned 32 B or 64 B
 * block if only that part of it is touched. */
int mw_coalesce(const struct mw_coalescer *co, const struct mw_inst *in, struct mw_coal_req *out)
{
    uint64_t line_bytes = co->line_bytes;
    int width = in->width ? in->width : 4;
    uint64_t unit = width == 1 ? 32 : width == 2 ? 64 : line_bytes;
    if (unit > line_bytes) unit = line_bytes;
    bool sector_mode = co->sector_mode;
    if (sector_mode) unit = SECTOR;
    uint64_t keys[MW_WARP_SIZE * 2];
    int n = 0;
    for (int lane = 0; lane < MW_WARP_SIZE; lane++) {
        if (!(in->mask >> lane & 1u)) continue;
        uint64_t end = in->addr[lane] + (uint64_t)width - 1;
        for (uint64_t b = in->addr[lane];;) {
            uint64_t key = b & ~(unit - 1), stop = key + unit - 1;
            if (stop > end) stop = end;
            uint64_t line = b & ~(line_bytes - 1);
            uint8_t sec = 0;
            for (uint64_t x = b & ~(uint64_t)(SECTOR - 1); x <= stop; x += SECTOR)
                sec |= (uint8_t)(1u << ((x - line) / SECTOR));
            int j = 0;
            while (j < n && keys[j] != key) j++;
            if (j == n) {
                if (n == MW_WARP_SIZE * 2) break; /* cannot happen for widths up to 16 bytes */
                keys[n] = key;
                out[n].line = line;
                out[n].sectors = 0;
                out[n].lanes = 0;
                n++;
            }
            out[j].sectors |= sec;
            out[j].lanes |= 1u << lane;
            if (stop >= end) break;
            b = stop + 1;
        }
    }
    for (int j = 0; j < n; j++) {
        uint8_t sec = out[j].sectors;
        int lo = __builtin_ctz(sec), hi = 31 - __builtin_clz((unsigned)sec);
        if (sector_mode || (hi == lo)) out[j].size = SECTOR;
        else if (hi - lo == 1 && lo % 2 == 0) out[j].size = 64;
        else out[j].size = (uint8_t)(line_bytes > 128 ? 128 : line_bytes);
        if (!sector_mode && out[j].size == line_bytes) out[j].size = (uint8_t)line_bytes;
        out[j].set = (uint16_t)mw_set_index_of(&co->idx, out[j].line);
    }
    return n;
}

int mw_shared_conflicts(const struct mw_inst *in)
{
    /* 32 banks of 4 bytes; lanes reading the same word broadcast */
    uint64_t words[32][MW_WARP_SIZE];
    int cnt[32] = {0}, worst = 1;
    for (int lane = 0; lane < MW_WARP_SIZE; lane++) {
        if (!(in->mask >> lane & 1u)) continue;
        uint64_t w = in->addr[lane] >> 2;
        int b = (int)(w & 31), k;
        for (k = 0; k < cnt[b]; k++)
            if (words[b][k] == w) break;
        if (k == cnt[b]) words[b][cnt[b]++] = w;
        if (cnt[b] > worst) worst = cnt[b];
    }
    return worst;
}

/* Local memory: an address below MW_LOCAL_WINDOW is an offset in the thread's own local window (what traces
 * record for LDL/STL, the same offset in every lane). The hardware interleaves the threads' local words, so the
 * same offset of consecutive threads is consecutive in memory: thread slot t (SM, warp slot, lane) finds word
 * `off / width` of its window at MW_LOCAL_BASE + ((off / width) * slots + t) * width. A warp's 4-byte local
 * access is one 128 B line, an 8-byte one two. Addresses at or above the window are global already. */
const struct mw_inst *mw_local_translate(const struct mw_config *c, int sm, int w, const struct mw_inst *in,
                                         struct mw_inst *out)
{
    *out = *in;
    uint64_t width = in->width ? in->width : 4;
    uint64_t per_sm = (uint64_t)c->sm.max_warps * MW_WARP_SIZE;
    uint64_t slots = (uint64_t)c->gpu.n_sms * per_sm;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        uint64_t a = in->addr[l];
        if (!(in->mask >> l & 1u) || a >= MW_LOCAL_WINDOW) continue;
        uint64_t t = (uint64_t)sm * per_sm + (uint64_t)w * MW_WARP_SIZE + (uint64_t)l;
        out->addr[l] = MW_LOCAL_BASE + ((a / width) * slots + t) * width + a % width;
    }
    return out;
}

