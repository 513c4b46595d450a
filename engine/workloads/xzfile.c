/* Streaming line reader for plain and .xz text (Accel-Sim traces, DRAM request traces). */
#include "xzfile.h"

#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#define MW_XZ_IN 65536

struct mw_xzfile {
    FILE *fp;
    bool xz, in_eof, out_eof;
    lzma_stream strm;
    uint8_t inbuf[MW_XZ_IN];
    char *buf;        /* decoded bytes not yet returned */
    size_t pos, len, cap;
    char *line;       /* last returned line */
    size_t line_cap;
    long lineno;
    char path[256];
};

struct mw_xzfile *mw_xz_open(const char *path, struct mw_err *e)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        mw_err_set(e, MW_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct mw_xzfile *f = calloc(1, sizeof *f);
    if (!f) {
        fclose(fp);
        mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
        return NULL;
    }
    f->fp = fp;
    snprintf(f->path, sizeof f->path, "%s", path);
    uint8_t magic[6] = {0};
    size_t got = fread(magic, 1, sizeof magic, fp);
    rewind(fp);
    static const uint8_t xzmagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    f->xz = got == 6 && memcmp(magic, xzmagic, 6) == 0;
    if (f->xz) {
        lzma_stream init = LZMA_STREAM_INIT;
        f->strm = init;
        if (lzma_stream_decoder(&f->strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
            mw_err_set(e, MW_EIO, path, 0, 0, "cannot start the xz decoder");
            mw_xz_close(f);
            return NULL;
        }
    }
    f->cap = 1 << 18;
    f->buf = malloc(f->cap);
    if (!f->buf) {
        mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
        mw_xz_close(f);
        return NULL;
    }
    return f;
}

/* Refill f->buf after moving the unread tail to the front. Returns bytes added, 0 at EOF, <0 on error. */
static long refill(struct mw_xzfile *f, struct mw_err *e)
{
    if (f->pos > 0) {
        memmove(f->buf, f->buf + f->pos, f->len - f->pos);
        f->len -= f->pos;
        f->pos = 0;
    }
    if (f->len == f->cap) {
        size_t nc = f->cap * 2;
        char *nb = realloc(f->buf, nc);
        if (!nb) return mw_err_set(e, MW_ENOMEM, f->path, (int)f->lineno + 1, 0, "out of memory (line too long)");
        f->buf = nb;
        f->cap = nc;
    }
    if (!f->xz) {
        if (f->in_eof) return 0;
        size_t n = fread(f->buf + f->len, 1, f->cap - f->len, f->fp);
        if (n == 0) {
            if (ferror(f->fp)) return mw_err_set(e, MW_EIO, f->path, (int)f->lineno + 1, 0, "read error");
            f->in_eof = true;
        }
        f->len += n;
        return (long)n;
    }
    if (f->out_eof) return 0;
    size_t before = f->len;
    f->strm.next_out = (uint8_t *)f->buf + f->len;
    f->strm.avail_out = f->cap - f->len;
    while (f->strm.avail_out > 0) {
        if (f->strm.avail_in == 0 && !f->in_eof) {
            size_t n = fread(f->inbuf, 1, sizeof f->inbuf, f->fp);
            if (n == 0) {
                if (ferror(f->fp)) return mw_err_set(e, MW_EIO, f->path, (int)f->lineno + 1, 0, "read error");
                f->in_eof = true;
            }
            f->strm.next_in = f->inbuf;
            f->strm.avail_in = n;
        }
        lzma_ret rc = lzma_code(&f->strm, f->in_eof ? LZMA_FINISH : LZMA_RUN);
        if (rc == LZMA_STREAM_END) {
            f->out_eof = true;
            break;
        }
        if (rc != LZMA_OK)
            return mw_err_set(e, MW_EIO, f->path, (int)f->lineno + 1, 0, "xz data is corrupt or truncated (%d)",
                              (int)rc);
        if (f->in_eof && f->strm.avail_in == 0 && rc == LZMA_OK && f->strm.avail_out > 0)
            return mw_err_set(e, MW_EIO, f->path, (int)f->lineno + 1, 0, "xz data is truncated");
    }
    f->len = f->cap - f->strm.avail_out;
    return (long)(f->len - before);
}

int mw_xz_getline(struct mw_xzfile *f, char **line, size_t *len, struct mw_err *e)
{
    for (;;) {
        char *start = f->buf + f->pos;
        char *nl = memchr(start, '\n', f->len - f->pos);
        bool last = false;
        if (!nl && f->len - f->pos > MW_XZ_MAX_LINE) /* a real trace line is a few KB: no buffer grows without end */
            return mw_err_set(e, MW_EINVAL, f->path, (int)f->lineno + 1, 1,
                              "a line longer than %d bytes (a limit): not a trace file, or a damaged one",
                              MW_XZ_MAX_LINE);
        if (!nl) {
            long n = refill(f, e);
            if (n < 0) return (int)n;
            if (n > 0) continue;
            if (f->pos == f->len) return 0;
            last = true; /* final line without a newline */
            nl = f->buf + f->len;
            start = f->buf + f->pos;
        }
        size_t l = (size_t)(nl - start);
        if (l + 1 > f->line_cap) {
            size_t nc = l + 1 > 256 ? l + 1 : 256;
            char *nb = realloc(f->line, nc);
            if (!nb) return mw_err_set(e, MW_ENOMEM, f->path, (int)f->lineno + 1, 0, "out of memory");
            f->line = nb;
            f->line_cap = nc;
        }
        memcpy(f->line, start, l);
        if (l > 0 && f->line[l - 1] == '\r') l--;
        f->line[l] = 0;
        f->pos += (size_t)(nl - start) + (last ? 0 : 1);
        f->lineno++;
        *line = f->line;
        *len = l;
        return 1;
    }
}

long mw_xz_lineno(const struct mw_xzfile *f) { return f->lineno; }
const char *mw_xz_path(const struct mw_xzfile *f) { return f->path; }

void mw_xz_close(struct mw_xzfile *f)
{
    if (!f) return;
    if (f->xz) lzma_end(&f->strm);
    if (f->fp) fclose(f->fp);
    free(f->buf);
    free(f->line);
    free(f);
}
