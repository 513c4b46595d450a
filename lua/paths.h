/* Where an installed or in-tree moonwarp finds its files: the machine presets, the shipped Lua library and the
 * docs, found relative to the running binary (or to moonwarp.so under a stock lua5.4), falling back to the
 * source tree it was built from. No environment variable is needed. Also: preset names (`gtx480`) to paths. */
#ifndef MW_PATHS_H
#define MW_PATHS_H

#include <stddef.h>

enum mw_dir {
    MW_DIR_CONFIGS, /* machine presets (*.yaml, subfolders allowed) */
    MW_DIR_LUALIB,  /* the Lua library: moonwarp/experiment.lua */
    MW_DIR_DOCS,    /* README.md and docs/ */
    MW_DIR_EXAMPLES /* experiment scripts (demo.lua) */
};

/* The folder, absolute, without a trailing slash; "" when neither the installed nor the source folder exists. */
const char *mw_dir(enum mw_dir which);
/* Whether the folders were found relative to an installed binary (1) or in the source tree (0). */
int mw_installed(void);

/* A --config / config = argument to a file: an existing file as given, else the preset NAME
 * (configs/NAME.yaml; NAME may hold a subfolder, `dram/gtx480_partition_dramsim3`). Returns 0 and fills out
 * (a path-like argument, ending in .yaml or starting with / or ., is returned as given for the config loader to
 * report), or -1 with out holding a message that names the presets. */
int mw_resolve_config(const char *arg, char *out, size_t n);

/* Calls fn for every preset in sorted order: its name (relative to the presets folder, without .yaml), its
 * path and its one-line description (the `# description:` line at the top, else the first comment line). */
typedef void (*mw_preset_fn)(void *ud, const char *name, const char *path, const char *desc);
int mw_list_presets(mw_preset_fn fn, void *ud);

#endif
