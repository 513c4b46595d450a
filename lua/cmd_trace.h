/* The `moonwarp trace` command (lua/cmd_trace.c). */
#ifndef MW_CMD_TRACE_H
#define MW_CMD_TRACE_H

int mw_cmd_trace(int argc, char **argv);
int mw_cmd_trace_info(int argc, char **argv);

#endif
