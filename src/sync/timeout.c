/* src/sync/timeout.c - per-stream timer queues (pairing heaps) and the scheduler poll.
 * The model and the locking rules are in timeout.h; the claim protocol in waitlist.h. */
#include <pthread.h>
#include <stdlib.h>

#include "core/sched/idle.h"
#include "sync/waitlist.h"

__thread weft_timerq *weft_tls_tq __attribute__((tls_model("initial-exec")));
weft_timerq weft_orphan_tq = { .next = WEFT_NO_DEADLINE };

/* Registry: queues of exited threads, ready for reuse (never freed, see timeout.h). */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static weft_timerq *reg_free;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static bool exit_key_ok;

/* ---------------------------------------------------------------- pairing heap
 * Every function here runs under the queue's lock.  A root has prev == sibling == NULL. */

static weft_tq_entry *meld(weft_tq_entry *a, weft_tq_entry *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    if (b->deadline < a->deadline) {
        weft_tq_entry *t = a;
        a = b;
        b = t;
    }
    b->prev = a;
    b->sibling = a->child;
    if (a->child)
        a->child->prev = b;
    a->child = b;
    return a;
}

/* Standard two-pass merge of a sibling list: meld pairs left to right, then fold the
 * results right to left. */
static weft_tq_entry *merge_pairs(weft_tq_entry *first)
{
    weft_tq_entry *stack = NULL; /* melded pairs, linked through sibling, last pair first */
    while (first) {
        weft_tq_entry *a = first, *b = first->sibling;
        first = b ? b->sibling : NULL;
        a->prev = a->sibling = NULL;
        if (b) {
            b->prev = b->sibling = NULL;
            a = meld(a, b);
        }
        a->sibling = stack;
        stack = a;
    }
    weft_tq_entry *root = NULL;
    while (stack) {
        weft_tq_entry *next = stack->sibling;
        stack->sibling = NULL;
        root = meld(root, stack);
        stack = next;
    }
    return root;
}

static void heap_insert(weft_timerq *q, weft_tq_entry *e)
{
    e->child = e->sibling = e->prev = NULL;
    q->root = meld(q->root, e);
}

static weft_tq_entry *heap_pop(weft_timerq *q)
{
    weft_tq_entry *r = q->root;
    q->root = merge_pairs(r->child);
    r->child = NULL;
    return r;
}

static void heap_remove(weft_timerq *q, weft_tq_entry *e)
{
    if (e == q->root) {
        heap_pop(q);
        return;
    }
    /* cut e's subtree out of its parent's child list */
    if (e->prev->child == e)
        e->prev->child = e->sibling;
    else
        e->prev->sibling = e->sibling;
    if (e->sibling)
        e->sibling->prev = e->prev;
    e->prev = e->sibling = NULL;
    weft_tq_entry *sub = merge_pairs(e->child);
    e->child = NULL;
    q->root = meld(q->root, sub);
}

static inline void publish_next(weft_timerq *q)
{
    weft_atomic_store_relaxed(&q->next, q->root ? q->root->deadline : WEFT_NO_DEADLINE);
}

/* ---------------------------------------------------------------- queues per thread */

/* Thread exit: hand what is left to the orphan queue, recycle the queue. */
static void thread_exit(void *arg)
{
    weft_timerq *q = arg;
    weft_spin_lock(&q->lock);
    bool orphans = q->root != NULL;
    if (orphans) {
        weft_spin_lock(&weft_orphan_tq.lock);
        while (q->root) {
            weft_tq_entry *e = heap_pop(q);
            heap_insert(&weft_orphan_tq, e);
            weft_atomic_store_release(&e->q, &weft_orphan_tq);
        }
        publish_next(&weft_orphan_tq);
        weft_spin_unlock(&weft_orphan_tq.lock);
    }
    publish_next(q);
    weft_spin_unlock(&q->lock);
    /* every scheduler polls the orphan queue, but all may sleep: wake the primary stream,
     * which lives as long as the runtime (core/sched/idle.h) */
    weft_xstream *primary = weft_g.primary;
    if (orphans && primary)
        weft_xs_wake(primary);
    if (weft_tls_tq == q)
        weft_tls_tq = NULL;
    pthread_mutex_lock(&reg_lock);
    q->free_next = reg_free;
    reg_free = q;
    pthread_mutex_unlock(&reg_lock);
}

static void make_key(void) { exit_key_ok = pthread_key_create(&exit_key, thread_exit) == 0; }

static uint64_t poll_slow(uint64_t next);
static uint64_t poll_served(weft_xstream *t);

/* The queue of the stream that the calling thread serves as a spare while that stream's
 * thread is blocked in a call (xs->served, core/stream/handoff.c), or NULL. */
static inline weft_xstream *served_stream(void)
{
    weft_xstream *xs = weft_xs_self();
    return xs ? xs->served : NULL;
}

static inline uint64_t queue_next(weft_timerq *q)
{
    return q ? weft_atomic_load_relaxed(&q->next) : WEFT_NO_DEADLINE;
}

/* The scheduler's view (core/sched/timer_hook.h): two loads while nothing is pending. */
static uint64_t hook_poll(void)
{
    uint64_t next = weft_tq_next();
    weft_xstream *t = served_stream();
    if (WEFT_UNLIKELY(t != NULL)) {
        uint64_t n = poll_served(t);
        if (n < next)
            next = n;
    }
    if (WEFT_LIKELY(next == WEFT_NO_DEADLINE))
        return next;
    return poll_slow(next);
}

static uint64_t hook_next(void)
{
    uint64_t next = weft_tq_next();
    weft_xstream *t = served_stream();
    if (WEFT_UNLIKELY(t != NULL)) {
        uint64_t n = queue_next(weft_atomic_load_acquire(&t->timerq));
        if (n < next)
            next = n;
    }
    return next;
}

static uint64_t hook_queue_next(void *q) { return queue_next(q); }

static const struct weft_timer_hook hook = { .poll = hook_poll,
                                             .next = hook_next,
                                             .queue_next = hook_queue_next };

int weft_tq_prepare(void)
{
    if (WEFT_LIKELY(weft_tls_tq != NULL))
        return ABT_SUCCESS;
    weft_timer_hook_install(&hook); /* before any entry exists: none is missed */
    pthread_once(&key_once, make_key);
    pthread_mutex_lock(&reg_lock);
    weft_timerq *q = reg_free;
    if (q)
        reg_free = q->free_next;
    pthread_mutex_unlock(&reg_lock);
    if (!q) {
        q = calloc(1, sizeof(*q));
        if (!q)
            return ABT_ERR_MEM;
        weft_atomic_store_relaxed(&q->next, WEFT_NO_DEADLINE);
    }
    q->free_next = NULL;
    /* without the destructor the queue simply stays with the thread's exit unseen:
     * entries of a dead thread then never fire, which is what a missing key costs */
    if (exit_key_ok)
        pthread_setspecific(exit_key, q);
    weft_tls_tq = q;
    weft_timers_note_queue(q); /* a spare fires it while this stream is blocked in a call */
    return ABT_SUCCESS;
}

void weft_tq_add(weft_tq_entry *e)
{
    weft_timerq *q = weft_tls_tq;
    weft_spin_lock(&q->lock);
    heap_insert(q, e);
    weft_atomic_store_relaxed(&e->q, q);
    publish_next(q);
    weft_spin_unlock(&q->lock);
}

void weft_tq_cancel(weft_tq_entry *e)
{
    for (;;) {
        /* acquire: pairs with the release store of NULL that ends a firing */
        weft_timerq *q = weft_atomic_load_acquire(&e->q);
        if (!q)
            return;
        weft_spin_lock(&q->lock);
        if (weft_atomic_load_relaxed(&e->q) == q) {
            heap_remove(q, e);
            weft_atomic_store_relaxed(&e->q, NULL);
            publish_next(q);
            weft_spin_unlock(&q->lock);
            return;
        }
        weft_spin_unlock(&q->lock); /* moved to the orphan queue meanwhile: retry */
    }
}

/* Remove the due entries of q and claim their waiters; won waiters are appended to the
 * chain at *tail, in deadline order (so they are made ready in that order). */
static weft_wl_waiter **fire_locked(weft_timerq *q, uint64_t now, weft_wl_waiter **tail)
{
    while (q->root && q->root->deadline <= now) {
        weft_tq_entry *e = heap_pop(q);
        weft_wl_waiter *ww = e->waiter;
        if (weft_wl_claim(ww, WL_TIMEDOUT)) {
            ww->wake_next = NULL;
            *tail = ww;
            tail = &ww->wake_next;
        }
        /* last touch of e (and of ww, unless this timer won it): a cancelling waiter
         * that reads NULL may return at once */
        weft_atomic_store_release(&e->q, NULL);
    }
    publish_next(q);
    return tail;
}

static weft_wl_waiter **fire(weft_timerq *q, uint64_t now, weft_wl_waiter **tail)
{
    if (weft_atomic_load_relaxed(&q->next) > now)
        return tail;
    weft_spin_lock(&q->lock);
    tail = fire_locked(q, now, tail);
    weft_spin_unlock(&q->lock);
    return tail;
}

/* A spare fires the queue of the stream it serves only while that stream's thread is in
 * its blocking call: the check of the hand-off bit is under the queue's lock, and that
 * thread adds entries (under the lock) only after it came back and cleared the bit, so
 * an entry fired here belongs to a ULT that parked before the call, off its stack. */
static uint64_t poll_served(weft_xstream *t)
{
    weft_timerq *q = weft_atomic_load_acquire(&t->timerq);
    uint64_t next = queue_next(q);
    if (next == WEFT_NO_DEADLINE)
        return next;
    uint64_t now = weft_clock_ns();
    if (next > now)
        return next;
    weft_wl_waiter *chain = NULL;
    weft_spin_lock(&q->lock);
    if (weft_atomic_load_seq_cst(&t->blk) & WEFT_BLK_HANDED)
        fire_locked(q, now, &chain);
    next = queue_next(q);
    weft_spin_unlock(&q->lock);
    weft_wl_wake_chain(chain);
    return next;
}

static uint64_t poll_slow(uint64_t next)
{
    uint64_t now = weft_clock_ns();
    if (next > now)
        return next;
    weft_wl_waiter *chain = NULL, **tail = &chain;
    if (weft_tls_tq)
        tail = fire(weft_tls_tq, now, tail);
    fire(&weft_orphan_tq, now, tail);
    weft_wl_wake_chain(chain);
    return weft_tq_next();
}

uint64_t weft_deadline_from_abstime(const struct timespec *abstime)
{
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t now = weft_clock_ns();
    int64_t sec = (int64_t)abstime->tv_sec - (int64_t)rt.tv_sec;
    int64_t nsec = (int64_t)abstime->tv_nsec - (int64_t)rt.tv_nsec;
    if (sec < 0 || (sec == 0 && nsec <= 0))
        return now; /* already passed */
    if (sec > (int64_t)(UINT64_MAX / 2 / 1000000000u))
        return WEFT_NO_DEADLINE - 1; /* centuries away: effectively none */
    int64_t rem = sec * 1000000000 + nsec;
    if (rem <= 0)
        return now;
    return now + (uint64_t)rem;
}
