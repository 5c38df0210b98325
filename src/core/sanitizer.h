/* src/core/sanitizer.h - a forwarder: the sanitizer annotations are in core/tool/sanitizer.h.
 * Only the unit engine's files (unit.c, unit.h, fork.c) include this path; once they name
 * core/tool/sanitizer.h this file goes (scripts/check_layers.sh, FORWARDERS). */
#ifndef WEFT_CORE_FWD_SANITIZER_H
#define WEFT_CORE_FWD_SANITIZER_H

#include "core/tool/sanitizer.h"

#endif
