/* src/core/face.h - core as a face sees it: the only core header that a face (src/glt,
 * src/pthread, src/omp, src/io, src/relic, src/mpi) includes (scripts/check_layers.sh).
 *
 * What a face may do with core, besides the public API (abt.h):
 *   - ask who is calling: the running unit, the running ULT, a tasklet or not, on a
 *     stream's thread or not, an owner identity (weft_face_self_*);
 *   - block the caller on a waiter of its own and wake it from anywhere
 *     (weft_face_waiter_init / weft_face_wait_block / weft_face_waiter_wake: a ULT parks,
 *     a tasklet or an external thread sleeps on a futex; core/wait.h has the protocol);
 *   - ask whether ABT_thread_cancel was requested for a unit it has parked;
 *   - have its completions reaped by the scheduler loops and shape an idle stream's sleep
 *     (struct weft_poll_hook, weft_poll_hook_add, weft_poll_hook_eager: core/poll_hook.h
 *     has the contract), and wake a stream that sleeps on its idle word
 *     (weft_face_idle_notify; the word's values are enum weft_idle_word, core/idle.h).
 * Yielding, suspending and resuming go through the public API (ABT_thread_yield,
 * ABT_self_suspend, ABT_thread_resume).
 *
 * Opaque.  A face is a shared library of its own (libweft-omp.so, libweft-io.so,
 * libweft-mpi.so, ...) built against one weft and loaded next to libweft.so.  It sees
 * weft_unit only as a pointer (an identity, a key), never a field, and a waiter only as
 * storage of a fixed size (weft_face_waiter, checked against the real struct in face.c), so
 * its code does not depend on how core lays out units, streams or waiters: core may
 * reorder, grow or split them (cache-line intent, types.h) without a face noticing.  Every
 * function here is exported from libweft.so (WEFT_FACE_API) and declared in no public
 * header: not part of the API, its names and contracts follow weft's own version.  The
 * core functions these wrap (core/wait.h, core/idle.h) are hidden, so a face cannot reach
 * them past this header: it would not link.
 *
 * Names.  A function that core already exported keeps its name (weft_poll_hook_add,
 * weft_poll_hook_eager).  The others wrap core's inline helpers, which keep their names and
 * their inline bodies for core and sync: the face's version is weft_face_<the same name>
 * (one translation unit, face.c, sees both).
 *
 * Cost.  Each question is a call into libweft (through the PLT) where core's own inline
 * helper reads a TLS slot and a field or two: 3 to 6 instructions more per call, no lock,
 * no atomic (bench/results/2026-12-02-face-header.md).
 *
 * Rejected:
 *   - the faces including core/wait.h, runtime.h and types.h (as they did): every face
 *     library compiled core's struct layout into its code, so a change of a field's place
 *     in core broke libweft-omp.so silently unless rebuilt in step;
 *   - exporting core's TLS stream pointer and field offsets for inline questions: the
 *     layout again, behind one level of indirection;
 *   - a pointer-sized handle allocated by core for each waiter: a heap allocation (or a
 *     free list) on every blocking call, where the storage lives in the face's own object;
 *   - the same names as core's inline helpers: core headers that share a definition with
 *     this one (the poll hook, the idle word) include it, and would then see a function
 *     declared twice, once inline and once exported. */
#ifndef WEFT_CORE_FACE_H
#define WEFT_CORE_FACE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/compiler.h"
#include "arch/spinlock.h"

/* A work unit (a ULT or a tasklet): to a face, an identity (compare, hash, pass back). */
typedef struct weft_unit weft_unit;

/* ---- who is calling ---- */

/* The unit the caller runs as: NULL for an external thread or a scheduler. */
WEFT_FACE_API weft_unit *weft_face_self_unit(void);
/* The calling ULT, or NULL for a tasklet, a scheduler or an external thread. */
WEFT_FACE_API weft_unit *weft_face_self_ult(void);
/* The calling unit is a tasklet (it cannot park: Argobots 1.x refuses some waits there). */
WEFT_FACE_API bool weft_face_self_is_tasklet(void);
/* The caller is the thread of a stream (a unit or a scheduler runs), not an external
 * thread (or weft is not running). */
WEFT_FACE_API bool weft_face_self_on_stream(void);
/* Who is calling, as an owner identity (recursive locks): the running unit, else the
 * stream (its scheduler), else `external` for a thread that is not a stream. */
WEFT_FACE_API const void *weft_face_self_identity(const void *external);

/* ABT_thread_cancel was asked for u: it terminates at its next wake-up or yield (a face
 * about to park u in an operation of its own then need not start one). */
WEFT_FACE_API bool weft_face_unit_cancel_requested(weft_unit *u);

/* ---- waiting ----
 * A waiter lives in the face's own object (on the caller's stack, in an operation's
 * struct).  weft_face_waiter_init makes it a waiter for the caller: a ULT parks, anything
 * else sleeps on the waiter's futex word.  The caller then links the object wherever its
 * waker will find it, under `lock`, and calls weft_face_wait_block, which releases `lock`
 * once the caller can be woken (a ULT: after it has left its stack) and returns when
 * woken.  The waker calls weft_face_waiter_wake exactly once per wait, from any thread;
 * the waiter's storage must stay valid until weft_face_wait_block has returned. */
#define WEFT_FACE_WAITER_SIZE 32
typedef struct weft_face_waiter {
    _Alignas(8) unsigned char opaque[WEFT_FACE_WAITER_SIZE];
} weft_face_waiter;

WEFT_FACE_API void weft_face_waiter_init(weft_face_waiter *w);
WEFT_FACE_API void weft_face_wait_block(weft_face_waiter *w, weft_spinlock *lock);
WEFT_FACE_API void weft_face_waiter_wake(weft_face_waiter *w);

/* ---- completions: the poll hook (the contract: core/poll_hook.h) ---- */
struct weft_poll_hook {
    const char *name; /* the face, for ABT_info_print_config */
    /* Reap completions of the calling stream and wake their waiters; true if it woke any.
     * NULL: nothing to reap (a hook that only wants `cancel`). */
    bool (*poll)(void);
    /* How long the calling stream may sleep idle without a poll (ns), UINT64_MAX when
     * nothing of this face is in flight there, 0: do not sleep yet.  NULL: no bound. */
    uint64_t (*idle_ns)(void);
    /* Optional: sleep for the calling stream (core/poll_hook.h); NULL: never.  `word` is the
     * stream's idle word: sleep while it reads WEFT_IDLE_SLEEPING. */
    bool (*sleep)(_Atomic uint32_t *word, uint64_t timeout_ns);
    /* Optional: ABT_thread_cancel(u) was asked (core/poll_hook.h); NULL: nothing to do. */
    void (*cancel)(weft_unit *u);
    /* Optional: the between-units poll of an eager stream (see weft_poll_hook_eager); it
     * may skip the work when the last poll was moments ago.  NULL: poll is called. */
    bool (*poll_eager)(void);
};

/* Register h (idempotent for the same h).  0, or -1 when every slot is taken.  Callable
 * before ABT_init and from any thread; a hook is never removed. */
WEFT_FACE_API int weft_poll_hook_add(const struct weft_poll_hook *h);
/* Ask for a poll after every unit the calling stream runs (true) or no longer (false);
 * calls nest.  False, and nothing done, when the caller is not a stream's thread. */
WEFT_FACE_API bool weft_poll_hook_eager(bool on);

/* ---- idle streams: the word a sleeping stream waits on (core/idle.h) ---- */
enum weft_idle_word {
    WEFT_IDLE_AWAKE = 0,
    WEFT_IDLE_SLEEPING = 1,
    WEFT_IDLE_NOTIFIED = 2,
};

/* Wake the stream whose idle word is `word` (the one a hook's sleep got) for an event
 * published before this call: it will not sleep through it. */
WEFT_FACE_API void weft_face_idle_notify(_Atomic uint32_t *word);

#endif
