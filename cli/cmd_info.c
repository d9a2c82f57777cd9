/* cmd_info.c: `jagged info`: what this build of jagged can use on this machine. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jagged/jagged.h"

static void info_usage(FILE *out) {
  fprintf(out,
          "usage: jagged info\n"
          "\n"
          "Prints the jagged version, whether the CUDA backend was compiled in, the CUDA devices\n"
          "seen (name, compute capability, memory, SMs) and which memory resources (host,\n"
          "host pool, pinned, device, managed, device pool) are usable on this machine. When\n"
          "CUDA is unusable the reason is printed once, on the \"CUDA devices\" line.\n");
}

/* One resource line. Without a usable GPU every CUDA resource fails the same way: the reason
 * was printed once already, so only say so. */
static void print_resource(const char *name, jg_status st, const jg_error *err) {
  if (st == JG_OK)
    printf("  %-14s available\n", name);
  else if (st == JG_ENODEV)
    printf("  %-14s unavailable (no usable CUDA device)\n", name);
  else
    printf("  %-14s unavailable (%s: %s)\n", name, jg_status_name(st), err->message);
}

int jg_cmd_info(int argc, char **argv) {
  if (argc == 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    info_usage(stdout);
    return 0;
  }
  if (argc != 0) {
    fprintf(stderr, "jagged info: unexpected argument '%s' (the command takes none)\n", argv[0]);
    info_usage(stderr);
    return 2;
  }
  printf("jagged %s\n", jg_version_string());
  printf("CUDA backend compiled: %s\n", jg_cuda_compiled() ? "yes" : "no");
  int count = 0;
  jg_error err;
  jg_error_clear(&err);
  if (jg_device_count(&count, &err) != JG_OK) {
    fprintf(stderr, "jagged info: %s\n", err.message);
    return 1;
  }
  if (count == 0)
    printf("CUDA devices: 0 (%s)\n", jg_cuda_unavailable_reason());
  else
    printf("CUDA devices: %d\n", count);
  for (int i = 0; i < count; ++i) {
    jg_device_properties p;
    if (jg_device_get_properties(i, &p, &err) != JG_OK) {
      printf("  cuda:%d: %s\n", i, err.message);
      continue;
    }
    printf("  cuda:%d  %s, compute capability %d.%d, %.1f GiB, %d SMs\n", i, p.name, p.cc_major,
           p.cc_minor, (double)p.total_memory / (1024.0 * 1024.0 * 1024.0), p.multiprocessors);
  }
  printf("memory resources:\n");
  jg_memory_resource *mr = NULL;
  print_resource("host", JG_OK, &err);
  print_resource("host pool", JG_OK, &err); /* static, needs nothing */
  jg_status st = jg_memory_resource_pinned(&mr, &err);
  print_resource("pinned", st, &err);
  st = jg_memory_resource_device(0, &mr, &err);
  print_resource("device", st, &err);
  st = jg_memory_resource_managed(0, &mr, &err);
  print_resource("managed", st, &err);
  st = jg_memory_resource_pool_create(0, NULL, &mr, &err);
  print_resource("device pool", st, &err);
  if (st == JG_OK) jg_memory_resource_destroy(mr);
  return 0;
}
