/* info_print_thread_stack: ABT_info_print_thread_stack prints a suspended ULT (with weft:
 * its id, the saved stack pointer, the used words and the symbol of the routine it is
 * suspended in, ABT_thread_yield), a ULT that has not started yet, the caller itself, and
 * a tasklet; ABT_THREAD_NULL gives ABT_ERR_INV_THREAD. */
#include "stack_dump_test.h"

static volatile int started, release;

static void yielder(void *arg)
{
    started = 1;
    while (!release)
        CHECK_ABT(ABT_thread_yield());
}

static void nop(void *arg) {}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread a, b, self;
    ABT_task task;
    CHECK_ABT(ABT_thread_create(pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &a));
    while (!started)
        CHECK_ABT(ABT_thread_yield());
    /* a is now suspended in ABT_thread_yield; b never ran (the primary ULT keeps the CPU) */
    CHECK_ABT(ABT_thread_create(pool, nop, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_task_create(pool, nop, NULL, &task));
    CHECK_ABT(ABT_thread_self(&self));
    ABT_unit_id ida, idb, idself;
    CHECK_ABT(ABT_thread_get_id(a, &ida));
    CHECK_ABT(ABT_thread_get_id(b, &idb));
    CHECK_ABT(ABT_thread_get_id(self, &idself));

    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    CHECK_ABT(ABT_info_print_thread_stack(fp, a));
    char *out = dump_read(fp);
    CHECK(strlen(out) > 0);
    if (TEST_WEFT) { /* Argobots prints the stack without a header */
        CHECK(dump_has_id(out, ida));
        CHECK(strstr(out, "sp        : 0x") != NULL);
        CHECK(strstr(out, "used      : ") != NULL);
        CHECK(strstr(out, "<ABT_thread_yield+0x") != NULL);
    }
    free(out);

    rewind(fp);
    CHECK_ABT(ABT_info_print_thread_stack(fp, b));
    out = dump_read(fp);
    if (TEST_WEFT) {
        CHECK(dump_has_id(out, idb));
        CHECK(strstr(out, "not started") != NULL);
    }
    free(out);

    rewind(fp);
    CHECK_ABT(ABT_info_print_thread_stack(fp, self));
    out = dump_read(fp);
    if (TEST_WEFT) {
        CHECK(dump_has_id(out, idself));
        CHECK(strstr(out, "the caller itself") != NULL);
    }
    free(out);

    rewind(fp);
    CHECK_ABT(ABT_info_print_thread_stack(fp, (ABT_thread)task));
    fclose(fp);

    CHECK_ERR(ABT_info_print_thread_stack(stdout, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);

    release = 1;
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_ABT(ABT_finalize());
    return 0;
}
