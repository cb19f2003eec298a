// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pthread mutexes and spinlocks, interposed: their lock words live in the program's objects
 * (a mutex beside a counter is a classic false-sharing pair), but glibc's code that touches
 * them is not instrumented.  Each call is modeled as the accesses glibc makes on x86-64 --
 * lock: a locked RMW of __lock, then stores to __owner and __nusers; unlock: the stores, then
 * the RMW -- at the caller's IP (the source line of the pthread_ call), and forwarded to glibc
 * (its __pthread_mutex_* names).  Spinlocks are implemented here, exactly as
 * glibc does on x86-64 (1 free, taken by the `lock decl` that reaches 0; pthread_spin_init,
 * not interposed, stores 1), since glibc exports no second name for them.  Reader-writer
 * locks: every reader's lock and unlock is an RMW of the one __readers word, the classic
 * read-mostly lock that does not scale (true sharing among readers).
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
extern int real_rwlock_rdlock(pthread_rwlock_t *l);
extern int real_rwlock_tryrdlock(pthread_rwlock_t *l);
extern int real_rwlock_wrlock(pthread_rwlock_t *l);
extern int real_rwlock_trywrlock(pthread_rwlock_t *l);
extern int real_rwlock_unlock(pthread_rwlock_t *l);
__asm__(".symver real_rwlock_rdlock, __pthread_rwlock_rdlock@GLIBC_2.2.5");
__asm__(".symver real_rwlock_tryrdlock, __pthread_rwlock_tryrdlock@GLIBC_2.2.5");
__asm__(".symver real_rwlock_wrlock, __pthread_rwlock_wrlock@GLIBC_2.2.5");
__asm__(".symver real_rwlock_trywrlock, __pthread_rwlock_trywrlock@GLIBC_2.2.5");
__asm__(".symver real_rwlock_unlock, __pthread_rwlock_unlock@GLIBC_2.2.5");

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

/*
 * What glibc's code does to a lock object in one call: 4-byte words at offsets into the object,
 * touched in this order.  Tables, so that each call's model reads as the list it is; the loop
 * over a constant table is unrolled into the same calls as written out.
 */
struct lock_word {
	unsigned int off;
	enum coh_op op;
};

struct lock_model {
	unsigned int nr;
	struct lock_word word[3];
};

/* glibc's struct __pthread_mutex_s on x86-64: __lock at 0, __count 4, __owner 8, __nusers 12. */
enum { MUTEX_LOCK = 0, MUTEX_OWNER = 8, MUTEX_NUSERS = 12 };

static const struct lock_model mutex_locked = {
	3, { { MUTEX_LOCK, COH_RMW }, { MUTEX_OWNER, COH_STORE }, { MUTEX_NUSERS, COH_STORE } }
};
/* A failed trylock is still a locked cmpxchg on the lock word. */
static const struct lock_model mutex_busy = { 1, { { MUTEX_LOCK, COH_RMW } } };
static const struct lock_model mutex_unlocked = {
	3, { { MUTEX_OWNER, COH_STORE }, { MUTEX_NUSERS, COH_STORE }, { MUTEX_LOCK, COH_RMW } }
};

/* glibc's struct __pthread_rwlock_arch_t on x86-64: __readers at 0, __cur_writer 24, __flags 48. */
enum { RW_READERS = 0, RW_CUR_WRITER = 24, RW_FLAGS = 48 };

static const struct lock_model rw_rdlocked = {
	2, { { RW_READERS, COH_RMW }, { RW_FLAGS, COH_LOAD } }
};
static const struct lock_model rw_wrlocked = {
	2, { { RW_READERS, COH_RMW }, { RW_CUR_WRITER, COH_STORE } }
};
/* A failed trylock only reads __readers. */
static const struct lock_model rw_busy = { 1, { { RW_READERS, COH_LOAD } } };

/* A blocking call that failed (EDEADLK, EINVAL...) is not modeled. */
static const struct lock_model untouched = { 0 };

static inline void model_words(const void *lock, const struct lock_model *m, uint64_t ret)
{
#pragma GCC unroll 3
	for (unsigned int i = 0; i < m->nr; i++)
		simrt__sync((uintptr_t)lock + m->word[i].off, 4, m->word[i].op, ret);
}

/* A call glibc returned @rc from: @locked's words if it took the lock, else @busy's. */
static inline int modeled(const void *lock, int rc, const struct lock_model *locked,
			  const struct lock_model *busy, uint64_t ret)
{
	if (!rc)
		model_words(lock, locked, ret);
	else
		model_words(lock, busy, ret);
	return rc;
}

API int pthread_mutex_lock(pthread_mutex_t *m)
{
	/* Taking turns (turns.c), a thread about to block on a mutex gives the baton away
	 * first: its holder may be waiting for the baton. */
	if (simrt__turns) {
		int rc = real_mutex_trylock(m);

		/* taken (a robust mutex whose owner died is taken too: EOWNERDEAD) */
		if (rc == 0 || rc == EOWNERDEAD) {
			model_words(m, &mutex_locked, RET);
			return rc;
		}
	}
	simrt__turn_away(simrt__cur);
	return modeled(m, real_mutex_lock(m), &mutex_locked, &untouched, RET);
}

API int pthread_mutex_trylock(pthread_mutex_t *m)
{
	return modeled(m, real_mutex_trylock(m), &mutex_locked, &mutex_busy, RET);
}

API int pthread_mutex_unlock(pthread_mutex_t *m)
{
	model_words(m, &mutex_unlocked, RET);
	return real_mutex_unlock(m);
}

API int pthread_spin_lock(pthread_spinlock_t *l)
{
	uint64_t ret = RET;

	for (;;) {
		simrt__sync((uintptr_t)l, sizeof(*l), COH_RMW, ret);
		if (__atomic_sub_fetch(l, 1, __ATOMIC_ACQUIRE) == 0)
			return 0;
		/* Spin reading, as glibc does, until the lock looks free. */
		do {
			__builtin_ia32_pause();
			simrt__sync((uintptr_t)l, sizeof(*l), COH_LOAD, ret);
		} while (__atomic_load_n(l, __ATOMIC_RELAXED) <= 0);
	}
}

API int pthread_spin_trylock(pthread_spinlock_t *l)
{
	int free = 1;

	simrt__sync((uintptr_t)l, sizeof(*l), COH_RMW, RET);
	return __atomic_compare_exchange_n(l, &free, 0, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED) ? 0 : EBUSY;
}

API int pthread_spin_unlock(pthread_spinlock_t *l)
{
	simrt__sync((uintptr_t)l, sizeof(*l), COH_STORE, RET);
	__atomic_store_n(l, 1, __ATOMIC_RELEASE);
	return 0;
}

API int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	if (simrt__turns && real_rwlock_tryrdlock(l) == 0)
		return modeled(l, 0, &rw_rdlocked, &untouched, RET);
	simrt__turn_away(simrt__cur);
	return modeled(l, real_rwlock_rdlock(l), &rw_rdlocked, &untouched, RET);
}

API int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	return modeled(l, real_rwlock_tryrdlock(l), &rw_rdlocked, &rw_busy, RET);
}

API int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	if (simrt__turns && real_rwlock_trywrlock(l) == 0)
		return modeled(l, 0, &rw_wrlocked, &untouched, RET);
	simrt__turn_away(simrt__cur);
	return modeled(l, real_rwlock_wrlock(l), &rw_wrlocked, &untouched, RET);
}

API int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	return modeled(l, real_rwlock_trywrlock(l), &rw_wrlocked, &rw_busy, RET);
}

API int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	uint64_t ret = RET;
	struct simrt_thread *t = simrt__cur;
	int writer = __atomic_load_n((int *)((uintptr_t)l + RW_CUR_WRITER), __ATOMIC_RELAXED);

	/* glibc records the writer's tid in __cur_writer, and clears it on the writer's unlock. */
	if (t && (uint32_t)writer == t->tid)
		simrt__sync((uintptr_t)l + RW_CUR_WRITER, 4, COH_STORE, ret);
	simrt__sync((uintptr_t)l + RW_READERS, 4, COH_RMW, ret);
	return real_rwlock_unlock(l);
}
