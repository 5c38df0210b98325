/* examples/kvserver's log replay against damage:
 *   - one flipped byte in a frame in the middle of the log: the server refuses to start
 *     (exit 1), naming the file and the frame's offset, and leaves the file as it was;
 *   - --repair cuts the log at that frame, says so and how many bytes it dropped; the
 *     writes before the damage are there, the ones after it are gone;
 *   - a torn tail (the last frame incomplete, or zeros after the last frame) is cut, and
 *     the server starts;
 *   - a format-1 log (an older server's: no header, FNV-1a records) is read and rewritten
 *     in format 2; a damaged one is refused the same way;
 *   - a file that is no log is refused. */
#include "kv_client.h"

#include <sys/stat.h>

static const char *exe;
static char logp[96];

static long fsize(void)
{
    struct stat st;
    CHECK_EQ_INT(stat(logp, &st), 0);
    return (long)st.st_size;
}

static unsigned char *slurp(long *n)
{
    *n = fsize();
    unsigned char *b = malloc((size_t)*n + 1);
    FILE *f = fopen(logp, "rb");
    CHECK(f && fread(b, 1, (size_t)*n, f) == (size_t)*n);
    fclose(f);
    return b;
}

static void spit(const void *b, long n)
{
    FILE *f = fopen(logp, "wb");
    CHECK(f && fwrite(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
}

static uint32_t get32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Offsets of the format-2 log's frames (after its 16-byte header); returns the count. */
static int frames(long *off, int cap)
{
    long n;
    unsigned char *b = slurp(&n);
    CHECK(n >= 16 && !memcmp(b, "WEFTKVLG", 8));
    int k = 0;
    for (long o = 16; o + 16 <= n && k < cap; o += 16 + (long)get32(b + o + 4)) {
        CHECK(!memcmp(b + o, "KVFR", 4));
        off[k++] = o;
    }
    free(b);
    return k;
}

static void put_range(int port, int from, int to)
{
    int fd = kv_connect(port);
    char req[64], r[64];
    for (int i = from; i < to; i++) { /* one at a time: one frame each */
        snprintf(req, sizeof req, "PUT k%d v%d\n", i, i);
        CHECK_EQ_INT(kv_do(fd, req, r, sizeof r), 0);
        CHECK(!strcmp(r, "OK"));
    }
    close(fd);
}

/* k[from, to) must be present (want 1) or absent (0). */
static void expect(int port, int from, int to, int present)
{
    int fd = kv_connect(port);
    char req[64], r[64], want[64];
    for (int i = from; i < to; i++) {
        snprintf(req, sizeof req, "GET k%d\n", i);
        CHECK_EQ_INT(kv_do(fd, req, r, sizeof r), 0);
        if (present)
            snprintf(want, sizeof want, "VALUE v%d", i);
        else
            snprintf(want, sizeof want, "NOT_FOUND");
        if (strcmp(r, want))
            TEST_FAIL("k%d: '%s', want '%s'", i, r, want);
    }
    close(fd);
}

static void stop(kv_server *s)
{
    int st = kv_stop(s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The server must refuse the log; its output must name the file and `needle`. */
static void refused(const char *needle)
{
    const char *args[] = { "-L", logp, NULL };
    char out[4096];
    long before = fsize();
    int st = kv_run_to_exit(exe, args, out, sizeof out);
    fprintf(stderr, "refused: %s", out);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    CHECK(strstr(out, logp) != NULL);
    if (!strstr(out, needle))
        TEST_FAIL("'%s' not in: %s", needle, out);
    CHECK_EQ_INT(fsize(), before); /* refusing changes nothing */
}

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* A format-1 log of PUT k<i> v<i>, i in [0, n); returns its size. */
static long v1_log(unsigned char *b, int n)
{
    long o = 0;
    for (int i = 0; i < n; i++) {
        char k[16], v[16];
        int kl = snprintf(k, sizeof k, "k%d", i), vl = snprintf(v, sizeof v, "v%d", i);
        unsigned char *p = b + o;
        p[0] = 'K', p[1] = 'P';
        for (int j = 0; j < 4; j++) {
            p[2 + j] = (unsigned char)(kl >> (8 * j));
            p[6 + j] = (unsigned char)(vl >> (8 * j));
        }
        memcpy(p + 10, k, (size_t)kl);
        memcpy(p + 10 + kl, v, (size_t)vl);
        uint32_t h = fnv1a(p, 10 + (size_t)kl + (size_t)vl);
        for (int j = 0; j < 4; j++)
            p[10 + kl + vl + j] = (unsigned char)(h >> (8 * j));
        o += 14 + kl + vl;
    }
    return o;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_log_damage KVSERVER");
    exe = argv[1];
    char dir[] = "/tmp/weft_kvd.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    snprintf(logp, sizeof logp, "%s/kv.log", dir);
    const char *args[] = { "-L", logp, NULL };
    const char *rargs[] = { "-L", logp, "--repair", NULL };
    kv_opts cap = { .capture_stderr = 1 };

    kv_server s = kv_start(exe, args);
    put_range(s.port, 0, 100);
    stop(&s);
    long off[128];
    CHECK_EQ_INT(frames(off, 128), 100);

    /* one flipped byte in frame 50 */
    long n;
    unsigned char *b = slurp(&n);
    b[off[50] + 20] ^= 0x10;
    spit(b, n);
    free(b);
    char needle[64];
    snprintf(needle, sizeof needle, "offset %ld", off[50]);
    refused(needle);

    /* --repair cuts there, and says how much it dropped */
    s = kv_start_ex(exe, rargs, &cap);
    char dropped[64];
    snprintf(dropped, sizeof dropped, "dropped %ld bytes", n - off[50]);
    if (!strstr(s.notes, needle) || !strstr(s.notes, dropped))
        TEST_FAIL("--repair said: %s", s.notes);
    expect(s.port, 0, 50, 1);
    expect(s.port, 50, 100, 0);
    CHECK_EQ_INT(fsize(), off[50]);
    put_range(s.port, 50, 52);
    stop(&s);

    /* a torn tail: the last frame incomplete */
    long end = fsize();
    CHECK_EQ_INT(frames(off, 128), 52);
    CHECK_EQ_INT(truncate(logp, end - 3), 0);
    s = kv_start(exe, args);
    expect(s.port, 0, 51, 1);
    expect(s.port, 51, 52, 0);
    stop(&s);
    CHECK_EQ_INT(fsize(), off[51]);
    /* a torn tail: zeros after the last frame (the file grew, its data never came) */
    b = slurp(&n);
    unsigned char *z = calloc(1, (size_t)n + 4096);
    memcpy(z, b, (size_t)n);
    spit(z, n + 4096);
    free(z);
    free(b);
    s = kv_start(exe, args);
    expect(s.port, 0, 51, 1);
    stop(&s);
    CHECK_EQ_INT(fsize(), off[51]);

    /* format 1: read, and rewritten in format 2 */
    b = calloc(1, 1 << 16);
    n = v1_log(b, 40);
    spit(b, n);
    s = kv_start(exe, args);
    expect(s.port, 0, 40, 1);
    stop(&s);
    unsigned char hdr[8];
    FILE *f = fopen(logp, "rb");
    CHECK(f && fread(hdr, 1, 8, f) == 8);
    fclose(f);
    CHECK(!memcmp(hdr, "WEFTKVLG", 8));
    s = kv_start(exe, args); /* and the rewritten log replays */
    expect(s.port, 0, 40, 1);
    stop(&s);
    /* a damaged format-1 log is refused the same way */
    long r20 = v1_log(b, 20); /* the offset of record 20 */
    n = v1_log(b, 40);
    b[r20 + 11] ^= 1;
    spit(b, n);
    free(b);
    snprintf(needle, sizeof needle, "offset %ld", r20);
    refused(needle);

    /* not a log at all */
    spit("hello, world\n", 13);
    refused("not a kvserver log");

    unlink(logp);
    rmdir(dir);
    return 0;
}
