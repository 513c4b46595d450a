/* Small helpers shared by the Parboil, Mars and LIBOR models: filling one warp instruction from a per-warp
 * generator, and the seeded random numbers their synthetic inputs are drawn from. */
#ifndef MW_WL_PML_H
#define MW_WL_PML_H

#include "workload.h"

#include <math.h>
#include <string.h>

static inline void pml_inst(struct mw_inst *o, uint64_t pc, uint8_t op, uint32_t mask)
{
    memset(o, 0, offsetof(struct mw_inst, addr));
    o->pc = pc, o->op = op, o->mask = mask;
}
/* d = f(s1, s2); ALU, SFU, DP. */
static inline void pml_alu(struct mw_inst *o, uint64_t pc, uint8_t op, uint32_t mask, uint16_t d, uint16_t s1,
                           uint16_t s2)
{
    pml_inst(o, pc, op, mask);
    o->ndst = 1, o->dst[0] = d;
    o->nsrc = 2, o->src[0] = s1, o->src[1] = s2;
}
static inline void pml_branch(struct mw_inst *o, uint64_t pc, uint32_t mask, uint16_t s)
{
    pml_inst(o, pc, MW_OP_BRANCH, mask);
    o->nsrc = 1, o->src[0] = s;
}
/* A load d <- [a] or a store [a] <- v; the caller fills addr[] for the active lanes. */
static inline void pml_ld(struct mw_inst *o, uint64_t pc, uint8_t op, uint8_t width, uint32_t mask, uint16_t d,
                          uint16_t a)
{
    pml_inst(o, pc, op, mask);
    o->width = width;
    o->ndst = 1, o->dst[0] = d;
    o->nsrc = 1, o->src[0] = a;
}
static inline void pml_st(struct mw_inst *o, uint64_t pc, uint8_t op, uint8_t width, uint32_t mask, uint16_t a,
                          uint16_t v)
{
    pml_inst(o, pc, op, mask);
    o->width = width;
    o->nsrc = 2, o->src[0] = a, o->src[1] = v;
}
#define PML_LANES(m, l)                                                                                      \
    for (int l = 0; l < MW_WARP_SIZE; l++)                                                                   \
        if ((m) >> l & 1u)

static inline uint64_t pml_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Uniform in [0, 1). */
static inline double pml_unif(uint64_t *s) { return (double)(pml_rand(s) >> 11) * (1.0 / 9007199254740992.0); }
/* Standard normal (Box-Muller). */
static inline double pml_normal(uint64_t *s)
{
    double u = pml_unif(s), v = pml_unif(s);
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

#endif
