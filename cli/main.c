/* main.c: argument dispatch of the jagged command-line tool (no work is done here). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jagged/jagged.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: jagged <command> [options]\n"
          "\n"
          "commands:\n"
          "  info       jagged version, CUDA build and devices, memory resources\n"
          "  version    print the version\n"
          "  help       this text\n");
}

int main(int argc, char **argv) {
  if (jg_version() != JG_VERSION_NUMBER) {
    fprintf(stderr, "jagged: library version %s does not match header version %s\n",
            jg_version_string(), JG_VERSION_STRING);
    return 1;
  }
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "info") == 0) return jg_cmd_info(argc - 2, argv + 2);
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    printf("jagged %s\n", jg_version_string());
    return 0;
  }
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "jagged: unknown command '%s'\n", cmd);
  usage(stderr);
  return 2;
}
