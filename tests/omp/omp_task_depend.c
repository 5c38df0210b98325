/* Task dependences: a chain (out/inout), fan-out readers then a writer (in -> out),
 * a diamond, a wavefront graph over a 2-D grid, and taskwait depend. */
#include "omp_test.h"

#define G 24

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(4);
    int reps = slow() ? 3 : 30;
    for (int r = 0; r < reps; r++) {
        long x = 0;
        int order_ok = 1;
        long readers_saw[16];
#pragma omp parallel
#pragma omp single
        {
            for (int i = 0; i < 100; i++) {
#pragma omp task depend(inout : x) shared(x, order_ok) firstprivate(i)
                {
                    if (x != i)
                        order_ok = 0;
                    x++;
                }
            }
            for (int k = 0; k < 16; k++) {
#pragma omp task depend(in : x) shared(x, readers_saw) firstprivate(k)
                readers_saw[k] = x;
            }
#pragma omp task depend(out : x) shared(x)
            x = -1;
#pragma omp taskwait
        }
        CHECK(order_ok);
        for (int k = 0; k < 16; k++)
            CHECK_EQ(readers_saw[k], 100);
        CHECK_EQ(x, -1);
        /* diamond: a -> (b, c) -> d */
        int a = 0, b = 0, c = 0, d = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp task depend(out : a) shared(a)
            a = 1;
#pragma omp task depend(in : a) depend(out : b) shared(a, b)
            b = a + 1;
#pragma omp task depend(in : a) depend(out : c) shared(a, c)
            c = a + 2;
#pragma omp task depend(in : b, c) shared(b, c, d)
            d = b + c;
#pragma omp taskwait depend(in : d)
        }
        CHECK_EQ(d, 5);
        /* wavefront: cell (i,j) after (i-1,j) and (i,j-1) */
        static long grid[G][G];
        memset(grid, 0, sizeof(grid));
#pragma omp parallel
#pragma omp single
        for (int i = 0; i < G; i++)
            for (int j = 0; j < G; j++) {
#pragma omp task depend(in                                                        \
                        : grid[i > 0 ? i - 1 : 0][j], grid[i][j > 0 ? j - 1 : 0]) \
    depend(out                                                                    \
           : grid[i][j]) firstprivate(i, j)
                grid[i][j] = (i ? grid[i - 1][j] : 0) + (j ? grid[i][j - 1] : 0) + 1;
            }
        /* grid[i][j] = C(i+j+2, i+1) - 1 */
        CHECK_EQ(grid[0][0], 1);
        CHECK_EQ(grid[1][1], 5);
        CHECK_EQ(grid[2][3], 34);
    }
    return 0;
}
