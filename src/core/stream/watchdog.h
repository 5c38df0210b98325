/* src/core/stream/watchdog.h - the watchdog's life with the runtime (core/watchdog.c): ABT_init
 * starts it when WEFT_WATCHDOG_MS is set, the last ABT_finalize stops it before any
 * stream goes away. */
#ifndef WEFT_CORE_WATCHDOG_H
#define WEFT_CORE_WATCHDOG_H

#include "arch/compiler.h"

WEFT_INTERNAL void weft_watchdog_init(void);
WEFT_INTERNAL void weft_watchdog_finalize(void);

#endif
