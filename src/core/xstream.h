/* src/core/xstream.h - a forwarder: what unit.c uses of it (weft_xstream_should_stop,
 * weft_sched_retire, weft_xstream_retire_pending) is in core/sched/sched.h; the streams
 * are in core/stream/xstream.h.
 * Only the unit engine's files (unit.c, unit.h, fork.c) include this path; once they name
 * core/sched/sched.h this file goes (scripts/check_layers.sh, FORWARDERS). */
#ifndef WEFT_CORE_FWD_XSTREAM_H
#define WEFT_CORE_FWD_XSTREAM_H

#include "core/sched/sched.h"

#endif
