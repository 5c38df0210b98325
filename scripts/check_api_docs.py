#!/usr/bin/env python3
"""scripts/check_api_docs.py HEADER... - every public function has its reference sections.

Doxygen (docs/reference/Doxyfile.in, WARN_AS_ERROR) already fails on an undocumented
function; this check adds the fixed sections of the weft/Argobots reference style.  For
every function declared in the given headers, the /** ... */ block right above the
prototype must have:
  @brief       what it does;
  @contexts    who may call it (external thread, ULT, tasklet, scheduler...);
  @retval      at least ABT_SUCCESS and one line per error code weft returns
               (@return instead for a routine that returns no error code);
  @undefined   what is undefined (may say "nothing.").
Every @retval names ABT_SUCCESS, an ABT_ERR_* code or "other" (an error passed on from a
callback or callee, which the text names).  Exit 1 listing each problem.
"""
import re
import sys

CODES = {"ABT_SUCCESS", "other"}
problems = []
functions = 0
for path in sys.argv[1:]:
    text = open(path).read()
    CODES |= set(re.findall(r"#define\s+(ABT_ERR_\w+)\s+\d+", text))
for path in sys.argv[1:]:
    text = open(path).read()
    for m in re.finditer(r"^(int|double)\s+((?:ABT|weft)_\w+)\s*\(", text, re.M):
        functions += 1
        name, ret = m.group(2), m.group(1)
        where = f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {name}"
        before = text[:m.start()].rstrip()
        if not before.endswith("*/") or before.rfind("/**") < before.rfind("/*"):
            problems.append(f"{where}: no /** */ block right above the prototype")
            continue
        block = before[before.rfind("/**"):]
        for tag in ("@brief", "@contexts", "@undefined"):
            if tag not in block:
                problems.append(f"{where}: missing {tag}")
        retvals = re.findall(r"@retval\s+(\S+)", block)
        if ret == "int":
            if "ABT_SUCCESS" not in retvals:
                problems.append(f"{where}: missing @retval ABT_SUCCESS")
            for code in retvals:
                if code not in CODES:
                    problems.append(f"{where}: @retval {code} is not an error code")
        elif "@return" not in block:
            problems.append(f"{where}: missing @return")
for p in problems:
    print(f"check_api_docs: {p}")
print(f"check_api_docs: {functions} functions, {len(problems)} problems")
sys.exit(1 if problems or functions == 0 else 0)
