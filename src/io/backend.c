/* src/io/backend.c - choosing the backend: io_uring when this build has it, the kernel
 * allows it and its probe passes, unless WEFT_IO_BACKEND=threads; the threads backend
 * otherwise.  Chosen once, by the first op, which also registers the fork() handler that
 * makes a child's first I/O start afresh. */
#include "io/op.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft_io.h"

const struct weft_io_backend *weft_io_chosen;
static pthread_once_t pick_once = PTHREAD_ONCE_INIT;

static const struct weft_poll_hook threads_hook = {
    .name = "io-threads",
    .cancel = weft_io_hook_cancel,
};

static void atfork_child(void)
{
    /* only the forking thread lives on: no other thread holds a bucket lock or has an
     * op in flight in the child */
    weft_io_registry_atfork_child();
    weft_io_threads_atfork_child();
#if WEFT_IO_HAVE_URING
    weft_io_uring_atfork_child();
#endif
}

static void pick(void)
{
    (void)pthread_atfork(NULL, NULL, atfork_child);
    const char *env = getenv("WEFT_IO_BACKEND");
    bool want_uring = true;
    if (env && *env) {
        if (!strcmp(env, "threads"))
            want_uring = false;
        else if (strcmp(env, "uring") != 0)
            fprintf(stderr,
                    "weft-io: WEFT_IO_BACKEND=%s is neither uring nor threads; "
                    "using the default\n",
                    env);
    }
    if (want_uring) {
#if WEFT_IO_HAVE_URING
        const char *why = "";
        int rc = -EPERM;
        FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
        int disabled = 0;
        if (f) {
            if (fscanf(f, "%d", &disabled) != 1)
                disabled = 0;
            fclose(f);
        }
        if (disabled == 2)
            why = "kernel.io_uring_disabled=2";
        else
            rc = weft_io_uring_probe(&why);
        if (rc == 0 && weft_poll_hook_add(&weft_io_uring_hook) == 0) {
            __atomic_store_n(&weft_io_chosen, &weft_io_uring_backend, __ATOMIC_RELEASE);
            return;
        }
        if (rc == 0)
            why = "no poll hook slot left";
        fprintf(stderr, "weft-io: io_uring unavailable (%s%s%s); using the threads backend\n", why,
                rc ? ": " : "", rc ? strerror(-rc) : "");
#else
        if (env && !strcmp(env, "uring"))
            fprintf(stderr, "weft-io: built without liburing; using the threads backend\n");
#endif
    }
    (void)weft_poll_hook_add(&threads_hook); /* only for ABT_thread_cancel */
    __atomic_store_n(&weft_io_chosen, &weft_io_threads_backend, __ATOMIC_RELEASE);
}

const struct weft_io_backend *weft_io_pick(void)
{
    pthread_once(&pick_once, pick);
    return __atomic_load_n(&weft_io_chosen, __ATOMIC_ACQUIRE);
}

WEFT_API const char *weft_io_backend(void)
{
    const struct weft_io_backend *b = weft_io_be();
#if WEFT_IO_HAVE_URING
    if (b == &weft_io_uring_backend && weft_io_uring_dead())
        return weft_io_threads_backend.name;
#endif
    return b->name;
}
