/* thread_get_attr_stack_guard: with ABT_STACK_OVERFLOW_CHECK=mprotect or mprotect_strict,
 * a ULT created with default attributes (16 KiB stacks here) that is joined or freed
 * before it ran, by the primary ULT or by a ULT that the primary ULT freed fresh, runs on
 * a stack of its own with its guard page right below it: ABT_thread_get_attr +
 * ABT_thread_attr_get_stack, asked by the ULT itself, give a range of 16384 bytes that
 * holds its local variables and lies outside its joiner's stack, and a read of the byte
 * right below that range faults (SIGSEGV, in a child process forked for the probe).  A
 * joiner does not lend its stack in these modes (src/core/unit.c, "a fresh unit on its
 * joiner's stack").  The probe is skipped under valgrind, which takes the fault itself. */
#include "test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define TG_SAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define TG_SAN 1
#endif
#endif
#ifndef TG_SAN
#define TG_SAN 0
#endif

static ABT_pool main_pool;
static int join_it;
static char *joiner_frame; /* an address in the joiner's frame */
static int probe;

static void check_own_stack(const char *what)
{
    volatile char local = 1;
    ABT_thread self;
    ABT_thread_attr a;
    void *addr = NULL;
    size_t size = 0;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_get_attr(self, &a));
    CHECK_ABT(ABT_thread_attr_get_stack(a, &addr, &size));
    CHECK_ABT(ABT_thread_attr_free(&a));
    uintptr_t lo = (uintptr_t)addr, p = (uintptr_t)&local, j = (uintptr_t)joiner_frame;
    if (!addr || size != 16384 || p < lo || p >= lo + size)
        TEST_FAIL("%s: reported stack [%p, +%zu) does not hold the ULT's local %p", what, addr,
                  size, (void *)&local);
    /* its joiner's frame lies above the joiner's stack pointer; a lent range lies right
     * below it, within the ULT's stack size */
    if (j >= lo && j - lo < size + 4096)
        TEST_FAIL("%s: reported stack [%p, +%zu) is on the joiner's stack (frame %p)", what, addr,
                  size, (void *)joiner_frame);
    if (!probe)
        return;
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        volatile char c = *((volatile char *)addr - 1); /* the guard page */
        (void)c;
        _exit(0);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
        TEST_FAIL("%s: the byte below the reported stack %p is accessible (status %#x)", what, addr,
                  st);
    (void)local;
}

static void leaf(void *arg) { check_own_stack(arg); }

static void run_fresh(const char *what)
{
    volatile char frame = 0;
    joiner_frame = (char *)&frame;
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(main_pool, leaf, (void *)what, ABT_THREAD_ATTR_NULL, &t));
    if (join_it)
        CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
    (void)frame;
}

static void middle(void *arg)
{
    (void)arg;
    run_fresh(join_it ? "joined fresh by a ULT freed fresh" : "freed fresh by a ULT freed fresh");
}

int main(int argc, char **argv)
{
    probe = !getenv("WEFT_TEST_SLOW") || TG_SAN;
    static const char *const modes[] = { "mprotect", "mprotect_strict" };
    setenv("ABT_THREAD_STACKSIZE", "16384", 1);
    for (int m = 0; m < 2; m++) {
        setenv("ABT_STACK_OVERFLOW_CHECK", modes[m], 1);
        CHECK_ABT(ABT_init(argc, argv));
        int mode = -1;
        CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK, &mode));
        if (mode != 2 + m) {
            ABT_finalize();
            TEST_SKIP("ABT_STACK_OVERFLOW_CHECK=%s not supported (mode %d)", modes[m], mode);
        }
        ABT_xstream xs;
        CHECK_ABT(ABT_self_get_xstream(&xs));
        CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
        for (join_it = 0; join_it < 2; join_it++) {
            run_fresh(join_it ? "joined fresh by the primary ULT"
                              : "freed fresh by the primary ULT");
            ABT_thread t;
            CHECK_ABT(ABT_thread_create(main_pool, middle, NULL, ABT_THREAD_ATTR_NULL, &t));
            CHECK_ABT(ABT_thread_free(&t));
        }
        CHECK_ABT(ABT_finalize());
    }
    return 0;
}
