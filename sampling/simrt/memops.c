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

/*
 * Up to 16 bytes, done here: the calls the interposition adds cost more than such a copy, and
 * a program that clears or fills a small key per item (string_match) makes little else.  The
 * two (possibly overlapping) pieces are loaded before either is stored, so that it is a
 * memmove too.  (Fixed-size __builtin_memcpy: one move each, never a call.)
 */
#define SMALL 16

static inline __attribute__((always_inline)) void small_move(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	if (n >= 8) {
		uint64_t a, b;

		__builtin_memcpy(&a, s, 8);
		__builtin_memcpy(&b, s + n - 8, 8);
		__builtin_memcpy(d, &a, 8);
		__builtin_memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		__builtin_memcpy(&a, s, 4);
		__builtin_memcpy(&b, s + n - 4, 4);
		__builtin_memcpy(d, &a, 4);
		__builtin_memcpy(d + n - 4, &b, 4);
	} else if (n) {
		char a = s[0], b = s[n / 2], c = s[n - 1];

		d[0] = a;
		d[n / 2] = b;
		d[n - 1] = c;
	}
}

static inline __attribute__((always_inline)) void small_set(void *dst, int c, size_t n)
{
	uint64_t v = 0x0101010101010101ULL * (uint8_t)c;
	char *d = dst;

	if (n >= 8) {
		__builtin_memcpy(d, &v, 8);
		__builtin_memcpy(d + n - 8, &v, 8);
	} else if (n >= 4) {
		__builtin_memcpy(d, &v, 4);
		__builtin_memcpy(d + n - 4, &v, 4);
	} else if (n) {
		d[0] = d[n / 2] = d[n - 1] = (char)c;
	}
}

/* (Fast path: small, done here; else glibc's function known, one load and an indirect jump.) */
__attribute__((NOFRAME)) void *simrt__libc_memset(void *dst, int c, size_t n)
{
	memset_fn f = __atomic_load_n(&real_memset, __ATOMIC_RELAXED);

	if (n <= SMALL) {
		small_set(dst, c, n);
		return dst;
	}
	return __builtin_expect(f != NULL, 1) ? f(dst, c, n) : slow_set(dst, c, n);
}

__attribute__((NOFRAME)) void *simrt__libc_memcpy(void *dst, const void *src, size_t n)
{
	memcpy_fn f = __atomic_load_n(&real_memcpy, __ATOMIC_RELAXED);

	if (n <= SMALL) {
		small_move(dst, src, n);
		return dst;
	}
	return __builtin_expect(f != NULL, 1) ? f(dst, src, n) : slow_copy(dst, src, n);
}

__attribute__((NOFRAME)) void *simrt__libc_memmove(void *dst, const void *src, size_t n)
{
	memcpy_fn f = __atomic_load_n(&real_memmove, __ATOMIC_RELAXED);

	if (n <= SMALL) {
		small_move(dst, src, n);
		return dst;
	}
	return __builtin_expect(f != NULL, 1) ? f(dst, src, n) : slow_move(dst, src, n);
}

/*
 * In a window (or the exact start): the ranges modeled (tsan.c), then the work.  Out of line and
 * tail-called, so that the calls' fast path, between windows, saves no register.
 */
static __attribute__((noinline)) void *set_modeled(void *dst, int c, size_t n, uint64_t ret)
{
	simrt__range_call((uintptr_t)dst, n, COH_STORE, ret);
	return simrt__libc_memset(dst, c, n);
}

/* A copy's ranges: the source read, then the destination written. */
static __attribute__((noinline)) void *copy_modeled(void *dst, const void *src, size_t n,
						    uint64_t ret, bool move)
{
	simrt__range_call((uintptr_t)src, n, COH_LOAD, ret);
	simrt__range_call((uintptr_t)dst, n, COH_STORE, ret);
	return move ? simrt__libc_memmove(dst, src, n) : simrt__libc_memcpy(dst, src, n);
}

/* Whether the ranges are to be modeled; between windows a copy's source is only counted. */
#define SET_MODELED() (!simrt__range_unmodeled(0, 0, COH_STORE))
#define COPY_MODELED(src, n) (!simrt__range_unmodeled((uintptr_t)(src), (n), COH_LOAD))

API void *memset(void *dst, int c, size_t n)
{
	if (SET_MODELED())
		return set_modeled(dst, c, n, RET);
	return simrt__libc_memset(dst, c, n);
}

API void bzero(void *dst, size_t n)
{
	if (SET_MODELED())
		set_modeled(dst, 0, n, RET);
	else
		simrt__libc_memset(dst, 0, n);
}

API void *memcpy(void *dst, const void *src, size_t n)
{
	if (COPY_MODELED(src, n))
		return copy_modeled(dst, src, n, RET, false);
	return simrt__libc_memcpy(dst, src, n);
}

API void *memmove(void *dst, const void *src, size_t n)
{
	if (COPY_MODELED(src, n))
		return copy_modeled(dst, src, n, RET, true);
	return simrt__libc_memmove(dst, src, n);
}

API void *mempcpy(void *dst, const void *src, size_t n)
{
	if (COPY_MODELED(src, n))
		return (char *)copy_modeled(dst, src, n, RET, false) + n;
	return (char *)simrt__libc_memcpy(dst, src, n) + n;
}

/* -D_FORTIFY_SOURCE: the calls whose destination size is known but the length is not. */
API void *__memset_chk(void *dst, int c, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	if (SET_MODELED())
		return set_modeled(dst, c, n, RET);
	return simrt__libc_memset(dst, c, n);
}

API void *__memcpy_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	if (COPY_MODELED(src, n))
		return copy_modeled(dst, src, n, RET, false);
	return simrt__libc_memcpy(dst, src, n);
}

API void *__memmove_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	if (COPY_MODELED(src, n))
		return copy_modeled(dst, src, n, RET, true);
	return simrt__libc_memmove(dst, src, n);
}

API void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (room < n)
		__chk_fail();
	if (COPY_MODELED(src, n))
		return (char *)copy_modeled(dst, src, n, RET, false) + n;
	return (char *)simrt__libc_memcpy(dst, src, n) + n;
}
