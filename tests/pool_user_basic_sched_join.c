/* pool_user_basic_sched_join: a 1.2-style user pool serves as the only pool of a
 * predefined BASIC scheduler on a secondary stream.  200 parent ULTs each create a child
 * ULT into the same pool and join it, so ULTs block and are made ready again through the
 * pool (push with ABT_POOL_CONTEXT_OP_THREAD_RESUME or a direct hand-off), and yield.
 * Every ULT runs once on the secondary stream; all units are freed when the pool is. */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

#define NP 200
typedef struct unit {
    ABT_thread thread;
    struct unit *next;
} unit_t;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static unit_t *qhead, *qtail;
static size_t qsize;
static atomic_long live_units, children, parents;
static ABT_pool pool;

static ABT_unit create_unit(ABT_pool p, ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    u->thread = t;
    atomic_fetch_add(&live_units, 1);
    return (ABT_unit)u;
}
static void free_unit(ABT_pool p, ABT_unit u)
{
    free(u);
    atomic_fetch_sub(&live_units, 1);
}
static ABT_bool is_empty(ABT_pool p)
{
    pthread_mutex_lock(&qlock);
    ABT_bool e = qsize ? ABT_FALSE : ABT_TRUE;
    pthread_mutex_unlock(&qlock);
    return e;
}
static size_t get_size(ABT_pool p)
{
    pthread_mutex_lock(&qlock);
    size_t s = qsize;
    pthread_mutex_unlock(&qlock);
    return s;
}
static void push(ABT_pool p, ABT_unit unit, ABT_pool_context c)
{
    unit_t *u = (unit_t *)unit;
    pthread_mutex_lock(&qlock);
    u->next = NULL;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
    qsize++;
    pthread_mutex_unlock(&qlock);
}
static ABT_thread pop(ABT_pool p, ABT_pool_context c)
{
    pthread_mutex_lock(&qlock);
    unit_t *u = qhead;
    if (u) {
        if (!(qhead = u->next))
            qtail = NULL;
        qsize--;
    }
    pthread_mutex_unlock(&qlock);
    return u ? u->thread : ABT_THREAD_NULL;
}

static void child(void *arg)
{
    CHECK_ABT(ABT_thread_yield());
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    CHECK(rank != 0);
    atomic_fetch_add(&children, 1);
}

static void parent(void *arg)
{
    ABT_thread c;
    CHECK_ABT(ABT_thread_create(pool, child, NULL, ABT_THREAD_ATTR_NULL, &c));
    if ((intptr_t)arg & 1)
        CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_free(&c));
    atomic_fetch_add(&parents, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_get_size(def, get_size));
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&def));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs));

    static ABT_thread ps[NP];
    for (int i = 0; i < NP; i++)
        CHECK_ABT(
            ABT_thread_create(pool, parent, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ps[i]));
    for (int i = 0; i < NP; i++)
        CHECK_ABT(ABT_thread_free(&ps[i]));
    CHECK_EQ_INT(atomic_load(&parents), NP);
    CHECK_EQ_INT(atomic_load(&children), NP);
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_EQ_INT(atomic_load(&live_units), 0);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
