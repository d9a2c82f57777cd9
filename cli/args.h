/* args.h: the argument parsing that the subcommands share (cmd_adl.c, cmd_generate.c). */
#ifndef JAGGED_CLI_ARGS_H
#define JAGGED_CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/** Parses `s`, the whole string, as a decimal integer in [lo, hi] into *out (untouched when
 *  false: not a number, trailing characters, out of range or out of int64). */
bool cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);

#endif /* JAGGED_CLI_ARGS_H */
