/* Tests of the machine configuration: the field table, defaults, the three presets in experiments/configs/, every
 * loader and --set error with its exact text and position, and the cross-field checks. Temporary YAML files go
 * to a private mkdtemp directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#define GTX480 "experiments/configs/gtx480.yaml"
#define OAWS "experiments/configs/oaws.yaml"
#define LINEBACKER "experiments/configs/linebacker.yaml"

static char g_dir[64];
static char g_path[128];

static int group_setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/mw_test_config.XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    snprintf(g_path, sizeof g_path, "%s/t.yaml", g_dir);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(g_path);
    rmdir(g_dir);
    return 0;
}

static void write_file(const char *text)
{
    FILE *f = fopen(g_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Load `text` over the defaults. */
static int load_text(struct mw_config *c, const char *text, struct mw_err *e)
{
    mw_config_defaults(c);
    write_file(text);
    mw_err_clear(e);
    return mw_config_load_file(c, g_path, e);
}

static struct mw_config *new_config(void)
{
    struct mw_config *c = malloc(sizeof *c);
    assert_non_null(c);
    mw_config_defaults(c);
    return c;
}

/* Assert a loader error: code, message, and position in the temporary file. */
static void expect_file_error(const char *text, const char *msg, int line, int col)
{
    struct mw_config *c = new_config(), *before = new_config();
    struct mw_err e;
    int rc = load_text(c, text, &e);
    assert_int_equal(rc, MW_EINVAL);
    assert_string_equal(e.msg, msg);
    assert_string_equal(e.file, g_path);
    assert_int_equal(e.line, line);
    assert_int_equal(e.col, col);
    /* nothing half-applied */
    assert_memory_equal(c, before, sizeof *c);
    free(c);
    free(before);
}

/* Assert a --set error on a default config, which must stay unchanged. */
static void expect_set_error(const char *assignment, const char *msg, int col)
{
    struct mw_config *c = new_config(), *before = new_config();
    struct mw_err e;
    mw_err_clear(&e);
    assert_int_equal(mw_config_set(c, assignment, &e), MW_EINVAL);
    assert_string_equal(e.msg, msg);
    assert_string_equal(e.file, "--set");
    assert_int_equal(e.line, 1);
    assert_int_equal(e.col, col);
    assert_memory_equal(c, before, sizeof *c);
    free(c);
    free(before);
}

static const void *fptr(const struct mw_config *c, const struct mw_cfg_field *f)
{
    return (const char *)c + f->offset;
}

static bool field_equal(const struct mw_config *a, const struct mw_config *b, const struct mw_cfg_field *f)
{
    switch (f->type) {
    case MW_CT_INT: return *(const int64_t *)fptr(a, f) == *(const int64_t *)fptr(b, f);
    case MW_CT_DOUBLE: return *(const double *)fptr(a, f) == *(const double *)fptr(b, f);
    case MW_CT_BOOL: return *(const bool *)fptr(a, f) == *(const bool *)fptr(b, f);
    case MW_CT_ENUM: return *(const int *)fptr(a, f) == *(const int *)fptr(b, f);
    case MW_CT_STR: return strcmp(fptr(a, f), fptr(b, f)) == 0;
    }
    return false;
}

/* Every field not named in `changed` ("sec.key" list, NULL-terminated) equals the default. */
static void expect_rest_default(const struct mw_config *c, const char *const *changed)
{
    struct mw_config *d = new_config();
    for (int i = 0; i < mw_cfg_nfields; i++) {
        const struct mw_cfg_field *f = &mw_cfg_fields[i];
        char name[96];
        snprintf(name, sizeof name, "%s.%s", f->section, f->key);
        bool skip = false;
        for (const char *const *p = changed; *p; p++)
            if (strcmp(*p, name) == 0) skip = true;
        if (skip) continue;
        if (!field_equal(c, d, f)) fail_msg("%s differs from its default", name);
    }
    free(d);
}

static void load_preset(struct mw_config *c, const char *path)
{
    struct mw_err e;
    mw_config_defaults(c);
    mw_err_clear(&e);
    int rc = mw_config_load_file(c, path, &e);
    if (rc) {
        char buf[1400];
        fail_msg("%s", mw_err_str(&e, buf, sizeof buf));
    }
    rc = mw_config_validate(c, &e);
    if (rc) {
        char buf[1400];
        fail_msg("%s", mw_err_str(&e, buf, sizeof buf));
    }
    assert_string_equal(c->source, path);
}

/* ---- table and defaults ---------------------------------------------------------------------------------- */

static void test_table(void **state)
{
    (void)state;
    assert_int_equal(mw_cfg_nfields, MW_CFG_NFIELDS);
    const struct mw_cfg_field *f = mw_config_find("l1d", "assoc");
    assert_non_null(f);
    assert_int_equal(f->type, MW_CT_INT);
    assert_int_equal(f->offset, offsetof(struct mw_config, l1d.assoc));
    assert_true(f->min == 1 && f->max == 64);
    assert_string_equal(f->unit, "ways");
    f = mw_config_find("dram", "address_map");
    assert_non_null(f);
    assert_int_equal(f->type, MW_CT_STR);
    assert_string_equal(f->def_str, "RRRR.RRRRRRRR.BBBBCCCC.CCSSSSSS");
    f = mw_config_find("l1d", "alloc");
    assert_int_equal(f->type, MW_CT_ENUM);
    assert_string_equal(f->unit, "on_miss|on_fill");
    assert_null(mw_config_find("l1d", "asoc"));
    assert_null(mw_config_find("nope", "assoc"));
    /* every (section, key) is unique */
    for (int i = 0; i < mw_cfg_nfields; i++)
        for (int j = i + 1; j < mw_cfg_nfields; j++)
            assert_false(strcmp(mw_cfg_fields[i].section, mw_cfg_fields[j].section) == 0 &&
                         strcmp(mw_cfg_fields[i].key, mw_cfg_fields[j].key) == 0);
}

static void test_defaults(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    assert_int_equal(c->gpu.n_sms, 15);
    assert_int_equal(c->sim.seed, 1);
    assert_true(c->clock.core_mhz == 700.0 && c->clock.dram_mhz == 924.0);
    assert_int_equal(c->sm.max_warps, 48);
    assert_int_equal(c->l1d.size_bytes, 16384);
    assert_int_equal(c->l1d.assoc, 4);
    assert_true(c->l1d.enabled);
    assert_int_equal(c->l1d.alloc, MW_ALLOC_ON_MISS);
    assert_int_equal(c->coalescer.mode, MW_COAL_LINE);
    assert_int_equal(c->dram.queue_mode, MW_DRAMQ_UNIFIED);
    assert_string_equal(c->dram.address_map, "RRRR.RRRRRRRR.BBBBCCCC.CCSSSSSS");
    assert_int_equal(mw_l1d_sets(c), 32);
    assert_int_equal(mw_l2_sets(c), 32);
    assert_int_equal(mw_n_slices(c), 12);
    static const char *const impl[MW_PT_COUNT] = {"gto", "none", "line", "frfcfs", "none", "inorder", "lru"};
    for (int pt = 0; pt < MW_PT_COUNT; pt++) {
        assert_string_equal(c->policy[pt].impl, impl[pt]);
        assert_int_equal(c->policy[pt].nparams, 0);
        assert_string_equal(c->policy[pt].file, "");
    }
    assert_string_equal(c->source, "");
    for (int i = 0; i < MW_CFG_NFIELDS; i++) assert_int_equal(c->origin[i].kind, MW_ORIGIN_DEFAULT);
    struct mw_err e;
    mw_err_clear(&e);
    assert_int_equal(mw_config_validate(c, &e), 0);
    free(c);
}

/* ---- presets --------------------------------------------------------------------------------------------- */

static void test_preset_gtx480(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    load_preset(c, GTX480);
    static const char *const none[] = {NULL};
    expect_rest_default(c, none); /* the defaults are the GTX480 baseline */
    assert_int_equal(mw_l1d_sets(c), 32);
    assert_int_equal(mw_l2_sets(c), 32);
    assert_int_equal(mw_n_slices(c) * c->l2.slice_bytes, 768 * 1024);
    assert_string_equal(c->policy[MW_PT_WARP_SCHED].impl, "gto");
    assert_string_equal(c->policy[MW_PT_DRAM_SCHED].impl, "frfcfs");
    assert_string_equal(c->policy[MW_PT_REPLACEMENT].impl, "lru");
    assert_string_equal(c->policy[MW_PT_WARP_SCHED].file, GTX480);
    /* every field was set by the file */
    for (int i = 0; i < MW_CFG_NFIELDS; i++) {
        assert_int_equal(c->origin[i].kind, MW_ORIGIN_FILE);
        assert_true(c->origin[i].line > 0 && c->origin[i].col > 0);
    }
    free(c);
}

static void test_preset_oaws(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    load_preset(c, OAWS);
    assert_int_equal(c->gpu.n_sms, 30);
    assert_int_equal(c->l1d.size_bytes, 32768);
    assert_int_equal(c->l1d.assoc, 8);
    assert_int_equal(c->l1d.line_bytes, 128);
    assert_int_equal(c->l1d.alloc, MW_ALLOC_ON_FILL);
    assert_int_equal(c->l1d.mshr_entries, 32);
    assert_int_equal(c->dram.queue_size, 32);
    assert_int_equal(mw_l1d_sets(c), 32);
    assert_int_equal(c->l1d.index, MW_IDX_FERMI_HASH);
    /* GPGPU-Sim 3.2.1's crossbar and L2 (docs/papers/oaws.md, "Interconnect stalls") */
    assert_true(c->clock.icnt_mhz == 1400.0);
    assert_int_equal(c->icnt.sms_per_cluster, 2);
    assert_int_equal(c->l2.subpartitions, 1);
    assert_int_equal(c->l2.slice_bytes, 131072);
    assert_int_equal(c->l2.reply_queue, 8);
    static const char *const changed[] = {"gpu.n_sms", "l1d.size_bytes", "l1d.assoc", "l1d.alloc", "dram.queue_size",
                                          "l1d.index", "clock.icnt_mhz", "icnt.sms_per_cluster", "l2.subpartitions",
                                          "l2.slice_bytes", "l2.reply_queue", NULL};
    expect_rest_default(c, changed);
    assert_string_equal(c->policy[MW_PT_WARP_SCHED].impl, "gto");
    free(c);
}

static void test_preset_linebacker(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    load_preset(c, LINEBACKER);
    assert_int_equal(c->gpu.n_sms, 16);
    assert_true(c->clock.core_mhz == 1126.0);
    assert_int_equal(c->sm.max_threads, 2048);
    assert_int_equal(c->sm.max_warps, 64);
    assert_int_equal(c->sm.max_ctas, 32);
    assert_int_equal(c->sm.n_schedulers, 4);
    assert_int_equal(c->sm.registers, 65536);
    assert_int_equal(c->sm.registers * 4, 256 * 1024); /* 256 KB register file */
    assert_int_equal(c->sm.shmem_bytes, 96 * 1024);
    assert_int_equal(c->l1d.size_bytes, 48 * 1024);
    assert_int_equal(c->l1d.assoc, 8);
    assert_int_equal(c->l1d.line_bytes, 128);
    assert_int_equal(c->l1d.mshr_entries, 64);
    assert_int_equal(mw_l1d_sets(c), 48);
    assert_int_equal(mw_n_slices(c) * c->l2.slice_bytes, 2 * 1024 * 1024);
    assert_int_equal(c->l2.assoc, 8);
    assert_int_equal(mw_l2_sets(c), 128);
    assert_int_equal(c->dram.tRRD, 6);
    assert_int_equal(c->dram.tRCD, 12);
    assert_int_equal(c->dram.tRAS, 28);
    assert_int_equal(c->dram.tRP, 12);
    assert_int_equal(c->dram.tRC, 40);
    assert_int_equal(c->dram.tCL, 12);
    assert_int_equal(c->dram.tWR, 12);
    /* GPGPU-Sim 3.2.2 allocates (regs + 3) & ~3 registers per thread: 128 per warp */
    assert_int_equal(c->sm.reg_alloc_unit, 128);
    /* 352.5 GB/s: channels x bus bytes x beats per clock x clock */
    double gbs = (double)c->l2.n_partitions * (double)c->dram.bus_bytes * (double)c->dram.data_rate *
                 c->clock.dram_mhz / 1000.0;
    assert_true(gbs > 352.4 && gbs < 352.6);
    assert_string_equal(c->policy[MW_PT_WARP_SCHED].impl, "gto");
    free(c);
}

/* Count the (section, key) pairs of a preset with libyaml directly, independent of the loader. */
static void check_every_field_once(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    yaml_parser_t p;
    yaml_document_t doc;
    assert_true(yaml_parser_initialize(&p));
    yaml_parser_set_input_file(&p, f);
    assert_true(yaml_parser_load(&p, &doc));
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    assert_non_null(root);
    assert_int_equal(root->type, YAML_MAPPING_NODE);
    int count[MW_CFG_NFIELDS] = {0}, points[MW_PT_COUNT] = {0};
    for (yaml_node_pair_t *s = root->data.mapping.pairs.start; s < root->data.mapping.pairs.top; s++) {
        yaml_node_t *sk = yaml_document_get_node(&doc, s->key), *sv = yaml_document_get_node(&doc, s->value);
        const char *sec = (const char *)sk->data.scalar.value;
        assert_int_equal(sv->type, YAML_MAPPING_NODE);
        for (yaml_node_pair_t *k = sv->data.mapping.pairs.start; k < sv->data.mapping.pairs.top; k++) {
            const char *key = (const char *)yaml_document_get_node(&doc, k->key)->data.scalar.value;
            if (strcmp(sec, "policies") == 0) {
                int pt = mw_point_from_name(key);
                if (pt < 0) fail_msg("%s: unknown decision point %s", path, key);
                points[pt]++;
                continue;
            }
            const struct mw_cfg_field *fd = mw_config_find(sec, key);
            if (!fd) fail_msg("%s: unknown field %s.%s", path, sec, key);
            count[fd - mw_cfg_fields]++;
        }
    }
    for (int i = 0; i < MW_CFG_NFIELDS; i++)
        if (count[i] != 1)
            fail_msg("%s names %s.%s %d times", path, mw_cfg_fields[i].section, mw_cfg_fields[i].key, count[i]);
    for (int pt = 0; pt < MW_PT_COUNT; pt++)
        if (points[pt] != 1) fail_msg("%s names policies.%s %d times", path, mw_point_names[pt], points[pt]);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    fclose(f);
}

static void test_presets_name_every_field_once(void **state)
{
    (void)state;
    check_every_field_once(GTX480);
    check_every_field_once(OAWS);
    check_every_field_once(LINEBACKER);
}

/* ---- values --------------------------------------------------------------------------------------------- */

static void test_value_syntax(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    struct mw_err e;
    assert_int_equal(load_text(c,
                               "l1d:\n"
                               "  size_bytes: 0x8000\n"
                               "  enabled: no\n"
                               "  alloc: on_fill\n"
                               "l2:\n"
                               "  slice_bytes: 1M\n"
                               "  interleave_bytes: 1_024\n"
                               "sm:\n"
                               "  registers: 65_536\n"
                               "  shmem_bytes: 96k\n"
                               "sim:\n"
                               "  max_cycles: 1_000_000\n"
                               "  fast_forward: Off\n"
                               "clock:\n"
                               "  core_mhz: 1126.5\n"
                               "  dram_mhz: 1_000\n"
                               "coalescer:\n"
                               "  mode: sector\n"
                               "dram:\n"
                               "  address_map: \"RRRRRRRRRRRR.BBBB.CCCCCC.SSSSSS\"\n"
                               "  queue_mode: split\n",
                               &e),
                     0);
    assert_int_equal(c->l1d.size_bytes, 32768);
    assert_false(c->l1d.enabled);
    assert_int_equal(c->l1d.alloc, MW_ALLOC_ON_FILL);
    assert_int_equal(c->l2.slice_bytes, 1048576);
    assert_int_equal(c->l2.interleave_bytes, 1024);
    assert_int_equal(c->sm.registers, 65536);
    assert_int_equal(c->sm.shmem_bytes, 98304);
    assert_int_equal(c->sim.max_cycles, 1000000);
    assert_false(c->sim.fast_forward);
    assert_true(c->clock.core_mhz == 1126.5);
    assert_true(c->clock.dram_mhz == 1000.0);
    assert_int_equal(c->coalescer.mode, MW_COAL_SECTOR);
    assert_int_equal(c->dram.queue_mode, MW_DRAMQ_SPLIT);
    assert_string_equal(c->dram.address_map, "RRRRRRRRRRRR.BBBB.CCCCCC.SSSSSS");
    const struct mw_cfg_field *f = mw_config_find("l1d", "size_bytes");
    int i = (int)(f - mw_cfg_fields);
    assert_int_equal(c->origin[i].kind, MW_ORIGIN_FILE);
    assert_int_equal(c->origin[i].line, 2);
    assert_int_equal(c->origin[i].col, 15);
    assert_string_equal(c->source, g_path);
    /* fields the file does not name keep their values */
    assert_int_equal(c->l1d.assoc, 4);
    free(c);
}

static void test_empty_file(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    struct mw_err e;
    assert_int_equal(load_text(c, "# nothing\n", &e), 0);
    assert_string_equal(c->source, g_path);
    static const char *const none[] = {NULL};
    expect_rest_default(c, none);
    free(c);
}

static void test_missing_file(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    struct mw_err e;
    mw_err_clear(&e);
    assert_int_equal(mw_config_load_file(c, "experiments/configs/no-such-file.yaml", &e), MW_EIO);
    assert_string_equal(e.msg, "cannot open: No such file or directory");
    assert_string_equal(e.file, "experiments/configs/no-such-file.yaml");
    free(c);
}

/* ---- loader errors: exact text and position --------------------------------------------------------------- */

static void test_err_unknown_key(void **state)
{
    (void)state;
    expect_file_error("l1d:\n  size_bytes: 16K\n  asoc: 4\n",
                      "unknown key 'asoc' in section 'l1d'; did you mean 'assoc'?", 3, 3);
    expect_file_error("l1d:\n  zzzzzz: 1\n", "unknown key 'zzzzzz' in section 'l1d'", 2, 3);
    expect_file_error("dram:\n  tRDD: 6\n", "unknown key 'tRDD' in section 'dram'; did you mean 'tRCD'?", 2, 3);
}

static void test_err_unknown_section(void **state)
{
    (void)state;
    expect_file_error("sm:\n  max_warps: 48\nl1:\n  assoc: 4\n", "unknown section 'l1'; did you mean 'l1d'?", 3, 1);
    expect_file_error("cache:\n  assoc: 4\n",
                      "unknown section 'cache' (sections: sim, gpu, clock, sm, coalescer, l1d, l1i, icnt, l2, dram, "
                      "trace, policies)",
                      1, 1);
}

static void test_err_types(void **state)
{
    (void)state;
    expect_file_error("l1d:\n  assoc: four\n", "l1d.assoc: expected an integer, got 'four'", 2, 10);
    expect_file_error("l1d:\n  assoc: 4.5\n", "l1d.assoc: expected an integer, got '4.5'", 2, 10);
    expect_file_error("l1d:\n  assoc: 1__0\n", "l1d.assoc: expected an integer, got '1__0'", 2, 10);
    /* size suffixes only for byte fields */
    expect_file_error("sm:\n  registers: 64K\n", "sm.registers: expected an integer, got '64K'", 2, 14);
    expect_file_error("clock:\n  core_mhz: fast\n", "clock.core_mhz: expected a number, got 'fast'", 2, 13);
    expect_file_error("l1d:\n  enabled: maybe\n", "l1d.enabled: expected true or false, got 'maybe'", 2, 12);
    expect_file_error("l1d:\n  assoc: {ways: 4}\n", "l1d.assoc: expected an integer, got a mapping", 2, 10);
    expect_file_error("l1d:\n  alloc: [on_fill]\n", "l1d.alloc: expected one of on_miss|on_fill, got a sequence", 2,
                      10);
    expect_file_error("dram:\n  address_map: RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR"
                      "RRRRRRRRRRRRRRRRRRRRRRRRRRRRRR\n",
                      "dram.address_map: longer than 95 characters", 2, 16);
}

static void test_err_range(void **state)
{
    (void)state;
    expect_file_error("l1d:\n  assoc: 0\n", "l1d.assoc: 0 is out of range [1, 64]", 2, 10);
    expect_file_error("l1d:\n  size_bytes: 32M\n", "l1d.size_bytes: 33554432 is out of range [128, 16777216]", 2, 15);
    expect_file_error("sim:\n  seed: -1\n", "sim.seed: -1 is out of range [0, 4294967295]", 2, 9);
    expect_file_error("clock:\n  core_mhz: 0.5\n", "clock.core_mhz: 0.5 is out of range [1, 100000]", 2, 13);
}

static void test_err_enum(void **state)
{
    (void)state;
    expect_file_error("l1d:\n  alloc: onfill\n", "l1d.alloc: 'onfill' is not one of on_miss|on_fill", 2, 10);
    expect_file_error("dram:\n  queue_mode: both\n", "dram.queue_mode: 'both' is not one of split|unified", 2, 15);
}

static void test_err_duplicates(void **state)
{
    (void)state;
    expect_file_error("l1d:\n  assoc: 4\n  assoc: 8\n", "duplicate key 'assoc' in section 'l1d'", 3, 3);
    expect_file_error("l1d:\n  assoc: 4\nsm:\n  max_ctas: 8\nl1d:\n  assoc: 8\n", "duplicate section 'l1d'", 5, 1);
    expect_file_error("policies:\n  warp_scheduler: gto\n  warp_scheduler: lrr\n",
                      "duplicate key 'warp_scheduler' in section 'policies'", 3, 3);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: two_level\n    active_warps: 4\n    active_warps: 6\n",
                      "duplicate key 'active_warps' in policies.warp_scheduler", 5, 5);
}

static void test_err_shape(void **state)
{
    (void)state;
    expect_file_error("l1d: 4\n", "section 'l1d' must be a mapping of key: value pairs, got a scalar", 1, 6);
    expect_file_error("sm:\n  max_ctas: 8\nl1d:\n", "section 'l1d' must be a mapping of key: value pairs, got a scalar",
                      3, 1);
    expect_file_error("l1d:\n  - assoc\n", "section 'l1d' must be a mapping of key: value pairs, got a sequence", 2,
                      3);
    expect_file_error("- l1d\n- sm\n",
                      "the top level must be a mapping of sections (sim:, gpu:, l1d:, ...), got a sequence", 1, 1);
    expect_file_error("policies: gto\n", "section 'policies' must be a mapping of key: value pairs, got a scalar", 1,
                      11);
    expect_file_error("l1d:\n  assoc: 4\n---\nl1d:\n  assoc: 8\n", "only one YAML document per config file", 4, 1);
}

static void test_err_syntax(void **state)
{
    (void)state;
    expect_file_error("l1d:\n  assoc: 4\n bad: 3\n",
                      "YAML syntax error: did not find expected key (while parsing a block mapping)", 3, 2);
    expect_file_error("l1d:\n  assoc: 4: 5\n", "YAML syntax error: mapping values are not allowed in this context", 2,
                      11);
    expect_file_error("dram:\n  address_map: \"RRRR\n",
                      "YAML syntax error: found unexpected end of stream (while scanning a quoted scalar)", 3, 1);
}

static void test_err_policies(void **state)
{
    (void)state;
    expect_file_error("policies:\n  warp_sched: gto\n",
                      "unknown decision point 'warp_sched' in section 'policies' (points: warp_scheduler, l1d_bypass, "
                      "granularity, dram_scheduler, cta_throttle, ldst_scheduler, replacement, l2_replacement, bundle, bundle2)",
                      2, 3);
    expect_file_error("policies:\n  replacment: lru\n",
                      "unknown decision point 'replacment' in section 'policies'; did you mean 'replacement'?", 2, 3);
    expect_file_error("policies:\n  warp_scheduler: grto\n",
                      "unknown warp_scheduler policy 'grto' (available: ccws, gto, lrr, oaws, oaws_dyn, swl, two_level, lua)", 2, 19);
    expect_file_error("policies:\n  dram_scheduler:\n    impl: fifo\n",
                      "unknown dram_scheduler policy 'fifo' (available: fcfs, frfcfs, mshr_m, mshr_s, mshr_sa, lua)", 3, 11);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: two_level\n    active: 4\n",
                      "policy 'two_level' has no parameter 'active' (parameters: active_warps)", 4, 5);
    expect_file_error("policies:\n  warp_scheduler:\n    active_warp: 4\n    impl: two_level\n",
                      "policy 'two_level' has no parameter 'active_warp'; did you mean 'active_warps'?", 3, 5);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: gto\n    depth: 2\n",
                      "policy 'gto' has no parameter 'depth' (it takes none)", 4, 5);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: two_level\n    active_warps: lots\n",
                      "two_level.active_warps: expected an integer, got 'lots'", 4, 19);
    expect_file_error("policies:\n  cta_throttle:\n    impl: static\n    max_ctas: 0\n",
                      "static.max_ctas: 0 is out of range [1, 64]", 4, 15);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: lua\n",
                      "policies.warp_scheduler: impl 'lua' needs a 'script'", 3, 11);
    expect_file_error("policies:\n  warp_scheduler: lua\n", "policies.warp_scheduler: impl 'lua' needs a 'script'", 2,
                      19);
    expect_file_error("policies:\n  warp_scheduler:\n    script: x.lua\n",
                      "policies.warp_scheduler: missing 'impl' (the policy name)", 2, 3);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: gto\n    script: x.lua\n",
                      "policies.warp_scheduler: 'script' is only used with impl: lua", 4, 5);
    expect_file_error("policies:\n  warp_scheduler:\n    impl: [gto]\n",
                      "policies.warp_scheduler.impl: expected a scalar value, got a sequence", 3, 11);
    expect_file_error("policies:\n  warp_scheduler: [gto]\n",
                      "policies.warp_scheduler: expected a policy name or {impl: name, ...}, got a sequence", 2, 19);
}

static void test_policy_choices(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    struct mw_err e;
    assert_int_equal(load_text(c,
                               "policies:\n"
                               "  warp_scheduler:\n"
                               "    impl: two_level\n"
                               "    active_warps: 6\n"
                               "  cta_throttle: static\n"
                               "  l1d_bypass:\n"
                               "    impl: lua\n"
                               "    script: policies/mine.lua\n"
                               "    threshold: 0.25\n",
                               &e),
                     0);
    const struct mw_policy_choice *ws = &c->policy[MW_PT_WARP_SCHED];
    assert_string_equal(ws->impl, "two_level");
    assert_string_equal(ws->file, g_path);
    assert_int_equal(ws->line, 3);
    assert_int_equal(ws->col, 11);
    assert_int_equal(ws->nparams, 1);
    assert_string_equal(ws->params[0].key, "active_warps");
    assert_string_equal(ws->params[0].value, "6");
    assert_string_equal(ws->params[0].file, g_path);
    assert_int_equal(ws->params[0].line, 4);
    assert_int_equal(ws->params[0].col, 19);
    const struct mw_policy_choice *ct = &c->policy[MW_PT_CTA_THROTTLE];
    assert_string_equal(ct->impl, "static");
    assert_int_equal(ct->nparams, 0);
    assert_int_equal(ct->line, 5);
    assert_int_equal(ct->col, 17);
    const struct mw_policy_choice *bp = &c->policy[MW_PT_L1D_BYPASS];
    assert_string_equal(bp->impl, "lua");
    assert_string_equal(bp->script, "policies/mine.lua");
    assert_int_equal(bp->nparams, 1); /* Lua parameters are the script's business */
    assert_string_equal(bp->params[0].key, "threshold");
    assert_string_equal(bp->params[0].value, "0.25");
    /* untouched points keep their defaults */
    assert_string_equal(c->policy[MW_PT_DRAM_SCHED].impl, "frfcfs");
    assert_int_equal(mw_config_validate(c, &e), 0);
    free(c);
}

/* An error late in the file leaves nothing of the earlier lines applied. */
static void test_nothing_half_applied(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    struct mw_err e;
    assert_int_equal(mw_config_set(c, "l1d.assoc=8", &e), 0);
    struct mw_config *before = malloc(sizeof *before);
    assert_non_null(before);
    *before = *c;
    write_file("gpu:\n  n_sms: 20\npolicies:\n  warp_scheduler: lrr\nl1d:\n  assoc: 2\n  size_bytes: 1G\n");
    assert_int_equal(mw_config_load_file(c, g_path, &e), MW_EINVAL);
    assert_string_equal(e.msg, "l1d.size_bytes: 1073741824 is out of range [128, 16777216]");
    assert_int_equal(e.line, 7);
    assert_int_equal(e.col, 15);
    assert_memory_equal(c, before, sizeof *c);
    assert_int_equal(c->gpu.n_sms, 15);
    assert_int_equal(c->l1d.assoc, 8);
    assert_string_equal(c->policy[MW_PT_WARP_SCHED].impl, "gto");
    free(before);
    free(c);
}

/* ---- --set ----------------------------------------------------------------------------------------------- */

static void test_set(void **state)
{
    (void)state;
    struct mw_config *c = new_config();
    struct mw_err e;
    mw_err_clear(&e);
    assert_int_equal(mw_config_set(c, "l1d.assoc=8", &e), 0);
    assert_int_equal(c->l1d.assoc, 8);
    int i = (int)(mw_config_find("l1d", "assoc") - mw_cfg_fields);
    assert_int_equal(c->origin[i].kind, MW_ORIGIN_SET);
    assert_int_equal(c->origin[i].col, 11);
    assert_int_equal(mw_config_set(c, "l1d.size_bytes=48K", &e), 0);
    assert_int_equal(c->l1d.size_bytes, 49152);
    assert_int_equal(mw_config_set(c, "l1d.alloc=on_fill", &e), 0);
    assert_int_equal(c->l1d.alloc, MW_ALLOC_ON_FILL);
    assert_int_equal(mw_config_set(c, "dram.address_map=RRRRRRRRRRRR.BBBBCCCCCC.SSSSSS", &e), 0);
    assert_string_equal(c->dram.address_map, "RRRRRRRRRRRR.BBBBCCCCCC.SSSSSS");
    assert_int_equal(mw_config_set(c, "clock.core_mhz=1400", &e), 0);
    assert_true(c->clock.core_mhz == 1400.0);
    assert_int_equal(mw_config_set(c, "l1d.enabled=off", &e), 0);
    assert_false(c->l1d.enabled);

    assert_int_equal(mw_config_set(c, "policies.warp_scheduler=two_level", &e), 0);
    assert_int_equal(mw_config_set(c, "policies.warp_scheduler.active_warps=12", &e), 0);
    assert_int_equal(mw_config_set(c, "policies.warp_scheduler.active_warps=16", &e), 0); /* replaces */
    const struct mw_policy_choice *ws = &c->policy[MW_PT_WARP_SCHED];
    assert_string_equal(ws->impl, "two_level");
    assert_string_equal(ws->file, "--set");
    assert_int_equal(ws->col, 25);
    assert_int_equal(ws->nparams, 1);
    assert_string_equal(ws->params[0].value, "16");
    assert_int_equal(ws->params[0].col, 38);
    /* a new implementation starts without the old one's parameters */
    assert_int_equal(mw_config_set(c, "policies.warp_scheduler.impl=lrr", &e), 0);
    assert_string_equal(ws->impl, "lrr");
    assert_int_equal(ws->nparams, 0);
    /* lua: the script may come after the impl; validation insists on it */
    assert_int_equal(mw_config_set(c, "policies.replacement=lua", &e), 0);
    assert_int_equal(mw_config_validate(c, &e), MW_EINVAL);
    assert_string_equal(e.msg, "policies.replacement: impl 'lua' needs a 'script'");
    assert_string_equal(e.file, "--set");
    assert_int_equal(e.col, 22);
    assert_int_equal(mw_config_set(c, "policies.replacement.script=repl.lua", &e), 0);
    assert_int_equal(mw_config_set(c, "policies.replacement.ways_kept=3", &e), 0);
    assert_string_equal(c->policy[MW_PT_REPLACEMENT].script, "repl.lua");
    assert_int_equal(c->policy[MW_PT_REPLACEMENT].nparams, 1);
    assert_int_equal(mw_config_validate(c, &e), 0);
    free(c);
}

static void test_set_errors(void **state)
{
    (void)state;
    expect_set_error("l1d.assoc=four", "l1d.assoc: expected an integer, got 'four'", 11);
    expect_set_error("l1d.assoc=0", "l1d.assoc: 0 is out of range [1, 64]", 11);
    expect_set_error("l1d.asoc=8", "unknown key 'asoc' in section 'l1d'; did you mean 'assoc'?", 5);
    expect_set_error("l1.assoc=8", "unknown section 'l1'; did you mean 'l1d'?", 1);
    expect_set_error("l1d.alloc=onfill", "l1d.alloc: 'onfill' is not one of on_miss|on_fill", 11);
    expect_set_error("l1d.assoc", "expected section.key=value, got 'l1d.assoc'", 1);
    expect_set_error("assoc=8", "expected section.key=value, got 'assoc=8'", 1);
    expect_set_error("policies.warp_sched=lrr",
                     "unknown decision point 'warp_sched' in section 'policies' (points: warp_scheduler, l1d_bypass, "
                     "granularity, dram_scheduler, cta_throttle, ldst_scheduler, replacement, l2_replacement, bundle, bundle2)",
                     10);
    expect_set_error("policies.warp_scheduler=nope",
                     "unknown warp_scheduler policy 'nope' (available: ccws, gto, lrr, oaws, oaws_dyn, swl, two_level, lua)", 25);
    expect_set_error("policies.warp_scheduler.bogus=1", "policy 'gto' has no parameter 'bogus' (it takes none)", 25);
    expect_set_error("policies.cta_throttle.max_ctas=2", "policy 'none' has no parameter 'max_ctas' (it takes none)",
                     23);
    expect_set_error("policies.warp_scheduler.script=x.lua",
                     "policies.warp_scheduler: 'script' is only used with impl: lua", 25);

    struct mw_config *c = new_config();
    struct mw_err e;
    assert_int_equal(mw_config_set(c, "policies.cta_throttle=static", &e), 0);
    assert_int_equal(mw_config_set(c, "policies.cta_throttle.max_ctas=x", &e), MW_EINVAL);
    assert_string_equal(e.msg, "static.max_ctas: expected an integer, got 'x'");
    assert_string_equal(e.file, "--set");
    assert_int_equal(e.line, 1);
    assert_int_equal(e.col, 32);
    assert_int_equal(c->policy[MW_PT_CTA_THROTTLE].nparams, 0);
    char buf[1400];
    assert_string_equal(mw_err_str(&e, buf, sizeof buf), "--set:1:32: static.max_ctas: expected an integer, got 'x'");
    free(c);
}

/* ---- cross-field checks ------------------------------------------------------------------------------------- */

static void expect_invalid(const char *text, const char *msg, const char *file, int line, int col)
{
    struct mw_config *c = new_config();
    struct mw_err e;
    int rc = load_text(c, text, &e);
    if (rc) fail_msg("load failed: %s", e.msg);
    assert_int_equal(mw_config_validate(c, &e), MW_EINVAL);
    assert_string_equal(e.msg, msg);
    assert_string_equal(e.file, file ? file : g_path);
    assert_int_equal(e.line, line);
    assert_int_equal(e.col, col);
    free(c);
}

static void test_validate(void **state)
{
    (void)state;
    expect_invalid("l1d:\n  size_bytes: 10000\n",
                   "l1d.size_bytes: 10000 is not a whole number of sets of line_bytes x assoc = 512 bytes", NULL, 2, 15);
    expect_invalid("l2:\n  slice_bytes: 48K\n",
                   "l2.slice_bytes: 49152 gives 24 sets of 2048 bytes; the set count must be a power of two", NULL, 2,
                   16);
    expect_invalid("l1d:\n  line_bytes: 96\n", "l1d.line_bytes: 96 is not a power of two of at least 32", NULL, 2, 15);
    /* line_bytes was not set: the message points at the field that was */
    /* the caches track 32 B sectors, at most four to a line: other sizes are refused as the file is read */
    expect_file_error("sim:\n  seed: 3\nl1d:\n  sector_bytes: 256\n", "l1d.sector_bytes: 256 is out of range [32, 32]",
                      4, 17);
    expect_file_error("l1d:\n  line_bytes: 256\n  size_bytes: 32K\n", "l1d.line_bytes: 256 is out of range [32, 128]",
                      2, 15);
    expect_invalid("l1d:\n  line_bytes: 128\nl2:\n  line_bytes: 64\n",
                   "l1d.line_bytes: 128 is larger than l2.line_bytes 64", NULL, 2, 15);
    expect_invalid("sm:\n  max_warps: 32\n", "sm.max_threads: 1536 threads need 48 warps but sm.max_warps is 32", NULL,
                   2, 14);
    expect_invalid("dram:\n  write_low: 100\n", "dram.write_low: 100 is above dram.write_high 96", NULL, 2, 14);
    expect_invalid("dram:\n  write_high: 200\n  write_low: 10\n", "dram.write_high: 200 is above dram.write_queue 128",
                   NULL, 2, 15);
    expect_invalid("dram:\n  address_map: RRRR.RRRRRRRR.BBBBCCCC.CCSSSSSX\n",
                   "dram.address_map: 'X' is not one of R, B, C, S or '.'", NULL, 2, 16);
    expect_invalid("dram:\n  banks: 8\n", "dram.address_map: 4 B bits but dram.banks 8 needs 3", NULL, 2, 10);
    expect_invalid("dram:\n  burst_length: 4\n",
                   "dram.address_map: 6 S bits but a burst (bus_bytes x burst_length) is 32 bytes and needs 5", NULL, 2,
                   17);
    expect_invalid("dram:\n  banks: 12\n", "dram.banks: 12 is not a power of two", NULL, 2, 10);
    expect_invalid("icnt:\n  in_buffer_flits: 4\n",
                   "icnt.in_buffer_flits: 4 flits cannot hold one 136-byte packet (5 flits of 32 bytes)", NULL, 2, 20);

    /* --set positions carry over to validation */
    struct mw_config *c = new_config();
    struct mw_err e;
    assert_int_equal(mw_config_set(c, "dram.write_low=100", &e), 0);
    assert_int_equal(mw_config_validate(c, &e), MW_EINVAL);
    assert_string_equal(e.msg, "dram.write_low: 100 is above dram.write_high 96");
    assert_string_equal(e.file, "--set");
    assert_int_equal(e.line, 1);
    assert_int_equal(e.col, 16);
    /* defaults only: no position at all */
    mw_config_defaults(c);
    snprintf(c->dram.address_map, sizeof c->dram.address_map, "RRRR.BBBB.CCCCCC");
    assert_int_equal(mw_config_validate(c, &e), MW_EINVAL);
    assert_string_equal(e.msg, "dram.address_map: 0 S bits but a burst (bus_bytes x burst_length) is 64 bytes and "
                               "needs 6");
    assert_string_equal(e.file, "");
    assert_int_equal(e.line, 0);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_preset_gtx480),
        cmocka_unit_test(test_preset_oaws),
        cmocka_unit_test(test_preset_linebacker),
        cmocka_unit_test(test_presets_name_every_field_once),
        cmocka_unit_test(test_value_syntax),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_err_unknown_key),
        cmocka_unit_test(test_err_unknown_section),
        cmocka_unit_test(test_err_types),
        cmocka_unit_test(test_err_range),
        cmocka_unit_test(test_err_enum),
        cmocka_unit_test(test_err_duplicates),
        cmocka_unit_test(test_err_shape),
        cmocka_unit_test(test_err_syntax),
        cmocka_unit_test(test_err_policies),
        cmocka_unit_test(test_policy_choices),
        cmocka_unit_test(test_nothing_half_applied),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_set_errors),
        cmocka_unit_test(test_validate),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
