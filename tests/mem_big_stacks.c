/* mem_big_stacks: stacks of the schedulers' size circulate through the caches like the
 * default size's (mem/stack.c), so that a deviating SC ULT costs no mmap.
 *
 * Each SC ULT here yields once: the scheduler's loop called it on its own stack, and its
 * deviation promotes it (it keeps that stack, and the loop takes another of the same
 * size, ABT_SCHED_STACKSIZE).  The test counts the mmap and munmap calls of that size (it
 * interposes both; ABT_SCHED_STACKSIZE is 1 MiB, which no other mapping has) over rounds
 * of N such fork-joins from the primary ULT:
 *   - the first round maps at least N / 2 of them (the premise: they were promoted);
 *   - the next rounds together map and unmap at most N / 8: the stacks the first round
 *     freed are taken again (before, a stream kept 4 and every other promotion mapped one,
 *     and every free unmapped it);
 *   - after ABT_finalize every one is unmapped: as many munmaps as mmaps.
 * Those rounds run with trimming off (ABT_MEM_TRIM_MS=0), so that however long a loaded
 * machine leaves the program between two rounds, nothing is given back meanwhile.  Then
 * the runtime is started again with a trim period of 250 ms (ABT_MEM_TRIM_MS; default
 * 100) and after one round it is left idle: it gives at least half of the stacks back
 * (trimming: mem/trim.c) - the test waits for that up to TEST_PATIENCE_S; under
 * WEFT_TEST_SLOW this check is skipped (counts printed) - and they are mapped again by
 * one more round; after ABT_finalize as many munmaps as mmaps again.
 * weft only (WEFT_FORK_SC).  Skipped under ThreadSanitizer, whose runtime calls mmap
 * before it can run an interposed one. */
#define _GNU_SOURCE
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <dlfcn.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <time.h>

#if defined(__SANITIZE_THREAD__)
#define MEM_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MEM_TEST_TSAN 1
#endif
#endif

#ifdef MEM_TEST_TSAN
int main(void) { TEST_SKIP("ThreadSanitizer: mmap cannot be interposed"); }
#else

#define SCHED_STACK (1024 * 1024)

static atomic_long big_maps, big_unmaps;

/* a mapping of a 1 MiB stack: the stack, its guard page or canary, the rounding */
static int is_big(size_t len) { return len > SCHED_STACK && len <= SCHED_STACK + 16384; }

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (!real)
        real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    void *p = real(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED && is_big(len))
        atomic_fetch_add(&big_maps, 1);
    return p;
}

int munmap(void *addr, size_t len)
{
    static int (*real)(void *, size_t);
    if (!real)
        real = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
    if (is_big(len))
        atomic_fetch_add(&big_unmaps, 1);
    return real(addr, len);
}

static atomic_int ran;

static void deviator(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&ran, 1);
}

static void round_of(ABT_pool pool, ABT_thread_attr attr, ABT_thread *h, int n)
{
    atomic_store(&ran, 0);
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_create(pool, deviator, NULL, attr, &h[i]));
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&h[i]));
    CHECK_EQ_INT(atomic_load(&ran), n);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ABT_init with ABT_MEM_TRIM_MS=trim_ms; the SC attribute and the primary stream's pool */
static void start(int argc, char **argv, const char *trim_ms, ABT_thread_attr *attr, ABT_pool *pool)
{
    setenv("ABT_MEM_TRIM_MS", trim_ms, 1);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_thread_attr_create(attr));
    CHECK_ABT(weft_thread_attr_set_fork(*attr, WEFT_FORK_SC));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, pool));
}

static void stop(ABT_thread_attr *attr)
{
    CHECK_ABT(ABT_thread_attr_free(attr));
    CHECK_ABT(ABT_finalize());
    long m = atomic_load(&big_maps), u = atomic_load(&big_unmaps);
    printf("after ABT_finalize: %ld mapped, %ld unmapped in all\n", m, u);
    CHECK_EQ_INT(m, u);
}

int main(int argc, char **argv)
{
    int slow = test_scale_div() > 1;
    int n = slow ? 64 : 512;
    char v[32];
    snprintf(v, sizeof v, "%d", SCHED_STACK);
    setenv("ABT_SCHED_STACKSIZE", v, 1);
    ABT_thread_attr attr;
    ABT_pool pool;
    start(argc, argv, "0", &attr, &pool);
    ABT_thread *h = malloc((size_t)n * sizeof *h);
    CHECK(h != NULL);

    long m0 = atomic_load(&big_maps);
    round_of(pool, attr, h, n);
    long m1 = atomic_load(&big_maps), u1 = atomic_load(&big_unmaps);
    printf("round 1: %ld mappings of the scheduler's size, %ld unmapped\n", m1 - m0, u1);
    if (m1 - m0 < n / 2)
        TEST_FAIL("%d SC ULTs deviated but only %ld scheduler-size stacks were mapped: "
                  "were they promoted?",
                  n, m1 - m0);

    for (int r = 0; r < 4; r++)
        round_of(pool, attr, h, n);
    long m2 = atomic_load(&big_maps), u2 = atomic_load(&big_unmaps);
    printf("rounds 2-5: %ld mapped, %ld unmapped\n", m2 - m1, u2 - u1);
    if (m2 - m1 > n / 8 || u2 - u1 > n / 8)
        TEST_FAIL("rounds 2-5 mapped %ld and unmapped %ld scheduler-size stacks (at most %d "
                  "each): the first round's were not reused",
                  m2 - m1, u2 - u1, n / 8);

    stop(&attr);

    /* trimming on: idle, the schedulers trim their caches, and the depot gives the
     * surplus back */
    start(argc, argv, "250", &attr, &pool);
    round_of(pool, attr, h, n);
    long m3 = atomic_load(&big_maps), u3 = atomic_load(&big_unmaps);
    double t0 = now_s(), wait = slow ? 3.0 : TEST_PATIENCE_S;
    while (atomic_load(&big_unmaps) - u3 < n / 2 && now_s() - t0 < wait)
        CHECK_ABT(weft_thread_sleep(10e-3));
    long u4 = atomic_load(&big_unmaps);
    printf("idle %.2f s: %ld of %ld unmapped\n", now_s() - t0, u4 - u3, m3 - u3);
    if (!slow && u4 - u3 < n / 2)
        TEST_FAIL("idle %.0f s after a round, only %ld of %ld cached scheduler-size stacks "
                  "were given back",
                  wait, u4 - u3, m3 - u3);

    round_of(pool, attr, h, n); /* what was given back is mapped again */
    free(h);
    stop(&attr);
    return 0;
}

#endif /* MEM_TEST_TSAN */
#endif
