/* sync_weft_rwlock_static: WEFT_RWLOCK_INITIALIZER memory (and zeroed, int-aligned
 * memory) is an unlocked rwlock usable by ULTs on two streams and an external thread;
 * ABT_rwlock_free refuses it. */
#include "sync_test.h"

#include <weft.h>

static weft_rwlock_memory mem = WEFT_RWLOCK_INITIALIZER;
static struct {
    char c;
    weft_rwlock_memory m;
} inner;
static long counter, counter2;

#define N_FULL 10000
static int N = N_FULL; /* a twentieth under valgrind and the sanitizers (WEFT_TEST_SLOW) */

static void work(void *arg)
{
    (void)arg;
    ABT_rwlock l1 = WEFT_RWLOCK_MEMORY_GET_HANDLE(&mem);
    ABT_rwlock l2 = WEFT_RWLOCK_MEMORY_GET_HANDLE(&inner.m);
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_rwlock_wrlock(l1));
        counter++;
        CHECK_ABT(ABT_rwlock_unlock(l1));
        CHECK_ABT(ABT_rwlock_rdlock(l1));
        CHECK(counter > 0);
        CHECK_ABT(ABT_rwlock_unlock(l1));
        CHECK_ABT(ABT_rwlock_wrlock(l2));
        counter2++;
        CHECK_ABT(ABT_rwlock_unlock(l2));
    }
}

static void *ext(void *arg)
{
    work(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    N = N_FULL / test_scale_div();
    CHECK(sizeof(weft_rwlock_memory) == 64);
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    ABT_thread ts[4];
    sync_spawn(&w, 4, work, NULL, 0, ts);
    sync_join_all(4, ts);
    pthread_join(th, NULL);
    CHECK_EQ_INT(counter, 5L * N);
    CHECK_EQ_INT(counter2, 5L * N);

    ABT_rwlock h = WEFT_RWLOCK_MEMORY_GET_HANDLE(&mem);
    CHECK_ERR(ABT_rwlock_free(&h), ABT_ERR_INV_RWLOCK);
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
