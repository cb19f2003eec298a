// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A pool of small spinlocked counters built with placement new in raw memory, as allocators
 * and lock tables do: `arena = malloc(n * sizeof(Slot))`, each thread placing `new (p) Slot`
 * in its own slot and taking that slot's lock.  Eight-byte slots: neighbouring threads' locks share a
 * cache line (false sharing between locks).  The allocation has no type (a void *): lineup
 * types the block by the accesses made through Slot's methods (`this`) and names the
 * elements arena[N].  The fix (spinlock_pool_fixed.cc): a slot per cache line.
 *   usage: spinlock_pool THREADS ITERATIONS
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>

struct Slot {
	std::atomic<bool> locked{false};
	int count = 0;

	void lock()
	{
		while (locked.exchange(true, std::memory_order_acquire))
			while (locked.load(std::memory_order_relaxed))
				;
	}
	void unlock() { locked.store(false, std::memory_order_release); }
};

static void *arena;	/* raw memory: the Slots are placed in it */
static long iterations;

static void *worker(void *arg)
{
	/* each thread places its own slot (a lock table's slots are made where they are used) */
	Slot *s = new (static_cast<Slot *>(arena) + reinterpret_cast<long>(arg)) Slot;

	for (long i = 0; i < iterations; i++) {
		s->lock();
		s->count++;
		s->unlock();
	}
	return nullptr;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 4, sum = 0;
	pthread_t th[64];

	iterations = argc > 2 ? std::atol(argv[2]) : 100000;
	if (n < 1 || n > 64 || iterations < 1)
		return 2;
	arena = std::malloc(n * sizeof(Slot));
	if (!arena)
		return 1;
	for (long t = 0; t < n; t++)
		pthread_create(&th[t], nullptr, worker, reinterpret_cast<void *>(t));
	for (long t = 0; t < n; t++) {
		pthread_join(th[t], nullptr);
		sum += static_cast<Slot *>(arena)[t].count;
	}
	std::printf("%ld\n", sum);
	std::free(arena);
	return 0;
}
