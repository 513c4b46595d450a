/* Accel-Sim trace writer (tracer version 4 line format: PC mask ndst dsts opcode nsrc srcs width [mode
 * addresses]). Opcodes are chosen per operation class so that moonwarp's reader maps them back to the same
 * class, width and L1D-bypass flag; addresses use mode 1 (base + stride) when the active lanes are evenly
 * spaced and mode 0 (a list) otherwise. One CTA at a time is buffered, so memory stays bounded. */
#include "trace_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *width_suffix(int w, bool is_global_or_local)
{
    switch (w) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return is_global_or_local ? "" : "";
    }
}

static void opcode_of(const struct mw_inst *in, char *buf, size_t n)
{
    const char *byp = (in->flags & MW_IF_BYPASS_L1) ? ".STRONG.GPU" : (in->flags & MW_IF_CG) ? ".CG" : "";
    switch (in->op) {
    case MW_OP_NOP: snprintf(buf, n, "NOP"); break;
    case MW_OP_ALU: snprintf(buf, n, "FFMA"); break;
    case MW_OP_DP: snprintf(buf, n, "DFMA"); break;
    case MW_OP_SFU: snprintf(buf, n, "MUFU.EX2"); break;
    case MW_OP_TENSOR: snprintf(buf, n, "HMMA.884.F32.F32"); break;
    case MW_OP_BRANCH: snprintf(buf, n, "BRA"); break;
    case MW_OP_BARRIER: snprintf(buf, n, "BAR.SYNC"); break;
    case MW_OP_MEMBAR: snprintf(buf, n, "MEMBAR.GL"); break;
    case MW_OP_EXIT: snprintf(buf, n, "EXIT"); break;
    case MW_OP_LD_GLOBAL: snprintf(buf, n, "LDG.E%s%s", width_suffix(in->width, true), byp); break;
    case MW_OP_ST_GLOBAL: snprintf(buf, n, "STG.E%s%s", width_suffix(in->width, true), byp); break;
    case MW_OP_ATOMIC: snprintf(buf, n, "ATOMG.E.ADD.STRONG.GPU"); break;
    case MW_OP_LD_LOCAL: snprintf(buf, n, "LDL%s", width_suffix(in->width, true)); break;
    case MW_OP_ST_LOCAL: snprintf(buf, n, "STL%s", width_suffix(in->width, true)); break;
    case MW_OP_LD_SHARED: snprintf(buf, n, "LDS%s", width_suffix(in->width, false)); break;
    case MW_OP_ST_SHARED: snprintf(buf, n, "STS%s", width_suffix(in->width, false)); break;
    case MW_OP_LD_CONST: snprintf(buf, n, "LDC"); break;
    default: snprintf(buf, n, "NOP"); break;
    }
}

static void reg(FILE *f, uint16_t r)
{
    if (r >= MW_REG_UNIFORM_BASE) fprintf(f, " UR%u", (unsigned)(r - MW_REG_UNIFORM_BASE));
    else fprintf(f, " R%u", (unsigned)r);
}

static void write_inst(FILE *f, const struct mw_inst *in)
{
    char op[64];
    opcode_of(in, op, sizeof op);
    fprintf(f, "%04llx %08x %u", (unsigned long long)in->pc, in->mask, (unsigned)in->ndst);
    for (int i = 0; i < in->ndst; i++) reg(f, in->dst[i]);
    fprintf(f, " %s %u", op, (unsigned)in->nsrc);
    for (int i = 0; i < in->nsrc; i++) reg(f, in->src[i]);
    bool has_addr = mw_op_is_mem(in->op) && in->op != MW_OP_LD_CONST && in->op != MW_OP_MEMBAR && in->mask;
    if (!has_addr) {
        /* constant loads carry no addresses, so no width either (a width announces an address list) */
        bool w = mw_op_is_mem(in->op) && in->op != MW_OP_MEMBAR && in->op != MW_OP_LD_CONST && in->mask;
        fprintf(f, " %u\n", w ? (unsigned)(in->width ? in->width : 4) : 0u);
        return;
    }
    fprintf(f, " %u", (unsigned)(in->width ? in->width : 4));
    /* mode 1 when the k-th active lane is at base + k * stride */
    int first = __builtin_ctz(in->mask), k = 0;
    uint64_t base = in->addr[first];
    int64_t stride = 0;
    bool strided = true;
    for (int l = first; l < MW_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1u)) continue;
        if (k == 1) stride = (int64_t)(in->addr[l] - base);
        else if (k > 1 && in->addr[l] != base + (uint64_t)(stride * k)) strided = false;
        k++;
    }
    if (strided) {
        fprintf(f, " 1 0x%llx %lld\n", (unsigned long long)base, (long long)stride);
        return;
    }
    fprintf(f, " 0");
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (in->mask >> l & 1u) fprintf(f, " 0x%llx", (unsigned long long)in->addr[l]);
    fputc('\n', f);
}

static int fail_io(struct mw_err *e, const char *path)
{
    return mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
}

/* Write one kernel to path. */
static int write_kernel(struct mw_workload *w, const struct mw_kernel *k, const char *path, struct mw_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f) return fail_io(e, path);
    fprintf(f, "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n",
            k->name, k->id, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2]);
    fprintf(f, "-shmem = %u\n-nregs = %u\n-binary version = 70\n-cuda stream id = 0\n", k->shmem, k->nregs);
    fprintf(f, "-shmem base_addr = 0x%llx\n-local mem base_addr = 0x%llx\n",
            (unsigned long long)(k->shmem_base ? k->shmem_base : 0x00007f0000000000ull),
            (unsigned long long)(k->local_base ? k->local_base : 0x00007e0000000000ull));
    fprintf(f, "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n\n");
    fprintf(f, "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
               "[adrrescompress?] [mem_addresses]\n\n");
    uint32_t nw = mw_kernel_cta_warps(k);
    struct mw_inst *in = malloc(sizeof *in);
    char **buf = calloc(nw, sizeof *buf);
    size_t *len = calloc(nw, sizeof *len);
    uint64_t *count = calloc(nw, sizeof *count);
    int rc = (!in || !buf || !len || !count) ? mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory") : 0;
    for (uint32_t cta = 0; !rc && cta < mw_kernel_ctas(k); cta++) {
        void *cs = NULL;
        rc = w->ops->cta_open(w, cta, &cs, e);
        if (rc) break;
        for (uint32_t wi = 0; !rc && wi < nw; wi++) {
            FILE *mf = open_memstream(&buf[wi], &len[wi]);
            if (!mf) {
                rc = mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
                break;
            }
            count[wi] = 0;
            int r;
            while ((r = w->ops->warp_next(w, cs, wi, in, e)) == 1) {
                write_inst(mf, in);
                count[wi]++;
                if (in->op == MW_OP_EXIT) break;
            }
            if (r < 0) rc = r;
            fclose(mf);
        }
        w->ops->cta_close(w, cs);
        if (rc) break;
        uint32_t x = cta % k->grid[0], y = cta / k->grid[0] % k->grid[1], z = cta / (k->grid[0] * k->grid[1]);
        fprintf(f, "#BEGIN_TB\n\nthread block = %u,%u,%u\n\n", x, y, z);
        for (uint32_t wi = 0; wi < nw; wi++) {
            fprintf(f, "warp = %u\ninsts = %llu\n", wi, (unsigned long long)count[wi]);
            fwrite(buf[wi], 1, len[wi], f);
            fputc('\n', f);
            free(buf[wi]);
            buf[wi] = NULL;
        }
        fprintf(f, "#END_TB\n\n");
    }
    for (uint32_t wi = 0; buf && wi < nw; wi++) free(buf[wi]);
    free(in), free(buf), free(len), free(count);
    if (fclose(f) != 0 && !rc) rc = fail_io(e, path);
    return rc;
}

int mw_trace_export(struct mw_workload *w, const char *dir, struct mw_err *e)
{
    struct stat sb;
    if (stat(dir, &sb) != 0 && mkdir(dir, 0777) != 0) return fail_io(e, dir);
    size_t n = strlen(dir) + 64;
    char *list = malloc(n), *tmp = malloc(n), *kpath = malloc(n), *kfinal = malloc(n);
    if (!list || !tmp || !kpath || !kfinal) {
        free(list), free(tmp), free(kpath), free(kfinal);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    snprintf(list, n, "%s/kernelslist.g", dir);
    snprintf(tmp, n, "%s/kernelslist.g.tmp", dir);
    int rc = 0;
    FILE *lf = fopen(tmp, "w");
    if (!lf) rc = fail_io(e, tmp);
    struct mw_kernel k;
    int r;
    while (!rc && (r = w->ops->next_kernel(w, &k, e)) == 1) {
        snprintf(kpath, n, "%s/kernel-%u.traceg.tmp", dir, k.id);
        snprintf(kfinal, n, "%s/kernel-%u.traceg", dir, k.id);
        rc = write_kernel(w, &k, kpath, e);
        if (!rc && rename(kpath, kfinal) != 0) rc = fail_io(e, kfinal);
        if (rc) unlink(kpath);
        else fprintf(lf, "kernel-%u.traceg\n", k.id);
    }
    if (!rc && r < 0) rc = r;
    if (lf && fclose(lf) != 0 && !rc) rc = fail_io(e, tmp);
    if (!rc && rename(tmp, list) != 0) rc = fail_io(e, list);
    if (rc) unlink(tmp);
    free(list), free(tmp), free(kpath), free(kfinal);
    return rc;
}
