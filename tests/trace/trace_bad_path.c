/* tests/trace/trace_bad_path.c - WEFT_TRACE naming a file that cannot be written: ABT_init
 * says so on stderr (naming the variable and the path) and the program runs untraced;
 * ABT_info_print_config says the trace is off. */
#include <fcntl.h>
#include <unistd.h>

#include "test.h"

static int ran;

static void fn(void *arg) { ran++; }

int main(void)
{
    const char *bad = "/nonexistent-weft-dir/sub/trace.json";
    CHECK(setenv("WEFT_TRACE", bad, 1) == 0);
    /* stderr into a file, to read the message back */
    char errpath[] = "/tmp/weft_trace_bad_path_XXXXXX";
    int fd = mkstemp(errpath);
    CHECK(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    CHECK(saved >= 0 && dup2(fd, 2) == 2);

    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    FILE *cfg = tmpfile();
    CHECK(cfg != NULL);
    CHECK_ABT(ABT_info_print_config(cfg));
    CHECK_ABT(ABT_finalize());

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char msg[4096] = { 0 };
    CHECK(lseek(fd, 0, SEEK_SET) == 0);
    ssize_t n = read(fd, msg, sizeof msg - 1);
    close(fd);
    unlink(errpath);
    CHECK(n > 0);
    msg[n] = 0;
    fprintf(stderr, "stderr of the run: %s", msg);
    CHECK(strstr(msg, "WEFT_TRACE=/nonexistent-weft-dir/sub/trace.json") != NULL);
    CHECK(strstr(msg, "cannot open the trace file") != NULL);
    CHECK(strstr(msg, "untraced") != NULL);
    CHECK_EQ_INT(ran, 1);

    char text[8192] = { 0 };
    rewind(cfg);
    size_t len = fread(text, 1, sizeof text - 1, cfg);
    fclose(cfg);
    text[len] = 0;
    CHECK(strstr(text, "trace (WEFT_TRACE): off") != NULL);
    CHECK(access(bad, F_OK) != 0);
    return 0;
}
