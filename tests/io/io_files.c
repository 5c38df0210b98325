/* Every file call of weft_io.h, from ULTs on two streams and from an external thread:
 * results as POSIX (short read at end of file, file position of read/write), and the
 * error paths (EBADF, ENOENT, EEXIST, EINVAL, ENOTDIR, EFBIG past RLIMIT_FSIZE). */
#include "io_test.h"

#include <sys/stat.h>

static char dir[64];

static void files(const char *tag)
{
    char p[128], q[128], d[128];
    snprintf(p, sizeof p, "%s/%s.a", dir, tag);
    snprintf(q, sizeof q, "%s/%s.b", dir, tag);
    snprintf(d, sizeof d, "%s/%s.d", dir, tag);

    int fd = (int)CHECK_IO(weft_io_open(p, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    CHECK_EQ_INT(CHECK_IO(weft_io_write(fd, "hello ", 6)), 6);
    CHECK_EQ_INT(CHECK_IO(weft_io_write(fd, "world", 5)), 5); /* at the file position */
    CHECK_EQ_INT(CHECK_IO(weft_io_pwrite(fd, "W", 1, 6)), 1);
    char buf[64] = { 0 };
    CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, buf, sizeof buf, 0)), 11); /* short: EOF */
    CHECK(!memcmp(buf, "hello World", 11));
    CHECK_EQ_INT(CHECK_IO(weft_io_pread(fd, buf, sizeof buf, 11)), 0);
    CHECK_EQ_INT(lseek(fd, 0, SEEK_SET), 0);
    memset(buf, 0, sizeof buf);
    CHECK_EQ_INT(CHECK_IO(weft_io_read(fd, buf, 5)), 5);
    CHECK_EQ_INT(CHECK_IO(weft_io_read(fd, buf + 5, 100)), 6); /* continues at 5 */
    CHECK(!memcmp(buf, "hello World", 11));

    char a[3] = "abc", b[4] = "defg", ra[3], rb[4];
    struct iovec wv[2] = { { a, 3 }, { b, 4 } }, rv[2] = { { ra, 3 }, { rb, 4 } };
    CHECK_EQ_INT(CHECK_IO(weft_io_pwritev(fd, wv, 2, 100)), 7);
    CHECK_EQ_INT(CHECK_IO(weft_io_preadv(fd, rv, 2, 100)), 7);
    CHECK(!memcmp(ra, "abc", 3) && !memcmp(rb, "defg", 4));
    CHECK_EQ_INT(lseek(fd, 200, SEEK_SET), 200);
    CHECK_EQ_INT(CHECK_IO(weft_io_writev(fd, wv, 2)), 7);
    CHECK_EQ_INT(lseek(fd, 0, SEEK_CUR), 207);
    CHECK_EQ_INT(lseek(fd, 200, SEEK_SET), 200);
    memset(ra, 0, 3);
    CHECK_EQ_INT(CHECK_IO(weft_io_readv(fd, rv, 2)), 7);
    CHECK(!memcmp(ra, "abc", 3) && !memcmp(rb, "defg", 4));

    CHECK_IO(weft_io_fsync(fd));
    CHECK_IO(weft_io_fdatasync(fd));
    CHECK_IO(weft_io_ftruncate(fd, 4096));
    struct stat st;
    CHECK_IO(weft_io_fstat(fd, &st));
    CHECK_EQ_INT(st.st_size, 4096);
    CHECK(S_ISREG(st.st_mode));
    CHECK_IO(weft_io_fallocate(fd, 0, 0, 8192));
    CHECK_IO(weft_io_stat(p, &st));
    CHECK_EQ_INT(st.st_size, 8192);
    struct stat st2;
    CHECK_EQ_INT(stat(p, &st2), 0);
    CHECK_EQ_INT(st.st_ino, st2.st_ino);
    CHECK_EQ_INT(st.st_dev, st2.st_dev);
    CHECK_EQ_INT(st.st_mtim.tv_nsec, st2.st_mtim.tv_nsec);

    CHECK_IO(weft_io_rename(p, q));
    CHECK_IO_ERR(weft_io_stat(p, &st), ENOENT);
    CHECK_IO(weft_io_mkdir(d, 0700));
    CHECK_IO_ERR(weft_io_mkdir(d, 0700), EEXIST);
    int dfd = (int)CHECK_IO(weft_io_open(d, O_RDONLY | O_DIRECTORY));
    int f2 = (int)CHECK_IO(weft_io_openat(dfd, "x", O_WRONLY | O_CREAT, 0600));
    CHECK_IO(weft_io_close(f2));
    CHECK_IO_ERR(weft_io_openat(dfd, "x", O_WRONLY | O_CREAT | O_EXCL, 0600), EEXIST);
    CHECK_IO_ERR(weft_io_openat(fd, "x", O_RDONLY), ENOTDIR);
    char x[160];
    snprintf(x, sizeof x, "%s/x", d);
    CHECK_IO(weft_io_unlink(x));
    CHECK_IO_ERR(weft_io_unlink(x), ENOENT);
    CHECK_IO(weft_io_close(dfd));
    CHECK_EQ_INT(rmdir(d), 0);

    /* errors */
    CHECK_IO_ERR(weft_io_pread(fd, buf, 1, -1), EINVAL);
    CHECK_IO_ERR(weft_io_ftruncate(fd, -1), EINVAL);
    CHECK_IO(weft_io_close(fd));
    /* a closed number may be reused at once by another ULT's open: use numbers that are
     * never open (negative, or far above every descriptor of this test) */
    int closed = fd;
    fd = 900000; /* one number per caller: concurrent calls on one fd look like a race */
    for (const char *c = tag; *c; c++)
        fd += *c;
    CHECK_IO_ERR(weft_io_close(-1), EBADF);
    CHECK_IO_ERR(weft_io_close(fd), EBADF);
    CHECK_IO_ERR(weft_io_read(fd, buf, 1), EBADF);
    CHECK_IO_ERR(weft_io_write(fd, buf, 1), EBADF);
    CHECK_IO_ERR(weft_io_pwrite(-1, buf, 1, 0), EBADF);
    (void)closed;
    CHECK_IO_ERR(weft_io_fsync(fd), EBADF);
    CHECK_IO_ERR(weft_io_fdatasync(fd), EBADF);
    CHECK_IO_ERR(weft_io_fstat(fd, &st), EBADF);
    CHECK_IO_ERR(weft_io_ftruncate(fd, 0), EBADF);
    CHECK_IO_ERR(weft_io_fallocate(fd, 0, 0, 1), EBADF);
    CHECK_IO_ERR(weft_io_open("/nonexistent/weft/io", O_RDONLY), ENOENT);
    CHECK_IO_ERR(weft_io_rename("/nonexistent/a", "/nonexistent/b"), ENOENT);
    CHECK_IO_ERR(weft_io_stat(NULL, &st), EFAULT);
    int ro = (int)CHECK_IO(weft_io_open(q, O_RDONLY));
    CHECK_IO_ERR(weft_io_write(ro, "x", 1), EBADF);
    CHECK_IO(weft_io_close(ro));

    /* a write past RLIMIT_FSIZE: EFBIG (SIGXFSZ ignored), and a short write up to it */
    fd = (int)CHECK_IO(weft_io_open(q, O_RDWR | O_TRUNC));
    CHECK_EQ_INT(CHECK_IO(weft_io_pwrite(fd, "0123456789", 10, 65536 - 4)), 4);
    CHECK_IO_ERR(weft_io_pwrite(fd, "x", 1, 65536), EFBIG);
    CHECK_IO(weft_io_close(fd));
    CHECK_IO(weft_io_unlink(q));
}

static void ult(void *arg) { files(arg); }

static void *ext(void *arg)
{
    files(arg);
    return NULL;
}

int main(void)
{
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit r = { 65536, 65536 };
    CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &r), 0);
    snprintf(dir, sizeof dir, "/tmp/weft_io_files.XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    files("pre"); /* before ABT_init: plain blocking calls */
    io_rt_init(2);
    io_test_check_backend();
    static char tags[8][8];
    ABT_thread t[8];
    for (int i = 0; i < 8; i++) {
        snprintf(tags[i], sizeof tags[i], "u%d", i);
        t[i] = io_spawn(ult, tags[i]);
    }
    pthread_t e;
    CHECK_EQ_INT(pthread_create(&e, NULL, ext, "ext"), 0);
    for (int i = 0; i < 8; i++)
        io_join(&t[i]);
    pthread_join(e, NULL);
    io_rt_fini();
    rmdir(dir);
    return 0;
}
