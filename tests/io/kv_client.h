/* tests/io/kv_client.h - starting examples/kvserver from a test and talking to it with
 * plain blocking sockets (the test side needs no weft).  A server started here dies with
 * its test (PR_SET_PDEATHSIG), even when the test is killed with SIGKILL. */
#ifndef KV_CLIENT_H
#define KV_CLIENT_H

#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "io_test.h"

typedef struct {
    pid_t pid;
    int port;
    FILE *out;        /* the server's stdout (and stderr with kv_opts.capture_stderr) */
    char notes[2048]; /* with capture_stderr: what it printed before it listened */
} kv_server;

/* How kv_start_ex runs the server. */
typedef struct {
    long nofile;          /* > 0: its RLIMIT_NOFILE (soft and hard) */
    int capture_stderr;   /* its stderr into kv_server.out too */
    const char *preload;  /* LD_PRELOAD for it */
    int expect_no_listen; /* it is expected to exit without listening: return at once */
} kv_opts;

/* The child side: it dies with the test (SIGKILL when the test process ends, however it
 * ends), and never outlives a parent that died before the prctl. */
static inline void kv_child_setup(pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
}

/* Start `exe` with the given extra arguments (NULL-terminated); waits for its
 * "listening" line.  Skips the test when the server runs another backend than asked. */
static inline kv_server kv_start_ex(const char *exe, const char *const *extra, const kv_opts *o)
{
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    kv_server s = { 0 };
    pid_t parent = getpid();
    s.pid = fork();
    CHECK(s.pid >= 0);
    if (s.pid == 0) {
        kv_child_setup(parent);
        dup2(p[1], 1);
        if (o && o->capture_stderr)
            dup2(p[1], 2);
        close(p[0]);
        close(p[1]);
        if (o && o->preload)
            setenv("LD_PRELOAD", o->preload, 1);
        if (o && o->nofile > 0) {
            struct rlimit r = { (rlim_t)o->nofile, (rlim_t)o->nofile };
            if (setrlimit(RLIMIT_NOFILE, &r) != 0)
                _exit(126);
        }
        const char *argv[24] = { exe, "-p", "0", "-q" };
        int n = 4;
        for (int i = 0; extra && extra[i] && n < 23; i++)
            argv[n++] = extra[i];
        argv[n] = NULL;
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    s.out = fdopen(p[0], "r");
    if (o && o->expect_no_listen)
        return s;
    char line[512];
    for (;;) { /* with stderr captured, its notices may come first */
        if (!fgets(line, sizeof line, s.out))
            TEST_FAIL("kvserver did not start");
        if (strstr(line, "listening on"))
            break;
        fputs(line, stderr);
        size_t l = strlen(s.notes);
        snprintf(s.notes + l, sizeof s.notes - l, "%s", line);
    }
    char *c = strstr(line, "127.0.0.1:");
    CHECK(c != NULL);
    s.port = atoi(c + 10);
    const char *want = getenv("WEFT_IO_BACKEND");
    if (want && !strstr(line, want)) {
        kill(s.pid, SIGKILL);
        waitpid(s.pid, NULL, 0);
        TEST_SKIP("kvserver does not run the %s backend: %s", want, line);
    }
    return s;
}

static inline kv_server kv_start(const char *exe, const char *const *extra)
{
    return kv_start_ex(exe, extra, NULL);
}

/* Run `exe` (which must exit without listening) to its end, its stdout and stderr into
 * out (NUL-terminated); returns its wait status.  A server that does start listening is
 * killed and fails the test. */
static inline int kv_run_to_exit(const char *exe, const char *const *extra, char *out, size_t cap)
{
    kv_opts o = { .capture_stderr = 1, .expect_no_listen = 1 };
    kv_server s = kv_start_ex(exe, extra, &o);
    size_t n = fread(out, 1, cap - 1, s.out); /* EOF: it exited (or was killed) */
    out[n] = 0;
    fclose(s.out);
    int st;
    CHECK_EQ_INT(waitpid(s.pid, &st, 0), s.pid);
    if (strstr(out, "listening on"))
        TEST_FAIL("kvserver started where it must refuse: %s", out);
    return st;
}

/* Wait (generously: 60 s) for the server to exit; its wait status, or fails. */
static inline int kv_wait_exit(kv_server *s)
{
    int st;
    for (int i = 0; i < 60000; i++) {
        pid_t w = waitpid(s->pid, &st, WNOHANG);
        if (w == s->pid) {
            fclose(s->out);
            return st;
        }
        usleep(1000);
    }
    kill(s->pid, SIGKILL);
    TEST_FAIL("kvserver did not exit within 60 s");
}

/* CPU time of every thread of process pid (seconds, from schedstat: ns resolution), the
 * time its threads waited for a CPU while runnable (*wait_s, may be NULL: CPU time plus
 * that is what the process asked for, whatever the machine's load) and its voluntary
 * context switches (the wake-ups of its sleeping threads), so far. */
static inline void kv_usage2(pid_t pid, double *cpu_s, double *wait_s, long *wakeups)
{
    char path[320], line[256];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    CHECK(d != NULL);
    double cpu = 0, wait = 0;
    long wk = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
        FILE *f = fopen(path, "r");
        unsigned long long ns = 0, wns = 0;
        if (f) { /* a thread that just ended is skipped */
            if (fscanf(f, "%llu %llu", &ns, &wns) == 2) {
                cpu += (double)ns * 1e-9;
                wait += (double)wns * 1e-9;
            }
            fclose(f);
        }
        snprintf(path, sizeof path, "/proc/%d/task/%s/status", (int)pid, e->d_name);
        f = fopen(path, "r");
        if (f) {
            while (fgets(line, sizeof line, f))
                if (!strncmp(line, "voluntary_ctxt_switches:", 24))
                    wk += atol(line + 24);
            fclose(f);
        }
    }
    closedir(d);
    *cpu_s = cpu;
    if (wait_s)
        *wait_s = wait;
    *wakeups = wk;
}

static inline void kv_usage(pid_t pid, double *cpu_s, long *wakeups)
{
    kv_usage2(pid, cpu_s, NULL, wakeups);
}

/* Descriptors the process holds now. */
static inline int kv_nfds(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Stop with `sig`; returns the wait status. */
static inline int kv_stop(kv_server *s, int sig)
{
    kill(s->pid, sig);
    int st;
    CHECK_EQ_INT(waitpid(s->pid, &st, 0), s->pid);
    fclose(s->out);
    return st;
}

static inline int kv_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(fd >= 0);
    struct sockaddr_in a = io_loopback(port);
    CHECK_EQ_INT(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Read one reply line into r (without its "\r\n"): 0, or -1 when the connection failed. */
static inline int kv_line(int fd, char *r, size_t cap)
{
    size_t got = 0;
    while (got < cap - 1) {
        ssize_t k = recv(fd, r + got, 1, 0);
        if (k <= 0)
            return -1;
        if (r[got] == '\n')
            break;
        got++;
    }
    if (got && r[got - 1] == '\r')
        got--;
    r[got] = 0;
    return 0;
}

/* Read exactly n bytes: 0, or -1. */
static inline int kv_read_n(int fd, char *b, size_t n)
{
    while (n) {
        ssize_t k = recv(fd, b, n, 0);
        if (k <= 0)
            return -1;
        b += k, n -= (size_t)k;
    }
    return 0;
}

static inline int kv_send(int fd, const char *b, size_t n)
{
    return send(fd, b, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

/* Send the bytes of req and read one reply line into r (without "\r\n"): 0, or -1 when
 * the connection failed. */
static inline int kv_call(int fd, const char *req, char *r, size_t cap)
{
    size_t n = strlen(req);
    if (n && kv_send(fd, req, n) < 0)
        return -1;
    return kv_line(fd, r, cap);
}

/* The memcached request of a short form, into b (cap bytes): its length.
 *   "PUT key value"  set key (flags 0, no expiry) to value (the rest of the line)
 *   "GET key"        get key
 *   "DEL key"        delete key
 * (a '\n' ending the short form is dropped) */
static inline size_t kv_request(const char *req, char *b, size_t cap)
{
    size_t n = strlen(req);
    if (n && req[n - 1] == '\n')
        n--;
    int m = 0;
    if (!strncmp(req, "PUT ", 4)) {
        const char *k = req + 4, *sp = memchr(k, ' ', n - 4);
        CHECK(sp != NULL);
        size_t vl = n - (size_t)(sp + 1 - req);
        m = snprintf(b, cap, "set %.*s 0 0 %zu\r\n%.*s\r\n", (int)(sp - k), k, vl, (int)vl, sp + 1);
    } else if (!strncmp(req, "GET ", 4)) {
        m = snprintf(b, cap, "get %.*s\r\n", (int)n - 4, req + 4);
    } else if (!strncmp(req, "DEL ", 4)) {
        m = snprintf(b, cap, "delete %.*s\r\n", (int)n - 4, req + 4);
    } else {
        TEST_FAIL("kv_request: '%s' is not a short form", req);
    }
    CHECK(m > 0 && (size_t)m < cap);
    return (size_t)m;
}

/* Read the reply of a short form's request, in short form, into r: "OK" for STORED,
 * "VALUE value" or "NOT_FOUND" for a get, else the reply line itself ("DELETED",
 * "NOT_FOUND", an error).  0, or -1 when the connection failed. */
static inline int kv_reply(int fd, char *r, size_t cap)
{
    char l[512];
    if (kv_line(fd, l, sizeof l) < 0)
        return -1;
    if (!strcmp(l, "STORED")) {
        snprintf(r, cap, "OK");
    } else if (!strcmp(l, "END")) {
        snprintf(r, cap, "NOT_FOUND");
    } else if (!strncmp(l, "VALUE ", 6)) {
        const char *last = strrchr(l, ' ');
        size_t vl = (size_t)atol(last + 1);
        CHECK(vl + 7 < cap);
        memcpy(r, "VALUE ", 6);
        if (kv_read_n(fd, r + 6, vl + 2) < 0)
            return -1;
        r[6 + vl] = 0;
        if (kv_line(fd, l, sizeof l) < 0)
            return -1;
        CHECK(!strcmp(l, "END"));
    } else {
        snprintf(r, cap, "%s", l);
    }
    return 0;
}

/* A short form's request and its reply in short form (kv_request, kv_reply). */
static inline int kv_do(int fd, const char *req, char *r, size_t cap)
{
    char b[1024];
    size_t n = kv_request(req, b, sizeof b);
    if (kv_send(fd, b, n) < 0)
        return -1;
    return kv_reply(fd, r, cap);
}

/* Send a short form's request without reading the reply. */
static inline int kv_send_req(int fd, const char *req)
{
    char b[1024];
    size_t n = kv_request(req, b, sizeof b);
    return kv_send(fd, b, n);
}

#endif
