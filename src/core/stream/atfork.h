/* src/core/stream/atfork.h - what happens to the runtime in the child of fork() (Argobots issue
 * #403; the policy is described in atfork.c and docs/design/stream.md). */
#ifndef WEFT_CORE_ATFORK_H
#define WEFT_CORE_ATFORK_H

#include "core/types.h"

/* Register the pthread_atfork handlers (once per process; ABT_init calls it). */
WEFT_INTERNAL void weft_fork_init(void);

#endif
