/* tests/internal_arch_switch_release.c - weft_ctx_switch_release (src/arch/context.h): a
 * context that holds a spinlock switches away, and the switch releases the lock once the
 * context is saved and off its stack.  Two OS threads pass one context back and forth
 * through that lock, as two streams pass a yielding ULT through its pool's lock: each
 * thread takes the lock, and when the context is parked, resumes it with the lock still
 * held; the context counts its run and switches back to that thread, releasing the lock in
 * the switch.  The other thread, spinning on the lock, resumes it at once.  A release
 * before the context is saved would let that thread resume a stale frame; a release before
 * the switch leaves the stack would put two threads on one stack.  Checked on every run:
 * the lock is held, the context runs on the thread that resumed it, and the counters the
 * context keeps across its switches (in callee-saved registers or its frame) agree with the
 * shared count.  20,000 runs (400 under valgrind), or as many as 5 s allow once a tenth of
 * them is done: on a loaded machine each hand-over may wait for a time slice.
 *
 * Skips (77) where the backend has no such switch (ucontext) and under ThreadSanitizer,
 * which does not see the assembly's release (the runtime does not use it there).
 * Exit 0 pass, 1 fail. */
#include "arch/context.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch_test.h"

#if WEFT_CTX_HAS_SWITCH_RELEASE && !defined(UNDER_TSAN)

#define TOK(i)   ((void *)((~(uintptr_t)0 / 3) ^ (uintptr_t)(i)))
#define UNTOK(p) ((uintptr_t)(p) ^ (~(uintptr_t)0 / 3))

#define STACK_SIZE ((size_t)256 * 1024)

static _Atomic uint32_t lock_word; /* the spinlock the switch releases */
/* guarded by lock_word */
static weft_ctx co;       /* the parked context */
static int parked;        /* co may be resumed */
static _Atomic long runs; /* times the context ran (read unlocked to take turns) */
static long runs_by[2];   /* ... on each thread */
static long rounds;       /* how many runs to make */
static double budget_end; /* after this (CLOCK_MONOTONIC s), rounds / 10 runs are enough */
static weft_ctx home[2];  /* each thread's side, saved while it runs the context */
static _Thread_local uintptr_t thread_tag;

static __attribute__((noinline)) uintptr_t read_thread_tag(void)
{
    __asm__ volatile("" ::: "memory");
    return thread_tag;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Under the lock: enough runs made (monotonic: once true, true for both threads). */
static int done(void) { return runs >= rounds || (runs >= rounds / 10 && now_s() > budget_end); }

static void take(void)
{
    while (atomic_exchange_explicit(&lock_word, 1, memory_order_acquire)) {
        while (atomic_load_explicit(&lock_word, memory_order_relaxed))
            sched_yield(); /* valgrind runs one thread at a time */
    }
}

/* Parks at a depth that changes with every run, so a context resumed from a stale
 * `co` (one released before it was saved) returns into a frame that is not there. */
static __attribute__((noinline)) uintptr_t park(uintptr_t t, int depth)
{
    volatile char pad[48];
    pad[0] = (char)depth;
    if (depth > 0) {
        uintptr_t r = park(t, depth - 1);
        CHECK(pad[0] == (char)depth);
        return r;
    }
    parked = 1;
    void *r = weft_ctx_switch_release(&co, home[t], TOK(100 + t), (uint32_t *)&lock_word);
    CHECK(pad[0] == 0);
    return UNTOK(r);
}

/* The context: runs while the thread that resumed it holds the lock, and gives the lock
 * up in its switch back to that thread. */
static void co_fn(void *arg)
{
    uintptr_t t = UNTOK(arg);
    long mine = 0;                       /* runs seen here: survives every switch */
    uint64_t salt = 0x9e3779b97f4a7c15u; /* so does a value with every bit pattern */
    for (;;) {
        CHECK(t < 2 && read_thread_tag() == t);
        CHECK(atomic_load_explicit(&lock_word, memory_order_relaxed) == 1);
        mine++;
        atomic_fetch_add_explicit(&runs, 1, memory_order_relaxed);
        runs_by[t]++;
        CHECK(mine == runs);
        CHECK(salt == 0x9e3779b97f4a7c15u * (uint64_t)mine);
        salt += 0x9e3779b97f4a7c15u;
        t = park(t, (int)(mine % 5));
    }
}

static void *side(void *arg)
{
    uintptr_t t = (uintptr_t)arg;
    thread_tag = t;
    for (;;) {
        take();
        if (done()) {
            atomic_store_explicit(&lock_word, 0, memory_order_release);
            return NULL;
        }
        if (!parked) {
            atomic_store_explicit(&lock_word, 0, memory_order_release);
            continue;
        }
        parked = 0;
        /* resume with the lock held: the context releases it on its way back */
        void *r = weft_ctx_switch(&home[t], co, TOK(t));
        CHECK(r == TOK(100 + t));
        CHECK(read_thread_tag() == t);
        /* the other thread's turn: it spins on the lock, so it takes the context the
         * moment the switch released it (a bounded wait: it may have finished) */
        long seen = atomic_load_explicit(&runs, memory_order_relaxed);
        for (int i = 0; i < 100000 && atomic_load_explicit(&runs, memory_order_relaxed) == seen;
             i++)
            if ((i & 255) == 255)
                sched_yield();
    }
}

/* The first run, from the main thread: the context starts, holding the lock, and parks. */
static void first_fn(void *arg)
{
    (void)arg;
    co_fn(TOK(0));
}

int main(void)
{
    rounds = 20000;
#ifdef HAVE_VALGRIND_H
    if (RUNNING_ON_VALGRIND)
        rounds = 400; /* one thread at a time: each hand-over waits for a time slice */
#endif
    budget_end = now_s() + 5.0;
    char *base = malloc(STACK_SIZE);
    if (!base) {
        perror("malloc");
        return 1;
    }
    memset(base, 0xa5, STACK_SIZE);
    void *top = (void *)(((uintptr_t)base + STACK_SIZE) & ~(uintptr_t)15);
#ifdef HAVE_VALGRIND_H
    unsigned vg = VALGRIND_STACK_REGISTER(base, base + STACK_SIZE);
#endif
    thread_tag = 0;
    take();
    /* home[0] is the main thread's side while it starts the context */
    void *r = weft_ctx_start(&home[0], top, first_fn, NULL);
    CHECK(r == TOK(100));
    CHECK(runs == 1 && parked == 1);

    pthread_t other;
    if (pthread_create(&other, NULL, side, (void *)(uintptr_t)1) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    side((void *)(uintptr_t)0);
    pthread_join(other, NULL);

    CHECK(runs >= rounds / 10 && runs <= rounds);
    CHECK(runs_by[0] + runs_by[1] == runs);
    printf("%ld runs: %ld on the main thread, %ld on the other\n", (long)runs, runs_by[0],
           runs_by[1]);
#ifdef HAVE_VALGRIND_H
    VALGRIND_STACK_DEREGISTER(vg);
#endif
    free(base);
    if (failures) {
        printf("FAIL (%d checks)\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}

#else

int main(void)
{
    printf("skip: %s\n", WEFT_CTX_HAS_SWITCH_RELEASE
                             ? "ThreadSanitizer does not see the switch's release"
                             : "this context backend has no weft_ctx_switch_release");
    return 77;
}

#endif
