/* The command-line help: one table of commands (synopsis, what it does, options, examples) from which
 * `moonwarp help`, `moonwarp CMD --help` and the man page moonwarp.1 are all written, so they cannot drift. */
#ifndef MW_HELP_H
#define MW_HELP_H

#include <stdio.h>

/* The overview (`moonwarp help`): every command with its one-line summary, then general examples. */
void mw_help_overview(FILE *f);
/* One command's help; 0, or -1 when cmd is not a command (nothing printed). */
int mw_help_command(FILE *f, const char *cmd);
/* The one-line synopses of every command, for a usage error. */
void mw_help_usage(FILE *f);
/* Whether cmd names a command with help. */
int mw_help_known(const char *cmd);
/* The man page moonwarp.1 (roff, man macros) from the same table. */
void mw_help_man(FILE *f);

#endif
