/* bench/io/pread_bench.c - 4 KiB random preads on a 256 MiB file by W workers: W ULTs on
 * ONE weft stream (weft_io_pread) or W Pthreads (pread).  Prints one line:
 *   mode=M workers=W direct=D reads=N secs=S reads_per_s=R MiB_per_s=B cpu_s=C reads_per_cpu_s=E
 * (cpu_s: the process's user + system time over the run, getrusage: the CPU the kernel
 * gave it, which a loaded machine shares out unevenly between 1 stream and 64 threads)
 *   pread_bench -m ult|pthread [-n W] [-d SECONDS] [-f FILE] [-D]
 * -D opens the file O_DIRECT (reads go to the device, not the page cache).  The file is
 * created (filled with non-zero bytes) when it is missing or shorter than 256 MiB.
 * Bounded: at most 30 s. */
#define _GNU_SOURCE 1
#include <abt.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <weft_io.h>

#define FILE_SIZE (256ull << 20)
#define BLK       4096

static int fd, direct;
static double dur = 3;
static _Atomic int stop;
static _Atomic long total;

static double cpu_now(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void body(uintptr_t seed, int ult)
{
    char *buf = aligned_alloc(BLK, BLK);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    long n = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        off_t off = (off_t)((x % (FILE_SIZE / BLK)) * BLK);
        ssize_t r = ult ? weft_io_pread(fd, buf, BLK, off) : pread(fd, buf, BLK, off);
        if (r != BLK) {
            perror("pread_bench: read");
            exit(1);
        }
        n++;
    }
    atomic_fetch_add(&total, n);
    free(buf);
}

static void ult_fn(void *a) { body((uintptr_t)a, 1); }
static void *thr_fn(void *a)
{
    body((uintptr_t)a, 0);
    return NULL;
}

static void timer_fn(void *a)
{
    /* the measuring ULT sleeps in the ring too: no busy stream */
    int p[2];
    if (pipe(p) == 0) {
        weft_io_poll(p[0], POLLIN, (int)(dur * 1000));
        close(p[0]);
        close(p[1]);
    }
    atomic_store(&stop, 1);
}

int main(int argc, char **argv)
{
    const char *mode = "ult", *path = "/tmp/weft_pread_bench.dat";
    int nw = 64, opt;
    while ((opt = getopt(argc, argv, "m:n:d:f:D")) != -1) {
        switch (opt) {
        case 'm': mode = optarg; break;
        case 'n': nw = atoi(optarg); break;
        case 'd': dur = atof(optarg); break;
        case 'f': path = optarg; break;
        case 'D': direct = 1; break;
        default:
            fprintf(stderr, "usage: pread_bench -m ult|pthread [-n W] [-d S] [-f FILE] [-D]\n");
            return 2;
        }
    }
    if (dur > 30)
        dur = 30;
    struct stat st;
    if (stat(path, &st) != 0 || (uint64_t)st.st_size < FILE_SIZE) {
        int w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char *b = malloc(1 << 20);
        memset(b, 0x5a, 1 << 20);
        for (uint64_t o = 0; o < FILE_SIZE; o += 1 << 20)
            if (write(w, b, 1 << 20) != 1 << 20) {
                perror("pread_bench: creating the file");
                return 1;
            }
        fsync(w);
        close(w);
        free(b);
    }
    fd = open(path, O_RDONLY | (direct ? O_DIRECT : 0));
    if (fd < 0) {
        perror("pread_bench: open");
        return 1;
    }
    double t0, secs, c0 = cpu_now();
    if (!strcmp(mode, "ult")) {
        ABT_init(0, NULL);
        ABT_pool pool;
        ABT_xstream xs;
        ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool);
        ABT_xstream_self(&xs);
        ABT_xstream_set_main_sched_basic(xs, ABT_SCHED_BASIC_WAIT, 1, &pool);
        ABT_thread *t = calloc((size_t)nw + 1, sizeof *t);
        t0 = now();
        for (int i = 0; i < nw; i++)
            ABT_thread_create(pool, ult_fn, (void *)(uintptr_t)(i + 1), ABT_THREAD_ATTR_NULL,
                              &t[i]);
        ABT_thread_create(pool, timer_fn, NULL, ABT_THREAD_ATTR_NULL, &t[nw]);
        for (int i = 0; i <= nw; i++)
            ABT_thread_free(&t[i]);
        secs = now() - t0;
        free(t);
        ABT_finalize();
    } else {
        pthread_t *t = calloc((size_t)nw, sizeof *t);
        t0 = now();
        for (int i = 0; i < nw; i++)
            pthread_create(&t[i], NULL, thr_fn, (void *)(uintptr_t)(i + 1));
        usleep((useconds_t)(dur * 1e6));
        atomic_store(&stop, 1);
        for (int i = 0; i < nw; i++)
            pthread_join(t[i], NULL);
        secs = now() - t0;
        free(t);
    }
    double cpu = cpu_now() - c0;
    long n = atomic_load(&total);
    printf("mode=%s workers=%d direct=%d reads=%ld secs=%.2f reads_per_s=%.0f MiB_per_s=%.1f "
           "cpu_s=%.2f reads_per_cpu_s=%.0f\n",
           mode, nw, direct, n, secs, (double)n / secs, (double)n * BLK / secs / (1 << 20), cpu,
           cpu > 0 ? (double)n / cpu : 0);
    close(fd);
    return 0;
}
