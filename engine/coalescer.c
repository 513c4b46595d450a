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
static uint64_t coalesce_unit(const struct mw_coalescer *co, int width)
{
    uint64_t unit = width == 1 ? 32 : width == 2 ? 64 : co->line_bytes;
    if (unit > co->line_bytes) unit = co->line_bytes;
    if (co->sector_mode) unit = SECTOR;
    return unit;
}

/* Each request's size (the shrink) and L1D set, once its sectors are known. */
static void coalesce_finish(const struct mw_coalescer *co, struct mw_coal_req *out, int n)
{
    uint64_t line_bytes = co->line_bytes;
    bool sector_mode = co->sector_mode;
    for (int j = 0; j < n; j++) {
        uint8_t sec = out[j].sectors;
        int lo = __builtin_ctz(sec), hi = 31 - __builtin_clz((unsigned)sec);
        if (sector_mode || (hi == lo)) out[j].size = SECTOR;
        else if (hi - lo == 1 && lo % 2 == 0) out[j].size = 64;
        else out[j].size = (uint8_t)(line_bytes > 128 ? 128 : line_bytes);
        if (!sector_mode && out[j].size == line_bytes) out[j].size = (uint8_t)line_bytes;
        out[j].set = (uint16_t)mw_set_index_of(&co->idx, out[j].line);
    }
}

/* The definition, step by step: every lane's bytes unit by unit, each unit looked up among those seen. Used for
 * accesses wider than a sector, which may span several units (and could in principle overflow the list). */
static int coalesce_scan(const struct mw_coalescer *co, const struct mw_inst *in, struct mw_coal_req *out, int width,
                         uint64_t unit)
{
    uint64_t line_bytes = co->line_bytes;
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
    coalesce_finish(co, out, n);
    return n;
}

/* A set of the units seen, for lookups among them: open addressing over twice the most units an access of at
 * most a sector per lane touches (two per lane), occupancy in a bit set so that starting one costs two stores. */
#define KH_SLOTS (MW_WARP_SIZE * 4)
struct keyhash {
    uint64_t used[KH_SLOTS / 64];
    uint64_t key[KH_SLOTS];
    int8_t req[KH_SLOTS];
};
static inline unsigned kh_home(uint64_t key) { return (unsigned)(((key >> 5) * 0x9E3779B97F4A7C15ull) >> 57); }
static inline void kh_put(struct keyhash *h, uint64_t key, int req)
{
    unsigned i = kh_home(key);
    while (h->used[i >> 6] >> (i & 63) & 1u) i = (i + 1) & (KH_SLOTS - 1);
    h->used[i >> 6] |= 1ull << (i & 63);
    h->key[i] = key;
    h->req[i] = (int8_t)req;
}
static inline int kh_get(const struct keyhash *h, uint64_t key)
{
    for (unsigned i = kh_home(key); h->used[i >> 6] >> (i & 63) & 1u; i = (i + 1) & (KH_SLOTS - 1))
        if (h->key[i] == key) return h->req[i];
    return -1;
}

/* The units seen so far while coalescing in linear time. */
struct units {
    uint64_t keys[MW_WARP_SIZE * 2], lo, hi;
    int n, cur;
    bool hashed;
    struct keyhash h;
};

/* Request index of unit `k` (line `line`), a new one if unseen. The unit equal to the previous part's merges at
 * once (one line, any stride within a unit); a unit above every unit seen or below all of them (any monotone
 * pattern: an affine stride up or down) is new without a lookup; only a unit between those seen (divergent
 * addresses) is looked up, in a hash set built at its first need. */
static inline int unit_of(struct units *u, struct mw_coal_req *out, uint64_t k, uint64_t line)
{
    if (u->cur >= 0 && k == u->keys[u->cur]) return u->cur;
    int j = -1;
    if (u->n && k >= u->lo && k <= u->hi) {
        if (!u->hashed) {
            u->h.used[0] = u->h.used[1] = 0;
            for (int i = 0; i < u->n; i++) kh_put(&u->h, u->keys[i], i);
            u->hashed = true;
        }
        j = kh_get(&u->h, k);
    }
    if (j < 0) {
        j = u->n++;
        u->keys[j] = k;
        out[j].line = line;
        out[j].sectors = 0;
        out[j].lanes = 0;
        if (u->hashed) kh_put(&u->h, k, j);
        if (j == 0 || k < u->lo) u->lo = k;
        if (j == 0 || k > u->hi) u->hi = k;
    }
    return u->cur = j;
}

/* All 32 lanes at a0 + l * s with 0 <= s <= 32 and width w <= 32 (a coalesced or warp-uniform access, the common
 * case of the built-in models), in closed form: the lanes' bytes run from a0 to a0 + 31 s + w - 1 with gaps of at
 * most 31 bytes, so every unit and every sector between the first and last byte is touched, the units in address
 * order are the order of first touch, and the lanes of each unit are a contiguous range. The same requests as the
 * scan, per unit instead of per lane. */
static int coalesce_affine(const struct mw_coalescer *co, uint64_t a0, uint64_t s, uint64_t w, uint64_t unit,
                           struct mw_coal_req *out)
{
    uint64_t last = a0 + 31 * s + w - 1, lmask = ~(co->line_bytes - 1);
    int n = 0;
    for (uint64_t u = a0 & ~(unit - 1); u <= last; u += unit, n++) {
        uint64_t ue = u + unit - 1;
        /* lanes whose bytes [a0 + l s, a0 + l s + w - 1] meet [u, ue] */
        uint32_t lo = 0, hi = 31;
        if (s) {
            lo = u > a0 + w - 1 ? (uint32_t)((u - (a0 + w - 1) + s - 1) / s) : 0;
            uint64_t h = (ue - a0) / s; /* ue >= a0: the unit starts at or before a0's unit's end */
            hi = h < 31 ? (uint32_t)h : 31;
        }
        uint64_t line = u & lmask, b0 = u > a0 ? u : a0, b1 = ue < last ? ue : last;
        uint8_t sec = 0;
        for (uint64_t x = b0 & ~(uint64_t)(SECTOR - 1); x <= b1; x += SECTOR)
            sec |= (uint8_t)(1u << ((x - line) / SECTOR));
        out[n].line = line;
        out[n].sectors = sec;
        out[n].lanes = (uint32_t)(((2ull << hi) - 1) & ~((1ull << lo) - 1));
    }
    coalesce_finish(co, out, n);
    return n;
}

/* The same requests as coalesce_scan for accesses of at most a sector per lane, in time linear in the lanes: a
 * lane then touches one unit or two adjacent ones, and at most two sectors (those of its first and last byte)
 * of each. The common case, every active lane within one unit, is recognised in one pass and answered
 * directly. */
int mw_coalesce(const struct mw_coalescer *co, const struct mw_inst *in, struct mw_coal_req *out)
{
    int width = in->width ? in->width : 4;
    uint64_t unit = coalesce_unit(co, width);
    uint32_t mask = in->mask;
    if (width > SECTOR) return coalesce_scan(co, in, out, width, unit);
    if (!mask) return 0;
    if (mask == 0xffffffffu) {
        uint64_t a0 = in->addr[0], st = in->addr[1] - a0, off = 0;
        if (in->lane_affine && st <= SECTOR) return coalesce_affine(co, a0, st, (uint64_t)width, unit, out);
        if (st <= SECTOR) {
            for (int l = 2; l < MW_WARP_SIZE; l++) off |= (in->addr[l] - in->addr[l - 1]) ^ st;
            if (!off) return coalesce_affine(co, a0, st, (uint64_t)width, unit, out);
        }
    }
    uint64_t umask = ~(unit - 1), lmask = ~(co->line_bytes - 1), w1 = (uint64_t)width - 1;
    unsigned smask = (unsigned)(co->line_bytes / SECTOR) - 1;
    /* one unit? every first and last byte agrees with the first lane's above the unit's bits */
    uint64_t a0 = in->addr[__builtin_ctz(mask)], diff = 0;
    unsigned sec = 0;
    if (mask == 0xffffffffu) {
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            uint64_t a = in->addr[l], e = a + w1;
            diff |= (a ^ a0) | (e ^ a0);
            sec |= 1u << ((a >> 5) & smask) | 1u << ((e >> 5) & smask);
        }
    } else {
        for (uint32_t m = mask; m; m &= m - 1) {
            uint64_t a = in->addr[__builtin_ctz(m)], e = a + w1;
            diff |= (a ^ a0) | (e ^ a0);
            sec |= 1u << ((a >> 5) & smask) | 1u << ((e >> 5) & smask);
        }
    }
    if (!(diff & umask)) {
        out[0].line = a0 & lmask;
        out[0].sectors = (uint8_t)sec;
        out[0].lanes = mask;
        coalesce_finish(co, out, 1);
        return 1;
    }
    struct units u;
    u.n = 0;
    u.cur = -1;
    u.hashed = false;
    u.lo = u.hi = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint32_t bit = 1u << lane;
        uint64_t a = in->addr[lane], e = a + w1;
        uint64_t k = a & umask, k2 = e & umask, line = a & lmask;
        int j = unit_of(&u, out, k, line);
        if (k2 == k) {
            out[j].sectors |= (uint8_t)(1u << ((a >> 5) & smask) | 1u << ((e >> 5) & smask));
            out[j].lanes |= bit;
            continue;
        }
        /* the lane's bytes cross into the next unit: [a, end of a's unit] and [start of the next, e], each
         * within one sector, as a lane spans at most 32 bytes */
        out[j].sectors |= (uint8_t)(1u << ((a >> 5) & smask));
        out[j].lanes |= bit;
        j = unit_of(&u, out, k2, e & lmask);
        out[j].sectors |= (uint8_t)(1u << ((e >> 5) & smask));
        out[j].lanes |= bit;
    }
    coalesce_finish(co, out, u.n);
    return u.n;
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
    out->lane_affine = 0;
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

