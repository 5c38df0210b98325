/* src/core/tool/overflow.c - reporting ULT stack overflows (see overflow.h for the modes).
 *
 * The SIGSEGV handler runs on the faulting thread's alternate signal stack (the ULT's own
 * stack is exhausted).  It finds the ULT through the thread's stream (TLS weft_tls_xs, one
 * load): a fault is an overflow of the running unit's stack when the faulting address lies
 * in that stack's guard page, or below the stack (within OVERRUN_REACH) while the thread's
 * stack pointer is in the stack or below it (a frame larger than the guard page jumped
 * over it, or there is no guard: canary mode).  The running scheduler's own stack (the
 * primary stream's) is checked the same way.  Anything else goes to the handler that was
 * installed before ours (or the default action: the fault repeats and kills the process
 * as it would have).  The report is formatted without stdio and written with one write();
 * the function's name comes from dladdr (not async-signal-safe, but the process is about
 * to abort: the one risk is a fault inside the dynamic loader, which then hangs).
 *
 * The handler is installed by ABT_init unless the check is none, removed by the last
 * ABT_finalize if it is still ours.  Each stream thread gets its own alternate stack, unless
 * the thread already has one (the program's, or a sanitizer's), which is then left alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/tool/overflow.h"
#include "core/unit/unit.h"

#if WEFT_USE_VALGRIND
#include <valgrind/valgrind.h>
#define ON_VALGRIND() RUNNING_ON_VALGRIND
#else
#define ON_VALGRIND() 0
#endif

#define ALTSTACK_SIZE (64u << 10)
/* How far below a stack a fault still counts as its overflow (the guard page catches
 * the first byte; this is for frames that jump it, and for canary mode). */
#define OVERRUN_REACH ((uintptr_t)64 << 20)

static bool installed;            /* our SIGSEGV handler is in place */
static struct sigaction old_segv; /* what it chains to */
static __thread void *alt_mem;    /* this thread's alternate stack, if we made it */

/* ---------------------------------------------------------------- formatting */

struct msg {
    char buf[768];
    size_t n;
};

static void put(struct msg *m, const char *s)
{
    while (*s && m->n < sizeof(m->buf) - 1)
        m->buf[m->n++] = *s++;
}

static void put_dec(struct msg *m, uint64_t v)
{
    char t[24];
    int i = 0;
    do {
        t[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i--)
        if (m->n < sizeof(m->buf) - 1)
            m->buf[m->n++] = t[i];
}

static void put_hex(struct msg *m, uintptr_t v)
{
    char t[20];
    int i = 0;
    do {
        t[i++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    put(m, "0x");
    while (i--)
        if (m->n < sizeof(m->buf) - 1)
            m->buf[m->n++] = t[i];
}

/* "function NAME" (dladdr), else "the function at ADDR (in FILE+OFFSET)". */
static void put_fn(struct msg *m, void (*fn)(void *))
{
    Dl_info info;
    void *p = (void *)(uintptr_t)fn;
    memset(&info, 0, sizeof(info));
    if (p && dladdr(p, &info) && info.dli_sname && info.dli_saddr == p) {
        put(m, "function ");
        put(m, info.dli_sname);
        return;
    }
    put(m, "the function at ");
    put_hex(m, (uintptr_t)p);
    if (info.dli_fname && info.dli_fbase) {
        put(m, " (");
        put(m, info.dli_fname);
        put(m, "+");
        put_hex(m, (uintptr_t)p - (uintptr_t)info.dli_fbase);
        put(m, ")");
    }
}

/* The one report, for an overflowed ULT (u) or scheduler stack (u == NULL): [lo, top)
 * the stack, `over` how far below it the overrun reached at least (0: unknown), `how`
 * what caught it; `where`: OWN, the stack is u's own; NOMINAL, u ran on a stack its joiner
 * lent it (core/unit/lend.c) and [lo, top) is the part of its
 * stack size; LENDER, u ran past the low end of that whole stack. */
enum { OWN, LENDER, NOMINAL }; /* report_range's `where` */
static void report_range(weft_unit *u, uintptr_t lo, uintptr_t top, size_t size, size_t over,
                         const char *how, int where)
{
    struct msg m = { .n = 0 };
    if (u) {
        put(&m, "weft: stack overflow in ULT ");
        put_dec(&m, weft_unit_id(u));
        put(&m, " (created with ");
        put_fn(&m, u->fn);
        put(&m, ", ABT_thread ");
        put_hex(&m, (uintptr_t)u);
        put(&m, ")");
    } else {
        put(&m, "weft: stack overflow in the scheduler of execution stream ");
        weft_xstream *xs = weft_tls_xs;
        put_dec(&m, xs ? (uint64_t)xs->rank : 0);
    }
    put(&m, where == LENDER ? ": it ran on the stack its joiner lent it (it had room for the "
                              "ULT's own stack size) and ran past the low end of that stack of "
                            : ": it ran past the low end of its stack of ");
    put_dec(&m, size);
    put(&m, " bytes [");
    put_hex(&m, lo);
    put(&m, ", ");
    put_hex(&m, top);
    put(&m, ")");
    if (where == NOMINAL)
        put(&m, " (on the stack its joiner lent it)");
    if (over) {
        put(&m, " by at least ");
        put_dec(&m, over);
        put(&m, " bytes");
    }
    put(&m, "; ");
    put(&m, how);
    put(&m, ".\nweft: give it a larger stack: ");
    if (u) {
        put(&m, "raise ABT_THREAD_STACKSIZE (the default size, now ");
        put_dec(&m, weft_g.cfg.thread_stacksize);
        put(&m, " bytes), or create the ULT with an attribute whose size is set by "
                "ABT_thread_attr_set_stacksize.\n");
    } else {
        put(&m, "raise ABT_SCHED_STACKSIZE (now ");
        put_dec(&m, weft_g.cfg.sched_stacksize);
        put(&m, " bytes).\n");
    }
    if (where == LENDER)
        put(&m, "weft: a ULT that goes that deep may also recurse without end.\n");
    const char *p = m.buf;
    size_t left = m.n;
    while (left) {
        ssize_t w = write(STDERR_FILENO, p, left);
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
}

static void report(weft_unit *u, weft_stack *s, size_t over, const char *how)
{
    report_range(u, (uintptr_t)weft_stack_lo(s), (uintptr_t)weft_stack_top(s), s->usable, over, how,
                 OWN);
}

void weft_canary_fail(weft_unit *u)
{
    weft_stack *s = u->stack;
    size_t over = weft_canary_damage(s->canary + 1);
    report(u, s, over ? over + ((uintptr_t)weft_stack_lo(s) & 7) : 0,
           "the canary below it was overwritten (found when the ULT left its stack)");
    abort();
}

void weft_lend_canary_fail(weft_unit *u, uintptr_t lo)
{
    uintptr_t top = lo + u->stack_size; /* as ABT_thread_get_stack gives it */
    /* the canary word right below lo: how far its damage reaches */
    const volatile unsigned char *w = (const unsigned char *)lo - sizeof(uintptr_t);
    const uintptr_t v = WEFT_CANARY_VALUE;
    const unsigned char *pv = (const unsigned char *)&v;
    size_t over = 0;
    for (size_t i = 0; i < sizeof(uintptr_t); i++)
        if (w[i] != pv[i]) {
            over = sizeof(uintptr_t) - i;
            break;
        }
    report_range(u, lo, top, top - lo, over,
                 over ? "the canary below it was overwritten (found when the ULT left that "
                        "range or returned)"
                      : "its frames reached below it (found when it lent the stack on)",
                 NOMINAL);
    abort();
}

/* ---------------------------------------------------------------- the SIGSEGV handler */

static uintptr_t fault_sp(void *uc)
{
    ucontext_t *c = uc;
#if defined(__x86_64__)
    return (uintptr_t)c->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)c->uc_mcontext.sp;
#else
    (void)c;
    return 0;
#endif
}

/* Did this fault overflow the stack [lo, top) (of `size` usable bytes)?  Returns how far
 * below the stack it reached (at least 1), 0 if it is no overflow of it: the access below
 * it (within OVERRUN_REACH) while the stack pointer is in the stack or below it. */
static size_t overflowed_range(uintptr_t lo, uintptr_t top, size_t size, uintptr_t addr,
                               uintptr_t sp, const char **how)
{
    if (addr >= lo || lo - addr > OVERRUN_REACH)
        return 0;
    if (sp && sp <= top && top - sp <= size + OVERRUN_REACH) {
        *how = sp < lo ? "the stack pointer went below it" : "an access below it faulted";
        return lo - (sp < addr ? sp : addr);
    }
    return 0;
}

static size_t sys_page(void) { return weft_g.cfg.sys_page_size ? weft_g.cfg.sys_page_size : 4096; }

/* A guard page [g, g + pg) inside a stack's own bytes (guard_in_stack): a fault on it is
 * an overflow when the stack pointer came down to it (in the guard, below it, or within a
 * page above it).  An access from higher up is no overrun - the program reads its own
 * stack's range, as Argobots' stack_guard test does - and goes to the handler before
 * ours.  Returns how far below the usable part, [g + pg, ...), it reached; 0 if none. */
static size_t overflowed_inside(uintptr_t g, size_t pg, uintptr_t addr, uintptr_t sp,
                                const char **how)
{
    if (!g || addr < g || addr >= g + pg || (sp && sp >= g + 2 * pg))
        return 0;
    *how = "the access hit the guard page at the bottom of it";
    return g + pg - addr;
}

/* ... of the stack s weft allocated (or its guard page) */
static size_t overflowed(weft_stack *s, uintptr_t addr, uintptr_t sp, const char **how)
{
    if (!s)
        return 0;
    uintptr_t base = (uintptr_t)s->map_base, lo = (uintptr_t)weft_stack_lo(s);
    size_t pg = sys_page();
    if (s->guard_inside)
        return overflowed_inside(weft_stack_guard(s, pg), pg, addr, sp, how);
    if (addr >= lo || lo - addr > OVERRUN_REACH)
        return 0;
    if (s->guarded && addr >= base && addr < base + pg) {
        *how = "the access hit the guard page below it";
        return lo - addr;
    }
    return overflowed_range(lo, (uintptr_t)weft_stack_top(s), s->usable, addr, sp, how);
}

/* ---------------------------------------------------------------- user-given stacks */

/* The guard page of a user-given stack (guard_in_stack): the first whole page of it, if
 * the stack holds it and two more (frames above it); 0 if it gets none. */
static uintptr_t user_guard(const weft_unit *u)
{
    size_t pg = sys_page();
    uintptr_t lo = (uintptr_t)u->user_stack, g = (lo + pg - 1) / pg * pg;
    if (!weft_g.cfg.guard_in_stack || !lo || u->stack_size < 3 * pg ||
        g + 3 * pg > lo + u->stack_size)
        return 0;
    return g;
}

int weft_overflow_user_guard_set(weft_unit *u)
{
    uintptr_t g = user_guard(u);
    if (!g)
        return ABT_SUCCESS;
    if (mprotect((void *)g, sys_page(), PROT_NONE) != 0) {
        /* mprotect_strict: a guard is required; else the stack goes without */
        return weft_g.cfg.stack_overflow_check == 3 ? ABT_ERR_MEM : ABT_SUCCESS;
    }
    weft_atomic_store_relaxed(&u->cold, 1); /* weft_unit_release_extras restores it */
    return ABT_SUCCESS;
}

void weft_overflow_user_guard_clear(weft_unit *u)
{
    uintptr_t g = user_guard(u);
    if (g && mprotect((void *)g, sys_page(), PROT_READ | PROT_WRITE) != 0)
        weft_warn("cannot restore the guard page %p of a user-given stack", (void *)g);
}

/* A unit on its joiner's stack (LENT, BORROWED): did the fault overflow the stack under
 * it?  Reports and aborts if so. */
static void lent_overflow(weft_unit *u, uintptr_t addr, uintptr_t sp)
{
    weft_stack *st;
    uintptr_t lo = weft_unit_lent_lo(u), top = lo + u->stack_size;
    const char *how = NULL;
    size_t over;
    /* below the part of its stack size: an overrun of that size, as on a stack of its own */
    if ((over = overflowed_range(lo, top, top - lo, addr, sp, &how)) != 0) {
        report_range(u, lo, top, top - lo, over, how, NOMINAL);
        abort();
    }
    if (!weft_unit_lent_stack(u, &st, &lo, &top))
        return;
    if (st) {
        over = overflowed(st, addr, sp, &how);
        lo = (uintptr_t)weft_stack_lo(st);
        top = (uintptr_t)weft_stack_top(st);
    } else {
        over = overflowed_range(lo, top, top - lo, addr, sp, &how);
    }
    if (over) {
        report_range(u, lo, top, top - lo, over, how, LENDER);
        abort();
    }
}

static void chain(int sig, siginfo_t *si, void *uc)
{
    if (old_segv.sa_flags & SA_SIGINFO) {
        if (old_segv.sa_sigaction) {
            old_segv.sa_sigaction(sig, si, uc);
            return;
        }
    } else if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN) {
        old_segv.sa_handler(sig);
        return;
    }
    /* default action: return with the default disposition; the access faults again */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
}

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
    weft_xstream *xs = weft_tls_xs;
    if (xs && si && si->si_code > 0) { /* raised by the kernel for an access */
        uintptr_t addr = (uintptr_t)si->si_addr, sp = fault_sp(uc);
        weft_unit *u = xs->cur;
        const char *how = NULL;
        size_t over;
        if (u && (u->flags & WEFT_U_ULT) &&
            (u->stack_kind == WEFT_STACK_LENT || u->stack_kind == WEFT_STACK_BORROWED))
            lent_overflow(u, addr, sp);
        else if (u && (u->flags & WEFT_U_ULT) && u->stack_kind != WEFT_STACK_USER &&
                 (over = overflowed(u->stack, addr, sp, &how)) != 0) {
            report(u, u->stack, over, how);
            abort();
        } else if (u && (u->flags & WEFT_U_ULT) && u->stack_kind == WEFT_STACK_USER &&
                   (over = overflowed_inside(user_guard(u), sys_page(), addr, sp, &how)) != 0) {
            uintptr_t lo = (uintptr_t)u->user_stack;
            report_range(u, lo, lo + u->stack_size, u->stack_size, over, how, OWN);
            abort();
        }
        weft_sched *s = xs->sched;
        if (s && !s->unit && (over = overflowed(s->stack, addr, sp, &how)) != 0) {
            report(NULL, s->stack, over, how);
            abort();
        }
    }
    chain(sig, si, uc);
}

/* ---------------------------------------------------------------- set-up */

void weft_overflow_thread_init(void)
{
    if (!installed || alt_mem)
        return;
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
        return; /* the thread has one already: keep it */
    void *m = weft_map_anon(ALTSTACK_SIZE, 0);
    if (!m)
        return; /* no report then, only the crash */
    stack_t ss = { .ss_sp = m, .ss_size = ALTSTACK_SIZE, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0) {
        munmap(m, ALTSTACK_SIZE);
        return;
    }
    alt_mem = m;
}

void weft_overflow_thread_fini(void)
{
    if (!alt_mem)
        return;
    stack_t ss = { .ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE };
    sigaltstack(&ss, NULL);
    munmap(alt_mem, ALTSTACK_SIZE);
    alt_mem = NULL;
}

bool weft_overflow_canary_wanted(void)
{
    return weft_g.cfg.stack_overflow_check != 0 && !ON_VALGRIND();
}

void weft_overflow_init(void)
{
    int mode = weft_g.cfg.stack_overflow_check;
    if (mode == 0)
        return;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = segv_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &old_segv) != 0)
            return;
        installed = true;
    }
    weft_overflow_thread_init();
}

void weft_overflow_finalize(void)
{
    weft_overflow_thread_fini();
    if (!installed)
        return;
    struct sigaction cur;
    if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
        cur.sa_sigaction == segv_handler)
        sigaction(SIGSEGV, &old_segv, NULL);
    installed = false;
}
