/* src/core/api/face.c - core/face.h: what a face asks of core, exported from libweft.so and
 * answered by core's inline helpers (core/wait.h, core/sched/idle.h).  Each function is the
 * helper's body and nothing more: no lock, no state of its own. */
#include "core/face.h"

#include <stdalign.h>

#include "core/sched/idle.h"
#include "core/wait.h"

/* A face's storage holds core's waiter: size and alignment, so that a face compiled
 * against this header never writes past it (the face only passes it back). */
_Static_assert(sizeof(weft_waiter) <= sizeof(weft_face_waiter),
               "weft_face_waiter (core/face.h) is smaller than weft_waiter: raise "
               "WEFT_FACE_WAITER_SIZE");
_Static_assert(alignof(weft_waiter) <= alignof(weft_face_waiter),
               "weft_face_waiter (core/face.h) is less aligned than weft_waiter");

static inline weft_waiter *waiter_of(weft_face_waiter *w) { return (weft_waiter *)(void *)w; }

weft_unit *weft_face_self_unit(void) { return weft_self_unit(); }

weft_unit *weft_face_self_ult(void) { return weft_self_ult(); }

bool weft_face_self_is_tasklet(void) { return weft_self_is_tasklet(); }

bool weft_face_self_on_stream(void) { return weft_xs_self() != NULL; }

const void *weft_face_self_identity(const void *external) { return weft_self_identity(external); }

bool weft_face_unit_cancel_requested(weft_unit *u) { return weft_unit_cancel_requested(u); }

void weft_face_waiter_init(weft_face_waiter *w) { weft_waiter_init(waiter_of(w)); }

void weft_face_wait_block(weft_face_waiter *w, weft_spinlock *lock)
{
    weft_wait_block(waiter_of(w), lock);
}

void weft_face_waiter_wake(weft_face_waiter *w) { weft_waiter_wake(waiter_of(w)); }

void weft_face_idle_notify(_Atomic uint32_t *word) { weft_idle_notify(word); }
