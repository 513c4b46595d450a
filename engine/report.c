/* stats.json and the console summary. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The file's text is built in memory and written with one write(): through stdio it was about 1,100
 * instructions per counter. Numbers are formatted as before, byte for byte (integers by hand as "%.0f" prints
 * them, everything else by snprintf with the same format). */
struct buf {
    char *p;
    size_t n, cap;
    bool oom;
};

static bool buf_room(struct buf *b, size_t more)
{
    if (b->oom) return false;
    if (b->n + more <= b->cap) return true;
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->n + more) nc *= 2;
    char *q = realloc(b->p, nc);
    if (!q) return !(b->oom = true);
    b->p = q;
    b->cap = nc;
    return true;
}

static inline void put(struct buf *b, const char *s, size_t n)
{
    if (!buf_room(b, n)) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void puts_(struct buf *b, const char *s) { put(b, s, strlen(s)); }

/* Whether s[0..n) holds a byte that JSON escapes ('"', '\\', below 0x20), eight bytes at a time: a word has a
 * zero byte iff (v - 0x01..) & ~v & 0x80.. is non-zero, and a byte below 0x20 iff (v - 0x20..) & ~v & 0x80.. is. */
static bool needs_escape(const char *s, size_t n)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v, q, bs;
        memcpy(&v, s + i, 8);
        q = v ^ (ones * '"'), bs = v ^ (ones * '\\');
        if ((((q - ones) & ~q) | ((bs - ones) & ~bs) | ((v - ones * 0x20) & ~v)) & highs) return true;
    }
    for (; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == '"' || s[i] == '\\') return true;
    return false;
}

/* A JSON string: '"' and '\\' escaped with a backslash, other bytes below 0x20 as \u00XX. */
static void json_str(struct buf *b, const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s);
    if (!buf_room(b, 6 * n + 2)) return;
    char *o = b->p + b->n;
    *o++ = '"';
    if (!needs_escape(s, n)) memcpy(o, s, n), o += n;
    else {
        static const char hex[] = "0123456789abcdef";
        for (unsigned char c; (c = (unsigned char)*s) != 0; s++) {
            if (c >= 0x20 && c != '"' && c != '\\') *o++ = (char)c;
            else if (c >= 0x20) *o++ = '\\', *o++ = (char)c;
            else memcpy(o, "\\u00", 4), o[4] = hex[c >> 4], o[5] = hex[c & 15], o += 6;
        }
    }
    *o++ = '"';
    b->n = (size_t)(o - b->p);
}

static void json_num(struct buf *b, double v)
{
    char tmp[64];
    if (!isfinite(v)) puts_(b, "null");
    else if (v == floor(v) && fabs(v) < 9e15 && !(v == 0 && signbit(v))) {
        /* an integer (exact: below 9e15 < 2^53), as "%.0f" prints it, without printf's floating-point path */
        int k = sizeof tmp;
        long long x = (long long)v;
        unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
        do tmp[--k] = (char)('0' + u % 10);
        while ((u /= 10) > 0);
        if (x < 0) tmp[--k] = '-';
        put(b, tmp + k, sizeof tmp - (size_t)k);
    } else if (v == floor(v) && fabs(v) < 9e15) put(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%.0f", v));
    else put(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%.9g", v));
}

int mw_write_stats_json(const char *path, const struct mw_stat_list *l, const struct mw_run_info *ri, struct mw_err *e)
{
    struct buf b = {0};
    char tmp_n[96];
    puts_(&b, "{\n  \"run\": {");
    puts_(&b, "\"config\": "), json_str(&b, ri->config);
    puts_(&b, ", \"workload\": "), json_str(&b, ri->workload);
    int k = snprintf(tmp_n, sizeof tmp_n, ", \"seed\": %llu, \"completed\": %s, \"wall_s\": ",
                     (unsigned long long)ri->seed, ri->completed ? "true" : "false"); /* at most 72 bytes */
    put(&b, tmp_n, k < 0 ? 0 : (size_t)k < sizeof tmp_n ? (size_t)k : sizeof tmp_n - 1);
    json_num(&b, ri->wall_s);
    puts_(&b, ", \"cpu_s\": "), json_num(&b, ri->cpu_s);
    puts_(&b, ", \"cycles_per_s\": "), json_num(&b, ri->cycles_per_s);
    puts_(&b, ", \"warp_insts_per_s\": "), json_num(&b, ri->warp_insts_per_s);
    puts_(&b, "},\n  \"stats\": {\n");
    for (int i = 0; i < l->n; i++) {
        put(&b, "    ", 4);
        json_str(&b, l->v[i].name);
        put(&b, ": ", 2);
        json_num(&b, l->v[i].value);
        put(&b, i + 1 < l->n ? ",\n" : "\n", i + 1 < l->n ? 2 : 1);
    }
    puts_(&b, "  }\n}\n");
    if (b.oom) {
        free(b.p);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) {
        free(b.p);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    snprintf(tmp, n, "%s.tmp%d", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666); /* as fopen "w" creates it */
    if (fd < 0) {
        int rc = mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
        free(tmp);
        free(b.p);
        return rc;
    }
    bool bad = false;
    for (size_t off = 0; off < b.n && !bad;) {
        ssize_t w = write(fd, b.p + off, b.n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) bad = true;
        else off += (size_t)w;
    }
    free(b.p);
    bad = bad || fsync(fd) != 0; /* on disk before it takes the name */
    if (close(fd) != 0) bad = true;
    if (bad || rename(tmp, path) != 0) {
        int rc = mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
        unlink(tmp);
        free(tmp);
        return rc;
    }
    free(tmp);
    return 0;
}

void mw_print_summary(FILE *f, const struct mw_stat_list *l)
{
    static const char *const keys[] = {
        "gpu.cycles",         "gpu.warp_insts",        "gpu.thread_insts",  "gpu.ipc",
        "l1d.accesses",       "l1d.hits",              "l1d.misses",        "l1d.miss_rate",
        "l1d.bypasses",       "l1d.line_alloc_fail",   "l1d.mshr_fail",     "l1d.miss_queue_fail",
        "l2.accesses",        "l2.hits",               "l2.misses",         "l2.mshr_merges",
        "dram.reads",         "dram.writes",           "dram.row_hits",     "dram.row_hit_rate",
        "dram.avg_read_latency", "mem.avg_load_latency", "mem.max_load_latency",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct mw_stat_entry *s = mw_stat_list_get(l, keys[i]);
        if (!s) continue;
        if (s->value == floor(s->value) && fabs(s->value) < 9e15)
            fprintf(f, "  %-24s %14.0f  %s\n", s->name, s->value, s->unit ? s->unit : "");
        else
            fprintf(f, "  %-24s %14.4f  %s\n", s->name, s->value, s->unit ? s->unit : "");
    }
}
