/* cond_signal_wait: a bounded queue with one mutex and two condition variables;
 * producers and consumers are ULTs on two streams and external threads.  Every item is
 * consumed exactly once and nobody sleeps for ever (no lost signal). */
#include "sync_test.h"

#define CAP   4
#define ITEMS 20000
#define NPROD 3
#define NCONS 3

static ABT_mutex mtx;
static ABT_cond not_empty, not_full;
static int queue[CAP], head, count;
static long produced_sum, consumed_sum;
static int consumed;

static void produce(int id)
{
    for (int i = id; i < ITEMS; i += NPROD) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        while (count == CAP)
            CHECK_ABT(ABT_cond_wait(not_full, mtx));
        queue[(head + count++) % CAP] = i;
        produced_sum += i;
        CHECK_ABT(ABT_cond_signal(not_empty));
        CHECK_ABT(ABT_mutex_unlock(mtx));
    }
}

static void consume(void)
{
    for (;;) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        while (count == 0 && consumed < ITEMS)
            CHECK_ABT(ABT_cond_wait(not_empty, mtx));
        if (consumed == ITEMS) {
            CHECK_ABT(ABT_cond_broadcast(not_empty)); /* tell the other consumers */
            CHECK_ABT(ABT_mutex_unlock(mtx));
            return;
        }
        consumed_sum += queue[head];
        head = (head + 1) % CAP;
        count--;
        consumed++;
        CHECK_ABT(ABT_cond_signal(not_full));
        CHECK_ABT(ABT_mutex_unlock(mtx));
    }
}

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    if (id < NPROD - 1)
        produce(id);
    else
        consume();
}

static void *ext(void *arg)
{
    int id = (int)(intptr_t)arg;
    if (id == 0)
        produce(NPROD - 1);
    else
        consume();
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&not_empty));
    CHECK_ABT(ABT_cond_create(&not_full));

    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, ext, (void *)(intptr_t)i) == 0);
    /* ULT ids: 0..NPROD-2 produce, the others consume (NCONS - 1 of them) */
    ABT_thread ts[NPROD - 1 + NCONS - 1];
    int n = NPROD - 1 + NCONS - 1;
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i % 2], ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                    &ts[i]));
    sync_join_all(n, ts);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);

    CHECK_EQ_INT(consumed, ITEMS);
    CHECK_EQ_INT(produced_sum, (long)ITEMS * (ITEMS - 1) / 2);
    CHECK_EQ_INT(consumed_sum, produced_sum);
    CHECK_ABT(ABT_cond_free(&not_empty));
    CHECK_ABT(ABT_cond_free(&not_full));
    CHECK(not_empty == ABT_COND_NULL);
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
