/* internal_face: core/face.h, all a face sees of core, answers as core does.  Who is
 * calling (an external thread, the primary ULT, a ULT of another stream, a tasklet); a
 * waiter in the caller's own storage blocks a ULT (parked, its lock released once off its
 * stack) and an external thread (on the futex) until a wake from elsewhere; a cancel
 * request on a parked ULT is seen; weft_face_idle_notify wakes a stream that sleeps in a
 * poll hook's sleep.  Includes no core header but core/face.h, as a face. */
#include "core/face.h"

#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch/cpu.h"

#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

#define DEADLINE_NS (60ull * 1000000000ull) /* generous: a loaded machine is slow */

static const int external_mark = 0;

/* What the caller sees of itself. */
struct who {
    weft_unit *unit, *ult;
    bool tasklet, on_stream;
    const void *identity;
};

static void ask(struct who *w)
{
    w->unit = weft_face_self_unit();
    w->ult = weft_face_self_ult();
    w->tasklet = weft_face_self_is_tasklet();
    w->on_stream = weft_face_self_on_stream();
    w->identity = weft_face_self_identity(&external_mark);
}

/* ---- a blocking wait: the waiter publishes itself under `lock`, a waker takes it ---- */
static weft_spinlock lock;
static weft_face_waiter *_Atomic published;
static _Atomic int after_wake;

struct blocker {
    struct who who;
    _Atomic(weft_unit *) unit;
};

static void block_once(struct blocker *b)
{
    ask(&b->who);
    atomic_store(&b->unit, b->who.unit);
    weft_face_waiter w;
    weft_face_waiter_init(&w);
    weft_spin_lock(&lock);
    atomic_store(&published, &w);
    weft_face_wait_block(&w, &lock); /* releases `lock` once we can be woken */
    atomic_fetch_add(&after_wake, 1);
}

static void ult_blocker(void *arg) { block_once(arg); }

static void *os_blocker(void *arg)
{
    block_once(arg);
    return NULL;
}

/* Take the published waiter (under the lock: it is free only once the waiter can be
 * woken), yielding meanwhile. */
static weft_face_waiter *take_published(void)
{
    uint64_t end = weft_clock_ns() + DEADLINE_NS;
    for (;;) {
        weft_spin_lock(&lock);
        weft_face_waiter *w = atomic_exchange(&published, NULL);
        weft_spin_unlock(&lock);
        if (w)
            return w;
        CHECK(weft_clock_ns() < end);
        ABT_thread_yield();
    }
}

static void tasklet_fn(void *arg) { ask(arg); }

/* The other stream's OS thread: only its sleeps go through the hook. */
static pthread_t sleeper;
static _Atomic int sleeper_known;

static void note_sleeper(void *arg)
{
    (void)arg;
    sleeper = pthread_self();
    atomic_store(&sleeper_known, 1);
}

/* ---- idle notify: a hook that sleeps for the stream ---- */
static _Atomic int use_sleep, in_sleep, woken_in_sleep;
static _Atomic uint32_t *_Atomic sleep_word;

static bool hook_sleep(_Atomic uint32_t *word, uint64_t timeout_ns)
{
    if (!atomic_load(&use_sleep) || !atomic_load(&sleeper_known) ||
        !pthread_equal(pthread_self(), sleeper))
        return false; /* the primary stream sleeps as usual */
    atomic_store(&sleep_word, word);
    atomic_store(&in_sleep, 1);
    uint64_t end = weft_clock_ns() + DEADLINE_NS;
    while (atomic_load(word) == WEFT_IDLE_SLEEPING && weft_clock_ns() < end)
        weft_futex_wait(word, WEFT_IDLE_SLEEPING, 100000000u); /* re-checks the word */
    if (atomic_load(word) != WEFT_IDLE_SLEEPING)
        atomic_fetch_add(&woken_in_sleep, 1);
    atomic_store(&in_sleep, 0);
    return true;
}

static const struct weft_poll_hook hook = { .name = "face test", .sleep = hook_sleep };

/* Until *v reaches want, yielding. */
static void wait_for(_Atomic int *v, int want)
{
    uint64_t end = weft_clock_ns() + DEADLINE_NS;
    while (atomic_load(v) < want) {
        CHECK(weft_clock_ns() < end);
        ABT_thread_yield();
    }
}

int main(int argc, char **argv)
{
    struct who w;

    /* an external thread (weft not running yet) */
    ask(&w);
    CHECK(w.unit == NULL && w.ult == NULL && !w.tasklet && !w.on_stream);
    CHECK(w.identity == &external_mark);

    CHECK(ABT_init(argc, argv) == ABT_SUCCESS);
    CHECK(weft_poll_hook_add(&hook) == 0);

    /* the primary ULT */
    ask(&w);
    CHECK(w.unit != NULL && w.ult == w.unit && !w.tasklet && w.on_stream);
    CHECK(w.identity == w.unit);

    /* a tasklet of the primary stream */
    ABT_xstream self_xs;
    ABT_pool main_pool;
    CHECK(ABT_self_get_xstream(&self_xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_get_main_pools(self_xs, 1, &main_pool) == ABT_SUCCESS);
    struct who t = { 0 };
    ABT_task task;
    CHECK(ABT_task_create(main_pool, tasklet_fn, &t, &task) == ABT_SUCCESS);
    CHECK(ABT_task_free(&task) == ABT_SUCCESS);
    CHECK(t.unit != NULL && t.unit != w.unit && t.ult == NULL && t.tasklet && t.on_stream);
    CHECK(t.identity == t.unit);

    ABT_xstream xs;
    ABT_pool pool;
    CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pool) == ABT_SUCCESS);

    /* a ULT of the other stream parks on its waiter; the primary ULT wakes it */
    struct blocker b = { 0 };
    ABT_thread th;
    CHECK(ABT_thread_create(pool, ult_blocker, &b, ABT_THREAD_ATTR_NULL, &th) == ABT_SUCCESS);
    weft_face_waiter *pw = take_published();
    CHECK(atomic_load(&after_wake) == 0);
    CHECK(!weft_face_unit_cancel_requested(atomic_load(&b.unit)));
    weft_face_waiter_wake(pw);
    CHECK(ABT_thread_free(&th) == ABT_SUCCESS);
    CHECK(atomic_load(&after_wake) == 1);
    CHECK(b.who.unit != NULL && b.who.ult == b.who.unit && !b.who.tasklet);
    CHECK(b.who.on_stream && b.who.identity == b.who.unit);

    /* an external thread sleeps on its waiter's futex; the primary ULT wakes it */
    struct blocker o = { 0 };
    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, os_blocker, &o) == 0);
    pw = take_published();
    weft_face_waiter_wake(pw);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK(atomic_load(&after_wake) == 2);
    CHECK(o.who.unit == NULL && o.who.ult == NULL && !o.who.tasklet && !o.who.on_stream);
    CHECK(o.who.identity == &external_mark);

    /* a cancel asked for a parked ULT: seen by the face, the ULT ends at its wake-up */
    struct blocker c = { 0 };
    CHECK(ABT_thread_create(pool, ult_blocker, &c, ABT_THREAD_ATTR_NULL, &th) == ABT_SUCCESS);
    pw = take_published();
    weft_unit *cu = atomic_load(&c.unit);
    CHECK(!weft_face_unit_cancel_requested(cu));
    CHECK(ABT_thread_cancel(th) == ABT_SUCCESS);
    CHECK(weft_face_unit_cancel_requested(cu));
    weft_face_waiter_wake(pw);
    CHECK(ABT_thread_free(&th) == ABT_SUCCESS);
    CHECK(atomic_load(&after_wake) == 2); /* terminated instead of returning from the wait */

    /* the other stream, idle, sleeps in the hook; weft_face_idle_notify wakes it */
    atomic_store(&use_sleep, 1);
    CHECK(ABT_thread_create(pool, note_sleeper, NULL, ABT_THREAD_ATTR_NULL, &th) == ABT_SUCCESS);
    CHECK(ABT_thread_free(&th) == ABT_SUCCESS); /* it may have slept before: it sleeps anew */
    wait_for(&in_sleep, 1);
    _Atomic uint32_t *word = atomic_load(&sleep_word);
    int before = atomic_load(&woken_in_sleep);
    weft_face_idle_notify(word);
    wait_for(&woken_in_sleep, before + 1);
    atomic_store(&use_sleep, 0); /* the join below wakes a stream asleep in the hook again */

    CHECK(ABT_xstream_join(xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_free(&xs) == ABT_SUCCESS);
    CHECK(ABT_finalize() == ABT_SUCCESS);
    return 0;
}
