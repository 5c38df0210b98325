/* info_print_thread_stack_frames: ABT_info_print_thread_stack prints a parked ULT's frames
 * (libunwind over its saved context: function+offset and object; file:line with libdw),
 * its own functions three calls deep by name, without the stack's words; WEFT_STACK_DUMP_WORDS=1
 * adds the words. ABT_info_trigger_print_all_thread_stacks prints the same frames.  Skipped where
 * libunwind.so.8 is not installed, the build had no libunwind.h, or under valgrind (the
 * dumps print words there). */
#define _GNU_SOURCE
#include <abt.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

static ABT_eventual ev;

__attribute__((noipa)) static int frames_wait_deep(int depth)
{
    volatile int here = depth;
    if (depth > 0) {
        int r = frames_wait_deep(depth - 1);
        return r + here; /* not a tail call */
    }
    ABT_eventual_wait(ev, NULL);
    return here;
}

static volatile int sink;
__attribute__((noipa)) static void frames_blocked_fn(void *arg)
{
    sink = frames_wait_deep(3); /* not a tail call: this frame stays */
}

static atomic_int done;
static void printed(ABT_bool timed_out, void *arg) { atomic_store(&done, 1); }

static char *dump(ABT_thread t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f || ABT_info_print_thread_stack(f, t) != ABT_SUCCESS)
        return NULL;
    fclose(f);
    return buf;
}

int main(void)
{
    if (RUNNING_ON_VALGRIND)
        TEST_SKIP("stack dumps print words under valgrind");
    void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        TEST_SKIP("libunwind.so.8 is not installed (apt-get install libunwind8)");
    dlclose(h);
#if !WEFT_TEST_HAVE_LIBUNWIND_H
    TEST_SKIP("weft was built without libunwind.h (apt-get install libunwind-dev)");
#endif
    CHECK_ABT(ABT_init(0, NULL));
    CHECK_ABT(ABT_eventual_create(0, &ev));
    ABT_pool pool;
    ABT_xstream self;
    CHECK_ABT(ABT_self_get_xstream(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, frames_blocked_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 1000 && st != ABT_THREAD_STATE_BLOCKED; i++) {
        ABT_thread_yield();
        CHECK_ABT(ABT_thread_get_state(t, &st));
    }
    CHECK(st == ABT_THREAD_STATE_BLOCKED);

    char *out = dump(t);
    CHECK(out != NULL);
    const char *fr = strstr(out, "frames    :\n");
    if (!fr || !strstr(fr, "<frames_wait_deep+0x") || !strstr(fr, "<frames_blocked_fn+0x") ||
        !strstr(fr, "(libweft.so"))
        TEST_FAIL("no frames by name in:\n%s", out);
    /* three recursive calls and the first: four frames of frames_wait_deep */
    int n = 0;
    for (const char *p = fr; (p = strstr(p, "<frames_wait_deep+0x")); p++)
        n++;
    CHECK_EQ_INT(n, 4);
    /* file:line from the DWARF line tables (this test is built with -g), with libdw */
    void *dw = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (dw) {
        dlclose(dw);
        const char *l = strstr(fr, "<frames_blocked_fn+0x");
        if (!l || !strstr(l, " at ") || !strstr(l, "info_print_thread_stack_frames.c:"))
            TEST_FAIL("no file:line for frames_blocked_fn in:\n%s", out);
    } else {
        fprintf(stderr, "libdw.so.1 is not installed: file:line not checked\n");
    }
    CHECK(strstr(out, "words     :") == NULL);
    free(out);

    setenv("WEFT_STACK_DUMP_WORDS", "1", 1);
    out = dump(t);
    unsetenv("WEFT_STACK_DUMP_WORDS");
    CHECK(out != NULL);
    if (!strstr(out, "frames    :\n") || !strstr(out, "words     :\n") ||
        !strstr(strstr(out, "words     :\n"), ": 0000"))
        TEST_FAIL("WEFT_STACK_DUMP_WORDS=1: no frames and words in:\n%s", out);
    free(out);

    /* the stop-the-world dump */
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);
    CHECK(f != NULL);
    CHECK_ABT(ABT_info_trigger_print_all_thread_stacks(f, 10.0, printed, NULL));
    for (int i = 0; i < 1000000 && !atomic_load(&done); i++)
        ABT_thread_yield(); /* the scheduler stops at an event check and prints */
    CHECK(atomic_load(&done));
    fclose(f);
    if (!all || !strstr(all, "End of ULT stacks dump") || !strstr(all, "<frames_blocked_fn+0x"))
        TEST_FAIL("trigger dump without the frames:\n%s", all ? all : "");
    free(all);

    CHECK_ABT(ABT_eventual_set(ev, NULL, 0));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_eventual_free(&ev));
    CHECK_ABT(ABT_finalize());
    return 0;
}
