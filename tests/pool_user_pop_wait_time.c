/* pool_user_pop_wait_time: ABT_pool_pop_wait, ABT_pool_pop_wait_thread and
 * ABT_pool_pop_wait_thread_ex on a 1.2 user-defined pool call its pop_wait with exactly
 * the time they were given, in seconds, as Argobots does (1.0 arrives as 1.0, not as a
 * value rounded through nanoseconds), and with the context Argobots passes
 * (ABT_POOL_CONTEXT_OP_POOL_OTHER, or the _ex caller's).  What pop_wait returns is what
 * the caller gets: a ULT when the pool holds one (ABT_pool_pop_wait: its unit), else the
 * null handle. */
#include "test.h"

typedef struct unit {
    ABT_thread thread;
    struct unit *next;
} unit_t;

static unit_t *qhead; /* one stream, LIFO: no lock */
static double last_secs;
static ABT_pool_context last_ctx;
static int n_wait;

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    CHECK(u != NULL);
    u->thread = t;
    return (ABT_unit)u;
}
static void free_unit(ABT_pool pool, ABT_unit unit) { free(unit); }
static ABT_bool is_empty(ABT_pool pool) { return qhead ? ABT_FALSE : ABT_TRUE; }
static ABT_thread qpop(void)
{
    unit_t *u = qhead;
    if (!u)
        return ABT_THREAD_NULL;
    qhead = u->next;
    return u->thread;
}
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    unit_t *u = (unit_t *)unit;
    u->next = qhead;
    qhead = u;
}
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx) { return qpop(); }
static ABT_thread pop_wait(ABT_pool pool, double secs, ABT_pool_context ctx)
{
    last_secs = secs;
    last_ctx = ctx;
    n_wait++;
    return qpop(); /* never sleeps: the test needs only the arguments */
}

static void func(void *arg) { (void)arg; }

static const double times[] = { 1.0, 0.25, 1.0e-3, 3.0e-7, 2.5 };

#define EXPECT_WAIT(call, secs, ctx)                                                      \
    do {                                                                                  \
        int before_ = n_wait;                                                             \
        last_secs = -1.0;                                                                 \
        last_ctx = (ABT_pool_context)0x7777;                                              \
        CHECK_ABT(call);                                                                  \
        CHECK_EQ_INT(n_wait, before_ + 1);                                                \
        if (last_secs != (secs))                                                          \
            TEST_FAIL("%s: pop_wait got %.17g seconds, expected %.17g", #call, last_secs, \
                      (double)(secs));                                                    \
        CHECK_EQ_INT(last_ctx, ctx);                                                      \
    } while (0)

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_pop_wait(def, pop_wait));
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&def));
    ABT_xstream xs;
    ABT_pool main_pool;
    CHECK_ABT(ABT_self_get_xstream(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    const ABT_pool_context ctx = ABT_POOL_CONTEXT_OWNER_PRIMARY | ABT_POOL_CONTEXT_OP_POOL_OTHER;

    for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
        double s = times[i];
        /* empty: the null handle */
        ABT_unit unit = (ABT_unit)(intptr_t)0x10;
        ABT_thread th = (ABT_thread)(intptr_t)0x10;
        EXPECT_WAIT(ABT_pool_pop_wait(pool, &unit, s), s, ABT_POOL_CONTEXT_OP_POOL_OTHER);
        CHECK(unit == ABT_UNIT_NULL);
        EXPECT_WAIT(ABT_pool_pop_wait_thread(pool, &th, s), s, ABT_POOL_CONTEXT_OP_POOL_OTHER);
        CHECK(th == ABT_THREAD_NULL);
        th = (ABT_thread)(intptr_t)0x10;
        EXPECT_WAIT(ABT_pool_pop_wait_thread_ex(pool, &th, s, ctx), s, ctx);
        CHECK(th == ABT_THREAD_NULL);

        /* a ULT in the pool: pop_wait's answer is returned */
        ABT_thread t;
        CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
        EXPECT_WAIT(ABT_pool_pop_wait_thread(pool, &th, s), s, ABT_POOL_CONTEXT_OP_POOL_OTHER);
        CHECK_EQ_PTR(th, t);
        CHECK_ABT(ABT_pool_push_thread(pool, t));
        EXPECT_WAIT(ABT_pool_pop_wait_thread_ex(pool, &th, s, ctx), s, ctx);
        CHECK_EQ_PTR(th, t);
        CHECK_ABT(ABT_pool_push_thread(pool, t));
        EXPECT_WAIT(ABT_pool_pop_wait(pool, &unit, s), s, ABT_POOL_CONTEXT_OP_POOL_OTHER);
        CHECK(unit != ABT_UNIT_NULL);
        ABT_thread ut;
        CHECK_ABT(ABT_unit_get_thread(unit, &ut));
        CHECK_EQ_PTR(ut, t);
        /* to the primary stream's pool, which its scheduler serves, to end it */
        CHECK_ABT(ABT_pool_push_thread(main_pool, t));
        CHECK_ABT(ABT_thread_free(&t));
    }
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
