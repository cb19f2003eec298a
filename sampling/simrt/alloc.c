// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation log: malloc and friends are interposed (the executable's definitions win over
 * libc's, and libc's own calls go through them too) and forwarded to glibc's __libc_*
 * entry points, so no dlsym bootstrap is needed.  Each allocation becomes a
 * lineup-sim/alloc/ sample (ip = call site, addr = block, period = size), each free a
 * lineup-sim/free/ one, up to LINEUP_SIM_MAX_ALLOCS allocations; the runtime's own
 * allocations and those made before __tsan_init are not logged.
 *
 * C++'s operator new and new[] are replaced too (as a program may replace them): their block
 * is logged at their caller's call site, where the code says what it is (`g = new Stats`),
 * not at libstdc++'s call of malloc inside operator new, where nothing does.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sampling/simrt/simrt.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static atomic_uint_fast64_t nr_logged;

static void log_event(enum simrt_event ev, void *p, uint64_t size, uint64_t ret)
{
	struct simrt_thread *t;

	if (!p || simrt__state != 1 || simrt__inside())
		return;
	if (ev == SIMRT_EV_ALLOC &&
	    atomic_fetch_add_explicit(&nr_logged, 1, memory_order_relaxed) >= simrt__max_allocs)
		return;
	t = simrt__thread();
	if (!t)
		return;
	/* data_src: PERF_MEM_OP_NA, so perf c2c counts these as unparsable, not as accesses. */
	simrt__emit(t, ev, simrt__ip(ret), (uintptr_t)p, 1, 0, size ? size : 1);
}

#define RET ((uint64_t)(uintptr_t)__builtin_return_address(0))
#define API __attribute__((visibility("default")))

API void *malloc(size_t size)
{
	void *p = __libc_malloc(size);

	log_event(SIMRT_EV_ALLOC, p, size, RET);
	return p;
}

API void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);

	log_event(SIMRT_EV_ALLOC, p, (uint64_t)n * size, RET);
	return p;
}

API void *realloc(void *old, size_t size)
{
	void *p = __libc_realloc(old, size);

	if (p && old != p)
		log_event(SIMRT_EV_FREE, old, 0, RET);
	if (p)
		log_event(SIMRT_EV_ALLOC, p, size, RET);
	return p;
}

API void free(void *p)
{
	log_event(SIMRT_EV_FREE, p, 0, RET);
	__libc_free(p);
}

API int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (!align || (align & (align - 1)) || align % sizeof(void *))
		return EINVAL;
	p = __libc_memalign(align, size);
	if (!p)
		return ENOMEM;
	*out = p;
	log_event(SIMRT_EV_ALLOC, p, size, RET);
	return 0;
}

API void *aligned_alloc(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);

	log_event(SIMRT_EV_ALLOC, p, size, RET);
	return p;
}

API void *memalign(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);

	log_event(SIMRT_EV_ALLOC, p, size, RET);
	return p;
}

/*
 * operator new and new[], as libstdc++'s do it (malloc, else the new_handler and again, else
 * std::bad_alloc or, nothrow, NULL), through libstdc++'s std::get_new_handler and
 * std::__throw_bad_alloc where the program has it (without libstdc++, no handler and no
 * exceptions: abort).  A nothrow form whose handler throws lets it through.
 */
extern void (*_ZSt15get_new_handlerv(void))(void) __attribute__((weak));
extern void _ZSt17__throw_bad_allocv(void) __attribute__((weak, noreturn));

static void *new_alloc(size_t size, size_t align, bool nothrow, uint64_t site)
{
	if (!size)
		size = 1;
	if (align)
		size = (size + align - 1) & ~(align - 1);	/* what aligned_alloc asks */
	for (;;) {
		void *p = align ? __libc_memalign(align, size) : __libc_malloc(size);
		void (*handler)(void);

		if (p) {
			log_event(SIMRT_EV_ALLOC, p, size, site);
			return p;
		}
		handler = _ZSt15get_new_handlerv ? _ZSt15get_new_handlerv() : NULL;
		if (handler) {
			handler();
			continue;
		}
		if (nothrow)
			return NULL;
		if (_ZSt17__throw_bad_allocv)
			_ZSt17__throw_bad_allocv();
		abort();
	}
}

/* operator new (size_t), new[] (size_t), with std::nothrow_t const &, std::align_val_t, both */
API void *_Znwm(size_t size)
{
	return new_alloc(size, 0, false, RET);
}

API void *_Znam(size_t size)
{
	return new_alloc(size, 0, false, RET);
}

API void *_ZnwmRKSt9nothrow_t(size_t size, const void *nothrow)
{
	(void)nothrow;
	return new_alloc(size, 0, true, RET);
}

API void *_ZnamRKSt9nothrow_t(size_t size, const void *nothrow)
{
	(void)nothrow;
	return new_alloc(size, 0, true, RET);
}

API void *_ZnwmSt11align_val_t(size_t size, size_t align)
{
	return new_alloc(size, align, false, RET);
}

API void *_ZnamSt11align_val_t(size_t size, size_t align)
{
	return new_alloc(size, align, false, RET);
}

API void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t size, size_t align, const void *nothrow)
{
	(void)nothrow;
	return new_alloc(size, align, true, RET);
}

API void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t size, size_t align, const void *nothrow)
{
	(void)nothrow;
	return new_alloc(size, align, true, RET);
}
