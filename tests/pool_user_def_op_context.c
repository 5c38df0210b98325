/* pool_user_def_op_context: the pool context a 1.2 user-defined pool's callbacks receive
 * from the ABT_pool_* thread routines is Argobots': ABT_POOL_CONTEXT_OP_POOL_OTHER for
 * ABT_pool_pop_thread, ABT_pool_pop_threads, ABT_pool_push_thread,
 * ABT_pool_push_threads and ABT_pool_pop_wait_thread; the _ex variants pass the
 * caller's context through unchanged; ULT creation pushes with
 * ABT_POOL_CONTEXT_OP_THREAD_CREATE. */
#include "test.h"

#define NT 3

typedef struct unit {
    ABT_thread thread;
    struct unit *next;
} unit_t;

static unit_t *qhead, *qtail; /* one stream: no lock */
static size_t qsize;
static ABT_pool_context last_push_ctx, last_pop_ctx;
static int n_push, n_pop;

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    CHECK(u != NULL);
    u->thread = t;
    return (ABT_unit)u;
}
static void free_unit(ABT_pool pool, ABT_unit unit) { free(unit); }
static ABT_bool is_empty(ABT_pool pool) { return qsize == 0 ? ABT_TRUE : ABT_FALSE; }
static void qpush(unit_t *u)
{
    u->next = NULL;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
    qsize++;
}
static ABT_thread qpop(void)
{
    unit_t *u = qhead;
    if (!u)
        return ABT_THREAD_NULL;
    qhead = u->next;
    if (!qhead)
        qtail = NULL;
    qsize--;
    return u->thread;
}
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    last_push_ctx = ctx;
    n_push++;
    qpush((unit_t *)unit);
}
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    last_pop_ctx = ctx;
    n_pop++;
    return qpop();
}
static ABT_thread pop_wait(ABT_pool pool, double secs, ABT_pool_context ctx)
{
    last_pop_ctx = ctx;
    n_pop++;
    return qpop();
}
static void pop_many(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num,
                     ABT_pool_context ctx)
{
    last_pop_ctx = ctx;
    n_pop++;
    size_t n = 0;
    while (n < len && (threads[n] = qpop()) != ABT_THREAD_NULL)
        n++;
    *num = n;
}
static void push_many(ABT_pool pool, const ABT_unit *units, size_t num, ABT_pool_context ctx)
{
    last_push_ctx = ctx;
    n_push++;
    for (size_t i = 0; i < num; i++)
        qpush((unit_t *)units[i]);
}

static void func(void *arg) { (void)arg; }

#define EXPECT_POP(call, ctx)                    \
    do {                                         \
        int before_ = n_pop;                     \
        last_pop_ctx = (ABT_pool_context)0x7777; \
        CHECK_ABT(call);                         \
        CHECK_EQ_INT(n_pop, before_ + 1);        \
        CHECK_EQ_INT(last_pop_ctx, ctx);         \
    } while (0)

#define EXPECT_PUSH(call, ctx)                    \
    do {                                          \
        int before_ = n_push;                     \
        last_push_ctx = (ABT_pool_context)0x7777; \
        CHECK_ABT(call);                          \
        CHECK_EQ_INT(n_push, before_ + 1);        \
        CHECK_EQ_INT(last_push_ctx, ctx);         \
    } while (0)

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_pop_wait(def, pop_wait));
    CHECK_ABT(ABT_pool_user_def_set_pop_many(def, pop_many));
    CHECK_ABT(ABT_pool_user_def_set_push_many(def, push_many));
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&def));

    ABT_thread t[NT], got[NT];
    for (int i = 0; i < NT; i++)
        EXPECT_PUSH(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t[i]),
                    ABT_POOL_CONTEXT_OP_THREAD_CREATE);

    const ABT_pool_context mine = ABT_POOL_CONTEXT_OWNER_SECONDARY;
    EXPECT_POP(ABT_pool_pop_thread(pool, &got[0]), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    EXPECT_PUSH(ABT_pool_push_thread(pool, got[0]), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    EXPECT_POP(ABT_pool_pop_thread_ex(pool, &got[0], mine), mine);
    EXPECT_PUSH(ABT_pool_push_thread_ex(pool, got[0], mine), mine);
    EXPECT_POP(ABT_pool_pop_wait_thread(pool, &got[0], 0.01), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    EXPECT_PUSH(ABT_pool_push_thread(pool, got[0]), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    EXPECT_POP(ABT_pool_pop_wait_thread_ex(pool, &got[0], 0.01, mine), mine);
    EXPECT_PUSH(ABT_pool_push_thread(pool, got[0]), ABT_POOL_CONTEXT_OP_POOL_OTHER);

    size_t n = 0;
    EXPECT_POP(ABT_pool_pop_threads(pool, got, NT, &n), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    CHECK_EQ_INT(n, NT);
    EXPECT_PUSH(ABT_pool_push_threads(pool, got, NT), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    EXPECT_POP(ABT_pool_pop_threads_ex(pool, got, NT, &n, mine), mine);
    CHECK_EQ_INT(n, NT);
    EXPECT_PUSH(ABT_pool_push_threads_ex(pool, got, NT, mine), mine);

    /* run them on the primary's pool and free everything */
    ABT_xstream xs;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    CHECK_ABT(ABT_pool_pop_threads(pool, got, NT, &n));
    CHECK_EQ_INT(n, NT);
    CHECK_ABT(ABT_pool_push_threads(main_pool, got, NT));
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
