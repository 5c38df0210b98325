#!/bin/sh
# tests/mpi/expect_fail.sh MODE SECONDS COMMAND... - run an MPI job that must not succeed.
#   MODE=fail: the job must end by itself within SECONDS with a non-zero status (a rank
#              aborted or died: mpirun reports it and kills the others, it does not hang);
#   MODE=hang: the job must still be running after SECONDS (it is then killed): used to
#              show that a test would deadlock without the layer.
# Exit 0 when the job behaved so, 1 otherwise.
mode=$1 secs=$2
shift 2
out=$(mktemp)
timeout -s TERM -k 5 "$secs" "$@" >"$out" 2>&1
rc=$?
case "$mode" in
  fail)
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      echo "FAIL: the job did not end within ${secs}s after a rank failed (hung)"; cat "$out"; rm -f "$out"; exit 1
    elif [ $rc -eq 0 ]; then
      echo "FAIL: the job succeeded although a rank failed"; cat "$out"; rm -f "$out"; exit 1
    fi
    echo "ok: the job ended with status $rc; mpirun said:"; grep -v '^ *$' "$out" | head -n 12 ;;
  hang)
    if [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
      echo "FAIL: the job ended (status $rc) instead of hanging"; cat "$out"; rm -f "$out"; exit 1
    fi
    echo "ok: the job was still running after ${secs}s (killed)" ;;
  *) echo "usage: expect_fail.sh fail|hang SECONDS COMMAND..."; rm -f "$out"; exit 2 ;;
esac
rm -f "$out"
exit 0
