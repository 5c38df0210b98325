/* src/pthread/fork.c - fork() and the program's pthread_atfork handlers.
 *
 * weft registers fork handlers of its own with glibc (core: "fork()"), which take weft's
 * locks: they must run with the who-calls word set (face.h), and the program's handlers
 * with it clear - a program's prepare handler that locks one of its mutexes (ours) needs
 * a working runtime, and its child handler that unlocks it needs the child's runtime
 * back.  So the program's handlers are not glibc's: pthread_atfork
 * (and __register_atfork, which the pthread_atfork that glibc links into each object
 * calls with the object's __dso_handle) keeps them in a list of our own, which our fork
 * runs itself: the program's prepare handlers first (word clear, runtime intact), then
 * the real fork with the word set (weft's handlers, however late weft registered them),
 * then the parent or child handlers (word clear; the child's runtime is back).  Around
 * the real fork the layer holds its record lock (runtime.c), so no stream is inside it
 * at the fork.  Order within the list is POSIX's: prepare in reverse order of
 * registration, parent and child in order.  A fork that does not come through our fork
 * (glibc's own, in daemon; one that reaches glibc past us) still runs the list: a trio
 * of ours, registered with glibc by the constructor, before weft's, does it there (then
 * the program's prepare handlers run after weft's, and its parent and child handlers
 * before weft's: one that waits for another thread may deadlock; a sanitized program
 * calls weft_fork, weft_pthread.h).  The list is appended under a lock and read without
 * it (nodes are never unlinked; a handler registered during a fork runs from the next
 * one); __cxa_finalize of an unloaded object (interposed) disables that object's
 * handlers, as glibc does for its own list.
 *
 * The child keeps the runtime when the main thread (the primary ULT) forked, as weft
 * documents; its other streams, and the threads that ran on them, are gone. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdlib.h>
#include <unistd.h>

#include "pthread/face.h"

typedef void (*handler_fn)(void);

struct handler {
    handler_fn _Atomic prepare, parent, child; /* NULL once its object is unloaded */
    void *dso;
    struct handler *prev;         /* registered before */
    struct handler *_Atomic next; /* registered after */
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER; /* appenders only (glibc's) */
static struct handler *_Atomic head, *_Atomic tail;
static __thread int fork_word;             /* the forking thread's word at prepare */
static __thread struct handler *fork_last; /* the last handler a_prepare ran */

static int add(handler_fn prepare, handler_fn parent, handler_fn child, void *dso)
{
    struct handler *h = calloc(1, sizeof *h);
    if (!h)
        return ENOMEM;
    weft_atomic_store_relaxed(&h->prepare, prepare);
    weft_atomic_store_relaxed(&h->parent, parent);
    weft_atomic_store_relaxed(&h->child, child);
    h->dso = dso;
    pth_real(pthread_mutex_lock)(&list_lock);
    struct handler *t = weft_atomic_load_relaxed(&tail);
    h->prev = t;
    if (t)
        weft_atomic_store_release(&t->next, h);
    else
        weft_atomic_store_release(&head, h);
    weft_atomic_store_release(&tail, h);
    pth_real(pthread_mutex_unlock)(&list_lock);
    return 0;
}

/* The program's prepare handlers, newest first; returns where the list ended.  (Not in
 * a thread-local: a handler may block, and its ULT come back on another stream.) */
static struct handler *run_prepare(void)
{
    struct handler *last = weft_atomic_load_acquire(&tail);
    for (struct handler *h = last; h; h = h->prev) {
        handler_fn f = weft_atomic_load_relaxed(&h->prepare);
        if (f)
            f();
    }
    return last;
}

/* The program's parent or child handlers, oldest first, up to where prepare ended. */
static void run_after(struct handler *last, bool child)
{
    if (!last)
        return;
    for (struct handler *h = weft_atomic_load_acquire(&head); h;
         h = weft_atomic_load_acquire(&h->next)) {
        handler_fn f =
            child ? weft_atomic_load_relaxed(&h->child) : weft_atomic_load_relaxed(&h->parent);
        if (f)
            f();
        if (h == last)
            break;
    }
}

static __thread bool in_fork; /* our fork runs the list itself */

/* The trio registered with glibc: the list, for a fork that is not ours. */
static void a_prepare(void)
{
    if (in_fork)
        return;
    fork_word = pth_internal();
    pth_set_internal(0);
    fork_last = run_prepare();
    pth_set_internal(fork_word);
    pth_records_lock();
}

static void a_after(bool child)
{
    if (in_fork)
        return;
    if (child)
        pth_after_fork_child();
    else
        pth_records_unlock();
    pth_set_internal(0);
    run_after(fork_last, child);
    pth_set_internal(fork_word);
}
static void a_parent(void) { a_after(false); }
static void a_child(void) { a_after(true); }

__attribute__((constructor)) static void fork_init(void)
{
    pth_real(__register_atfork)(a_prepare, a_parent, a_child, &__dso_handle);
}

PTH_API int __register_atfork(handler_fn prepare, handler_fn parent, handler_fn child, void *dso)
{
    if (pth_internal()) /* weft's own */
        return pth_real(__register_atfork)(prepare, parent, child, dso);
    return add(prepare, parent, child, dso);
}

PTH_API int pthread_atfork(handler_fn prepare, handler_fn parent, handler_fn child)
{
    if (pth_internal())
        return pth_real(__register_atfork)(prepare, parent, child, NULL);
    return add(prepare, parent, child, NULL);
}

PTH_API void __cxa_finalize(void *dso)
{
    if (dso)
        for (struct handler *h = weft_atomic_load_acquire(&head); h;
             h = weft_atomic_load_acquire(&h->next))
            if (h->dso == dso) {
                weft_atomic_store_relaxed(&h->prepare, NULL);
                weft_atomic_store_relaxed(&h->parent, NULL);
                weft_atomic_store_relaxed(&h->child, NULL);
            }
    pth_real(__cxa_finalize)(dso);
}

PTH_API pid_t fork(void)
{
    if (pth_internal())
        return pth_real(fork)();
    struct handler *last = run_prepare();
    pth_records_lock();
    pth_enter();
    in_fork = true; /* from here on this OS thread runs the fork */
    pid_t p = pth_real(fork)();
    in_fork = false;
    if (p == 0)
        pth_after_fork_child();
    else
        pth_records_unlock();
    pth_leave();
    run_after(last, p == 0);
    return p;
}

PTH_ALIAS(fork)
PTH_ALIAS(pthread_atfork)
