// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libc memory calls, interposed: memset, bzero, memcpy, memmove, mempcpy and their
 * fortified forms (__memset_chk ...).  Neither compiler's instrumentation sees what they write:
 * clang 14's turns llvm.memset/memcpy/memmove into plain calls to memset/memcpy/memmove (libtsan
 * intercepts those; newer clangs call __tsan_memset, tsan.c), gcc 12's leaves the builtins
 * alone (`lineup sim-flags` keeps them calls, with -fno-builtin-*).  So a program that clears a
 * shared buffer per item would record nothing.  Each call here runs its ranges through the model
 * as the range hooks do (one access per cache line touched, sampled at the caller's call
 * instruction: the source read, then the destination written) and then does the work with
 * glibc's own function, found once with dlsym(RTLD_NEXT).
 *
 * The runtime's own calls land here too (the executable's definitions win): they are not
 * modeled (simrt__range_call() ignores a thread inside the runtime or not yet registered), and
 * until dlsym has answered (calls from dlsym itself, or from a library's constructor before
 * it) a byte loop does the work.  Calls made inside libc (stdio's copies, qsort ...) use
 * glibc's hidden aliases and are not seen.
 *
 * Ownership: nothing is allocated; the function pointers live as long as the process.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/coherence.h"
#include "sampling/simrt/simrt.h"

/* The calls need no frame pointer (nothing unwinds through them); gcc's attribute only. */
#ifdef __clang__
#define NOFRAME
#else
#define NOFRAME optimize("omit-frame-pointer")
#endif
#define API __attribute__((visibility("default"), noinline, NOFRAME))
#define RET ((uint64_t)(uintptr_t)__builtin_return_address(0))

typedef void *(*memset_fn)(void *, int, size_t);
typedef void *(*memcpy_fn)(void *, const void *, size_t);

static memset_fn real_memset;
static memcpy_fn real_memcpy, real_memmove;
/* dlsym is under way on this thread: it may call memset itself. */
static __thread __attribute__((tls_model("initial-exec"))) int resolving;

extern void __chk_fail(void) __attribute__((noreturn));

/* glibc's functions, once; false until they are known (then the byte loops below work). */
static bool resolve(void)
{
	if (__atomic_load_n(&real_memmove, __ATOMIC_ACQUIRE))
		return true;
	if (resolving)
		return false;
	resolving = 1;
	__atomic_store_n(&real_memset, (memset_fn)dlsym(RTLD_NEXT, "memset"), __ATOMIC_RELAXED);
	__atomic_store_n(&real_memcpy, (memcpy_fn)dlsym(RTLD_NEXT, "memcpy"), __ATOMIC_RELAXED);
	/* Last: its being set says all three are. */
	__atomic_store_n(&real_memmove, (memcpy_fn)dlsym(RTLD_NEXT, "memmove"), __ATOMIC_RELEASE);
	resolving = 0;
	return real_memset && real_memcpy && real_memmove;
}

/*
 * The fallbacks, for the few calls before dlsym answers.  volatile, so that the compiler does
 * not turn the loops back into calls to the functions they stand in for.
 */
static void *loop_set(void *dst, int c, size_t n)
{
	volatile unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

static void *loop_move(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

static __attribute__((noinline)) void *slow_set(void *dst, int c, size_t n)
{
	return resolve() && real_memset ? real_memset(dst, c, n) : loop_set(dst, c, n);
}

static __attribute__((noinline)) void *slow_copy(void *dst, const void *src, size_t n)
{
	return resolve() && real_memcpy ? real_memcpy(dst, src, n) : loop_move(dst, src, n);
}

static __attribute__((noinline)) void *slow_move(void *dst, const void *src, size_t n)
{
	return resolve() && real_memmove ? real_memmove(dst, src, n) : loop_move(dst, src, n);
}

/* (Fast path: glibc's function known, one load and an indirect jump.) */
__attribute__((NOFRAME)) void *simrt__libc_memset(void *dst, int c, size_t n)
{
	memset_fn f = __atomic_load_n(&real_memset, __ATOMIC_RELAXED);

	return __builtin_expect(f != NULL, 1) ? f(dst, c, n) : slow_set(dst, c, n);
}

__attribute__((NOFRAME)) void *simrt__libc_memcpy(void *dst, const void *src, size_t n)
{
	memcpy_fn f = __atomic_load_n(&real_memcpy, __ATOMIC_RELAXED);

	return __builtin_expect(f != NULL, 1) ? f(dst, src, n) : slow_copy(dst, src, n);
}

__attribute__((NOFRAME)) void *simrt__libc_memmove(void *dst, const void *src, size_t n)
{
	memcpy_fn f = __atomic_load_n(&real_memmove, __ATOMIC_RELAXED);

	return __builtin_expect(f != NULL, 1) ? f(dst, src, n) : slow_move(dst, src, n);
}

/* A range the call reads or writes: counted here between windows, modeled in tsan.c. */
static inline __attribute__((always_inline)) void range(uint64_t addr, size_t n, enum coh_op op,
							 uint64_t ret)
{
	if (!simrt__range_unmodeled(addr, n, op))
		simrt__range_call(addr, n, op, ret);
}

/* A copy's ranges: the source read, then the destination written. */
static inline __attribute__((always_inline)) void copied(void *dst, const void *src, size_t n,
							  uint64_t ret)
{
	range((uintptr_t)src, n, COH_LOAD, ret);
	range((uintptr_t)dst, n, COH_STORE, ret);
}

API void *memset(void *dst, int c, size_t n)
{
	range((uintptr_t)dst, n, COH_STORE, RET);
	return simrt__libc_memset(dst, c, n);
}

API void bzero(void *dst, size_t n)
{
	range((uintptr_t)dst, n, COH_STORE, RET);
	simrt__libc_memset(dst, 0, n);
}

API void *memcpy(void *dst, const void *src, size_t n)
{
	copied(dst, src, n, RET);
	return simrt__libc_memcpy(dst, src, n);
}

API void *memmove(void *dst, const void *src, size_t n)
{
	copied(dst, src, n, RET);
	return simrt__libc_memmove(dst, src, n);
}

API void *mempcpy(void *dst, const void *src, size_t n)
{
	copied(dst, src, n, RET);
	return (char *)simrt__libc_memcpy(dst, src, n) + n;
}

/* -D_FORTIFY_SOURCE: the calls whose destination size is known but the length is not. */
API void *__memset_chk(void *dst, int c, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	range((uintptr_t)dst, n, COH_STORE, RET);
	return simrt__libc_memset(dst, c, n);
}

API void *__memcpy_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	copied(dst, src, n, RET);
	return simrt__libc_memcpy(dst, src, n);
}

API void *__memmove_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	copied(dst, src, n, RET);
	return simrt__libc_memmove(dst, src, n);
}

API void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	copied(dst, src, n, RET);
	return (char *)simrt__libc_memcpy(dst, src, n) + n;
}
