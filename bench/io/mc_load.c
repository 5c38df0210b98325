/* bench/io/mc_load.c - a closed-loop load generator for memcached's ASCII protocol,
 * loopback only: C connections, each with one request in flight (90% get, 10% set over
 * -k keys, 10,000 by default, values of -s bytes, 100 by default), driven by T threads
 * with epoll.  Every key is set before the measurement, so every get hits.  Runs a
 * warm-up (-w seconds, counted once every connection is made), then measures for a
 * fixed time (-d), or until -n requests were answered (then -d is the upper bound), and
 * prints one line:
 *   conns=C reqs=N secs=S rps=R p50_us=A p99_us=B errors=E
 * A fixed count (-n) makes servers' CPU per request comparable over the same work.
 * -P PID: the server's process; its CPU time (user + system of all its threads,
 * /proc/PID/stat) is read when the measurement starts and when it ends, and the line
 * ends with server_cpu_us_per_req=X: the server's CPU over exactly the measured window
 * (not its accepting of the connections, which the warm-up covers), per answer; and
 * client_cpu_us_per_req=Y: mc_load's own CPU over the same window, per answer; and
 * server_rss_kib_per_conn=Z: the growth of the server's resident memory (VmRSS) from
 * before the connections were made to the end of the measurement, per connection.
 * Bounded: at most 60 s of measurement, connections only to 127.0.0.1.
 *
 *   mc_load -p PORT [-c CONNS] [-d SECONDS] [-n REQUESTS] [-w WARMUP] [-t THREADS] [-P PID]
 *           [-k KEYS] [-s VALUE_BYTES] */
#define _GNU_SOURCE 1
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int port = 11211, nconns = 100, nthreads = 2, server_pid, nkeys = 10000, vsize = 100;
static char *value; /* vsize bytes, then "\r\n" */
static double dur = 3, warm = 0.5;
static long target;           /* -n: stop after this many measured answers (0: by time) */
static _Atomic long measured; /* answers counted so far (only with -n) */
static _Atomic int phase;     /* 0 warm-up, 1 measure, 2 stop */
static _Atomic int connected; /* workers whose connections are all made */

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

typedef struct {
    int fd;
    uint64_t sent_at;
    uint32_t seq;
    int is_get;
    size_t need; /* a get's reply: its length, once its first line came (0: not yet) */
    char in[512];
    size_t have, skipped; /* bytes of a long reply dropped from in[] */
} cn;

typedef struct {
    int first, count;
    uint64_t *lat; /* measured latencies (ns) */
    size_t nlat, cap;
    long errors;
} worker_t;

static int mk_conn(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static int send_all(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue; /* loopback: the server takes it soon */
            return -1;
        }
        b += w, n -= (size_t)w;
    }
    return 0;
}

static int send_req(cn *c)
{
    char b[128];
    uint32_t k = (c->seq * 2654435761u) % (uint32_t)nkeys;
    c->is_get = c->seq % 10 != 0;
    c->need = 0;
    c->seq++;
    c->sent_at = now_ns();
    if (c->is_get) {
        int n = snprintf(b, sizeof b, "get key%u\r\n", k);
        return send_all(c->fd, b, (size_t)n);
    }
    int n = snprintf(b, sizeof b, "set key%u 0 0 %d\r\n", k, vsize);
    struct iovec iov[2] = { { b, (size_t)n }, { value, (size_t)vsize + 2 } };
    struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };
    ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL);
    if (w < 0 && errno != EAGAIN)
        return -1;
    if (w < 0)
        w = 0;
    if ((size_t)w < (size_t)n) { /* rare: finish by hand */
        if (send_all(c->fd, b + w, (size_t)n - (size_t)w) < 0)
            return -1;
        w = n;
    }
    return send_all(c->fd, value + (w - n), (size_t)vsize + 2 - (size_t)(w - n));
}

/* Is the reply to c's request complete in c->in?  Its length (then consumed), or 0. */
static size_t reply_done(cn *c, long *errors)
{
    if (!c->is_get) {
        char *nl = memchr(c->in, '\n', c->have);
        if (!nl)
            return 0;
        if (strncmp(c->in, "STORED", 6))
            (*errors)++;
        return (size_t)(nl - c->in) + 1;
    }
    if (!c->need) {
        char *nl = memchr(c->in, '\n', c->have);
        if (!nl)
            return 0;
        if (!strncmp(c->in, "END", 3))
            return (size_t)(nl - c->in) + 1; /* a miss */
        const char *sp = NULL;
        for (char *p = c->in; p < nl; p++)
            if (*p == ' ')
                sp = p;
        if (strncmp(c->in, "VALUE ", 6) || !sp) {
            (*errors)++;
            return (size_t)(nl - c->in) + 1;
        }
        c->need = (size_t)(nl - c->in) + 1 + (size_t)atol(sp + 1) + 2 + 5; /* data, END */
    }
    return c->skipped + c->have >= c->need ? c->need - c->skipped : 0;
}

static void *run(void *arg)
{
    worker_t *w = arg;
    cn *cs = calloc((size_t)w->count, sizeof *cs);
    int ep = epoll_create1(0);
    for (int i = 0; i < w->count; i++) {
        cs[i].fd = mk_conn();
        cs[i].seq = (uint32_t)(w->first + i) * 7919u;
        if (cs[i].fd < 0) {
            w->errors++;
            continue;
        }
        struct epoll_event e = { .events = EPOLLIN, .data.ptr = &cs[i] };
        epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &e);
        if (send_req(&cs[i]) < 0)
            w->errors++;
    }
    atomic_fetch_add(&connected, 1);
    struct epoll_event evs[256];
    while (atomic_load(&phase) < 2) {
        int n = epoll_wait(ep, evs, 256, 50);
        for (int i = 0; i < n; i++) {
            cn *c = evs[i].data.ptr;
            ssize_t r = recv(c->fd, c->in + c->have, sizeof c->in - c->have, 0);
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN)
                    continue;
                w->errors++;
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                continue;
            }
            c->have += (size_t)r;
            size_t used = reply_done(c, &w->errors);
            if (!used) {
                if (c->have == sizeof c->in && c->need) { /* a long value: drop the middle */
                    c->skipped += c->have - 8;
                    memmove(c->in, c->in + c->have - 8, 8);
                    c->have = 8;
                } else if (c->have == sizeof c->in) {
                    w->errors++;
                    c->have = 0;
                }
                continue;
            }
            uint64_t t = now_ns();
            if (used > c->have)
                used = c->have;
            memmove(c->in, c->in + used, c->have - used);
            c->have -= used;
            c->skipped = 0;
            if (atomic_load(&phase) == 1) {
                if (w->nlat == w->cap) {
                    w->cap = w->cap ? w->cap * 2 : 1 << 16;
                    w->lat = realloc(w->lat, w->cap * sizeof *w->lat);
                }
                w->lat[w->nlat++] = t - c->sent_at;
                if (target && atomic_fetch_add(&measured, 1) + 1 >= target)
                    atomic_store(&phase, 2);
            }
            if (send_req(c) < 0)
                w->errors++;
        }
    }
    for (int i = 0; i < w->count; i++)
        if (cs[i].fd >= 0)
            close(cs[i].fd);
    close(ep);
    free(cs);
    return NULL;
}

/* CPU time of process pid so far (ns): utime + stime of /proc/PID/stat, which count its
 * exited threads too; -1 when unreadable. */
static double proc_cpu_ns(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long long ut, st;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) * 1e9 / (double)sysconf(_SC_CLK_TCK);
}

/* VmRSS of process pid (KiB), or -1. */
static long proc_rss_kib(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            v = atol(line + 6);
    fclose(f);
    return v;
}

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int opt;
    while ((opt = getopt(argc, argv, "p:c:d:n:w:t:P:k:s:")) != -1) {
        switch (opt) {
        case 'p': port = atoi(optarg); break;
        case 'c': nconns = atoi(optarg); break;
        case 'd': dur = atof(optarg); break;
        case 'n': target = atol(optarg); break;
        case 'w': warm = atof(optarg); break;
        case 't': nthreads = atoi(optarg); break;
        case 'P': server_pid = atoi(optarg); break;
        case 'k': nkeys = atoi(optarg); break;
        case 's': vsize = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: mc_load -p PORT [-c CONNS] [-d S] [-n REQS] [-w S] [-t "
                            "THREADS] [-P PID] [-k KEYS] [-s VALUE_BYTES]\n");
            return 2;
        }
    }
    if (dur > 60)
        dur = 60; /* bounded */
    if (nthreads > nconns)
        nthreads = nconns;
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    if (nkeys < 1 || vsize < 0 || vsize > (1 << 20) - 1024 || nconns < 1)
        return 2;
    value = malloc((size_t)vsize + 2);
    for (int i = 0; i < vsize; i++)
        value[i] = (char)('a' + i % 26);
    memcpy(value + vsize, "\r\n", 2);
    /* the keys exist before the measurement: set, 100 at a time in a pipeline */
    int fd = mk_conn();
    if (fd < 0) {
        perror("mc_load: connect");
        return 1;
    }
    fcntl(fd, F_SETFL, 0);
    for (int k0 = 0; k0 < nkeys; k0 += 100) {
        int n = 0;
        for (int k = k0; k < nkeys && k < k0 + 100; k++, n++) {
            char b[64];
            int l = snprintf(b, sizeof b, "set key%d 0 0 %d\r\n", k, vsize);
            send_all(fd, b, (size_t)l);
            send_all(fd, value, (size_t)vsize + 2);
        }
        char b[8192];
        size_t got = 0, lines = 0;
        while (lines < (size_t)n) {
            ssize_t r = recv(fd, b, sizeof b, 0);
            if (r <= 0) {
                fprintf(stderr, "mc_load: preload: connection lost\n");
                return 1;
            }
            for (ssize_t i = 0; i < r; i++)
                lines += b[i] == '\n';
            got += (size_t)r;
        }
    }
    close(fd);
    usleep(100000);
    long rss0 = server_pid ? proc_rss_kib(server_pid) : -1;

    worker_t *ws = calloc((size_t)nthreads, sizeof *ws);
    pthread_t *th = calloc((size_t)nthreads, sizeof *th);
    for (int i = 0, first = 0; i < nthreads; i++) {
        ws[i].first = first;
        ws[i].count = nconns / nthreads + (i < nconns % nthreads);
        first += ws[i].count;
        pthread_create(&th[i], NULL, run, &ws[i]);
    }
    /* the warm-up starts once every connection is made (10,000 take a while) */
    for (uint64_t t = now_ns(); atomic_load(&connected) < nthreads && now_ns() - t < 30000000000u;)
        usleep(1000);
    usleep((useconds_t)(warm * 1e6));
    double cpu0 = server_pid ? proc_cpu_ns(server_pid) : -1, me0 = proc_cpu_ns(getpid());
    uint64_t t0 = now_ns();
    atomic_store(&phase, 1);
    uint64_t end = t0 + (uint64_t)(dur * 1e9);
    while (atomic_load(&phase) == 1 && now_ns() < end)
        usleep(2000);
    atomic_store(&phase, 2);
    double secs = (double)(now_ns() - t0) / 1e9;
    double cpu1 = server_pid ? proc_cpu_ns(server_pid) : -1, me1 = proc_cpu_ns(getpid());
    long rss1 = server_pid ? proc_rss_kib(server_pid) : -1;
    size_t total = 0;
    long errors = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
        total += ws[i].nlat;
        errors += ws[i].errors;
    }
    uint64_t *all = malloc((total ? total : 1) * sizeof *all);
    size_t k = 0;
    for (int i = 0; i < nthreads; i++) {
        memcpy(all + k, ws[i].lat, ws[i].nlat * sizeof *all);
        k += ws[i].nlat;
        free(ws[i].lat);
    }
    qsort(all, total, sizeof *all, cmp);
    double p50 = total ? (double)all[total / 2] / 1e3 : 0;
    double p99 = total ? (double)all[(size_t)((double)total * 0.99)] / 1e3 : 0;
    printf("conns=%d reqs=%zu secs=%.2f rps=%.0f p50_us=%.1f p99_us=%.1f errors=%ld", nconns, total,
           secs, (double)total / secs, p50, p99, errors);
    if (cpu0 >= 0 && cpu1 >= 0 && total)
        printf(" server_cpu_us_per_req=%.2f", (cpu1 - cpu0) / 1e3 / (double)total);
    if (me0 >= 0 && me1 >= 0 && total) /* on one machine req/s follows the sum of the two */
        printf(" client_cpu_us_per_req=%.2f", (me1 - me0) / 1e3 / (double)total);
    if (rss0 >= 0 && rss1 >= 0)
        printf(" server_rss_kib=%ld server_rss_kib_per_conn=%.2f", rss1,
               (double)(rss1 - rss0) / nconns);
    printf("\n");
    free(all);
    free(ws);
    free(th);
    return errors ? 1 : 0;
}
