/* bench/io/kv_threads.c - the kvserver protocol (examples/kvserver/kv.h) served
 * thread-per-connection with Pthreads and blocking sockets: the baseline weft's
 * one-ULT-per-connection server is compared with.  Loopback only.
 *   kv_threads [-p PORT]      prints "kv_threads: listening on 127.0.0.1:PORT" */
#define _GNU_SOURCE 1
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define KV_LOCK_T       pthread_mutex_t
#define KV_LOCK_INIT(l) pthread_mutex_init(&(l), NULL)
#define KV_LOCK_FREE(l) pthread_mutex_destroy(&(l))
#define KV_LOCK(l)      pthread_mutex_lock(&(l))
#define KV_UNLOCK(l)    pthread_mutex_unlock(&(l))
#include "../../examples/kvserver/kv.h"

static kv_store store;

static void *serve(void *arg)
{
    int fd = (int)(intptr_t)arg;
    char *in = malloc(KV_LINE_MAX + 1), *out = malloc(2 * (KV_LINE_MAX + 16));
    size_t have = 0;
    for (;;) {
        ssize_t r = recv(fd, in + have, KV_LINE_MAX + 1 - have, 0);
        if (r <= 0)
            break;
        have += (size_t)r;
        size_t start = 0, olen = 0;
        char *nl;
        while ((nl = memchr(in + start, '\n', have - start))) {
            kv_req q = kv_parse(in + start, (size_t)(nl - (in + start)));
            olen += kv_exec(&store, &q, out + olen);
            start = (size_t)(nl - in) + 1;
            if (olen > KV_LINE_MAX) {
                send(fd, out, olen, MSG_NOSIGNAL);
                olen = 0;
            }
        }
        if (olen && send(fd, out, olen, MSG_NOSIGNAL) < 0)
            break;
        memmove(in, in + start, have - start);
        have -= start;
        if (have > KV_LINE_MAX)
            break;
    }
    close(fd);
    free(in);
    free(out);
    return NULL;
}

int main(int argc, char **argv)
{
    int port = argc > 2 && !strcmp(argv[1], "-p") ? atoi(argv[2]) : 7380;
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    kv_init(&store);
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    if (bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 4096) < 0 ||
        getsockname(l, (struct sockaddr *)&a, &al) < 0) {
        perror("kv_threads");
        return 1;
    }
    printf("kv_threads: listening on 127.0.0.1:%d\n", ntohs(a.sin_port));
    fflush(stdout);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&at, 64 * 1024);
    for (;;) {
        int fd = accept(l, NULL, NULL);
        if (fd < 0)
            continue;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pthread_t t;
        if (pthread_create(&t, &at, serve, (void *)(intptr_t)fd) != 0)
            close(fd);
    }
}
