/* main.c: argument dispatch of the jagged command-line tool (no work is done here). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jagged/jagged.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: jagged <command> [options]\n"
          "\n"
          "commands:\n"
          "  adl        the IRIS-HEP ADL benchmark queries on CMS events (Parquet), CPU or GPU\n"
          "  generate   toy NanoAOD-like events (muons, electrons, jets, MET) to a Parquet file\n"
          "  info       jagged version, CUDA build and devices, memory resources\n"
          "  kernels    the kernel catalog: implementations, selection, parity, checks\n"
          "  parquet    a Parquet file's metadata, jagged type and first rows\n"
          "  version    print the version\n"
          "  help       this text\n"
          "\n"
          "`jagged <command> --help` describes a command.\n");
}

/* Flushes stdout and turns a write error (a full disk, a closed pipe, /dev/full) into exit
 * status 1 with a message on stderr, so that no output is silently lost. */
static int finish(int rc) {
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    const int e = errno;
    fprintf(stderr, "jagged: error writing to standard output%s%s\n", e != 0 ? ": " : "",
            e != 0 ? strerror(e) : "");
    return 1;
  }
  return rc;
}

/* The library's warnings (log.h) go to stderr, one line each. */
static void log_to_stderr(jg_log_level level, const char *message, void *user) {
  (void)user;
  fprintf(stderr, "jagged: %s: %s\n", jg_log_level_name(level), message);
}

static int cmd_version(int argc, char **argv) {
  if (argc == 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    printf("usage: jagged version\n\nPrints the version of jagged.\n");
    return 0;
  }
  if (argc != 0) {
    fprintf(stderr, "jagged version: unexpected argument '%s' (the command takes none)\n", argv[0]);
    return 2;
  }
  printf("jagged %s\n", jg_version_string());
  return 0;
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
  jg_log_set_callback(log_to_stderr, NULL, JG_LOG_WARN);
  if (strcmp(cmd, "adl") == 0) return finish(jg_cmd_adl(argc - 2, argv + 2));
  if (strcmp(cmd, "generate") == 0) return finish(jg_cmd_generate(argc - 2, argv + 2));
  if (strcmp(cmd, "info") == 0) return finish(jg_cmd_info(argc - 2, argv + 2));
  if (strcmp(cmd, "kernels") == 0) return finish(jg_cmd_kernels(argc - 2, argv + 2));
  if (strcmp(cmd, "parquet") == 0) return finish(jg_cmd_parquet(argc - 2, argv + 2));
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    return finish(cmd_version(argc - 2, argv + 2));
  }
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    usage(stdout);
    return finish(0);
  }
  fprintf(stderr, "jagged: unknown command '%s'\n", cmd);
  usage(stderr);
  return 2;
}
