/* cond_primary_pingpong: the primary ULT and a ULT of its pool take turns through one
 * mutex and one condition variable on the primary stream, 20,000 round trips: a parking
 * ULT may resume the primary ULT directly (the park bypass), so every turn must still be
 * seen by the right side, in order.  A third ULT of the same pool yields meanwhile and must
 * get its turns in FIFO order (the ping-pong does not starve it: one stream, so the count
 * is exact, not a timing), and the primary ULT's timed wait, signalled by the ULT, returns
 * ABT_SUCCESS on the same path.  A ULT on a secondary stream plays the same game with the
 * primary ULT (which stays on the primary stream), 2,000 round trips (a twentieth of
 * both under valgrind and the sanitizers, WEFT_TEST_SLOW). */
#include "sync_test.h"

#define ROUNDS 20000

static ABT_mutex mtx;
static ABT_cond cv;
static int turn;                /* whose turn: 0 the primary ULT, 1 the partner; mutex */
static int rounds_seen[2];      /* turns each side took; mutex */
static atomic_int done;         /* the ping-pong is over */
static atomic_long bystander_n; /* yields of the third ULT while it lasted */
static ABT_xstream primary_xs;

static int rounds = ROUNDS; /* of the current game */

static void play(int me, int timed)
{
    CHECK_ABT(ABT_mutex_lock(mtx));
    for (int i = 0; i < rounds; i++) {
        while (turn != me) {
            if (timed && (i & 7) == 0) {
                struct timespec ts = sync_abstime(TEST_PATIENCE_S);
                CHECK_ABT(ABT_cond_timedwait(cv, mtx, &ts));
            } else {
                CHECK_ABT(ABT_cond_wait(cv, mtx));
            }
        }
        if (me == 0) {
            ABT_xstream xs;
            CHECK_ABT(ABT_self_get_xstream(&xs));
            CHECK(xs == primary_xs); /* the primary ULT never leaves its stream */
        }
        CHECK_EQ_INT(rounds_seen[me], i);
        rounds_seen[me]++;
        turn = 1 - me;
        CHECK_ABT(ABT_cond_signal(cv));
    }
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void partner(void *arg) { play(1, (int)(intptr_t)arg); }

static void bystander(void *arg)
{
    (void)arg;
    while (!atomic_load(&done)) {
        atomic_fetch_add(&bystander_n, 1);
        CHECK_ABT(ABT_thread_yield());
    }
}

static void game(ABT_pool partner_pool, int timed, int with_bystander)
{
    turn = 0;
    rounds_seen[0] = rounds_seen[1] = 0;
    atomic_store(&done, 0);
    atomic_store(&bystander_n, 0);
    ABT_pool home;
    CHECK_ABT(ABT_xstream_get_main_pools(primary_xs, 1, &home));
    ABT_thread p, b = ABT_THREAD_NULL;
    CHECK_ABT(ABT_thread_create(partner_pool, partner, (void *)(intptr_t)timed,
                                ABT_THREAD_ATTR_NULL, &p));
    if (with_bystander)
        CHECK_ABT(ABT_thread_create(home, bystander, NULL, ABT_THREAD_ATTR_NULL, &b));
    play(0, timed);
    CHECK_ABT(ABT_thread_free(&p));
    long n = atomic_load(&bystander_n);
    atomic_store(&done, 1);
    if (with_bystander) {
        CHECK_ABT(ABT_thread_free(&b));
        /* FIFO on one stream: the yielding ULT runs between the halves of most rounds */
        if (partner_pool == home && n < rounds / 2)
            TEST_FAIL("the third ULT yielded %ld times during %d round trips", n, rounds);
    }
    CHECK_EQ_INT(rounds_seen[0], rounds);
    CHECK_EQ_INT(rounds_seen[1], rounds);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&primary_xs));
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&cv));
    ABT_pool home;
    CHECK_ABT(ABT_xstream_get_main_pools(primary_xs, 1, &home));
    rounds = ROUNDS / test_scale_div(); /* a twentieth under valgrind and the sanitizers */
    game(home, 0, 0);
    game(home, 0, 1);
    game(home, 1, 0);
    game(home, 1, 1);
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    rounds = ROUNDS / 10 / test_scale_div(); /* each turn crosses the streams */
    game(w.pools[1], 0, 0);
    game(w.pools[1], 1, 1);
    sync_world_stop(&w);
    CHECK_ABT(ABT_cond_free(&cv));
    CHECK_ABT(ABT_mutex_free(&mtx));
    CHECK_ABT(ABT_finalize());
    return 0;
}
