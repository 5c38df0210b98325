/* fork_lend: a fresh unit on its joiner's stack, for the default technique (RoC-L, no
 * attribute) or, with the argument "sc" or "ss-l", for scheduler creation (WEFT_FORK_SC)
 * or stack separation (WEFT_FORK_SS_L, which a joiner runs as RoC-L).  A ULT
 * that joins or frees a fresh RoC-L or SC ULT queued in its loop's pool calls it on its
 * own stack, when that stack has room for the child's stack size; at its first deviation
 * the child keeps running on that stack and its joiner waits beneath it (BLOCKED) until
 * the child's function returns.  Covered, joined and freed: a child that never leaves (it
 * runs on the joiner's stack, next to the joiner's frame, and ABT_thread_get_stack gives
 * the part of that stack it may use), one that yields while others run (the
 * joiner is BLOCKED meanwhile), ABT_thread_exit before and after a deviation, a
 * cancellation while it waits ready after a deviation (the joiner gets its frame back and
 * the rest of the child never runs), nested joins whose innermost child deviates, a
 * joiner with a stack too small to lend (the scheduler runs the child), and a child that
 * deviates and ends on a second stream (the primary ULT comes back to the primary
 * stream).  weft only; ThreadSanitizer builds do not lend, nor does a build whose tool
 * listens for RUN and FINISH (the life-cycle checker: fork_lend_told, fork_sc_lend_told): the
 * checks of where the child ran are skipped there, the rest holds either way. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>
#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_LEND 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define NO_LEND 1
#endif
#ifndef NO_LEND
#define NO_LEND 0
#endif
#include <stdlib.h>
#include <string.h>

/* A tool listening for RUN and FINISH (the life-cycle checker, tests/lifecycle.h) turns
 * the lend off: the checks of where the child ran hold only without it. */
static int lend_expected(void)
{
    const char *lc = getenv("WEFT_TEST_LIFECYCLE");
    return !NO_LEND && !(lc && strcmp(lc, "1") == 0);
}

static ABT_pool pool;
static ABT_thread_attr child_attr; /* the technique under test: NULL for the default */
static ABT_thread_attr own_attr;   /* RoC: a stack of its own from creation, never lent */
static ABT_thread main_ult;
static ABT_thread joiner; /* of the child that runs `plain` */
static atomic_int steps, after_exit, blocked_seen;
static char *joiner_frame, *joiner_lo;

/* the child's frame lies below the joiner's, on the joiner's stack (the primary ULT's,
 * whose extent ABT_thread_get_stack does not give: within 64 KiB below) */
static int on_joiner_stack(void)
{
    char here;
    if (joiner_lo)
        return &here < joiner_frame && &here >= joiner_lo;
    return &here < joiner_frame && joiner_frame - &here < 64 * 1024;
}

static void plain(void *arg)
{
    char here;
    ABT_thread self;
    void *lo;
    size_t sz;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_get_stack(self, &lo, &sz));
    /* on its own stack or on the part of its joiner's it was lent: here either way */
    CHECK(lo != NULL && sz > 0);
    CHECK(&here >= (char *)lo && &here < (char *)lo + sz);
    /* its joiner waits in its join, whatever stack the child runs on */
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(joiner, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
    *(int *)arg = on_joiner_stack() ? 1 : 2;
}

static void yielding(void *arg)
{
    (void)arg;
    atomic_fetch_add(&steps, 1);
    CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&steps, 1);
}

static void watcher(void *arg)
{
    (void)arg;
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(main_ult, &st));
    if (st == ABT_THREAD_STATE_BLOCKED)
        atomic_fetch_add(&blocked_seen, 1);
}

static void exit_now(void *arg)
{
    (void)arg;
    atomic_fetch_add(&steps, 1);
    CHECK_ABT(ABT_thread_exit());
    atomic_fetch_add(&after_exit, 1);
}

static void exit_after_yield(void *arg)
{
    (void)arg;
    atomic_fetch_add(&steps, 1);
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_exit());
    atomic_fetch_add(&after_exit, 1);
}

static void cancelled(void *arg)
{
    ABT_thread *me = arg;
    CHECK_ABT(ABT_self_get_thread(me));
    atomic_fetch_add(&steps, 1);
    CHECK_ABT(ABT_thread_yield()); /* the canceller runs now; we never come back */
    atomic_fetch_add(&after_exit, 1);
}

static void canceller(void *arg) { CHECK_ABT(ABT_thread_cancel(*(ABT_thread *)arg)); }

static void nested(void *arg)
{
    int depth = (int)(intptr_t)arg;
    ABT_thread c;
    if (depth == 0) {
        yielding(NULL);
        return;
    }
    CHECK_ABT(ABT_thread_create(pool, nested, (void *)(intptr_t)(depth - 1), child_attr, &c));
    if (depth % 2)
        CHECK_ABT(ABT_thread_join(c));
    CHECK_ABT(ABT_thread_free(&c));
    atomic_fetch_add(&steps, 1);
}

static void small_joiner(void *arg)
{
    int *where = arg;
    char here;
    ABT_thread self;
    void *lo;
    size_t sz;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_get_stack(self, &lo, &sz));
    CHECK(lo != NULL);
    joiner_frame = &here;
    joiner_lo = lo;
    joiner = self;
    ABT_thread c;
    CHECK_ABT(ABT_thread_create(pool, plain, where, child_attr, &c));
    CHECK_ABT(ABT_thread_free(&c));
    joiner_lo = NULL;
    joiner = main_ult;
}

static void spin_yield(void *arg)
{
    (void)arg;
    /* keep yielding until the second stream ran it */
    for (;;) {
        ABT_bool primary;
        CHECK_ABT(ABT_self_on_primary_xstream(&primary));
        if (!primary)
            break;
        CHECK_ABT(ABT_thread_yield());
    }
    atomic_fetch_add(&steps, 1);
}

/* join (0) or free (1) t */
static void finish(ABT_thread *t, int how)
{
    if (how == 0)
        CHECK_ABT(ABT_thread_join(*t));
    CHECK_ABT(ABT_thread_free(t));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_self_get_thread(&main_ult));
    joiner = main_ult;
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    child_attr = ABT_THREAD_ATTR_NULL;
    if (argc > 1) { /* "sc" or "ss-l" (which a joiner runs as RoC-L) */
        CHECK(strcmp(argv[1], "sc") == 0 || strcmp(argv[1], "ss-l") == 0);
        CHECK_ABT(ABT_thread_attr_create(&child_attr));
        CHECK_ABT(weft_thread_attr_set_fork(child_attr, strcmp(argv[1], "sc") == 0
                                                            ? WEFT_FORK_SC
                                                            : WEFT_FORK_SS_L));
    }
    CHECK_ABT(ABT_thread_attr_create(&own_attr));
    CHECK_ABT(weft_thread_attr_set_fork(own_attr, WEFT_FORK_ROC));
    char here;
    joiner_frame = &here;

    for (int how = 0; how < 2; how++) {
        ABT_thread t, w;
        /* never leaves: called on our stack */
        int where = 0;
        CHECK_ABT(ABT_thread_create(pool, plain, &where, child_attr, &t));
        finish(&t, how);
        CHECK_EQ_INT(where, lend_expected() ? 1 : where);
        CHECK(where != 0);

        /* yields: another ULT runs and sees us blocked beneath it */
        atomic_store(&steps, 0);
        atomic_store(&blocked_seen, 0);
        CHECK_ABT(ABT_thread_create(pool, yielding, NULL, child_attr, &t));
        CHECK_ABT(ABT_thread_create(pool, watcher, NULL, ABT_THREAD_ATTR_NULL, &w));
        finish(&t, how);
        CHECK_EQ_INT(atomic_load(&steps), 2);
        CHECK_ABT(ABT_thread_free(&w));
        if (lend_expected())
            CHECK_EQ_INT(atomic_load(&blocked_seen), 1);
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(main_ult, &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);

        /* exits before and after a deviation */
        atomic_store(&steps, 0);
        atomic_store(&after_exit, 0);
        CHECK_ABT(ABT_thread_create(pool, exit_now, NULL, child_attr, &t));
        finish(&t, how);
        CHECK_ABT(ABT_thread_create(pool, exit_after_yield, NULL, child_attr, &t));
        finish(&t, how);
        CHECK_EQ_INT(atomic_load(&steps), 2);
        CHECK_EQ_INT(atomic_load(&after_exit), 0);

        /* cancelled while ready after a deviation */
        atomic_store(&steps, 0);
        ABT_thread me = ABT_THREAD_NULL;
        CHECK_ABT(ABT_thread_create(pool, cancelled, &me, child_attr, &t));
        CHECK_ABT(ABT_thread_create(pool, canceller, &me, ABT_THREAD_ATTR_NULL, &w));
        finish(&t, how);
        CHECK_ABT(ABT_thread_free(&w));
        CHECK_EQ_INT(atomic_load(&steps), 1);
        CHECK_EQ_INT(atomic_load(&after_exit), 0);

        /* nested joins; the innermost yields */
        atomic_store(&steps, 0);
        CHECK_ABT(ABT_thread_create(pool, nested, (void *)(intptr_t)5, child_attr, &t));
        finish(&t, how);
        CHECK_EQ_INT(atomic_load(&steps), 5 + 2);

        /* a joiner whose stack (16 KiB, the default) has no room for a 16 KiB child */
        where = 0;
        CHECK_ABT(ABT_thread_create(pool, small_joiner, &where, own_attr, &t));
        finish(&t, how);
        CHECK_EQ_INT(where, 2);
        joiner_frame = &here;
    }

    /* a child that deviates and ends on a second stream sharing the pool */
    ABT_xstream x2;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &x2));
    for (int i = 0; i < 4; i++) {
        ABT_thread t;
        atomic_store(&steps, 0);
        CHECK_ABT(ABT_thread_create(pool, spin_yield, NULL, child_attr, &t));
        finish(&t, i % 2);
        CHECK_EQ_INT(atomic_load(&steps), 1);
        ABT_bool primary;
        CHECK_ABT(ABT_self_on_primary_xstream(&primary));
        CHECK_EQ_INT(primary, ABT_TRUE);
    }
    CHECK_ABT(ABT_xstream_join(x2));
    CHECK_ABT(ABT_xstream_free(&x2));
    if (child_attr != ABT_THREAD_ATTR_NULL)
        CHECK_ABT(ABT_thread_attr_free(&child_attr));
    CHECK_ABT(ABT_thread_attr_free(&own_attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
