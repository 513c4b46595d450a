/* Shared by the Rodinia models whose kernels are written as numbered steps (BFS, B+TREE): one warp instruction
 * without its PC (the step sets it), and the lane loop. */
#ifndef MW_WL_RODINIA_STEP_H
#define MW_WL_RODINIA_STEP_H

#include "workload.h"

#include <stddef.h>
#include <string.h>

/* A load dst <- [a] (op not a store) or a store [a] <- v; the caller fills addr[] for the lanes of mask. */
static inline void rs_mem(struct mw_inst *o, uint8_t op, uint8_t width, uint32_t mask, uint16_t dst, uint16_t a,
                          uint16_t v)
{
    memset(o, 0, offsetof(struct mw_inst, addr));
    o->op = op, o->width = width, o->mask = mask;
    if (op == MW_OP_ST_GLOBAL) o->nsrc = 2, o->src[0] = a, o->src[1] = v;
    else o->ndst = 1, o->dst[0] = dst, o->nsrc = 1, o->src[0] = a;
}
/* d = f(s1, s2) for MW_OP_ALU; any other op (branch, barrier) reads s1, s2 and writes nothing. */
static inline void rs_alu(struct mw_inst *o, uint8_t op, uint32_t mask, uint16_t d, uint16_t s1, uint16_t s2)
{
    memset(o, 0, offsetof(struct mw_inst, addr));
    o->op = op, o->mask = mask;
    if (op == MW_OP_ALU) o->ndst = 1, o->dst[0] = d;
    o->nsrc = 2, o->src[0] = s1, o->src[1] = s2;
}
/* Every lane of mask at address a (a uniform access), the others 0. */
static inline void rs_all(struct mw_inst *o, uint32_t mask, uint64_t a)
{
    for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = (mask >> l & 1u) ? a : 0;
}
#define FOR_LANES(m, l)                                                                                      \
    for (int l = 0; l < MW_WARP_SIZE; l++)                                                                   \
        if ((m) >> l & 1u)

#endif
