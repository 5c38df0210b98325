/* tests/io/kv_sync_gate.c - a preload for io_kvserver_durable: fdatasync and fsync wait
 * while the file named by KV_SYNC_GATE does not exist, then do their work.  A test holds
 * the kvserver's commit between its log write and its durability with it (the threads
 * backend of weft-io calls the libc functions; the ring does not). */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static void gate(void)
{
    const char *g = getenv("KV_SYNC_GATE");
    while (g && access(g, F_OK) != 0)
        usleep(1000);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    gate();
    return real(fd);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    gate();
    return real(fd);
}
