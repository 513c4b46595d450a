/* Shared by the granularity policies (sector, elastic, dycache): the sectors to fetch at a granule. */
#ifndef MW_GRAN_ALIGN_H
#define MW_GRAN_ALIGN_H

#include <stdint.h>

/* The 32 B sectors (bit i = sector i) of every granule-aligned block holding a sector of `need`, for a granule of
 * 32, 64 or 128 bytes (128: the whole 128 B line). */
static inline uint8_t mw_gran_aligned(uint8_t need, int granule)
{
    if (granule >= 128) return 0xF;
    uint8_t f = need;
    if (granule == 64)
        for (int i = 0; i < 8; i += 2)
            if (f & (3u << i)) f |= (uint8_t)(3u << i);
    return f;
}

#endif
