/* examples/kvserver without a log: memcached's ASCII protocol, each command and each
 * error reply memcached 1.6 gives, byte for byte (the table below); pipelined commands are
 * answered in order; values are binary-safe, keys of 250 bytes and items of up to 1 MiB
 * pass and larger ones get memcached's refusals; a command line over 2048 bytes without
 * its end closes the connection (as with memcached); clients that vanish mid-command
 * (half a line, then close or reset) cost nothing (the server keeps serving, and every
 * connection ULT ends: SIGTERM then exits 0 at once); an idle server with open
 * connections sleeps: fewer than 50 wake-ups and 10% of a core per second (a spinning or
 * napping server exceeds both; checked outside sanitizer runs). */
#include "kv_client.h"

#include <poll.h>

/* Send req on a fresh connection; the replies must be exactly want (read until they are
 * complete, or until the server closes when want ends with "<EOF>"). */
static void exchange(int port, const char *req, size_t rlen, const char *want)
{
    int fd = kv_connect(port);
    size_t wl = strlen(want);
    int eof = wl >= 5 && !strcmp(want + wl - 5, "<EOF>");
    if (eof)
        wl -= 5;
    CHECK_EQ_INT(kv_send(fd, req, rlen), 0);
    char got[4096];
    size_t n = 0;
    for (;;) {
        if (!eof && n >= wl)
            break;
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 60000) != 1)
            TEST_FAIL("'%.*s': no reply after 60 s (got '%.*s')", (int)rlen, req, (int)n, got);
        ssize_t k = recv(fd, got + n, sizeof got - 1 - n, 0);
        if (k < 0)
            TEST_FAIL("'%.*s': %s", (int)rlen, req, strerror(errno));
        if (k == 0)
            break;
        n += (size_t)k;
        CHECK(n < sizeof got - 1);
    }
    if (n != wl || memcmp(got, want, wl))
        TEST_FAIL("'%.*s' -> '%.*s', want '%s'", (int)rlen, req, (int)n, got, want);
    if (!eof) { /* and nothing more */
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 50) == 1 && recv(fd, got, sizeof got, MSG_DONTWAIT) > 0)
            TEST_FAIL("'%.*s': more than '%s'", (int)rlen, req, want);
    }
    close(fd);
}

static const char *const cases[][2] = {
    /* errors */
    { "\r\n", "ERROR\r\n" },
    { "foo\r\n", "ERROR\r\n" },
    { "GET a\r\n", "ERROR\r\n" }, /* commands are lower case */
    { "get\r\n", "ERROR\r\n" },
    { "get \r\n", "ERROR\r\n" },
    { "set a 0 0\r\n", "ERROR\r\n" },
    { "set a x 0 1\r\nA\r\n", "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "set a 0 0 -1\r\n", "CLIENT_ERROR bad command line format\r\n" },
    { "set a -1 0 1\r\nA\r\n", "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "set a 0 x 1\r\nA\r\n", "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "set a 0 0 1x\r\nA\r\n", "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "set a 0 0 2147483647\r\n", "CLIENT_ERROR bad command line format\r\n" },
    { "set a 0 99999999999999999999 1\r\nA\r\n",
      "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "set a 0 0 1\r\nAB\r\n", "CLIENT_ERROR bad data chunk\r\nERROR\r\n" },
    { "set a 0 0 1 noreply extra\r\nA\r\n", "ERROR\r\nERROR\r\n" },
    { "set a x 0 1 noreply\r\nA\r\n", "ERROR\r\n" }, /* noreply: no CLIENT_ERROR either */
    { "cas a 0 0 1\r\nA\r\n", "ERROR\r\nERROR\r\n" },
    { "cas a 0 0 1 x\r\nA\r\n", "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "cas a 0 0 1 -1\r\nB\r\n", "CLIENT_ERROR bad command line format\r\nERROR\r\n" },
    { "delete\r\n", "ERROR\r\n" },
    { "delete a 1\r\n",
      "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n" },
    { "delete a x y\r\n",
      "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n" },
    { "delete a noreply junk\r\n",
      "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n" },
    { "incr\r\n", "ERROR\r\n" },
    { "incr a\r\n", "ERROR\r\n" },
    { "incr a x\r\n", "CLIENT_ERROR invalid numeric delta argument\r\n" },
    { "incr a -1\r\n", "CLIENT_ERROR invalid numeric delta argument\r\n" },
    { "incr a 18446744073709551616\r\n", "CLIENT_ERROR invalid numeric delta argument\r\n" },
    { "incr a 1 noreply x\r\n", "ERROR\r\n" },
    { "incr a x noreply\r\n", "" },
    { "touch\r\n", "ERROR\r\n" },
    { "touch a\r\n", "ERROR\r\n" },
    { "touch a x\r\n", "CLIENT_ERROR invalid exptime argument\r\n" },
    { "gat\r\n", "ERROR\r\n" },
    { "gat x a\r\n", "CLIENT_ERROR invalid exptime argument\r\n" },
    { "flush_all x\r\n", "CLIENT_ERROR invalid exptime argument\r\n" },
    { "flush_all 0 noreply x\r\n", "ERROR\r\n" },
    { "verbosity\r\n", "ERROR\r\n" },
    { "verbosity x\r\n", "CLIENT_ERROR bad command line format\r\n" },
    { "verbosity -1\r\n", "CLIENT_ERROR bad command line format\r\n" },
    { "verbosity 1 2 3\r\n", "ERROR\r\n" },
    { "verbosity x noreply\r\nverbosity 1\r\n", "OK\r\n" },
    { "stats foo\r\n", "ERROR\r\n" },
    { "get "
      "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
      "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
      "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\r\n",
      "CLIENT_ERROR bad command line format\r\n" }, /* 251 bytes */
    /* the commands */
    { "get "
      "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
      "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
      "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\r\n",
      "END\r\n" }, /* 250 bytes */
    { "flush_all\r\n", "OK\r\n" },
    { "set a 4294967295 0 1\r\nA\r\nget a\r\n", "STORED\r\nVALUE a 4294967295 1\r\nA\r\nEND\r\n" },
    { "set a 4294967296 0 1\r\nA\r\nget a\r\n", "STORED\r\nVALUE a 0 1\r\nA\r\nEND\r\n" },
    { "set a 0 0 1 noreply\r\nA\r\nget a\r\n", "VALUE a 0 1\r\nA\r\nEND\r\n" },
    { "set a 0 0 1 junk\r\nA\r\n", "STORED\r\n" },
    { "set  a  0 0 1 \r\nA\r\n", "STORED\r\n" },
    { "set a 0 0 01\nA\r\nget a\n", "STORED\r\nVALUE a 0 1\r\nA\r\nEND\r\n" },
    { "set b 7 0 0\r\n\r\nget a b c\r\n",
      "STORED\r\nVALUE a 0 1\r\nA\r\nVALUE b 7 0\r\n\r\nEND\r\n" },
    { "add a 0 0 1\r\nA\r\nreplace zz 0 0 1\r\nA\r\n", "NOT_STORED\r\nNOT_STORED\r\n" },
    { "add c 0 0 1\r\nC\r\nreplace c 3 0 2\r\nCC\r\nget c\r\n",
      "STORED\r\nSTORED\r\nVALUE c 3 2\r\nCC\r\nEND\r\n" },
    { "append zz 0 0 1\r\nB\r\nprepend zz 0 0 1\r\nB\r\n", "NOT_STORED\r\nNOT_STORED\r\n" },
    { "set a 5 0 1\r\nA\r\nappend a 9 9 1\r\nB\r\nprepend a 9 9 1\r\nZ\r\nget a\r\n",
      "STORED\r\nSTORED\r\nSTORED\r\nVALUE a 5 3\r\nZAB\r\nEND\r\n" },
    { "cas zz 0 0 1 5\r\nA\r\n", "NOT_FOUND\r\n" },
    { "delete a 0\r\ndelete a\r\n", "DELETED\r\nNOT_FOUND\r\n" },
    { "set a 0 0 1\r\nA\r\ndelete a noreply\r\ndelete a 0 noreply\r\nget a\r\n",
      "STORED\r\nEND\r\n" },
    { "incr zz 1\r\ndecr zz 1\r\nincr zz 1 noreply\r\n", "NOT_FOUND\r\nNOT_FOUND\r\n" },
    { "set n 0 0 2\r\n10\r\nincr n 18446744073709551615\r\n", "STORED\r\n9\r\n" },
    { "set n 0 0 20\r\n18446744073709551615\r\nincr n 1\r\n", "STORED\r\n0\r\n" },
    { "set n 0 0 2\r\n10\r\ndecr n 100\r\n", "STORED\r\n0\r\n" },
    { "set n 0 0 2\r\nab\r\nincr n 1\r\n",
      "STORED\r\nCLIENT_ERROR cannot increment or decrement non-numeric value\r\n" },
    { "set n 0 0 2\r\n-5\r\nincr n 1\r\n",
      "STORED\r\nCLIENT_ERROR cannot increment or decrement non-numeric value\r\n" },
    { "set n 0 0 0\r\n\r\nincr n 1\r\n",
      "STORED\r\nCLIENT_ERROR cannot increment or decrement non-numeric value\r\n" },
    { "set n 0 0 3\r\n 10\r\nincr n 1\r\n", "STORED\r\n11\r\n" },
    { "set n 0 0 4\r\n1000\r\ndecr n 999\r\nget n\r\n",
      "STORED\r\n1\r\nVALUE n 0 4\r\n1   \r\nEND\r\n" },
    { "set n 3 0 2\r\n99\r\nincr n 1\r\nincr n 01 noreply\r\nget n\r\n",
      "STORED\r\n100\r\nVALUE n 3 3\r\n101\r\nEND\r\n" },
    { "touch zz 10\r\n", "NOT_FOUND\r\n" },
    { "set t 0 0 1\r\nA\r\ntouch t 100\r\ntouch t 100 noreply\r\nget t\r\n",
      "STORED\r\nTOUCHED\r\nVALUE t 0 1\r\nA\r\nEND\r\n" },
    { "set t 0 0 1\r\nA\r\ntouch t -1\r\nget t\r\n", "STORED\r\nTOUCHED\r\nEND\r\n" },
    { "gat 10\r\n", "END\r\n" },
    { "set g 2 0 1\r\nG\r\ngat 100 g zz g\r\n",
      "STORED\r\nVALUE g 2 1\r\nG\r\nVALUE g 2 1\r\nG\r\nEND\r\n" },
    { "gats 0 zz\r\n", "END\r\n" },
    { "set e 0 -1 1\r\nA\r\nget e\r\n", "STORED\r\nEND\r\n" },
    { "set e 0 -99999999999 1\r\nA\r\nget e\r\n", "STORED\r\nEND\r\n" },
    { "set e 0 2592000 1\r\nA\r\nget e\r\n", "STORED\r\nVALUE e 0 1\r\nA\r\nEND\r\n" },
    { "set e 0 2592001 1\r\nA\r\nget e\r\n", "STORED\r\nEND\r\n" }, /* absolute: 1970 */
    { "set e 0 4102444800 1\r\nA\r\nget e\r\n", "STORED\r\nVALUE e 0 1\r\nA\r\nEND\r\n" },
    { "flush_all 0 0\r\nflush_all -1\r\nflush_all noreply\r\nflush_all 0 noreply\r\nget a\r\n",
      "OK\r\nOK\r\nEND\r\n" },
    { "version x\r\n", "VERSION 1.6.0-weft\r\n" },
    { "verbosity 1\r\nverbosity 1 2\r\nverbosity 0 noreply\r\nverbosity noreply\r\n",
      "OK\r\nOK\r\n" },
    { "stats reset\r\n", "RESET\r\n" },
    { "get a\r\nquit\r\nget a\r\n", "END\r\n<EOF>" },
    { "quit x\r\n", "<EOF>" },
    { "set \0k 0 0 1\r\nA\r\n", "ERROR\r\nERROR\r\n" }, /* a NUL ends the line */
};

/* the reply of `gets key`: its cas unique, or 0 when absent */
static unsigned long long gets_cas(int fd, const char *key, char *val, size_t cap)
{
    char req[300], l[512];
    snprintf(req, sizeof req, "gets %s\r\n", key);
    CHECK_EQ_INT(kv_call(fd, req, l, sizeof l), 0);
    if (!strcmp(l, "END"))
        return 0;
    unsigned flags, len;
    unsigned long long cas;
    char k[260];
    CHECK_EQ_INT(sscanf(l, "VALUE %259s %u %u %llu", k, &flags, &len, &cas), 4);
    CHECK(len + 2 <= cap);
    CHECK_EQ_INT(kv_read_n(fd, val, len + 2), 0);
    val[len] = 0;
    CHECK_EQ_INT(kv_line(fd, l, sizeof l), 0);
    CHECK(!strcmp(l, "END"));
    return cas;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_protocol KVSERVER");
    const char *args[] = { "-t", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *q = cases[i][0];
        size_t n = strlen(q);
        if (!strncmp(q, "set \0", 5)) /* the NUL case: its length by hand */
            n = 5 + strlen(q + 5);
        exchange(s.port, q, n, cases[i][1]);
    }
    int fd = kv_connect(s.port);
    char r[512];

    /* cas: the unique of gets, EXISTS once it changed */
    char v[64];
    CHECK_EQ_INT(kv_call(fd, "set c 0 0 1\r\n1\r\n", r, sizeof r), 0);
    unsigned long long u = gets_cas(fd, "c", v, sizeof v);
    CHECK(u != 0 && !strcmp(v, "1"));
    char req[128];
    snprintf(req, sizeof req, "cas c 0 0 1 %llu\r\n2\r\n", u);
    CHECK_EQ_INT(kv_call(fd, req, r, sizeof r), 0);
    CHECK(!strcmp(r, "STORED"));
    CHECK_EQ_INT(kv_call(fd, req, r, sizeof r), 0); /* the same unique again */
    CHECK(!strcmp(r, "EXISTS"));
    unsigned long long u2 = gets_cas(fd, "c", v, sizeof v);
    CHECK(u2 != u && !strcmp(v, "2"));
    CHECK_EQ_INT(kv_call(fd, "touch c 1000\r\n", r, sizeof r), 0); /* touch keeps the unique */
    CHECK(gets_cas(fd, "c", v, sizeof v) == u2);

    /* binary-safe values: every byte value, "\r\n" and NUL included */
    char bin[256 * 4];
    for (int i = 0; i < (int)sizeof bin; i++)
        bin[i] = (char)(i * 7 + 3);
    memcpy(bin + 100, "\r\nEND\r\n", 7);
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "set bin 77 0 %zu\r\n", sizeof bin);
    CHECK_EQ_INT(kv_send(fd, hdr, (size_t)hl), 0);
    CHECK_EQ_INT(kv_send(fd, bin, sizeof bin), 0);
    CHECK_EQ_INT(kv_call(fd, "\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "STORED"));
    CHECK_EQ_INT(kv_call(fd, "get bin\r\n", r, sizeof r), 0);
    snprintf(hdr, sizeof hdr, "VALUE bin 77 %zu", sizeof bin);
    CHECK(!strcmp(r, hdr));
    char back[sizeof bin + 2];
    CHECK_EQ_INT(kv_read_n(fd, back, sizeof back), 0);
    CHECK(!memcmp(back, bin, sizeof bin) && !memcmp(back + sizeof bin, "\r\n", 2));
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "END"));

    /* large items: 1 MiB less memcached's overhead is stored and read back; 1 MiB of value
     * is too large, its data skipped, and the old value of that key is gone */
    size_t big = 1048000;
    char *bv = malloc(2u << 20);
    CHECK(bv != NULL);
    for (size_t i = 0; i < (2u << 20); i++)
        bv[i] = (char)(i * 31 + i / 4096);
    hl = snprintf(hdr, sizeof hdr, "set big 1 0 %zu\r\n", big);
    CHECK_EQ_INT(kv_send(fd, hdr, (size_t)hl), 0);
    CHECK_EQ_INT(kv_send(fd, bv, big), 0);
    CHECK_EQ_INT(kv_call(fd, "\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "STORED"));
    CHECK_EQ_INT(kv_call(fd, "get big\r\n", r, sizeof r), 0);
    snprintf(hdr, sizeof hdr, "VALUE big 1 %zu", big);
    CHECK(!strcmp(r, hdr));
    char *bb = malloc(big + 2);
    CHECK(bb != NULL);
    CHECK_EQ_INT(kv_read_n(fd, bb, big + 2), 0);
    CHECK(!memcmp(bb, bv, big));
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "END"));
    free(bb);
    hl = snprintf(hdr, sizeof hdr, "set big 0 0 %u\r\n", 1u << 20);
    CHECK_EQ_INT(kv_send(fd, hdr, (size_t)hl), 0);
    CHECK_EQ_INT(kv_send(fd, bv, 1u << 20), 0);
    CHECK_EQ_INT(kv_call(fd, "\r\nget big\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "SERVER_ERROR object too large for cache"));
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "END"));
    hl = snprintf(hdr, sizeof hdr, "set a 0 0 1\r\nA\r\nappend a 0 0 %u\r\n", 2u << 20);
    CHECK_EQ_INT(kv_send(fd, hdr, (size_t)hl), 0);
    CHECK_EQ_INT(kv_send(fd, bv, 2u << 20), 0);
    CHECK_EQ_INT(kv_call(fd, "\r\nget a\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "STORED"));
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "SERVER_ERROR object too large for cache"));
    CHECK_EQ_INT(kv_call(fd, "", r, sizeof r), 0);
    CHECK(!strcmp(r, "VALUE a 0 1")); /* append refused: the old value stays */
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "END"));
    free(bv);

    /* pipelined: many commands in one segment, the replies in order */
    char pipe[8192];
    size_t pl = 0;
    for (int i = 0; i < 100; i++)
        pl += (size_t)snprintf(pipe + pl, sizeof pipe - pl, "set p%d 0 0 %d\r\n%d\r\nget p%d\r\n",
                               i, i < 10 ? 1 : 2, i, i);
    CHECK_EQ_INT(kv_send(fd, pipe, pl), 0);
    for (int i = 0; i < 100; i++) {
        char want[64];
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
        CHECK(!strcmp(r, "STORED"));
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
        snprintf(want, sizeof want, "VALUE p%d 0 %d", i, i < 10 ? 1 : 2);
        CHECK(!strcmp(r, want));
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
        snprintf(want, sizeof want, "%d", i);
        CHECK(!strcmp(r, want));
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
        CHECK(!strcmp(r, "END"));
    }
    /* get of many keys: 100 keys, every one there */
    pl = (size_t)snprintf(pipe, sizeof pipe, "get");
    for (int i = 0; i < 100; i++)
        pl += (size_t)snprintf(pipe + pl, sizeof pipe - pl, " p%d", i);
    pl += (size_t)snprintf(pipe + pl, sizeof pipe - pl, "\r\n");
    CHECK_EQ_INT(kv_send(fd, pipe, pl), 0);
    for (int i = 0; i < 100; i++) {
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
        CHECK(!strncmp(r, "VALUE p", 7));
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    }
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "END"));

    /* stats: the common fields, counting what came */
    CHECK_EQ_INT(kv_send(fd, "stats\r\n", 7), 0);
    int fields = 0, seen_hits = 0, seen_items = 0;
    for (;;) {
        CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
        if (!strcmp(r, "END"))
            break;
        CHECK(!strncmp(r, "STAT ", 5));
        fields++;
        long long x;
        if (sscanf(r, "STAT get_hits %lld", &x) == 1)
            seen_hits = x >= 200;
        if (sscanf(r, "STAT curr_items %lld", &x) == 1)
            seen_items = x >= 100;
    }
    CHECK(fields >= 30 && seen_hits && seen_items);

    /* clients that go away mid-request */
    for (int i = 0; i < 50; i++) {
        int c = kv_connect(s.port);
        CHECK_EQ_INT(send(c, i % 4 < 2 ? "set half" : "set half 0 0 10\r\nabc", i % 4 < 2 ? 8 : 20,
                          0),
                     i % 4 < 2 ? 8 : 20);
        if (i % 2) {
            struct linger lg = { 1, 0 };
            setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg); /* reset */
        }
        close(c);
    }
    /* an over-long line: the server closes (after taking what was sent: no reset) */
    int c = kv_connect(s.port);
    char *huge = malloc(70000);
    memset(huge, 'x', 70000);
    memcpy(huge, "set ", 4);
    send(c, huge, 70000, MSG_NOSIGNAL);
    free(huge);
    CHECK(kv_line(c, r, sizeof r) < 0);
    close(c);
    CHECK_EQ_INT(kv_call(fd, "get c\r\n", r, sizeof r), 0); /* the others go on */
    CHECK(!strcmp(r, "VALUE c 0 1"));
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);

    /* idle, with 20 open connections: the server's own threads must sleep.  Counted as
     * their wake-ups (voluntary context switches: a sleeping thread makes none, however
     * loaded the machine is) and their own CPU time against a generous bound, both over
     * at least 1 s of wall time (longer on a slow machine only lowers the rates) */
    int idle[20];
    for (int i = 0; i < 20; i++)
        idle[i] = kv_connect(s.port);
    CHECK_EQ_INT(kv_call(idle[19], "version\r\n", r, sizeof r), 0); /* all 20 are served */
    usleep(300000);
    double c0, c1;
    long k0, k1;
    kv_usage(s.pid, &c0, &k0);
    double w0 = io_now();
    usleep(1000000);
    kv_usage(s.pid, &c1, &k1);
    double secs = io_now() - w0;
    double cpu_share = (c1 - c0) / secs, wakes = (double)(k1 - k0) / secs;
    fprintf(stderr, "idle kvserver: %.2f ms CPU and %.1f wake-ups per second\n", cpu_share * 1000,
            wakes);
    if (!getenv("WEFT_TEST_SLOW")) { /* sanitizer runtimes have threads of their own */
        CHECK(wakes < 50);
        CHECK(cpu_share < 0.10);
    }

    int st = kv_stop(&s, SIGTERM); /* clean stop with open connections */
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    for (int i = 0; i < 20; i++) {
        CHECK(recv(idle[i], r, 1, 0) <= 0); /* closed by the server */
        close(idle[i]);
    }
    close(fd);
    return 0;
}
