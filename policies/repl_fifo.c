/* Replacement: first in, first out (oldest fill) among the ways that may be evicted. */
#include "policy.h"

static int victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                  const uint8_t *evictable, int assoc)
{
    (void)pi, (void)sm, (void)set;
    int best = -1;
    for (int w = 0; w < assoc; w++)
        if (evictable[w] && (best < 0 || ways[w].fill_time < ways[best].fill_time)) best = w;
    return best;
}

static const struct mw_replacement_ops mw_pol_repl_fifo = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "fifo", .desc = "oldest fill first"},
    .victim_order = MW_VICTIM_FIFO,
    .victim_pure = 1, /* a function of the set's lines only (victim_order implies it; stated for Lua twins) */
    .victim = victim,
};

MW_REGISTER_POLICIES(&mw_pol_repl_fifo.base);
