/* The `moonwarp sweep`, `moonwarp sweep-task` and `moonwarp results` commands (lua/cmd_sweep.c). argv[0] is the command's name. */
#ifndef MW_CMD_SWEEP_H
#define MW_CMD_SWEEP_H

int mw_cmd_sweep(int argc, char **argv);
int mw_cmd_results(int argc, char **argv);
int mw_cmd_sweep_task(int argc, char **argv);

#endif
