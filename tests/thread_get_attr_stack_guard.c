/* thread_get_attr_stack_guard: with ABT_STACK_OVERFLOW_CHECK=mprotect or mprotect_strict,
 * a ULT's stack is laid out as Argobots lays it out: ABT_thread_get_attr +
 * ABT_thread_attr_get_stack, asked by the ULT itself, give the range [lo, lo + size) of
 * the stack size it was created with, whose lowest whole page (at lo rounded up to the
 * page) is its guard page, and the ULT's local variables lie above that page.  Three
 * ULTs: default attributes (16 KiB stacks here; created by the primary ULT or by a ULT
 * that the primary ULT freed fresh, joined or freed before they ran: a joiner does not
 * lend its stack in these modes, src/core/unit/lend.c), a stack size of 16 KiB + 128 bytes
 * (ABT_thread_attr_set_stacksize), and a user-given stack from malloc, not page-aligned
 * (ABT_thread_attr_set_stack), which is readable and writable again once the ULT is
 * freed.  A read of the guard page faults and one of the page above it does not
 * (SIGSEGV, in a child process forked for the probe).  The probe is skipped under
 * valgrind, which takes the fault itself. */
#include "test.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>
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

#define USER_SIZE (32768 + 64)

static ABT_pool main_pool;
static int join_it;
static char *joiner_frame; /* an address in the joiner's frame */
static int probe;
static size_t pg;

struct want {
    const char *what;
    size_t size;      /* the stack size it was created with */
    const void *addr; /* a user-given stack's base, else NULL */
};

/* Does a read of `p` fault?  In a child process, with the default SIGSEGV action. */
static int read_faults(const char *p)
{
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        volatile char c = *(volatile const char *)p;
        (void)c;
        _exit(0);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV)
        return 1;
    TEST_FAIL("probe child of %p ended with status %#x", (const void *)p, st);
}

static void check_own_stack(const struct want *w)
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
    uintptr_t g = (lo + pg - 1) / pg * pg; /* the guard page */
    if (!addr || size != w->size || p < lo || p >= lo + size)
        TEST_FAIL("%s: reported stack [%p, +%zu) (want %zu bytes) does not hold the ULT's local %p",
                  w->what, addr, size, w->size, (void *)&local);
    if (w->addr && addr != w->addr)
        TEST_FAIL("%s: reported stack %p, not the user's %p", w->what, addr, w->addr);
    if (p < g + pg)
        TEST_FAIL("%s: the ULT's local %p is not above the guard page %p", w->what, (void *)&local,
                  (void *)g);
    /* its joiner's frame lies above the joiner's stack pointer; a lent range lies right
     * below it, within the ULT's stack size */
    if (j >= lo && j - lo < size + 4096)
        TEST_FAIL("%s: reported stack [%p, +%zu) is on the joiner's stack (frame %p)", w->what,
                  addr, size, (void *)joiner_frame);
    if (!probe)
        return;
    if (!read_faults((const char *)g))
        TEST_FAIL("%s: the lowest page %p of the reported stack [%p, +%zu) is accessible", w->what,
                  (void *)g, addr, size);
    if (read_faults((const char *)g + pg))
        TEST_FAIL("%s: the page %p above the guard page faults", w->what, (void *)(g + pg));
    (void)local;
}

static void leaf(void *arg) { check_own_stack(arg); }

static void run_fresh(const struct want *w)
{
    volatile char frame = 0;
    joiner_frame = (char *)&frame;
    ABT_thread t;
    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    if (w->addr || w->size != 16384)
        CHECK_ABT(ABT_thread_attr_create(&attr));
    if (w->addr)
        CHECK_ABT(ABT_thread_attr_set_stack(attr, (void *)w->addr, w->size));
    else if (w->size != 16384)
        CHECK_ABT(ABT_thread_attr_set_stacksize(attr, w->size));
    CHECK_ABT(ABT_thread_create(main_pool, leaf, (void *)w, attr, &t));
    if (attr != ABT_THREAD_ATTR_NULL)
        CHECK_ABT(ABT_thread_attr_free(&attr));
    if (join_it)
        CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
    (void)frame;
}

static void middle(void *arg)
{
    (void)arg;
    static const struct want j = { "joined fresh by a ULT freed fresh", 16384, NULL },
                             f = { "freed fresh by a ULT freed fresh", 16384, NULL };
    run_fresh(join_it ? &j : &f);
}

int main(int argc, char **argv)
{
    probe = !getenv("WEFT_TEST_SLOW") || TG_SAN;
    pg = (size_t)sysconf(_SC_PAGESIZE);
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
            struct want d = { join_it ? "joined fresh by the primary ULT"
                                      : "freed fresh by the primary ULT",
                              16384, NULL };
            run_fresh(&d);
            ABT_thread t;
            CHECK_ABT(ABT_thread_create(main_pool, middle, NULL, ABT_THREAD_ATTR_NULL, &t));
            CHECK_ABT(ABT_thread_free(&t));
            struct want s = { "a stack size of 16 KiB + 128 bytes", 16384 + 128, NULL };
            run_fresh(&s);
            /* a user-given stack, 8 bytes into a malloc block: not page-aligned */
            char *mem = malloc(USER_SIZE + 8);
            CHECK(mem != NULL);
            struct want u = { "a user-given stack", USER_SIZE, mem + 8 };
            run_fresh(&u);
            memset(mem, 0x5a, USER_SIZE + 8); /* all of it writable again */
            free(mem);
        }
        CHECK_ABT(ABT_finalize());
    }
    return 0;
}
