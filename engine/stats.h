/* Statistics declared once as data. Each unit lists its counters in an X-macro (name, description, unit, kind);
 * the macro generates the counter struct and the descriptor table that the JSON/CSV/Lua writers read.
 * Names come out as unit.instance.counter (l1d.3.mshr_fail) plus a total unit.counter over instances. */
#ifndef MW_STATS_H
#define MW_STATS_H

#include "common.h"

enum mw_stat_kind {
    MW_SK_SUM, /* counters: totals add up over instances */
    MW_SK_MAX, /* maxima: total is the max over instances */
};

struct mw_stat_desc {
    const char *name, *desc, *unit;
    enum mw_stat_kind kind; /* counter i is the i-th uint64_t of the unit's stats struct */
};

/* Declare a stats struct and its descriptor table from an X-macro list:
 *   #define L1D_STATS(X) X(accesses, "coalesced requests probed", "req", SUM) ...
 *   MW_STATS_DECLARE(l1d, L1D_STATS)        -- in a header: struct mw_l1d_stats + extern table
 *   MW_STATS_DEFINE(l1d, L1D_STATS)         -- in one .c file: the table */
#define MW_STAT_FIELD_(name, desc, unit, kind) uint64_t name;
#define MW_STAT_DESC_(name, desc, unit, kind) {#name, desc, unit, MW_SK_##kind},
#define MW_STATS_DECLARE(unit, LIST)                                                                          \
    struct mw_##unit##_stats {                                                                                \
        LIST(MW_STAT_FIELD_)                                                                                  \
    };                                                                                                        \
    extern const struct mw_stat_desc mw_##unit##_stat_descs[];                                                \
    extern const int mw_##unit##_stat_count;
#define MW_STATS_DEFINE(unit, LIST)                                                                           \
    const struct mw_stat_desc mw_##unit##_stat_descs[] = {LIST(MW_STAT_DESC_)};                              \
    const int mw_##unit##_stat_count = (int)(sizeof mw_##unit##_stat_descs / sizeof mw_##unit##_stat_descs[0]); \
    _Static_assert(sizeof(struct mw_##unit##_stats) ==                                                        \
                       sizeof mw_##unit##_stat_descs / sizeof mw_##unit##_stat_descs[0] * sizeof(uint64_t),  \
                   "stats struct is exactly its counters");

/* A flat, ordered list of (name, value) produced by a finished or paused run. */
struct mw_stat_entry {
    char name[64];
    double value;
    const char *desc, *unit;
};
struct mw_stat_list {
    struct mw_stat_entry *v;
    int n, cap;
    /* a hash index of the names, built by mw_stat_list_get for entries added since its last call (entries are
     * only ever appended); slot value = entry index + 1, 0 = empty */
    int *idx;
    int idx_cap, idx_n;
};
void mw_stat_list_init(struct mw_stat_list *l);
void mw_stat_list_fini(struct mw_stat_list *l);
int mw_stat_list_add(struct mw_stat_list *l, const char *name, double value, const char *desc, const char *unit);
/* Look a name up (hashed; the first entry of that name). Returns NULL if absent. */
const struct mw_stat_entry *mw_stat_list_get(const struct mw_stat_list *l, const char *name);

/* Append unit.i.counter for every instance and unit.counter totals for a group of `n` instances laid out
 * `stride` bytes apart starting at `base`. */
int mw_stat_list_add_group(struct mw_stat_list *l, const char *unit, const struct mw_stat_desc *descs,
                           int ndescs, const void *base, size_t stride, int n, bool per_instance);

#endif
