/* src/core/tool.h - a forwarder: the tool interface's hooks are in core/tool/tool.h.
 * Only the unit engine's files (unit.c, unit.h, fork.c) include this path; once they name
 * core/tool/tool.h this file goes (scripts/check_layers.sh, FORWARDERS). */
#ifndef WEFT_CORE_FWD_TOOL_H
#define WEFT_CORE_FWD_TOOL_H

#include "core/tool/tool.h"

#endif
