/* .mwtrace: a binary cache of one parsed Accel-Sim kernel file, so that a trace read again is mapped instead of
 * parsed. It holds exactly what the reader (trace.c) builds: the kernel's header facts and, per thread block present
 * in the file, the warps' compact instruction records. Layout (native byte order, every part a multiple of 8 B):
 *
 *   header   struct tc_hdr, then the source's real path (padded to 8 B)          identity and lengths
 *   blocks   per thread block: struct tc_tb, nwarps x struct tc_warp, records     in increasing thread block id
 *   kernel   struct tc_krec                                                        the header facts
 *   index    ntbs x struct tc_idx                                                  id and offset of each block
 *
 * A file is used only if its magic, format version, the reader's fingerprint (opcode table, record layout), the
 * source's real path, size and modification time, the file's length and a checksum of everything after the header
 * all match, and every record of every warp lies inside its block with fields in range; anything else is a miss
 * and the caller rebuilds. Files are written to a temporary name in the same folder and renamed into place, so a
 * crash or a concurrent run never leaves, or reads, a half-written file. */
#include "trace_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TC_MAGIC "MWTRACE\x1a"
#define TC_VERSION 1u /* bump whenever the reader's decisions (trace.c put_inst) or this layout change */

struct tc_hdr {
    char magic[8];
    uint32_t version, hdr_bytes; /* hdr_bytes: this struct and the padded path */
    uint64_t fingerprint;
    uint64_t src_size;
    int64_t src_mtime_s, src_mtime_ns;
    uint64_t file_bytes;
    uint64_t sum; /* of bytes [hdr_bytes, file_bytes) */
    uint64_t kernel_off, index_off;
    uint32_t ntbs, path_len;
    uint64_t reserved[4];
};

struct tc_tb {
    uint32_t nwarps, warps_seen;
    uint64_t insts, len; /* records' bytes (the block is padded to 8 B after them) */
};

struct tc_warp {
    uint64_t off;
    uint32_t n, seen;
};

struct tc_idx {
    uint32_t id;
    int32_t line;
    uint64_t off;
};

struct tc_krec {
    char name[512], nvbit_version[32], kname[128];
    uint32_t grid[3], block[3], nregs, shmem;
    uint64_t shmem_base, local_base;
    uint32_t trace_id, binary_version, tracer_version, lineinfo;
    uint64_t stream_id;
    uint32_t cluster[3], tbs_read;
    uint64_t warps_read, insts_read;
};

_Static_assert(sizeof(struct tc_hdr) == 120, "tc_hdr has no padding");
_Static_assert(sizeof(struct tc_tb) == 24 && sizeof(struct tc_warp) == 16 && sizeof(struct tc_idx) == 16, "sizes");
_Static_assert(sizeof(struct tc_krec) % 8 == 0, "tc_krec is a multiple of 8 B");
_Static_assert(sizeof(struct tr_rec) == 24, "tr_rec has no implicit padding");

/* ------------------------------------------------------------------------------------------------------ */
/* Checksum and identity                                                                                  */
/* ------------------------------------------------------------------------------------------------------ */

/* 64-bit words, multiply-xorshift per word; len a multiple of 8. Detects truncation and stray bytes, not an
 * adversary. */
static uint64_t sum_words(uint64_t h, const uint8_t *p, size_t len)
{
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t fingerprint(void)
{
    return tr_op_table_hash() ^ ((uint64_t)MW_OP_COUNT << 8) ^ ((uint64_t)MW_INST_MAX_DST << 16) ^
           ((uint64_t)MW_INST_MAX_SRC << 24) ^ ((uint64_t)sizeof(struct tr_rec) << 32) ^
           ((uint64_t)MW_WARP_SIZE << 40);
}

/* A folder files may be added to: the permission bits must say so, even to a user whom access() lets write
 * anywhere (a store of traces made read-only with chmod stays untouched when the simulator runs as root). */
static bool dir_writable(const char *d)
{
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode) || access(d, W_OK | X_OK) != 0) return false;
    if (geteuid() != 0) return true;
    mode_t bit = st.st_uid == 0 ? S_IWUSR : st.st_gid == getegid() ? S_IWGRP : S_IWOTH;
    return (st.st_mode & bit) != 0;
}

static bool mkdirs(const char *dir)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return false;
    for (char *c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return false;
        *c = '/';
    }
    if (mkdir(p, 0777) != 0 && errno != EEXIST) return false;
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode) && dir_writable(p);
}

bool tc_path(const char *src, const char *dir, char *out, size_t cap)
{
    char d[PATH_MAX];
    if (!dir || !dir[0]) {
        const char *sl = strrchr(src, '/');
        if (sl) snprintf(d, sizeof d, "%.*s", sl == src ? 1 : (int)(sl - src), src);
        else snprintf(d, sizeof d, ".");
        if (dir_writable(d)) return snprintf(out, cap, "%s.mwtrace", src) < (int)cap;
        const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (x && x[0] == '/') snprintf(d, sizeof d, "%s/moonwarp", x);
        else if (home && home[0]) snprintf(d, sizeof d, "%s/.cache/moonwarp", home);
        else return false;
        dir = d;
    }
    if (!mkdirs(dir)) return false;
    char real[PATH_MAX];
    if (!realpath(src, real)) return false;
    const char *base = strrchr(real, '/');
    base = base ? base + 1 : real;
    return snprintf(out, cap, "%s/%016llx-%s.mwtrace", dir, (unsigned long long)fnv(real), base) < (int)cap;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Reading                                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

struct tc_map {
    unsigned refs;
    const uint8_t *base;
    size_t len;
    uint64_t idx_off;
    uint32_t ntbs;
    struct tc_kernel k;
};

static bool rd(const struct tc_map *m, uint64_t off, void *dst, size_t n)
{
    if (off > m->len || n > m->len - off) return false;
    memcpy(dst, m->base + off, n);
    return true;
}

/* Every record of every warp of the block at off lies inside it and has fields in range. */
static bool check_tb(const struct tc_map *m, uint64_t off, uint32_t nwarps)
{
    struct tc_tb tb;
    if (!rd(m, off, &tb, sizeof tb) || tb.nwarps != nwarps) return false;
    uint64_t wt = off + sizeof tb, recs = wt + (uint64_t)nwarps * sizeof(struct tc_warp);
    if (recs > m->len || tb.len > m->len - recs) return false;
    uint32_t seen = 0;
    uint64_t insts = 0;
    for (uint32_t i = 0; i < nwarps; i++) {
        struct tc_warp w;
        rd(m, wt + (uint64_t)i * sizeof w, &w, sizeof w);
        if (w.seen > 1 || w.off > tb.len || (!w.seen && w.n)) return false;
        seen += w.seen;
        insts += w.n;
        uint64_t p = w.off;
        for (uint32_t r = 0; r < w.n; r++) {
            struct tr_rec h;
            if (tb.len - p < sizeof h) return false;
            memcpy(&h, m->base + recs + p, sizeof h);
            if (h.op >= MW_OP_COUNT || h.ndst > MW_INST_MAX_DST || h.nsrc > MW_INST_MAX_SRC || h.amode >= AM_COUNT)
                return false;
            size_t n = tr_rec_size(&h);
            if (tb.len - p < n) return false;
            p += n;
        }
    }
    return seen == tb.warps_seen && insts == tb.insts;
}

static bool load(struct tc_map *m, const char *src, const char **why)
{
    struct tc_hdr h;
    struct stat st;
    char real[PATH_MAX];
#define MISS(w)                                                                                               \
    do {                                                                                                      \
        *why = (w);                                                                                           \
        return false;                                                                                         \
    } while (0)
    if (!rd(m, 0, &h, sizeof h)) MISS("shorter than its header");
    if (memcmp(h.magic, TC_MAGIC, 8)) MISS("not a .mwtrace file");
    if (h.version != TC_VERSION || h.fingerprint != fingerprint()) MISS("made by another version of the reader");
    if (h.file_bytes != m->len) MISS("truncated or extended");
    if (h.hdr_bytes % 8 || h.hdr_bytes < sizeof h + h.path_len || h.hdr_bytes > m->len) MISS("bad header length");
    if (!realpath(src, real) || stat(src, &st) != 0) MISS("source is gone");
    if (strlen(real) != h.path_len || memcmp(m->base + sizeof h, real, h.path_len)) MISS("made from another file");
    if ((uint64_t)st.st_size != h.src_size || (int64_t)st.st_mtim.tv_sec != h.src_mtime_s ||
        (int64_t)st.st_mtim.tv_nsec != h.src_mtime_ns)
        MISS("source changed (size or modification time)");
    if (m->len % 8 || sum_words(h.version, m->base + h.hdr_bytes, m->len - h.hdr_bytes) != h.sum)
        MISS("checksum mismatch");
    struct tc_krec kr;
    if (h.kernel_off < h.hdr_bytes || !rd(m, h.kernel_off, &kr, sizeof kr)) MISS("kernel record out of bounds");
    if (h.index_off < h.hdr_bytes || h.index_off > m->len || (m->len - h.index_off) / sizeof(struct tc_idx) < h.ntbs)
        MISS("index out of bounds");
    struct mw_kernel *k = &m->k.k;
    struct mw_trace_kernel_info *in = &m->k.info;
    kr.name[sizeof kr.name - 1] = kr.kname[sizeof kr.kname - 1] = kr.nvbit_version[sizeof kr.nvbit_version - 1] = 0;
    memcpy(in->name, kr.name, sizeof in->name);
    memcpy(in->nvbit_version, kr.nvbit_version, sizeof in->nvbit_version);
    memcpy(k->name, kr.kname, sizeof k->name);
    memcpy(k->grid, kr.grid, sizeof k->grid);
    memcpy(k->block, kr.block, sizeof k->block);
    k->nregs = kr.nregs;
    k->shmem = kr.shmem;
    k->shmem_base = kr.shmem_base;
    k->local_base = kr.local_base;
    in->trace_id = kr.trace_id;
    in->binary_version = kr.binary_version;
    in->tracer_version = kr.tracer_version;
    in->lineinfo = kr.lineinfo;
    in->stream_id = kr.stream_id;
    memcpy(in->cluster, kr.cluster, sizeof in->cluster);
    in->tbs_read = kr.tbs_read;
    in->warps_read = kr.warps_read;
    in->insts_read = kr.insts_read;
    uint64_t ctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    if (!ctas || ctas > UINT32_MAX || !threads || threads > 65536 || h.ntbs > ctas || kr.tbs_read != h.ntbs)
        MISS("kernel record out of range");
    m->idx_off = h.index_off;
    m->ntbs = h.ntbs;
    uint32_t nwarps = mw_kernel_cta_warps(k);
    int64_t last = -1;
    uint64_t warps = 0, insts = 0;
    for (uint32_t i = 0; i < h.ntbs; i++) {
        struct tc_idx x;
        rd(m, h.index_off + (uint64_t)i * sizeof x, &x, sizeof x);
        if ((int64_t)x.id <= last || x.id >= ctas || x.off < h.hdr_bytes || !check_tb(m, x.off, nwarps))
            MISS("thread block out of range");
        last = x.id;
        struct tc_tb tb;
        rd(m, x.off, &tb, sizeof tb);
        warps += tb.warps_seen;
        insts += tb.insts;
    }
    if (warps != kr.warps_read || insts != kr.insts_read) MISS("counts disagree");
#undef MISS
    return true;
}

struct tc_map *tc_open(const char *path, const char *src, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    *why = "no cache file";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct tc_hdr)) {
        *why = "shorter than its header";
        close(fd);
        return NULL;
    }
#ifdef MAP_POPULATE
    /* every page is read by the checks: fault them in with one call (up to 256 MiB: beyond, on demand) */
    int flags = st.st_size <= (off_t)256 << 20 ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE;
#else
    int flags = MAP_PRIVATE;
#endif
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        *why = "cannot map";
        return NULL;
    }
    struct tc_map *m = calloc(1, sizeof *m);
    if (m) {
        m->refs = 1;
        m->base = p;
        m->len = (size_t)st.st_size;
    }
    if (!m || !load(m, src, why)) {
        munmap(p, (size_t)st.st_size);
        free(m);
        return NULL;
    }
    return m;
}

void tc_close(struct tc_map *m)
{
    if (!m || --m->refs) return;
    munmap((void *)(uintptr_t)m->base, m->len);
    free(m);
}

const struct tc_kernel *tc_kernel(const struct tc_map *m) { return &m->k; }
uint32_t tc_ntbs(const struct tc_map *m) { return m->ntbs; }

uint32_t tc_tb_id(const struct tc_map *m, uint32_t i)
{
    struct tc_idx x;
    memcpy(&x, m->base + m->idx_off + (size_t)i * sizeof x, sizeof x);
    return x.id;
}

struct tr_cta *tc_cta(struct tc_map *m, uint32_t i, uint32_t *warps_seen, uint64_t *insts)
{
    struct tc_idx x;
    struct tc_tb tb;
    memcpy(&x, m->base + m->idx_off + (size_t)i * sizeof x, sizeof x);
    memcpy(&tb, m->base + x.off, sizeof tb);
    struct tr_cta *c = calloc(1, sizeof *c + tb.nwarps * sizeof c->w[0]);
    if (!c) return NULL;
    c->id = x.id;
    c->present = true;
    c->map = m;
    m->refs++;
    c->line = x.line;
    c->nwarps = tb.nwarps;
    const uint8_t *wt = m->base + x.off + sizeof tb;
    c->buf = (uint8_t *)(uintptr_t)(wt + (size_t)tb.nwarps * sizeof(struct tc_warp));
    c->len = c->cap = tb.len;
    for (uint32_t w = 0; w < tb.nwarps; w++) {
        struct tc_warp cw;
        memcpy(&cw, wt + (size_t)w * sizeof cw, sizeof cw);
        c->w[w].off = cw.off;
        c->w[w].n = c->w[w].left = cw.n;
        c->w[w].seen = cw.seen != 0;
    }
    *warps_seen = tb.warps_seen;
    *insts = tb.insts;
    return c;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Writing                                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

#define TC_BUF (1u << 20)

struct tc_writer {
    char path[PATH_MAX], tmp[PATH_MAX + 32], src[PATH_MAX];
    int fd;
    bool bad, have_tmp;
    struct tc_hdr h;
    uint64_t pos, sum;
    uint8_t *buf;
    size_t blen;
    struct tc_idx *idx;
    uint32_t nidx, cap;
};

static bool wr_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        b += k;
        n -= (size_t)k;
    }
    return true;
}

static void flush(struct tc_writer *w)
{
    if (w->blen && !w->bad && !wr_all(w->fd, w->buf, w->blen)) w->bad = true;
    w->blen = 0;
}

/* Append n bytes (the file's parts are multiples of 8 B, so buffered bytes are whole words). */
static void emit(struct tc_writer *w, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        size_t k = TC_BUF - w->blen < n ? TC_BUF - w->blen : n;
        memcpy(w->buf + w->blen, b, k);
        w->blen += k;
        w->pos += k;
        b += k;
        n -= k;
        if (w->blen == TC_BUF) {
            w->sum = sum_words(w->sum, w->buf, w->blen);
            flush(w);
        }
    }
}

static void emit_pad(struct tc_writer *w)
{
    static const uint8_t zero[8];
    if (w->pos % 8) emit(w, zero, 8 - w->pos % 8);
}

struct tc_writer *tc_begin(const char *path, const char *src)
{
    struct tc_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->fd = -1;
    w->buf = malloc(TC_BUF);
    char real[PATH_MAX];
    struct stat st;
    if (!w->buf || !realpath(src, real) || stat(src, &st) != 0 ||
        snprintf(w->path, sizeof w->path, "%s", path) >= (int)sizeof w->path)
        goto fail;
    snprintf(w->src, sizeof w->src, "%s", real);
    snprintf(w->tmp, sizeof w->tmp, "%s.%ld.XXXXXX", path, (long)getpid());
    w->fd = mkstemp(w->tmp);
    if (w->fd < 0) goto fail;
    w->have_tmp = true;
    if (fchmod(w->fd, 0644) != 0) goto fail;
    memcpy(w->h.magic, TC_MAGIC, 8);
    w->h.version = TC_VERSION;
    w->h.fingerprint = fingerprint();
    w->h.src_size = (uint64_t)st.st_size;
    w->h.src_mtime_s = (int64_t)st.st_mtim.tv_sec;
    w->h.src_mtime_ns = (int64_t)st.st_mtim.tv_nsec;
    w->h.path_len = (uint32_t)strlen(real);
    w->h.hdr_bytes = (uint32_t)((sizeof w->h + w->h.path_len + 7) / 8 * 8);
    /* the header is rewritten at the end; the path follows it */
    emit(w, &w->h, sizeof w->h);
    emit(w, real, w->h.path_len);
    emit_pad(w);
    w->sum = w->h.version;
    /* bytes so far are the header: flush them without summing */
    flush(w);
    return w;
fail:
    tc_abort(w);
    return NULL;
}

int tc_put_cta(struct tc_writer *w, const struct tr_cta *c)
{
    if (w->nidx == w->cap) {
        uint32_t nc = w->cap ? w->cap * 2 : 64;
        struct tc_idx *ni = realloc(w->idx, nc * sizeof *ni);
        if (!ni) return MW_ENOMEM;
        w->idx = ni;
        w->cap = nc;
    }
    w->idx[w->nidx++] = (struct tc_idx){.id = c->id, .line = c->line, .off = w->pos};
    struct tc_tb tb = {.nwarps = c->nwarps, .len = c->len};
    for (uint32_t i = 0; i < c->nwarps; i++) {
        tb.warps_seen += c->w[i].seen;
        tb.insts += c->w[i].n;
    }
    emit(w, &tb, sizeof tb);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct tc_warp cw = {.off = c->w[i].seen ? c->w[i].off : 0, .n = c->w[i].n, .seen = c->w[i].seen};
        emit(w, &cw, sizeof cw);
    }
    emit(w, c->buf, c->len);
    emit_pad(w);
    return w->bad ? MW_EIO : 0;
}

int tc_commit(struct tc_writer *w, const struct tc_kernel *kk)
{
    struct tc_krec kr;
    memset(&kr, 0, sizeof kr);
    const struct mw_kernel *k = &kk->k;
    const struct mw_trace_kernel_info *in = &kk->info;
    snprintf(kr.name, sizeof kr.name, "%s", in->name);
    snprintf(kr.nvbit_version, sizeof kr.nvbit_version, "%s", in->nvbit_version);
    snprintf(kr.kname, sizeof kr.kname, "%s", k->name);
    memcpy(kr.grid, k->grid, sizeof kr.grid);
    memcpy(kr.block, k->block, sizeof kr.block);
    kr.nregs = k->nregs;
    kr.shmem = k->shmem;
    kr.shmem_base = k->shmem_base;
    kr.local_base = k->local_base;
    kr.trace_id = in->trace_id;
    kr.binary_version = in->binary_version;
    kr.tracer_version = in->tracer_version;
    kr.lineinfo = in->lineinfo;
    kr.stream_id = in->stream_id;
    memcpy(kr.cluster, in->cluster, sizeof kr.cluster);
    kr.tbs_read = in->tbs_read;
    kr.warps_read = in->warps_read;
    kr.insts_read = in->insts_read;
    w->h.kernel_off = w->pos;
    emit(w, &kr, sizeof kr);
    w->h.index_off = w->pos;
    w->h.ntbs = w->nidx;
    if (w->nidx) emit(w, w->idx, w->nidx * sizeof *w->idx);
    w->sum = sum_words(w->sum, w->buf, w->blen);
    flush(w);
    w->h.file_bytes = w->pos;
    w->h.sum = w->sum;
    int rc = 0;
    unsigned char hb[sizeof w->h]; /* (written from a copy: gcc 12 with LTO takes &w->h for its first member) */
    memcpy(hb, &w->h, sizeof hb);
    if (w->bad || pwrite(w->fd, hb, sizeof hb, 0) != (ssize_t)sizeof hb) rc = MW_EIO;
    if (close(w->fd) != 0) rc = MW_EIO;
    w->fd = -1;
    /* a source rewritten while it was parsed: the records may mix both versions */
    struct stat st;
    if (stat(w->src, &st) != 0 || (uint64_t)st.st_size != w->h.src_size ||
        (int64_t)st.st_mtim.tv_sec != w->h.src_mtime_s || (int64_t)st.st_mtim.tv_nsec != w->h.src_mtime_ns)
        rc = MW_EIO;
    if (!rc && rename(w->tmp, w->path) != 0) rc = MW_EIO;
    if (!rc) w->have_tmp = false; /* renamed: nothing to remove */
    tc_abort(w);
    return rc;
}

void tc_abort(struct tc_writer *w)
{
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    if (w->have_tmp) unlink(w->tmp);
    free(w->buf);
    free(w->idx);
    free(w);
}
