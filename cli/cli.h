/* cli.h: subcommands of the jagged tool. Each takes the arguments after its name and returns
 * the process exit status (0 success, 1 failure, 2 usage error). */
#ifndef JAGGED_CLI_H
#define JAGGED_CLI_H

int jg_cmd_info(int argc, char **argv);
int jg_cmd_kernels(int argc, char **argv);
int jg_cmd_parquet(int argc, char **argv);
int jg_cmd_adl(int argc, char **argv);
int jg_cmd_generate(int argc, char **argv);

#endif /* JAGGED_CLI_H */
