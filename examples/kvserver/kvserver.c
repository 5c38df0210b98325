/* examples/kvserver/kvserver.c - a key-value server over TCP on weft and weft_io: one ULT
 * per connection on N execution streams, values in memory, and an optional append-only
 * log (weft_io_pwrite + weft_io_fdatasync before each PUT/DEL is acknowledged, replayed at
 * start: a crash loses no acknowledged write).  Protocol: kv.h (GET/PUT/DEL lines).
 *
 *   kvserver [-a ADDR] [-p PORT] [-s STREAMS] [-l LOGFILE] [-q] [-S]
 *
 * Connections are dealt round-robin to the streams, each with its own pool, and stay
 * there (the ring of their stream completes their I/O); -S puts every stream on one
 * shared pool instead (a ULT then resumes wherever a stream is free).
 *
 * Prints "kvserver: listening on ADDR:PORT ..." on stdout once it accepts (PORT 0: any
 * free port, the line says which).  SIGINT or SIGTERM: stop accepting, close every
 * connection after the request it is in, sync the log, exit 0.
 *
 * Log records: 'K', op ('P' or 'D'), key length and value length (4 bytes each, little
 * endian), key, value, then a 4-byte checksum of everything before it.  Appends are
 * serialized (a mutex held across the pwrite), so the file never has a hole; replay stops
 * at the first incomplete or damaged record (a write the crash cut) and truncates there. */
#define _GNU_SOURCE 1
#include <abt.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <weft_io.h>

#define KV_LOCK_T       ABT_mutex
#define KV_LOCK_INIT(l) ABT_mutex_create(&(l))
#define KV_LOCK_FREE(l) ABT_mutex_free(&(l))
#define KV_LOCK(l)      ABT_mutex_lock(l)
#define KV_UNLOCK(l)    ABT_mutex_unlock(l)
#include "kv.h"

static kv_store store;
static int lfd;
static int quiet;
static volatile int stopping;

/* ---- the log ---- */
static int logfd = -1;
static off_t log_end;
static ABT_mutex log_lock;

static uint32_t cksum(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

static uint32_t get32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int write_all(int fd, const void *b, size_t n, off_t off)
{
    const char *p = b;
    while (n) {
        ssize_t w = weft_io_pwrite(fd, p, n, off);
        if (w < 0)
            return -1;
        p += w, n -= (size_t)w, off += w;
    }
    return 0;
}

/* Make the request durable, then apply it; 0, or -1 (errno) when the log refused it. */
static int log_and_apply(const kv_req *r, char *reply, size_t *rlen)
{
    size_t n = 10 + r->klen + r->vlen + 4;
    unsigned char stackbuf[512], *rec = n <= sizeof stackbuf ? stackbuf : malloc(n);
    if (!rec)
        return -1;
    rec[0] = 'K';
    rec[1] = r->op == KV_PUT ? 'P' : 'D';
    put32(rec + 2, (uint32_t)r->klen);
    put32(rec + 6, (uint32_t)r->vlen);
    memcpy(rec + 10, r->key, r->klen);
    if (r->vlen)
        memcpy(rec + 10 + r->klen, r->val, r->vlen);
    put32(rec + n - 4, cksum(rec, n - 4));
    ABT_mutex_lock(log_lock);
    int rc = write_all(logfd, rec, n, log_end);
    if (rc == 0) {
        log_end += (off_t)n;
        *rlen = kv_exec(&store, r, reply); /* memory in log order */
    } else {
        /* a partial record would be cut at replay; cut it now so later ones follow */
        int e = errno;
        (void)weft_io_ftruncate(logfd, log_end);
        errno = e;
    }
    ABT_mutex_unlock(log_lock);
    if (rec != stackbuf)
        free(rec);
    if (rc == 0 && weft_io_fdatasync(logfd) < 0)
        return -1;
    return rc;
}

static int replay(const char *path)
{
    logfd = weft_io_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (logfd < 0)
        return -1;
    struct stat st;
    if (weft_io_fstat(logfd, &st) < 0)
        return -1;
    size_t size = (size_t)st.st_size;
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return -1;
    size_t got = 0;
    while (got < size) {
        ssize_t r = weft_io_pread(logfd, buf + got, size - got, (off_t)got);
        if (r <= 0) {
            free(buf);
            return -1;
        }
        got += (size_t)r;
    }
    size_t off = 0, nrec = 0;
    while (off + 14 <= size) {
        unsigned char *p = buf + off;
        uint32_t kl = get32(p + 2), vl = get32(p + 6);
        if (p[0] != 'K' || (p[1] != 'P' && p[1] != 'D') || kl == 0 || kl > KV_KEY_MAX ||
            vl > KV_LINE_MAX)
            break;
        size_t n = 14 + (size_t)kl + vl;
        if (off + n > size || get32(p + n - 4) != cksum(p, n - 4))
            break;
        if (p[1] == 'P')
            kv_put(&store, (char *)p + 10, kl, (char *)p + 10 + kl, vl);
        else
            kv_del(&store, (char *)p + 10, kl);
        off += n;
        nrec++;
    }
    free(buf);
    if (off < size) {
        if (!quiet)
            fprintf(stderr, "kvserver: log: %zu bytes after the last whole record cut\n",
                    size - off);
        if (weft_io_ftruncate(logfd, (off_t)off) < 0)
            return -1;
    }
    log_end = (off_t)off;
    if (!quiet)
        fprintf(stderr, "kvserver: log %s: %zu records replayed\n", path, nrec);
    return 0;
}

/* ---- connections ---- */
typedef struct conn {
    struct conn *next, *prev;
    int fd;
} conn;

static ABT_mutex conns_lock;
static ABT_cond conns_gone;
static conn *conns;
static long nconns;

static void conn_add(conn *c)
{
    ABT_mutex_lock(conns_lock);
    c->prev = NULL;
    c->next = conns;
    if (conns)
        conns->prev = c;
    conns = c;
    nconns++;
    ABT_mutex_unlock(conns_lock);
}

static void conn_del(conn *c)
{
    ABT_mutex_lock(conns_lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (--nconns == 0)
        ABT_cond_broadcast(conns_gone);
    ABT_mutex_unlock(conns_lock);
}

static int send_all(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = weft_io_send(fd, b, n, MSG_NOSIGNAL);
        if (w < 0)
            return -1;
        b += w, n -= (size_t)w;
    }
    return 0;
}

#define OUT_CAP (4 * (KV_LINE_MAX + 16))

static void serve(void *arg)
{
    conn *c = arg;
    char *in = malloc(KV_LINE_MAX + 1), *out = malloc(OUT_CAP);
    size_t have = 0;
    if (!in || !out)
        goto done;
    for (;;) {
        ssize_t r = weft_io_recv(c->fd, in + have, KV_LINE_MAX + 1 - have, 0);
        if (r <= 0)
            break; /* EOF, reset, or shut down by a stop: nothing else to free */
        have += (size_t)r;
        size_t start = 0, olen = 0;
        char *nl;
        while ((nl = memchr(in + start, '\n', have - start))) {
            kv_req q = kv_parse(in + start, (size_t)(nl - (in + start)));
            if (logfd >= 0 && (q.op == KV_PUT || q.op == KV_DEL)) {
                size_t rl = 0;
                if (log_and_apply(&q, out + olen, &rl) < 0) {
                    q.op = KV_BAD;
                    q.err = "log write failed";
                    olen += kv_exec(&store, &q, out + olen);
                } else {
                    olen += rl;
                }
            } else {
                olen += kv_exec(&store, &q, out + olen);
            }
            start = (size_t)(nl - in) + 1;
            if (OUT_CAP - olen < KV_LINE_MAX + 16) {
                if (send_all(c->fd, out, olen) < 0)
                    goto done;
                olen = 0;
            }
        }
        if (olen && send_all(c->fd, out, olen) < 0)
            goto done;
        memmove(in, in + start, have - start);
        have -= start;
        if (have > KV_LINE_MAX) {
            /* reply, then a lingering close: closing with unread input would reset the
             * connection and could destroy the reply before the client reads it */
            send_all(c->fd, "ERROR line too long\n", 20);
            weft_io_shutdown(c->fd, SHUT_WR);
            int old = weft_io_set_timeout(1000);
            for (size_t drained = 0; drained < (1u << 20);) {
                ssize_t k = weft_io_recv(c->fd, in, KV_LINE_MAX, 0);
                if (k <= 0)
                    break;
                drained += (size_t)k;
            }
            weft_io_set_timeout(old);
            break;
        }
    }
done:
    free(in);
    free(out);
    weft_io_close(c->fd);
    conn_del(c);
    free(c);
}

static ABT_pool pool;        /* shared by every stream (-S), or stream 0's */
static ABT_pool spools[256]; /* one per stream (default) */
static int nspools, next_spool;

static void acceptor(void *arg)
{
    while (!stopping) {
        int fd = weft_io_accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                weft_io_poll(lfd, 0, 10); /* out of resources: back off a little */
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        conn *c = malloc(sizeof *c);
        if (!c) {
            weft_io_close(fd);
            continue;
        }
        c->fd = fd;
        conn_add(c);
        /* per-stream pools: connections are dealt round-robin and stay on their
         * stream, whose ring completes their I/O (no cross-stream wake-up per request) */
        ABT_pool p = nspools ? spools[next_spool++ % nspools] : pool;
        if (ABT_thread_create(p, serve, c, ABT_THREAD_ATTR_NULL, NULL) != ABT_SUCCESS) {
            conn_del(c);
            weft_io_close(fd);
            free(c);
        }
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: kvserver [-a ADDR] [-p PORT] [-s STREAMS] [-l LOGFILE] [-q] [-S]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *addr = "127.0.0.1", *logpath = NULL;
    int port = 7379, nstreams = 2, opt, shared_pool = 0;
    while ((opt = getopt(argc, argv, "a:p:s:l:qS")) != -1) {
        switch (opt) {
        case 'S': shared_pool = 1; break;
        case 'a': addr = optarg; break;
        case 'p': port = atoi(optarg); break;
        case 's': nstreams = atoi(optarg); break;
        case 'l': logpath = optarg; break;
        case 'q': quiet = 1; break;
        default: usage();
        }
    }
    if (nstreams < 1 || nstreams > 256 || port < 0 || port > 65535)
        usage();

    /* SIGINT/SIGTERM arrive through a signalfd read by the main ULT; every stream
     * inherits the mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    int sfd = signalfd(-1, &stop, SFD_CLOEXEC);
    if (sfd < 0) {
        perror("kvserver: signalfd");
        return 1;
    }

    if (ABT_init(0, NULL) != ABT_SUCCESS) {
        fprintf(stderr, "kvserver: ABT_init failed\n");
        return 1;
    }
    ABT_xstream xs[256];
    ABT_xstream_self(&xs[0]);
    if (shared_pool) {
        ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool);
        ABT_xstream_set_main_sched_basic(xs[0], ABT_SCHED_BASIC_WAIT, 1, &pool);
        for (int i = 1; i < nstreams; i++)
            ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs[i]);
    } else {
        nspools = nstreams;
        for (int i = 0; i < nstreams; i++)
            ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &spools[i]);
        pool = spools[0];
        ABT_xstream_set_main_sched_basic(xs[0], ABT_SCHED_BASIC_WAIT, 1, &spools[0]);
        for (int i = 1; i < nstreams; i++)
            ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &spools[i], ABT_SCHED_CONFIG_NULL,
                                     &xs[i]);
    }
    ABT_mutex_create(&log_lock);
    ABT_mutex_create(&conns_lock);
    ABT_cond_create(&conns_gone);
    if (kv_init(&store) < 0) {
        fprintf(stderr, "kvserver: out of memory\n");
        return 1;
    }
    if (logpath && replay(logpath) < 0) {
        fprintf(stderr, "kvserver: log %s: %s\n", logpath, strerror(errno));
        return 1;
    }

    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (inet_pton(AF_INET, addr, &a.sin_addr) != 1)
        usage();
    lfd = weft_io_socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t al = sizeof a;
    if (lfd < 0 || weft_io_bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 ||
        weft_io_listen(lfd, 4096) < 0 || getsockname(lfd, (struct sockaddr *)&a, &al) < 0) {
        fprintf(stderr, "kvserver: %s:%d: %s\n", addr, port, strerror(errno));
        return 1;
    }
    printf("kvserver: listening on %s:%d (%d streams, weft_io %s%s%s)\n", addr, ntohs(a.sin_port),
           nstreams, weft_io_backend(), logpath ? ", log " : "", logpath ? logpath : "");
    fflush(stdout);

    ABT_thread acc;
    ABT_thread_create(pool, acceptor, NULL, ABT_THREAD_ATTR_NULL, &acc);

    struct signalfd_siginfo si;
    while (weft_io_read(sfd, &si, sizeof si) != (ssize_t)sizeof si)
        ;
    /* stop: no new connection, every connection ends after its current request */
    stopping = 1;
    ABT_thread_cancel(acc); /* parked in accept: woken and ended (weft_io.h) */
    ABT_thread_join(acc);
    ABT_thread_free(&acc);
    ABT_mutex_lock(conns_lock);
    for (conn *c = conns; c; c = c->next)
        shutdown(c->fd, SHUT_RDWR);
    while (nconns)
        ABT_cond_wait(conns_gone, conns_lock);
    ABT_mutex_unlock(conns_lock);
    weft_io_close(lfd);
    if (logfd >= 0) {
        weft_io_fdatasync(logfd);
        weft_io_close(logfd);
    }
    if (!quiet)
        fprintf(stderr, "kvserver: signal %u: stopped\n", si.ssi_signo);
    for (int i = 1; i < nstreams; i++) {
        ABT_xstream_join(xs[i]);
        ABT_xstream_free(&xs[i]);
    }
    ABT_mutex_free(&log_lock);
    ABT_mutex_free(&conns_lock);
    ABT_cond_free(&conns_gone);
    kv_destroy(&store);
    ABT_finalize();
    close(sfd);
    return 0;
}
