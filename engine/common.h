/* Shared small types for the moonwarp engine: error reporting and the sizes the whole model agrees on.
 * Engine functions return 0 or a negative code and fill a struct mw_err; nothing below main() exits. */
#ifndef MW_COMMON_H
#define MW_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MW_WARP_SIZE 32
#define MW_MAX_REGS 256      /* architectural registers per thread (SASS R0..R255) */
#define MW_NEVER UINT64_MAX  /* "no event pending" in next-event queries */

enum mw_rc {
    MW_OK = 0,
    MW_EINVAL = -1,   /* bad input: config, trace, argument */
    MW_ENOMEM = -2,
    MW_EIO = -3,
    MW_EHOOK = -4,    /* a (Lua) policy hook failed */
    MW_EINTR = -5,    /* interrupted by the user */
};

/* Where an error came from. line/col are 1-based; 0 means unknown. */
struct mw_err {
    int code;
    char file[256];
    int line, col;
    char msg[1024];
};

void mw_err_clear(struct mw_err *e);
/* Fill e (file may be NULL) and return code. printf-style message. */
int mw_err_set(struct mw_err *e, int code, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* "file:line:col: msg" (parts omitted when unknown) into buf. */
const char *mw_err_str(const struct mw_err *e, char *buf, size_t n);

/* The one boolean spelling rule of config files, --set and policy parameters: true/yes/on/1 and
 * false/no/off/0, letters in any case. 0 and *out set on success, -1 (out untouched) otherwise. */
int mw_parse_bool(const char *s, bool *out);

/* Bit count without the library call __builtin_popcount becomes on the baseline x86-64 target (no POPCNT). */
static inline int mw_popcount32(uint32_t x)
{
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}
static inline uint64_t mw_min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t mw_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

#endif
