/* xstream_affinity: ABT_xstream_set/get_cpubind and ABT_xstream_set/get_affinity on the
 * primary stream and on a secondary one (a ULT on it runs on the CPU it is bound to), on a
 * joined stream (the binding is kept and applied when it is revived), an empty list resets
 * a binding to every CPU the process may use, and the errors: ABT_ERR_INV_XSTREAM,
 * ABT_ERR_INV_ARG (negative counts), ABT_ERR_CPUID (negative or impossible CPU ids).
 * Parts that need two CPUs are skipped on a one-CPU machine.  ABT_SET_AFFINITY=no: no
 * stream is bound by its rank (xstream_affinity_env tests that). */
#include "affinity_test.h"

static volatile int ran_on = -1;

static void where(void *arg) { ran_on = sched_getcpu(); }

static void run_on(ABT_xstream xs)
{
    ABT_thread t;
    ran_on = -1;
    CHECK_ABT(ABT_thread_create_on_xstream(xs, where, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
}

int main(int argc, char **argv)
{
    static int avail[MAX_CPUS], got[MAX_CPUS];
    int navail = process_cpus(avail, MAX_CPUS);
    CHECK(navail >= 1);
    CHECK(setenv("ABT_SET_AFFINITY", "no", 1) == 0);
    CHECK_ABT(ABT_init(argc, argv));
    skip_without_affinity();
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));

    /* the primary stream may run anywhere the process may */
    int n = stream_cpus(self, got, MAX_CPUS);
    CHECK_EQ_INT(n, navail);
    int c = -1;
    CHECK_ABT(ABT_xstream_get_cpubind(self, &c));
    CHECK(c == got[0]);
    /* only the count */
    n = -1;
    CHECK_ABT(ABT_xstream_get_affinity(self, 0, NULL, &n));
    CHECK_EQ_INT(n, navail);

    /* bind to one CPU, then reset */
    int last = avail[navail - 1];
    CHECK_ABT(ABT_xstream_set_cpubind(self, last));
    CHECK_ABT(ABT_xstream_get_cpubind(self, &c));
    CHECK_EQ_INT(c, last);
    CHECK_EQ_INT(stream_cpus(self, got, MAX_CPUS), 1);
    CHECK_EQ_INT(got[0], last);
    CHECK_EQ_INT(sched_getcpu(), last);
    CHECK_ABT(ABT_xstream_set_affinity(self, 0, NULL));
    CHECK_EQ_INT(stream_cpus(self, got, MAX_CPUS), navail);

    /* errors */
    int ids[2] = { avail[0], avail[0] };
    CHECK_ERR(ABT_xstream_set_cpubind(ABT_XSTREAM_NULL, avail[0]), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_cpubind(ABT_XSTREAM_NULL, &c), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_affinity(ABT_XSTREAM_NULL, 1, ids), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_affinity(ABT_XSTREAM_NULL, 1, got, &n), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_affinity(self, -1, ids), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_affinity(self, -1, got, &n), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_set_cpubind(self, -1), ABT_ERR_CPUID);
    CHECK_ERR(ABT_xstream_set_cpubind(self, 1 << 20), ABT_ERR_CPUID);
    int bad[2] = { avail[0], -3 };
    CHECK_ERR(ABT_xstream_set_affinity(self, 2, bad), ABT_ERR_CPUID);
    /* a duplicate id is harmless */
    CHECK_ABT(ABT_xstream_set_affinity(self, 2, ids));
    CHECK_EQ_INT(stream_cpus(self, got, MAX_CPUS), 1);
    CHECK_ABT(ABT_xstream_set_affinity(self, 0, NULL));

    /* a secondary stream */
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_set_cpubind(xs, avail[0]));
    CHECK_ABT(ABT_xstream_get_cpubind(xs, &c));
    CHECK_EQ_INT(c, avail[0]);
    run_on(xs);
    CHECK_EQ_INT(ran_on, avail[0]);
    if (navail >= 2) {
        int two[2] = { avail[1], avail[0] };
        CHECK_ABT(ABT_xstream_set_affinity(xs, 2, two));
        n = stream_cpus(xs, got, MAX_CPUS);
        CHECK_EQ_INT(n, 2);
        CHECK(got[0] == avail[0] && got[1] == avail[1]);
        /* max_cpuids smaller than the set: the first ones, and the full count */
        got[1] = -7;
        CHECK_ABT(ABT_xstream_get_affinity(xs, 1, got, &n));
        CHECK_EQ_INT(n, 2);
        CHECK(got[0] == avail[0] && got[1] == -7);
        CHECK_ABT(ABT_xstream_set_cpubind(xs, avail[1]));
        run_on(xs);
        CHECK_EQ_INT(ran_on, avail[1]);
    }

    /* a joined stream keeps what it is given until it runs again */
    CHECK_ABT(ABT_xstream_join(xs));
    int target = avail[navail - 1];
    CHECK_ABT(ABT_xstream_set_cpubind(xs, target));
    CHECK_ABT(ABT_xstream_get_cpubind(xs, &c));
    CHECK_EQ_INT(c, target);
    CHECK_ABT(ABT_xstream_revive(xs));
    run_on(xs);
    CHECK_EQ_INT(ran_on, target);
    CHECK_ABT(ABT_xstream_free(&xs));

    CHECK_ABT(ABT_finalize());
    return 0;
}
