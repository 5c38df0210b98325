/* tests/weft_only.h - for tests of weft's own extensions (weft.h): include this instead of
 * test.h.  Against a library without weft.h (a real Argobots install) the test builds to
 * a main that skips (exit 77) and WEFT_ONLY_SKIPPED is defined: wrap the rest of the file
 * in #ifndef WEFT_ONLY_SKIPPED. */
#ifndef WEFT_TEST_WEFT_ONLY_H
#define WEFT_TEST_WEFT_ONLY_H

#include "test.h"

#if defined(__has_include)
#if __has_include(<weft.h>)
#include <weft.h>
#define TEST_WEFT 1
#endif
#endif

#ifndef TEST_WEFT
#define WEFT_ONLY_SKIPPED 1
int main(void) { TEST_SKIP("weft extension (weft.h) not available"); }
#endif

#endif
