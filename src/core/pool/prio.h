/* src/core/pool/prio.h - the priority FIFO pool (weft_pool_create_prio, include/weft.h).
 * Implementation and design notes in pool/prio.c. */
#ifndef WEFT_CORE_POOL_PRIO_H
#define WEFT_CORE_POOL_PRIO_H

#include "core/pool/pool.h"

#define WEFT_PRIO_MAX_LEVELS 64

extern WEFT_INTERNAL const weft_pool_ops weft_pool_prio_ops;

static inline bool weft_pool_is_prio(const weft_pool *p) { return p->ops == &weft_pool_prio_ops; }

#endif
