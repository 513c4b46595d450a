/* Rodinia CFD (cuda/cfd/euler3d.cu): the finite-volume Euler solver on an unstructured mesh of elements with
 * NNB = 4 faces each, structure-of-arrays variables (variables[i + v*nelr]); after three initialize_variables
 * launches, every iteration runs cuda_compute_step_factor then RK = 3 times cuda_compute_flux (gathering the
 * four neighbours' variables through elements_surrounding_elements) and cuda_time_step, 192-thread CTAs. The
 * mesh is seeded: neighbours within a band of the element's index (a bandwidth-reduced numbering), with a few
 * wing (-1) and far-field (-2) boundary faces. */
#include "kgen.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CFD_BS 192 /* BLOCK_SIZE_0 .. BLOCK_SIZE_4 */
#define NNB 4
#define NVAR 5

struct cfd {
    int64_t nel, nelr;
    int32_t *nbr; /* [NNB][nelr], as elements_surrounding_elements */
    uint64_t areas, esse, normals, vars, old, fluxes, step;
    int64_t j; /* time_step's RK stage */
    uint64_t init_target;
};
struct cfd_owned {
    struct cfd base;
    struct cfd stage[3];   /* time_step j = 0, 1, 2 */
    struct cfd init[3];    /* initialize_variables on variables, old_variables, fluxes */
};

#define C ((const struct cfd *)d)
#define I ((uint64_t)t->gtid)
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
static int32_t nb_of(const struct mw_tctx *t, int64_t it, const void *d) { return C->nbr[it * C->nelr + (int64_t)I]; }

static uint64_t a_init(const struct mw_tctx *t, int64_t it, const void *d)
{
    return F4(C->init_target, I + (uint64_t)it * (uint64_t)C->nelr);
}
#define VAR(name, v) static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d) \
    { (void)it; return F4(C->vars, I + (uint64_t)(v) * (uint64_t)C->nelr); }
VAR(a_v0, 0) VAR(a_v1, 1) VAR(a_v2, 2) VAR(a_v3, 3) VAR(a_v4, 4)
#define OLD(name, v) static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d) \
    { (void)it; return F4(C->old, I + (uint64_t)(v) * (uint64_t)C->nelr); }
OLD(a_o0, 0) OLD(a_o1, 1) OLD(a_o2, 2) OLD(a_o3, 3) OLD(a_o4, 4)
#define FLX(name, v) static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d) \
    { (void)it; return F4(C->fluxes, I + (uint64_t)(v) * (uint64_t)C->nelr); }
FLX(a_f0, 0) FLX(a_f1, 1) FLX(a_f2, 2) FLX(a_f3, 3) FLX(a_f4, 4)
static uint64_t a_area(const struct mw_tctx *t, int64_t it, const void *d) { (void)it; return F4(C->areas, I); }
static uint64_t a_step(const struct mw_tctx *t, int64_t it, const void *d) { (void)it; return F4(C->step, I); }
/* compute_flux, neighbour j = it: nb = elements_surrounding_elements[i + j*nelr]; normals[i + (j + k*NNB)*nelr] */
static uint64_t a_nb(const struct mw_tctx *t, int64_t it, const void *d)
{
    return F4(C->esse, I + (uint64_t)it * (uint64_t)C->nelr);
}
#define NRM(name, k) static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d) \
    { return F4(C->normals, I + (uint64_t)(it + (k)*NNB) * (uint64_t)C->nelr); }
NRM(a_nx, 0) NRM(a_ny, 1) NRM(a_nz, 2)
#define NBV(name, v) static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d) \
    { return F4(C->vars, (uint64_t)nb_of(t, it, d) + (uint64_t)(v) * (uint64_t)C->nelr); }
NBV(a_n0, 0) NBV(a_n1, 1) NBV(a_n2, 2) NBV(a_n3, 3) NBV(a_n4, 4)
static bool p_nb(const struct mw_tctx *t, int64_t it, const void *d) { return nb_of(t, it, d) >= 0; }
static bool p_wing(const struct mw_tctx *t, int64_t it, const void *d) { return nb_of(t, it, d) == -1; }
static bool p_far(const struct mw_tctx *t, int64_t it, const void *d) { return nb_of(t, it, d) == -2; }
#undef C

#define LD(d, a, fn) MW_T_LD(d, a, fn)
#define ST(v, a, fn) MW_T_ST(v, a, fn)
#define A(d, s1, s2) MW_T_ALU(d, s1, s2)
#define S(d, s1) MW_T_SFU(d, s1)
#define LDP(d, a, fn, p) {MW_OP_LD_GLOBAL, 4, 1, 1, {d}, {a}, fn, p}
#define AP(d, s1, s2, p) {MW_OP_ALU, 0, 1, 2, {d}, {s1, s2}, NULL, p}
#define SP(d, s1, p) {MW_OP_SFU, 0, 1, 1, {d}, {s1}, NULL, p}
#define CP(d, p) {MW_OP_LD_CONST, 4, 1, 0, {d}, {0}, NULL, p}
#define BR(s1) {MW_OP_BRANCH, 0, 0, 1, {0}, {s1}, NULL, NULL}

/* cuda_initialize_variables: variables[i + j*nelr] = ff_variable[j] for j < NVAR */
static const struct mw_tinst init_pro[] = {A(1, 0, 0), A(1, 1, 0), A(2, 1, 0)};
static const struct mw_tinst init_body[] = {{MW_OP_LD_CONST, 4, 1, 0, {3}, {0}, NULL, NULL}, ST(3, 2, a_init),
                                            A(2, 2, 0)};

/* Registers: r1 i, r2 address, r10-r14 the element's variables, r15-r17 velocity, r18 speed_sqd, r19 pressure,
 * r20 speed of sound, r21-r32 flux contributions, r33-r37 flux accumulators, r40 nb, r41-r43 normal, r44 len,
 * r45-r49 neighbour variables, r50-r58 neighbour temporaries, r59 factor. */
#define STATE(p) A(1, 0, 0), A(1, 1, 0), A(2, 1, 0), LD(10, 2, a_v0), LD(11, 2, a_v1), LD(12, 2, a_v2), \
    LD(13, 2, a_v3), LD(14, 2, a_v4), S(60, 10), A(15, 11, 60), A(16, 12, 60), A(17, 13, 60), A(18, 15, 15), \
    A(18, 16, 18), A(18, 17, 18), A(19, 10, 18), A(19, 14, 19), A(19, 19, 0), A(20, 19, 10), S(20, 20), A(20, 20, 0)
/* cuda_compute_step_factor: step_factors[i] = 0.5 / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound)) */
static const struct mw_tinst step_k[] = {STATE(0), LD(21, 2, a_area), S(21, 21), S(22, 18), A(22, 22, 20),
                                         A(22, 21, 22), S(22, 22), A(22, 22, 0), ST(22, 2, a_step)};
/* cuda_compute_flux: the element's state and flux contributions, then the four faces */
static const struct mw_tinst flux_pro[] = {
    STATE(0), S(61, 18), A(21, 15, 11), A(21, 21, 19), A(22, 15, 12), A(23, 15, 13), A(24, 16, 12), A(24, 24, 19),
    A(25, 16, 13), A(26, 17, 13), A(26, 26, 19), A(27, 14, 19), A(28, 15, 27), A(29, 16, 27), A(30, 17, 27),
    A(33, 0, 0), A(34, 0, 0), A(35, 0, 0), A(36, 0, 0), A(37, 0, 0)};
static const struct mw_tinst flux_body[] = {
    LD(40, 2, a_nb), LD(41, 2, a_nx), LD(42, 2, a_ny), LD(43, 2, a_nz), A(44, 41, 41), A(44, 42, 44),
    A(44, 43, 44), S(44, 44), A(2, 2, 0), BR(40),
    /* nb >= 0: the neighbour's variables and the Roe-like flux (about 60 fp32 operations) */
    AP(50, 40, 0, p_nb), LDP(45, 50, a_n0, p_nb), LDP(46, 50, a_n1, p_nb), LDP(47, 50, a_n2, p_nb),
    LDP(48, 50, a_n3, p_nb), LDP(49, 50, a_n4, p_nb), SP(51, 45, p_nb), AP(52, 46, 51, p_nb), AP(53, 47, 51, p_nb),
    AP(54, 48, 51, p_nb), AP(55, 52, 52, p_nb), AP(55, 53, 55, p_nb), AP(55, 54, 55, p_nb), AP(56, 45, 55, p_nb),
    AP(56, 49, 56, p_nb), AP(56, 56, 0, p_nb), AP(57, 56, 45, p_nb), SP(57, 57, p_nb), AP(57, 57, 0, p_nb),
    SP(58, 55, p_nb), AP(59, 61, 58, p_nb), AP(59, 59, 20, p_nb), AP(59, 59, 57, p_nb), AP(59, 44, 59, p_nb),
    AP(33, 59, 10, p_nb), AP(37, 59, 14, p_nb), AP(34, 59, 11, p_nb), AP(35, 59, 12, p_nb), AP(36, 59, 13, p_nb),
    AP(62, 52, 46, p_nb), AP(62, 62, 56, p_nb), AP(63, 52, 47, p_nb), AP(64, 52, 48, p_nb), AP(65, 53, 47, p_nb),
    AP(65, 65, 56, p_nb), AP(66, 53, 48, p_nb), AP(67, 54, 48, p_nb), AP(67, 67, 56, p_nb), AP(68, 49, 56, p_nb),
    AP(69, 52, 68, p_nb), AP(70, 53, 68, p_nb), AP(71, 54, 68, p_nb), AP(59, 41, 0, p_nb), AP(33, 59, 46, p_nb),
    AP(37, 59, 69, p_nb), AP(34, 59, 62, p_nb), AP(35, 59, 63, p_nb), AP(36, 59, 64, p_nb), AP(59, 42, 0, p_nb),
    AP(33, 59, 47, p_nb), AP(37, 59, 70, p_nb), AP(34, 59, 63, p_nb), AP(35, 59, 65, p_nb), AP(36, 59, 66, p_nb),
    AP(59, 43, 0, p_nb), AP(33, 59, 48, p_nb), AP(37, 59, 71, p_nb), AP(34, 59, 64, p_nb), AP(35, 59, 66, p_nb),
    AP(36, 59, 67, p_nb),
    /* nb == -1: a wing face, the pressure term */
    AP(34, 41, 19, p_wing), AP(35, 42, 19, p_wing), AP(36, 43, 19, p_wing),
    /* nb == -2: a far-field face against the constant free-stream contributions */
    CP(72, p_far), CP(73, p_far), CP(74, p_far), AP(59, 41, 0, p_far), AP(33, 59, 72, p_far), AP(37, 59, 73, p_far),
    AP(34, 59, 74, p_far), AP(59, 42, 0, p_far), AP(33, 59, 72, p_far), AP(37, 59, 73, p_far), AP(35, 59, 74, p_far),
    AP(59, 43, 0, p_far), AP(33, 59, 72, p_far), AP(37, 59, 73, p_far), AP(36, 59, 74, p_far)};
static const struct mw_tinst flux_epi[] = {A(2, 1, 0), ST(33, 2, a_f0), ST(34, 2, a_f1), ST(35, 2, a_f2),
                                           ST(36, 2, a_f3), ST(37, 2, a_f4)};
/* cuda_time_step: factor = step_factors[i] / (RK + 1 - j); variables = old_variables + factor * fluxes, in the
 * source's order density, energy, momentum x, y, z */
static const struct mw_tinst time_k[] = {
    A(1, 0, 0),      A(1, 1, 0),      A(2, 1, 0),      LD(10, 2, a_step), A(10, 10, 0),
    LD(11, 2, a_o0), LD(12, 2, a_f0), A(11, 10, 12),   ST(11, 2, a_v0),   LD(11, 2, a_o4), LD(12, 2, a_f4),
    A(11, 10, 12),   ST(11, 2, a_v4), LD(11, 2, a_o1), LD(12, 2, a_f1),   A(11, 10, 12),   ST(11, 2, a_v1),
    LD(11, 2, a_o2), LD(12, 2, a_f2), A(11, 10, 12),   ST(11, 2, a_v2),   LD(11, 2, a_o3), LD(12, 2, a_f3),
    A(11, 10, 12),   ST(11, 2, a_v3)};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The seeded mesh: per face 3% wing, 3% far field, otherwise a neighbour within +-W of the element, W = nel^(2/3)
 * (the band of a 3-D mesh numbered by a bandwidth-reducing ordering). The padding elements copy the last
 * element's neighbours, as the host does. */
int mw_wl_cfd_mesh(int64_t nel, int64_t nelr, uint64_t seed, int32_t *nbr)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dull + (uint64_t)nel;
    int64_t W = (int64_t)pow((double)nel, 2.0 / 3.0);
    if (W < 16) W = 16;
    for (int64_t i = 0; i < nel; i++)
        for (int j = 0; j < NNB; j++) {
            uint64_t r = splitmix(&s) % 1000;
            int64_t nb;
            if (r < 30) nb = -1;
            else if (r < 60) nb = -2;
            else {
                int64_t dlt = (int64_t)(splitmix(&s) % (uint64_t)(2 * W)) - W;
                if (dlt >= 0) dlt++;
                nb = i + dlt;
                if (nb < 0) nb = -nb;
                if (nb >= nel) nb = 2 * (nel - 1) - nb;
                if (nb < 0 || nb >= nel) nb = i;
            }
            nbr[j * nelr + i] = (int32_t)nb;
        }
    for (int64_t i = nel; i < nelr; i++)
        for (int j = 0; j < NNB; j++) nbr[j * nelr + i] = nbr[j * nelr + nel - 1];
    return 0;
}

static void cfd_free(void *p)
{
    struct cfd_owned *o = p;
    if (!o) return;
    free(o->base.nbr);
    free(o);
}

static struct mw_kgen_kernel *launch(struct mw_kgen_program *p, const char *name, const struct cfd *c, uint32_t regs)
{
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return NULL;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = (uint32_t)(c->nelr / CFD_BS), k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = CFD_BS, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = regs;
    k->data = c;
    return k;
}
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

int mw_wl_rodinia_cfd(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* elements, iterations. paper: fvcorr.domn.097K (97046 elements) with euler3d's 2000 iterations. */
    static const int64_t nels[4] = {1500, 12000, 30000, 97046}, its[4] = {1, 1, 1, 2000};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct cfd_owned *o = calloc(1, sizeof *o);
    struct mw_kgen_program p = {.owned = o, .free_owned = cfd_free};
    if (!o) goto oom;
    struct cfd *c = &o->base;
    c->nel = nels[sz];
    c->nelr = CFD_BS * (c->nel / CFD_BS + (c->nel % CFD_BS ? 1 : 0));
    c->nbr = malloc((size_t)(NNB * c->nelr) * sizeof *c->nbr);
    if (!c->nbr) goto oom;
    mw_wl_cfd_mesh(c->nel, c->nelr, seed, c->nbr);
    uint64_t a = 0x10000000ull, n = (uint64_t)c->nelr;
#define ALLOC(f, bytes) (c->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(areas, n * 4);
    ALLOC(esse, n * NNB * 4);
    ALLOC(normals, n * NNB * 3 * 4);
    ALLOC(vars, n * NVAR * 4);
    ALLOC(old, n * NVAR * 4);
    ALLOC(fluxes, n * NVAR * 4);
    ALLOC(step, n * 4);
#undef ALLOC
    uint64_t targets[3] = {c->vars, c->old, c->fluxes};
    for (int i = 0; i < 3; i++) {
        o->init[i] = *c, o->init[i].init_target = targets[i];
        o->stage[i] = *c, o->stage[i].j = i;
        struct mw_kgen_kernel *k = launch(&p, "cuda_initialize_variables", &o->init[i], 8);
        if (!k) goto oom;
        k->pro = init_pro, k->npro = N(init_pro), k->body = init_body, k->nbody = N(init_body), k->iters = NVAR;
        k->lane_affine = true; /* a_init: base + 4 * (gtid + it * nelr) */
    }
    for (int64_t it = 0; it < its[sz]; it++) {
        struct mw_kgen_kernel *k = launch(&p, "cuda_compute_step_factor", c, 17);
        if (!k) goto oom;
        k->pro = step_k, k->npro = N(step_k);
        k->lane_affine = true; /* the variables (VAR), a_area, a_step: base + 4 * (gtid + uniform terms) */
        for (int j = 0; j < 3; j++) {
            if (!(k = launch(&p, "cuda_compute_flux", c, 63))) goto oom;
            k->pro = flux_pro, k->npro = N(flux_pro), k->body = flux_body, k->nbody = N(flux_body);
            k->epi = flux_epi, k->nepi = N(flux_epi), k->iters = NNB;
            if (!(k = launch(&p, "cuda_time_step", &o->stage[j], 14))) goto oom;
            k->pro = time_k, k->npro = N(time_k);
            k->lane_affine = true; /* a_step, OLD, FLX, VAR: base + 4 * (gtid + uniform terms); the flux kernel
                                    * reads its neighbours' variables through the neighbour list: not declared */
        }
    }
    return mw_kgen_workload(w, "rodinia.cfd", &p, e);
oom:
    free(p.kernels);
    cfd_free(o);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
