/* key_set_nomem: when a unit's key table cannot grow, ABT_key_set,
 * ABT_thread_set_specific and ABT_task_set_specific return ABT_ERR_MEM and change
 * nothing: values set before stay readable and the failed key still reads NULL.  Each set
 * is tried with the 1st, 2nd, ... allocation from then on failing, until a call needs no
 * more memory than that (so every block the table grows by fails once: in weft the first
 * table, the directory of chunks, a chunk), from the unit itself, from an external thread
 * on a ULT that has not run, and on a tasklet.  Setting NULL on a key the table never held
 * needs no memory.  malloc, calloc, realloc, aligned_alloc and posix_memalign are
 * interposed; skipped where a sanitizer or valgrind owns the allocator. */
#define _GNU_SOURCE
#include "test.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <valgrind/valgrind.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

#define NKEYS 80

static atomic_long countdown; /* > 0: allocations left before the failing one */

#if !UNDER_SANITIZER
static int should_fail(void)
{
    long c = atomic_load(&countdown);
    while (c > 0 && !atomic_compare_exchange_weak(&countdown, &c, c - 1))
        ;
    return c == 1;
}

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

void *malloc(size_t n) { return should_fail() ? NULL : __libc_malloc(n); }
void *calloc(size_t n, size_t size) { return should_fail() ? NULL : __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { return should_fail() ? NULL : __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { return should_fail() ? NULL : __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n)
{
    if (should_fail())
        return ENOMEM;
    void *p = __libc_memalign(a, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}
#endif

/* the k-th allocation from now fails */
static void fail_alloc(long k) { atomic_store(&countdown, k); }

static ABT_key keys[NKEYS];
static ABT_thread target;
static int mem_errors;

static void *val(int k) { return (void *)(uintptr_t)(0x1000 + k); }

static void *get(ABT_thread t, int k)
{
    void *got = (void *)1;
    CHECK_ABT(ABT_thread_get_specific(t, keys[k], &got));
    return got;
}

/* Set key k of t to its value with the 1st, 2nd, ... allocation failing, until a call
 * needs no more than that: each failed call returns ABT_ERR_MEM and changes nothing
 * (key k unset, key `keep` still holding its value).  `self`: through ABT_key_set. */
static void set_under_failures(ABT_thread t, int k, int keep, bool self)
{
    for (long n = 1;; n++) {
        fail_alloc(n);
        int r = self ? ABT_key_set(keys[k], val(k)) : ABT_thread_set_specific(t, keys[k], val(k));
        bool injected = atomic_load(&countdown) == 0;
        fail_alloc(0);
        if (r == ABT_SUCCESS) {
            CHECK_EQ_PTR(get(t, k), val(k));
            if (!injected)
                break;
            continue;
        }
        CHECK(injected);
        CHECK_ERR(r, ABT_ERR_MEM);
        mem_errors++;
        CHECK_EQ_PTR(get(t, k), NULL);
        if (keep >= 0)
            CHECK_EQ_PTR(get(t, keep), val(keep));
    }
}

/* From inside the unit: the first block, then keys far beyond it. */
static void self_part(void *arg)
{
    ABT_thread me;
    CHECK_ABT(ABT_self_get_thread(&me));
    fail_alloc(1);
    CHECK_ABT(ABT_key_set(keys[1], NULL)); /* unset on an empty table: no memory needed */
    fail_alloc(0);
    set_under_failures(me, 0, -1, true);
    set_under_failures(me, NKEYS - 1, 0, true);
    set_under_failures(me, NKEYS / 2, 0, true);
    set_under_failures(me, NKEYS / 4, NKEYS - 1, true);
}

/* From an external thread, on another unit's (the target's) table. */
static void *ext_part(void *arg)
{
    set_under_failures(target, NKEYS / 2, -1, false);
    set_under_failures(target, NKEYS - 1, NKEYS / 2, false);
    set_under_failures(target, 2, NKEYS - 1, false);
    return NULL;
}

static void nothing(void *arg) {}

int main(int argc, char **argv)
{
    if (UNDER_SANITIZER)
        TEST_SKIP("a sanitizer owns calloc");
    if (RUNNING_ON_VALGRIND) /* its calloc serves the library; the probe below may be inlined */
        TEST_SKIP("valgrind owns calloc");
    fail_alloc(1);
    void *probe = calloc(1, 1);
    fail_alloc(0);
    if (probe) {
        free(probe);
        TEST_SKIP("the allocator is not interposable here (valgrind?)");
    }
    CHECK_ABT(ABT_init(argc, argv));
    for (int k = 0; k < NKEYS; k++)
        CHECK_ABT(ABT_key_create(NULL, &keys[k]));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, self_part, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));

    /* a ULT that has not run yet, set from an external thread */
    CHECK_ABT(ABT_thread_create(pool, nothing, NULL, ABT_THREAD_ATTR_NULL, &target));
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext_part, NULL) == 0);
    pthread_join(th, NULL);
    CHECK_ABT(ABT_thread_free(&target));

    /* a tasklet: ABT_task_set_specific */
    ABT_task task;
    CHECK_ABT(ABT_task_create(pool, nothing, NULL, &task));
    int before = mem_errors;
    set_under_failures((ABT_thread)task, 3, -1, false);
    CHECK(mem_errors > before);
    void *got = NULL;
    CHECK_ABT(ABT_task_get_specific(task, keys[3], &got));
    CHECK_EQ_PTR(got, val(3));
    CHECK_ABT(ABT_task_free(&task));
    CHECK(mem_errors >= 7); /* every growth above failed at least once */

    for (int k = 0; k < NKEYS; k++)
        CHECK_ABT(ABT_key_free(&keys[k]));
    CHECK_ABT(ABT_finalize());
    return 0;
}
