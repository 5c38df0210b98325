/* src/arch/switch_x86_64_sysv_elf_gas.S - context switch for x86-64, System V ABI, ELF.
 * Contract: src/arch/context.h.
 *
 * Frame of a suspended context (weft_ctx points at offset 0; grows down):
 *
 *   offset  size  content
 *   0x00    4     MXCSR as read at suspension (only bits 6-15, the control bits, are used)
 *   0x04    2     x87 FPU control word
 *   0x06    2     (padding)
 *   0x08    8     r15
 *   0x10    8     r14
 *   0x18    8     r13
 *   0x20    8     r12
 *   0x28    8     rbx
 *   0x30    8     rbp
 *   0x38    8     return address (where the suspended side continues)
 *
 * Resuming restores the FP control state lazily: MXCSR and the x87 control word are
 * compared with the live values and written only when they differ, keeping the live
 * status flags (see context.h for why).  The red zone below the resumed stack pointer
 * serves as scratch: nothing of the resumed context lives there.
 *
 * The entry points are only ever called directly (hidden symbols, never through a
 * pointer), so they start without endbr64: an indirect-branch-tracking CPU checks only
 * the targets of indirect calls and jumps.
 */
        .text

/* RESTORE_AND_RETURN: %rsp points at a suspended frame; %rax holds the value to return.
 * Unwind info: on entry the CFA is %rsp + 64 with the registers at their frame slots
 * (every suspended frame has the same layout, so the description holds whichever frame
 * %rsp has just been pointed at). */
.macro RESTORE_AND_RETURN
        stmxcsr -8(%rsp)                /* live MXCSR */
        movl    -8(%rsp), %ecx
        xorl    (%rsp), %ecx
        testl   $0xffc0, %ecx           /* do the control bits differ? */
        jnz     91f
92:
        fnstcw  -8(%rsp)                /* live x87 control word */
        movzwl  -8(%rsp), %ecx
        cmpw    4(%rsp), %cx
        jne     93f
94:
        POP_FRAME
91:
        .cfi_restore_state
        movl    -8(%rsp), %ecx
        andl    $0x3f, %ecx             /* keep the live status flags */
        movl    (%rsp), %edx
        andl    $0xffc0, %edx           /* take the saved control bits */
        orl     %edx, %ecx
        movl    %ecx, -8(%rsp)
        ldmxcsr -8(%rsp)
        jmp     92b
93:
        fldcw   4(%rsp)                 /* saved x87 control word */
        jmp     94b
.endm

/* POP_FRAME: pop the frame %rsp points at and return into it.  Keeps a copy of the
 * unwind state for the code that follows (out-of-line paths still inside the frame). */
.macro POP_FRAME
        .cfi_remember_state
        addq    $8, %rsp                /* drop the FP control slot */
        .cfi_adjust_cfa_offset -8
        popq    %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        ret                             /* to the suspended side, with %rax */
.endm

/* SAVE_INTO from_reg: push the suspended frame and store %rsp into *(from_reg). */
.macro SAVE_INTO from
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbx, 0
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r12, 0
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r13, 0
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r14, 0
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r15, 0
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (\from)
.endm

/* SWITCH_TO [word]: after SAVE_INTO, enter the frame %rsi points at and return %rdx
 * there.  With `word` (a register), store 0 into that 32-bit word once %rsp is on the
 * target's stack: the release of weft_ctx_switch_release.  The FP control words just
 * saved are the live ones, so they are compared with the target's saved words in a
 * register (%r8): no second read of MXCSR.  Only when a control bit differs does it take
 * the general path (live read, selective write). */
.macro SWITCH_TO word
        movq    (%rsp), %r8             /* live MXCSR | x87 CW << 32 (bits 48-63: padding) */
        movq    %rsi, %rsp              /* enter the target's frame */
.ifnb \word
        movl    $0, (\word)             /* release the word: the saved side may now run */
.endif
        movq    %rdx, %rax              /* data becomes the target's return value */
        xorq    (%rsp), %r8             /* which bits differ from the target's words? */
        movabsq $0xffff0000ffc0, %rdx   /* MXCSR control bits and the whole x87 CW */
        testq   %rdx, %r8
        jnz     1f
        POP_FRAME                       /* same FP control state: just pop */
1:
        .cfi_restore_state
        RESTORE_AND_RETURN
.endm

/* START_FRESH [word]: after SAVE_INTO, move to the fresh stack ending at %rsi and enter
 * fn %rdx with argument %rcx.  With `word`, store 0 into it once on the fresh stack. */
.macro START_FRESH word
        movq    %rsi, %rsp              /* the fresh stack, 16-byte aligned */
        .cfi_def_cfa %rsp, 0
        .cfi_undefined %rip             /* nothing to unwind into on the new stack */
.ifnb \word
        movl    $0, (\word)             /* release the word: the saved side may now run */
.endif
        movq    %rcx, %rdi              /* fn's argument */
        xorl    %ebp, %ebp              /* end of the frame chain for debuggers */
        pushq   $0                      /* fake return address: fn must not return */
        jmpq    *%rdx                   /* enter fn with %rsp = 8 mod 16, as after a call */
.endm

/* void *weft_ctx_switch(weft_ctx *from %rdi, weft_ctx to %rsi, void *data %rdx) */
        .globl  weft_ctx_switch
        .hidden weft_ctx_switch
        .type   weft_ctx_switch, @function
        .p2align 4
weft_ctx_switch:
        .cfi_startproc
        SAVE_INTO %rdi
        SWITCH_TO
        .cfi_endproc
        .size   weft_ctx_switch, .-weft_ctx_switch

/* void *weft_ctx_switch_release(weft_ctx *from %rdi, weft_ctx to %rsi, void *data %rdx,
 *                               uint32_t *word %rcx)
 * weft_ctx_switch that stores 0 into *word once it has left the suspended side's stack:
 * a spinlock held across the switch, released after the suspended frame and *from are
 * written (x86-64 keeps stores in order, so a plain store releases) and after %rsp points
 * at the target's frame, so no signal frame or push can land on the suspended stack once
 * another stream may resume it. */
        .globl  weft_ctx_switch_release
        .hidden weft_ctx_switch_release
        .type   weft_ctx_switch_release, @function
        .p2align 4
weft_ctx_switch_release:
        .cfi_startproc
        SAVE_INTO %rdi
        SWITCH_TO %rcx
        .cfi_endproc
        .size   weft_ctx_switch_release, .-weft_ctx_switch_release

/* void *weft_ctx_start(weft_ctx *from %rdi, void *top %rsi, void (*fn)(void *) %rdx,
 *                      void *data %rcx) */
        .globl  weft_ctx_start
        .hidden weft_ctx_start
        .type   weft_ctx_start, @function
        .p2align 4
weft_ctx_start:
        .cfi_startproc
        SAVE_INTO %rdi
        START_FRESH
        .cfi_endproc
        .size   weft_ctx_start, .-weft_ctx_start

/* void *weft_ctx_start_release(weft_ctx *from %rdi, void *top %rsi,
 *                              void (*fn)(void *) %rdx, void *data %rcx, uint32_t *word %r8)
 * weft_ctx_start that stores 0 into *word once it runs on the fresh stack (as
 * weft_ctx_switch_release). */
        .globl  weft_ctx_start_release
        .hidden weft_ctx_start_release
        .type   weft_ctx_start_release, @function
        .p2align 4
weft_ctx_start_release:
        .cfi_startproc
        SAVE_INTO %rdi
        START_FRESH %r8
        .cfi_endproc
        .size   weft_ctx_start_release, .-weft_ctx_start_release

/* void *weft_ctx_call(weft_ctx *from %rdi, void *top %rsi, void *(*fn)(void *) %rdx,
 *                     void *data %rcx)
 * Like weft_ctx_start, but fn may return: the caller's stack pointer (its saved frame)
 * is kept in the first slot of the fresh stack, and a return of fn goes back to it and
 * drops the frame without popping it (fn restored the callee-saved registers itself). */
        .globl  weft_ctx_call
        .hidden weft_ctx_call
        .type   weft_ctx_call, @function
        .p2align 6                      /* a cache line of its own (WEFT_HOT_ALIGN) */
weft_ctx_call:
        .cfi_startproc
        SAVE_INTO %rdi
        movq    %rsp, %rax              /* the saved frame */
        .cfi_remember_state
        movq    %rsi, %rsp              /* the fresh stack, 16-byte aligned */
        .cfi_def_cfa %rsp, 0
        .cfi_undefined %rip             /* unwinders stop at fn's caller */
        pushq   %rax                    /* top - 8: where to go back to */
        pushq   %rax                    /* keeps %rsp 16-byte aligned at the call */
        movq    %rcx, %rdi              /* fn's argument (%rbp stays: fn returns it to us) */
        callq   *%rdx
        movq    8(%rsp), %rsp           /* back to the caller's saved frame */
        .cfi_restore_state
        addq    $56, %rsp               /* drop it: fn left the registers as they were */
        .cfi_adjust_cfa_offset -56
        .cfi_restore %rbp
        .cfi_restore %rbx
        .cfi_restore %r12
        .cfi_restore %r13
        .cfi_restore %r14
        .cfi_restore %r15
        ret                             /* to the caller, with fn's value in %rax */
        .cfi_endproc
        .size   weft_ctx_call, .-weft_ctx_call

/* void *weft_ctx_call_nosave(void *top %rdi, void *(*fn)(void *) %rsi, void *data %rdx)
 * fn(data) on the fresh stack, nothing saved: the caller's stack pointer is kept at
 * top - 8 for fn's return; the callee-saved registers are fn's to preserve. */
        .globl  weft_ctx_call_nosave
        .hidden weft_ctx_call_nosave
        .type   weft_ctx_call_nosave, @function
        .p2align 4
weft_ctx_call_nosave:
        .cfi_startproc
        movq    %rsp, %rax
        .cfi_remember_state
        movq    %rdi, %rsp              /* the fresh stack, 16-byte aligned */
        .cfi_def_cfa %rsp, 0
        .cfi_undefined %rip
        pushq   %rax                    /* top - 8: where to go back to */
        pushq   %rax                    /* keeps %rsp 16-byte aligned at the call */
        movq    %rdx, %rdi
        callq   *%rsi
        movq    8(%rsp), %rsp           /* back to the caller's stack */
        .cfi_restore_state
        ret
        .cfi_endproc
        .size   weft_ctx_call_nosave, .-weft_ctx_call_nosave

/* void weft_ctx_jump(weft_ctx to %rdi, void *data %rsi) -- never returns */
        .globl  weft_ctx_jump
        .hidden weft_ctx_jump
        .type   weft_ctx_jump, @function
        .p2align 4
weft_ctx_jump:
        .cfi_startproc
        movq    %rdi, %rsp              /* abandon the current stack */
        .cfi_def_cfa_offset 64          /* now inside the target's suspended frame */
        .cfi_offset %rbp, -16
        .cfi_offset %rbx, -24
        .cfi_offset %r12, -32
        .cfi_offset %r13, -40
        .cfi_offset %r14, -48
        .cfi_offset %r15, -56
        movq    %rsi, %rax
        RESTORE_AND_RETURN
        .cfi_endproc
        .size   weft_ctx_jump, .-weft_ctx_jump

        .section .note.GNU-stack,"",@progbits
