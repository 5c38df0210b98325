/* Worker threads get the stack a thread of libgomp gets: with OMP_STACKSIZE unset, the
 * C library's default thread stack, which follows the soft RLIMIT_STACK the program
 * started with.  Each case runs this program again (a child, exec'd with the limit and
 * the environment of the case) where every worker of a team of 4 puts N bytes of
 * arrays on its stack:
 *   RLIMIT_STACK 8 MiB, OMP_STACKSIZE unset, 5 MB: runs;
 *   RLIMIT_STACK 16 MiB, OMP_STACKSIZE unset, 12 MB: runs (the limit, not a fixed size);
 *   RLIMIT_STACK 8 MiB, OMP_STACKSIZE=16M, 12 MB: runs (OMP_STACKSIZE wins);
 *   RLIMIT_STACK 8 MiB, OMP_STACKSIZE=8M, 5 MB, in a program that starts weft itself
 *   (whose default ULT stack is 16 KiB): runs;
 *   RLIMIT_STACK 8 MiB, OMP_STACKSIZE=1M, 5 MB: dies (SIGABRT) with weft's overflow
 *   report naming the 1 MiB stack (skipped under sanitizers and valgrind, whose fault
 *   handling and stacks differ, as the neighbours' death tests do).
 * OMP_DISPLAY_ENV shows the size the workers get. */
#include "omp_test.h"

#include <abt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB ((size_t)1 << 20)

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

/* Touch n bytes of this frame, from the top down as a stack grows. */
__attribute__((noinline)) static long deep(size_t n)
{
    volatile char buf[n];
    for (size_t i = n; i-- > 0;)
        buf[i] = (char)i;
    long s = 0;
    for (size_t i = 0; i < n; i += 4096)
        s += buf[i];
    return s + buf[n - 1];
}

static int child(size_t n, bool own)
{
    check_runtime_is_weft();
    if (own) /* the program starts weft itself (abt.h and OpenMP mixed) */
        CHECK_EQ(ABT_init(0, NULL), ABT_SUCCESS);
    long want = 0;
    for (size_t i = 0; i < n; i += 4096)
        want += (char)i;
    want += (char)(n - 1);
    int team = 0, ok = 0;
#pragma omp parallel num_threads(4) reduction(+ : team, ok)
    {
        team++;
        /* the workers: the master's share runs on the program's own stack */
        if (omp_get_thread_num() != 0)
            ok += deep(n) == want;
    }
    printf("team %d ok %d\n", team, ok);
    if (own)
        CHECK_EQ(ABT_finalize(), ABT_SUCCESS);
    return team == 4 && ok == 3 ? 0 : 1;
}

struct result {
    int status;
    char out[8192];
};

static void run(size_t rlimit, const char *stacksize, size_t n, bool own, struct result *r)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        close(fd[0]);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        struct rlimit rl;
        getrlimit(RLIMIT_STACK, &rl);
        rl.rlim_cur = rlimit;
        if (setrlimit(RLIMIT_STACK, &rl) != 0)
            _exit(3);
        if (stacksize)
            setenv("OMP_STACKSIZE", stacksize, 1);
        else
            unsetenv("OMP_STACKSIZE");
        unsetenv("GOMP_STACKSIZE");
        unsetenv("ABT_THREAD_STACKSIZE");
        setenv("OMP_DISPLAY_ENV", "true", 1);
        char arg[32];
        snprintf(arg, sizeof(arg), "%zu", n);
        execl("/proc/self/exe", "omp_stack_rlimit", arg, own ? "own" : "omp", (char *)NULL);
        _exit(4);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t got;
    while (len < sizeof(r->out) - 1 &&
           (got = read(fd[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
        len += (size_t)got;
    r->out[len] = '\0';
    close(fd[0]);
    CHECK(waitpid(pid, &r->status, 0) == pid);
}

static void expect_ok(size_t rlimit, const char *stacksize, size_t n, bool own, size_t shown)
{
    static struct result r;
    run(rlimit, stacksize, n, own, &r);
    char want[64];
    snprintf(want, sizeof(want), "OMP_STACKSIZE = '%zu'", shown);
    if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0 || !strstr(r.out, "team 4 ok 3") ||
        !strstr(r.out, want)) {
        fprintf(stderr,
                "RLIMIT_STACK %zu, OMP_STACKSIZE %s, %zu bytes on each worker's stack%s: "
                "status %#x (want exit 0 and %s); output:\n%s\n",
                rlimit, stacksize ? stacksize : "unset", n,
                own ? " (weft started by the program)" : "", r.status, want, r.out);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc > 2)
        return child(strtoul(argv[1], NULL, 10), !strcmp(argv[2], "own"));
    check_runtime_is_weft();
    if (slow() && !SANITIZED) {
        fprintf(stderr, "SKIP: under valgrind, ULT stacks of megabytes and the overflow "
                        "report are not what this checks\n");
        return 77;
    }
    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_STACK, &rl) == 0);
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 16 * MiB) {
        fprintf(stderr, "SKIP: the hard RLIMIT_STACK (%llu) is below 16 MiB\n",
                (unsigned long long)rl.rlim_max);
        return 77;
    }
    expect_ok(8 * MiB, NULL, 5000000, false, 8 * MiB);
    expect_ok(16 * MiB, NULL, 12000000, false, 16 * MiB);
    expect_ok(8 * MiB, "16M", 12000000, false, 16 * MiB);
    expect_ok(8 * MiB, "8M", 5000000, true, 8 * MiB); /* OMP_STACKSIZE, weft the program's */
    if (SANITIZED) {
        fprintf(stderr, "(the death case is skipped under sanitizers)\n");
        return 0;
    }
    static struct result r;
    run(8 * MiB, "1M", 5000000, false, &r);
    if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT ||
        !strstr(r.out, "weft: stack overflow in ULT") ||
        !strstr(r.out, "its stack of 1048576 bytes") || strstr(r.out, "team 4")) {
        fprintf(stderr, "OMP_STACKSIZE=1M, 5 MB on a worker's stack: status %#x, output:\n%s\n",
                r.status, r.out);
        return 1;
    }
    return 0;
}
