/* src/pthread/real.c - the real pthread functions, and whether weft or the program calls.
 *
 * The real functions are found with dlsym(RTLD_NEXT): the next definition after this
 * library in the global lookup order, i.e. glibc's (when a sanitizer's interceptor comes
 * before us, its own "real" pointer leads back here and we forward past it).  They are
 * resolved on first use and cached; resolution is idempotent, so two threads racing on it
 * store the same pointer.
 *
 * `internal` (face.h) is a thread-local word: 1 while the OS thread runs weft, 0 while it
 * runs the program.  Rejected: telling weft's calls apart by return address (a tail call
 * or a sanitizer interceptor in between hides the caller) and rebinding libweft's imports
 * (GOT patching: fragile, and the sanitizers' interceptors would still lead back here). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "pthread/face.h"

void *_Atomic pth_real_tab[PTH_R_COUNT];

static const char *const real_names[PTH_R_COUNT] = {
#define PTH_NAME(n) [PTH_R_##n] = #n,
    PTH_REAL_NAMES(PTH_NAME)
#undef PTH_NAME
};

/* Functions glibc added late (2.26 to 2.35): callers check for NULL. */
static bool optional(enum pth_real_id id)
{
    return id == PTH_R_pthread_mutex_clocklock || id == PTH_R_pthread_cond_clockwait ||
           id == PTH_R_pthread_rwlock_clockrdlock || id == PTH_R_pthread_rwlock_clockwrlock ||
           id == PTH_R_pthread_tryjoin_np || id == PTH_R_pthread_timedjoin_np ||
           id == PTH_R_epoll_pwait2 || id == PTH_R_preadv2 || id == PTH_R_pwritev2 ||
           id == PTH_R_preadv64v2 || id == PTH_R_pwritev64v2 || id == PTH_R_fcntl64;
}

void *pth_real_resolve(enum pth_real_id id)
{
    void *p = dlsym(RTLD_NEXT, real_names[id]);
    if (!p) /* glibc comes before us (a program calling the weft_ names: weft_pthread.h) */
        p = dlsym(RTLD_DEFAULT, real_names[id]);
    if (!p && !optional(id)) {
        fprintf(stderr, "libweft-pthread: the real %s was not found (dlsym: %s)\n", real_names[id],
                dlerror());
        abort();
    }
    weft_atomic_store_relaxed(&pth_real_tab[id], p);
    return p;
}

/* initial-exec: the library is loaded at start-up (preloaded or a dependency), so the
 * word is in the static TLS block: one %fs-relative access. */
static __thread int internal __attribute__((tls_model("initial-exec")));

int pth_internal(void)
{
    __asm__ volatile("" ::: "memory");
    return internal;
}

void pth_set_internal(int v)
{
    __asm__ volatile("" ::: "memory");
    internal = v;
}

int pth_get_errno(void)
{
    __asm__ volatile("" ::: "memory");
    return errno;
}

void pth_set_errno(int e)
{
    __asm__ volatile("" ::: "memory");
    errno = e;
}

struct timespec pth_to_realtime(clockid_t clock, const struct timespec *abs)
{
    if (clock == CLOCK_REALTIME)
        return *abs;
    struct timespec now_c, now_rt;
    clock_gettime(clock, &now_c);
    clock_gettime(CLOCK_REALTIME, &now_rt);
    int64_t rel =
        (int64_t)(abs->tv_sec - now_c.tv_sec) * 1000000000 + (abs->tv_nsec - now_c.tv_nsec);
    int64_t t = (int64_t)now_rt.tv_sec * 1000000000 + now_rt.tv_nsec + (rel > 0 ? rel : 0);
    struct timespec r = { .tv_sec = t / 1000000000, .tv_nsec = t % 1000000000 };
    return r;
}

bool pth_passed(const struct timespec *abs_rt)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > abs_rt->tv_sec ||
           (now.tv_sec == abs_rt->tv_sec && now.tv_nsec >= abs_rt->tv_nsec);
}
