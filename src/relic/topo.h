/* src/relic/topo.h - where a Relic's assistant runs: the CPU topology read from
 * /sys/devices/system/cpu and a process-wide registry of the CPUs Relics hold.
 *
 * The choice, for a main thread running on CPU m (sched_getcpu at creation):
 *   1. RELIC_ASSISTANT_CPU=n in the environment: CPU n; -1: not pinned.
 *   2. a single CPU is usable: not pinned (neither side then spins).  The usable CPUs are
 *      the caller's mask, or every online CPU when the caller is pinned to one.
 *   3. an SMT sibling of m (cpu<m>/topology/thread_siblings_list) the process may use,
 *      preferring one no other Relic holds;
 *   4. else the nearest allowed CPU other than m, ordered by (held by another Relic,
 *      other package, |cpu - m|): a "nearby free core".
 * The registry counts, per CPU, the Relic main threads and assistants placed there, so
 * several main threads spread their assistants when there are CPUs to spread over.
 * Concurrency: a mutex (creation and destruction only). */
#ifndef RELIC_TOPO_H
#define RELIC_TOPO_H

#include <stdbool.h>

#include "arch/compiler.h"

struct rl_place {
    int main_cpu;    /* where the creator ran, -1 if unknown */
    int cpu;         /* the assistant's CPU, -1: not pinned */
    bool single_cpu; /* one CPU for both sides: never spin */
};

/* Choose the assistant's CPU for a creator running now, and hold it (and the creator's
 * CPU) in the registry until rl_place_release. */
WEFT_INTERNAL void rl_place_pick(struct rl_place *pl);
WEFT_INTERNAL void rl_place_release(const struct rl_place *pl);

/* Parse a Linux CPU list ("0-3,8,10-11") into set[0..n): true for each CPU named.
 * Returns false on a malformed list. */
WEFT_INTERNAL bool rl_parse_cpulist(const char *s, bool *set, int n);

#endif
