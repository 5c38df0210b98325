/* Batched submission with many ULTs on ONE stream: 1,500 ULTs each pread (then pwrite
 * and pread again) their own 4 KiB block of one file.  On the uring backend their SQEs
 * wait in the stream's ring until its scheduler polls; 1,500 is more than the ring's SQ
 * (1,024 entries), so the batch is also sent when the SQ fills.  Every byte is checked:
 * a lost, duplicated or misrouted completion gives a wrong block or a ULT that never
 * finishes (ctest time-out).  The same with the file opened O_DIRECT where the file
 * system allows it (aligned buffers; the reads then go to the device). */
#include "io_test.h"

#include <stdint.h>

#define N   1500
#define BLK 4096

static char path[64];
static int fd;
static _Atomic int done;

static void fill(unsigned char *b, int i, int gen)
{
    for (int k = 0; k < BLK; k++)
        b[k] = (unsigned char)(i * 31 + k * 7 + gen);
}

static void check(const unsigned char *b, int i, int gen)
{
    unsigned char want[BLK];
    fill(want, i, gen);
    if (memcmp(b, want, BLK) != 0)
        TEST_FAIL("block %d (generation %d): wrong data", i, gen);
}

static void worker(void *arg)
{
    int i = (int)(intptr_t)arg;
    unsigned char *b = aligned_alloc(BLK, BLK);
    CHECK(b != NULL);
    off_t off = (off_t)i * BLK;
    CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, b, BLK, off)), BLK);
    check(b, i, 0);
    fill(b, i, 1);
    CHECK_EQ_INT(CHECK_IO(weft_io_pwrite(fd, b, BLK, off)), BLK);
    memset(b, 0, BLK);
    CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, b, BLK, off)), BLK);
    check(b, i, 1);
    free(b);
    done++;
}

static void round_of(int direct)
{
    int w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(w >= 0);
    unsigned char b[BLK];
    for (int i = 0; i < N; i++) {
        fill(b, i, 0);
        CHECK_EQ_INT(pwrite(w, b, BLK, (off_t)i * BLK), BLK);
    }
    CHECK_EQ_INT(fsync(w), 0);
    close(w);
    fd = open(path, O_RDWR | (direct ? O_DIRECT : 0));
    if (fd < 0 && direct) {
        fprintf(stderr, "no O_DIRECT here (%s): that round skipped\n", strerror(errno));
        return;
    }
    CHECK(fd >= 0);
    done = 0;
    static ABT_thread t[N];
    for (int i = 0; i < N; i++)
        t[i] = io_spawn(worker, (void *)(intptr_t)i);
    for (int i = 0; i < N; i++)
        io_join(&t[i]);
    CHECK_EQ_INT(done, N);
    close(fd);
}

int main(void)
{
    io_raise_nofile(4096);
    snprintf(path, sizeof path, "/tmp/weft_io_batch.%d", (int)getpid());
    io_rt_init(1);
    io_test_check_backend();
    round_of(0);
    round_of(1);
    io_rt_fini();
    unlink(path);
    return 0;
}
