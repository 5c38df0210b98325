/* mem_failure_injection: every allocation the runtime makes can fail, and a failure
 * surfaces as ABT_ERR_MEM (ABT_ERR_SYS for a refused thread) with nothing leaked.
 *
 * The test interposes malloc/calloc/realloc/aligned_alloc/posix_memalign/free and
 * mmap/munmap, counts live blocks and mappings, and makes the k-th allocation after it
 * arms fail.  For k = 1, 2, ... it runs one scenario (init, a second stream, ULTs and
 * tasklets past a descriptor slab, an attribute, a key, a pool, joins, finalize), where
 * every call either succeeds or reports the failure, and then checks that the live
 * counts are back where they started.  It stops when a run completes with no injected
 * failure.  Skipped under sanitizers and valgrind, which own malloc themselves. */
#define _GNU_SOURCE
#define TEST_NO_LIFECYCLE 1 /* interposes malloc: the checker would see the failures */
#include "test.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic long live_blocks, live_maps;
static _Atomic long countdown = -1;   /* > 0: allocations left before the failing one */
static _Atomic long injected;

static int should_fail(void)
{
    long c = atomic_load(&countdown);
    while (c > 0) {
        if (atomic_compare_exchange_weak(&countdown, &c, c - 1)) {
            if (c == 1) {
                atomic_fetch_add(&injected, 1);
                return 1;
            }
            return 0;
        }
    }
    return 0;
}

#if !UNDER_SANITIZER
void *malloc(size_t n)
{
    if (should_fail())
        return NULL;
    void *p = __libc_malloc(n);
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    return p;
}

void *calloc(size_t a, size_t b)
{
    if (should_fail())
        return NULL;
    void *p = __libc_calloc(a, b);
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    return p;
}

void *realloc(void *old, size_t n)
{
    if (!old)
        return malloc(n);
    if (n == 0) {
        free(old);
        return NULL;
    }
    if (should_fail())
        return NULL;
    return __libc_realloc(old, n);
}

void *aligned_alloc(size_t al, size_t n)
{
    if (should_fail())
        return NULL;
    void *p = __libc_memalign(al, n);
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    return p;
}

int posix_memalign(void **out, size_t al, size_t n)
{
    if (should_fail())
        return ENOMEM;
    void *p = __libc_memalign(al, n);
    if (!p)
        return ENOMEM;
    atomic_fetch_add(&live_blocks, 1);
    *out = p;
    return 0;
}

void free(void *p)
{
    if (p) {
        atomic_fetch_sub(&live_blocks, 1);
        __libc_free(p);
    }
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (should_fail()) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
    if (r == -1)
        return MAP_FAILED;
    atomic_fetch_add(&live_maps, 1);
    return (void *)r;
}

int munmap(void *addr, size_t len)
{
    long r = syscall(SYS_munmap, addr, len);
    if (r == 0)
        atomic_fetch_sub(&live_maps, 1);
    return (int)r;
}
#endif

static _Atomic int ran;
static void work(void *arg) { atomic_fetch_add(&ran, 1); ABT_thread_yield(); }
static void task(void *arg) { atomic_fetch_add(&ran, 1); }
static void dtor(void *v) { (void)v; }

#define OK_OR_MEM(call)                                                                        \
    ({                                                                                         \
        int r_ = (call);                                                                       \
        if (r_ != ABT_SUCCESS && r_ != ABT_ERR_MEM)                                            \
            TEST_FAIL("%s returned %d (%s), expected success or ABT_ERR_MEM", #call, r_,     \
                      test_errname(r_));                                                       \
        r_ == ABT_SUCCESS;                                                                     \
    })

/* One scenario; every step may fail with ABT_ERR_MEM. */
static void scenario(void)
{
    if (!OK_OR_MEM(ABT_init(0, NULL)))
        return;
    ABT_xstream self, xs2 = ABT_XSTREAM_NULL;
    ABT_pool pool, extra = ABT_POOL_NULL;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool));
    int r = ABT_xstream_create(ABT_SCHED_NULL, &xs2);
    if (r != ABT_SUCCESS && r != ABT_ERR_MEM && r != ABT_ERR_SYS)
        TEST_FAIL("ABT_xstream_create returned %d", r);
    OK_OR_MEM(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &extra));
    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    if (OK_OR_MEM(ABT_thread_attr_create(&attr)))
        CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 32768));
    ABT_key key = ABT_KEY_NULL;
    OK_OR_MEM(ABT_key_create(dtor, &key));

    enum { N = 150 };
    static ABT_thread t[N];
    for (int i = 0; i < N; i++) {
        t[i] = ABT_THREAD_NULL;
        if (i % 3 == 0)
            OK_OR_MEM(ABT_task_create(pool, task, NULL, &t[i]));
        else
            OK_OR_MEM(ABT_thread_create(pool, work, NULL, i % 5 ? ABT_THREAD_ATTR_NULL : attr,
                                        &t[i]));
    }
    if (key != ABT_KEY_NULL)
        OK_OR_MEM(ABT_key_set(key, (void *)1));
    for (int i = 0; i < N; i++)
        if (t[i] != ABT_THREAD_NULL && t[i] != ABT_TASK_NULL)
            CHECK_ABT(ABT_thread_free(&t[i]));
    if (attr != ABT_THREAD_ATTR_NULL)
        CHECK_ABT(ABT_thread_attr_free(&attr));
    if (key != ABT_KEY_NULL)
        CHECK_ABT(ABT_key_free(&key));
    if (extra != ABT_POOL_NULL)
        CHECK_ABT(ABT_pool_free(&extra));
    if (xs2 != ABT_XSTREAM_NULL)
        CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
}

int main(void)
{
    if (UNDER_SANITIZER || getenv("WEFT_TEST_SLOW"))
        TEST_SKIP("allocation interposition is not possible under sanitizers/valgrind");
    scenario();                        /* warm up libc (stdio, thread caches) */
    long base_blocks = atomic_load(&live_blocks), base_maps = atomic_load(&live_maps);
    long k;
    for (k = 1; k < 100000; k++) {
        atomic_store(&injected, 0);
        atomic_store(&countdown, k);
        scenario();
        atomic_store(&countdown, -1);
        long b = atomic_load(&live_blocks), m = atomic_load(&live_maps);
        if (b != base_blocks || m != base_maps)
            TEST_FAIL("failing allocation #%ld: %ld blocks and %ld mappings leaked", k,
                      b - base_blocks, m - base_maps);
        if (atomic_load(&injected) == 0)
            break;                     /* the scenario made fewer than k allocations */
    }
    printf("injected a failure at each of %ld allocation points; no leak\n", k - 1);
    return 0;
}
