#!/usr/bin/env python3
"""scripts/check_spack.py - checks packaging/spack/packages/weft/package.py without Spack.

1. The recipe compiles (py_compile).
2. Loaded against a minimal stand-in for `spack.package` (only the directives the recipe
   uses), it defines a CMakePackage subclass named Weft whose cmake_args() maps every
   variant to a CMake option of the build (option()/set(... CACHE) in CMakeLists.txt), and
   every build option that is a property of the installed library has a variant (the
   developer-only options listed in DEV_ONLY need none).
Exit 0 when all holds, 1 with one line per problem otherwise.
"""
import pathlib
import py_compile
import re
import sys
import tempfile
import types

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECIPE = ROOT / "packaging/spack/packages/weft/package.py"
# Build options that are deliberately not variants (see the recipe's header comment).
DEV_ONLY = {"WEFT_SANITIZE_ADDRESS", "WEFT_SANITIZE_THREAD", "WEFT_BUILD_TESTS",
            "WEFT_BUILD_BENCH", "WEFT_TEST_VALGRIND", "WEFT_TEST_LIFECYCLE",
            "WEFT_BENCH_ARGOBOTS_PREFIX",
            "WEFT_DOCS", "WEFT_PACKAGE_MAINTAINER"}

problems = []
with tempfile.TemporaryDirectory() as tmp:
    py_compile.compile(str(RECIPE), doraise=True, cfile=f"{tmp}/package.pyc")

variants, versions = {}, []


class CMakePackage:
    run_tests = False

    def define(self, name, value):
        return (name, value)

    def define_from_variant(self, name, variant):
        if variant not in variants:
            problems.append(f"cmake_args: {name} from unknown variant '{variant}'")
        return (name, variant)


def variant(name, default=None, values=None, multi=False, description="", **kw):
    if not description:
        problems.append(f"variant {name} has no description")
    variants[name] = default


def version(name, *a, **kw):
    versions.append(name)


stub = types.ModuleType("spack.package")
stub.CMakePackage = CMakePackage
stub.variant = variant
stub.version = version
for directive in ("depends_on", "conflicts", "maintainers", "license", "provides",
                  "requires", "patch", "resource"):
    setattr(stub, directive, lambda *a, **kw: None)
stub.find_libraries = lambda *a, **kw: []
stub.__all__ = [n for n in vars(stub) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub

namespace = {}
exec(compile(RECIPE.read_text(), str(RECIPE), "exec"), namespace)
cls = namespace.get("Weft")
if not (isinstance(cls, type) and issubclass(cls, CMakePackage)):
    problems.append("no class Weft(CMakePackage)")
else:
    if not (cls.__doc__ or "").strip():
        problems.append("class Weft has no docstring (Spack's description)")
    if not versions:
        problems.append("no version()")
    cmake_text = "\n".join(p.read_text() for p in [ROOT / "CMakeLists.txt", *ROOT.glob("cmake/*.cmake"),
                                                   *ROOT.glob("*/CMakeLists.txt")])
    options = set(re.findall(r"option\(\s*(WEFT_\w+)", cmake_text))
    options |= set(re.findall(r"set\(\s*(WEFT_\w+)\s+[^)]*\bCACHE\b", cmake_text))
    pkg = cls()
    for run_tests in (False, True):
        pkg.run_tests = run_tests
        args = dict(pkg.cmake_args())
        if args.get("WEFT_BUILD_TESTS") is not run_tests:
            problems.append("WEFT_BUILD_TESTS must follow run_tests")
    mapped = set(args)
    for name in sorted(mapped - options):
        problems.append(f"cmake_args sets {name}, which the build does not have")
    for name in sorted(options - mapped - DEV_ONLY):
        problems.append(f"build option {name} has no variant (or add it to DEV_ONLY)")
    used = {v for k, v in args.items() if isinstance(v, str) and v in variants}
    for name in sorted(set(variants) - used):
        problems.append(f"variant {name} is not passed to CMake")

for p in problems:
    print(f"check_spack: {p}")
print(f"check_spack: {RECIPE.relative_to(ROOT)}: {len(variants)} variants, "
      f"{'OK' if not problems else 'FAILED'}")
sys.exit(1 if problems else 0)
