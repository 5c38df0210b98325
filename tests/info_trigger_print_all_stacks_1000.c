/* info_trigger_print_all_stacks_1000: ABT_info_trigger_print_all_thread_stacks on two
 * execution streams with 1,000 ULTs: 800 blocked on an eventual, 200 yielding in a loop.
 * Both streams stop, one prints, the callback runs once with timed_out = ABT_FALSE, and
 * every one of the 1,000 ULTs appears in the dump (with Argobots, which prints only the
 * units in the pools of main schedulers, the 200 ready ones).  Then everything goes on. */
#include "stack_dump_test.h"

#include <stdatomic.h>

#define NBLOCK 800
#define NYIELD 200
#define NALL   (NBLOCK + NYIELD)

static ABT_eventual ev;
static atomic_int blocked_started, yield_started, release, cb_calls, cb_timed_out;

static void blocker(void *arg)
{
    atomic_fetch_add(&blocked_started, 1);
    CHECK_ABT(ABT_eventual_wait(ev, NULL));
}

static void yielder(void *arg)
{
    atomic_fetch_add(&yield_started, 1);
    while (!atomic_load(&release))
        CHECK_ABT(ABT_thread_yield());
}

static void done_cb(ABT_bool timed_out, void *arg)
{
    CHECK(arg == (void *)&cb_calls);
    atomic_store(&cb_timed_out, timed_out);
    atomic_fetch_add(&cb_calls, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs[2];
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));
    CHECK_ABT(ABT_eventual_create(0, &ev));

    static ABT_thread t[NALL];
    static ABT_unit_id id[NALL];
    for (int i = 0; i < NALL; i++) {
        void (*fn)(void *) = i < NBLOCK ? blocker : yielder;
        CHECK_ABT(ABT_thread_create(pools[i % 2], fn, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_ABT(ABT_thread_get_id(t[i], &id[i]));
    }
    while (atomic_load(&blocked_started) < NBLOCK || atomic_load(&yield_started) < NYIELD)
        CHECK_ABT(ABT_thread_yield());

    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    CHECK_ABT(ABT_info_trigger_print_all_thread_stacks(fp, 30.0, done_cb, &cb_calls));
    while (atomic_load(&cb_calls) == 0)
        CHECK_ABT(ABT_thread_yield());
    CHECK_EQ_INT(atomic_load(&cb_timed_out), ABT_FALSE);

    char *out = dump_read(fp);
    fclose(fp);
    uint64_t lo = id[0], hi = id[0];
    for (int i = 0; i < NALL; i++) {
        lo = id[i] < lo ? id[i] : lo;
        hi = id[i] > hi ? id[i] : hi;
    }
    unsigned char *seen = calloc(hi - lo + 1, 1);
    CHECK(seen != NULL);
    dump_collect_ids(out, lo, seen, hi - lo + 1);
    int missing = 0;
    for (int i = TEST_WEFT ? 0 : NBLOCK; i < NALL; i++)
        if (!seen[id[i] - lo]) {
            if (missing++ < 5)
                fprintf(stderr, "ULT %d (id %llu) is not in the dump\n", i,
                        (unsigned long long)id[i]);
        }
    CHECK_EQ_INT(missing, 0);
    free(seen);
    free(out);

    /* the streams went on */
    atomic_store(&release, 1);
    CHECK_ABT(ABT_eventual_set(ev, NULL, 0));
    for (int i = 0; i < NALL; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);
    CHECK_ABT(ABT_eventual_free(&ev));
    CHECK_ABT(ABT_xstream_free(&xs[1]));
    CHECK_ABT(ABT_finalize());
    return 0;
}
