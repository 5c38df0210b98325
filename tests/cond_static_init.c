/* cond_static_init: ABT_COND_INITIALIZER (and zeroed, int-aligned memory) with a static
 * mutex: ping-pong between a ULT on another stream and an external thread, plus a timed
 * wait that times out. */
#include "sync_test.h"

static ABT_mutex_memory mmem = ABT_MUTEX_INITIALIZER;
static ABT_cond_memory cmem = ABT_COND_INITIALIZER;
static struct {
    short pad;
    ABT_cond_memory c;
} inner;

#define ROUNDS 2000

static int turn; /* 0: ULT's turn, 1: external thread's turn */

static void player(int me)
{
    ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&mmem);
    ABT_cond c = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    for (int i = 0; i < ROUNDS; i++) {
        CHECK_ABT(ABT_mutex_lock(m));
        while (turn != me)
            CHECK_ABT(ABT_cond_wait(c, m));
        turn = 1 - me;
        CHECK_ABT(ABT_cond_signal(c));
        CHECK_ABT(ABT_mutex_unlock(m));
    }
}

static void ult(void *arg)
{
    (void)arg;
    player(0);
}

static void *ext(void *arg)
{
    (void)arg;
    player(1);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(sizeof(ABT_cond_memory) == 64);
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    pthread_t th;
    ABT_thread t;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    CHECK_ABT(ABT_thread_create(w.pools[1], ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    pthread_join(th, NULL);
    CHECK_EQ_INT(turn, 0);

    ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&mmem);
    ABT_cond c2 = ABT_COND_MEMORY_GET_HANDLE(&inner.c);
    struct timespec ts = sync_abstime(0.01);
    CHECK_ABT(ABT_mutex_lock(m));
    CHECK_ERR(ABT_cond_timedwait(c2, m, &ts), ABT_ERR_COND_TIMEDOUT);
    CHECK_ABT(ABT_cond_signal(c2));
    CHECK_ABT(ABT_mutex_unlock(m));

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
