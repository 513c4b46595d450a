/* moonwarp's own folders, found from where the running code lives: the binary (/proc/self/exe) or, inside a stock
 * lua5.4, moonwarp.so (dladdr). PREFIX/bin/moonwarp and PREFIX/lib/lua/5.4/moonwarp.so both lead to PREFIX/share/...;
 * a binary or module in the build folder leads to nothing there and falls back to the source tree. */
#define _GNU_SOURCE
#include "paths.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Install layout relative to the prefix, from CMakeLists.txt (GNUInstallDirs); defaults for other builds. */
#ifndef MW_REL_BINDIR
#define MW_REL_BINDIR "bin"
#endif
#ifndef MW_REL_CMODDIR
#define MW_REL_CMODDIR "lib/lua/5.4"
#endif
#ifndef MW_REL_LUADIR
#define MW_REL_LUADIR "share/lua/5.4"
#endif
#ifndef MW_REL_CONFIGDIR
#define MW_REL_CONFIGDIR "share/moonwarp/configs"
#endif
#ifndef MW_REL_DOCDIR
#define MW_REL_DOCDIR "share/doc/moonwarp"
#endif
#ifndef MW_REL_EXAMPLEDIR
#define MW_REL_EXAMPLEDIR "share/moonwarp/examples"
#endif

enum { NDIRS = 4 };
static char dirs[NDIRS][PATH_MAX];
static int installed;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* snprintf into a path buffer; false when the result did not fit */
static bool pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool pathf(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out, n, fmt, ap);
    va_end(ap);
    return k >= 0 && (size_t)k < n;
}

static bool is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The folder holding this code: the executable, or the shared module when built as one. */
static bool code_dir(char *out, size_t n)
{
    char path[PATH_MAX];
#ifdef MW_LUA_MODULE
    Dl_info info;
    if (!dladdr((void *)&code_dir, &info) || !info.dli_fname || !realpath(info.dli_fname, path)) return false;
#else
    ssize_t k = readlink("/proc/self/exe", path, sizeof path - 1);
    if (k <= 0) return false;
    path[k] = 0;
#endif
    char *slash = strrchr(path, '/');
    if (!slash) return false;
    *slash = 0;
    snprintf(out, n, "%s", path);
    return true;
}

/* dir with the relative install folder `rel` stripped from its end ("/opt/mw/bin" - "bin" = "/opt/mw"). */
static bool strip_suffix(char *dir, const char *rel)
{
    size_t ld = strlen(dir), lr = strlen(rel);
    if (rel[0] == '/') return false; /* an absolute install folder says nothing about the prefix */
    if (lr >= ld || strcmp(dir + ld - lr, rel) || dir[ld - lr - 1] != '/') return false;
    dir[ld - lr - 1] = 0;
    return true;
}

static void join(char *out, const char *prefix, const char *rel)
{
    if (rel[0] == '/') pathf(out, PATH_MAX, "%s", rel);
    else if (!pathf(out, PATH_MAX, "%s/%s", prefix, rel)) out[0] = 0;
}

static void locate(void)
{
    static const char *const rel[NDIRS] = {MW_REL_CONFIGDIR, MW_REL_LUADIR, MW_REL_DOCDIR, MW_REL_EXAMPLEDIR};
    char prefix[PATH_MAX];
#ifdef MW_LUA_MODULE
    const char *own = MW_REL_CMODDIR;
#else
    const char *own = MW_REL_BINDIR;
#endif
    if (code_dir(prefix, sizeof prefix) && strip_suffix(prefix, own)) {
        char probe[PATH_MAX];
        join(probe, prefix, MW_REL_CONFIGDIR);
        if (is_dir(probe)) {
            installed = 1;
            for (int i = 0; i < NDIRS; i++) join(dirs[i], prefix, rel[i]);
            return;
        }
    }
#ifdef MW_TREE_DIR
    static const char *const tree[NDIRS] = {"experiments/configs", "lua/lib", "docs", "experiments"};
    for (int i = 0; i < NDIRS; i++) snprintf(dirs[i], PATH_MAX, "%s/%s", MW_TREE_DIR, tree[i]);
#endif
}

const char *mw_dir(enum mw_dir which)
{
    pthread_once(&once, locate);
    return (unsigned)which < NDIRS ? dirs[which] : "";
}

int mw_installed(void)
{
    pthread_once(&once, locate);
    return installed;
}

/* ---- presets ------------------------------------------------------------------------------------------------ */
struct names {
    char **v;
    int n, cap;
};

static void collect(struct names *ns, const char *root, const char *sub)
{
    char path[PATH_MAX];
    DIR *d = pathf(path, sizeof path, "%s%s%s", root, sub[0] ? "/" : "", sub) ? opendir(path) : NULL;
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char rel[PATH_MAX], full[PATH_MAX];
        if (!pathf(rel, sizeof rel, "%s%s%s", sub, sub[0] ? "/" : "", de->d_name) ||
            !pathf(full, sizeof full, "%s/%s", root, rel))
            continue;
        if (is_dir(full)) {
            collect(ns, root, rel);
            continue;
        }
        size_t l = strlen(rel);
        if (l <= 5 || strcmp(rel + l - 5, ".yaml")) continue;
        if (ns->n == ns->cap) {
            int cap = ns->cap ? 2 * ns->cap : 16;
            char **v = realloc(ns->v, (size_t)cap * sizeof *v);
            if (!v) break;
            ns->v = v, ns->cap = cap;
        }
        rel[l - 5] = 0;
        ns->v[ns->n] = strdup(rel);
        if (ns->v[ns->n]) ns->n++;
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The `# description: ...` line among the leading comment lines, else the first non-empty comment line. */
static void describe(const char *path, char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f) && line[0] == '#') {
        char *s = line + 1;
        while (*s == ' ') s++;
        s[strcspn(s, "\r\n")] = 0;
        if (!strncmp(s, "description:", 12)) {
            for (s += 12; *s == ' ';) s++;
            snprintf(out, n, "%s", s);
            break;
        }
        if (!out[0] && *s) snprintf(out, n, "%s", s);
    }
    fclose(f);
}

int mw_list_presets(mw_preset_fn fn, void *ud)
{
    const char *root = mw_dir(MW_DIR_CONFIGS);
    struct names ns = {0};
    if (root[0]) collect(&ns, root, "");
    if (ns.n) qsort(ns.v, (size_t)ns.n, sizeof *ns.v, cmp_str);
    for (int i = 0; i < ns.n; i++) {
        char path[PATH_MAX], desc[1024];
        if (pathf(path, sizeof path, "%s/%s.yaml", root, ns.v[i])) {
            describe(path, desc, sizeof desc);
            if (fn) fn(ud, ns.v[i], path, desc);
        }
        free(ns.v[i]);
    }
    free(ns.v);
    return ns.n;
}

struct joinbuf {
    char *out;
    size_t n, len;
};
static void add_name(void *ud, const char *name, const char *path, const char *desc)
{
    (void)path, (void)desc;
    struct joinbuf *j = ud;
    if (j->len < j->n)
        j->len += (size_t)snprintf(j->out + j->len, j->n - j->len, "%s%s", j->len ? ", " : "", name);
}

int mw_resolve_config(const char *arg, char *out, size_t n)
{
    struct stat sb;
    if (stat(arg, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        snprintf(out, n, "%s", arg);
        return 0;
    }
    size_t l = strlen(arg);
    bool named = l && !(l > 5 && !strcmp(arg + l - 5, ".yaml")) && !(l > 4 && !strcmp(arg + l - 4, ".yml")) &&
                 arg[0] != '/' && arg[0] != '.' && !strstr(arg, "..");
    const char *root = mw_dir(MW_DIR_CONFIGS);
    if (named && root[0]) {
        char p[PATH_MAX];
        if (pathf(p, sizeof p, "%s/%s.yaml", root, arg) && stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
            snprintf(out, n, "%s", p);
            return 0;
        }
    }
    if (!named || stat(arg, &sb) == 0) { /* a path (a folder too): the config loader says why it cannot be read */
        snprintf(out, n, "%s", arg);
        return 0;
    }
    char list[1024] = "";
    struct joinbuf j = {list, sizeof list, 0};
    mw_list_presets(add_name, &j);
    snprintf(out, n, "%s: no such config file or preset (presets: %s; `moonwarp list-configs` describes them)", arg,
             list[0] ? list : "none found");
    return -1;
}
