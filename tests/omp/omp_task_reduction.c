/* Task reductions as gcc lowers them: taskgroup task_reduction with in_reduction
 * tasks (+ and *), taskloop reduction, reduction(task, ...) on parallel, for, sections
 * and scope; and detachable tasks (detach clause,
 * omp_fulfill_event from another task). */
#include "omp_test.h"

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(3);
    int reps = slow() ? 5 : 50;
    for (int r = 0; r < reps; r++) {
        long s = 0, p = 1, t = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskgroup task_reduction(+ : s) task_reduction(* : p)
            {
                for (int i = 0; i < 200; i++) {
#pragma omp task in_reduction(+ : s) in_reduction(* : p)
                    {
                        s += i;
                        if (i < 20)
                            p *= 2;
                    }
                }
            }
#pragma omp taskloop reduction(+ : t) grainsize(10)
            for (int i = 0; i < 1000; i++)
                t += i;
        }
        CHECK_EQ(s, 19900);
        CHECK_EQ(p, 1L << 20);
        CHECK_EQ(t, 499500);
    }
    /* reduction(task, ...) on parallel, for and sections */
    long ps = 0, fs = 0, ss = 0;
#pragma omp parallel reduction(task, + : ps)
    {
#pragma omp single
        for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : ps)
            ps += i;
        }
    }
    CHECK_EQ(ps, 4950);
#pragma omp parallel
    {
#pragma omp for reduction(task, + : fs) schedule(dynamic)
        for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : fs)
            fs += i;
        }
#pragma omp sections reduction(task, + : ss)
        {
#pragma omp section
            {
#pragma omp task in_reduction(+ : ss)
                ss += 1;
            }
#pragma omp section
            {
#pragma omp task in_reduction(+ : ss)
                ss += 2;
            }
        }
    }
    long sc = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp scope reduction(task, + : sc)
        {
#pragma omp task in_reduction(+ : sc)
            sc += 2;
        }
    }
    CHECK_EQ(sc, 6);
    CHECK_EQ(fs, 1225);
    CHECK_EQ(ss, 3);
    int order = 0, seen = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        omp_event_handle_t ev;
#pragma omp task detach(ev) shared(order)
        order = 1;
#pragma omp task shared(order, seen) firstprivate(ev)
        {
            /* the detached task's body may have run; its completion waits for this */
            omp_fulfill_event(ev);
        }
#pragma omp taskwait
        seen = order;
    }
    CHECK_EQ(seen, 1);
    return 0;
}
