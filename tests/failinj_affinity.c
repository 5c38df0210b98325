/* failinj_affinity: CPU bindings under allocation failure (tests/failinj.h fails each
 * traced call in turn).
 *
 * ABT_xstream_set_cpubind and ABT_xstream_set_affinity on the primary stream (the
 * binding is replaced, then left in place at ABT_finalize, as a program that binds its
 * primary stream once does) and on a secondary stream before and after it ran, joined
 * and freed.  A failed binding reports ABT_ERR_MEM and keeps the binding the stream had;
 * ABT_finalize must free every binding, the primary stream's included.
 * Skips (77) where affinity is not available (a build that answers ABT_ERR_FEATURE_NA,
 * as Argobots configured without affinity does). */
#define _GNU_SOURCE
#include "failinj.h"

#include <sched.h>

static int ncpus, cpus[CPU_SETSIZE];

/* The CPU ids the process may run on, as ABT_init sees them. */
static void read_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        TEST_FAIL("sched_getaffinity");
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set))
            cpus[ncpus++] = i;
    if (ncpus < 1)
        TEST_FAIL("no CPU to run on");
}

/* The first CPU xs reports, or -1 if it answered an error. */
static int bound_to(ABT_xstream xs)
{
    int c = -1;
    return ABT_xstream_get_cpubind(xs, &c) == ABT_SUCCESS ? c : -1;
}

static void bind_all(ABT_xstream xs)
{
    /* one CPU, then the last CPU, then every CPU: each call replaces the binding */
    if (FI_OK(ABT_xstream_set_cpubind(xs, cpus[0])) && bound_to(xs) != cpus[0])
        FI_FAIL("set_cpubind(%d) succeeded but the stream reports %d", cpus[0], bound_to(xs));
    int before = bound_to(xs);
    if (FI_OK(ABT_xstream_set_affinity(xs, 1, &cpus[ncpus - 1]))) {
        if (bound_to(xs) != cpus[ncpus - 1])
            FI_FAIL("set_affinity({%d}) succeeded but the stream reports %d", cpus[ncpus - 1],
                    bound_to(xs));
    } else if (bound_to(xs) != before) {
        FI_FAIL("a failed set_affinity changed the binding from %d to %d", before, bound_to(xs));
    }
    if (FI_OK(ABT_xstream_set_affinity(xs, ncpus, cpus))) {
        int n = -1;
        FI_MUST(ABT_xstream_get_affinity(xs, 0, NULL, &n));
        if (n != ncpus)
            FI_FAIL("bound to %d CPUs, the stream reports %d", ncpus, n);
    }
}

static void nothing(void *arg) {}

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));
    ABT_xstream self;
    FI_MUST(ABT_xstream_self(&self));
    bind_all(self);
    /* the primary stream keeps a one-CPU binding into ABT_finalize */
    FI_OK(ABT_xstream_set_cpubind(self, cpus[0]));

    ABT_xstream xs;
    if (FI_OUT_NULL(xs, ABT_XSTREAM_NULL, ABT_xstream_create(ABT_SCHED_NULL, &xs))) {
        bind_all(xs);
        ABT_thread t;
        if (FI_OUT_NULL(t, ABT_THREAD_NULL,
                        ABT_thread_create_on_xstream(xs, nothing, NULL, ABT_THREAD_ATTR_NULL, &t)))
            FI_MUST(ABT_thread_free(&t));
        FI_MUST(ABT_xstream_join(xs));
        bind_all(xs); /* a joined stream keeps the binding for a revive */
        FI_MUST(ABT_xstream_free(&xs));
    }
    FI_MUST(ABT_finalize());
}

/* 0 if this build binds streams, 77 if it answers ABT_ERR_FEATURE_NA (in a child, so that
 * this process never initializes the runtime: each k starts fresh). */
static int affinity_available(void)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        TEST_FAIL("fork failed");
    if (pid == 0) {
        alarm(60);
        if (ABT_init(0, NULL) != ABT_SUCCESS)
            _exit(1);
        ABT_xstream self;
        int n = -1, code = 0;
        if (ABT_xstream_self(&self) != ABT_SUCCESS)
            code = 1;
        else if (ABT_xstream_get_affinity(self, 0, NULL, &n) == ABT_ERR_FEATURE_NA ||
                 ABT_xstream_set_cpubind(self, cpus[0]) == ABT_ERR_FEATURE_NA)
            code = 77;
        if (ABT_finalize() != ABT_SUCCESS)
            code = 1;
        _exit(code);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 77))
        TEST_FAIL("the affinity probe failed (status %#x)", st);
    return WEXITSTATUS(st);
}

int main(void)
{
    read_cpus();
    if (!FI_UNDER_SANITIZER && affinity_available() == 77)
        TEST_SKIP("this build has no affinity support (ABT_ERR_FEATURE_NA)");
    return fi_main("failinj_affinity", program);
}
