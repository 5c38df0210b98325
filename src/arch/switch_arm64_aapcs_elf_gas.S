/* src/arch/switch_arm64_aapcs_elf_gas.S - context switch for AArch64, AAPCS64, ELF (GNU as).
 * Contract: src/arch/context.h.
 *
 * Frame of a suspended context (weft_ctx points at offset 0; 176 bytes, so sp stays
 * 16-byte aligned as AAPCS64 and the hardware stack-alignment check require):
 *
 *   offset  size  content
 *   0x00    8     x19
 *   0x08    8     x20
 *   0x10    8     x21
 *   0x18    8     x22
 *   0x20    8     x23
 *   0x28    8     x24
 *   0x30    8     x25
 *   0x38    8     x26
 *   0x40    8     x27
 *   0x48    8     x28
 *   0x50    8     x29 (frame pointer)
 *   0x58    8     x30 (link register: where the suspended side continues; PAC-signed
 *                 against the caller's sp when built with -mbranch-protection=pac-ret)
 *   0x60    8     d8   (AAPCS64 preserves only the low 64 bits of v8-v15)
 *   0x68    8     d9
 *   0x70    8     d10
 *   0x78    8     d11
 *   0x80    8     d12
 *   0x88    8     d13
 *   0x90    8     d14
 *   0x98    8     d15
 *   0xa0    8     FPCR as read at suspension (control only; FPSR status is never saved)
 *   0xa8    8     (padding)
 *
 * Resuming writes FPCR only when the saved value differs from the live one: msr fpcr can
 * be serialising and costs far more than the mrs/cmp that avoids it.  x18 (the platform
 * register) is not touched: on Linux it is an ordinary temporary.  SVE/SME state beyond
 * d8-d15 is not part of the procedure-call contract and is not saved either.
 *
 * AArch64 has no red zone, so nothing is ever stored below sp.  The scratch registers
 * used are x9-x11 and x16, all caller-saved (corruptible) under AAPCS64.
 *
 * The CFI describes the frame while it is on the stack.  Because every suspended frame
 * has the same layout, the description stays true after sp is moved to the target's frame
 * in weft_ctx_switch: an unwinder stopped there walks into the side being resumed.
 */

#define FRAME_SIZE      0xb0
#define OFF_X19         0x00
#define OFF_X21         0x10
#define OFF_X23         0x20
#define OFF_X25         0x30
#define OFF_X27         0x40
#define OFF_X29         0x50
#define OFF_D8          0x60
#define OFF_D10         0x70
#define OFF_D12         0x80
#define OFF_D14         0x90
#define OFF_FPCR        0xa0

/* Branch protection.  The landing pad `bti c` (HINT #34) is emitted unconditionally: it is
 * a NOP on cores without BTI, and it lets the object carry the BTI property below so that
 * a BTI-enforcing build keeps its protection.  Return-address signing follows the
 * compiler's -mbranch-protection choice (__ARM_FEATURE_PAC_DEFAULT: bit 0 A key, bit 1
 * B key).  The HINT-space encodings assemble under any -march. */
#define BTI_C           hint #34                /* bti c */
#if defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 2)
#  define WEFT_PAC 1
#  define SIGN_LR       hint #27                /* pacibsp: sign x30 with sp, key B */
#  define AUTH_LR       hint #31                /* autibsp */
#  define CFI_KEY       .cfi_b_key_frame
#elif defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 1)
#  define WEFT_PAC 1
#  define SIGN_LR       hint #25                /* paciasp: sign x30 with sp, key A */
#  define AUTH_LR       hint #29                /* autiasp */
#  define CFI_KEY
#else
#  define WEFT_PAC 0
#endif

        .text

/* Tell the unwinder that the callee-saved registers live in the frame at sp. */
.macro CFI_DESCRIBE_FRAME
        .cfi_rel_offset 19, OFF_X19 + 0x00
        .cfi_rel_offset 20, OFF_X19 + 0x08
        .cfi_rel_offset 21, OFF_X21 + 0x00
        .cfi_rel_offset 22, OFF_X21 + 0x08
        .cfi_rel_offset 23, OFF_X23 + 0x00
        .cfi_rel_offset 24, OFF_X23 + 0x08
        .cfi_rel_offset 25, OFF_X25 + 0x00
        .cfi_rel_offset 26, OFF_X25 + 0x08
        .cfi_rel_offset 27, OFF_X27 + 0x00
        .cfi_rel_offset 28, OFF_X27 + 0x08
        .cfi_rel_offset 29, OFF_X29 + 0x00
        .cfi_rel_offset 30, OFF_X29 + 0x08
        .cfi_rel_offset 72, OFF_D8 + 0x00       /* DWARF 72-79 = v8-v15 */
        .cfi_rel_offset 73, OFF_D8 + 0x08
        .cfi_rel_offset 74, OFF_D10 + 0x00
        .cfi_rel_offset 75, OFF_D10 + 0x08
        .cfi_rel_offset 76, OFF_D12 + 0x00
        .cfi_rel_offset 77, OFF_D12 + 0x08
        .cfi_rel_offset 78, OFF_D14 + 0x00
        .cfi_rel_offset 79, OFF_D14 + 0x08
.endm

/* SAVE_FRAME from: push the suspended frame and store sp into *(from).
 * Leaves the live FPCR in x10 (RESTORE_AND_RETURN compares against it). */
.macro SAVE_FRAME from
        sub     sp, sp, #FRAME_SIZE             /* room for the frame; stays 16-aligned */
        .cfi_adjust_cfa_offset FRAME_SIZE
        stp     x19, x20, [sp, #OFF_X19]        /* callee-saved integer registers */
        stp     x21, x22, [sp, #OFF_X21]
        stp     x23, x24, [sp, #OFF_X23]
        stp     x25, x26, [sp, #OFF_X25]
        stp     x27, x28, [sp, #OFF_X27]
        stp     x29, x30, [sp, #OFF_X29]        /* frame pointer and resume address */
        stp     d8, d9, [sp, #OFF_D8]           /* low halves of v8-v15 */
        stp     d10, d11, [sp, #OFF_D10]
        stp     d12, d13, [sp, #OFF_D12]
        stp     d14, d15, [sp, #OFF_D14]
        CFI_DESCRIBE_FRAME
        mrs     x10, fpcr                       /* FP control state of the suspending side */
        str     x10, [sp, #OFF_FPCR]            /* saved with the frame */
        mov     x9, sp                          /* sp cannot be stored directly */
        str     x9, [\from]                     /* publish the suspended context */
.endm

/* RESTORE_AND_RETURN: sp points at a suspended frame, x10 holds the live FPCR, x0 the value
 * to return.  Pops the frame and returns to the suspended side. */
.macro RESTORE_AND_RETURN
        ldr     x11, [sp, #OFF_FPCR]            /* FPCR the resumed side was suspended with */
        cmp     x11, x10                        /* same as the live value? */
        b.eq    1f                              /* yes: skip the costly write */
        msr     fpcr, x11                       /* no: install the resumed side's control */
1:
        ldp     d8, d9, [sp, #OFF_D8]           /* low halves of v8-v15 */
        ldp     d10, d11, [sp, #OFF_D10]
        ldp     d12, d13, [sp, #OFF_D12]
        ldp     d14, d15, [sp, #OFF_D14]
        ldp     x19, x20, [sp, #OFF_X19]        /* callee-saved integer registers */
        ldp     x21, x22, [sp, #OFF_X21]
        ldp     x23, x24, [sp, #OFF_X23]
        ldp     x25, x26, [sp, #OFF_X25]
        ldp     x27, x28, [sp, #OFF_X27]
        ldp     x29, x30, [sp, #OFF_X29]        /* frame pointer and resume address */
        add     sp, sp, #FRAME_SIZE             /* drop the frame: sp as the caller had it */
        .cfi_adjust_cfa_offset -FRAME_SIZE
        .cfi_restore 19
        .cfi_restore 20
        .cfi_restore 21
        .cfi_restore 22
        .cfi_restore 23
        .cfi_restore 24
        .cfi_restore 25
        .cfi_restore 26
        .cfi_restore 27
        .cfi_restore 28
        .cfi_restore 29
        .cfi_restore 30
        .cfi_restore 72
        .cfi_restore 73
        .cfi_restore 74
        .cfi_restore 75
        .cfi_restore 76
        .cfi_restore 77
        .cfi_restore 78
        .cfi_restore 79
#if WEFT_PAC
        AUTH_LR                                 /* check x30 against the sp it was signed with */
        .cfi_negate_ra_state
#endif
        ret                                     /* to the suspended side, with x0 */
.endm

/* START_FRESH [word]: after SAVE_FRAME, move to the fresh stack ending at x1 and enter
 * fn x2 with argument x3.  With `word` (a register), store 0 into that 32-bit word with
 * release order once sp is on the fresh stack (weft_ctx_start_release). */
.macro START_FRESH word
        mov     sp, x1                          /* the fresh stack, 16-byte aligned */
        .cfi_def_cfa_offset 0                   /* nothing of ours is on it ... */
        .cfi_undefined 30                       /* ... and there is no caller to return to */
.ifnb \word
        stlr    wzr, [\word]                    /* release the word: the saved side may run */
.endif
        mov     x0, x3                          /* fn's argument */
        mov     x29, xzr                        /* fp = 0: end of the frame-record chain */
        mov     x30, xzr                        /* lr = 0: unwinders stop at fn */
        mov     x16, x2                         /* br via x16: fn's `bti c` accepts it */
        br      x16                             /* enter fn; it must never return */
.endm

/* Function prologue shared by the saving entry points. */
.macro ENTRY_SAVING
        BTI_C                                   /* landing pad for indirect calls */
#if WEFT_PAC
        CFI_KEY
        SIGN_LR                                 /* sign the resume address with sp */
        .cfi_negate_ra_state
#endif
.endm

/* void *weft_ctx_switch(weft_ctx *from x0, weft_ctx to x1, void *data x2) */
        .globl  weft_ctx_switch
        .hidden weft_ctx_switch
        .type   weft_ctx_switch, %function
        .p2align 4
weft_ctx_switch:
        .cfi_startproc
        ENTRY_SAVING
        SAVE_FRAME x0                           /* suspend the caller into *from */
        mov     sp, x1                          /* enter the target's frame (same layout) */
        mov     x0, x2                          /* data becomes the target's return value */
        RESTORE_AND_RETURN                      /* x10 = live FPCR, from SAVE_FRAME */
        .cfi_endproc
        .size   weft_ctx_switch, .-weft_ctx_switch

/* void *weft_ctx_switch_release(weft_ctx *from x0, weft_ctx to x1, void *data x2,
 *                               uint32_t *word x3)
 * weft_ctx_switch that stores 0 into *word with release order once sp points at the
 * target's frame: a spinlock held across the switch, released after the suspended frame
 * and *from are written and after the suspended stack is left. */
        .globl  weft_ctx_switch_release
        .hidden weft_ctx_switch_release
        .type   weft_ctx_switch_release, %function
        .p2align 4
weft_ctx_switch_release:
        .cfi_startproc
        ENTRY_SAVING
        SAVE_FRAME x0                           /* suspend the caller into *from */
        mov     sp, x1                          /* enter the target's frame (same layout) */
        stlr    wzr, [x3]                       /* release the word: the saved side may run */
        mov     x0, x2                          /* data becomes the target's return value */
        RESTORE_AND_RETURN                      /* x10 = live FPCR, from SAVE_FRAME */
        .cfi_endproc
        .size   weft_ctx_switch_release, .-weft_ctx_switch_release

/* void *weft_ctx_start(weft_ctx *from x0, void *top x1, void (*fn)(void *) x2,
 *                      void *data x3) */
        .globl  weft_ctx_start
        .hidden weft_ctx_start
        .type   weft_ctx_start, %function
        .p2align 4
weft_ctx_start:
        .cfi_startproc
        ENTRY_SAVING
        SAVE_FRAME x0                           /* suspend the caller into *from */
        START_FRESH
        .cfi_endproc
        .size   weft_ctx_start, .-weft_ctx_start

/* void *weft_ctx_start_release(weft_ctx *from x0, void *top x1, void (*fn)(void *) x2,
 *                              void *data x3, uint32_t *word x4)
 * weft_ctx_start that stores 0 into *word with release order once sp is on the fresh
 * stack (as weft_ctx_switch_release). */
        .globl  weft_ctx_start_release
        .hidden weft_ctx_start_release
        .type   weft_ctx_start_release, %function
        .p2align 4
weft_ctx_start_release:
        .cfi_startproc
        ENTRY_SAVING
        SAVE_FRAME x0                           /* suspend the caller into *from */
        START_FRESH x4
        .cfi_endproc
        .size   weft_ctx_start_release, .-weft_ctx_start_release

/* void weft_ctx_jump(weft_ctx to x0, void *data x1) -- never returns */
        .globl  weft_ctx_jump
        .hidden weft_ctx_jump
        .type   weft_ctx_jump, %function
        .p2align 4
weft_ctx_jump:
        .cfi_startproc
#if WEFT_PAC
        CFI_KEY
#endif
        BTI_C                                   /* landing pad for indirect calls */
        mov     sp, x0                          /* abandon the current stack for the frame */
        .cfi_def_cfa_offset FRAME_SIZE          /* from here on, unwind as the resumed side */
        CFI_DESCRIBE_FRAME
#if WEFT_PAC
        .cfi_negate_ra_state                    /* whose saved x30 is signed */
#endif
        mov     x0, x1                          /* data becomes the target's return value */
        mrs     x10, fpcr                       /* live FPCR, for the compare */
        RESTORE_AND_RETURN
        .cfi_endproc
        .size   weft_ctx_jump, .-weft_ctx_jump

/* GNU property note: every entry point has a BTI landing pad (and signs its saved return
 * address when PAC is on), so the object does not veto BTI/PAC for the linked program. */
#define GNU_PROPERTY_AARCH64_FEATURE_1_AND      0xc0000000
#define GNU_PROPERTY_AARCH64_FEATURE_1_BTI      1
#define GNU_PROPERTY_AARCH64_FEATURE_1_PAC      2
        .pushsection .note.gnu.property, "a"
        .p2align 3
        .long   4                               /* n_namesz: "GNU\0" */
        .long   16                              /* n_descsz: one property, padded to 8 */
        .long   5                               /* n_type: NT_GNU_PROPERTY_TYPE_0 */
        .asciz  "GNU"
        .long   GNU_PROPERTY_AARCH64_FEATURE_1_AND /* pr_type */
        .long   4                               /* pr_datasz */
        .long   GNU_PROPERTY_AARCH64_FEATURE_1_BTI | \
                (WEFT_PAC * GNU_PROPERTY_AARCH64_FEATURE_1_PAC)
        .long   0                               /* pad to 8 bytes */
        .popsection

        .section .note.GNU-stack,"",%progbits
