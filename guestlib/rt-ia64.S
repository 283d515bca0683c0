// SPDX-License-Identifier: GPL-2.0
/*
 * rt-ia64.S: process entry and system calls of the freestanding C library
 * (rt.h) on ia64 Linux.
 *
 * At entry the kernel leaves argc at sp + 16 (above the 16-byte scratch
 * area), then argv[], a NULL, then envp[].  gp is ours to set.
 *
 * A system call: its number in r15, its arguments in the stacked output
 * registers of the frame that executes "break 0x100000"; the result in r8,
 * and r10 = -1 when r8 holds an errno instead.
 */
	.text
	.align 32
	.global _start
	.proc _start
_start:
	alloc r2 = ar.pfs, 0, 0, 3, 0
	movl gp = __gp
	adds out1 = 16, sp		// &argc
	;;
	ld8 out0 = [out1], 8		// argc; out1 = argv
	;;
	shladd out2 = out0, 3, out1	// argv + argc
	;;
	adds out2 = 8, out2		// envp, after argv's NULL
	br.call.sptk.many rp = __rt_start
	;;
	break 0				// __rt_start does not return
	.endp _start

/*
 * long __rt_syscall(a0, a1, a2, a3, a4, a5, nr): a leaf without alloc,
 * so its frame is the caller's seven outputs: a0-a5 are out0-out5 where
 * the kernel reads them, nr the seventh (r38).  The result, or -errno.
 */
	.global __rt_syscall
	.proc __rt_syscall
__rt_syscall:
	mov r15 = r38
	;;
	break 0x100000
	;;
	cmp.eq p6, p0 = -1, r10
	;;
(p6)	sub r8 = r0, r8
	br.ret.sptk.many b0
	.endp __rt_syscall
