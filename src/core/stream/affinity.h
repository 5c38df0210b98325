/* src/core/stream/affinity.h - ABT_SET_AFFINITY: the CPU-list syntax and the CPUs of each rank.
 *
 * Grammar (Argobots 1.2; white space between tokens is ignored):
 *   <list>        = <interval> | <list> "," <interval>
 *   <interval>    = <es-id-list> [ ":" <num> [ ":" <stride> ] ]
 *   <es-id-list>  = <id> | "{" <id-list> "}"
 *   <id-list>     = <id-interval> | <id-list> "," <id-interval>
 *   <id-interval> = <id> [ ":" <num> [ ":" <stride> ] ]
 *   <id>, <stride> = integer (may be negative);  <num> = positive integer
 * <id>:<num>:<stride> stands for the ids id, id+stride, ..., id+stride*(num-1); an
 * <interval> {list}:<num>:<stride> stands for num CPU-id lists, the k-th being the list
 * with k*stride added to every id.  num and stride default to 1.  Rank r is bound to the
 * CPUs of list r % N (N lists).  An id names the (id mod n)-th CPU of the set the process
 * could run on at ABT_init (n CPUs): on a machine where every CPU is available that is
 * CPU id itself, and out-of-range ids wrap around.
 *
 * As in an Argobots built with --enable-affinity, and only while affinity is on
 * (WEFT_ENABLE_AFFINITY, weft_g.cfg.affinity): unset, or a value that does not parse
 * ("yes", "{0"), binds with the default lists, rank r on the (r mod n)-th available CPU;
 * "n", "no", "false" or "off" (any case) binds nothing; "0" and "1" are CPU lists.  With
 * affinity off the variable is ignored. */
#ifndef WEFT_CORE_AFFINITY_H
#define WEFT_CORE_AFFINITY_H

#include <sched.h>

#include "core/runtime.h"

#ifndef WEFT_ENABLE_AFFINITY_DEFAULT
#define WEFT_ENABLE_AFFINITY_DEFAULT 0
#endif

/* Parse a CPU list.  Returns the number of CPU-id lists (> 0) and sets *ids (every id,
 * list after list) and *off (n + 1 offsets: list i is ids[off[i]] .. ids[off[i+1]-1]),
 * both malloc'd; returns 0 for a malformed string (nothing allocated). */
WEFT_INTERNAL int weft_affinity_parse(const char *s, int **ids, int **off);

/* ABT_SET_AFFINITY into the configuration (runtime.c, weft_config_load, after it has set
 * c->affinity), and its memory. */
WEFT_INTERNAL void weft_affinity_config(struct weft_config *c, const char *value);
WEFT_INTERNAL void weft_affinity_config_free(struct weft_config *c);

/* The CPUs that rank `rank` binds to under ABT_SET_AFFINITY; false when it sets none. */
WEFT_INTERNAL bool weft_affinity_rank_set(int rank, cpu_set_t *set);
/* The CPUs the process could use at ABT_init (the reset value of a stream's binding). */
WEFT_INTERNAL void weft_affinity_initial_set(cpu_set_t *set);
/* ABT_finalize: give the calling (primary) thread its initial CPU set back. */
WEFT_INTERNAL void weft_affinity_finalize(void);

#endif
