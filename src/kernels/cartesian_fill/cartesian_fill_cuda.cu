/* cartesian_fill_cuda.cu: CUDA implementation of kernel "cartesian_fill" (cartesian_fill.json).
 *
 * Two grid-stride passes in one launch:
 *  1. one thread per output tuple t < total (the stores of a warp are narrays runs of 32
 *     consecutive int64: coalesced): a branch-free binary search over offsets finds list i (the
 *     last with offsets[i] <= t; empty lists are skipped), and r = t - offsets[i] splits into the
 *     items a = r / (l1 l2), b = (r / l2) % l1, c = r % l2 (the first array slowest);
 *  2. with `nested`, one thread per group v < inner_starts[n] (one group per item of the first
 *     array's lists) finds its list the same way over inner_starts and writes the group's start
 *     offsets[i] + (v - inner_starts[i]) * l1 l2; the thread of index 0 writes total at the end.
 * Lists whose offsets are not their product's size inside [0, total] are skipped, as on the
 * host. */
template <typename I0, typename I1, typename I2>
__global__ void jgk_cartesian_fill(int64_t n, int64_t narrays, const I0 *__restrict__ starts0,
                                   const I0 *__restrict__ stops0, const I1 *__restrict__ starts1,
                                   const I1 *__restrict__ stops1, const I2 *__restrict__ starts2,
                                   const I2 *__restrict__ stops2,
                                   const int64_t *__restrict__ offsets, int64_t total,
                                   int64_t local, int64_t *__restrict__ out, int64_t nested,
                                   const int64_t *__restrict__ inner_starts,
                                   int64_t *__restrict__ inner_offsets) {
  if (n < 0) return;
  if (nested != 0 && blockIdx.x == 0 && threadIdx.x == 0) inner_offsets[inner_starts[n]] = total;
  if (n == 0) return;
  JGK_FOR(t, total) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if (offsets[lo + half] <= t) lo += half;
      len -= half;
    }
    const int64_t i = lo;
    int64_t s0 = (int64_t)starts0[i], s1 = (int64_t)starts1[i], s2 = 0;
    const int64_t l0 = (int64_t)stops0[i] - s0, l1 = (int64_t)stops1[i] - s1;
    int64_t l2 = 1;
    if (narrays > 2) {
      s2 = (int64_t)starts2[i];
      l2 = (int64_t)stops2[i] - s2;
    }
    const int64_t base = offsets[i];
    if (base < 0 || t < base || offsets[i + 1] > total || offsets[i + 1] - base != l0 * l1 * l2) {
      continue;
    }
    if (local != 0) {
      s0 = 0;
      s1 = 0;
      s2 = 0;
    }
    const int64_t r = t - base;
    out[t] = s0 + r / (l1 * l2);
    out[total + t] = s1 + (r / l2) % l1;
    if (narrays > 2) out[2 * total + t] = s2 + r % l2;
  }
  if (nested == 0) return;
  const int64_t ninner = inner_starts[n];
  JGK_FOR(v, ninner) {
    int64_t lo = 0, len = n;
    while (len > 1) {
      const int64_t half = len >> 1;
      if (inner_starts[lo + half] <= v) lo += half;
      len -= half;
    }
    const int64_t i = lo;
    const int64_t l0 = (int64_t)stops0[i] - (int64_t)starts0[i];
    const int64_t l1 = (int64_t)stops1[i] - (int64_t)starts1[i];
    const int64_t l2 = narrays > 2 ? (int64_t)stops2[i] - (int64_t)starts2[i] : 1;
    const int64_t base = offsets[i];
    if (base < 0 || offsets[i + 1] > total || offsets[i + 1] - base != l0 * l1 * l2) continue;
    inner_offsets[v] = base + (v - inner_starts[i]) * l1 * l2;
  }
}
