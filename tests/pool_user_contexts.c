/* pool_user_contexts: which unit a 1.2 user-defined pool's push receives, with which
 * operation context, from the routines that switch directly (Argobots 1.2):
 *   ABT_thread_create_to      the caller, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO; the new
 *                             ULT gets its unit (create_unit) but is never pushed: it
 *                             runs before create_to returns;
 *   ABT_thread_revive_to      the caller, _REVIVE_TO; the revived ULT is not pushed and
 *                             keeps its unit;
 *   ABT_self_yield            the caller, _YIELD;
 *   ABT_self_yield_to         the caller, _YIELD_TO (the target, popped first, is not
 *                             pushed);
 *   ABT_thread_resume         the resumed ULT, _RESUME;
 *   ABT_self_resume_yield_to  the caller, _RESUME_YIELD_TO (the target is not pushed).
 * The pool lives on no scheduler: the primary ULT pops from it and runs each ULT with
 * ABT_self_schedule, so the order of events is fixed on one stream. */
#include "test.h"

#define QLEN    16
#define LOGN    64
/* every OP_* bit (abt.h): the test compares the operation, not other hint bits */
#define OP_BITS ((ABT_pool_context)0x3ff000)

static ABT_pool upool;
static ABT_thread q[QLEN]; /* one stream: no lock */
static int qn;
static struct {
    ABT_unit unit;
    ABT_pool_context ctx;
} plog[LOGN];
static int n_push, n_create, n_free;
static int child_runs, sleeper_step;

static ABT_unit p_create_unit(ABT_pool pool, ABT_thread t)
{
    n_create++;
    return (ABT_unit)t;
}
static void p_free_unit(ABT_pool pool, ABT_unit unit) { n_free++; }
static ABT_bool p_is_empty(ABT_pool pool) { return qn == 0 ? ABT_TRUE : ABT_FALSE; }
static ABT_thread p_pop(ABT_pool pool, ABT_pool_context ctx)
{
    if (qn == 0)
        return ABT_THREAD_NULL;
    ABT_thread t = q[0];
    memmove(&q[0], &q[1], (size_t)(qn - 1) * sizeof(q[0]));
    qn--;
    return t;
}
static void p_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    if (qn == QLEN || n_push == LOGN)
        TEST_FAIL("pool or log full");
    plog[n_push].unit = unit;
    plog[n_push].ctx = ctx;
    n_push++;
    q[qn++] = (ABT_thread)unit;
}

/* push number i was unit `unit` with operation `op` */
static void check_push(int i, ABT_unit unit, ABT_pool_context op, const char *what)
{
    if (i >= n_push)
        TEST_FAIL("%s: push %d missing (%d pushes)", what, i, n_push);
    if (plog[i].unit != unit)
        TEST_FAIL("%s: push %d got unit %p, expected %p", what, i, (void *)plog[i].unit,
                  (void *)unit);
    if ((plog[i].ctx & OP_BITS) != op)
        TEST_FAIL("%s: push %d got context %#llx, expected op %#llx", what, i,
                  (unsigned long long)plog[i].ctx, (unsigned long long)op);
}

static ABT_unit unit_of(ABT_thread t)
{
    ABT_unit u;
    CHECK_ABT(ABT_thread_get_unit(t, &u));
    return u;
}

/* pop `t`, the only unit the pool holds */
static void take(ABT_thread t)
{
    ABT_thread got;
    CHECK_ABT(ABT_pool_pop_thread(upool, &got));
    CHECK(got == t);
    CHECK_EQ_INT(qn, 0);
}

static void child(void *arg) { child_runs++; }

/* suspends twice, then ends */
static void sleeper(void *arg)
{
    sleeper_step = 1;
    CHECK_ABT(ABT_self_suspend());
    sleeper_step = 2;
    CHECK_ABT(ABT_self_suspend());
    sleeper_step = 3;
}

static void body(void *arg)
{
    ABT_thread self;
    CHECK_ABT(ABT_self_get_thread(&self));
    ABT_unit me = unit_of(self);
    int k = n_push, created = n_create;

    /* create_to: one create_unit (the child's), one push (ours), the child ran */
    ABT_thread c;
    CHECK_ABT(ABT_thread_create_to(upool, child, NULL, ABT_THREAD_ATTR_NULL, &c));
    CHECK_EQ_INT(child_runs, 1);
    CHECK_EQ_INT(n_create, created + 1);
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, me, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO, "create_to");
    CHECK_ABT(ABT_thread_join(c));

    /* revive_to: the same unit, no create_unit, one push (ours), the child ran again */
    ABT_unit cu = unit_of(c);
    CHECK_ABT(ABT_thread_revive_to(upool, child, NULL, &c));
    CHECK_EQ_INT(child_runs, 2);
    CHECK_EQ_INT(n_create, created + 1);
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, me, ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO, "revive_to");
    CHECK(unit_of(c) == cu);
    int freed = n_free;
    CHECK_ABT(ABT_thread_free(&c));
    CHECK_EQ_INT(n_free, freed + 1);

    CHECK_ABT(ABT_self_yield());
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, me, ABT_POOL_CONTEXT_OP_THREAD_YIELD, "yield");

    ABT_thread s;
    CHECK_ABT(ABT_thread_create(upool, sleeper, NULL, ABT_THREAD_ATTR_NULL, &s));
    ABT_unit su = unit_of(s);
    check_push(k++, su, ABT_POOL_CONTEXT_OP_THREAD_CREATE, "create");

    /* a yield_to target is popped by the caller first (Argobots); only we are pushed */
    take(s);
    CHECK_ABT(ABT_self_yield_to(s));
    CHECK_EQ_INT(sleeper_step, 1);
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, me, ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO, "self_yield_to");

    CHECK_ABT(ABT_thread_resume(s));
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, su, ABT_POOL_CONTEXT_OP_THREAD_RESUME, "resume");

    take(s);
    CHECK_ABT(ABT_self_yield_to(s));
    CHECK_EQ_INT(sleeper_step, 2);
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, me, ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO, "self_yield_to again");

    CHECK_ABT(ABT_self_resume_yield_to(s));
    CHECK_EQ_INT(sleeper_step, 3);
    CHECK_EQ_INT(n_push, k + 1);
    check_push(k++, me, ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO, "resume_yield_to");

    freed = n_free;
    CHECK_ABT(ABT_thread_free(&s));
    CHECK_EQ_INT(n_free, freed + 1);
    CHECK_EQ_INT(n_create, created + 2); /* the child's and the sleeper's units only */
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(0, NULL));
    ABT_pool_user_def def;
    CHECK_ABT(
        ABT_pool_user_def_create(p_create_unit, p_free_unit, p_is_empty, p_pop, p_push, &def));
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &upool));
    CHECK_ABT(ABT_pool_user_def_free(&def));

    ABT_thread b;
    CHECK_ABT(ABT_thread_create(upool, body, NULL, ABT_THREAD_ATTR_NULL, &b));
    check_push(0, unit_of(b), ABT_POOL_CONTEXT_OP_THREAD_CREATE, "create body");
    /* run whatever the pool holds until it is empty; the body finishes last */
    int rounds = 0;
    for (;;) {
        ABT_thread t;
        CHECK_ABT(ABT_pool_pop_thread(upool, &t));
        if (t == ABT_THREAD_NULL)
            break;
        CHECK(t == b); /* the others are popped by the body or never pushed */
        CHECK(++rounds < LOGN);
        CHECK_ABT(ABT_self_schedule(t, ABT_POOL_NULL));
    }
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(b, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ_INT(child_runs, 2);
    CHECK_EQ_INT(sleeper_step, 3);
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_ABT(ABT_pool_free(&upool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
