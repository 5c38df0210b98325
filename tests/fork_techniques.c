/* fork_techniques: every available fork-join technique (weft.h, weft_thread_attr_set_fork)
 * on 1 and 2 execution streams sharing one pool.  For each: 48 ULTs created from a ULT
 * with an attribute naming the technique; each one checks its technique
 * (weft_thread_get_fork), yields (every third), takes a contended mutex, sets and reads a
 * work-unit-local value, and one of them suspends itself until the creator resumes it.
 * Half are joined with ABT_thread_join_many, the rest with ABT_thread_free.  On one stream
 * a child-first ULT has run when ABT_thread_create returns and a parent-first one has not.
 * Also: the attribute calls and their errors, the
 * technique in ABT_info_print_thread and ABT_info_print_thread_attr, and a tasklet's answer
 * (WEFT_FORK_DEFAULT).  weft only. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>

#define NU 48

static const struct {
    weft_fork_t f;
    const char *name;
    int child_first;
} techs[] = {
    { WEFT_FORK_FULL, "Full", 0 },
    { WEFT_FORK_FULL_L, "Full-L", 0 },
    { WEFT_FORK_ROC, "RoC", 0 },
    { WEFT_FORK_ROC_L, "RoC-L", 0 },
    { WEFT_FORK_SS, "SS", 0 },
    { WEFT_FORK_SS_L, "SS-L", 0 },
    { WEFT_FORK_SC, "SC", 0 },
    { WEFT_FORK_C_FULL, "C-Full", 1 },
    { WEFT_FORK_C_FULL_E, "C-Full-E", 1 },
    { WEFT_FORK_C_ROC, "C-RoC", 1 },
    { WEFT_FORK_C_ROC_E, "C-RoC-E", 1 },
};

static ABT_pool pool;
static ABT_mutex mtx;
static ABT_key key;
static long counter;
static atomic_int ran[NU], started[NU];
static atomic_int suspended_ok;
static weft_fork_t cur;

static void child(void *arg)
{
    int i = (int)(intptr_t)arg;
    atomic_store(&started[i], 1);
    ABT_thread self;
    weft_fork_t f;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(weft_thread_get_fork(self, &f));
    CHECK_EQ_INT(f, cur);
    CHECK_ABT(ABT_self_set_specific(key, (void *)(intptr_t)(i + 1)));
    if (i % 3 == 0)
        CHECK_ABT(ABT_thread_yield());
    if (i == 7) {
        CHECK_ABT(ABT_self_suspend());
        atomic_store(&suspended_ok, 1);
    }
    CHECK_ABT(ABT_mutex_lock(mtx));
    long c = counter;
    CHECK_ABT(ABT_thread_yield()); /* others run into the lock meanwhile */
    counter = c + 1;
    CHECK_ABT(ABT_mutex_unlock(mtx));
    void *v;
    CHECK_ABT(ABT_self_get_specific(key, &v));
    CHECK(v == (void *)(intptr_t)(i + 1));
    atomic_fetch_add(&ran[i], 1);
}

static int nstreams;

static void root(void *arg)
{
    int t = (int)(intptr_t)arg;
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(weft_thread_attr_set_fork(attr, techs[t].f));
    ABT_thread ths[NU];
    for (int i = 0; i < NU; i++) {
        CHECK_ABT(ABT_thread_create(pool, child, (void *)(intptr_t)i, attr, &ths[i]));
        if (nstreams == 1) {
            /* a child-first child has started inside create, a parent-first one not */
            int done = atomic_load(&started[i]);
            if (techs[t].child_first)
                CHECK_EQ_INT(done, 1);
            else
                CHECK_EQ_INT(done, 0);
        }
    }
    /* the self-suspended child: resume it once it is blocked */
    ABT_thread_state st;
    do {
        CHECK_ABT(ABT_thread_get_state(ths[7], &st));
        if (st != ABT_THREAD_STATE_BLOCKED)
            CHECK_ABT(ABT_thread_yield());
    } while (st != ABT_THREAD_STATE_BLOCKED);
    CHECK_ABT(ABT_thread_resume(ths[7]));
    CHECK_ABT(ABT_thread_join_many(NU / 2, ths));
    for (int i = 0; i < NU; i++)
        CHECK_ABT(ABT_thread_free(&ths[i]));
    CHECK_ABT(ABT_thread_attr_free(&attr));
}

static void run_one(int t, int streams)
{
    cur = techs[t].f;
    nstreams = streams;
    counter = 0;
    atomic_store(&suspended_ok, 0);
    for (int i = 0; i < NU; i++) {
        atomic_store(&ran[i], 0);
        atomic_store(&started[i], 0);
    }
    ABT_thread r;
    CHECK_ABT(ABT_thread_create(pool, root, (void *)(intptr_t)t, ABT_THREAD_ATTR_NULL, &r));
    CHECK_ABT(ABT_thread_free(&r));
    for (int i = 0; i < NU; i++)
        CHECK_EQ_INT(atomic_load(&ran[i]), 1);
    CHECK_EQ_INT(counter, NU);
    CHECK_EQ_INT(atomic_load(&suspended_ok), 1);
}

static void task(void *arg) { (void)arg; }

static void check_api(void)
{
    ABT_thread_attr attr;
    weft_fork_t f;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(weft_thread_attr_get_fork(attr, &f));
    CHECK_EQ_INT(f, WEFT_FORK_DEFAULT);
    CHECK_ERR(weft_thread_attr_set_fork(attr, (weft_fork_t)99), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_attr_set_fork(attr, (weft_fork_t)-1), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_attr_set_fork(ABT_THREAD_ATTR_NULL, WEFT_FORK_ROC),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(weft_thread_attr_get_fork(ABT_THREAD_ATTR_NULL, &f), ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(weft_thread_attr_get_fork(attr, NULL), ABT_ERR_INV_ARG);
    CHECK_ABT(weft_thread_attr_set_fork(attr, WEFT_FORK_C_ROC));
    CHECK_ABT(weft_thread_attr_get_fork(attr, &f));
    CHECK_EQ_INT(f, WEFT_FORK_C_ROC);

    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    CHECK_ABT(ABT_info_print_thread_attr(fp, attr));
    fclose(fp);
    CHECK(strstr(buf, "fork-join technique: C-RoC") != NULL);
    free(buf);

    /* parent-first from the primary ULT: the unit waits in the pool, printable */
    CHECK_ABT(weft_thread_attr_set_fork(attr, WEFT_FORK_FULL));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, task, NULL, attr, &t));
    CHECK_ABT(weft_thread_get_fork(t, &f));
    CHECK_EQ_INT(f, WEFT_FORK_FULL);
    fp = open_memstream(&buf, &len);
    CHECK_ABT(ABT_info_print_thread(fp, t));
    fclose(fp);
    CHECK(strstr(buf, "fork-join technique: Full\n") != NULL);
    free(buf);
    CHECK_ERR(weft_thread_get_fork(t, NULL), ABT_ERR_INV_ARG);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ERR(weft_thread_get_fork(ABT_THREAD_NULL, &f), ABT_ERR_INV_THREAD);

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task, NULL, &k));
    CHECK_ABT(weft_thread_get_fork((ABT_thread)k, &f));
    CHECK_EQ_INT(f, WEFT_FORK_DEFAULT);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_ABT(ABT_thread_attr_free(&attr));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_key_create(NULL, &key));
    check_api();
    int nt = (int)(sizeof(techs) / sizeof(*techs));
    for (int t = 0; t < nt; t++)
        run_one(t, 1);
    ABT_xstream x2;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &x2));
    for (int t = 0; t < nt; t++)
        run_one(t, 2);
    CHECK_ABT(ABT_xstream_join(x2));
    CHECK_ABT(ABT_xstream_free(&x2));
    CHECK_ABT(ABT_key_free(&key));
    CHECK_ABT(ABT_mutex_free(&mtx));
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
