/* sched_idle_cpu_randws: under the predefined RANDWS scheduler, the primary stream and two
 * secondary streams with nothing to run (the primary ULT blocked in ABT_thread_join, the
 * ULT it joins blocked in ABT_eventual_wait, the third stream empty) sleep: over ~0.6 s
 * the whole process uses under 5 ms of CPU per stream-second, measured from
 * /proc/self/task/N/schedstat.  The eventual is set by an external thread, which wakes
 * the sleeping stream 1 and then, through the join, the sleeping primary stream. */
#include "idle_test.h"

int main(int argc, char **argv) { return idle_cpu_test(argc, argv, ABT_SCHED_RANDWS); }
