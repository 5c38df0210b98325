/* pool_user_def_callbacks: every optional callback registered with the
 * ABT_pool_user_def_set_* routines is what the matching pool routine calls:
 * init (once, given the ABT_pool_config passed to ABT_pool_create, whose user key it can
 * read), get_size (ABT_pool_get_size), print_all (ABT_pool_print_all_threads, and
 * ABT_pool_print_all with the pool's own units), pop_many (ABT_pool_pop_threads),
 * push_many (ABT_pool_push_threads), pop_wait (ABT_pool_pop_wait_thread) and free
 * (ABT_pool_free).  The definition may be freed right after ABT_pool_create.  ULTs
 * created into the pool keep FIFO order through these calls, ABT_pool_pop returns one of
 * the pool's units (ABT_unit_get_thread maps it back) and ABT_pool_push accepts it. */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

#define MAGIC 0x600dcafe
#define NT    8

typedef struct unit {
    int magic;
    ABT_thread thread;
    struct unit *next;
} unit_t;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static unit_t *qhead, *qtail;
static size_t qsize;
static atomic_long live_units;
static int n_init, n_free, n_get_size, n_pop_wait, n_pop_many, n_push_many, n_print_all;
static int init_key_value;
static ABT_thread ts[NT];

static void enqueue(unit_t *u)
{
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

static unit_t *dequeue(void)
{
    pthread_mutex_lock(&qlock);
    unit_t *u = qhead;
    if (u) {
        qhead = u->next;
        if (!qhead)
            qtail = NULL;
        qsize--;
    }
    pthread_mutex_unlock(&qlock);
    return u;
}

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    unit_t *u = malloc(sizeof(*u));
    CHECK(u != NULL);
    u->magic = MAGIC;
    u->thread = t;
    atomic_fetch_add(&live_units, 1);
    return (ABT_unit)u;
}

static void free_unit(ABT_pool pool, ABT_unit unit)
{
    unit_t *u = (unit_t *)unit;
    CHECK(u->magic == MAGIC);
    u->magic = 0;
    free(u);
    atomic_fetch_sub(&live_units, 1);
}

static ABT_bool is_empty(ABT_pool pool) { return qsize == 0 ? ABT_TRUE : ABT_FALSE; }
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx) { enqueue((unit_t *)unit); }

static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    unit_t *u = dequeue();
    return u ? u->thread : ABT_THREAD_NULL;
}

static int pool_init(ABT_pool pool, ABT_pool_config config)
{
    n_init++;
    ABT_pool_config_type type;
    CHECK_ABT(ABT_pool_config_get(config, 7, &type, &init_key_value));
    CHECK_EQ_INT(type, ABT_POOL_CONFIG_INT);
    return ABT_SUCCESS;
}

static void pool_free(ABT_pool pool)
{
    n_free++;
    CHECK_EQ_INT(atomic_load(&live_units), 0);
}

static size_t get_size(ABT_pool pool)
{
    n_get_size++;
    return qsize;
}

static ABT_thread pop_wait(ABT_pool pool, double secs, ABT_pool_context ctx)
{
    n_pop_wait++;
    CHECK(secs > 0.0);
    unit_t *u = dequeue();
    return u ? u->thread : ABT_THREAD_NULL;
}

static void pop_many(ABT_pool pool, ABT_thread *threads, size_t max, size_t *num,
                     ABT_pool_context ctx)
{
    n_pop_many++;
    size_t n = 0;
    unit_t *u;
    while (n < max && (u = dequeue()))
        threads[n++] = u->thread;
    *num = n;
}

static void push_many(ABT_pool pool, const ABT_unit *units, size_t num, ABT_pool_context ctx)
{
    n_push_many++;
    for (size_t i = 0; i < num; i++)
        enqueue((unit_t *)units[i]);
}

static void print_all(ABT_pool pool, void *arg, void (*fn)(void *, ABT_thread))
{
    n_print_all++;
    pthread_mutex_lock(&qlock);
    for (unit_t *u = qhead; u; u = u->next)
        fn(arg, u->thread);
    pthread_mutex_unlock(&qlock);
}

static ABT_thread printed[NT];
static int nprinted;
static void print_thread(void *arg, ABT_thread t)
{
    CHECK(nprinted < NT);
    printed[nprinted++] = t;
}

static void print_unit(void *arg, ABT_unit unit)
{
    unit_t *u = (unit_t *)unit;
    CHECK(u->magic == MAGIC);
    CHECK(nprinted < NT);
    printed[nprinted++] = u->thread;
}

static atomic_int ran[NT];
static void ult(void *arg) { atomic_fetch_add(&ran[(intptr_t)arg], 1); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));

    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK(def != ABT_POOL_USER_DEF_NULL);
    CHECK_ABT(ABT_pool_user_def_set_init(def, pool_init));
    CHECK_ABT(ABT_pool_user_def_set_free(def, pool_free));
    CHECK_ABT(ABT_pool_user_def_set_get_size(def, get_size));
    CHECK_ABT(ABT_pool_user_def_set_pop_wait(def, pop_wait));
    CHECK_ABT(ABT_pool_user_def_set_pop_many(def, pop_many));
    CHECK_ABT(ABT_pool_user_def_set_push_many(def, push_many));
    CHECK_ABT(ABT_pool_user_def_set_print_all(def, print_all));

    ABT_pool_config cfg;
    CHECK_ABT(ABT_pool_config_create(&cfg));
    int v = 42;
    CHECK_ABT(ABT_pool_config_set(cfg, 7, ABT_POOL_CONFIG_INT, &v));
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, cfg, &pool));
    CHECK_EQ_INT(n_init, 1);
    CHECK_EQ_INT(init_key_value, 42);
    CHECK_ABT(ABT_pool_config_free(&cfg));
    CHECK_ABT(ABT_pool_user_def_free(&def));
    CHECK(def == ABT_POOL_USER_DEF_NULL);

    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_create(pool, ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ts[i]));

    size_t size = 0;
    CHECK_ABT(ABT_pool_get_size(pool, &size));
    CHECK_EQ_INT(size, NT);
    CHECK(n_get_size >= 1);
    ABT_bool empty;
    CHECK_ABT(ABT_pool_is_empty(pool, &empty));
    CHECK(empty == ABT_FALSE);

    CHECK_ABT(ABT_pool_print_all_threads(pool, NULL, print_thread));
    CHECK_EQ_INT(n_print_all, 1);
    CHECK_EQ_INT(nprinted, NT);
    for (int i = 0; i < NT; i++)
        CHECK(printed[i] == ts[i]);
    nprinted = 0;
    CHECK_ABT(ABT_pool_print_all(pool, NULL, print_unit));
    CHECK_EQ_INT(n_print_all, 2);
    CHECK_EQ_INT(nprinted, NT);
    for (int i = 0; i < NT; i++)
        CHECK(printed[i] == ts[i]);

    /* pop_many takes the three oldest; push_many puts them back at the tail */
    ABT_thread got[3];
    size_t num = 0;
    CHECK_ABT(ABT_pool_pop_threads(pool, got, 3, &num));
    CHECK_EQ_INT(n_pop_many, 1);
    CHECK_EQ_INT(num, 3);
    for (int i = 0; i < 3; i++)
        CHECK(got[i] == ts[i]);
    CHECK_ABT(ABT_pool_push_threads(pool, got, 3));
    CHECK_EQ_INT(n_push_many, 1);
    CHECK_ABT(ABT_pool_get_size(pool, &size));
    CHECK_EQ_INT(size, NT);

    /* pool order now: 3 4 5 6 7 0 1 2 */
    ABT_thread t;
    CHECK_ABT(ABT_pool_pop_wait_thread(pool, &t, 0.5));
    CHECK_EQ_INT(n_pop_wait, 1);
    CHECK(t == ts[3]);
    CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    CHECK_ABT(ABT_pool_pop_thread(pool, &t));
    CHECK(t == ts[4]);
    CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    ABT_unit unit;
    CHECK_ABT(ABT_pool_pop(pool, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    CHECK(((unit_t *)unit)->magic == MAGIC);
    CHECK(((unit_t *)unit)->thread == ts[5]);
    CHECK_ABT(ABT_unit_get_thread(unit, &t));
    CHECK(t == ts[5]);
    CHECK_ABT(ABT_pool_push(main_pool, unit));
    /* the rest, by handle */
    for (;;) {
        CHECK_ABT(ABT_pool_pop_thread(pool, &t));
        if (t == ABT_THREAD_NULL)
            break;
        CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    }
    CHECK_ABT(ABT_pool_is_empty(pool, &empty));
    CHECK(empty == ABT_TRUE);
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    for (int i = 0; i < NT; i++)
        CHECK_EQ_INT(atomic_load(&ran[i]), 1);

    CHECK_EQ_INT(n_free, 0);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_EQ_INT(n_free, 1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
