// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pthread mutexes and spinlocks, interposed: their lock words live in the program's objects
 * (a mutex beside a counter is a classic false-sharing pair), but glibc's code that touches
 * them is not instrumented.  Each call is modeled as the accesses glibc makes on x86-64 --
 * lock: a locked RMW of __lock, then stores to __owner and __nusers; unlock: the stores, then
 * the RMW -- at the caller's IP (the source line of the pthread_ call), and forwarded to glibc
 * (its __pthread_mutex_* names).  Spinlocks are implemented here, exactly as
 * glibc does on x86-64 (1 free, taken by the `lock decl` that reaches 0; pthread_spin_init,
 * not interposed, stores 1), since glibc exports no second name for them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sampling/simrt/access.h"
#include "sampling/simrt/simrt.h"

/*
 * glibc's second names for the mutex calls are compatibility symbols (no default version), so
 * they are bound by version explicitly; x86-64's base version is GLIBC_2.2.5.
 */
extern int real_mutex_lock(pthread_mutex_t *m);
extern int real_mutex_trylock(pthread_mutex_t *m);
extern int real_mutex_unlock(pthread_mutex_t *m);
__asm__(".symver real_mutex_lock, __pthread_mutex_lock@GLIBC_2.2.5");
__asm__(".symver real_mutex_trylock, __pthread_mutex_trylock@GLIBC_2.2.5");
__asm__(".symver real_mutex_unlock, __pthread_mutex_unlock@GLIBC_2.2.5");

#define RET ((uint64_t)(uintptr_t)__builtin_return_address(0))
#define API __attribute__((visibility("default"), noinline))

/* The runtime's own locking: glibc's, unseen by the model. */
int simrt__mutex_lock(pthread_mutex_t *m)
{
	return real_mutex_lock(m);
}

int simrt__mutex_unlock(pthread_mutex_t *m)
{
	return real_mutex_unlock(m);
}

/* glibc's struct __pthread_mutex_s on x86-64: __lock at 0, __count 4, __owner 8, __nusers 12. */
enum { MUTEX_LOCK = 0, MUTEX_OWNER = 8, MUTEX_NUSERS = 12 };

static void model_locked(pthread_mutex_t *m, uint64_t ret)
{
	uintptr_t a = (uintptr_t)m;

	simrt__access(a + MUTEX_LOCK, 4, COH_RMW, ret);
	simrt__access(a + MUTEX_OWNER, 4, COH_STORE, ret);
	simrt__access(a + MUTEX_NUSERS, 4, COH_STORE, ret);
}

API int pthread_mutex_lock(pthread_mutex_t *m)
{
	uint64_t ret = RET;
	int rc = real_mutex_lock(m);

	if (!rc)
		model_locked(m, ret);
	return rc;
}

API int pthread_mutex_trylock(pthread_mutex_t *m)
{
	uint64_t ret = RET;
	int rc = real_mutex_trylock(m);

	if (!rc)
		model_locked(m, ret);
	else /* a failed trylock is still a locked cmpxchg on the lock word */
		simrt__access((uintptr_t)m + MUTEX_LOCK, 4, COH_RMW, ret);
	return rc;
}

API int pthread_mutex_unlock(pthread_mutex_t *m)
{
	uint64_t ret = RET;
	uintptr_t a = (uintptr_t)m;

	simrt__access(a + MUTEX_OWNER, 4, COH_STORE, ret);
	simrt__access(a + MUTEX_NUSERS, 4, COH_STORE, ret);
	simrt__access(a + MUTEX_LOCK, 4, COH_RMW, ret);
	return real_mutex_unlock(m);
}

API int pthread_spin_lock(pthread_spinlock_t *l)
{
	uint64_t ret = RET;

	for (;;) {
		simrt__access((uintptr_t)l, sizeof(*l), COH_RMW, ret);
		if (__atomic_sub_fetch(l, 1, __ATOMIC_ACQUIRE) == 0)
			return 0;
		/* Spin reading, as glibc does, until the lock looks free. */
		do {
			__builtin_ia32_pause();
			simrt__access((uintptr_t)l, sizeof(*l), COH_LOAD, ret);
		} while (__atomic_load_n(l, __ATOMIC_RELAXED) <= 0);
	}
}

API int pthread_spin_trylock(pthread_spinlock_t *l)
{
	int free = 1;

	simrt__access((uintptr_t)l, sizeof(*l), COH_RMW, RET);
	return __atomic_compare_exchange_n(l, &free, 0, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED) ? 0 : EBUSY;
}

API int pthread_spin_unlock(pthread_spinlock_t *l)
{
	simrt__access((uintptr_t)l, sizeof(*l), COH_STORE, RET);
	__atomic_store_n(l, 1, __ATOMIC_RELEASE);
	return 0;
}
