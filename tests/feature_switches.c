/* feature_switches: the tool interface and CPU binding answer as Argobots 1.2 does, by the
 * build's defaults (-DWEFT_ENABLE_TOOL, -DWEFT_ENABLE_AFFINITY: off, as Argobots' configure
 * leaves --enable-tool and --enable-affinity) and by the environment variables of the same
 * names, read at ABT_init.
 *   off: ABT_INFO_QUERY_KIND_ENABLED_TOOL / _ENABLED_AFFINITY are ABT_FALSE, ABT_tool_* and
 *        ABT_xstream_{set,get}_{cpubind,affinity} answer ABT_ERR_FEATURE_NA (after their
 *        argument checks), no callback registered earlier runs, and ABT_SET_AFFINITY binds
 *        nothing;
 *   on:  ABT_tool_register_thread_callback's callback hears the events; the binding calls
 *        work, ABT_SET_AFFINITY unset binds rank r to the r-th CPU, "no" binds nothing
 *        (ENABLED_AFFINITY false, the calls still work).
 * ABT_info_print_config names both switches.  Arguments (from tests/CMakeLists.txt): the
 * build's WEFT_ENABLE_TOOL, WEFT_ENABLE_AFFINITY and WEFT_TOOL, each 0 or 1. */
#define TEST_NO_LIFECYCLE /* it registers callbacks of its own */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity_test.h"

static atomic_int events;

static void cb(ABT_thread t, ABT_xstream xs, uint64_t ev, ABT_tool_context ctx, void *arg)
{
    atomic_fetch_add(&events, 1);
}

static void nop(void *arg) {}

static void run_one_ult(void)
{
    ABT_thread t;
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_thread_create_on_xstream(self, nop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
}

/* ABT_info_print_config's text has `line` */
static void check_config_line(const char *line)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    CHECK(fp != NULL);
    CHECK_ABT(ABT_info_print_config(fp));
    fclose(fp);
    if (!strstr(buf, line))
        TEST_FAIL("ABT_info_print_config has no line \"%s\":\n%s", line, buf);
    free(buf);
}

static void check_tool(int on)
{
    ABT_bool b = ABT_TRUE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &b));
    CHECK_EQ_INT(b, on ? ABT_TRUE : ABT_FALSE);
    check_config_line(on ? "tool interface (WEFT_ENABLE_TOOL): on"
                         : "tool interface (WEFT_ENABLE_TOOL): off");
    atomic_store(&events, 0);
    int r = ABT_tool_register_thread_callback(cb, ABT_TOOL_EVENT_THREAD_ALL, NULL);
    run_one_ult();
    int n = atomic_load(&events);
    if (on) {
        CHECK_ABT(r);
        if (n == 0)
            TEST_FAIL("tool interface on: the callback heard no event of a ULT");
        CHECK_ABT(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL));
    } else {
        CHECK_ERR(r, ABT_ERR_FEATURE_NA);
        /* off, the query answers before it looks at its context (any pointer will do) */
        int depth = 0;
        CHECK_ERR(ABT_tool_query_thread((ABT_tool_context)&depth, ABT_TOOL_EVENT_THREAD_CREATE,
                                        ABT_TOOL_QUERY_KIND_STACK_DEPTH, &depth),
                  ABT_ERR_FEATURE_NA);
        CHECK_ERR(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL),
                  ABT_ERR_FEATURE_NA);
        if (n != 0)
            TEST_FAIL("tool interface off: a callback heard %d events", n);
    }
}

/* The four binding calls on xs: ABT_ERR_FEATURE_NA when off, after the argument checks. */
static void check_binding_calls(ABT_xstream xs, int on)
{
    int c = -1, n = -1, ids[MAX_CPUS];
    CHECK_ERR(ABT_xstream_get_cpubind(ABT_XSTREAM_NULL, &c), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_affinity(xs, -1, ids), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_affinity(xs, -1, ids, &n), ABT_ERR_INV_ARG);
    if (!on) {
        CHECK_ERR(ABT_xstream_get_cpubind(xs, &c), ABT_ERR_FEATURE_NA);
        CHECK_ERR(ABT_xstream_get_affinity(xs, 0, NULL, &n), ABT_ERR_FEATURE_NA);
        CHECK_ERR(ABT_xstream_get_affinity(xs, MAX_CPUS, ids, &n), ABT_ERR_FEATURE_NA);
        CHECK_ERR(ABT_xstream_set_cpubind(xs, 0), ABT_ERR_FEATURE_NA);
        CHECK_ERR(ABT_xstream_set_affinity(xs, 1, ids), ABT_ERR_FEATURE_NA);
        CHECK_ERR(ABT_xstream_set_affinity(xs, 0, NULL), ABT_ERR_FEATURE_NA);
        CHECK_EQ_INT(c, -1); /* nothing written */
        CHECK_EQ_INT(n, -1);
        return;
    }
    CHECK_ABT(ABT_xstream_get_cpubind(xs, &c));
    CHECK(c >= 0);
    CHECK_ABT(ABT_xstream_get_affinity(xs, 0, NULL, &n));
    CHECK(n >= 1);
}

/* affinity on or off; `bound`: ABT_SET_AFFINITY binds (unset or a list) */
static void check_affinity(int on, int bound)
{
    ABT_bool b = ABT_TRUE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_AFFINITY, &b));
    CHECK_EQ_INT(b, on && bound ? ABT_TRUE : ABT_FALSE);
    check_config_line(on ? "affinity (WEFT_ENABLE_AFFINITY): on"
                         : "affinity (WEFT_ENABLE_AFFINITY): off");
    check_config_line(on && bound ? "set affinity (ABT_SET_AFFINITY): yes"
                                  : "set affinity (ABT_SET_AFFINITY): no");
    ABT_xstream self, xs;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    check_binding_calls(self, on);
    check_binding_calls(xs, on);
    CHECK_ABT(ABT_xstream_free(&xs));
}

/* The primary thread's CPUs (sched_getaffinity), as a count and the first one. */
static int thread_cpus(int *first)
{
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof(set), &set) == 0);
    *first = -1;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set) && *first < 0)
            *first = i;
    return CPU_COUNT(&set);
}

static void set(const char *name, const char *value)
{
    if (value)
        CHECK(setenv(name, value, 1) == 0);
    else
        CHECK(unsetenv(name) == 0);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        TEST_FAIL("usage: %s TOOL_DEFAULT AFFINITY_DEFAULT HOOKS (each 0 or 1)", argv[0]);
    int tool_default = atoi(argv[1]), aff_default = atoi(argv[2]), hooks = atoi(argv[3]);
    static int avail[MAX_CPUS];
    int navail = process_cpus(avail, MAX_CPUS), first;

    /* 1. the build's defaults: nothing in the environment */
    set("WEFT_ENABLE_TOOL", NULL);
    set("WEFT_ENABLE_AFFINITY", NULL);
    set("ABT_SET_AFFINITY", NULL);
    set("ABT_ENV_SET_AFFINITY", NULL);
    CHECK_ABT(ABT_init(0, NULL));
    check_tool(tool_default);
    check_affinity(aff_default, 1);
    CHECK_ABT(ABT_finalize());

    /* 2. both off, whatever the build's defaults; ABT_SET_AFFINITY binds nothing */
    set("WEFT_ENABLE_TOOL", "0");
    set("WEFT_ENABLE_AFFINITY", "off");
    set("ABT_SET_AFFINITY", "0");
    CHECK_ABT(ABT_init(0, NULL));
    check_tool(0);
    check_affinity(0, 1);
    CHECK_EQ_INT(thread_cpus(&first), navail);
    CHECK_ABT(ABT_finalize());

    /* 3. both on; ABT_SET_AFFINITY=no: no binding, the calls still answer (Argobots built
     * with --enable-affinity) */
    set("WEFT_ENABLE_TOOL", "1");
    set("WEFT_ENABLE_AFFINITY", "yes");
    set("ABT_SET_AFFINITY", "no");
    CHECK_ABT(ABT_init(0, NULL));
    check_tool(hooks);
    check_affinity(1, 0);
    CHECK_EQ_INT(thread_cpus(&first), navail);
    /* a callback left registered must not run in a later session with the tool off */
    if (hooks)
        CHECK_ABT(ABT_tool_register_thread_callback(cb, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    CHECK_ABT(ABT_finalize());

    set("WEFT_ENABLE_TOOL", "0");
    set("ABT_SET_AFFINITY", NULL);
    CHECK_ABT(ABT_init(0, NULL));
    check_tool(0);
    /* 4. affinity on, ABT_SET_AFFINITY unset: rank 0 (this thread) on the first CPU */
    check_affinity(1, 1);
    CHECK_EQ_INT(thread_cpus(&first), 1);
    CHECK_EQ_INT(first, avail[0]);
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(thread_cpus(&first), navail); /* ABT_finalize gives them back */

    set("WEFT_ENABLE_TOOL", NULL);
    set("WEFT_ENABLE_AFFINITY", NULL);
    printf("feature_switches: defaults tool=%d affinity=%d (hooks %d), both switches ok\n",
           tool_default, aff_default, hooks);
    return 0;
}
