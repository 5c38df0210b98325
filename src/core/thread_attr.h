/* src/core/thread_attr.h - a forwarder: the ULT attribute handles are in core/api/thread_attr.h.
 * Only the unit engine's files (unit.c, unit.h, fork.c) include this path; once they name
 * core/api/thread_attr.h this file goes (scripts/check_layers.sh, FORWARDERS). */
#ifndef WEFT_CORE_FWD_THREAD_ATTR_H
#define WEFT_CORE_FWD_THREAD_ATTR_H

#include "core/api/thread_attr.h"

#endif
