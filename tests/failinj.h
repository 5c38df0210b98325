/* tests/failinj.h - failure injection over the public API (test support, header only).
 *
 * Include it from exactly one test program (tests/failinj_*.c).  It defines malloc,
 * calloc, realloc, free, posix_memalign, aligned_alloc, memalign, mmap, munmap,
 * pthread_create and pthread_join in the executable.  The executable comes first in the
 * dynamic linker's search order, so libweft.so binds to these definitions; each forwards
 * to the next definition (libc, or a sanitizer's interceptor) found with
 * dlsym(RTLD_NEXT).
 *
 * Only calls whose return address lies in libweft's code are *traced*: counted, failable
 * and, for allocations, tracked until freed.  libc's own allocations (stdio buffers, the
 * dynamic linker) and the test program's are left alone, so a failure always means
 * "weft asked for a resource and did not get it".
 *
 * The driver, fi_main(program), runs `program` in a forked child for k = 1, 2, ...; in
 * child k the k-th traced call (all kinds counted together, so every call site the run
 * reaches fails once, in turn) fails: an allocation returns NULL/ENOMEM, mmap MAP_FAILED
 * with ENOMEM (NULL in the burst pass, as Argobots' tracer returns), pthread_create
 * EAGAIN.  A first pass fails one call per child, a second a burst of FI_BURST_LEN
 * consecutive calls (error paths that allocate, retries that fail again).  The child
 * then checks
 *   - every public call that failed returned the documented error for what failed
 *     (ABT_ERR_MEM for memory, ABT_ERR_SYS or ABT_ERR_XSTREAM for a refused thread), and
 *     did so during the call in which the failure was injected (FI_OK and friends);
 *   - output handles are set as Argobots 1.x documents on error: the NULL handle for
 *     most creation routines (FI_OUT_NULL), untouched for the few whose documentation says
 *     so (FI_OUT_KEEP);
 *   - after ABT_finalize nothing weft allocated, mapped or started is left: every traced
 *     block was freed, every traced mapping unmapped, every traced thread joined;
 *   - it neither crashes nor hangs (an alarm kills a child that runs too long).
 * The loop stops at the first k that the program never reaches: that last child ran
 * without any failure and must have succeeded in every call.  Forking keeps each k in a
 * fresh process (the parent never calls ABT_init), so one broken error path cannot
 * poison the next run, and a crash is reported with the k and the call site that failed.
 *
 * Environment: FI_VERBOSE=1 prints one line per k; FI_ONLY=k [FI_BURST=n] runs just
 * that child; FI_KEEP_GOING=1 goes on after a failing child.
 * Under valgrind, memcheck replaces malloc and friends in every object, the executable
 * included, so only mmap and pthread_create are traced there (valgrind's own leak check
 * covers the heap in each child).  Under AddressSanitizer and ThreadSanitizer an
 * executable cannot define malloc: the programs skip. */
#ifndef WEFT_FAILINJ_H
#define WEFT_FAILINJ_H

#define _GNU_SOURCE
#include "child_test.h"
#include "test.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* AddressSanitizer and ThreadSanitizer own malloc, mmap and pthread_create themselves; an
 * executable that defines them too crashes before main.  Those builds skip (exit 77). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FI_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FI_UNDER_SANITIZER 1
#endif
#endif
#ifndef FI_UNDER_SANITIZER
#define FI_UNDER_SANITIZER 0
#endif
#if FI_UNDER_SANITIZER
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

enum fi_kind { FI_MALLOC, FI_CALLOC, FI_REALLOC, FI_MEMALIGN, FI_MMAP, FI_PTHREAD, FI_NKINDS };
static const char *const fi_kind_name[FI_NKINDS] = {
    "malloc", "calloc", "realloc", "aligned alloc", "mmap", "pthread_create",
};

/* ---- forwarding to the next definition --------------------------------------------- */

static void *(*fi_real_malloc)(size_t);
static void *(*fi_real_calloc)(size_t, size_t);
static void *(*fi_real_realloc)(void *, size_t);
static void (*fi_real_free)(void *);
static int (*fi_real_posix_memalign)(void **, size_t, size_t);
static void *(*fi_real_mmap)(void *, size_t, int, int, int, off_t);
static int (*fi_real_munmap)(void *, size_t);
static int (*fi_real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                     void *);
static int (*fi_real_pthread_join)(pthread_t, void **);

/* dlsym may allocate (its error buffer) before the real allocator is known: such
 * requests are served from a small bump area and never freed. */
static _Alignas(64) char fi_boot[1 << 16];
static _Atomic size_t fi_boot_used;
static __thread int fi_resolving;

static void *fi_boot_alloc(size_t n)
{
    n = (n + 63) & ~(size_t)63;
    size_t off = atomic_fetch_add(&fi_boot_used, n);
    if (off + n > sizeof(fi_boot))
        return NULL;
    return fi_boot + off;
}

static int fi_is_boot(const void *p)
{
    return (const char *)p >= fi_boot && (const char *)p < fi_boot + sizeof(fi_boot);
}

static __attribute__((unused)) void fi_resolve(void)
{
    if (fi_real_free || fi_resolving)
        return;
    fi_resolving = 1;
    fi_real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    fi_real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    fi_real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    fi_real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    fi_real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    fi_real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
    fi_real_pthread_create = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                      void *))dlsym(RTLD_NEXT, "pthread_create");
    fi_real_pthread_join = (int (*)(pthread_t, void **))dlsym(RTLD_NEXT, "pthread_join");
    void (*f)(void *) = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    fi_resolving = 0;
    if (!f || !fi_real_malloc || !fi_real_mmap || !fi_real_pthread_create) {
        static const char msg[] = "failinj: cannot resolve the real allocator\n";
        (void)!write(2, msg, sizeof(msg) - 1);
        _exit(1);
    }
    fi_real_free = f;
}

/* ---- which code is traced: libweft's executable segments --------------------------- */

static uintptr_t fi_lo, fi_hi;

static int fi_phdr_cb(struct dl_phdr_info *info, size_t sz, void *base)
{
    if ((void *)info->dlpi_addr != base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (!fi_lo || lo < fi_lo)
            fi_lo = lo;
        if (hi > fi_hi)
            fi_hi = hi;
    }
    return 1;
}

static void fi_find_weft(void)
{
    Dl_info di;
    if (!dladdr((void *)ABT_init, &di) || !di.dli_fbase)
        TEST_FAIL("failinj: dladdr(ABT_init) failed");
    Dl_info me;
    if (dladdr((void *)fi_find_weft, &me) && me.dli_fbase == di.dli_fbase)
        TEST_FAIL("failinj: weft is linked statically into the test; link libweft.so");
    /* dl_iterate_phdr reports the load bias, dladdr the lowest mapped address; for a
     * shared object linked at 0 the two agree */
    dl_iterate_phdr(fi_phdr_cb, di.dli_fbase);
    if (!fi_hi)
        TEST_FAIL("failinj: libweft's code segment not found");
}

static inline int fi_traced(const void *caller)
{
    return (uintptr_t)caller >= fi_lo && (uintptr_t)caller < fi_hi;
}

/* ---- the injection counter ---------------------------------------------------------- */

#define FI_MAX_BURST 16
static int fi_armed;                   /* set in the child before the program runs */
static long fi_fail_at;                /* the first traced call to fail (1-based) */
static long fi_burst = 1;              /* how many traced calls fail from there on */
static _Atomic long fi_calls;          /* traced calls so far */
static _Atomic long fi_injected;       /* failures injected so far */
static int fi_inj_kinds[FI_MAX_BURST]; /* kind of the i-th injected failure */
static const void *fi_inj_callers[FI_MAX_BURST];

static int fi_should_fail(int kind, const void *caller)
{
    if (!fi_armed || !fi_traced(caller))
        return 0;
    long n = atomic_fetch_add(&fi_calls, 1) + 1;
    if (n < fi_fail_at || n >= fi_fail_at + fi_burst)
        return 0;
    if (n - fi_fail_at < FI_MAX_BURST) {
        fi_inj_kinds[n - fi_fail_at] = kind;
        fi_inj_callers[n - fi_fail_at] = caller;
    }
    atomic_fetch_add(&fi_injected, 1);
    return 1;
}
/* ---- live blocks (open addressing, tombstones), mappings, threads -------------------- */

#define FI_TAB_SIZE (1 << 16)
#define FI_TOMB     ((uintptr_t)1)
struct fi_block {
    uintptr_t p;
    size_t size;
    const void *caller;
};
static struct fi_block fi_tab[FI_TAB_SIZE];
static atomic_flag fi_lock = ATOMIC_FLAG_INIT;
static long fi_live_blocks;

static void fi_lock_take(void)
{
    while (atomic_flag_test_and_set_explicit(&fi_lock, memory_order_acquire))
        ;
}
static void fi_lock_drop(void) { atomic_flag_clear_explicit(&fi_lock, memory_order_release); }

static size_t fi_hash(uintptr_t p) { return (size_t)((p >> 4) * 0x9E3779B97F4A7C15ull >> 48); }

static void fi_track(void *p, size_t size, const void *caller)
{
    if (!p || !fi_armed || !fi_traced(caller))
        return;
    fi_lock_take();
    size_t i = fi_hash((uintptr_t)p);
    for (size_t n = 0; n < FI_TAB_SIZE; n++, i = (i + 1) & (FI_TAB_SIZE - 1)) {
        if (fi_tab[i].p <= FI_TOMB) {
            fi_tab[i] = (struct fi_block){ (uintptr_t)p, size, caller };
            fi_live_blocks++;
            fi_lock_drop();
            return;
        }
    }
    fi_lock_drop();
    static const char msg[] = "failinj: block table full\n";
    (void)!write(2, msg, sizeof(msg) - 1);
    _exit(1);
}

static void fi_untrack(void *p)
{
    if (!p)
        return;
    fi_lock_take();
    size_t i = fi_hash((uintptr_t)p);
    for (size_t n = 0; n < FI_TAB_SIZE && fi_tab[i].p; n++, i = (i + 1) & (FI_TAB_SIZE - 1)) {
        if (fi_tab[i].p == (uintptr_t)p) {
            fi_tab[i].p = FI_TOMB;
            fi_live_blocks--;
            break;
        }
    }
    fi_lock_drop();
}

#define FI_MAX_MAPS 4096
struct fi_map {
    uintptr_t lo, hi;
    const void *caller;
};
static struct fi_map fi_maps[FI_MAX_MAPS];
static int fi_nmaps;

static void fi_map_add(uintptr_t lo, uintptr_t hi, const void *caller)
{
    fi_lock_take();
    if (fi_nmaps == FI_MAX_MAPS) {
        fi_lock_drop();
        static const char msg[] = "failinj: mapping table full\n";
        (void)!write(2, msg, sizeof(msg) - 1);
        _exit(1);
    }
    fi_maps[fi_nmaps++] = (struct fi_map){ lo, hi, caller };
    fi_lock_drop();
}

/* munmap may cut a piece off a tracked mapping, or split it */
static void fi_map_remove(uintptr_t lo, uintptr_t hi)
{
    fi_lock_take();
    for (int i = 0; i < fi_nmaps; i++) {
        struct fi_map m = fi_maps[i];
        if (hi <= m.lo || lo >= m.hi)
            continue;
        if (lo <= m.lo && hi >= m.hi) {
            fi_maps[i--] = fi_maps[--fi_nmaps];
        } else if (lo <= m.lo) {
            fi_maps[i].lo = hi;
        } else if (hi >= m.hi) {
            fi_maps[i].hi = lo;
        } else {
            fi_maps[i].hi = lo;
            if (fi_nmaps < FI_MAX_MAPS)
                fi_maps[fi_nmaps++] = (struct fi_map){ hi, m.hi, m.caller };
        }
    }
    fi_lock_drop();
}

static _Atomic long fi_live_threads;

/* ---- the interposed functions -------------------------------------------------------- */

/* never inlined into the test's own code: the return address must be the real caller's */
#define FI_NOINLINE __attribute__((noinline, used))
#if !FI_UNDER_SANITIZER

FI_NOINLINE void *malloc(size_t n)
{
    fi_resolve();
    if (!fi_real_malloc)
        return fi_boot_alloc(n);
    const void *c = __builtin_return_address(0);
    if (fi_should_fail(FI_MALLOC, c)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_malloc(n);
    fi_track(p, n, c);
    return p;
}

FI_NOINLINE void *calloc(size_t a, size_t b)
{
    fi_resolve();
    if (!fi_real_calloc)
        return fi_boot_alloc(a * b); /* the bump area is zeroed */
    const void *c = __builtin_return_address(0);
    if (fi_should_fail(FI_CALLOC, c)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_calloc(a, b);
    fi_track(p, a * b, c);
    return p;
}

FI_NOINLINE void free(void *p)
{
    if (!p || fi_is_boot(p))
        return;
    fi_resolve();
    fi_untrack(p);
    fi_real_free(p);
}

FI_NOINLINE void *realloc(void *old, size_t n)
{
    fi_resolve();
    const void *c = __builtin_return_address(0);
    if (old && fi_is_boot(old)) {
        void *p = malloc(n);
        if (p)
            memcpy(p, old, n); /* boot blocks are large enough: never shrunk */
        return p;
    }
    if (fi_should_fail(FI_REALLOC, c)) {
        errno = ENOMEM;
        return NULL; /* the old block stays valid */
    }
    void *p = fi_real_realloc(old, n);
    if (p || n == 0) {
        fi_untrack(old);
        fi_track(p, n, c);
    }
    return p;
}

FI_NOINLINE int posix_memalign(void **out, size_t al, size_t n)
{
    fi_resolve();
    const void *c = __builtin_return_address(0);
    if (fi_should_fail(FI_MEMALIGN, c))
        return ENOMEM;
    int r = fi_real_posix_memalign(out, al, n);
    if (r == 0)
        fi_track(*out, n, c);
    return r;
}

static void *fi_memalign(size_t al, size_t n, const void *c)
{
    fi_resolve();
    if (fi_should_fail(FI_MEMALIGN, c)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = NULL;
    if (fi_real_posix_memalign(&p, al < sizeof(void *) ? sizeof(void *) : al, n) != 0) {
        errno = ENOMEM;
        return NULL;
    }
    fi_track(p, n, c);
    return p;
}

FI_NOINLINE void *aligned_alloc(size_t al, size_t n)
{
    return fi_memalign(al, n, __builtin_return_address(0));
}
FI_NOINLINE void *memalign(size_t al, size_t n)
{
    return fi_memalign(al, n, __builtin_return_address(0));
}

FI_NOINLINE void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    fi_resolve();
    const void *c = __builtin_return_address(0);
    if (fi_should_fail(FI_MMAP, c)) {
        errno = ENOMEM;
        /* Argobots' resource tracer reports a failed mmap as NULL; programs tested with
         * it must not crash weft, so the burst pass does the same */
        return fi_burst > 1 ? NULL : MAP_FAILED;
    }
    void *p = fi_real_mmap(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED && fi_armed && fi_traced(c))
        fi_map_add((uintptr_t)p, (uintptr_t)p + len, c);
    return p;
}

FI_NOINLINE int munmap(void *addr, size_t len)
{
    fi_resolve();
    int r = fi_real_munmap(addr, len);
    if (r == 0 && fi_armed) {
        size_t pg = (size_t)sysconf(_SC_PAGESIZE);
        fi_map_remove((uintptr_t)addr, (uintptr_t)addr + ((len + pg - 1) & ~(pg - 1)));
    }
    return r;
}

FI_NOINLINE int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                               void *arg)
{
    fi_resolve();
    const void *c = __builtin_return_address(0);
    if (fi_should_fail(FI_PTHREAD, c))
        return EAGAIN;
    int r = fi_real_pthread_create(t, attr, fn, arg);
    if (r == 0 && fi_armed && fi_traced(c))
        atomic_fetch_add(&fi_live_threads, 1);
    return r;
}

FI_NOINLINE int pthread_join(pthread_t t, void **ret)
{
    fi_resolve();
    const void *c = __builtin_return_address(0);
    int r = fi_real_pthread_join(t, ret);
    if (r == 0 && fi_armed && fi_traced(c))
        atomic_fetch_sub(&fi_live_threads, 1);
    return r;
}

#endif /* !FI_UNDER_SANITIZER */

/* ---- checks used by the programs ------------------------------------------------------ */

static void fi_where(const void *caller, char *buf, size_t len)
{
    Dl_info di;
    if (caller && dladdr(caller, &di) && di.dli_sname)
        snprintf(buf, len, "%s+0x%lx", di.dli_sname,
                 (unsigned long)((uintptr_t)caller - (uintptr_t)di.dli_saddr));
    else if (caller && dladdr(caller, &di) && di.dli_fname)
        snprintf(buf, len, "%s+0x%lx", di.dli_fname,
                 (unsigned long)((uintptr_t)caller - (uintptr_t)di.dli_fbase));
    else
        snprintf(buf, len, "%p", caller);
}

#define FI_FAIL(...)                                          \
    do {                                                      \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                         \
        fi_fail_tail();                                       \
    } while (0)

static void fi_fail_tail(void)
{
    char w[256];
    long n = atomic_load(&fi_injected);
    if (n) {
        fprintf(stderr, " [failing traced calls #%ld..#%ld:", fi_fail_at, fi_fail_at + n - 1);
        for (long i = 0; i < n && i < FI_MAX_BURST; i++) {
            fi_where(fi_inj_callers[i], w, sizeof(w));
            fprintf(stderr, " %s in %s;", fi_kind_name[fi_inj_kinds[i]], w);
        }
        fprintf(stderr, " rerun with FI_ONLY=%ld FI_BURST=%ld]\n", fi_fail_at, fi_burst);
    } else {
        fprintf(stderr, " [no failure injected]\n");
    }
    fflush(stderr);
    _exit(1);
}

/* The codes a routine may return for the failures injected while it ran
 * (injections before..after-1): ABT_ERR_MEM for memory, ABT_ERR_SYS or ABT_ERR_XSTREAM
 * for a refused thread. */
/* Set by a test's own callback (a user pool's create_unit) when it gives up because an
 * allocation of its own failed: the routine then reports ABT_ERR_OTHER, as Argobots does
 * for a create_unit that returns ABT_UNIT_NULL. */
static _Atomic int fi_user_null;

static int fi_code_ok(int r, long before, long after)
{
    if (r == ABT_ERR_OTHER && atomic_exchange(&fi_user_null, 0))
        return 1;
    int mem = 0, thr = 0;
    for (long i = before; i < after && i < FI_MAX_BURST; i++) {
        if (fi_inj_kinds[i] == FI_PTHREAD)
            thr = 1;
        else
            mem = 1;
    }
    return (mem && r == ABT_ERR_MEM) || (thr && (r == ABT_ERR_SYS || r == ABT_ERR_XSTREAM));
}

/* 1 on success; 0 on an error that a failure injected during the call explains; fails the
 * test on any other error.  `before` is fi_injected read before the call. */
static __attribute__((unused)) int fi_check(int r, long before, const char *expr, const char *file,
                                            int line)
{
    if (r == ABT_SUCCESS)
        return 1;
    long after = atomic_load(&fi_injected);
    if (!after)
        fprintf(stderr, "%s:%d: FAIL: %s returned %d (%s) with no failure injected", file, line,
                expr, r, test_errname(r));
    else if (after == before)
        fprintf(stderr,
                "%s:%d: FAIL: %s returned %d (%s), but no failure was injected "
                "while it ran",
                file, line, expr, r, test_errname(r));
    else if (!fi_code_ok(r, before, after))
        fprintf(stderr,
                "%s:%d: FAIL: %s returned %d (%s), expected ABT_ERR_MEM (memory) or "
                "ABT_ERR_SYS/ABT_ERR_XSTREAM (thread) for what failed",
                file, line, expr, r, test_errname(r));
    else
        return 0;
    fi_fail_tail();
    return 0;
}

/* FI_OK(call): 1 if it succeeded, 0 if it failed as the injected failure allows. */
#define FI_OK(call)                                         \
    ({                                                      \
        long fi_b_ = atomic_load(&fi_injected);             \
        fi_check((call), fi_b_, #call, __FILE__, __LINE__); \
    })

#define FI_SENTINEL ((intptr_t)0x5eed0bad)

/* A creation routine that, as Argobots 1.x documents, sets its output to the NULL handle
 * on error. */
#define FI_OUT_NULL(out, nullh, call)                                                      \
    ({                                                                                     \
        (out) = (__typeof__(out))FI_SENTINEL;                                              \
        int fi_ok_ = FI_OK(call);                                                          \
        if (!fi_ok_ && (out) != (nullh))                                                   \
            FI_FAIL("%s failed but left %s = %p, expected %s", #call, #out, (void *)(out), \
                    #nullh);                                                               \
        if (fi_ok_ && ((out) == (nullh) || (intptr_t)(out) == FI_SENTINEL))                \
            FI_FAIL("%s succeeded but did not set %s", #call, #out);                       \
        fi_ok_;                                                                            \
    })

/* A creation routine whose output stays untouched on error. */
#define FI_OUT_KEEP(out, call)                                                          \
    ({                                                                                  \
        (out) = (__typeof__(out))FI_SENTINEL;                                           \
        int fi_ok_ = FI_OK(call);                                                       \
        if (!fi_ok_ && (intptr_t)(out) != FI_SENTINEL)                                  \
            FI_FAIL("%s failed but wrote %s = %p; it must stay untouched", #call, #out, \
                    (void *)(out));                                                     \
        if (fi_ok_ && (intptr_t)(out) == FI_SENTINEL)                                   \
            FI_FAIL("%s succeeded but did not set %s", #call, #out);                    \
        fi_ok_;                                                                         \
    })

/* A call retried until it succeeds: a burst of failures ends, so it must succeed within
 * FI_MAX_BURST + 1 tries; each failed try must fail as FI_OK demands. */
#define FI_RETRY(call)                                                        \
    do {                                                                      \
        int fi_t_ = 0;                                                        \
        while (!FI_OK(call))                                                  \
            if (++fi_t_ > FI_MAX_BURST)                                       \
                FI_FAIL("%s still fails after the burst of failures", #call); \
    } while (0)

/* A call that must succeed even with a failure injected (frees, getters...). */
#define FI_MUST(call)                                                          \
    do {                                                                       \
        int fi_r_ = (call);                                                    \
        if (fi_r_ != ABT_SUCCESS)                                              \
            FI_FAIL("%s returned %d (%s), expected ABT_SUCCESS", #call, fi_r_, \
                    test_errname(fi_r_));                                      \
    } while (0)

/* ---- the driver ------------------------------------------------------------------------ */

static void fi_check_leaks(void)
{
    int bad = 0;
    char w[256];
    fi_lock_take();
    if (fi_live_blocks) {
        fprintf(stderr, "FAIL: %ld block(s) allocated by weft not freed after ABT_finalize:\n",
                fi_live_blocks);
        int shown = 0;
        for (size_t i = 0; i < FI_TAB_SIZE && shown < 8; i++)
            if (fi_tab[i].p > FI_TOMB) {
                fi_where(fi_tab[i].caller, w, sizeof(w));
                fprintf(stderr, "  %zu bytes at %p from %s\n", fi_tab[i].size, (void *)fi_tab[i].p,
                        w);
                shown++;
            }
        bad = 1;
    }
    if (fi_nmaps) {
        fprintf(stderr, "FAIL: %d mapping(s) made by weft not unmapped after ABT_finalize:\n",
                fi_nmaps);
        for (int i = 0; i < fi_nmaps && i < 8; i++) {
            fi_where(fi_maps[i].caller, w, sizeof(w));
            fprintf(stderr, "  %zu bytes at %p from %s\n", (size_t)(fi_maps[i].hi - fi_maps[i].lo),
                    (void *)fi_maps[i].lo, w);
        }
        bad = 1;
    }
    fi_lock_drop();
    if (atomic_load(&fi_live_threads)) {
        fprintf(stderr, "FAIL: %ld thread(s) started by weft not joined after ABT_finalize\n",
                atomic_load(&fi_live_threads));
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, " ");
        fi_fail_tail();
    }
}

enum { FI_CHILD_DONE_NOFAIL = 3 };

/* FI_KEEP_GOING=1: report a failing child and go on with the next k (exit 1 at the end) */
static int fi_failed_children;
#define FI_REPORT(...)                         \
    do {                                       \
        if (!getenv("FI_KEEP_GOING"))          \
            TEST_FAIL(__VA_ARGS__);            \
        fprintf(stderr, "FAIL: " __VA_ARGS__); \
        fputc('\n', stderr);                   \
        fi_failed_children++;                  \
        return 1;                              \
    } while (0)

static int fi_is_slow(void) { return getenv("WEFT_TEST_SLOW") != NULL; }

/* One child: fail traced calls k .. k+burst-1.  Returns the number of failures it saw
 * injected (0: the program made fewer than k traced calls); fails the test otherwise. */
static long fi_run_child(const char *name, void (*program)(void), long k, long burst, int *kind0,
                         char *where, size_t wlen)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        TEST_FAIL("pipe");
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        TEST_FAIL("fork failed");
    if (pid == 0) {
        child_dies_with_parent(parent);
        close(pfd[0]);
        alarm(fi_is_slow() ? 150 : 30);
        fi_fail_at = k;
        fi_burst = burst;
        fi_armed = 1;
        program();
        fi_check_leaks();
        fi_armed = 0;
        int report[2] = { (int)atomic_load(&fi_injected), fi_inj_kinds[0] };
        char w[256];
        fi_where(fi_inj_callers[0], w, sizeof(w));
        (void)!write(pfd[1], report, sizeof(report));
        (void)!write(pfd[1], w, strlen(w) + 1);
        fflush(stdout);
        fflush(stderr);
        _exit(report[0] ? 0 : FI_CHILD_DONE_NOFAIL);
    }
    close(pfd[1]);
    int report[2] = { 0, 0 };
    where[0] = 0;
    if (read(pfd[0], report, sizeof(report)) == (ssize_t)sizeof(report)) {
        ssize_t m = read(pfd[0], where, wlen - 1);
        where[m > 0 ? m : 0] = 0;
    }
    close(pfd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(st))
        FI_REPORT("%s: failing traced calls #%ld..#%ld killed the program with signal %d (%s)%s;"
                  " rerun with FI_ONLY=%ld FI_BURST=%ld",
                  name, k, k + burst - 1, WTERMSIG(st), strsignal(WTERMSIG(st)),
                  WTERMSIG(st) == SIGALRM ? ": it hung" : "", k, burst);
    int code = WEXITSTATUS(st);
    if (code == FI_CHILD_DONE_NOFAIL)
        return 0;
    if (code != 0)
        FI_REPORT("%s: failing traced calls #%ld..#%ld: the program failed (exit %d)", name, k,
                  k + burst - 1, code);
    *kind0 = report[0] ? report[1] % FI_NKINDS : 0;
    return report[0];
}

/* Runs program() in a child per k, in two passes: first the k-th traced call alone fails,
 * then a burst of FI_BURST_LEN calls from the k-th on (cleanup paths that allocate, and
 * retries that fail again).  Returns the test's exit code.
 * FI_ONLY=k [FI_BURST=n] runs one child; FI_VERBOSE=1 prints a line per child. */
enum { FI_BURST_LEN = 6 };

static __attribute__((unused)) int fi_main(const char *name, void (*program)(void))
{
    if (FI_UNDER_SANITIZER)
        TEST_SKIP("%s: the sanitizer runtime owns malloc/mmap/pthread_create; failure "
                  "injection runs in the release and valgrind builds",
                  name);
    setvbuf(stdout, NULL, _IOLBF, 0);
    fi_resolve();
    fi_find_weft();
    int verbose = getenv("FI_VERBOSE") != NULL;
    char where[256];
    int kind;
    if (getenv("FI_ONLY")) {
        long burst = getenv("FI_BURST") ? atol(getenv("FI_BURST")) : 1;
        if (burst < 1 || burst > FI_MAX_BURST)
            TEST_FAIL("FI_BURST must be 1..%d", FI_MAX_BURST);
        long n = fi_run_child(name, program, atol(getenv("FI_ONLY")), burst, &kind, where,
                              sizeof(where));
        printf("%s: %ld failure(s) injected, first %s in %s: passed\n", name, n, fi_kind_name[kind],
               where);
        return 0;
    }
    /* slow builds (sanitizers, valgrind) fail every stride-th call site; the offset
     * rotates with the pid so repeated runs cover all of them */
    const char *pre = getenv("LD_PRELOAD");
    int valgrind = pre && strstr(pre, "vgpreload");
    long stride = fi_is_slow() && !valgrind ? 3 : 1;
    long offset = stride > 1 ? (long)getpid() % stride : 0;
    static const long bursts[2] = { 1, FI_BURST_LEN };
    for (int pass = 0; pass < 2; pass++) {
        long points = 0, per_kind[FI_NKINDS] = { 0 };
        for (long k = 1 + offset;; k += stride) {
            long n = fi_run_child(name, program, k, bursts[pass], &kind, where, sizeof(where));
            if (n == 0)
                break;
            points++;
            per_kind[kind]++;
            if (verbose)
                printf("%s: burst %ld k=%ld: %s in %s\n", name, bursts[pass], k, fi_kind_name[kind],
                       where);
            if (k > 200000)
                TEST_FAIL("%s: more than 200000 traced calls; is the program bounded?", name);
        }
        if (points == 0)
            TEST_FAIL("%s: no traced call was made: is the tracer bound to libweft?", name);
        printf("%s: burst %ld: failed from each of %ld traced call(s) (stride %ld, offset %ld):",
               name, bursts[pass], points, stride, offset);
        for (int i = 0; i < FI_NKINDS; i++)
            if (per_kind[i])
                printf(" %s %ld", fi_kind_name[i], per_kind[i]);
        printf("; all reported or recovered, nothing leaked, no crash\n");
    }
    if (fi_failed_children)
        TEST_FAIL("%s: %d child run(s) failed", name, fi_failed_children);
    return 0;
}

#endif
