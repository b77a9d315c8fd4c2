# call 32 (H200): issue 20, the bulk ring with the lanes converged after the wait: the shapes where it failed, twice;
# compute-sanitizer synccheck / racecheck on a small case if the machine has it
set +e
mkdir -p /tmp/o; rm -f /tmp/o/*
xz -dc dist/bench/tsk.xz > /tmp/tsk && chmod +x /tmp/tsk
for r in 1 2; do for s in 8192x8192 28672x8192 8192x28672; do timeout 100 /tmp/tsk "" $s > /tmp/o/tsk-$s-$r.txt 2>&1; echo "$s $r rc=$?"; done; done
tar -C /tmp -czf $OUT/call32.tgz o
grep -h -E "bulk|FAIL" /tmp/o/tsk-*.txt | grep -c FAIL
CS=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1); echo "sanitizer: $CS"
if [ -n "$CS" ]; then timeout 120 $CS --tool synccheck /tmp/tsk INT4 1024x8192 8 > /tmp/o/synccheck.txt 2>&1; tail -5 /tmp/o/synccheck.txt
timeout 150 $CS --tool racecheck /tmp/tsk INT4 1024x8192 8 > /tmp/o/racecheck.txt 2>&1; tail -8 /tmp/o/racecheck.txt; fi
tar -C /tmp -czf $OUT/call32.tgz o
