/* Replacement: least recently used among the ways that may be evicted (lines not waiting for a fill). */
#include "policy.h"

static int victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                  const uint8_t *evictable, int assoc)
{
    (void)pi, (void)sm, (void)set;
    return mw_victim_lru(ways, evictable, assoc);
}

static const struct mw_replacement_ops mw_pol_repl_lru = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "lru", .desc = "least recently used"},
    .victim_order = MW_VICTIM_LRU,
    .victim_pure = 1, /* a function of the set's lines only (victim_order implies it; stated for Lua twins) */
    .victim = victim,
};

MW_REGISTER_POLICIES(&mw_pol_repl_lru.base);
