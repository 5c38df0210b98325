/* tests/internal_arch_lend_portable.c - tests/internal_arch_lend.c with the portable form
 * of src/arch/lend.h (__builtin_setjmp / __builtin_longjmp), which every target but x86-64
 * uses: on x86-64 it is built only here. */
#define WEFT_LEND_PORTABLE 1
#include "internal_arch_lend.c"
