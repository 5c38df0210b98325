/* The page-cache fast path of p-reads (WEFT_IO_NOWAIT_READ=1, set by CMake for this
 * test): a ULT's pread of a file that is not O_DIRECT is first tried with RWF_NOWAIT and
 * handed to the backend only when that would wait.  Checked on ONE stream:
 *   - a miss (the file's pages dropped with fdatasync + POSIX_FADV_DONTNEED) falls back
 *     to the backend and reads the right bytes; a hit (read again) too;
 *   - end of file: a short read, then 0; EBADF for a closed fd and a write-only fd;
 *   - an O_DIRECT fd skips the try (it would hold the stream for the device);
 *   - a ULT reading cached data in a loop does not hold the stream: the try never parks,
 *     so the path yields; without that, the ULT that stops the loop would never run on
 *     this one stream (ctest time-out). */
#include "io_test.h"

#include <stdint.h>

#define BLK     4096
#define NBLK    64
#define READERS 16

static char path[64];
static int fd;
static _Atomic int stop, loops;

static unsigned char byte_at(off_t o) { return (unsigned char)(o * 13 + (o >> 12)); }

static void check_block(const unsigned char *b, off_t off, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (b[k] != byte_at(off + (off_t)k))
            TEST_FAIL("offset %lld: %u, expected %u", (long long)(off + (off_t)k), b[k],
                      byte_at(off + (off_t)k));
}

static void reader(void *arg)
{
    int r = (int)(intptr_t)arg;
    unsigned char b[BLK];
    for (int i = r; i < NBLK; i += READERS) {
        off_t off = (off_t)i * BLK;
        CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, b, BLK, off)), BLK);
        check_block(b, off, BLK);
    }
}

static void spin_reader(void *arg)
{
    unsigned char b[64];
    while (!stop) {
        CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, b, sizeof b, 100)), (long)sizeof b);
        loops++;
    }
}

/* needs the spinning reader to have read a few times: both must get the stream in turn */
static void stopper(void *arg)
{
    while (loops < 3)
        ABT_thread_yield();
    stop = 1;
}

static void edges(void *arg)
{
    unsigned char b[BLK];
    off_t size = (off_t)NBLK * BLK;
    CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, b, BLK, size - 10)), 10);
    check_block(b, size - 10, 10);
    CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, b, BLK, size)), 0);
    int wo = open(path, O_WRONLY);
    CHECK(wo >= 0);
    CHECK_IO_ERR(weft_io_pread(wo, b, BLK, 0), EBADF);
    close(wo);
    int gone = open(path, O_RDONLY);
    close(gone);
    CHECK_IO_ERR(weft_io_pread(gone, b, BLK, 0), EBADF);
    int d = open(path, O_RDONLY | O_DIRECT);
    if (d >= 0) {
        unsigned char *a = aligned_alloc(BLK, BLK);
        CHECK(a != NULL);
        CHECK_EQ_INT(CHECK_IO(weft_io_pread(d, a, BLK, 3 * BLK)), BLK);
        check_block(a, 3 * BLK, BLK);
        free(a);
        close(d);
    }
}

static void run_readers(void)
{
    ABT_thread t[READERS];
    for (int r = 0; r < READERS; r++)
        t[r] = io_spawn(reader, (void *)(intptr_t)r);
    for (int r = 0; r < READERS; r++)
        io_join(&t[r]);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/weft_io_nowait.%d", (int)getpid());
    int w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(w >= 0);
    unsigned char b[BLK];
    for (int i = 0; i < NBLK; i++) {
        for (int k = 0; k < BLK; k++)
            b[k] = byte_at((off_t)i * BLK + k);
        CHECK_EQ_INT(pwrite(w, b, BLK, (off_t)i * BLK), BLK);
    }
    CHECK_EQ_INT(fdatasync(w), 0);
    close(w);
    fd = open(path, O_RDONLY);
    CHECK(fd >= 0);
    /* cold: the reads miss (those the kernel's readahead has not brought back meanwhile) */
    CHECK_EQ_INT(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);

    io_rt_init(1);
    io_test_check_backend();
    run_readers(); /* misses, then the backend */
    run_readers(); /* hits */
    ABT_thread e = io_spawn(edges, NULL);
    io_join(&e);
    ABT_thread s = io_spawn(spin_reader, NULL), st = io_spawn(stopper, NULL);
    io_join(&st);
    io_join(&s);
    CHECK(loops >= 3);
    io_rt_fini();
    close(fd);
    unlink(path);
    return 0;
}
