# Spack recipe for weft.  Use it from this directory's repository:
#
#   spack repo add <weft>/packaging/spack
#   spack develop --path <weft> weft@main      # in an environment, or:
#   spack dev-build --source-path <weft> weft@main +tool context=asm
#
# +tool and +affinity are Argobots' own variants (--enable-tool, --enable-affinity): off by
# default, as there, so a default weft answers what a default Argobots answers; either way
# the run-time variables WEFT_ENABLE_TOOL / WEFT_ENABLE_AFFINITY (README, "Configuration")
# switch the feature on or off for one run.
#
# Every variant is a CMake option of the build (scripts/check_spack.py checks the mapping
# in CI).  Not variants on purpose: sanitizers (WEFT_SANITIZE_*), valgrind-run tests
# (WEFT_TEST_VALGRIND), the tests' life-cycle checker (WEFT_TEST_LIFECYCLE), benchmarks
# (WEFT_BUILD_BENCH) and the documentation (WEFT_DOCS): they are developer settings, not
# properties of an installed library.  Tests are built
# and run only by `spack install --test=root`.

from spack.package import *


class Weft(CMakePackage):
    """weft: a lightweight threading and tasking runtime (execution streams, user-level
    threads, tasklets, pools, schedulers) with the Argobots 1.2 API: programs written for
    Argobots build and run unchanged against libweft (pkg-config argobots works too)."""

    homepage = "https://www.argobots.org/"  # the API weft implements; weft has no site yet

    # No public release archive yet: build a checkout with `spack develop` / `dev-build`.
    version("main")
    version("1.2.0", preferred=True)

    variant(
        "context",
        default="asm",
        values=("asm", "ucontext"),
        multi=False,
        description="Context-switch backend: assembly (x86-64, AArch64) or ucontext",
    )
    variant(
        "tool",
        default=False,
        description="Tool interface (ABT_tool_*) on by default, as Argobots' --enable-tool",
    )
    variant(
        "affinity",
        default=False,
        description="CPU binding (ABT_xstream_*_cpubind/_affinity, ABT_SET_AFFINITY) on by "
        "default, as Argobots' --enable-affinity",
    )
    variant(
        "hooks",
        default=True,
        description="Event hooks the tool interface and WEFT_TRACE use (~hooks compiles "
        "them out)",
    )
    variant(
        "valgrind",
        default=True,
        description="Register ULT stacks with Valgrind so memcheck follows context switches",
    )
    variant(
        "asserts",
        default=False,
        description="Check internal protocol contracts (always on in Debug builds)",
    )

    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("valgrind~mpi", type="build", when="+valgrind")  # valgrind/valgrind.h only

    # The assembly switch exists for x86-64 and AArch64 (System V / AAPCS, ELF).
    conflicts("context=asm", when="target=ppc64le:", msg="use context=ucontext")
    conflicts("context=asm", when="target=riscv64:", msg="use context=ucontext")
    conflicts("+tool", when="~hooks", msg="the tool interface needs the event hooks")
    conflicts("platform=darwin", msg="weft supports Linux only")
    conflicts("platform=windows", msg="weft supports Linux only")

    def cmake_args(self):
        return [
            self.define_from_variant("WEFT_CONTEXT", "context"),
            self.define_from_variant("WEFT_TOOL", "hooks"),
            self.define_from_variant("WEFT_ENABLE_TOOL", "tool"),
            self.define_from_variant("WEFT_ENABLE_AFFINITY", "affinity"),
            self.define_from_variant("WEFT_VALGRIND", "valgrind"),
            self.define_from_variant("WEFT_ASSERTS", "asserts"),
            self.define("WEFT_BUILD_TESTS", self.run_tests),
            self.define("WEFT_BUILD_BENCH", False),
        ]

    @property
    def libs(self):
        return find_libraries("libweft", self.prefix, shared=True, recursive=True)
