/* Line reader over plain or xz-compressed text files (liblzma, streamed: memory stays bounded by one
 * buffer, not by the file's size). Used by the trace reader and the DRAM trace driver. */
#ifndef MW_XZFILE_H
#define MW_XZFILE_H

#include "common.h"

#include <stdio.h>

struct mw_xzfile;

/* Open path; ".xz" suffix (or the xz magic) selects decompression. NULL + e filled on failure. */
struct mw_xzfile *mw_xz_open(const char *path, struct mw_err *e);
/* Next line without its newline (a trailing \r is dropped too), NUL-terminated, valid until the next call.
 * Returns 1 with *line and *len set, 0 at end of file, <0 on a read/decompression error (e filled with the
 * file name and line). mw_xz_lineno gives the 1-based number of the line last returned. */
#define MW_XZ_MAX_LINE (1 << 20) /* bytes: a longer line is an error */
int mw_xz_getline(struct mw_xzfile *f, char **line, size_t *len, struct mw_err *e);
long mw_xz_lineno(const struct mw_xzfile *f);
const char *mw_xz_path(const struct mw_xzfile *f);
void mw_xz_close(struct mw_xzfile *f);

#endif
