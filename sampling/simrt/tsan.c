// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ThreadSanitizer instrumentation ABI as gcc 12 and clang 14..19 emit it with
 * -fsanitize=thread (LLVM's tsan_interface.h and tsan_interface_atomic.h, gcc's
 * sanitizer.def): plain, unaligned, volatile and _pc accesses, ranges, vptr, memory
 * intrinsics, function entry/exit (no-ops: build with them off), and every atomic operation,
 * which the runtime performs itself with the memory order given.
 *
 * Each hook hands the runtime its return address: the sample's IP is derived from it there.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sampling/simrt/access.h"
#include "sampling/simrt/simrt.h"

/* The model's step is inline (analyzer/coherence.h), so it inlines into the hot path. */
#include "analyzer/coherence.h"

/* tsan_interface_atomic.h: the order values match gcc's __ATOMIC_* ones. */
typedef enum {
	mo_relaxed,
	mo_consume,
	mo_acquire,
	mo_release,
	mo_acq_rel,
	mo_seq_cst,
} morder;

typedef char a8;
typedef short a16;
typedef int a32;
typedef long a64;
typedef __int128 a128;

/* The hooks need no frame pointer (nothing unwinds through them); gcc's attributes only. */
#ifdef __clang__
#define NOFRAME
#else
#define NOFRAME noclone, optimize("omit-frame-pointer")
#endif
#define API __attribute__((visibility("default"), noinline, NOFRAME))
#define RET ((uint64_t)(uintptr_t)__builtin_return_address(0))

API void __tsan_init(void)
{
	simrt__init();
}

API void __tsan_func_entry(void *pc)
{
	(void)pc;
}

API void __tsan_func_exit(void)
{
}

/* The program's own "do not look" brackets: its accesses in between are not modeled. */
API void __tsan_ignore_thread_begin(void)
{
	struct simrt_thread *t = simrt__thread();

	if (t)
		t->ignore++; /* not modeled until the end (counted in counting phases) */
}

API void __tsan_ignore_thread_end(void)
{
	struct simrt_thread *t = simrt__cur;

	if (t && t->ignore)
		t->ignore--;
}

/* The arrivals (access.h), jumped to from the hooks below: no frame of their own needed. */
#define ARRIVE __attribute__((noinline, visibility("hidden"), NOFRAME))

ARRIVE void simrt__arrive_load(uint64_t addr, uint64_t size, uint64_t ret)
{
	arrive(addr, size, COH_LOAD, ret);
}

ARRIVE void simrt__arrive_store(uint64_t addr, uint64_t size, uint64_t ret)
{
	arrive(addr, size, COH_STORE, ret);
}

ARRIVE void simrt__arrive_rw(uint64_t addr, uint64_t size, uint64_t ret)
{
	arrive(addr, size, SIMRT_RW, ret);
}

/*
 * The plain access hooks, on x86-64 in assembly: the fast path (between windows) is a test of
 * the global phase byte, a branch and the return (a load's hook first adds one to the thread's
 * load count, thread-local): no stack, no register but %rax.  In a window it jumps to the
 * arrival with the access's size and the return address, which is where the call came from:
 * the arrival then runs in the hook's place.  (A store's hook does not count: one dependent
 * increment per `x++`, not two; the store count is estimated from the window's mix.)
 * They live in a section of their own, simrt_hooks: patch.c patches only calls into it, and
 * between windows (phase SIMRT_PH_LEARN) the arrival hands it each new call site.
 */
#if defined(__x86_64__) && !defined(SIMRT_C_HOOKS) /* SIMRT_C_HOOKS: the C ones, to test them */
#define ACCESS_FAST(name, size, which, arrive)                                                     \
	__asm__(".pushsection simrt_hooks, \"ax\", @progbits\n"                                 \
		".globl __tsan_" #name "\n"                                                        \
		".type __tsan_" #name ", @function\n"                                              \
		".p2align 4\n"                                                                     \
		"__tsan_" #name ":\n"                                                              \
		COUNT_##which                                                                      \
		"	cmpb $0, simrt__phase(%rip)\n"                                             \
		"	jne 1f\n"                                                                  \
		"	ret\n"                                                                     \
		"1:	movq (%rsp), %rdx\n"                                                       \
		"	movl $" #size ", %esi\n"                                                   \
		"	jmp " #arrive "\n"                                                         \
		".size __tsan_" #name ", .-__tsan_" #name "\n"                                    \
		".popsection\n");
/* Loads (offset 0) and compound accesses (16) are counted on every call; stores are not. */
#define COUNT_0                                                                                    \
	"	movq simrt__cnt@gottpoff(%rip), %rax\n"                                            \
	"	addq $1, %fs:0(%rax)\n"
#define COUNT_16                                                                                   \
	"	movq simrt__cnt@gottpoff(%rip), %rax\n"                                            \
	"	addq $1, %fs:16(%rax)\n"
#define COUNT_8 ""
#else
#define ACCESS_FAST(name, size, which, arrive)                                                     \
	API void __tsan_##name(void *addr)                                                         \
	{                                                                                          \
		if (which != 8)                                                                    \
			simrt__cnt[which / 8]++;                                                   \
		if (likely(!simrt__phase_now()))                                                   \
			return;                                                                    \
		arrive((uintptr_t)addr, size, RET);                                                \
	}
#endif

#define ACCESS_FAST_(...) ACCESS_FAST(__VA_ARGS__)
#define ACCESS(name, size, op)                                                                     \
	ACCESS_FAST_(name, size, ARRIVE_##op)                                                      \
	API void __tsan_##name##_pc(void *addr, void *pc)                                          \
	{                                                                                          \
		simrt__access((uintptr_t)addr, size, op, (uintptr_t)pc | SIMRT_EXACT_IP);          \
	}

/* Which counter (its byte offset in simrt__cnt[]) and which arrival, by op. */
#define ARRIVE_COH_LOAD 0, simrt__arrive_load
#define ARRIVE_COH_STORE 8, simrt__arrive_store

#define ACCESS_ALL(n)                                                                              \
	ACCESS(read##n, n, COH_LOAD)                                                               \
	ACCESS(write##n, n, COH_STORE)                                                             \
	ACCESS(unaligned_read##n, n, COH_LOAD)                                                     \
	ACCESS(unaligned_write##n, n, COH_STORE)                                                   \
	ACCESS(volatile_read##n, n, COH_LOAD)                                                      \
	ACCESS(volatile_write##n, n, COH_STORE)                                                    \
	ACCESS(unaligned_volatile_read##n, n, COH_LOAD)                                            \
	ACCESS(unaligned_volatile_write##n, n, COH_STORE)

ACCESS_ALL(1)
ACCESS_ALL(2)
ACCESS_ALL(4)
ACCESS_ALL(8)
ACCESS_ALL(16)

/* clang's -tsan-compound-read-before-write: `x++` on plain memory is one call (a load, then a
 * store, for the model); its own counter (offset 16), counting one for both. */
#define ACCESS_RW(n)                                                                               \
	ACCESS_FAST(read_write##n, n, 16, simrt__arrive_rw)                                        \
	ACCESS_FAST(unaligned_read_write##n, n, 16, simrt__arrive_rw)

ACCESS_RW(1)
ACCESS_RW(2)
ACCESS_RW(4)
ACCESS_RW(8)
ACCESS_RW(16)

API void __tsan_read_range(void *addr, unsigned long size)
{
	simrt__range((uintptr_t)addr, size, COH_LOAD, RET);
}

API void __tsan_write_range(void *addr, unsigned long size)
{
	simrt__range((uintptr_t)addr, size, COH_STORE, RET);
}

API void __tsan_read_range_pc(void *addr, unsigned long size, void *pc)
{
	simrt__range((uintptr_t)addr, size, COH_LOAD, (uintptr_t)pc | SIMRT_EXACT_IP);
}

API void __tsan_write_range_pc(void *addr, unsigned long size, void *pc)
{
	simrt__range((uintptr_t)addr, size, COH_STORE, (uintptr_t)pc | SIMRT_EXACT_IP);
}

/* A range read or written by an interposed libc call in a window (memops.c): not the
 * runtime's own. */
void simrt__range_call(uint64_t addr, uint64_t size, enum coh_op op, uint64_t ret)
{
	if (!simrt__inside())
		simrt__range(addr, size, op, ret);
}

API void __tsan_vptr_read(void **vptr_p)
{
	simrt__access((uintptr_t)vptr_p, sizeof(void *), COH_LOAD, RET);
}

API void __tsan_vptr_update(void **vptr_p, void *new_val)
{
	/* The vtable pointer is rewritten with the same value at each constructor level. */
	if (*vptr_p != new_val)
		simrt__access((uintptr_t)vptr_p, sizeof(void *), COH_STORE, RET);
}

API void *__tsan_memcpy(void *dst, const void *src, unsigned long size)
{
	simrt__range((uintptr_t)src, size, COH_LOAD, RET);
	simrt__range((uintptr_t)dst, size, COH_STORE, RET);
	return simrt__libc_memcpy(dst, src, size);
}

API void *__tsan_memmove(void *dst, const void *src, unsigned long size)
{
	simrt__range((uintptr_t)src, size, COH_LOAD, RET);
	simrt__range((uintptr_t)dst, size, COH_STORE, RET);
	return simrt__libc_memmove(dst, src, size);
}

API void *__tsan_memset(void *dst, int c, unsigned long size)
{
	simrt__range((uintptr_t)dst, size, COH_STORE, RET);
	return simrt__libc_memset(dst, c, size);
}

/*
 * Atomics.  The builtins want constant orders, so each operation dispatches on the order;
 * an order the operation cannot take (acquire on a store) is strengthened to seq_cst, as
 * the compilers do for a non-constant order.  Compare-and-swap is always seq_cst: on x86 every
 * order is the same `lock cmpxchg`, and it spares the success/failure order pairs.
 *
 * Each RMW is modeled (simrt__sync: always, windows or not) before it is performed, and
 * reported to simrt__rmw_done() with whether it changed the value: a fetch_or whose bits were
 * all set, an add of 0, an exchange or a successful CAS storing the value already there, a
 * failed CAS.
 */
#define LOAD_ORD(expr_r, expr_a, expr_s)                                                           \
	switch (mo) {                                                                              \
	case mo_relaxed:                                                                           \
		expr_r;                                                                            \
		break;                                                                             \
	case mo_consume:                                                                           \
	case mo_acquire:                                                                           \
		expr_a;                                                                            \
		break;                                                                             \
	default:                                                                                   \
		expr_s;                                                                            \
		break;                                                                             \
	}

#define RMW_ORD(OPN, ...)                                                                          \
	switch (mo) {                                                                              \
	case mo_relaxed:                                                                           \
		old = OPN(__VA_ARGS__, __ATOMIC_RELAXED);                                          \
		break;                                                                             \
	case mo_consume:                                                                           \
	case mo_acquire:                                                                           \
		old = OPN(__VA_ARGS__, __ATOMIC_ACQUIRE);                                          \
		break;                                                                             \
	case mo_release:                                                                           \
		old = OPN(__VA_ARGS__, __ATOMIC_RELEASE);                                          \
		break;                                                                             \
	case mo_acq_rel:                                                                           \
		old = OPN(__VA_ARGS__, __ATOMIC_ACQ_REL);                                          \
		break;                                                                             \
	default:                                                                                   \
		old = OPN(__VA_ARGS__, __ATOMIC_SEQ_CST);                                          \
		break;                                                                             \
	}

#define ATOMIC_RMW(T, n, name, builtin, changed)                                                   \
	API T __tsan_atomic##n##_##name(volatile T *a, T v, morder mo)                             \
	{                                                                                          \
		uint64_t ret = RET;                                                                \
		T old;                                                                             \
		simrt__sync((uintptr_t)a, sizeof(T), COH_RMW, ret);                              \
		RMW_ORD(builtin, a, v)                                                             \
		simrt__rmw_done((uintptr_t)a, changed, ret);                                       \
		return old;                                                                        \
	}

/* compare_exchange_strong/weak: always seq_cst (on x86 the same lock cmpxchg); a CAS that
 * succeeds with the value already there changed nothing (a redundant RMW). */
#define ATOMIC_CAS(T, n, name, weak)                                                               \
	API int __tsan_atomic##n##_compare_exchange_##name(volatile T *a, T *c, T v, morder mo,    \
							   morder fmo)                             \
	{                                                                                          \
		uint64_t ret = RET;                                                                \
		T expect = *c;                                                                     \
		bool ok;                                                                           \
		(void)mo, (void)fmo;                                                               \
		simrt__sync((uintptr_t)a, sizeof(T), COH_RMW, ret);                              \
		ok = __atomic_compare_exchange_n(a, c, v, weak, __ATOMIC_SEQ_CST,                  \
						 __ATOMIC_SEQ_CST);                                \
		simrt__rmw_done((uintptr_t)a, ok && expect != v, ret);                             \
		return ok;                                                                         \
	}

#define NAND_NEW(T, old, v) ((T) ~((old) & (v)))

#define ATOMIC_ALL(T, n)                                                                           \
	API T __tsan_atomic##n##_load(const volatile T *a, morder mo)                              \
	{                                                                                          \
		T v;                                                                               \
		simrt__access((uintptr_t)a, sizeof(T), COH_LOAD, RET);                             \
		LOAD_ORD(v = __atomic_load_n(a, __ATOMIC_RELAXED),                                 \
			 v = __atomic_load_n(a, __ATOMIC_ACQUIRE),                                 \
			 v = __atomic_load_n(a, __ATOMIC_SEQ_CST))                                 \
		return v;                                                                          \
	}                                                                                          \
	API void __tsan_atomic##n##_store(volatile T *a, T v, morder mo)                           \
	{                                                                                          \
		simrt__access((uintptr_t)a, sizeof(T), COH_STORE, RET);                            \
		switch (mo) {                                                                      \
		case mo_relaxed:                                                                   \
			__atomic_store_n(a, v, __ATOMIC_RELAXED);                                  \
			break;                                                                     \
		case mo_release:                                                                   \
			__atomic_store_n(a, v, __ATOMIC_RELEASE);                                  \
			break;                                                                     \
		default:                                                                           \
			__atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                  \
			break;                                                                     \
		}                                                                                  \
	}                                                                                          \
	ATOMIC_RMW(T, n, exchange, __atomic_exchange_n, old != v)                                  \
	ATOMIC_RMW(T, n, fetch_add, __atomic_fetch_add, v != 0)                                    \
	ATOMIC_RMW(T, n, fetch_sub, __atomic_fetch_sub, v != 0)                                    \
	ATOMIC_RMW(T, n, fetch_and, __atomic_fetch_and, (T)(old & v) != old)                       \
	ATOMIC_RMW(T, n, fetch_or, __atomic_fetch_or, (T)(old | v) != old)                         \
	ATOMIC_RMW(T, n, fetch_xor, __atomic_fetch_xor, v != 0)                                    \
	ATOMIC_RMW(T, n, fetch_nand, __atomic_fetch_nand, NAND_NEW(T, old, v) != old)              \
	ATOMIC_CAS(T, n, strong, false)                                                            \
	ATOMIC_CAS(T, n, weak, true)                                                               \
	API T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, morder mo,          \
						      morder fmo)                                  \
	{                                                                                          \
		uint64_t ret = RET;                                                                \
		T expect = c;                                                                      \
		bool ok;                                                                           \
		(void)mo, (void)fmo;                                                               \
		simrt__sync((uintptr_t)a, sizeof(T), COH_RMW, ret);                              \
		ok = __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST,                \
						 __ATOMIC_SEQ_CST);                                \
		simrt__rmw_done((uintptr_t)a, ok &&expect != v, ret);                              \
		return c;                                                                          \
	}

ATOMIC_ALL(a8, 8)
ATOMIC_ALL(a16, 16)
ATOMIC_ALL(a32, 32)
ATOMIC_ALL(a64, 64)
ATOMIC_ALL(a128, 128)

API void __tsan_atomic_thread_fence(morder mo)
{
	if (mo != mo_relaxed)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

API void __tsan_atomic_signal_fence(morder mo)
{
	if (mo != mo_relaxed)
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
}
