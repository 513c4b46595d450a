/* The `moonwarp sweep`, `moonwarp sweep-task` and `moonwarp results` commands (lua/cmd_sweep.c). argv[0] is the command's name. */
#ifndef MW_CMD_SWEEP_H
#define MW_CMD_SWEEP_H

int mw_cmd_sweep(int argc, char **argv);
/* Parse and check a sweep spec (errors printed as file:line:col); on success the spec table is on L's stack. */
struct lua_State;
int mw_sweep_load_spec(struct lua_State *L, const char *path);
int mw_cmd_results(int argc, char **argv);
int mw_cmd_sweep_task(int argc, char **argv);

#endif
