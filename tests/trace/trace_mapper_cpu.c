/* tests/trace/trace_mapper_cpu.c - the trace's mapper thread ("weft-trace-map") maps the
 * next chunks off the CPU of the stream that asked for them: with the primary stream
 * bound to one CPU and enough ULTs to fill several 2 MiB chunks, the mapper's CPU set
 * no longer holds that CPU (and is not empty).  Skipped with fewer than two CPUs. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

static void fn(void *arg) { (void)arg; }

/* the id of this process's thread named `name`, or -1 */
static pid_t find_thread(const char *name)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    pid_t tid = -1;
    struct dirent *e;
    while (tid < 0 && (e = readdir(d))) {
        char path[300], comm[64] = { 0 };
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(comm, sizeof comm, f) && strncmp(comm, name, strlen(name)) == 0)
            tid = (pid_t)atoi(e->d_name);
        fclose(f);
    }
    closedir(d);
    return tid;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* find_thread, waiting up to TEST_PATIENCE_S: a thread names itself when it first runs,
 * which a loaded machine may leave for later than its creation */
static pid_t wait_thread(const char *name)
{
    double t0 = now_s();
    pid_t tid;
    while ((tid = find_thread(name)) < 0 && now_s() - t0 < TEST_PATIENCE_S)
        usleep(1000);
    return tid;
}

int main(void)
{
    cpu_set_t all;
    CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
    if (CPU_COUNT(&all) < 2) {
        fprintf(stderr, "trace_mapper_cpu: one CPU only, nothing to keep off: skipped\n");
        return 77;
    }
    int cpu = 0;
    while (!CPU_ISSET(cpu, &all))
        cpu++;
    char path[] = "/tmp/weft_trace_mapper_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(setenv("WEFT_TRACE", path, 1) == 0);
    CHECK_ABT(ABT_init(0, NULL));
    /* the primary stream on `cpu` only (after ABT_init: the mapper, started there,
     * keeps the process's CPU set to choose from) */
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0);
    ABT_xstream self;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool));
    /* ~80 bytes of records per ULT: 100,000 ULTs fill about four chunks */
    enum { BATCH = 1000 };
    ABT_thread h[BATCH];
    for (int r = 0; r < 100; r++) {
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_create(pool, fn, NULL, ABT_THREAD_ATTR_NULL, &h[i]));
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_free(&h[i]));
    }
    pid_t mapper = wait_thread("weft-trace-map");
    CHECK(mapper > 0);
    cpu_set_t m;
    /* the mapper sets its CPUs before it maps; give it time to have run after the last
     * refill (it maps at once when woken, so this seldom waits) */
    double t0 = now_s();
    for (;;) {
        CHECK(sched_getaffinity(mapper, sizeof m, &m) == 0);
        if (!CPU_ISSET(cpu, &m))
            break;
        if (now_s() - t0 > TEST_PATIENCE_S)
            break; /* the check below fails, with what the mapper's CPUs are */
        usleep(10000);
    }
    fprintf(stderr, "primary stream on CPU %d; mapper: %d CPUs, CPU %d %s\n", cpu, CPU_COUNT(&m),
            cpu, CPU_ISSET(cpu, &m) ? "included" : "excluded");
    CHECK(!CPU_ISSET(cpu, &m));
    CHECK(CPU_COUNT(&m) >= 1);
    CHECK(wait_thread("weft-trace-out") > 0);
    CHECK_ABT(ABT_finalize());
    unlink(path);
    return 0;
}
