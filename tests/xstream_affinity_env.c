/* xstream_affinity_env: ABT_SET_AFFINITY binds each stream by its rank: rank r takes CPU
 * list r % N of the list; list ids index the CPUs the process may use (with wrap-around).
 * "{1},{0}" puts the primary stream (rank 0) on the second CPU and rank 1 on the first;
 * "{0:2}" gives every rank both; "1" every rank the second CPU; unset, "yes" or a
 * malformed list give the default (rank r on the r-th CPU); "false" and "NO" bind nothing,
 * as in Argobots built with --enable-affinity.  ABT_xstream_set_rank moves a stream to its
 * new rank's CPUs.  ABT_finalize gives the primary thread its CPUs back.  Needs two CPUs;
 * run with WEFT_ENABLE_AFFINITY=1 (tests/CMakeLists.txt). */
#include "affinity_test.h"

static int avail[MAX_CPUS], navail;

static void nop(void *arg) {}

static void with_env(const char *value, int expect0_first, int expect0_n, int expect1_first,
                     int expect1_n)
{
    static int got[MAX_CPUS];
    if (value)
        setenv("ABT_SET_AFFINITY", value, 1);
    else
        unsetenv("ABT_SET_AFFINITY");
    value = value ? value : "(unset)";
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream self, xs;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &xs));
    int n = stream_cpus(self, got, MAX_CPUS);
    if (n != expect0_n || got[0] != expect0_first)
        TEST_FAIL("ABT_SET_AFFINITY=%s: rank 0 on %d CPUs from %d, expected %d from %d", value, n,
                  got[0], expect0_n, expect0_first);
    /* the secondary stream binds itself when its thread starts: wait for it */
    ABT_thread t;
    CHECK_ABT(ABT_thread_create_on_xstream(xs, nop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    n = stream_cpus(xs, got, MAX_CPUS);
    if (n != expect1_n || got[0] != expect1_first)
        TEST_FAIL("ABT_SET_AFFINITY=%s: rank 1 on %d CPUs from %d, expected %d from %d", value, n,
                  got[0], expect1_n, expect1_first);
    /* rank 2 takes list 2 % N: with the two-list and the default cases, rank 0's CPUs */
    if (strcmp(value, "{1},{0}") == 0 || strcmp(value, "(unset)") == 0) {
        CHECK_ABT(ABT_xstream_set_rank(xs, 2));
        n = stream_cpus(xs, got, MAX_CPUS);
        int want = strcmp(value, "(unset)") == 0 ? avail[2 % navail] : avail[1];
        if (n != 1 || got[0] != want)
            TEST_FAIL("ABT_SET_AFFINITY=%s: rank 2 on %d CPUs from %d, expected 1 from %d", value,
                      n, got[0], want);
    }
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    /* the primary thread has every CPU back */
    CHECK_EQ_INT(process_cpus(got, MAX_CPUS), navail);
}

int main(void)
{
    navail = process_cpus(avail, MAX_CPUS);
    CHECK_ABT(ABT_init(0, NULL));
    skip_without_affinity();
    CHECK_ABT(ABT_finalize());
    if (navail < 2)
        TEST_SKIP("needs two CPUs");
    with_env("{1},{0}", avail[1], 1, avail[0], 1);
    with_env("1,0", avail[1], 1, avail[0], 1);
    with_env("{0:2}", avail[0], 2, avail[0], 2);
    with_env(" 1 : 2 : -1 ", avail[1], 1, avail[0], 1);
    with_env("{0", avail[0], 1, avail[1], 1); /* malformed: the default */
    with_env("yes", avail[0], 1, avail[1], 1);
    with_env(NULL, avail[0], 1, avail[1], 1);
    with_env("1", avail[1], 1, avail[1], 1); /* a list of one CPU, not a boolean */
    with_env("0", avail[0], 1, avail[0], 1);
    with_env("false", avail[0], navail, avail[0], navail);
    with_env("NO", avail[0], navail, avail[0], navail);
    unsetenv("ABT_SET_AFFINITY");
    return 0;
}
