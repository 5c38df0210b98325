/* apps_pthread - an unmodified Pthreads program, run on glibc's threads and with its
 * threads as weft ULTs (LD_PRELOAD=libweft-pthread.so); bench/pthread/preload_ratio.sh
 * runs both side by side and checks that their output is the same.
 *
 *   apps_pthread create_join [N=10000]   create N threads, then join them all; each
 *                                        returns a value, the sum is printed
 *   apps_pthread worker_pool [TASKS]     4 workers take TASKS small tasks from a queue
 *                                        (one mutex + two condition variables) and add
 *                                        their results under a second mutex
 *   apps_pthread quicksort [N=2000000]   quicksort of N pseudo-random ints, a new thread
 *                                        for each side of a partition above 20000
 *                                        elements; prints a checksum of the sorted array
 *   --repeats R (default 5): each runs R times; stdout gets the result (identical in
 *   every mode and run), stderr the median wall time as "time <name> <ms>". */
#include "bench.h"

#include <pthread.h>
#include <stdint.h>

/* ---- create/join ---- */

static void *ret_arg(void *arg) { return (void *)((uintptr_t)arg + 1); }

static uint64_t create_join(long n)
{
    pthread_t *t = malloc(n * sizeof *t);
    if (!t) {
        perror("malloc");
        exit(1);
    }
    for (long i = 0; i < n; i++) {
        int rc = pthread_create(&t[i], NULL, ret_arg, (void *)(uintptr_t)i);
        if (rc != 0) {
            fprintf(stderr, "pthread_create: error %d at thread %ld\n", rc, i);
            exit(1);
        }
    }
    uint64_t sum = 0;
    for (long i = 0; i < n; i++) {
        void *r;
        pthread_join(t[i], &r);
        sum += (uintptr_t)r;
    }
    free(t);
    return sum;
}

/* ---- worker pool ---- */

#define WORKERS 4
#define QCAP    256

static struct {
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    long items[QCAP];
    int head, count, closed;
    pthread_mutex_t total_lock;
    uint64_t total;
} pool = { PTHREAD_MUTEX_INITIALIZER,
           PTHREAD_COND_INITIALIZER,
           PTHREAD_COND_INITIALIZER,
           { 0 },
           0,
           0,
           0,
           PTHREAD_MUTEX_INITIALIZER,
           0 };

static uint64_t task(long id)
{
    uint64_t x = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 20; i++)
        x ^= x >> 13, x *= 0xff51afd7ed558ccdull;
    return x >> 40;
}

static void *worker(void *arg)
{
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        while (pool.count == 0 && !pool.closed)
            pthread_cond_wait(&pool.not_empty, &pool.lock);
        if (pool.count == 0) {
            pthread_mutex_unlock(&pool.lock);
            return NULL;
        }
        long id = pool.items[pool.head];
        pool.head = (pool.head + 1) % QCAP;
        pool.count--;
        pthread_cond_signal(&pool.not_full);
        pthread_mutex_unlock(&pool.lock);
        uint64_t r = task(id);
        pthread_mutex_lock(&pool.total_lock);
        pool.total += r;
        pthread_mutex_unlock(&pool.total_lock);
    }
}

static uint64_t worker_pool(long tasks)
{
    pthread_t w[WORKERS];
    pool.total = 0;
    pool.closed = 0;
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&w[i], NULL, worker, NULL);
    for (long id = 0; id < tasks; id++) {
        pthread_mutex_lock(&pool.lock);
        while (pool.count == QCAP)
            pthread_cond_wait(&pool.not_full, &pool.lock);
        pool.items[(pool.head + pool.count++) % QCAP] = id;
        pthread_cond_signal(&pool.not_empty);
        pthread_mutex_unlock(&pool.lock);
    }
    pthread_mutex_lock(&pool.lock);
    pool.closed = 1;
    pthread_cond_broadcast(&pool.not_empty);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(w[i], NULL);
    return pool.total;
}

/* ---- parallel quicksort ---- */

#define CUTOFF 20000

typedef struct {
    int *a;
    long n;
} range_t;

static void *qsort_range(void *arg);

static void sort_seq(int *a, long n)
{
    while (n > 1) {
        int p = a[n / 2];
        long i = 0, j = n - 1;
        while (i <= j) {
            while (a[i] < p)
                i++;
            while (a[j] > p)
                j--;
            if (i <= j) {
                int t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (j + 1 < n - i) { /* recurse on the smaller side */
            sort_seq(a, j + 1);
            a += i, n -= i;
        } else {
            sort_seq(a + i, n - i);
            n = j + 1;
        }
    }
}

static void *qsort_range(void *arg)
{
    range_t *r = arg;
    int *a = r->a;
    long n = r->n;
    if (n < CUTOFF) {
        sort_seq(a, n);
        return NULL;
    }
    int p = a[n / 2];
    long i = 0, j = n - 1;
    while (i <= j) {
        while (a[i] < p)
            i++;
        while (a[j] > p)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
    }
    range_t left = { a, j + 1 }, right = { a + i, n - i };
    pthread_t t;
    int rc = pthread_create(&t, NULL, qsort_range, &left);
    qsort_range(&right);
    if (rc == 0)
        pthread_join(t, NULL);
    else
        qsort_range(&left);
    return NULL;
}

static uint64_t quicksort(long n)
{
    int *a = malloc(n * sizeof *a);
    if (!a) {
        perror("malloc");
        exit(1);
    }
    uint64_t s = 42;
    for (long i = 0; i < n; i++)
        a[i] = (int)(bench_rand(&s) % 1000000000);
    range_t all = { a, n };
    pthread_t t;
    pthread_create(&t, NULL, qsort_range, &all); /* sorted by threads from the start */
    pthread_join(t, NULL);
    uint64_t sum = 0;
    for (long i = 0; i < n; i++) {
        if (i && a[i - 1] > a[i]) {
            fprintf(stderr, "quicksort: not sorted at %ld\n", i);
            exit(1);
        }
        sum = sum * 31 + (uint64_t)a[i];
    }
    free(a);
    return sum;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s create_join|worker_pool|quicksort [N] [--repeats R]\n", argv[0]);
        return 2;
    }
    const char *what = argv[1];
    long n = 0;
    int repeats = 5;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
            repeats = atoi(argv[++i]);
        else
            n = atol(argv[i]);
    }
    if (repeats < 1 || repeats > BENCH_MAX_REPEATS)
        repeats = 5;
    double ms[BENCH_MAX_REPEATS];
    uint64_t result = 0;
    for (int r = 0; r < repeats; r++) {
        uint64_t t0 = bench_now_ns(), v;
        if (!strcmp(what, "create_join"))
            v = create_join(n ? n : 10000);
        else if (!strcmp(what, "worker_pool"))
            v = worker_pool(n ? n : 200000);
        else if (!strcmp(what, "quicksort"))
            v = quicksort(n ? n : 2000000);
        else {
            fprintf(stderr, "unknown program %s\n", what);
            return 2;
        }
        ms[r] = (bench_now_ns() - t0) / 1e6;
        if (r && v != result) {
            fprintf(stderr, "%s: result changed between runs\n", what);
            return 1;
        }
        result = v;
    }
    printf("%s %ld: %llu\n", what, n, (unsigned long long)result);
    fprintf(stderr, "time %s %.3f ms (median of %d)\n", what, bench_median(ms, repeats), repeats);
    return 0;
}
