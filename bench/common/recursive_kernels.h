/* bench/common/recursive_kernels.h - the serial side of the recursive programs of
 * bench/abt/recursive.c: fib, N-Queens on bit masks (columns and both diagonals), their
 * jobs, and the hash that shapes the unbalanced trees.  tests/fork_recursive_randws.c
 * checks its ULT versions against them. */
#ifndef WEFT_RECURSIVE_KERNELS_H
#define WEFT_RECURSIVE_KERNELS_H

#include <stdint.h>

typedef struct {
    int n;
    long r;
} fib_job;

static inline long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

typedef struct {
    int n, row;
    uint32_t cols, d1, d2;
    long count;
} nq_job;

/* the solutions below row `row` of an n-queens board whose taken columns and diagonals
 * are the masks */
static inline long nq_serial(int n, int row, uint32_t cols, uint32_t d1, uint32_t d2)
{
    if (row == n)
        return 1;
    long c = 0;
    uint32_t all = (1u << n) - 1, free_ = all & ~(cols | d1 | d2);
    while (free_) {
        uint32_t bit = free_ & -free_;
        free_ &= free_ - 1;
        c += nq_serial(n, row + 1, cols | bit, ((d1 | bit) << 1) & all, (d2 | bit) >> 1);
    }
    return c;
}

/* a 64-bit mix (splitmix64's finaliser): a node's id -> its shape and its children's ids */
static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

#endif
