/* failinj_lazy_stack: the policy for a failure nobody can be told about.  A ULT gets its
 * stack when it first runs; if that allocation fails, the unit stays ready and is retried
 * (docs/design/mem.md, "Memory"), and after repeated failures weft says so once on
 * stderr instead of spinning silently.
 *
 * With tests/failinj.h failing every traced allocation and mmap, a ULT with a
 * non-default stack size (mapped per unit) is started on a second stream: it must not
 * run, the stream must keep retrying, and stderr must get the message exactly once.
 * Once memory is back the ULT runs, and everything is freed at ABT_finalize. */
#include "failinj.h"

#include <fcntl.h>

static _Atomic int ran;
static void work(void *arg) { atomic_fetch_add(&ran, 1); }

int main(void)
{
    if (FI_UNDER_SANITIZER)
        TEST_SKIP("the sanitizer runtime owns malloc/mmap; runs in release and valgrind");
    fi_resolve();
    fi_find_weft();
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 200 * 1024));

    /* capture stderr */
    char path[] = "/tmp/weft_failinj_lazy_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    unlink(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);

    /* the ULT waits in a pool no scheduler serves until failures are armed */
    ABT_pool parking;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));
    ABT_thread t, popped;
    CHECK_ABT(ABT_thread_create(parking, work, NULL, attr, &t));
    fi_fail_at = 1;
    fi_burst = 1L << 40; /* every traced call fails from now on */
    fi_armed = 1;
    int r1 = ABT_pool_pop_thread(parking, &popped);
    int r2 = popped == t ? ABT_pool_push_thread(pool, t) : ABT_ERR_OTHER;
    double t0 = ABT_get_wtime();
    /* the message comes after 100 failed attempts; 150 leave a margin, 60 s a loaded
     * valgrind run */
    while (atomic_load(&fi_injected) < 150 && ABT_get_wtime() - t0 < 60)
        ABT_thread_yield();
    long failures = atomic_load(&fi_injected);
    int ran_while_failing = atomic_load(&ran);
    fi_armed = 0; /* memory is back */
    CHECK_ABT(ABT_thread_free(&t));

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char buf[4096] = "";
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    close(fd);

    CHECK_ABT(r1);
    CHECK_ABT(r2);
    CHECK_ABT(ABT_pool_free(&parking));
    if (failures < 150)
        TEST_FAIL("the stream retried only %ld times in 60 s", failures);
    CHECK_EQ_INT(ran_while_failing, 0);
    CHECK_EQ_INT(atomic_load(&ran), 1);
    const char *m = strstr(buf, "weft: out of memory for ULT stacks");
    if (!m)
        TEST_FAIL("no message on stderr after %ld failed stack allocations; stderr: '%s'", failures,
                  buf);
    if (strstr(m + 1, "weft: out of memory for ULT stacks"))
        TEST_FAIL("the message was printed more than once: '%s'", buf);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    printf("%ld failed first-run stack allocations, one message, the ULT ran afterwards\n",
           failures);
    return 0;
}
