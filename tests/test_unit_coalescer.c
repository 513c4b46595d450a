/* Unit tests of the LDST unit's address generation (engine/coalescer.h) on hand-built instructions: the Fermi
 * coalescer's requests (segment, shrink to 64 / 32 B, sector masks, lane masks, order of first touch), sector
 * mode, the L1D set of each request under every l1d.index function, shared-memory bank conflicts and the local
 * memory interleaving. Every expectation is worked out by hand in the comment next to it; test_against_reference
 * compares the linear-time coalescer with the original quadratic one on many structured and random warps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "coalescer.h"
#include "unitsim.h"

#define ALL 0xffffffffu

/* A coalescer over the GTX480 config with `sets` applied (128 B lines; 16 KB 4-way L1D = 32 sets, linear). */
static void co_make(struct mw_coalescer *co, const char *const *sets, int nsets)
{
    struct mw_config c;
    sr_config(&c, sets, nsets);
    struct mw_err e;
    if (mw_config_validate(&c, &e)) fail_msg("config: %s", e.msg);
    struct mw_set_index idx;
    mw_set_index_init(&idx, &c);
    mw_coalescer_init(co, &c, &idx);
}

/* A global load of `width` bytes per lane; lane l's address is base + stride * l (inactive lanes too). */
static void ld(struct mw_inst *in, uint32_t mask, int width, uint64_t base, uint64_t stride)
{
    memset(in, 0, sizeof *in);
    in->op = MW_OP_LD_GLOBAL;
    in->mask = mask;
    in->width = (uint8_t)width;
    for (int l = 0; l < MW_WARP_SIZE; l++) in->addr[l] = base + stride * (uint64_t)l;
}

struct want {
    uint64_t line;
    uint8_t sectors, size;
    uint16_t set;
    uint32_t lanes;
};

static void check(const char *what, const struct mw_coal_req *got, int n, const struct want *w, int nw)
{
    if (n != nw) fail_msg("%s: %d requests, expected %d", what, n, nw);
    for (int i = 0; i < n; i++)
        if (got[i].line != w[i].line || got[i].sectors != w[i].sectors || got[i].size != w[i].size ||
            got[i].set != w[i].set || got[i].lanes != w[i].lanes)
            fail_msg("%s: request %d is line 0x%llx sectors 0x%x size %u set %u lanes 0x%08x, expected line 0x%llx "
                     "sectors 0x%x size %u set %u lanes 0x%08x",
                     what, i, (unsigned long long)got[i].line, got[i].sectors, got[i].size, got[i].set, got[i].lanes,
                     (unsigned long long)w[i].line, w[i].sectors, w[i].size, w[i].set, w[i].lanes);
}

static void test_line_mode_shrink(void **st)
{
    (void)st;
    struct mw_coalescer co;
    co_make(&co, NULL, 0);
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];

    /* 32 lanes x 4 B from 0x10080: bytes 0x10080..0x100ff, one whole line -> one 128 B request of all four
     * sectors; line number 0x10080 >> 7 = 0x201 = 513, set 513 % 32 = 1 */
    ld(&in, ALL, 4, 0x10080, 4);
    check("full warp, 4 B", out, mw_coalesce(&co, &in, out), (struct want[]){{0x10080, 0xf, 128, 1, ALL}}, 1);

    /* lanes 0-15 from 0x10040: bytes 0x10040..0x1007f, the upper aligned 64 B half of line 0x10000 (sectors 2, 3)
     * -> shrunk to 64 B; set 0x200 % 32 = 0 */
    ld(&in, 0x0000ffffu, 4, 0x10040, 4);
    check("half warp, upper half", out, mw_coalesce(&co, &in, out), (struct want[]){{0x10000, 0xc, 64, 0, 0xffffu}}, 1);

    /* lanes 16-31 of base 0xffc0: lane 16 reads 0xffc0 + 64 = 0x10000, lane 31 0x1003c: the lower half (sectors
     * 0, 1) -> 64 B, lanes 16-31 */
    ld(&in, 0xffff0000u, 4, 0xffc0, 4);
    check("half warp, lower half", out, mw_coalesce(&co, &in, out), (struct want[]){{0x10000, 0x3, 64, 0, 0xffff0000u}},
          1);

    /* lanes 0-15 from 0x10020: bytes 0x10020..0x1005f = sectors 1, 2, which straddle the two aligned halves -> no
     * shrink, 128 B */
    ld(&in, 0x0000ffffu, 4, 0x10020, 4);
    check("64 B not aligned", out, mw_coalesce(&co, &in, out), (struct want[]){{0x10000, 0x6, 128, 0, 0xffffu}}, 1);

    /* lanes 0-7 from 0x10060: bytes 0x10060..0x1007f, sector 3 alone -> 32 B */
    ld(&in, 0xffu, 4, 0x10060, 4);
    check("8 lanes, one sector", out, mw_coalesce(&co, &in, out), (struct want[]){{0x10000, 0x8, 32, 0, 0xffu}}, 1);
}

static void test_eight_byte_straddle(void **st)
{
    (void)st;
    struct mw_coalescer co;
    co_make(&co, NULL, 0);
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];

    /* 8 B lanes aligned at 0x2000: 256 B = lines 0x2000 (lanes 0-15) and 0x2080 (lanes 16-31), both whole;
     * sets 0x40 % 32 = 0 and 0x41 % 32 = 1 */
    ld(&in, ALL, 8, 0x2000, 8);
    check("8 B aligned", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x2000, 0xf, 128, 0, 0x0000ffffu}, {0x2080, 0xf, 128, 1, 0xffff0000u}}, 2);

    /* lanes 0-3 of 8 B from 0x1074: lane 0 0x1074..0x107b (line 0x1000, sector 3), lane 1 0x107c..0x1083 straddles
     * (sector 3 of 0x1000 and sector 0 of 0x1080), lanes 2, 3 0x1084..0x1093 (sector 0 of 0x1080). Two requests of
     * one sector each (32 B); lane 1 is in both. Sets 0x20 % 32 = 0 and 0x21 % 32 = 1. */
    ld(&in, 0xfu, 8, 0x1074, 8);
    check("8 B straddling a line", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x1000, 0x8, 32, 0, 0x3u}, {0x1080, 0x1, 32, 1, 0xeu}}, 2);

    /* a full warp of 8 B from 0x10fc: bytes 0x10fc..0x11fb. Lane 0 (0x10fc..0x1103) touches sector 3 of 0x1080 and
     * sector 0 of 0x1100; lanes 1-15 stay in 0x1100; lane 16 (0x117c..0x1183) touches sector 3 of 0x1100 and
     * sector 0 of 0x1180; lanes 17-31 reach 0x11fb, sector 3 of 0x1180. Sets 0x21, 0x22, 0x23 % 32 = 1, 2, 3. */
    ld(&in, ALL, 8, 0x10fc, 8);
    check("8 B misaligned warp", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x1080, 0x8, 32, 1, 0x1u}, {0x1100, 0xf, 128, 2, 0x0001ffffu}, {0x1180, 0xf, 128, 3, 0xffff0000u}},
          3);
}

static void test_narrow_widths(void **st)
{
    (void)st;
    struct mw_coalescer co;
    co_make(&co, NULL, 0);
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];

    /* 1 B lanes: the segment is 32 B. 0x3000 + l: 32 bytes, one segment -> one 32 B request (set 0x60 % 32 = 0) */
    ld(&in, ALL, 1, 0x3000, 1);
    check("1 B dense", out, mw_coalesce(&co, &in, out), (struct want[]){{0x3000, 0x1, 32, 0, ALL}}, 1);

    /* 1 B lanes 2 bytes apart: 0x3000..0x303e spans segments 0x3000 (lanes 0-15) and 0x3020 (lanes 16-31): two
     * 32 B requests of the same line where 4 B lanes would make one 64 B request */
    ld(&in, ALL, 1, 0x3000, 2);
    check("1 B stride 2", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x3000, 0x1, 32, 0, 0x0000ffffu}, {0x3000, 0x2, 32, 0, 0xffff0000u}}, 2);

    /* 2 B lanes: the segment is 64 B. 0x3000 + 2 l: 64 bytes -> one 64 B request of sectors 0, 1 */
    ld(&in, ALL, 2, 0x3000, 2);
    check("2 B dense", out, mw_coalesce(&co, &in, out), (struct want[]){{0x3000, 0x3, 64, 0, ALL}}, 1);

    /* 2 B lanes 4 bytes apart: 0x3000..0x307d spans segments 0x3000 and 0x3040 -> two 64 B requests, where 4 B
     * lanes over the same 128 B make one */
    ld(&in, ALL, 2, 0x3000, 4);
    check("2 B stride 4", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x3000, 0x3, 64, 0, 0x0000ffffu}, {0x3000, 0xc, 64, 0, 0xffff0000u}}, 2);
    ld(&in, ALL, 4, 0x3000, 4);
    check("4 B over the same bytes", out, mw_coalesce(&co, &in, out), (struct want[]){{0x3000, 0xf, 128, 0, ALL}}, 1);
}

/* Lane l of a 4 KB column stride from `base` reads line base + 4096 l, sector 0 (base is line-aligned). */
static void check_column(const char *what, const struct mw_coalescer *co, uint64_t base, const int *set)
{
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];
    struct want w[MW_WARP_SIZE];
    ld(&in, ALL, 4, base, 4096);
    for (int l = 0; l < MW_WARP_SIZE; l++)
        w[l] = (struct want){base + 4096u * (uint64_t)l, 0x1, 32, (uint16_t)set[l], 1u << l};
    check(what, out, mw_coalesce(co, &in, out), w, MW_WARP_SIZE);
}

/* A 4 KB column stride from 0x60180 (address bits 7, 8, 17, 18). Lane l adds l << 12, which sets address bits
 * 12-16 to l's bits 0-4 and carries nowhere (0x60180 has no bit 12-16 set). */
#define COL_BASE 0x60180ull

static void test_column_stride_sets(void **st)
{
    (void)st;
    struct mw_coalescer co;
    int set[MW_WARP_SIZE];

    /* linear, 32 sets: line number 0x60180 >> 7 = 0xc03 plus 32 l, so every lane is in set 0xc03 % 32 = 3 */
    co_make(&co, NULL, 0);
    for (int l = 0; l < MW_WARP_SIZE; l++) set[l] = 3;
    check_column("linear, 32 sets", &co, COL_BASE, set);

    /* fermi_hash, 32 sets (FERMI_HASH_SET_FUNCTION): lower = address bits 7-11 = 0b00011 = 3; upper = bits 13, 14,
     * 15 (lane bits 1, 2, 3) | bit 17 << 3 (set: 8) | bit 19 << 4 (clear). set = 3 ^ (8 | (l >> 1 & 7)) =
     * 11 ^ (l >> 1 & 7): lanes 0,1 -> 11; 2,3 -> 10; 4,5 -> 9; 6,7 -> 8; 8,9 -> 15; 10,11 -> 14; 12,13 -> 13;
     * 14,15 -> 12; lanes 16-31 repeat (bit 16 is not hashed). Eight sets of four lines where linear had one. */
    static const int fermi32[16] = {11, 11, 10, 10, 9, 9, 8, 8, 15, 15, 14, 14, 13, 13, 12, 12};
    co_make(&co, (const char *[]){"l1d.index=fermi_hash"}, 1);
    for (int l = 0; l < MW_WARP_SIZE; l++) set[l] = fermi32[l % 16];
    check_column("fermi_hash, 32 sets", &co, COL_BASE, set);

    /* fermi_hash, 64 sets (32 KB 4-way): the 32-set index with address bit 12 (lane bit 0) on top as bit 5:
     * lane 0 -> 11, lane 1 -> 11 | 32 = 43, lane 2 -> 10, lane 3 -> 42, ...: sixteen sets of two lines */
    co_make(&co, (const char *[]){"l1d.index=fermi_hash", "l1d.size_bytes=32768"}, 2);
    for (int l = 0; l < MW_WARP_SIZE; l++) set[l] = fermi32[l % 16] | (l & 1) << 5;
    check_column("fermi_hash, 64 sets", &co, COL_BASE, set);

    /* xor, 32 sets (BITWISE_XORING_FUNCTION): line number n = 0xc03 + 32 l; index = n & 31 = 3, tag bits
     * (n >> 5) & 31 = (0x60 + l) & 31 = l; set = 3 ^ l: every lane in its own set */
    co_make(&co, (const char *[]){"l1d.index=xor"}, 1);
    for (int l = 0; l < MW_WARP_SIZE; l++) set[l] = 3 ^ l;
    check_column("xor, 32 sets", &co, COL_BASE, set);

    /* linear, 48 sets (24 KB 4-way): (0xc03 + 32 l) % 48 = (3075 + 32 l) % 48; 3075 = 64 x 48 + 3, and 32 l % 48
     * cycles 0, 32, 16: lanes l = 0, 1, 2 (mod 3) -> sets 3, 35, 19 */
    co_make(&co, (const char *[]){"l1d.size_bytes=24576"}, 1);
    for (int l = 0; l < MW_WARP_SIZE; l++) set[l] = (int[]){3, 35, 19}[l % 3];
    check_column("linear, 48 sets", &co, COL_BASE, set);
}

/* The hash's top input bit: 0x80000 (bit 19) is the line number's bit 12, outside linear's five index bits, so
 * linear gives set 0; fermi_hash moves it to set bit 4 -> 16. 0x81000 adds bit 12, which only the 64-set hash
 * reads (set bit 5): 16 | 32 = 48, while the 32-set hash ignores it (16). */
static void test_fermi_hash_top_bits(void **st)
{
    (void)st;
    struct mw_coalescer co;
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];
    co_make(&co, NULL, 0);
    ld(&in, 1u, 4, 0x80000, 0);
    check("linear, bit 19", out, mw_coalesce(&co, &in, out), (struct want[]){{0x80000, 0x1, 32, 0, 1u}}, 1);
    co_make(&co, (const char *[]){"l1d.index=fermi_hash"}, 1);
    check("fermi 32, bit 19", out, mw_coalesce(&co, &in, out), (struct want[]){{0x80000, 0x1, 32, 16, 1u}}, 1);
    ld(&in, 1u, 4, 0x81000, 0);
    check("fermi 32, bits 19 + 12", out, mw_coalesce(&co, &in, out), (struct want[]){{0x81000, 0x1, 32, 16, 1u}}, 1);
    co_make(&co, (const char *[]){"l1d.index=fermi_hash", "l1d.size_bytes=32768"}, 2);
    check("fermi 64, bits 19 + 12", out, mw_coalesce(&co, &in, out), (struct want[]){{0x81000, 0x1, 32, 48, 1u}}, 1);
}

static void test_inactive_lanes_and_order(void **st)
{
    (void)st;
    struct mw_coalescer co;
    co_make(&co, NULL, 0);
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];

    /* every lane 4 KB apart, but only lanes 0 and 31 active: two requests, 0x5000 and 0x5000 + 31 x 4096 =
     * 0x24000; the 30 inactive lanes' addresses make none. Sets 0xa0 % 32 = 0 and 0x480 % 32 = 0. */
    ld(&in, 0x80000001u, 4, 0x5000, 4096);
    check("lanes 0 and 31", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x5000, 0x1, 32, 0, 0x1u}, {0x24000, 0x1, 32, 0, 0x80000000u}}, 2);
    in.mask = 0;
    assert_int_equal(mw_coalesce(&co, &in, out), 0);

    /* order of first touch: lane 0 reads line 0x9000, lane 1 0x8000, lane 2 0x9004, lane 3 0xa000, lane 4 0x8004:
     * requests 0x9000 (lanes 0, 2), 0x8000 (lanes 1, 4), 0xa000 (lane 3), not in address order. Each touches
     * sector 0 only -> 32 B. Sets 0x120 % 32 = 0, 0x100 % 32 = 0, 0x140 % 32 = 0. */
    ld(&in, 0x1fu, 4, 0, 0);
    const uint64_t a[5] = {0x9000, 0x8000, 0x9004, 0xa000, 0x8004};
    for (int l = 0; l < 5; l++) in.addr[l] = a[l];
    check("first touch", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x9000, 0x1, 32, 0, 0x05u}, {0x8000, 0x1, 32, 0, 0x12u}, {0xa000, 0x1, 32, 0, 0x08u}}, 3);
}

static void test_sector_mode(void **st)
{
    (void)st;
    struct mw_coalescer co;
    co_make(&co, (const char *[]){"coalescer.mode=sector"}, 1);
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];

    /* a full warp of 4 B over line 0x10080: one 32 B request per sector, lanes 8k..8k+7 each, set 1 */
    ld(&in, ALL, 4, 0x10080, 4);
    check("sector mode, full warp", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x10080, 0x1, 32, 1, 0x000000ffu},
                          {0x10080, 0x2, 32, 1, 0x0000ff00u},
                          {0x10080, 0x4, 32, 1, 0x00ff0000u},
                          {0x10080, 0x8, 32, 1, 0xff000000u}},
          4);

    /* the half warp that line mode shrinks to one 64 B request: two sector requests here */
    ld(&in, 0x0000ffffu, 4, 0x10040, 4);
    check("sector mode, half warp", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x10000, 0x4, 32, 0, 0x00ffu}, {0x10000, 0x8, 32, 0, 0xff00u}}, 2);

    /* 8 B lanes straddling a line as in line mode: the same two one-sector requests (lane 1 in both) */
    ld(&in, 0xfu, 8, 0x1074, 8);
    check("sector mode, straddle", out, mw_coalesce(&co, &in, out),
          (struct want[]){{0x1000, 0x8, 32, 0, 0x3u}, {0x1080, 0x1, 32, 1, 0xeu}}, 2);
}

static void shared(struct mw_inst *in, uint32_t mask, uint64_t stride_bytes)
{
    ld(in, mask, 4, 0x400, stride_bytes);
    in->op = MW_OP_LD_SHARED;
}

/* 32 banks of 4 B words: word w is in bank w % 32; a bank serves one distinct word per cycle, and lanes reading
 * the same word share it (broadcast). */
static void test_shared_conflicts(void **st)
{
    (void)st;
    struct mw_inst in;
    shared(&in, ALL, 4); /* stride 1 word: lane l in bank (0x100 + l) % 32, all distinct -> 1 */
    assert_int_equal(mw_shared_conflicts(&in), 1);
    shared(&in, ALL, 8); /* stride 2 words: even banks only, lanes l and l + 16 share bank 2l % 32 -> 2 */
    assert_int_equal(mw_shared_conflicts(&in), 2);
    shared(&in, ALL, 0); /* all lanes read word 0x100: one bank, one word, broadcast -> 1 */
    assert_int_equal(mw_shared_conflicts(&in), 1);
    shared(&in, ALL, 128); /* stride 32 words: every lane in bank 0, 32 distinct words -> 32 */
    assert_int_equal(mw_shared_conflicts(&in), 32);
    shared(&in, ALL, 12); /* stride 3 words: 3 is odd, so 3l % 32 is a permutation -> 1 */
    assert_int_equal(mw_shared_conflicts(&in), 1);
    shared(&in, 0xfu, 128); /* stride 32 words, 4 active lanes: 4 words in bank 0 -> 4 */
    assert_int_equal(mw_shared_conflicts(&in), 4);
    /* lanes 0-15 read word 0x100, lanes 16-31 word 0x120: both in bank 0 -> 2 (each word broadcast) */
    shared(&in, ALL, 0);
    for (int l = 16; l < MW_WARP_SIZE; l++) in.addr[l] = 0x480;
    assert_int_equal(mw_shared_conflicts(&in), 2);
}

/* GTX480: 15 SMs x 48 warp slots x 32 lanes = 23,040 thread slots; slot t = sm x 1536 + warp x 32 + lane. Offset
 * `off` of a `width`-byte local word goes to MW_LOCAL_BASE + ((off / width) x 23040 + t) x width + off % width. */
static void test_local_translate(void **st)
{
    (void)st;
    struct mw_config c;
    sr_config(&c, NULL, 0);
    struct mw_inst in, out;
    ld(&in, ALL, 4, 8, 0); /* every lane: offset 8 of its own window (word 2) */
    in.op = MW_OP_LD_LOCAL;
    in.addr[5] = MW_LOCAL_WINDOW;   /* at the window's end: already a global address, kept */
    in.addr[6] = 9;                 /* byte 1 of word 2 */
    const struct mw_inst *t = mw_local_translate(&c, 2, 5, &in, &out);
    assert_ptr_equal(t, &out);
    /* sm 2, warp 5: t = 3072 + 160 + l = 3232 + l; word 2: (2 x 23040 + 3232 + l) x 4 = 197,248 + 4 l */
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        uint64_t want = l == 5 ? MW_LOCAL_WINDOW : MW_LOCAL_BASE + 197248 + 4u * (uint64_t)l + (l == 6);
        if (out.addr[l] != want)
            fail_msg("lane %d: 0x%llx, expected 0x%llx", l, (unsigned long long)out.addr[l], (unsigned long long)want);
    }
    /* same offset in every lane: consecutive words, one line (197,248 = 1541 x 128) -> one 128 B request */
    in.addr[5] = in.addr[6] = 8;
    mw_local_translate(&c, 2, 5, &in, &out);
    struct mw_coalescer co;
    co_make(&co, NULL, 0);
    struct mw_coal_req req[MW_WARP_SIZE * 2];
    int n = mw_coalesce(&co, &out, req);
    assert_int_equal(n, 1);
    assert_int_equal(req[0].line, MW_LOCAL_BASE + 197248);
    assert_int_equal(req[0].size, 128);
    assert_int_equal(req[0].lanes, ALL);

    /* warp 6 follows warp 5: its lane 0 is the word after warp 5's lane 31 */
    struct mw_inst out6;
    mw_local_translate(&c, 2, 6, &in, &out6);
    assert_int_equal(out6.addr[0], out.addr[31] + 4);

    /* 8 B words, offset 16 (word 2): (2 x 23040 + 3232 + l) x 8 = 394,496 + 8 l = 3082 x 128 + 8 l: two lines */
    ld(&in, ALL, 8, 16, 0);
    in.op = MW_OP_LD_LOCAL;
    mw_local_translate(&c, 2, 5, &in, &out);
    for (int l = 0; l < MW_WARP_SIZE; l++) assert_int_equal(out.addr[l], MW_LOCAL_BASE + 394496 + 8u * (uint64_t)l);
    assert_int_equal(mw_coalesce(&co, &out, req), 2);

    /* an inactive lane keeps its address */
    ld(&in, 0xfffffffeu, 4, 8, 0);
    in.op = MW_OP_LD_LOCAL;
    mw_local_translate(&c, 2, 5, &in, &out);
    assert_int_equal(out.addr[0], 8);
    assert_int_equal(out.addr[1], MW_LOCAL_BASE + 197248 + 4);
}

/* The caches track 32 B sectors in 8-bit masks and a request's size is a byte: the config refuses sectors other
 * than 32 B and lines past 128 B (four sectors) instead of letting a larger line lose sector bits or request
 * bytes (a 512 B line of 64 B sectors used to validate and then coalesce into a request with no sector). */
static void expect_refused(const char *assignment, const char *msg)
{
    struct mw_config c;
    mw_config_defaults(&c);
    struct mw_err e;
    mw_err_clear(&e);
    assert_int_not_equal(mw_config_set(&c, assignment, &e), 0);
    if (!strstr(e.msg, msg)) fail_msg("%s: '%s' does not say '%s'", assignment, e.msg, msg);
}
static void test_sector_bytes_honoured(void **st)
{
    (void)st;
    expect_refused("l1d.sector_bytes=64", "l1d.sector_bytes");
    expect_refused("l1d.line_bytes=512", "l1d.line_bytes");
}
static void test_size_covers_sectors(void **st)
{
    (void)st;
    expect_refused("l1d.line_bytes=256", "l1d.line_bytes");
    expect_refused("l2.line_bytes=256", "l2.line_bytes");
    /* the largest line the config allows: a full 128 B line is one 128 B request with all four sectors */
    const char *sets[] = {"l1d.line_bytes=128"};
    struct mw_coalescer co;
    co_make(&co, sets, 1);
    struct mw_inst in;
    struct mw_coal_req out[MW_WARP_SIZE * 2];
    ld(&in, ALL, 4, 0x1000, 4);
    assert_int_equal(mw_coalesce(&co, &in, out), 1);
    assert_int_equal(out[0].sectors, 0xf);
    assert_int_equal(out[0].size, 128);
}

/* ---- the linear-time coalescer against the definition --------------------------------------------------------
 * ref_coalesce is the original algorithm, kept here verbatim as the reference: every lane's bytes unit by unit,
 * each unit searched among those seen, then the shrink and the set. */
static int ref_coalesce(const struct mw_coalescer *co, const struct mw_inst *in, struct mw_coal_req *out)
{
    uint64_t line_bytes = co->line_bytes;
    int width = in->width ? in->width : 4;
    uint64_t unit = width == 1 ? 32 : width == 2 ? 64 : line_bytes;
    if (unit > line_bytes) unit = line_bytes;
    bool sector_mode = co->sector_mode;
    if (sector_mode) unit = 32;
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
            for (uint64_t x = b & ~(uint64_t)(32 - 1); x <= stop; x += 32) sec |= (uint8_t)(1u << ((x - line) / 32));
            int j = 0;
            while (j < n && keys[j] != key) j++;
            if (j == n) {
                if (n == MW_WARP_SIZE * 2) break;
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
        if (sector_mode || (hi == lo)) out[j].size = 32;
        else if (hi - lo == 1 && lo % 2 == 0) out[j].size = 64;
        else out[j].size = (uint8_t)(line_bytes > 128 ? 128 : line_bytes);
        if (!sector_mode && out[j].size == line_bytes) out[j].size = (uint8_t)line_bytes;
        out[j].set = (uint16_t)mw_set_index_of(&co->idx, out[j].line);
    }
    return n;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static uint64_t pick(const int64_t *v, int n) { return (uint64_t)v[rnd() % (uint64_t)n]; }

/* One warp of a random shape: 0 affine (any stride, either sign), 1 one line, 2 a few lines, 3 divergent over
 * a small or large region, 4 affine with some lanes elsewhere, 5 lanes in a random order of an affine run. */
static void random_inst(struct mw_inst *in)
{
    static const int64_t widths[] = {0, 1, 2, 3, 4, 4, 4, 6, 8, 8, 12, 16, 16, 24, 32, 33, 48, 64};
    static const int64_t strides[] = {0, 1, 2, 4, 4, 4, 8, 8, 12, 16, 24, 32, 48, 64, 96, 128, 132, 256, 4096,
                                      -1, -2, -4, -8, -16, -32, -128, -4096};
    static const int64_t aligns[] = {1, 2, 4, 8, 16, 32, 128};
    memset(in, 0, sizeof *in);
    in->op = MW_OP_LD_GLOBAL;
    in->width = (uint8_t)pick(widths, (int)(sizeof widths / sizeof *widths));
    switch (rnd() % 6) {
    case 0: in->mask = 0xffffffffu; break;
    case 1: in->mask = (uint32_t)rnd(); break;
    case 2: in->mask = 1u << (rnd() % 32); break;
    case 3: { int a = (int)(rnd() % 32), b = (int)(rnd() % 32); if (a > b) { int t = a; a = b; b = t; }
              in->mask = (uint32_t)(((2ull << b) - 1) & ~((1ull << a) - 1)); } break;
    case 4: in->mask = (uint32_t)(rnd() & rnd()); break;
    default: in->mask = rnd() % 8 ? 0xffffffffu : 0; break;
    }
    uint64_t align = pick(aligns, (int)(sizeof aligns / sizeof *aligns));
    uint64_t base = ((1ull << 20) + rnd() % (1ull << 30)) & ~(align - 1);
    int shape = (int)(rnd() % 6);
    uint64_t stride = pick(strides, (int)(sizeof strides / sizeof *strides));
    if (rnd() % 8 == 0) stride = (rnd() % 512) * (rnd() % 2 ? 1 : (uint64_t)-1);
    uint64_t lines[4];
    for (int i = 0; i < 4; i++) lines[i] = base + (rnd() % 64) * 128 * (rnd() % 2 ? 1 : 37);
    uint64_t region = rnd() % 2 ? 4096 : 1ull << 24;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        uint64_t a = base + stride * (uint64_t)l;
        switch (shape) {
        case 1: a = (base & ~127ull) + rnd() % 128; break;
        case 2: a = lines[rnd() % 4] + rnd() % 160; break;
        case 3: a = base + rnd() % region; break;
        case 4: if (rnd() % 4 == 0) a = base + rnd() % 8192; break;
        case 5: a = base + stride * (rnd() % 32); break;
        default: break;
        }
        if (shape && rnd() % 2) a &= ~(align - 1);
        in->addr[l] = a;
    }
}

static void test_against_reference(void **st)
{
    (void)st;
    static const char *const cfgs[][2] = {
        {NULL, NULL},
        {"coalescer.mode=sector", NULL},
        {"l1d.index=fermi_hash", NULL},
        {"l1d.index=xor", NULL},
        {"l1d.line_bytes=64", NULL},
        {"l1d.line_bytes=32", NULL},
        {"l1d.line_bytes=64", "coalescer.mode=sector"},
    };
    for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++) {
        struct mw_coalescer co;
        co_make(&co, (const char *const *)cfgs[c], cfgs[c][0] ? (cfgs[c][1] ? 2 : 1) : 0);
        for (int it = 0; it < 60000; it++) {
            struct mw_inst in;
            struct mw_coal_req got[MW_WARP_SIZE * 2], want[MW_WARP_SIZE * 2];
            random_inst(&in);
            int n = mw_coalesce(&co, &in, got), nw = ref_coalesce(&co, &in, want);
            struct want w[MW_WARP_SIZE * 2];
            for (int i = 0; i < nw; i++)
                w[i] = (struct want){want[i].line, want[i].sectors, want[i].size, want[i].set, want[i].lanes};
            char what[96];
            snprintf(what, sizeof what, "config %zu, warp %d (width %d, mask 0x%08x)", c, it, in.width, in.mask);
            check(what, got, n, w, nw);
        }
    }
}

/* An instruction marked lane_affine (all lanes at base + l * stride, the generators' promise) takes the closed form
 * without the check: the same requests as the reference for every stride 0..32, width 1..16 and offset in a line,
 * in every configuration above. */
static void test_lane_affine_promise(void **st)
{
    (void)st;
    static const char *cfgs[][2] = {
        {NULL, NULL}, {"coalescer.mode=sector", NULL}, {"l1d.index=fermi_hash", NULL}, {"l1d.line_bytes=64", NULL},
        {"l1d.line_bytes=32", NULL}, {"l1d.line_bytes=64", "coalescer.mode=sector"},
    };
    static const int widths[] = {1, 2, 4, 8, 16};
    for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++) {
        struct mw_coalescer co;
        co_make(&co, (const char *const *)cfgs[c], cfgs[c][0] ? (cfgs[c][1] ? 2 : 1) : 0);
        for (int wi = 0; wi < 5; wi++)
            for (uint64_t s = 0; s <= 32; s++)
                for (uint64_t off = 0; off < 128; off += 3) {
                    struct mw_inst in;
                    struct mw_coal_req got[MW_WARP_SIZE * 2], want[MW_WARP_SIZE * 2];
                    ld(&in, ALL, widths[wi], 0x40000 + off, s);
                    in.lane_affine = 1;
                    int n = mw_coalesce(&co, &in, got), nw = ref_coalesce(&co, &in, want);
                    struct want w[MW_WARP_SIZE * 2];
                    for (int i = 0; i < nw; i++)
                        w[i] = (struct want){want[i].line, want[i].sectors, want[i].size, want[i].set, want[i].lanes};
                    char what[96];
                    snprintf(what, sizeof what, "config %zu, width %d, stride %llu, offset %llu", c, widths[wi],
                             (unsigned long long)s, (unsigned long long)off);
                    check(what, got, n, w, nw);
                }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_mode_shrink),
        cmocka_unit_test(test_eight_byte_straddle),
        cmocka_unit_test(test_narrow_widths),
        cmocka_unit_test(test_column_stride_sets),
        cmocka_unit_test(test_fermi_hash_top_bits),
        cmocka_unit_test(test_inactive_lanes_and_order),
        cmocka_unit_test(test_sector_mode),
        cmocka_unit_test(test_shared_conflicts),
        cmocka_unit_test(test_local_translate),
        cmocka_unit_test(test_sector_bytes_honoured),
        cmocka_unit_test(test_size_covers_sectors),
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_lane_affine_promise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
