/* overflow_death_default: with ABT_STACK_OVERFLOW_CHECK unset (the default: guard page + canary), a
 * ULT that overruns its 16 KiB stack by 64 bytes, 1 KiB, 8 KiB or 1 MiB stops the process (SIGABRT)
 * with one message naming the ULT's id and function, its stack size, how far it overran and the two
 * fixes.  One child process per size (tests/overflow_death.h). */
#include "overflow_death.h"

int main(void) { return overflow_death_main(NULL); }
