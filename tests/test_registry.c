/* Tests of the policy registry (engine/registry.c): the lists generated from policies/ (one per file, sorted by
 * file name, matching the folder), the per-point lists split from them, lookup by name, each point's default,
 * every built-in policy's parameter defaults, and the one boolean spelling (mw_parse_bool). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count(const struct mw_policy *const *l)
{
    int n = 0;
    while (l[n]) n++;
    return n;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every point has its default, registered under that point. */
static void test_defaults(void **state)
{
    (void)state;
    for (int pt = 0; pt < MW_PT_COUNT; pt++) {
        const char *name = mw_policy_default_name((enum mw_point)pt);
        assert_non_null(name);
        const struct mw_policy *p = mw_policy_default((enum mw_point)pt);
        if (!p) fail_msg("%s: default '%s' is not registered", mw_point_names[pt], name);
        assert_string_equal(p->name, name);
        assert_int_equal(p->point, pt);
        assert_ptr_equal(mw_policy_find((enum mw_point)pt, name), p);
    }
    assert_string_equal(mw_policy_default_name(MW_PT_WARP_SCHED), "gto");
    assert_string_equal(mw_policy_default_name(MW_PT_DRAM_SCHED), "frfcfs");
    assert_null(mw_policy_default_name(MW_PT_COUNT));
    assert_null(mw_policy_default(MW_PT_COUNT));
    assert_null(mw_policies(MW_PT_COUNT));
}

/* A policy sits in the list of its own point; names are unique within a point and each finds its policy. */
static void test_points_names_find(void **state)
{
    (void)state;
    for (int pt = 0; pt < MW_PT_COUNT; pt++) {
        const struct mw_policy *const *l = mw_policies((enum mw_point)pt);
        assert_non_null(l);
        int n = count(l);
        assert_true(n >= 1);
        for (int i = 0; i < n; i++) {
            if ((int)l[i]->point != pt)
                fail_msg("'%s' (point %d) is listed under %s", l[i]->name, (int)l[i]->point, mw_point_names[pt]);
            assert_non_null(l[i]->name);
            assert_non_null(l[i]->desc);
            assert_true(strcmp(l[i]->name, "lua") != 0); /* "lua" is the config's word for a script */
            for (int j = 0; j < i; j++)
                if (strcmp(l[i]->name, l[j]->name) == 0)
                    fail_msg("%s: two policies named '%s'", mw_point_names[pt], l[i]->name);
            assert_ptr_equal(mw_policy_find((enum mw_point)pt, l[i]->name), l[i]);
        }
        assert_null(mw_policy_find((enum mw_point)pt, "no_such_policy"));
        assert_null(mw_policy_find((enum mw_point)pt, ""));
    }
    assert_non_null(mw_policy_find(MW_PT_WARP_SCHED, "lrr"));
    assert_null(mw_policy_find(MW_PT_DRAM_SCHED, "lrr")); /* names are per point */
    assert_null(mw_policy_find(MW_PT_WARP_SCHED, "GTO"));
    assert_null(mw_policy_find(MW_PT_COUNT, "gto"));
}

/* The generated file lists exactly the policies/<name>.c files, sorted, and every per-point list is those
 * files' lists in file order, then declaration order, with nothing left out. */
static void test_order(void **state)
{
    (void)state;
    int nfiles = 0;
    while (mw_policy_files[nfiles]) nfiles++;
    assert_true(nfiles >= 1);
    for (int f = 0; f < nfiles; f++) {
        assert_non_null(mw_policy_file_names[f]);
        if (f && strcmp(mw_policy_file_names[f - 1], mw_policy_file_names[f]) >= 0)
            fail_msg("files out of order: %s before %s", mw_policy_file_names[f - 1], mw_policy_file_names[f]);
    }
    assert_null(mw_policy_file_names[nfiles]);

    /* the folder itself (the test runs from the source tree) */
    DIR *d = opendir("policies");
    assert_non_null(d);
    char *names[256];
    int nd = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len > 2 && strcmp(de->d_name + len - 2, ".c") == 0) {
            assert_true(nd < 256);
            names[nd] = strndup(de->d_name, len - 2);
            assert_non_null(names[nd]);
            nd++;
        }
    }
    closedir(d);
    qsort(names, (size_t)nd, sizeof *names, cmp_str);
    assert_int_equal(nd, nfiles);
    for (int f = 0; f < nd; f++) {
        assert_string_equal(names[f], mw_policy_file_names[f]);
        free(names[f]);
    }

    int total = 0, listed = 0;
    for (int f = 0; f < nfiles; f++) {
        if (count(mw_policy_files[f]) < 1) fail_msg("policies/%s.c registers nothing", mw_policy_file_names[f]);
        total += count(mw_policy_files[f]);
    }
    for (int li = 0; li <= MW_PT_COUNT; li++) {
        int pt = li < MW_PT_COUNT ? li : MW_PT_BUNDLE;
        const struct mw_policy *const *l = mw_policies((enum mw_point)pt);
        int k = 0;
        for (int f = 0; f < nfiles; f++)
            for (const struct mw_policy *const *p = mw_policy_files[f]; *p; p++)
                if ((int)(*p)->point == pt) {
                    if (l[k] != *p)
                        fail_msg("%s: entry %d is '%s', expected '%s' of policies/%s.c", mw_point_name((enum mw_point)pt), k,
                                 l[k] ? l[k]->name : "(end)", (*p)->name, mw_policy_file_names[f]);
                    k++;
                }
        assert_null(l[k]);
        listed += k;
    }
    assert_int_equal(listed, total);

    /* today's lists, spelled out */
    const struct mw_policy *const *w = mw_policies(MW_PT_WARP_SCHED);
    static const char *const wnames[] = {"ccws", "gto", "lrr", "oaws", "oaws_dyn", "swl", "two_level"};
    for (int i = 0; i < 7; i++) assert_string_equal(w[i]->name, wnames[i]);
    assert_null(w[7]);
}

/* Contract for every built-in policy: its parameter table is consistent and every default parses, and an
 * instance binds without a simulation. */
static void test_params(void **state)
{
    (void)state;
    for (int pt = 0; pt < MW_PT_COUNT; pt++)
        for (const struct mw_policy *const *l = mw_policies((enum mw_point)pt); *l; l++) {
            const struct mw_policy *p = *l;
            assert_true(p->nparams == 0 || (p->params && p->params_size));
            for (int i = 0; i < p->nparams; i++) {
                assert_non_null(p->params[i].name);
                assert_non_null(p->params[i].def);
                assert_non_null(p->params[i].help);
                assert_ptr_equal(mw_policy_param_find(p, p->params[i].name), &p->params[i]);
                assert_true(p->params[i].offset < p->params_size);
            }
            struct mw_policy_inst pi;
            struct mw_err e = {0};
            if (mw_policy_inst_init(&pi, p, NULL, NULL, NULL, 0, &e))
                fail_msg("%s %s: %s", mw_point_names[pt], p->name, e.msg);
            mw_policy_inst_fini(&pi);
        }
}

static void test_parse_bool(void **state)
{
    (void)state;
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "YES", "on", "On", "1"};
    static const char *const no[] = {"false", "FALSE", "no", "No", "off", "OFF", "0"};
    static const char *const bad[] = {"", "maybe", "2", "01", "t", "y", "truee", " true", "true ", "-1"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        bool v = false;
        assert_int_equal(mw_parse_bool(yes[i], &v), 0);
        assert_true(v);
    }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        bool v = true;
        assert_int_equal(mw_parse_bool(no[i], &v), 0);
        assert_false(v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bool v = true;
        assert_int_equal(mw_parse_bool(bad[i], &v), -1);
        assert_true(v); /* untouched */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),   cmocka_unit_test(test_points_names_find),
        cmocka_unit_test(test_order),      cmocka_unit_test(test_params),
        cmocka_unit_test(test_parse_bool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
