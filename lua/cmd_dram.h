/* `moonwarp dram`: the DRAM controller alone on a request trace (DRAMSim3 TraceBasedCPU format). */
#ifndef MW_CMD_DRAM_H
#define MW_CMD_DRAM_H

/* argv[0] is the subcommand name ("dram"). Returns the process exit code: 0, 2 for bad input (message
 * `file:line:col: ...` on stderr), 3 when the run itself failed. */
int mw_cmd_dram(int argc, char **argv);

#endif
