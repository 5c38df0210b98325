/* overflow_death_lent_nominal: with ABT_STACK_OVERFLOW_CHECK unset (the default), a ULT
 * created with default attributes and a 16 KiB stack that overruns that size by 64 bytes
 * or by 8 KiB stops the process (SIGABRT) with the report of a ULT on a stack of its own:
 * its id and function (overrun_ult), "its stack of 16384 bytes", how far it overran (at
 * least 1 and at most the overrun) and the two fixes (ABT_THREAD_STACKSIZE,
 * ABT_thread_attr_set_stacksize), also when its joiner lent it a larger stack (src/core/
 * unit/lend.c, "a fresh unit on its joiner's stack": the canary at the low end of its stack
 * size).  The ULT, queued and never run, is joined (ABT_thread_join) or freed
 * (ABT_thread_free) by: the primary ULT (it lends its OS stack); a ULT that the primary
 * ULT freed fresh in turn (a lent joiner lends on); a ULT with a 256 KiB stack of its own,
 * run by the scheduler.  The overrun writes the bytes right below the range
 * ABT_thread_get_stack gives, from the top down (tests/overflow_death.h).  Where nothing is
 * lent (a tool listening for RUN and FINISH, ThreadSanitizer builds) the ULT runs on its
 * own stack and the same report is expected.  One child process per case; weft only;
 * skipped under valgrind (no canary there). */
#include "overflow_death.h"

enum { BY_PRIMARY, BY_LENT_ULT, BY_BIG_ULT, NBY };
static const char *const by_name[] = { "the primary ULT", "a ULT freed fresh by the primary ULT",
                                       "a ULT with a 256 KiB stack" };
static int by, join_it;
static ABT_pool main_pool;

static void finish(ABT_thread *t)
{
    if (join_it)
        CHECK_ABT(ABT_thread_join(*t));
    CHECK_ABT(ABT_thread_free(t));
}

/* Creates the overrunning ULT, names it for the parent, joins or frees it fresh. */
static void joiner(void *arg)
{
    (void)arg;
    static size_t sink;
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(main_pool, overrun_ult, &sink, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit_id id;
    CHECK_ABT(ABT_thread_get_id(t, &id));
    fprintf(stderr, "expect ULT %llu\n", (unsigned long long)id);
    fflush(stderr);
    finish(&t);
    fprintf(stderr, "the ULT returned, its stack of %zu bytes\n", sink);
}

static void child(void)
{
    setenv("ABT_THREAD_STACKSIZE", "16384", 1);
    unsetenv("ABT_STACK_OVERFLOW_CHECK");
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    if (by == BY_PRIMARY) {
        joiner(NULL);
    } else {
        ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
        if (by == BY_BIG_ULT) {
            CHECK_ABT(ABT_thread_attr_create(&attr));
            CHECK_ABT(ABT_thread_attr_set_stacksize(attr, (size_t)256 << 10));
        }
        ABT_thread j;
        CHECK_ABT(ABT_thread_create(main_pool, joiner, NULL, attr, &j));
        if (by == BY_BIG_ULT) {
            CHECK_ABT(ABT_thread_attr_free(&attr));
            CHECK_ABT(ABT_thread_yield()); /* the scheduler runs it, on its own stack */
        }
        CHECK_ABT(ABT_thread_free(&j)); /* BY_LENT_ULT: runs it on our stack */
    }
    ABT_finalize();
}

int main(void)
{
    if (!TEST_WEFT)
        TEST_SKIP("the report is weft's");
    if (getenv("WEFT_TEST_SLOW") && !OD_ASAN && !OD_TSAN)
        TEST_SKIP("under valgrind the canary is off and valgrind takes the guard-page fault");
    static const size_t sizes[] = { 64, 8192 };
    for (by = 0; by < NBY; by++)
        for (join_it = 0; join_it < 2; join_it++)
            for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
                static struct child_result r;
                memset(&r, 0, sizeof(r));
                overrun_bytes = sizes[k];
                run_child("", child, &r); /* (the mode is unset again in the child) */
                const char *how = join_it ? "joined" : "freed";
                if (getenv("OVERFLOW_DEATH_VERBOSE"))
                    fprintf(stderr, "--- %s by %s, overrun of %zu bytes:\n%s", how, by_name[by],
                            sizes[k], r.err);
                if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT)
                    TEST_FAIL("%s by %s, overrun of %zu bytes: the child did not abort (status "
                              "%#x); stderr:\n%s",
                              how, by_name[by], sizes[k], r.status, r.err);
                unsigned long long id;
                const char *e = strstr(r.err, "expect ULT ");
                CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
                char want[96];
                snprintf(want, sizeof(want),
                         "stack overflow in ULT %llu (created with function overrun_ult, "
                         "ABT_thread 0x",
                         id);
                const char *at = strstr(r.err, " by at least ");
                unsigned long long over = 0;
                if (!strstr(r.err, want) || !strstr(r.err, "its stack of 16384 bytes") || !at ||
                    sscanf(at, " by at least %llu bytes", &over) != 1 || over == 0 ||
                    over > sizes[k] || !strstr(r.err, "ABT_THREAD_STACKSIZE") ||
                    !strstr(r.err, "ABT_thread_attr_set_stacksize"))
                    TEST_FAIL("%s by %s, overrun of %zu bytes: unexpected report:\n%s", how,
                              by_name[by], sizes[k], r.err);
            }
    return 0;
}
