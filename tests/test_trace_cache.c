/* Tests of .mwtrace, the binary cache of parsed trace kernels (engine/workloads/trace_cache.c): every instruction,
 * kernel fact and streaming counter the reader hands out, and every statistic of a simulation, are the same from
 * the text, when the cache is built and when it is read; a changed or touched source, and a truncated, corrupted
 * or foreign cache file, make the reader rebuild; a kernel that does not parse is not cached and fails as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"
#include "trace.h"
#include "trace_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACES "../shared/traces/"
static const char *const g_shared[] = {TRACES "microgpusim_vectoradd_100", TRACES "microgpusim_matrixmul_32",
                                       TRACES "mgpusim_vectoradd", TRACES "mgpusim_btree1000"};
#define NSHARED (int)(sizeof g_shared / sizeof g_shared[0])

static char g_root[64]; /* scratch folder of this run */

static void rm_tree(const char *p)
{
    struct stat st;
    if (lstat(p, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        chmod(p, 0755);
        DIR *d = opendir(p);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
            char q[512];
            snprintf(q, sizeof q, "%s/%s", p, de->d_name);
            rm_tree(q);
        }
        if (d) closedir(d);
        rmdir(p);
    } else {
        unlink(p);
    }
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(g_root, sizeof g_root, "/tmp/mw_test_tcache.XXXXXX");
    return mkdtemp(g_root) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    rm_tree(g_root);
    return 0;
}

/* A fresh, empty folder g_root/name. */
static void fresh(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_root, name);
    rm_tree(out);
    assert_int_equal(mkdir(out, 0755), 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Names in dir (not . and ..), and how many end in suffix. */
static int count_files(const char *dir, const char *suffix, int *with_suffix)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0, s = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        n++;
        size_t l = strlen(de->d_name), m = strlen(suffix);
        s += l >= m && !strcmp(de->d_name + l - m, suffix);
    }
    closedir(d);
    if (with_suffix) *with_suffix = s;
    return n;
}

/* ---- a whole trace as the engine sees it, folded into one hash -------------------------------------------- */

struct walk {
    uint64_t hash, insts;
    int nkernels;
    int source[8]; /* mw_trace_source per kernel */
    int rc;
    char err[1400];
};

static void fold(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) *h = (*h ^ b[i]) * 1099511628211ull;
}
#define FOLD(h, v)                                                                                            \
    do {                                                                                                      \
        __typeof__(v) v_ = (v);                                                                               \
        fold((h), &v_, sizeof v_);                                                                            \
    } while (0)

/* Every kernel, every CTA in order, every warp's every instruction field, the kernel facts and the reader's
 * streaming counters after each cta_open. on/dir: the cache setting. */
static struct walk walk(const char *path, bool on, const char *dir)
{
    struct walk r = {.hash = 1469598103934665603ull};
    struct mw_workload w;
    struct mw_err e = {0};
    struct mw_kernel k;
    if ((r.rc = mw_workload_open_trace(&w, path, &e)) < 0) {
        mw_err_str(&e, r.err, sizeof r.err);
        return r;
    }
    mw_trace_set_cache(&w, on, dir);
    while ((r.rc = w.ops->next_kernel(&w, &k, &e)) > 0) {
        if (r.nkernels < 8) r.source[r.nkernels] = mw_trace_source(&w);
        r.nkernels++;
        const struct mw_trace_kernel_info *ki = mw_trace_kernel_info(&w);
        fold(&r.hash, k.name, strlen(k.name));
        FOLD(&r.hash, k.id);
        fold(&r.hash, k.grid, sizeof k.grid);
        fold(&r.hash, k.block, sizeof k.block);
        FOLD(&r.hash, k.nregs);
        FOLD(&r.hash, k.shmem);
        FOLD(&r.hash, k.shmem_base);
        FOLD(&r.hash, k.local_base);
        FOLD(&r.hash, k.code_base);
        fold(&r.hash, ki->name, strlen(ki->name));
        fold(&r.hash, ki->file, strlen(ki->file));
        fold(&r.hash, ki->nvbit_version, strlen(ki->nvbit_version));
        FOLD(&r.hash, ki->trace_id);
        FOLD(&r.hash, ki->binary_version);
        FOLD(&r.hash, ki->tracer_version);
        FOLD(&r.hash, ki->lineinfo);
        FOLD(&r.hash, ki->stream_id);
        fold(&r.hash, ki->cluster, sizeof ki->cluster);
        uint32_t ctas = mw_kernel_ctas(&k);
        for (uint32_t c = 0; c < ctas && r.rc >= 0; c++) {
            void *st;
            if ((r.rc = w.ops->cta_open(&w, c, &st, &e)) < 0) break;
            FOLD(&r.hash, ki->tbs_read);
            FOLD(&r.hash, ki->warps_read);
            FOLD(&r.hash, ki->insts_read);
            for (uint32_t wi = 0; wi < mw_kernel_cta_warps(&k); wi++) {
                struct mw_inst in;
                int rc;
                while ((rc = w.ops->warp_next(&w, st, wi, &in, &e)) > 0) {
                    r.insts++;
                    FOLD(&r.hash, wi);
                    FOLD(&r.hash, in.pc);
                    FOLD(&r.hash, in.mask);
                    FOLD(&r.hash, in.op);
                    FOLD(&r.hash, in.width);
                    FOLD(&r.hash, in.flags);
                    FOLD(&r.hash, in.ndst);
                    FOLD(&r.hash, in.nsrc);
                    fold(&r.hash, in.dst, 2u * in.ndst);
                    fold(&r.hash, in.src, 2u * in.nsrc);
                    if (mw_op_is_mem(in.op)) fold(&r.hash, in.addr, sizeof in.addr);
                }
                if (rc < 0) r.rc = rc;
            }
            w.ops->cta_close(&w, st);
        }
        if (r.rc < 0) break;
    }
    if (r.rc < 0) mw_err_str(&e, r.err, sizeof r.err);
    w.ops->destroy(&w);
    return r;
}

static void expect_same(const struct walk *a, const struct walk *b, const char *what)
{
    if (a->rc < 0 || b->rc < 0) fail_msg("%s: %s / %s", what, a->err, b->err);
    assert_int_equal(a->nkernels, b->nkernels);
    assert_int_equal(a->insts, b->insts);
    if (a->hash != b->hash) fail_msg("%s: the instructions differ", what);
}

static void expect_sources(const struct walk *r, int source)
{
    assert_true(r->nkernels > 0);
    for (int i = 0; i < r->nkernels && i < 8; i++) assert_int_equal(r->source[i], source);
}

/* ---- the shared traces ------------------------------------------------------------------------------------- */

static void test_shared_walk(void **state)
{
    (void)state;
    char dir[256];
    fresh(dir, sizeof dir, "shared");
    int kernels = 0;
    for (int t = 0; t < NSHARED; t++) {
        struct walk text = walk(g_shared[t], false, dir);
        expect_sources(&text, MW_TRACE_FROM_TEXT);
        struct walk built = walk(g_shared[t], true, dir);
        expect_sources(&built, MW_TRACE_CACHE_BUILT);
        struct walk cached = walk(g_shared[t], true, dir);
        expect_sources(&cached, MW_TRACE_FROM_CACHE);
        expect_same(&text, &built, g_shared[t]);
        expect_same(&text, &cached, g_shared[t]);
        assert_true(text.insts > 0);
        kernels += text.nkernels;
    }
    /* one file per kernel (btree1000 has two), nothing else left behind */
    int with;
    assert_int_equal(count_files(dir, "", NULL), kernels);
    assert_int_equal(count_files(dir, ".mwtrace", &with), kernels);
    assert_int_equal(with, kernels);
}

static void run_stats(const char *trace, const char *const *sets, int nsets, struct mw_stat_list *l, int *source)
{
    struct mw_config *c = malloc(sizeof *c);
    assert_non_null(c);
    sr_config(c, sets, nsets);
    struct mw_workload w;
    struct mw_err e = {0};
    if (mw_workload_open_trace(&w, trace, &e) < 0) fail_msg("%s", e.msg);
    struct mw_sim *s = sr_sim(c, &w);
    sr_run(s, 0, trace);
    sr_stats(s, l);
    /* the simulation set the cache from the config; the last kernel tells where it came from */
    (void)source;
    mw_sim_destroy(s);
    free(c);
}

static void test_shared_stats(void **state)
{
    (void)state;
    char dir[256], set_dir[320];
    fresh(dir, sizeof dir, "stats");
    snprintf(set_dir, sizeof set_dir, "trace.cache_dir=%s", dir);
    for (int t = 0; t < NSHARED; t++) {
        const char *off[] = {"trace.cache=false"};
        const char *on[] = {"trace.cache=true", set_dir};
        struct mw_stat_list a, b, c;
        int before, after;
        count_files(dir, ".mwtrace", &before);
        run_stats(g_shared[t], off, 1, &a, NULL);
        count_files(dir, ".mwtrace", &after);
        assert_int_equal(after, before); /* off: nothing written */
        run_stats(g_shared[t], on, 2, &b, NULL);
        count_files(dir, ".mwtrace", &after);
        assert_true(after > before); /* built by this run */
        struct walk cached = walk(g_shared[t], true, dir);
        expect_sources(&cached, MW_TRACE_FROM_CACHE); /* so the next run reads it */
        run_stats(g_shared[t], on, 2, &c, NULL);
        assert_true(sr_stat(&a, "sm.warp_insts") > 0);
        sr_same_stats(&a, &b, g_shared[t]);
        sr_same_stats(&a, &c, g_shared[t]);
        mw_stat_list_fini(&a);
        mw_stat_list_fini(&b);
        mw_stat_list_fini(&c);
    }
}

/* ---- invalidation, corruption, fallbacks on a small trace written here ------------------------------------- */

/* A grid of 4 CTAs of which TBs 0 and 2 are in the file (then tail); warp 0 of TB 0 loads from ADDR (base+stride mode: lane k at ADDR + 4k). */
static void write_trace(const char *dir, const char *addr, const char *tail)
{
    char k[2048];
    snprintf(k, sizeof k,
             "-kernel name = _Z4testPi\n-kernel id = 1\n-grid dim = (4,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n"
             "-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
             "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 3\n\n"
             "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
             "[adrrescompress?] [mem_addresses]\n\n"
             "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
             "0000 ffffffff 1 R2 LDG.E 1 R4 4 1 %s 4\n"
             "0010 ffffffff 1 R3 FFMA 3 R2 R2 R5 0\n"
             "0020 ffffffff 0 EXIT 0 0\n"
             "warp = 1\ninsts = 2\n"
             "0000 0000ffff 1 R2 LDG.E 1 R4 4 2 0x9000 8 -4 4 4 4 4 4 4 4 4 4 4 4 4 4\n"
             "0020 ffffffff 0 EXIT 0 0\n#END_TB\n"
             "#BEGIN_TB\nthread block = 2,0,0\nwarp = 0\ninsts = 1\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n%s",
             addr, tail);
    write_file(dir, "kernel-1.traceg", k);
    write_file(dir, "kernelslist.g", "kernel-1.traceg\n");
}

/* The first lane's address of warp 0's first instruction in TB 0. */
static uint64_t first_addr(const char *dir, bool on, const char *cdir)
{
    struct mw_workload w;
    struct mw_err e = {0};
    struct mw_kernel k;
    struct mw_inst in;
    void *st;
    assert_int_equal(mw_workload_open_trace(&w, dir, &e), 0);
    mw_trace_set_cache(&w, on, cdir);
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    assert_int_equal(w.ops->cta_open(&w, 0, &st, &e), 0);
    assert_int_equal(w.ops->warp_next(&w, st, 0, &in, &e), 1);
    w.ops->cta_close(&w, st);
    w.ops->destroy(&w);
    return in.addr[0];
}

static void set_mtime(const char *path, long sec)
{
    struct timespec ts[2] = {{.tv_sec = sec, .tv_nsec = 0}, {.tv_sec = sec, .tv_nsec = 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void test_beside_and_invalidation(void **state)
{
    (void)state;
    char dir[256], src[320], cache[340];
    fresh(dir, sizeof dir, "inval");
    snprintf(src, sizeof src, "%s/kernel-1.traceg", dir);
    snprintf(cache, sizeof cache, "%s.mwtrace", src);
    write_trace(dir, "0x1000", "");
    set_mtime(src, 1000000);
    struct walk text = walk(dir, false, "");
    struct walk r = walk(dir, true, ""); /* "": beside the trace, its folder being writable */
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    expect_same(&text, &r, "built");
    assert_int_equal(access(cache, R_OK), 0);
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_FROM_CACHE);
    expect_same(&text, &r, "read");
    assert_int_equal(first_addr(dir, true, ""), 0x1000);

    /* a changed source of the same size (another address) with a new modification time */
    write_trace(dir, "0x2000", "");
    set_mtime(src, 1000001);
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    assert_int_equal(first_addr(dir, true, ""), 0x2000);
    assert_int_equal(first_addr(dir, false, ""), 0x2000);
    struct walk text2 = walk(dir, false, "");
    assert_true(text2.hash != text.hash);
    expect_same(&text2, &r, "rebuilt");

    /* touched only: same bytes, new time */
    set_mtime(src, 1000002);
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_FROM_CACHE);
    expect_same(&text2, &r, "after touch");

    /* a longer source with the old time: the size tells */
    write_trace(dir, "0x30000", "");
    set_mtime(src, 1000002);
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    assert_int_equal(first_addr(dir, true, ""), 0x30000);

    /* a cache file of another source (copied over) is refused by its recorded path */
    char other[256], osrc[320];
    fresh(other, sizeof other, "inval_other");
    snprintf(osrc, sizeof osrc, "%s/kernel-1.traceg", other);
    write_trace(other, "0x30000", "");
    set_mtime(osrc, 1000002); /* same bytes, same time: only the path differs */
    const char *why = NULL;
    struct tc_map *m = tc_open(cache, osrc, &why);
    assert_null(m);
    assert_string_equal(why, "made from another file");
    assert_non_null(m = tc_open(cache, src, &why));
    tc_close(m);
}

/* Read the whole file. */
static unsigned char *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void spill(const char *p, const unsigned char *b, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    if (n) assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* trace_cache.c's checksum, so that a structurally bad file can carry a valid one */
static uint64_t sum_words(uint64_t h, const unsigned char *p, size_t len)
{
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h;
}

static void test_corrupt_cache(void **state)
{
    (void)state;
    char dir[256], src[320], cache[340];
    fresh(dir, sizeof dir, "corrupt");
    snprintf(src, sizeof src, "%s/kernel-1.traceg", dir);
    snprintf(cache, sizeof cache, "%s.mwtrace", src);
    write_trace(dir, "0x1000", "");
    struct walk text = walk(dir, false, "");
    struct walk r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    size_t n;
    unsigned char *good = slurp(cache, &n);
    assert_true(n > 200 && n % 8 == 0);
    unsigned char *bad = malloc(n + 64);
    assert_non_null(bad);

    /* header layout (trace_cache.c struct tc_hdr): hdr_bytes at 12, sum at 56, index_off at 72 */
    uint32_t hdr_bytes;
    memcpy(&hdr_bytes, good + 12, 4);
    struct {
        const char *what, *why;
        size_t len; /* bytes kept */
        long flip;  /* byte to change, -1 none */
        int garbage, extra;
    } cases[] = {
        {"empty", "shorter than its header", 0, -1, 0, 0},
        {"a short header", "shorter than its header", 100, -1, 0, 0},
        {"truncated by a word", "truncated or extended", n - 8, -1, 0, 0},
        {"truncated by a byte", "truncated or extended", n - 1, -1, 0, 0},
        {"extended", "truncated or extended", n + 8, -1, 0, 8},
        {"a payload byte changed", "checksum mismatch", n, (long)hdr_bytes + 30, 0, 0},
        {"the last byte changed", "checksum mismatch", n, (long)n - 1, 0, 0},
        {"magic", "not a .mwtrace file", n, 0, 0, 0},
        {"version", "made by another version of the reader", n, 8, 0, 0},
        {"garbage", "not a .mwtrace file", n, -1, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, good, n);
        if (cases[i].garbage) {
            srand(7);
            for (size_t j = 0; j < n; j++) bad[j] = (unsigned char)rand();
        }
        if (cases[i].extra) memset(bad + n, 0x5a, (size_t)cases[i].extra);
        if (cases[i].flip >= 0) bad[cases[i].flip] ^= 0x40;
        spill(cache, bad, cases[i].len);
        const char *why = NULL;
        struct tc_map *m = tc_open(cache, src, &why);
        if (m) fail_msg("%s: accepted", cases[i].what);
        assert_non_null(why);
        if (strcmp(why, cases[i].why)) fail_msg("%s: '%s', expected '%s'", cases[i].what, why, cases[i].why);
        r = walk(dir, true, "");
        expect_sources(&r, MW_TRACE_CACHE_BUILT); /* rebuilt, and right */
        expect_same(&text, &r, cases[i].what);
        r = walk(dir, true, "");
        expect_sources(&r, MW_TRACE_FROM_CACHE);
    }

    /* structurally wrong with a valid checksum: a record's register count past the maximum (ndst, byte 15 of
     * the first record: after the header, its thread block's struct tc_tb (24 B) and 2 x struct tc_warp (32 B),
     * warp 0's first record comes first) */
    memcpy(bad, good, n);
    size_t rec = hdr_bytes + 24 + 2 * 16;
    assert_int_equal(bad[rec + 15], 1); /* LDG.E R2: one destination */
    bad[rec + 15] = 200;
    uint32_t version;
    memcpy(&version, bad + 8, 4);
    uint64_t sum = sum_words(version, bad + hdr_bytes, n - hdr_bytes);
    memcpy(bad + 56, &sum, 8);
    spill(cache, bad, n);
    const char *why = NULL;
    assert_null(tc_open(cache, src, &why));
    assert_string_equal(why, "thread block out of range");
    /* an index entry pointing past the end */
    memcpy(bad, good, n);
    uint64_t index_off;
    memcpy(&index_off, good + 72, 8);
    uint64_t far = n * 4;
    memcpy(bad + index_off + 8, &far, 8);
    sum = sum_words(version, bad + hdr_bytes, n - hdr_bytes);
    memcpy(bad + 56, &sum, 8);
    spill(cache, bad, n);
    assert_null(tc_open(cache, src, &why));
    assert_string_equal(why, "thread block out of range");
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    expect_same(&text, &r, "after structural damage");
    free(good);
    free(bad);
}

static void test_fallbacks(void **state)
{
    (void)state;
    char dir[256], src[320], xdg[256], blocker[256], nowhere[320];
    fresh(dir, sizeof dir, "ro");
    snprintf(src, sizeof src, "%s/kernel-1.traceg", dir);
    write_trace(dir, "0x1000", "");
    struct walk text = walk(dir, false, "");

    /* a folder nobody may write to (mode bits, even for root): the cache goes to $XDG_CACHE_HOME/moonwarp */
    fresh(xdg, sizeof xdg, "xdg");
    setenv("XDG_CACHE_HOME", xdg, 1);
    assert_int_equal(chmod(dir, 0555), 0);
    struct walk r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_CACHE_BUILT);
    expect_same(&text, &r, "xdg");
    int with;
    assert_int_equal(count_files(dir, "", NULL), 2); /* kernelslist.g and the kernel: nothing added */
    char sub[320];
    snprintf(sub, sizeof sub, "%s/moonwarp", xdg);
    assert_int_equal(count_files(sub, ".mwtrace", &with), 1);
    assert_int_equal(with, 1);
    r = walk(dir, true, "");
    expect_sources(&r, MW_TRACE_FROM_CACHE);
    assert_int_equal(chmod(dir, 0755), 0);

    /* a cache folder that cannot be made (a file is in the way): read from the text, same instructions */
    snprintf(blocker, sizeof blocker, "%s/blocker", g_root);
    write_file(g_root, "blocker", "x");
    snprintf(nowhere, sizeof nowhere, "%s/sub", blocker);
    r = walk(dir, true, nowhere);
    expect_sources(&r, MW_TRACE_FROM_TEXT);
    expect_same(&text, &r, "no cache folder");

    /* the cache off: nothing written */
    char off[256];
    fresh(off, sizeof off, "off");
    r = walk(dir, false, off);
    expect_sources(&r, MW_TRACE_FROM_TEXT);
    assert_int_equal(count_files(off, "", NULL), 0);
    unsetenv("XDG_CACHE_HOME");
}

static void test_bad_trace_not_cached(void **state)
{
    (void)state;
    char dir[256], cdir[256];
    fresh(dir, sizeof dir, "bad");
    fresh(cdir, sizeof cdir, "bad_cache");
    /* a thread block out of order after the last one: met when CTA 3 is opened */
    write_trace(dir, "0x1000", "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n");
    struct walk text = walk(dir, false, cdir);
    assert_true(text.rc < 0);
    assert_non_null(strstr(text.err, "comes after linear id 2"));
    struct walk r = walk(dir, true, cdir);
    assert_int_equal(r.rc, text.rc);
    assert_string_equal(r.err, text.err); /* same message, same position */
    assert_int_equal(r.source[0], MW_TRACE_FROM_TEXT);
    assert_int_equal(count_files(cdir, "", NULL), 0); /* no cache, no temporary file left */
}

/* Four processes build the same cache at once: each gets the right instructions, one file remains. */
static void test_concurrent_build(void **state)
{
    (void)state;
    char dir[256], cdir[256];
    fresh(dir, sizeof dir, "conc");
    fresh(cdir, sizeof cdir, "conc_cache");
    write_trace(dir, "0x1000", "");
    struct walk text = walk(dir, false, "");
    pid_t kids[4];
    for (int i = 0; i < 4; i++) {
        kids[i] = fork();
        assert_true(kids[i] >= 0);
        if (kids[i] == 0) {
            int ok = 1;
            for (int j = 0; j < 20; j++) {
                struct walk r = walk(dir, true, cdir);
                ok &= r.rc >= 0 && r.hash == text.hash && r.insts == text.insts;
            }
            _exit(ok ? 0 : 1);
        }
    }
    for (int i = 0; i < 4; i++) {
        int st;
        assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    int with;
    assert_int_equal(count_files(cdir, ".mwtrace", &with), 1);
    assert_int_equal(with, 1);
    struct walk r = walk(dir, true, cdir);
    expect_sources(&r, MW_TRACE_FROM_CACHE);
    expect_same(&text, &r, "after the concurrent builds");
}

/* A CTA handed out from the cache stays readable after its kernel is closed and the workload destroyed (its
 * records live in the mapping, which the CTA holds). */
static void test_cta_outlives_kernel(void **state)
{
    (void)state;
    char dir[256], cdir[256];
    fresh(dir, sizeof dir, "outlive");
    fresh(cdir, sizeof cdir, "outlive_cache");
    write_trace(dir, "0x1000", "");
    for (int pass = 0; pass < 2; pass++) { /* building the cache, then reading it */
        struct mw_workload w;
        struct mw_err e = {0};
        struct mw_kernel k;
        struct mw_inst in;
        void *st;
        assert_int_equal(mw_workload_open_trace(&w, dir, &e), 0);
        mw_trace_set_cache(&w, true, cdir);
        assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
        assert_int_equal(mw_trace_source(&w), pass ? MW_TRACE_FROM_CACHE : MW_TRACE_CACHE_BUILT);
        assert_int_equal(w.ops->cta_open(&w, 0, &st, &e), 0);
        assert_int_equal(w.ops->next_kernel(&w, &k, &e), 0); /* the only kernel: closed now */
        const struct mw_workload_ops *ops = w.ops;
        ops->destroy(&w);
        /* warp 1: LDG.E with mode 2 (base 0x9000, deltas 8, then -4 and 4s) on lanes 0-15, then EXIT */
        assert_int_equal(ops->warp_next(&w, st, 1, &in, &e), 1);
        assert_int_equal(in.op, MW_OP_LD_GLOBAL);
        assert_int_equal(in.mask, 0xffff);
        assert_int_equal(in.addr[0], 0x9000);
        assert_int_equal(in.addr[1], 0x9008);
        assert_int_equal(in.addr[2], 0x9004);
        assert_int_equal(in.addr[15], 0x9004 + 13 * 4);
        assert_int_equal(ops->warp_next(&w, st, 1, &in, &e), 1);
        assert_int_equal(in.op, MW_OP_EXIT);
        assert_int_equal(ops->warp_next(&w, st, 1, &in, &e), 0);
        ops->cta_close(&w, st);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_walk),
        cmocka_unit_test(test_shared_stats),
        cmocka_unit_test(test_beside_and_invalidation),
        cmocka_unit_test(test_corrupt_cache),
        cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_bad_trace_not_cached),
        cmocka_unit_test(test_concurrent_build),
        cmocka_unit_test(test_cta_outlives_kernel),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
