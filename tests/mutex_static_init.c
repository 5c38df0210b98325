/* mutex_static_init: ABT_MUTEX_INITIALIZER memory (a global, and one embedded at a 4-byte
 * offset inside a struct, as users do) and plain zeroed memory are unlocked mutexes that
 * protect a counter updated by ULTs on two streams and an external thread, and they are
 * usable before ABT_init. */
#include "sync_test.h"

static ABT_mutex_memory global_mem = ABT_MUTEX_INITIALIZER;

static struct {
    char c;
    ABT_mutex_memory m; /* only int-aligned */
    long counter;
} packed_user = { 0, ABT_MUTEX_INITIALIZER, 0 };

static long global_counter, zero_counter;
static ABT_mutex_memory *zero_mem;

#define N 20000

static void work(void *arg)
{
    (void)arg;
    ABT_mutex g = ABT_MUTEX_MEMORY_GET_HANDLE(&global_mem);
    ABT_mutex p = ABT_MUTEX_MEMORY_GET_HANDLE(&packed_user.m);
    ABT_mutex z = ABT_MUTEX_MEMORY_GET_HANDLE(zero_mem);
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_mutex_lock(g));
        global_counter++;
        CHECK_ABT(ABT_mutex_unlock(g));
        CHECK_ABT(ABT_mutex_lock(p));
        packed_user.counter++;
        CHECK_ABT(ABT_mutex_unlock(p));
        CHECK_ABT(ABT_mutex_lock(z));
        zero_counter++;
        CHECK_ABT(ABT_mutex_unlock(z));
    }
}

static void *ext(void *arg)
{
    work(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(sizeof(ABT_mutex_memory) == 64);
    zero_mem = calloc(1, sizeof(*zero_mem));
    CHECK(zero_mem != NULL);

    /* before ABT_init: an external thread may lock a static mutex */
    CHECK_ABT(ABT_mutex_lock(ABT_MUTEX_MEMORY_GET_HANDLE(&global_mem)));
    CHECK_ERR(ABT_mutex_trylock(ABT_MUTEX_MEMORY_GET_HANDLE(&global_mem)), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(ABT_mutex_unlock(ABT_MUTEX_MEMORY_GET_HANDLE(&global_mem)));

    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    ABT_thread ts[4];
    sync_spawn(&w, 4, work, NULL, 0, ts);
    sync_join_all(4, ts);
    pthread_join(th, NULL);
    CHECK_EQ_INT(global_counter, 5L * N);
    CHECK_EQ_INT(packed_user.counter, 5L * N);
    CHECK_EQ_INT(zero_counter, 5L * N);
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());

    /* never touched by free; unlocked at the end */
    CHECK_ABT(ABT_mutex_trylock(ABT_MUTEX_MEMORY_GET_HANDLE(&packed_user.m)));
    CHECK_ABT(ABT_mutex_unlock(ABT_MUTEX_MEMORY_GET_HANDLE(&packed_user.m)));
    free(zero_mem);
    return 0;
}
