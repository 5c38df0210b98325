/* The environment (set by ctest: OMP_NUM_THREADS=3,2 OMP_SCHEDULE=guided,4
 * OMP_MAX_ACTIVE_LEVELS=2 OMP_THREAD_LIMIT=64 OMP_DYNAMIC=false): the ICVs it gives,
 * the nthreads list per level, and a malformed value reported naming the variable
 * (the test re-runs itself with bad values and reads its stderr), and OMP_DISPLAY_ENV
 * naming weft-omp. */
#include "omp_test.h"

int main(int argc, char **argv)
{
    if (argc > 1) /* child: the warning is printed at load time */
        return 0;
    check_runtime_is_weft();
    CHECK_EQ(omp_get_max_threads(), 3);
    CHECK_EQ(omp_get_max_active_levels(), 2);
    CHECK_EQ(omp_get_thread_limit(), 64);
    CHECK_EQ(omp_get_dynamic(), 0);
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK_EQ(kind, omp_sched_guided);
    CHECK_EQ(chunk, 4);
    CHECK_EQ(omp_get_num_devices(), 0);
    CHECK(omp_is_initial_device());
    CHECK(omp_get_num_procs() >= 1);
    CHECK(omp_get_wtick() > 0);
    double t0 = omp_get_wtime();
    CHECK(omp_get_wtime() >= t0);
    int outer = 0, inner = 0, inner_max = 0;
#pragma omp parallel
    {
#pragma omp single
        outer = omp_get_num_threads();
#pragma omp parallel
        {
#pragma omp single
            {
#pragma omp atomic write
                inner = omp_get_num_threads();
#pragma omp atomic write
                inner_max = omp_get_max_threads();
            }
        }
    }
    CHECK_EQ(outer, 3);
    CHECK_EQ(inner, 2);
    CHECK_EQ(inner_max, 2);
    static const char *const bad[] = { "OMP_NUM_THREADS=abc", "OMP_SCHEDULE=sometimes",
                                       "OMP_STACKSIZE=12Q",   "OMP_WAIT_POLICY=lazy",
                                       "GOMP_SPINCOUNT=-5",   "OMP_PROC_BIND=sideways" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char cmd[512], line[512], name[64];
        snprintf(name, sizeof(name), "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        snprintf(cmd, sizeof(cmd), "env %s '%s' child 2>&1", bad[i], argv[0]);
        FILE *p = popen(cmd, "r");
        CHECK(p);
        int found = 0;
        while (fgets(line, sizeof(line), p))
            if (strstr(line, "Invalid value for environment variable") && strstr(line, name))
                found = 1;
        CHECK_EQ(pclose(p), 0);
        if (!found) {
            fprintf(stderr, "no warning for %s\n", bad[i]);
            return 1;
        }
    }
    /* OMP_DISPLAY_ENV names the runtime */
    {
        char cmd[512], line[512];
        snprintf(cmd, sizeof(cmd), "env OMP_DISPLAY_ENV=true '%s' child 2>&1", argv[0]);
        FILE *p = popen(cmd, "r");
        CHECK(p);
        int found = 0;
        while (fgets(line, sizeof(line), p))
            if (strstr(line, "RUNTIME") && strstr(line, "weft-omp"))
                found = 1;
        CHECK_EQ(pclose(p), 0);
        CHECK(found);
    }
    return 0;
}
