export OUT; scripts/gpu-check.sh build > $OUT/run.log 2>&1; tail -1 $OUT/run.log
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
cd build/gpu
for t in memory ufunc indexing structure combinatorics reduce_axis elementwise physics reduce_kernels; do
  (timeout 240 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 tests/test_${t}_gpu > $OUT/san_$t.log 2>&1; echo "sanitizer $t exit $?" >> $OUT/san_$t.log) &
done
JG_BENCH_TRACE=1 JG_BENCH_DEVICE_ONLY=1 timeout 100 ./bench/bench_ops > $OUT/trace.log 2>&1
wait
tail -qn1 $OUT/san_*.log; grep -h "ERROR SUMMARY\|Invalid\|Leaked" $OUT/san_*.log | sort | uniq -c | head
