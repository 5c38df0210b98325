/* failinj_pool: pools under allocation, mmap and pthread_create failure
 * (tests/failinj.h fails each traced call in turn).
 *
 * Built-in pools (ABT_pool_create_basic FIFO/FIFO_WAIT/RANDWS, a pool config), each fed
 * ULTs that yield, run by a stream of their own; a 1.0/1.1 user pool (struct
 * ABT_pool_def with unit callbacks) and a 1.2 user pool (ABT_pool_user_def_create and
 * setters), created and freed (init and free callbacks paired), each fed ULTs too: their
 * create_unit allocates (a failure there makes ABT_thread_create report ABT_ERR_OTHER, as
 * in Argobots), and weft's unit table must never allocate on a push (issue 15,
 * behaviour 7): a yield re-pushes the unit the ULT already has.
 * Outputs: a failed ABT_pool_create/_basic sets the pool to ABT_POOL_NULL; a failed
 * ABT_pool_user_def_create or ABT_pool_config_create leaves its output untouched (as
 * Argobots 1.x documents).  Every failure must be reported as ABT_ERR_MEM by the call it
 * happened in, or recovered from; nothing may leak. */
#include "failinj.h"

enum { NULT = 40 };

/* ---- one unit type for both user pools: a node in a mutex-protected FIFO ---- */
struct node {
    ABT_thread t;
    struct node *next;
};
struct queue {
    pthread_mutex_t lock;
    struct node *head, *tail;
    size_t n;
};
static struct queue q_old = { PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0 },
                    q_new = { PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0 };

static void q_push(struct queue *q, struct node *n)
{
    pthread_mutex_lock(&q->lock);
    n->next = NULL;
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    q->n++;
    pthread_mutex_unlock(&q->lock);
}

static struct node *q_pop(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    struct node *n = q->head;
    if (n) {
        q->head = n->next;
        if (!q->head)
            q->tail = NULL;
        q->n--;
    }
    pthread_mutex_unlock(&q->lock);
    return n;
}

/* old (1.0/1.1) definition */
static ABT_unit old_create(ABT_thread t)
{
    struct node *n = malloc(sizeof(*n));
    if (!n) {
        atomic_store(&fi_user_null, 1);
        return ABT_UNIT_NULL;
    }
    n->t = t;
    return (ABT_unit)n;
}
static void old_free(ABT_unit *u)
{
    free(*u);
    *u = ABT_UNIT_NULL;
}
static size_t old_size(ABT_pool p) { return q_old.n; }
static void old_push(ABT_pool p, ABT_unit u) { q_push(&q_old, (struct node *)u); }
static ABT_unit old_pop(ABT_pool p)
{
    struct node *n = q_pop(&q_old);
    return n ? (ABT_unit)n : ABT_UNIT_NULL;
}

/* 1.2 definition */
static ABT_unit new_create(ABT_pool p, ABT_thread t) { return old_create(t); }
static void new_free(ABT_pool p, ABT_unit u) { free(u); }
static ABT_bool new_empty(ABT_pool p) { return q_new.n == 0 ? ABT_TRUE : ABT_FALSE; }
static ABT_thread new_pop(ABT_pool p, ABT_pool_context c)
{
    struct node *n = q_pop(&q_new);
    return n ? n->t : ABT_THREAD_NULL;
}
static void new_push(ABT_pool p, ABT_unit u, ABT_pool_context c)
{
    q_push(&q_new, (struct node *)u);
}
static int inits, frees;
static int new_init(ABT_pool p, ABT_pool_config c)
{
    inits++;
    return ABT_SUCCESS;
}
static void new_pool_free(ABT_pool p) { frees++; }

static void work(void *arg) { ABT_thread_yield(); }

/* ULTs into `pool`, run by pushing the caller's scheduler through them */
static void feed(ABT_pool pool)
{
    ABT_thread t[NULT];
    for (int i = 0; i < NULT; i++)
        if (!FI_OUT_NULL(t[i], ABT_THREAD_NULL,
                         ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i])))
            t[i] = ABT_THREAD_NULL;
    for (int i = 0; i < NULT; i++)
        if (t[i] != ABT_THREAD_NULL)
            FI_MUST(ABT_thread_free(&t[i])); /* joins: runs the pool's ULTs */
}

/* a pool the primary stream's scheduler does not know: make it run there */
static void feed_foreign(ABT_pool pool)
{
    ABT_sched s;
    if (!FI_OUT_NULL(s, ABT_SCHED_NULL,
                     ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &s)))
        return;
    ABT_xstream xs;
    if (!FI_OUT_NULL(xs, ABT_XSTREAM_NULL, ABT_xstream_create(s, &xs))) {
        FI_MUST(ABT_sched_free(&s));
        return;
    }
    feed(pool);
    FI_MUST(ABT_xstream_join(xs));
    FI_MUST(ABT_xstream_free(&xs));
}

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));
    static const ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS };
    for (int i = 0; i < 3; i++) {
        ABT_pool p;
        if (FI_OUT_NULL(p, ABT_POOL_NULL,
                        ABT_pool_create_basic(kinds[i], ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p))) {
            feed_foreign(p);
            FI_MUST(ABT_pool_free(&p));
        }
    }

    ABT_pool_config cfg;
    if (FI_OUT_KEEP(cfg, ABT_pool_config_create(&cfg))) {
        int v = 1;
        FI_OK(ABT_pool_config_set(cfg, 1, ABT_POOL_CONFIG_INT, &v));
        FI_MUST(ABT_pool_config_free(&cfg));
    }

    /* old-style definition */
    ABT_pool_def old = {
        .access = ABT_POOL_ACCESS_MPMC,
        .u_create_from_thread = old_create,
        .u_free = old_free,
        .p_get_size = old_size,
        .p_push = old_push,
        .p_pop = old_pop,
    };
    ABT_pool p;
    if (FI_OUT_NULL(p, ABT_POOL_NULL, ABT_pool_create(&old, ABT_POOL_CONFIG_NULL, &p))) {
        feed_foreign(p);
        FI_MUST(ABT_pool_free(&p));
    }

    /* 1.2 definition */
    ABT_pool_user_def def;
    if (FI_OUT_KEEP(def, ABT_pool_user_def_create(new_create, new_free, new_empty, new_pop,
                                                  new_push, &def))) {
        FI_MUST(ABT_pool_user_def_set_init(def, new_init));
        FI_MUST(ABT_pool_user_def_set_free(def, new_pool_free));
        int before = inits;
        if (FI_OUT_NULL(p, ABT_POOL_NULL, ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &p))) {
            feed_foreign(p);
            FI_MUST(ABT_pool_free(&p));
            if (frees != inits)
                FI_FAIL("pool init ran %d times, free %d times", inits, frees);
        } else if (inits != before && frees != inits) {
            FI_FAIL("a failed ABT_pool_create ran init but not free");
        }
        FI_MUST(ABT_pool_user_def_free(&def));
    }
    if (q_old.n || q_new.n)
        FI_FAIL("units left in user pools");
    FI_MUST(ABT_finalize());
}

int main(void) { return fi_main("failinj_pool", program); }
