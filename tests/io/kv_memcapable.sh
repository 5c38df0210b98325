#!/usr/bin/env bash
# tests/io/kv_memcapable.sh KVSERVER - memcached's own client tools against the kvserver:
#   1. memccapable -a (libmemcached's protocol checker, ASCII tests): every test passes,
#      as every one does against Debian's memcached 1.6;
#   2. memccp stores a binary file of 300 KB (every byte value) with flags, memccat reads
#      it back identical.
# Needs Debian's libmemcached-tools (memccapable, memccp, memccat; also named memcapable,
# memcp, memcat elsewhere); skips (77) when they are missing.
set -u
kv=$1
pick() { for n in "$@"; do command -v "$n" >/dev/null 2>&1 && { command -v "$n"; return 0; }; done; return 1; }
capable=$(pick memccapable memcapable) || { echo "SKIP: memccapable not installed (apt-get install libmemcached-tools)" >&2; exit 77; }
cp_=$(pick memccp memcp) || { echo "SKIP: memccp not installed (apt-get install libmemcached-tools)" >&2; exit 77; }
cat_=$(pick memccat memcat) || { echo "SKIP: memccat not installed (apt-get install libmemcached-tools)" >&2; exit 77; }

dir=$(mktemp -d /tmp/weft_kvcap.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
# the server dies with this script (its own process group is not needed: killed by pid)
"$kv" -p 0 -t 2 -q >"$dir/out" 2>&1 &
pid=$!
port=
for _ in $(seq 600); do
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/out")
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "FAIL: kvserver exited: $(cat "$dir/out")" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "FAIL: kvserver did not listen in 60 s" >&2; exit 1; }

fail=0
# memccapable's I/O time-out is generous (-t 60): a loaded machine is not a failure
"$capable" -a -t 60 -h 127.0.0.1 -p "$port" >"$dir/cap" 2>&1
rc=$?
cat "$dir/cap"
if [ $rc -ne 0 ] || grep -q FAIL "$dir/cap" || ! grep -q "All tests passed" "$dir/cap"; then
  echo "FAIL: memccapable -a (exit $rc)" >&2
  fail=1
fi

python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 7 + i // 256) % 256 for i in range(300000)))' \
  >"$dir/blob.bin" 2>/dev/null ||
  head -c 300000 /dev/urandom >"$dir/blob.bin"
if ! "$cp_" --servers="127.0.0.1:$port" --flags=1234 "$dir/blob.bin"; then
  echo "FAIL: memccp" >&2
  fail=1
fi
"$cat_" --servers="127.0.0.1:$port" --flags blob.bin >"$dir/back.out" 2>"$dir/cat.err"
# memccat ends what it prints on stdout with a newline (as against memcached): --file
# writes the value alone
if ! "$cat_" --servers="127.0.0.1:$port" --file="$dir/back.bin" blob.bin ||
   ! cmp "$dir/blob.bin" "$dir/back.bin"; then
  echo "FAIL: memccat did not read back the binary value memccp stored" >&2
  fail=1
else
  echo "memccp + memccat: 300000 binary bytes stored and read back identical"
fi
if ! grep -q 1234 "$dir/back.out" "$dir/cat.err"; then
  echo "FAIL: memccat --flags: flags 1234 not shown: $(head -c 200 "$dir/back.out" | tr -cd '[:print:]') $(cat "$dir/cat.err")" >&2
  fail=1
fi
kill -TERM "$pid"
wait "$pid"
st=$?
pid=
if [ $st -ne 0 ]; then
  echo "FAIL: kvserver exit status $st after SIGTERM" >&2
  fail=1
fi
exit $fail
