/* bench/io/kv_epoll.c - the kvserver protocol (examples/kvserver/kv.h) served by one
 * thread with an epoll loop and non-blocking sockets: the event-driven baseline.
 *   kv_epoll [-p PORT]      prints "kv_epoll: listening on 127.0.0.1:PORT" */
#define _GNU_SOURCE 1
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../examples/kvserver/kv.h"

typedef struct {
    int fd;
    size_t have;
    char in[];
} conn;

static kv_store store;
static char out[2 * (KV_LINE_MAX + 16)];

int main(int argc, char **argv)
{
    int port = argc > 2 && !strcmp(argv[1], "-p") ? atoi(argv[2]) : 7381;
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    kv_init(&store);
    int l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    if (bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 4096) < 0 ||
        getsockname(l, (struct sockaddr *)&a, &al) < 0) {
        perror("kv_epoll");
        return 1;
    }
    printf("kv_epoll: listening on 127.0.0.1:%d\n", ntohs(a.sin_port));
    fflush(stdout);
    int ep = epoll_create1(0);
    struct epoll_event e = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, l, &e);
    struct epoll_event evs[512];
    for (;;) {
        int n = epoll_wait(ep, evs, 512, -1);
        for (int i = 0; i < n; i++) {
            conn *c = evs[i].data.ptr;
            if (!c) {
                int fd;
                while ((fd = accept4(l, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    conn *nc = malloc(sizeof *nc + KV_LINE_MAX + 1);
                    nc->fd = fd;
                    nc->have = 0;
                    struct epoll_event ne = { .events = EPOLLIN, .data.ptr = nc };
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ne);
                }
                continue;
            }
            ssize_t r = recv(c->fd, c->in + c->have, KV_LINE_MAX + 1 - c->have, 0);
            if (r < 0 && errno == EAGAIN)
                continue;
            bool dead = r <= 0;
            if (!dead) {
                c->have += (size_t)r;
                size_t start = 0, olen = 0;
                char *nl;
                while ((nl = memchr(c->in + start, '\n', c->have - start))) {
                    kv_req q = kv_parse(c->in + start, (size_t)(nl - (c->in + start)));
                    olen += kv_exec(&store, &q, out + olen);
                    start = (size_t)(nl - c->in) + 1;
                    if (olen > KV_LINE_MAX) {
                        send(c->fd, out, olen, MSG_NOSIGNAL); /* replies are short */
                        olen = 0;
                    }
                }
                if (olen && send(c->fd, out, olen, MSG_NOSIGNAL) < 0)
                    dead = true;
                memmove(c->in, c->in + start, c->have - start);
                c->have -= start;
                dead |= c->have > KV_LINE_MAX;
            }
            if (dead) {
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                free(c);
            }
        }
    }
}
