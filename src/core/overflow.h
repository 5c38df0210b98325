/* src/core/overflow.h - a forwarder: the overflow checks are in core/tool/overflow.h.
 * Only the unit engine's files (unit.c, unit.h, fork.c) include this path; once they name
 * core/tool/overflow.h this file goes (scripts/check_layers.sh, FORWARDERS). */
#ifndef WEFT_CORE_FWD_OVERFLOW_H
#define WEFT_CORE_FWD_OVERFLOW_H

#include "core/tool/overflow.h"

#endif
