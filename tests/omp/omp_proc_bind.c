/* OMP_PROC_BIND=true binds the team's streams, weft's CPU binding being off by default
 * (WEFT_ENABLE_AFFINITY: the face turns it on): in a parallel region every thread runs on
 * one CPU of the process's set, that CPU is a place (omp_get_place_num), and the initial
 * thread is on the first CPU of the set.  Run with OMP_PROC_BIND=true, OMP_NUM_THREADS=2. */
#include "omp_test.h"

#include <sched.h>

int main(void)
{
    check_runtime_is_weft();
    cpu_set_t all;
    CHECK(sched_getaffinity(0, sizeof(all), &all) == 0);
    int first = -1;
    for (int i = 0; i < CPU_SETSIZE && first < 0; i++)
        if (CPU_ISSET(i, &all))
            first = i;
    int bad = 0, unplaced = 0, master_cpu = -1;
#pragma omp parallel reduction(+ : bad, unplaced)
    {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) != 1)
            bad++;
        else if (omp_get_place_num() < 0)
            unplaced++;
        if (omp_get_thread_num() == 0)
            for (int i = 0; i < CPU_SETSIZE; i++)
                if (CPU_ISSET(i, &set))
                    master_cpu = i;
    }
    printf("omp_proc_bind: %d places, %d threads not on one CPU, %d outside a place, master on "
           "CPU %d (first %d)\n",
           omp_get_num_places(), bad, unplaced, master_cpu, first);
    CHECK(omp_get_num_places() > 0);
    CHECK_EQ(bad, 0);
    CHECK_EQ(unplaced, 0);
    CHECK_EQ(master_cpu, first);
    return 0;
}
