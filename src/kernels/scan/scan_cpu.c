/* scan_cpu.c: per-list counts to offsets on the host (the reference of scan.h). */
#include "kernels/scan/scan.h"

#include "internal/jgi_array.h"

jg_status jgi_counts_to_offsets_cpu(const jg_view *counts, jg_len total, int64_t *offsets,
                                    const char *fn, jg_error *err) {
  const jg_len n = counts->layout.shape[0];
  /* Checks 1 and 2 over every count first, so that the status does not depend on where the
   * running sum first overflows (the device path finds them in parallel). */
  jg_len first_too_large = -1;
  for (jg_len i = 0; i < n; i++) {
    const int64_t c = jgi_view_get_index(counts, i);
    /* The message of the device path (which records the position only). */
    JG_RETURN_IF_AT(c < 0, JG_EVALUE, err, i, "%s: counts[%lld] is negative", fn, (long long)i);
    if (c > total && first_too_large < 0) first_too_large = i;
  }
  JG_RETURN_IF_AT(first_too_large >= 0, JG_EVALUE, err, first_too_large,
                  "%s: counts[%lld] = %lld is larger than the content's length %lld", fn,
                  (long long)first_too_large,
                  (long long)jgi_view_get_index(counts, first_too_large), (long long)total);
  int64_t sum = 0;
  offsets[0] = 0;
  for (jg_len i = 0; i < n; i++) {
    JG_RETURN_IF_AT(jgi_add_overflow(sum, jgi_view_get_index(counts, i), &sum), JG_EOVERFLOW,
                    err, i, "%s: the sum of counts[0..%lld] overflows int64", fn, (long long)i);
    offsets[i + 1] = sum;
  }
  JG_RETURN_IF(sum != total, JG_EVALUE, err,
               "%s: the counts add up to %lld but the content has %lld entries", fn,
               (long long)sum, (long long)total);
  return JG_OK;
}
