/* src/arch/lend_x86_64_sysv_elf_gas.S - weft_lend_call / weft_lend_jump for x86-64,
 * System V ABI, ELF.  Contract: src/arch/lend.h.
 *
 * weft_lend_buf (lend.h):
 *
 *   offset  content
 *   0x00    the stack pointer inside weft_lend_call: it points at the return address
 *   0x08    rbp
 *   0x10    rbx
 *   0x18    r12
 *   0x20    r13
 *   0x28    r14
 *   0x30    r15
 *
 * A return of fn keeps the callee-saved registers (the ABI asks fn to), so only a jump
 * back reads them.  The jump ends as fn's return does: %rsp at weft_lend_call's return
 * address, then ret, so its caller's frame is the one it comes back to.
 */
#if defined(__x86_64__)
        .text

/* void weft_lend_call(weft_lend_buf *b %rdi, void (*fn)(void *) %rsi, void *arg %rdx)
 * A tail call of fn: fn returns straight to weft_lend_call's caller (its stack pointer
 * at entry is the one a call of fn would have), and a jump back returns there too.
 * Only ever called directly (no endbr64: not a target of an indirect branch). */
        .globl  weft_lend_call
        .hidden weft_lend_call
        .type   weft_lend_call, @function
        .p2align 4
weft_lend_call:
        .cfi_startproc
        movq    %rsp, 0x00(%rdi)
        movq    %rbp, 0x08(%rdi)
        movq    %rbx, 0x10(%rdi)
        movq    %r12, 0x18(%rdi)
        movq    %r13, 0x20(%rdi)
        movq    %r14, 0x28(%rdi)
        movq    %r15, 0x30(%rdi)
        movq    %rdx, %rdi
        jmpq    *%rsi
        .cfi_endproc
        .size   weft_lend_call, .-weft_lend_call

/* void weft_lend_jump(weft_lend_buf *b %rdi) -- never returns: weft_lend_call does */
        .globl  weft_lend_jump
        .hidden weft_lend_jump
        .type   weft_lend_jump, @function
        .p2align 4
weft_lend_jump:
        .cfi_startproc
        movq    0x08(%rdi), %rbp
        movq    0x10(%rdi), %rbx
        movq    0x18(%rdi), %r12
        movq    0x20(%rdi), %r13
        movq    0x28(%rdi), %r14
        movq    0x30(%rdi), %r15
        movq    0x00(%rdi), %rsp        /* weft_lend_call's, at its return address */
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   weft_lend_jump, .-weft_lend_jump

        .section .note.GNU-stack,"",@progbits
#endif
