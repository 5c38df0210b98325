/* tests/stack_dump_test.h - helpers of the ULT stack-dump tests (info_*stack*.c): capture
 * what a print routine writes, and find the work units it names.  A dump names a unit
 * with a line "id<blanks>: <number>" (weft and Argobots 1.2 alike). */
#ifndef WEFT_STACK_DUMP_TEST_H
#define WEFT_STACK_DUMP_TEST_H

#include "test.h"

#include <stdint.h>

/* weft-specific expectations (symbols, blocked ULTs, ...) only where weft is the library */
#if defined(__has_include)
#if __has_include(<weft.h>)
#define TEST_WEFT 1
#endif
#endif
#ifndef TEST_WEFT
#define TEST_WEFT 0
#endif

/* The whole content of fp (a tmpfile), NUL-terminated; the caller frees it. */
static inline char *dump_read(FILE *fp)
{
    fflush(fp);
    long n = ftell(fp);
    CHECK(n >= 0);
    char *buf = malloc((size_t)n + 1);
    CHECK(buf != NULL);
    rewind(fp);
    size_t got = fread(buf, 1, (size_t)n, fp);
    buf[got] = '\0';
    return buf;
}

/* Mark in seen[] (indexed by id - base, len entries) every id the dump names. */
static inline int dump_collect_ids(const char *buf, uint64_t base, unsigned char *seen, size_t len)
{
    int lines = 0;
    for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (p[0] != 'i' || p[1] != 'd')
            continue;
        const char *q = p + 2;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != ':')
            continue;
        q++;
        char *end;
        unsigned long long id = strtoull(q, &end, 10);
        if (end == q)
            continue;
        lines++;
        if (id >= base && id - base < len)
            seen[id - base] = 1;
    }
    return lines;
}

/* Does the dump name work unit `id`? */
static inline int dump_has_id(const char *buf, uint64_t id)
{
    unsigned char seen = 0;
    dump_collect_ids(buf, id, &seen, 1);
    return seen;
}

#endif
