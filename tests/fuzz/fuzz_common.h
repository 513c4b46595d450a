/* Shared by the libFuzzer targets: a private scratch folder per process and a whole-buffer file writer. */
#ifndef MW_FUZZ_COMMON_H
#define MW_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The process's scratch folder, made once (removed by the OS's tmp cleaning; a fuzz run is a developer's). */
static inline const char *fz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/mwfuzz_XXXXXX");
        if (!mkdtemp(dir)) abort();
    }
    return dir;
}

/* Writes n bytes to <scratch>/name and returns the path (static storage, one per name slot). */
static inline const char *fz_write(int slot, const char *name, const uint8_t *d, size_t n)
{
    static char path[4][256];
    snprintf(path[slot], sizeof path[slot], "%s/%s", fz_dir(), name);
    FILE *f = fopen(path[slot], "wb");
    if (!f) abort();
    if (n && fwrite(d, 1, n, f) != n) abort();
    fclose(f);
    return path[slot];
}

#endif
