/* src/io/file.c - the file calls of weft_io.h: open, close, read and write (at the file
 * position or at an offset, one buffer or a vector), sync, truncate, allocate, the path
 * calls and stat.  Each fills an op from its arguments, runs it (op.c) and returns as
 * POSIX does (-1 and errno). */
#include "io/op.h"

#include <fcntl.h>
#include <stdarg.h>

#include "weft_io.h"

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
    WEFT_IO_OP(IO_OPENAT);
    op.fd = dirfd;
    op.path = path;
    op.flags = flags;
    op.mode = (int)mode;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return do_openat(AT_FDCWD, path, flags, mode);
}

WEFT_API int weft_io_openat(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return do_openat(dirfd, path, flags, mode);
}

WEFT_API int weft_io_close(int fd)
{
    WEFT_IO_OP(IO_CLOSE);
    op.fd = fd;
    return (int)weft_io_fin(weft_io_run(&op));
}

static ssize_t rw(int kind, int fd, const struct iovec *iov, int cnt, int64_t off)
{
    WEFT_IO_OP(kind);
    op.fd = fd;
    op.iov = iov;
    op.iovcnt = cnt;
    op.off = off;
    return weft_io_fin(weft_io_run(&op));
}

static ssize_t rw1(int kind, int fd, const void *buf, size_t n, int64_t off)
{
    struct iovec v = { .iov_base = (void *)buf, .iov_len = n };
    return rw(kind, fd, &v, 1, off);
}

WEFT_API ssize_t weft_io_read(int fd, void *buf, size_t n) { return rw1(IO_READ, fd, buf, n, -1); }
WEFT_API ssize_t weft_io_write(int fd, const void *buf, size_t n)
{
    return rw1(IO_WRITE, fd, buf, n, -1);
}

WEFT_API ssize_t weft_io_pread(int fd, void *buf, size_t n, off_t off)
{
    if (off < 0)
        return weft_io_fin(-EINVAL);
    return rw1(IO_READ, fd, buf, n, off);
}

WEFT_API ssize_t weft_io_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    if (off < 0)
        return weft_io_fin(-EINVAL);
    return rw1(IO_WRITE, fd, buf, n, off);
}

WEFT_API ssize_t weft_io_readv(int fd, const struct iovec *iov, int cnt)
{
    return rw(IO_READ, fd, iov, cnt, -1);
}

WEFT_API ssize_t weft_io_writev(int fd, const struct iovec *iov, int cnt)
{
    return rw(IO_WRITE, fd, iov, cnt, -1);
}

WEFT_API ssize_t weft_io_preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
    if (off < 0)
        return weft_io_fin(-EINVAL);
    return rw(IO_READ, fd, iov, cnt, off);
}

WEFT_API ssize_t weft_io_pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
    if (off < 0)
        return weft_io_fin(-EINVAL);
    return rw(IO_WRITE, fd, iov, cnt, off);
}

static int sync1(int fd, int data)
{
    WEFT_IO_OP(IO_FSYNC);
    op.fd = fd;
    op.flags = data;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_fsync(int fd) { return sync1(fd, 0); }
WEFT_API int weft_io_fdatasync(int fd) { return sync1(fd, 1); }

WEFT_API int weft_io_ftruncate(int fd, off_t length)
{
    if (length < 0)
        return (int)weft_io_fin(-EINVAL);
    WEFT_IO_OP(IO_FTRUNCATE);
    op.fd = fd;
    op.off = length;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_fallocate(int fd, int mode, off_t offset, off_t len)
{
    WEFT_IO_OP(IO_FALLOCATE);
    op.fd = fd;
    op.flags = mode;
    op.off = offset;
    op.len = len;
    return (int)weft_io_fin(weft_io_run(&op));
}

static int path_op(int kind, const char *p1, const char *p2, mode_t mode)
{
    if (!p1 || (kind == IO_RENAMEAT && !p2))
        return (int)weft_io_fin(-EFAULT);
    WEFT_IO_OP(kind);
    op.fd = AT_FDCWD;
    op.path = p1;
    op.path2 = p2;
    op.mode = (int)mode;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_unlink(const char *path) { return path_op(IO_UNLINKAT, path, NULL, 0); }
WEFT_API int weft_io_rename(const char *a, const char *b) { return path_op(IO_RENAMEAT, a, b, 0); }
WEFT_API int weft_io_mkdir(const char *path, mode_t mode)
{
    return path_op(IO_MKDIRAT, path, NULL, mode);
}

WEFT_API int weft_io_stat(const char *path, struct stat *st)
{
    if (!path || !st)
        return (int)weft_io_fin(-EFAULT);
    WEFT_IO_OP(IO_STAT);
    op.fd = AT_FDCWD;
    op.path = path;
    op.st = st;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_fstat(int fd, struct stat *st)
{
    if (!st)
        return (int)weft_io_fin(-EFAULT);
    WEFT_IO_OP(IO_STAT);
    op.fd = fd;
    op.st = st;
    return (int)weft_io_fin(weft_io_run(&op));
}
