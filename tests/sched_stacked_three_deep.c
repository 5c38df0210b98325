/* sched_stacked_three_deep: schedulers stacked three deep on one secondary stream.
 *
 *   main sched M (BASIC, pool P0)          P0  = [U0a, S1, U0b]
 *     S1 (ABT_sched_create_basic, BASIC)   P1a = [U1a, S2, U1b], P1b = [U1c]
 *       S2 (user-defined ABT_sched_def)    P2  = [U2a, S3, U2b]
 *         S3 (ABT_sched_create_basic)      P3  = [U3a, U3b]
 *
 * S1..S3 are pushed with ABT_pool_add_sched.  Everything is queued before the stream
 * starts, so the run is deterministic: every ULT records its start, yields once (back to
 * its own pool, so its own scheduler resumes it) and records its end; a stacked
 * scheduler runs until its pools are empty, then returns control to its parent, which
 * goes on with the units queued behind it.  So the trace is fully nested.  Inside every
 * ULT (and inside the user-defined scheduler), ABT_self_get_xstream / _xstream_rank /
 * _last_pool / _get_type / _on_primary_xstream / ABT_xstream_get_main_sched answer for
 * the secondary stream and the unit's own pool.  S1 and S3 are automatic and go away by
 * themselves; the user-defined S2 is freed by the program afterwards (its init and free
 * callbacks run once each).  A second round re-adds S2 (stacked schedulers can be reused
 * once finished) under the primary stream's main scheduler. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>

static char trace[256];
static atomic_int tlen;
static ABT_xstream xs1, xs2;
static atomic_int gate;
static atomic_int s2_init_calls, s2_free_calls, s2_runs;
static ABT_xstream s2_expected_xs;

static void rec(const char *tok)
{
    size_t n = strlen(tok);
    int at = atomic_fetch_add(&tlen, (int)n + 1);
    if (at + (int)n + 1 >= (int)sizeof(trace))
        TEST_FAIL("trace overflow");
    memcpy(trace + at, tok, n);
    trace[at + n] = ' ';
}

struct uarg {
    const char *name; /* two characters: level digit, letter */
    ABT_pool pool;    /* the pool it was created in */
    ABT_xstream *xs;  /* the stream it must run on (read when it runs) */
    ABT_sched msched; /* that stream's main scheduler */
};

static void check_context(const struct uarg *a)
{
    ABT_xstream me, me2;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, *a->xs);
    CHECK_ABT(ABT_xstream_self(&me2));
    CHECK_EQ_PTR(me2, *a->xs);
    int rank = -1, xrank = -2;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    CHECK_ABT(ABT_xstream_get_rank(*a->xs, &xrank));
    CHECK_EQ_INT(rank, xrank);
    ABT_pool last;
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, a->pool);
    ABT_unit_type type;
    CHECK_ABT(ABT_self_get_type(&type));
    CHECK_EQ_INT(type, ABT_UNIT_TYPE_THREAD);
    ABT_bool on_primary = ABT_FALSE;
    CHECK_ABT(ABT_self_on_primary_xstream(&on_primary));
    CHECK_EQ_INT(on_primary, *a->xs == xs1 ? ABT_TRUE : ABT_FALSE);
    ABT_bool is_primary = ABT_TRUE;
    CHECK_ABT(ABT_self_is_primary(&is_primary));
    CHECK_EQ_INT(is_primary, ABT_FALSE);
    ABT_sched ms;
    CHECK_ABT(ABT_xstream_get_main_sched(*a->xs, &ms));
    CHECK_EQ_PTR(ms, a->msched);
}

static void ult(void *arg)
{
    struct uarg *a = arg;
    char tok[3] = { a->name[0], a->name[1], 0 };
    check_context(a);
    rec(tok);
    CHECK_ABT(ABT_thread_yield());
    check_context(a);
    tok[1] = (char)(tok[1] - 'a' + 'A');
    rec(tok);
}

/* First unit of the secondary stream: holds it until main() has published xs2. */
static void gate_ult(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        sched_yield(); /* spin politely (valgrind/TSan) */
}

/* ---- the user-defined scheduler (level 2) ---- */
static int s2_init(ABT_sched sched, ABT_sched_config config)
{
    (void)sched;
    (void)config;
    atomic_fetch_add(&s2_init_calls, 1);
    return ABT_SUCCESS;
}

static int s2_free(ABT_sched sched)
{
    (void)sched;
    atomic_fetch_add(&s2_free_calls, 1);
    return ABT_SUCCESS;
}

static void s2_run(ABT_sched sched)
{
    atomic_fetch_add(&s2_runs, 1);
    rec("S2<");
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, s2_expected_xs);
    int num_pools = 0;
    CHECK_ABT(ABT_sched_get_num_pools(sched, &num_pools));
    CHECK_EQ_INT(num_pools, 1);
    ABT_pool pool;
    CHECK_ABT(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (int iter = 0;; iter++) {
        ABT_thread t = ABT_THREAD_NULL;
        CHECK_ABT(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL)
            CHECK_ABT(ABT_self_schedule(t, ABT_POOL_NULL));
        if (t == ABT_THREAD_NULL || (iter & 7) == 7) {
            ABT_bool stop = ABT_FALSE;
            CHECK_ABT(ABT_xstream_check_events(sched));
            CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
            if (iter > 1000000)
                TEST_FAIL("stacked user scheduler never told to stop");
        }
    }
    size_t size = 1;
    CHECK_ABT(ABT_pool_get_size(pool, &size));
    CHECK_EQ_INT(size, 0);
    rec("S2>");
}

static ABT_thread mk(ABT_pool pool, struct uarg *a, const char *name, ABT_xstream *xs, ABT_sched ms)
{
    a->name = name;
    a->pool = pool;
    a->xs = xs;
    a->msched = ms;
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, ult, a, ABT_THREAD_ATTR_NULL, &t));
    return t;
}

static ABT_pool new_pool(void)
{
    ABT_pool p;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
    return p;
}

static void check_trace(const char *expected)
{
    trace[atomic_load(&tlen)] = 0;
    if (strcmp(trace, expected) != 0)
        TEST_FAIL("trace\n  got      \"%s\"\n  expected \"%s\"", trace, expected);
    atomic_store(&tlen, 0);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&xs1));

    ABT_sched_def s2_def = { .type = ABT_SCHED_TYPE_ULT,
                             .init = s2_init,
                             .run = s2_run,
                             .free = s2_free,
                             .get_migr_pool = NULL };
    ABT_pool p0 = new_pool(), p1a = new_pool(), p1b = new_pool(), p2 = new_pool(), p3 = new_pool();
    ABT_pool p1[2] = { p1a, p1b };
    ABT_sched main_sched, s1, s2, s3;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, p1, ABT_SCHED_CONFIG_NULL, &s1));
    CHECK_ABT(ABT_sched_create(&s2_def, 1, &p2, ABT_SCHED_CONFIG_NULL, &s2));
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &p3, ABT_SCHED_CONFIG_NULL, &s3));
    CHECK_EQ_INT(atomic_load(&s2_init_calls), 1);
    /* The main scheduler exists before the stream so every ULT can be told about it. */
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &p0, ABT_SCHED_CONFIG_NULL, &main_sched));

    /* ---- round 1: three levels under the main scheduler of a secondary stream ---- */
    static struct uarg args[10];
    ABT_thread ts[10], gate_t;
    int n = 0;
    ts[n] = mk(p3, &args[n], "3a", &xs2, main_sched), n++;
    ts[n] = mk(p3, &args[n], "3b", &xs2, main_sched), n++;
    ts[n] = mk(p2, &args[n], "2a", &xs2, main_sched), n++;
    CHECK_ABT(ABT_pool_add_sched(p2, s3));
    ts[n] = mk(p2, &args[n], "2b", &xs2, main_sched), n++;
    ts[n] = mk(p1a, &args[n], "1a", &xs2, main_sched), n++;
    CHECK_ABT(ABT_pool_add_sched(p1a, s2));
    ts[n] = mk(p1a, &args[n], "1b", &xs2, main_sched), n++;
    ts[n] = mk(p1b, &args[n], "1c", &xs2, main_sched), n++;
    CHECK_ABT(ABT_thread_create(p0, gate_ult, NULL, ABT_THREAD_ATTR_NULL, &gate_t));
    ts[n] = mk(p0, &args[n], "0a", &xs2, main_sched), n++;
    CHECK_ABT(ABT_pool_add_sched(p0, s1));
    ts[n] = mk(p0, &args[n], "0b", &xs2, main_sched), n++;
    /* Already in a pool: cannot be added twice. */
    CHECK_ERR(ABT_pool_add_sched(p0, s2), ABT_ERR_INV_SCHED);

    CHECK_ABT(ABT_xstream_create(main_sched, &xs2));
    s2_expected_xs = xs2;
    atomic_store(&gate, 1);
    CHECK_ABT(ABT_thread_free(&gate_t));
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    check_trace("0a 1a S2< 2a 3a 3b 3A 3B 2b 2A 2B S2> 1b 1A 1B 1c 1C 0b 0A 0B ");
    CHECK_EQ_INT(atomic_load(&s2_runs), 1);
    CHECK_EQ_INT(atomic_load(&s2_free_calls), 0);

    /* ---- round 2: the finished user-defined scheduler is stacked again, now under the
     * primary stream's main scheduler; the primary ULT yields to let it run. ---- */
    ABT_pool pp;
    ABT_sched psched;
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pp));
    CHECK_ABT(ABT_xstream_get_main_sched(xs1, &psched));
    s2_expected_xs = xs1;
    ABT_thread x = mk(p2, &args[0], "2x", &xs1, psched);
    CHECK_ABT(ABT_pool_add_sched(pp, s2));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 100000; i++) {
        CHECK_ABT(ABT_thread_get_state(x, &st));
        if (st == ABT_THREAD_STATE_TERMINATED)
            break;
        CHECK_ABT(ABT_thread_yield());
    }
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&x));
    /* Let the stacked scheduler's ULT finish too, if it has not yet. */
    for (int i = 0; i < 10; i++)
        CHECK_ABT(ABT_thread_yield());
    check_trace("S2< 2x 2X S2> ");
    CHECK_EQ_INT(atomic_load(&s2_runs), 2);

    CHECK_ABT(ABT_sched_free(&s2));
    CHECK_EQ_INT(atomic_load(&s2_free_calls), 1);
    CHECK(s2 == ABT_SCHED_NULL);
    CHECK_ABT(ABT_finalize());
    return 0;
}
