/* src/pthread/cleanup.c - pthread_cleanup_push/pop handlers of ULTs, run by pthread_exit.
 *
 * glibc's C macros (pthread.h, without -fexceptions) keep a handler as a frame-local
 * __pthread_unwind_buf_t: they sigsetjmp into it, register it with
 * __pthread_register_cancel, and unregister it at the pop.  When the buffer is jumped to
 * with a non-zero value, the macro runs the handler and calls __pthread_unwind_next.
 * For a ULT we keep the registered buffers as a stack in its record (linked through the
 * buffer's first pad word, which glibc's own implementation uses for the same purpose),
 * and pthread_exit jumps to the innermost one; __pthread_unwind_next pops it and jumps to
 * the next, and after the last one ends the thread (pth_exit_rest).  Frames between the
 * handlers are discarded as glibc's forced unwinding does for C code; C++ destructors of
 * those frames do not run (no forced unwinding here: documented).  Threads that are not
 * ULTs, and weft itself, get glibc's functions. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pthread/face.h"

#define PTH_CLEANUP_NAMES(X) \
    X(__pthread_register_cancel) X(__pthread_unregister_cancel) X(__pthread_unwind_next)

static __pthread_unwind_buf_t *next_of(__pthread_unwind_buf_t *b)
{
    return (__pthread_unwind_buf_t *)b->__pad[0];
}

static void *real_fn(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        fprintf(stderr, "libweft-pthread: the real %s was not found\n", name);
        abort();
    }
    return p;
}

/* The buffer is the first two members of a jmp_buf (registers, mask_was_saved = 0):
 * longjmp reads the saved signal mask only when mask_was_saved is set. */
static __attribute__((noreturn)) void jump(__pthread_unwind_buf_t *b)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
    longjmp((struct __jmp_buf_tag *)(void *)b->__cancel_jmp_buf, 1);
#pragma GCC diagnostic pop
}

PTH_API void __pthread_register_cancel(__pthread_unwind_buf_t *buf)
{
    pth_thread *s;
    if (pth_internal() || !(s = pth_self())) {
        ((void (*)(__pthread_unwind_buf_t *))real_fn("__pthread_register_cancel"))(buf);
        return;
    }
    buf->__pad[0] = s->cleanup;
    s->cleanup = (struct pth_cleanup *)buf;
}

PTH_API void __pthread_unregister_cancel(__pthread_unwind_buf_t *buf)
{
    pth_thread *s;
    if (pth_internal() || !(s = pth_self())) {
        ((void (*)(__pthread_unwind_buf_t *))real_fn("__pthread_unregister_cancel"))(buf);
        return;
    }
    s->cleanup = (struct pth_cleanup *)next_of(buf);
}

PTH_API void __pthread_unwind_next(__pthread_unwind_buf_t *buf)
{
    pth_thread *s;
    if (pth_internal() || !(s = pth_self())) {
        ((void (*)(__pthread_unwind_buf_t *))real_fn("__pthread_unwind_next"))(buf);
        abort(); /* glibc's does not return */
    }
    __pthread_unwind_buf_t *next = next_of(buf);
    s->cleanup = (struct pth_cleanup *)next;
    if (next)
        jump(next);
    pth_exit_rest(s);
}

void pth_cleanup_unwind(pth_thread *self)
{
    __pthread_unwind_buf_t *top = (__pthread_unwind_buf_t *)self->cleanup;
    if (top)
        jump(top);
}

/* The same functions under weft_<name> (include/weft_pthread.h). */
PTH_ALIAS(__pthread_register_cancel)
PTH_ALIAS(__pthread_unregister_cancel)
PTH_ALIAS(__pthread_unwind_next)
