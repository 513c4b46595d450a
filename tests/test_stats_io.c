/* The fixed costs of a run made cheap without changing a byte: stats.json built in memory (checked against the
 * stdio writer it replaced, kept here as the reference, on awkward names and numbers), the hashed stat look-up
 * (checked against a linear scan: first entry of a name wins, entries added after a look-up are found), stat
 * names built from a prefix (against snprintf, truncation included), and config keys found in any order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "report.h"
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the reference: stats.json as the stdio writer produced it ---- */
static void ref_str(FILE *f, const char *s)
{
    fputc('"', f);
    while (s && *s) {
        unsigned char c = (unsigned char)*s++;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void ref_num(FILE *f, double v)
{
    if (!isfinite(v)) fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15) fprintf(f, "%.0f", v);
    else fprintf(f, "%.9g", v);
}

static char *ref_json(const struct mw_stat_list *l, const struct mw_run_info *ri, size_t *n)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, n);
    assert_non_null(f);
    fputs("{\n  \"run\": {", f);
    fputs("\"config\": ", f), ref_str(f, ri->config);
    fputs(", \"workload\": ", f), ref_str(f, ri->workload);
    fprintf(f, ", \"seed\": %llu, \"completed\": %s, \"wall_s\": ", (unsigned long long)ri->seed,
            ri->completed ? "true" : "false");
    ref_num(f, ri->wall_s);
    fputs(", \"cpu_s\": ", f), ref_num(f, ri->cpu_s);
    fputs(", \"cycles_per_s\": ", f), ref_num(f, ri->cycles_per_s);
    fputs(", \"warp_insts_per_s\": ", f), ref_num(f, ri->warp_insts_per_s);
    fputs("},\n  \"stats\": {\n", f);
    for (int i = 0; i < l->n; i++) {
        fputs("    ", f);
        ref_str(f, l->v[i].name);
        fputs(": ", f);
        ref_num(f, l->v[i].value);
        fputs(i + 1 < l->n ? ",\n" : "\n", f);
    }
    fputs("  }\n}\n", f);
    fclose(f);
    return text;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void json_same_as_stdio(void **state)
{
    (void)state;
    static const double vals[] = {0.0, -0.0, 1, -1, 42, 8999999999999999.0, 9e15, -9e15, 1e20, -1e20, 0.1,
                                  1.0 / 3, 2.0 / 3 * 1e-300, 123456789.125, -0.5, 4503599627370495.5,
                                  DBL_MAX, -DBL_MAX, DBL_MIN, 5e-324, NAN, INFINITY, -INFINITY, 1e9, 999999999.5};
    static const char *const names[] = {
        "gpu.cycles", "with \"quotes\"", "back\\slash", "ctl\x01\x1f\ttab\nnl", "utf8 \xc3\xa9\xe2\x82\xac",
        "l1d.12.gpgpusim_accesses", "", "exactly8", "a#b{c}[d]:e,f"};
    struct mw_stat_list l;
    mw_stat_list_init(&l);
    char name[80];
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        snprintf(name, sizeof name, "%s.%zu", names[i % (sizeof names / sizeof *names)], i);
        assert_int_equal(mw_stat_list_add(&l, name, vals[i], "", ""), 0);
    }
    for (int i = 0; i < 3000; i++) { /* every magnitude, integers and not, and random bytes in names */
        uint64_t r = next();
        double v;
        switch (i % 4) {
        case 0: v = (double)(r >> (r & 63)); break;                               /* integers of every size */
        case 1: v = ldexp((double)(r >> 11), (int)(r % 200) - 150); break;         /* 2^-150 .. 2^102 */
        case 2: v = -(double)(r % 100000) / 7.0; break;
        default: memcpy(&v, &r, sizeof v); break;                                 /* any bit pattern */
        }
        int len = (int)(next() % 70);
        for (int k = 0; k < len; k++) name[k] = (char)(1 + next() % 255);
        name[len] = 0;
        assert_int_equal(mw_stat_list_add(&l, name, v, "", ""), 0);
    }
    struct mw_run_info ri = {"conf \"x\"\\", NULL, 18446744073709551615ull, 0.123456789012, 1.0 / 3, 1e300,
                             12345.0, true};
    char path[64];
    snprintf(path, sizeof path, "/tmp/mw_test_stats_io_%d.json", (int)getpid());
    struct mw_err e;
    mw_err_clear(&e);
    for (int pass = 0; pass < 2; pass++) {
        if (pass) ri.workload = "w\x7f", ri.completed = false, ri.cpu_s = -0.0, ri.wall_s = NAN;
        assert_int_equal(mw_write_stats_json(path, &l, &ri, &e), 0);
        size_t na, nb;
        char *a = ref_json(&l, &ri, &na), *b = slurp(path, &nb);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        free(a);
        free(b);
    }
    /* the temporary file was renamed: nothing else is left next to it */
    char tmp[96];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
    assert_int_equal(access(tmp, F_OK), -1);
    unlink(path);
    /* a directory that does not exist: an error, and no file */
    assert_int_equal(mw_write_stats_json("/nonexistent-dir-mw/stats.json", &l, &ri, &e), MW_EIO);
    assert_non_null(strstr(e.msg, "cannot write"));
    mw_stat_list_fini(&l);
}

/* ---- look-up ---- */
static const struct mw_stat_entry *linear(const struct mw_stat_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
    return NULL;
}

static void get_matches_scan(void **state)
{
    (void)state;
    struct mw_stat_list l;
    mw_stat_list_init(&l);
    char name[80];
    /* names that share their length and first and last 8 bytes (one hash value) and duplicates: the first entry
     * of a name is the one found, as a scan from the start finds it */
    for (int i = 0; i < 6000; i++) {
        switch (i % 5) {
        case 0: snprintf(name, sizeof name, "abcdefgh%04dijklmnop", i % 700); break; /* all collide */
        case 1: snprintf(name, sizeof name, "l2.%d.misses", i % 997); break;
        case 2: snprintf(name, sizeof name, "s%d", i % 50); break;                   /* shorter than 8 */
        case 3: snprintf(name, sizeof name, "%.*s", (int)(next() % 64), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
            break;
        default: snprintf(name, sizeof name, "unit.%d.counter_with_a_long_name_%d", i, i * 7); break;
        }
        assert_int_equal(mw_stat_list_add(&l, name, (double)i, "", ""), 0);
        if (i % 37 == 0 || i < 40) { /* look-ups between additions: the index catches up */
            assert_ptr_equal(mw_stat_list_get(&l, name), linear(&l, name));
            assert_ptr_equal(mw_stat_list_get(&l, "l2.5.misses"), linear(&l, "l2.5.misses"));
            assert_null(mw_stat_list_get(&l, "absent.name"));
        }
    }
    for (int i = 0; i < l.n; i++) {
        const struct mw_stat_entry *g = mw_stat_list_get(&l, l.v[i].name);
        assert_ptr_equal(g, linear(&l, l.v[i].name));
        assert_true(g <= &l.v[i]); /* never a later duplicate */
    }
    /* a duplicate's value is the first one's: "s2" was added at i = 2, 52, 102, ... */
    assert_non_null(mw_stat_list_get(&l, "s2"));
    assert_true(mw_stat_list_get(&l, "s2")->value == 2.0);
    assert_null(mw_stat_list_get(&l, "abcdefgh0700ijklmnop"));
    mw_stat_list_fini(&l);
    assert_null(l.idx);
    assert_null(mw_stat_list_get(&l, "s2"));
}

/* ---- group names: unit.counter, unit.i.counter, truncated to 63 characters as snprintf did ---- */
static void group_names_as_snprintf(void **state)
{
    (void)state;
    static const struct mw_stat_desc descs[] = {
        {"hits", "", "", MW_SK_SUM},
        {"peak", "", "", MW_SK_MAX},
        {"a_counter_name_long_enough_that_unit_dot_instance_dot_it_passes_sixty_three", "", "", MW_SK_SUM}};
    const uint64_t vals[12][3] = {{1, 5, 0}, {2, 9, 1}, {3, 2, 0}, {4, 7, 0}, {5, 1, 0}, {6, 0, 0},
                                  {7, 3, 0}, {8, 8, 0}, {9, 4, 0}, {10, 6, 0}, {11, 11, 0}, {12, 10, 2}};
    static const char *const units[] = {"l2", "a_unit_name_that_is_itself_longer_than_sixty_three_characters_in_all_x"};
    for (size_t u = 0; u < 2; u++) {
        struct mw_stat_list l;
        mw_stat_list_init(&l);
        assert_int_equal(mw_stat_list_add_group(&l, units[u], descs, 3, vals, sizeof vals[0], 12, true), 0);
        assert_int_equal(l.n, 3 + 12 * 3);
        char want[200];
        for (int d = 0; d < 3; d++) {
            snprintf(want, 64, "%s.%s", units[u], descs[d].name);
            assert_string_equal(l.v[d].name, want);
        }
        /* totals: hits 1+..+12 = 78; peak max = 11; the long counter 1 + 2 = 3 */
        assert_true(l.v[0].value == 78 && l.v[1].value == 11 && l.v[2].value == 3);
        for (int i = 0; i < 12; i++)
            for (int d = 0; d < 3; d++) {
                snprintf(want, 64, "%s.%d.%s", units[u], i, descs[d].name);
                assert_string_equal(l.v[3 + i * 3 + d].name, want);
                assert_true(l.v[3 + i * 3 + d].value == (double)vals[i][d]);
            }
        mw_stat_list_fini(&l);
    }
}

/* ---- config: every (section, key) names one field, and keys load in any order ---- */
static void config_keys_any_order(void **state)
{
    (void)state;
    for (int i = 0; i < mw_cfg_nfields; i++)
        for (int j = i + 1; j < mw_cfg_nfields; j++)
            assert_false(strcmp(mw_cfg_fields[i].section, mw_cfg_fields[j].section) == 0 &&
                         strcmp(mw_cfg_fields[i].key, mw_cfg_fields[j].key) == 0);
    /* the same values in the table's order and reversed (each look-up starts where the last one ended) */
    static const char *const fwd = "sm:\n  max_warps: 32\n  max_ctas: 4\n  alu_latency: 6\nl2:\n  mshr_entries: 9\n"
                                   "sim:\n  seed: 77\n";
    static const char *const rev = "sim:\n  seed: 77\nl2:\n  mshr_entries: 9\nsm:\n  alu_latency: 6\n  max_ctas: 4\n"
                                   "  max_warps: 32\n";
    struct mw_config *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    char path[64];
    snprintf(path, sizeof path, "/tmp/mw_test_stats_io_%d.yaml", (int)getpid());
    struct mw_config *cs[2] = {a, b};
    const char *texts[2] = {fwd, rev};
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(texts[k], f);
        fclose(f);
        mw_config_defaults(cs[k]);
        struct mw_err e;
        mw_err_clear(&e);
        assert_int_equal(mw_config_load_file(cs[k], path, &e), 0);
    }
    assert_int_equal(a->sm.max_warps, 32);
    assert_int_equal(b->sm.max_warps, 32);
    assert_int_equal(b->sm.max_ctas, 4);
    assert_int_equal(b->sm.alu_latency, 6);
    assert_int_equal(b->l2.mshr_entries, 9);
    assert_int_equal(b->sim.seed, 77);
    /* the values agree; the recorded positions differ, as the lines do */
    const struct mw_cfg_field *fs[] = {mw_config_find("sm", "max_warps"), mw_config_find("sm", "max_ctas"),
                                       mw_config_find("sm", "alu_latency"), mw_config_find("l2", "mshr_entries"),
                                       mw_config_find("sim", "seed")};
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
        assert_non_null(fs[i]);
        assert_memory_equal((const char *)a + fs[i]->offset, (const char *)b + fs[i]->offset, sizeof(int64_t));
    }
    /* the file named by the config itself (c->source) is read again: same result */
    struct mw_err e;
    mw_err_clear(&e);
    assert_int_equal(mw_config_load_file(b, b->source, &e), 0);
    assert_string_equal(b->source, path);
    assert_int_equal(b->sm.max_warps, 32);
    unlink(path);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_same_as_stdio),
        cmocka_unit_test(get_matches_scan),
        cmocka_unit_test(group_names_as_snprintf),
        cmocka_unit_test(config_keys_any_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
