/* internal_affinity_parse: the ABT_SET_AFFINITY parser (src/core/stream/affinity.c) against the
 * examples of the Argobots documentation of the grammar (12 CPUs), white space, negative
 * ids and strides, malformed strings, and the mapping of ids to CPUs through the set the
 * process may use (ids wrap around modulo its size; rank r takes list r % N), and how the
 * configuration reads ABT_SET_AFFINITY with affinity on and off. */
#define _GNU_SOURCE
#include "core/stream/affinity.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

#define EXPECT(c)                                                         \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            fails++;                                                      \
        }                                                                 \
    } while (0)

/* expect: lists separated by '|', ids by ' ', e.g. "0 1|2 3" */
static void check(const char *in, const char *expect)
{
    int *ids = NULL, *off = NULL;
    int n = weft_affinity_parse(in, &ids, &off);
    char got[4096] = "";
    size_t len = 0;
    for (int l = 0; l < n; l++) {
        for (int i = off[l]; i < off[l + 1]; i++)
            len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%d",
                                    i == off[l] ? (l ? "|" : "") : " ", ids[i]);
    }
    if (strcmp(got, expect) != 0 || (n == 0) != (expect[0] == '\0')) {
        fprintf(stderr, "FAIL: \"%s\" parsed as \"%s\" (%d lists), expected \"%s\"\n", in, got, n,
                expect);
        fails++;
    }
    if (n) {
        free(ids);
        free(off);
    }
}

static void set_init(const int *cpus, int n)
{
    free(weft_g.cfg.affinity_init);
    weft_g.cfg.affinity_init = malloc((size_t)n * sizeof(int));
    memcpy(weft_g.cfg.affinity_init, cpus, (size_t)n * sizeof(int));
    weft_g.cfg.affinity_ninit = n;
}

static void set_list(const char *s)
{
    free(weft_g.cfg.affinity_list);
    free(weft_g.cfg.affinity_off);
    weft_g.cfg.affinity_list = weft_g.cfg.affinity_off = NULL;
    weft_g.cfg.affinity_len =
        s ? weft_affinity_parse(s, &weft_g.cfg.affinity_list, &weft_g.cfg.affinity_off) : 0;
}

/* the CPUs of rank r, as "a b c" */
static const char *rank_cpus(int r)
{
    static char buf[256];
    cpu_set_t set;
    size_t len = 0;
    buf[0] = '\0';
    if (!weft_affinity_rank_set(r, &set))
        return "none";
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set))
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d", len ? " " : "", i);
    return buf;
}

int main(void)
{
    const char *twelve = "0|1|2|3|4|5|6|7|8|9|10|11";
    /* Example 1 */
    check("{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{11}", twelve);
    check("0,1,2,3,4,5,6,7,8,9,10,11", twelve);
    check("{0}:12:1", twelve);
    check("{0}:12", twelve);
    check("0:12", twelve);
    /* Example 2 */
    const char *shifted = "6|7|8|9|10|11|0|1|2|3|4|5";
    check("{6},{7},{8},{9},{10},{11},{0},{1},{2},{3},{4},{5}", shifted);
    check("{6}:6:1,{0}:6:1", shifted);
    check("6:6,0:6", shifted);
    check("6:12", "6|7|8|9|10|11|12|13|14|15|16|17"); /* wraps when mapped */
    /* Example 3 */
    check("0:3:4", "0|4|8");
    check("{0}:3:4", "0|4|8");
    /* Example 4 */
    check("0:3:4,1:3:4,2:3:4,3:3:4", "0|4|8|1|5|9|2|6|10|3|7|11");
    /* Example 5 */
    const char *blocks = "0 1 2 3|4 5 6 7|8 9 10 11";
    check("{0,1,2,3},{4,5,6,7},{8,9,10,11}", blocks);
    check("{0,1,2,3}:3:4", blocks);
    check("{0:4:1}:3:4", blocks);
    check("{0:4}:3:4", blocks);
    check("{0,1,2,3}:3", "0 1 2 3|1 2 3 4|2 3 4 5");
    /* Example 6 */
    check("{0,6}:6:1", "0 6|1 7|2 8|3 9|4 10|5 11");
    check("{0,6}:6", "0 6|1 7|2 8|3 9|4 10|5 11");
    /* Example 7 */
    check("{2,3,4,5,6,7,8,9,10,11}", "2 3 4 5 6 7 8 9 10 11");
    check("{2:10:1}", "2 3 4 5 6 7 8 9 10 11");
    check("{2:10}", "2 3 4 5 6 7 8 9 10 11");
    /* white space, signs, negative strides */
    check("  { 0 , 1 } : 2 : 2  ", "0 1|2 3");
    check("\t3 ,\n4", "3|4");
    check("-1", "-1");
    check("{-2:3:-1}", "-2 -3 -4");
    check("{+5}:2:-5", "5|0");
    check("{0:2:0}", "0 0");
    /* malformed */
    const char *bad[] = { "",      " ",    "{",           "}",          "{}",  "0:",
                          "0:0",   "0:-1", "{0,}",        "0,,1",       ",0",  "0,",
                          "a",     "0:2:", "{0}}",        "{{0}}",      "1 2", "0:1:2:3",
                          "{0:0}", "0x1",  "99999999999", "{0:2000000}" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
        check(bad[i], "");

    /* mapping: every CPU available */
    int all[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    set_init(all, 12);
    set_list("6:12");
    EXPECT(!strcmp(rank_cpus(0), "6"));
    EXPECT(!strcmp(rank_cpus(6), "0"));
    EXPECT(!strcmp(rank_cpus(12), "6"));
    set_list("{0,6}:6");
    EXPECT(!strcmp(rank_cpus(1), "1 7"));
    EXPECT(!strcmp(rank_cpus(7), "1 7"));
    set_list("-1,{13,1}");
    EXPECT(!strcmp(rank_cpus(0), "11"));
    EXPECT(!strcmp(rank_cpus(1), "1")); /* 13 wraps to 1: one CPU, not two */
    set_list(NULL);                     /* the default: one CPU per rank */
    EXPECT(!strcmp(rank_cpus(3), "3"));
    EXPECT(!strcmp(rank_cpus(15), "3"));
    /* the process may use CPUs 4..7 only: ids index that set */
    int some[4] = { 4, 5, 6, 7 };
    set_init(some, 4);
    set_list("0,1");
    EXPECT(!strcmp(rank_cpus(0), "4"));
    EXPECT(!strcmp(rank_cpus(1), "5"));
    set_list("{0:8}");
    EXPECT(!strcmp(rank_cpus(0), "4 5 6 7"));
    set_list(NULL);
    EXPECT(!strcmp(rank_cpus(5), "5"));
    EXPECT(!strcmp(rank_cpus(-1), "none"));
    weft_affinity_config_free(&weft_g.cfg);

    /* the configuration, affinity on (WEFT_ENABLE_AFFINITY): as Argobots --enable-affinity,
     * unset and a value that does not parse bind with the default lists, n/no/false/off
     * (any case) bind nothing, "0" and "1" are lists of one CPU */
    struct weft_config c;
    memset(&c, 0, sizeof(c));
    c.affinity = true;
    weft_affinity_config(&c, NULL);
    EXPECT(c.set_affinity && c.affinity_len == 0 && c.affinity_ninit > 0);
    weft_affinity_config_free(&c);
    weft_affinity_config(&c, "yes");
    EXPECT(c.set_affinity && c.affinity_len == 0);
    weft_affinity_config_free(&c);
    const char *no[] = { "off", "n", "No", "FALSE" };
    for (int i = 0; i < 4; i++) {
        weft_affinity_config(&c, no[i]);
        EXPECT(!c.set_affinity);
        weft_affinity_config_free(&c);
    }
    weft_affinity_config(&c, "0");
    EXPECT(c.set_affinity && c.affinity_len == 1);
    weft_affinity_config_free(&c);
    weft_affinity_config(&c, "1");
    EXPECT(c.set_affinity && c.affinity_len == 1);
    weft_affinity_config_free(&c);
    weft_affinity_config(&c, "{0,1}:2:2");
    EXPECT(c.set_affinity && c.affinity_len == 2);
    weft_affinity_config_free(&c);
    weft_affinity_config(&c, "{0,1");
    EXPECT(c.set_affinity && c.affinity_len == 0);
    weft_affinity_config_free(&c);
    /* affinity off (the default): nothing binds, whatever ABT_SET_AFFINITY says */
    c.affinity = false;
    weft_affinity_config(&c, NULL);
    EXPECT(!c.set_affinity);
    weft_affinity_config_free(&c);
    weft_affinity_config(&c, "{0,1}:2:2");
    EXPECT(!c.set_affinity && c.affinity_len == 0);
    weft_affinity_config_free(&c);
    return fails ? 1 : 0;
}
