/* Address mapping (engine/addrmap.h): GPGPU-Sim-style interleaving of lines over memory partitions and their
 * sub-partitions (L2 slices) in l2.interleave_bytes chunks. */
#include "addrmap.h"

int mw_addr_slice(const struct mw_sim *s, uint64_t addr)
{
    const struct mw_config *c = &s->cfg;
    uint64_t chunk = addr / (uint64_t)c->l2.interleave_bytes;
    uint64_t part = chunk % (uint64_t)c->l2.n_partitions;
    uint64_t rest = chunk / (uint64_t)c->l2.n_partitions;
    return (int)(part * (uint64_t)c->l2.subpartitions + rest % (uint64_t)c->l2.subpartitions);
}

uint64_t mw_addr_local(const struct mw_sim *s, uint64_t addr)
{
    const struct mw_config *c = &s->cfg;
    uint64_t ib = (uint64_t)c->l2.interleave_bytes;
    return addr / ib / (uint64_t)c->l2.n_partitions * ib + addr % ib;
}

uint64_t mw_addr_slice_local(const struct mw_sim *s, uint64_t addr)
{
    const struct mw_config *c = &s->cfg;
    uint64_t ib = (uint64_t)c->l2.interleave_bytes;
    uint64_t rest = addr / ib / (uint64_t)c->l2.n_partitions;
    return rest / (uint64_t)c->l2.subpartitions * ib + addr % ib;
}
