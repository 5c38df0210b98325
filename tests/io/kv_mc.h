/* tests/io/kv_mc.h - memcached-protocol helpers for the kvserver tests (on kv_client.h). */
#ifndef KV_MC_H
#define KV_MC_H

#include "kv_client.h"

/* set/add/replace/append/prepend key: the reply line into r. */
static inline void mc_store(int fd, const char *cmd, const char *key, unsigned flags,
                            long long exptime, const char *val, size_t vl, char *r, size_t cap)
{
    char h[400];
    int n = snprintf(h, sizeof h, "%s %s %u %lld %zu\r\n", cmd, key, flags, exptime, vl);
    CHECK_EQ_INT(kv_send(fd, h, (size_t)n), 0);
    if (vl)
        CHECK_EQ_INT(kv_send(fd, val, vl), 0);
    CHECK_EQ_INT(kv_call(fd, "\r\n", r, cap), 0);
}

static inline void mc_set(int fd, const char *key, long long exptime, const char *val)
{
    char r[128];
    mc_store(fd, "set", key, 0, exptime, val, strlen(val), r, sizeof r);
    if (strcmp(r, "STORED"))
        TEST_FAIL("set %s: %s", key, r);
}

/* get key: its value into v (NUL-terminated) and 1, or 0 when absent. */
static inline int mc_get(int fd, const char *key, char *v, size_t cap, unsigned *flags)
{
    char req[300], l[512];
    snprintf(req, sizeof req, "get %s\r\n", key);
    CHECK_EQ_INT(kv_call(fd, req, l, sizeof l), 0);
    if (!strcmp(l, "END"))
        return 0;
    char k[260];
    unsigned f, len;
    if (sscanf(l, "VALUE %259s %u %u", k, &f, &len) != 3)
        TEST_FAIL("get %s: '%s'", key, l);
    CHECK(len + 2 <= cap);
    CHECK_EQ_INT(kv_read_n(fd, v, len + 2), 0);
    v[len] = 0;
    CHECK_EQ_INT(kv_line(fd, l, sizeof l), 0);
    CHECK(!strcmp(l, "END"));
    if (flags)
        *flags = f;
    return 1;
}

static inline int mc_has(int fd, const char *key)
{
    char v[2048];
    return mc_get(fd, key, v, sizeof v, NULL);
}

/* The value of STAT name, or -1. */
static inline long long mc_stat(int fd, const char *name)
{
    CHECK_EQ_INT(kv_send(fd, "stats\r\n", 7), 0);
    long long v = -1;
    size_t nl = strlen(name);
    char l[512];
    for (;;) {
        CHECK_EQ_INT(kv_line(fd, l, sizeof l), 0);
        if (!strcmp(l, "END"))
            return v;
        if (!strncmp(l + 5, name, nl) && l[5 + nl] == ' ')
            v = atoll(l + 6 + nl);
    }
}

#endif
