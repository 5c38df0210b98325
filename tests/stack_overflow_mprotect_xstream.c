/* stack_overflow_mprotect_xstream: the guard-page report works on a secondary stream too
 * (each stream's thread has its own alternate signal stack) and for a ULT whose stack
 * size was set with ABT_thread_attr_set_stacksize (64 KiB, reported as such).  The
 * overflow runs in a child process.  With Argobots (no message) only the death counts. */
#include "overflow_test.h"

static volatile int forever = 1;

static int recurse(int n)
{
    volatile char pad[1024];
    pad[0] = (char)n;
    pad[1023] = (char)(n >> 8);
    if (!forever)
        return n;
    return recurse(n + 1) + pad[0] + pad[1023];
}

static _Atomic int go;

/* waits until main has printed its id: the overflow aborts the child at once */
static void ult(void *arg)
{
    while (!go)
        ABT_thread_yield();
    *(int *)arg = recurse(0);
}

static void body(void)
{
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 65536));
    static int result;
    ABT_thread t;
    CHECK_ABT(ABT_thread_create_on_xstream(xs, ult, &result, attr, &t));
    ABT_unit_id id;
    CHECK_ABT(ABT_thread_get_id(t, &id));
    fprintf(stderr, "expect ULT %llu\n", (unsigned long long)id);
    fflush(stderr);
    go = 1;
    CHECK_ABT(ABT_thread_free(&t));
}

int main(void)
{
    static struct child_result r;
    run_child("mprotect", body, &r);
    if (!child_failed(&r))
        TEST_FAIL("the child survived its overflow; stderr:\n%s", r.err);
    if (TEST_WEFT) {
        unsigned long long id;
        const char *e = strstr(r.err, "expect ULT ");
        CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
        char want[64];
        snprintf(want, sizeof(want), "stack overflow in ULT %llu (", id);
        if (!strstr(r.err, want) || !strstr(r.err, "its stack of 65536 bytes") ||
            !strstr(r.err, "ABT_thread_attr_set_stacksize"))
            TEST_FAIL("unexpected report:\n%s", r.err);
        CHECK(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT);
    }
    return 0;
}
