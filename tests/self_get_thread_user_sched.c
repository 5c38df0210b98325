/* self_get_thread_user_sched: inside the run function of a user-defined scheduler, the
 * calling work unit is the scheduler's ULT, as in Argobots:
 *   ABT_self_get_thread and ABT_thread_self succeed and return the same handle, not
 *   ABT_THREAD_NULL, the same one on every call of one run, and different from every unit
 *   the scheduler runs; ABT_self_get_thread_id equals ABT_thread_get_id of it;
 *   ABT_self_get_type reports ABT_UNIT_TYPE_THREAD; ABT_self_is_primary reports ABT_FALSE;
 *   ABT_thread_get_state of the handle is ABT_THREAD_STATE_RUNNING.
 * Children run through the documented loop (ABT_pool_pop, ABT_xstream_run_unit) still see
 * themselves.  Checked with the scheduler as the main scheduler of a secondary stream, as
 * the main scheduler of the primary stream, and stacked with ABT_pool_add_sched. */
#include "test.h"
#include <stdatomic.h>
#include <unistd.h>

#define NCHILD 8

static ABT_thread children[NCHILD];
static atomic_int child_ok, sched_checks;

static void check_sched_self(ABT_thread *first)
{
    ABT_thread h = ABT_THREAD_NULL, h2 = ABT_THREAD_NULL;
    int r = ABT_self_get_thread(&h);
    if (r != ABT_SUCCESS)
        TEST_FAIL("ABT_self_get_thread in a user scheduler returned %d (%s)", r, test_errname(r));
    CHECK(h != ABT_THREAD_NULL);
    CHECK_ABT(ABT_thread_self(&h2));
    CHECK_EQ_PTR(h2, h);
    if (*first == ABT_THREAD_NULL)
        *first = h;
    CHECK_EQ_PTR(h, *first);
    for (int i = 0; i < NCHILD; i++)
        CHECK(h != children[i]);
    ABT_unit_id id, id2;
    CHECK_ABT(ABT_self_get_thread_id(&id));
    CHECK_ABT(ABT_thread_get_id(h, &id2));
    CHECK_EQ_INT(id, id2);
    ABT_unit_type type;
    CHECK_ABT(ABT_self_get_type(&type));
    CHECK_EQ_INT(type, ABT_UNIT_TYPE_THREAD);
    ABT_bool prim = ABT_TRUE;
    CHECK_ABT(ABT_self_is_primary(&prim));
    CHECK_EQ_INT(prim, ABT_FALSE);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(h, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);
    atomic_fetch_add(&sched_checks, 1);
}

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    ABT_thread first = ABT_THREAD_NULL;
    CHECK_ABT(ABT_sched_get_pools(sched, 1, 0, &pool));
    check_sched_self(&first);
    for (;;) {
        ABT_unit unit;
        CHECK_ABT(ABT_pool_pop(pool, &unit));
        if (unit != ABT_UNIT_NULL) {
            CHECK_ABT(ABT_xstream_run_unit(unit, pool));
            check_sched_self(&first);
            continue;
        }
        ABT_bool stop;
        CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
        if (stop)
            break;
        CHECK_ABT(ABT_xstream_check_events(sched));
    }
}

static ABT_sched_def def = {
    .type = ABT_SCHED_TYPE_ULT,
    .init = NULL,
    .run = sched_run,
    .free = NULL,
    .get_migr_pool = NULL,
};

static void child(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_thread me;
    CHECK_ABT(ABT_self_get_thread(&me));
    CHECK_EQ_PTR(me, children[i]);
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_self_get_thread(&me));
    CHECK_EQ_PTR(me, children[i]);
    atomic_fetch_add(&child_ok, 1);
}

static void create_children(ABT_pool pool)
{
    for (int i = 0; i < NCHILD; i++)
        CHECK_ABT(ABT_thread_create(pool, child, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                    &children[i]));
}

static void free_children(const char *what)
{
    for (int i = 0; i < NCHILD; i++) {
        ABT_thread t = children[i]; /* the scheduler may still compare with children[] */
        CHECK_ABT(ABT_thread_free(&t));
    }
    if (atomic_load(&child_ok) != NCHILD || atomic_load(&sched_checks) == 0)
        TEST_FAIL("%s: %d children ok, %d checks in the scheduler", what, atomic_load(&child_ok),
                  atomic_load(&sched_checks));
    atomic_store(&child_ok, 0);
    atomic_store(&sched_checks, 0);
}

int main(int argc, char **argv)
{
    alarm(120);
    CHECK_ABT(ABT_init(argc, argv));

    /* main scheduler of a secondary stream */
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched s;
    CHECK_ABT(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &s));
    ABT_xstream xs;
    create_children(pool);
    CHECK_ABT(ABT_xstream_create(s, &xs));
    free_children("secondary main");
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&s));

    /* stacked on a secondary stream */
    ABT_pool outer;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &outer));
    CHECK_ABT(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &s));
    create_children(pool);
    CHECK_ABT(ABT_pool_add_sched(outer, s));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &outer, ABT_SCHED_CONFIG_NULL, &xs));
    free_children("stacked");
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&s));
    CHECK_ABT(ABT_pool_free(&outer));

    /* main scheduler of the primary stream (freed by ABT_finalize: automatic) */
    ABT_sched_config cfg;
    CHECK_ABT(
        ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 1, ABT_sched_config_var_end));
    CHECK_ABT(ABT_sched_create(&def, 1, &pool, cfg, &s));
    CHECK_ABT(ABT_sched_config_free(&cfg));
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_set_main_sched(xs, s));
    create_children(pool);
    free_children("primary main");
    CHECK_ABT(ABT_finalize());
    return 0;
}
