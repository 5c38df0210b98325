/* tests/mpi/mpi_test.h - the helper of the MPI tests (run under mpirun by ctest).
 * CHECK prints the rank, file, line and the condition, then MPI_Abort(1): the other
 * ranks are killed and mpirun exits non-zero.  CHECK_EQ prints both values. */
#ifndef WEFT_MPI_TEST_H
#define WEFT_MPI_TEST_H

#include <abt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int test_rank = -1;

#define CHECK(c)                                                                              \
    do {                                                                                      \
        if (!(c)) {                                                                           \
            fprintf(stderr, "rank %d: %s:%d: FAIL: %s\n", test_rank, __FILE__, __LINE__, #c); \
            fflush(stderr);                                                                   \
            PMPI_Abort(MPI_COMM_WORLD, 1);                                                    \
        }                                                                                     \
    } while (0)

#define CHECK_EQ(a, b)                                                                    \
    do {                                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ != b_) {                                                                   \
            fprintf(stderr, "rank %d: %s:%d: FAIL: %s == %s (%lld != %lld)\n", test_rank, \
                    __FILE__, __LINE__, #a, #b, a_, b_);                                  \
            fflush(stderr);                                                               \
            PMPI_Abort(MPI_COMM_WORLD, 1);                                                \
        }                                                                                 \
    } while (0)

#define CHECK_ABT(e) CHECK_EQ((e), ABT_SUCCESS)
#define CHECK_MPI(e) CHECK_EQ((e), MPI_SUCCESS)

/* How long a test waits for an event that must come (a step of the other rank) before it
 * calls the event lost and fails: tests/test.h's value, below mpirun's --timeout. */
#define TEST_PATIENCE_S 60.0

static inline double test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int test_slow(void)
{
    const char *s = getenv("WEFT_TEST_SLOW");
    return s && *s && *s != '0';
}

#endif
