/* Tasks move between the threads of a team: a task queued by one thread is run by
 * another (the creator spins on a flag only such a task can set, without any task
 * scheduling point, so the test hangs unless another thread steals it; run with
 * OMP_WAIT_POLICY=passive, so that the thief is parked in the barrier when the task is
 * queued and the queueing must wake it); a stolen task's own children (queued on the
 * thief) and its taskwait; 100,000 tasks from one producer spread over the team, each
 * run once; a dependence chain whose links are released by whichever thread finished
 * the previous one still runs in order. */
#include "omp_test.h"

#include <stdatomic.h>
#include <unistd.h>

static atomic_int stolen;

static long tree(int depth)
{
    if (depth == 0)
        return 1;
    long a = 0, b = 0;
#pragma omp task shared(a)
    a = tree(depth - 1);
#pragma omp task shared(b)
    b = tree(depth - 1);
#pragma omp taskwait
    return a + b + 1;
}

int main(void)
{
    check_runtime_is_weft();
    /* 1. stealing: thread 0 queues tasks and waits for one of them to run elsewhere */
    for (int round = 0; round < 20; round++) {
        atomic_store(&stolen, 0);
        long sum = 0;
#pragma omp parallel num_threads(2) shared(sum)
        {
            if (omp_get_thread_num() == 0) {
                if (round == 0)
                    usleep(20000); /* let thread 1 reach the barrier and park there */
                for (int i = 0; i < 8; i++) {
#pragma omp task shared(sum)
                    {
                        if (omp_get_thread_num() != 0)
                            atomic_store(&stolen, 1);
#pragma omp atomic
                        sum += i;
                    }
                }
                while (!atomic_load(&stolen)) /* no scheduling point: only a thief helps */
                    ;
            }
#pragma omp barrier
        }
        CHECK_EQ(atomic_load(&stolen), 1);
        CHECK_EQ(sum, 28);
    }
    /* 2. a stolen task makes children (on the thief's queue) and waits for them */
    long nodes = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            atomic_store(&stolen, 0);
#pragma omp task shared(nodes)
            {
                if (omp_get_thread_num() != 0)
                    atomic_store(&stolen, 1);
                nodes = tree(10);
            }
            while (!atomic_load(&stolen)) /* run by thread 1, whose queue gets its tree */
                ;
#pragma omp taskwait
        }
    }
    CHECK_EQ(nodes, 2047);
    /* 3. 100,000 tasks from one producer: each runs exactly once, over the team */
    int n = slow() ? 10000 : 100000;
    unsigned char *ran = calloc((size_t)n, 1);
    CHECK(ran != NULL);
    long per_thread[2] = { 0, 0 };
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i) shared(ran, per_thread)
            {
#pragma omp atomic
                ran[i]++;
#pragma omp atomic
                per_thread[omp_get_thread_num()]++;
            }
        }
    }
    for (int i = 0; i < n; i++)
        if (ran[i] != 1) {
            fprintf(stderr, "task %d ran %d times\n", i, ran[i]);
            return 1;
        }
    CHECK_EQ(per_thread[0] + per_thread[1], n);
    printf("100,000 tasks from one producer: %ld on thread 0, %ld on thread 1\n", per_thread[0],
           per_thread[1]);
    free(ran);
    /* 4. a chain of inout tasks made by one thread, released across threads: in order */
    long x = 0;
    int bad = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int i = 0; i < 2000; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
            {
                if (x != i)
                    bad = 1;
                x = i + 1;
            }
            if (i % 7 == 0) { /* readers in between: they see the chain's value */
#pragma omp task depend(in : x) shared(x, bad) firstprivate(i)
                if (x != i + 1)
                    bad = 1;
            }
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(x, 2000);
    return 0;
}
