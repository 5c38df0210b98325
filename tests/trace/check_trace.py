#!/usr/bin/env python3
"""tests/trace/check_trace.py - run a program with WEFT_TRACE set and check the trace.

    check_trace.py --trace OUT.json [--streams N] [--expect create,yield,...]
                   [--summary tools/weft-trace-summary] -- PROGRAM [ARGS...]

Runs PROGRAM (which may start with a valgrind command line) with WEFT_TRACE=OUT.json,
then checks, with the standard library only:
  * the file is valid JSON in the trace-event format ({"traceEvents": [...]});
  * per track (pid, tid), in file order: time stamps never go back, every "E" closes
    the innermost open "B" of the same unit id (so spans nest and never overlap), and
    every "B" has its "E";
  * every track with events has a thread_name; at least N stream tracks ran units;
  * flow arrows pair: each "f" follows an "s" of the same id (not earlier in time), and
    each "s" is matched by one "f" (every created unit ran);
  * the instants named in --expect occur, and spans named as in --names (function names,
    static ones included) occur;
  * tools/weft-trace-summary runs on it and prints its table, and draws the PNG (checked
    to be one) or says that matplotlib is missing.
The programs it runs end with it: each is killed (SIGKILL, prctl PR_SET_PDEATHSIG) when
the checker ends, as when ctest kills it at its TIMEOUT.
Exit 0: pass, 1: fail (every problem is printed), 77: skip.
"""
import argparse
import collections
import ctypes
import importlib.util
import json
import os
import signal
import subprocess
import sys


CHECKER_PID = os.getpid()


def die_with_parent():
    """In the child, before exec: SIGKILL when the checker ends (Linux prctl)."""
    pr_set_pdeathsig = 1
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != CHECKER_PID:  # the checker ended before the prctl
        os._exit(1)


def fail(problems):
    for p in problems[:40]:
        print("check_trace: " + p, file=sys.stderr)
    if len(problems) > 40:
        print("check_trace: ... and %d more" % (len(problems) - 40), file=sys.stderr)
    sys.exit(1)


def check(events, streams, expect):
    problems = []
    tracks = collections.defaultdict(list)
    names = {}
    for e in events:
        ph = e.get("ph")
        if ph == "M":
            if e.get("name") == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        for k in ("pid", "tid", "ts"):
            if k not in e:
                problems.append("event without %s: %r" % (k, e))
        tracks[(e.get("pid"), e.get("tid"))].append(e)
    spans = collections.Counter()
    for key, evs in tracks.items():
        if key not in names:
            problems.append("track %r has no thread_name" % (key,))
        last = None
        stack = []
        for e in evs:
            ts = e["ts"]
            if last is not None and ts < last:
                problems.append("track %r: time goes back %s -> %s" % (key, last, ts))
            last = ts
            if e["ph"] == "B":
                stack.append(e)
            elif e["ph"] == "E":
                if not stack:
                    problems.append("track %r: E at %s without a B" % (key, ts))
                    continue
                b = stack.pop()
                bid, eid = b.get("args", {}).get("id"), e.get("args", {}).get("id")
                if bid != eid:
                    problems.append("track %r: E of unit %s at %s closes B of unit %s at %s "
                                    "(spans overlap)" % (key, eid, ts, bid, b["ts"]))
                if ts < b["ts"]:
                    problems.append("track %r: span of unit %s ends before it begins" %
                                    (key, bid))
                spans[key] += 1
        for b in stack:
            problems.append("track %r: B of unit %s at %s has no E" %
                            (key, b.get("args", {}).get("id"), b["ts"]))
    ran = [k for k, n in spans.items() if names.get(k, "").startswith("stream")]
    if len(ran) < streams:
        problems.append("%d stream tracks ran units, expected at least %d" % (len(ran), streams))
    # flow arrows: s then f, same id, in time order
    flows = collections.defaultdict(list)
    for e in events:
        if e.get("ph") in ("s", "f"):
            flows[e.get("id")].append(e)
    nflows = 0
    for fid, evs in flows.items():
        evs.sort(key=lambda x: (x["ts"], 0 if x["ph"] == "s" else 1))
        pending = []
        for e in evs:
            if e["ph"] == "s":
                pending.append(e)
            elif not pending:
                problems.append("flow %s: f at %s without an s before it" % (fid, e["ts"]))
            else:
                pending.pop(0)
                nflows += 1
        for s in pending:
            problems.append("flow %s: s at %s never reaches an f (unit never ran)" %
                            (fid, s["ts"]))
    if nflows == 0:
        problems.append("no flow arrows")
    seen = collections.Counter(e.get("name") for e in events if e.get("ph") == "i")
    for name in expect:
        if not seen[name]:
            problems.append("no %r instant (instants seen: %s)" % (name, dict(seen)))
    if not any(e.get("ph") == "C" for e in events):
        problems.append("no pool-size counter")
    return problems, sum(spans.values()), nflows, seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace", required=True)
    ap.add_argument("--streams", type=int, default=1)
    ap.add_argument("--expect", default="create")
    ap.add_argument("--names", default="")
    ap.add_argument("--summary")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if cmd:
        env = dict(os.environ, WEFT_TRACE=a.trace)
        if os.path.exists(a.trace):
            os.remove(a.trace)
        r = subprocess.run(cmd, env=env, preexec_fn=die_with_parent)
        if r.returncode != 0:
            fail(["%s exited with %d" % (" ".join(cmd), r.returncode)])
    try:
        with open(a.trace) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(["%s: not a readable JSON trace: %s" % (a.trace, e)])
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list):
        fail(["%s: no traceEvents list" % a.trace])
    expect = [x for x in a.expect.split(",") if x]
    problems, nspans, nflows, seen = check(events, a.streams, expect)
    spans = set(e.get("name") for e in events if e.get("ph") == "B")
    for name in [x for x in a.names.split(",") if x]:
        if name not in spans:
            problems.append("no span named %r (names: %s)" % (name, sorted(spans)[:20]))
    if a.summary:
        png = os.path.splitext(a.trace)[0] + ".png"
        if os.path.exists(png):
            os.remove(png)
        r = subprocess.run([sys.executable, a.summary, a.trace, "--png", png],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, preexec_fn=die_with_parent)
        out = r.stdout
        if r.returncode != 0 or "busy" not in out or "idle" not in out or "stream 0" not in out:
            problems.append("weft-trace-summary failed (%d):\n%s" % (r.returncode, out))
        elif "timeline: " in out:  # matplotlib is installed: a PNG must be there
            with open(png, "rb") as f:
                if f.read(8) != b"\x89PNG\r\n\x1a\n":
                    problems.append("weft-trace-summary: %s is not a PNG" % png)
            print(out)
        elif importlib.util.find_spec("matplotlib") is not None:
            problems.append("weft-trace-summary drew no PNG although matplotlib imports "
                            "here:\n%s" % out)
        elif "no PNG: matplotlib is not installed" not in out:
            problems.append("weft-trace-summary drew no PNG and said nothing:\n%s" % out)
        else:
            print(out)
    if problems:
        fail(problems)
    print("check_trace: %s: %d events, %d spans paired, %d flow arrows, instants %s" %
          (a.trace, len(events), nspans, nflows, dict(seen)))


if __name__ == "__main__":
    main()
