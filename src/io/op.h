/* src/io/op.h - what the files of the op engine share: the chosen backend (backend.c), the
 * cancellation registry's entry (registry.c), running an op and translating its outcome
 * (op.c), and the declaration of an op by a public call (file.c, socket.c).  The op record
 * and the backend interface are io.h's. */
#ifndef WEFT_IO_OP_H
#define WEFT_IO_OP_H

#include <stddef.h>
#include <string.h>

#include "arch/compiler.h"
#include "io/io.h"

/* The backend chosen by the first op (backend.c); NULL before it. */
extern WEFT_INTERNAL const struct weft_io_backend *weft_io_chosen;
/* Choose the backend, once (WEFT_IO_BACKEND, the io_uring probe), and return it. */
const struct weft_io_backend *weft_io_pick(void);

static inline const struct weft_io_backend *weft_io_be(void)
{
    const struct weft_io_backend *b = __atomic_load_n(&weft_io_chosen, __ATOMIC_ACQUIRE);
    if (WEFT_UNLIKELY(!b))
        b = weft_io_pick();
    return b;
}

/* Enter op (already with its backend) for unit u in the cancellation registry; a cancel
 * of u asked for before is passed on to the backend at once. */
void weft_io_register(weft_io_op *op, weft_unit *u);
/* fork() child: the registry empty, its locks free. */
void weft_io_registry_atfork_child(void);

/* Run op the way the caller can wait: its result (>= 0) or -errno. */
long weft_io_run(weft_io_op *op);
/* errno = e, through a call the compiler cannot see into (op.c says why). */
void weft_io_set_errno(int e);

/* An outcome as POSIX returns it: r >= 0, or -1 with errno = -r. */
static inline long weft_io_fin(long r)
{
    if (r < 0) {
        weft_io_set_errno((int)-r);
        return -1;
    }
    return r;
}

/* Declare `op`, an op of kind k with every field of the call and its outcome zeroed. */
#define WEFT_IO_OP(k)                          \
    weft_io_op op;                             \
    memset(&op, 0, offsetof(weft_io_op, stx)); \
    op.kind = (k)

#endif
