/* tests/relic/relic_test.h - the checks of tests/test.h for Relic's return codes. */
#ifndef RELIC_TEST_H
#define RELIC_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <pthread.h>
#include <relic.h>

#include "test.h"

#define CHECK_RELIC(call)                                              \
    do {                                                               \
        int check_ret_ = (call);                                       \
        if (check_ret_ != RELIC_SUCCESS)                               \
            TEST_FAIL("%s returned %s, expected RELIC_SUCCESS", #call, \
                      relic_strerror(check_ret_));                     \
    } while (0)

#define CHECK_RELIC_ERR(call, expected)                                                 \
    do {                                                                                \
        int check_ret_ = (call);                                                        \
        if (check_ret_ != (expected))                                                   \
            TEST_FAIL("%s returned %s, expected %s", #call, relic_strerror(check_ret_), \
                      relic_strerror(expected));                                        \
    } while (0)

#endif
