/* cmd_kernels.c: `jagged kernels`, the kernel catalog's status: each kernel, its variants and
 * implementations, what a call would select on the host and on a device, the "CUDA kernels: N
 * of M" summary; with options the signature check, the parity runs and the NVRTC compile of
 * every CUDA source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jagged/jagged.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: jagged kernels [--check] [--parity] [--compile-all [--arch N] [--jobs N]]\n"
          "\n"
          "Lists the kernel catalog: each kernel, its variants (dtypes), its host\n"
          "implementations, the implementation a call selects now for host arrays and for\n"
          "device arrays (JG_HOST_IMPL and JG_MISSING_CUDA apply), then the summary line\n"
          "\"CUDA kernels: N of M (missing: ...)\".\n"
          "\n"
          "  --check         check that every kernel's host and CUDA sources take the\n"
          "                  parameters of its spec (names, order, types, directions)\n"
          "  --parity        run every kernel's parity cases: each host implementation and\n"
          "                  the CUDA one (when a GPU is usable) against the \"c\" reference\n"
          "  --compile-all   compile every CUDA source with NVRTC (through the kernel cache)\n"
          "  --arch N        architecture for --compile-all, e.g. 90 (default: the GPU's)\n"
          "  --jobs N        compile threads for --compile-all (default: all CPUs)\n"
          "\n"
          "Exit status: 0 when everything asked for passed, 1 otherwise, 2 on bad usage.\n");
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end = NULL;
  const long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

static int list(void) {
  const size_t n = jg_catalog_size();
  /* An invalid JG_HOST_IMPL or JG_MISSING_CUDA makes every selection fail: say so once. */
  const char *probe = NULL;
  jg_error pe;
  if (n > 0 && jg_kernel_selected(jg_catalog_at(0), JG_BACKEND_CPU, &probe, &pe) == JG_EINVAL) {
    fprintf(stderr, "jagged kernels: %s\n", pe.message);
    return 1;
  }
  printf("%-24s %-8s %-14s %-10s %s\n", "kernel", "variants", "host", "selected", "device");
  for (size_t i = 0; i < n; ++i) {
    const jg_kernel *k = jg_catalog_at(i);
    char impls[64] = "";
    size_t len = 0;
    for (size_t j = 0; j < jg_kernel_host_impl_count(k); ++j) {
      const int w = snprintf(impls + len, sizeof impls - len, "%s%s", j ? "," : "",
                             jg_kernel_host_impl_name(k, j));
      if (w > 0 && (size_t)w < sizeof impls - len) len += (size_t)w;
    }
    const char *host = NULL, *dev = NULL;
    jg_error e;
    if (jg_kernel_selected(k, JG_BACKEND_CPU, &host, &e) != JG_OK) host = "(missing)";
    if (jg_kernel_selected(k, JG_BACKEND_CUDA, &dev, &e) != JG_OK) {
      dev = e.status == JG_ENOTSUP ? "none (raises)" : "(missing)";
    }
    printf("%-24s %-8zu %-14s %-10s %s\n", jg_kernel_name(k), jg_kernel_variant_count(k), impls,
           host, dev);
  }
  char line[1024];
  jg_catalog_summary(line, sizeof line, 10);
  printf("%s\n", line);
  return 0;
}

static int check(void) {
  size_t need = 1 << 16;
  char *report = malloc(need);
  if (report == NULL) {
    fprintf(stderr, "jagged kernels: out of memory\n");
    return 1;
  }
  jg_error e;
  const jg_status st = jg_catalog_check(report, need, &e);
  if (st == JG_OK) {
    printf("signatures: all %zu kernels agree with their specs\n", jg_catalog_size());
  } else {
    printf("signatures: %lld mismatches\n%s", (long long)e.index, report);
  }
  free(report);
  return st == JG_OK ? 0 : 1;
}

static int parity(void) {
  int rc = 0;
  const size_t n = jg_catalog_size();
  for (size_t i = 0; i < n; ++i) {
    const jg_kernel *k = jg_catalog_at(i);
    if (jg_kernel_parity_case_count(k) == 0) {
      printf("parity %-24s no parity cases (add src/kernels/%s/%s_parity.c)\n",
             jg_kernel_name(k), jg_kernel_name(k), jg_kernel_name(k));
      rc = 1;
      continue;
    }
    for (size_t j = 0; j <= jg_kernel_host_impl_count(k); ++j) {
      const char *other = j < jg_kernel_host_impl_count(k) ? jg_kernel_host_impl_name(k, j)
                                                           : "cuda";
      if (strcmp(other, "c") == 0) continue;
      jg_parity_options o;
      memset(&o, 0, sizeof o);
      o.other = other;
      jg_parity_result r;
      jg_error e;
      const jg_status st = jg_kernel_parity(k, &o, &r, &e);
      if (st == JG_OK) {
        printf("parity %-24s c vs %-7s %d cases: same\n", jg_kernel_name(k), other, r.cases_run);
      } else if (st == JG_ENODEV || (st == JG_ENOTSUP && strcmp(other, "cuda") == 0)) {
        printf("parity %-24s c vs %-7s skipped: %s\n", jg_kernel_name(k), other, e.message);
      } else {
        printf("parity %-24s c vs %-7s FAILED: %s\n", jg_kernel_name(k), other, e.message);
        rc = 1;
      }
    }
  }
  return rc;
}

static int compile_all(int arch, int jobs) {
  jg_rtc_options o;
  memset(&o, 0, sizeof o);
  o.arch = arch;
  jg_compile_report r;
  memset(&r, 0, sizeof r);
  jg_error e;
  const jg_status st = jg_catalog_compile_all(jobs, &o, &r, &e);
  if (st != JG_OK && st != JG_ECUDA) {
    fprintf(stderr, "jagged kernels: %s\n", e.message);
    return 1;
  }
  printf("compile-all: %zu compiled (%zu from the cache), %zu failed, %zu without CUDA source\n",
         r.compiled, r.cached, r.failed, r.skipped);
  if (r.log != NULL) printf("%s\n", r.log);
  jg_compile_report_free(&r);
  return st == JG_OK ? 0 : 1;
}

int jg_cmd_kernels(int argc, char **argv) {
  int do_check = 0, do_parity = 0, do_compile = 0, arch = 0, jobs = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--check") == 0) {
      do_check = 1;
    } else if (strcmp(a, "--parity") == 0) {
      do_parity = 1;
    } else if (strcmp(a, "--compile-all") == 0) {
      do_compile = 1;
    } else if (strcmp(a, "--arch") == 0 || strcmp(a, "--jobs") == 0) {
      int *dst = a[2] == 'a' ? &arch : &jobs;
      if (i + 1 == argc || parse_int(argv[i + 1], a[2] == 'a' ? 30 : 1, 1000, dst) != 0) {
        fprintf(stderr, "jagged kernels: %s takes a number (%s)\n", a,
                a[2] == 'a' ? "an architecture such as 90" : "threads, at least 1");
        return 2;
      }
      ++i;
    } else {
      fprintf(stderr, "jagged kernels: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if ((arch != 0 || jobs != 0) && !do_compile) {
    fprintf(stderr, "jagged kernels: --arch and --jobs go with --compile-all\n");
    return 2;
  }
  if (list() != 0) return 1;
  int rc = 0;
  if (do_check) rc |= check();
  if (do_parity) rc |= parity();
  if (do_compile) rc |= compile_all(arch, jobs);
  return rc;
}
