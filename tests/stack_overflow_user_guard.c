/* stack_overflow_user_guard: with ABT_STACK_OVERFLOW_CHECK=mprotect_strict, a ULT on a
 * user-given stack (ABT_thread_attr_set_stack, 64 KiB from malloc) that recurses without
 * end hits the guard page weft set at the first whole page of that stack; the process
 * dies (abort) after one message on stderr that names the ULT and its stack size of
 * 65536 bytes.  The overflow runs in a child process.  With Argobots (no handler, no
 * message) only the death counts. */
#include "overflow_test.h"

#include <stdlib.h>
#include <string.h>

static volatile int forever = 1; /* no end, but the compiler cannot prove it */

static int recurse(int n)
{
    volatile char pad[512];
    pad[0] = (char)n;
    pad[511] = (char)(n >> 8);
    if (!forever)
        return n;
    return recurse(n + 1) + pad[0] + pad[511];
}

static void ult(void *arg) { *(int *)arg = recurse(0); }

static void body(void)
{
    static int result;
    setenv("ABT_THREAD_STACKSIZE", "16384", 1);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    char *mem = malloc(65536);
    CHECK(mem != NULL);
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stack(attr, mem, 65536));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, ult, &result, attr, &t));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    ABT_unit_id id;
    CHECK_ABT(ABT_thread_get_id(t, &id));
    fprintf(stderr, "expect ULT %llu\n", (unsigned long long)id);
    fflush(stderr);
    CHECK_ABT(ABT_thread_free(&t));
    free(mem);
}

int main(void)
{
    static struct child_result r;
    run_child("mprotect_strict", body, &r);
    if (!child_failed(&r))
        TEST_FAIL("the child survived its overflow; stderr:\n%s", r.err);
    if (TEST_WEFT) {
        unsigned long long id;
        const char *e = strstr(r.err, "expect ULT ");
        CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
        char want[64];
        snprintf(want, sizeof(want), "stack overflow in ULT %llu (", id);
        if (!strstr(r.err, want) || !strstr(r.err, "its stack of 65536 bytes") ||
            !strstr(r.err, "guard page"))
            TEST_FAIL("unexpected report:\n%s", r.err);
        CHECK(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT);
    }
    return 0;
}
