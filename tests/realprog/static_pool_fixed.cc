// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * static_pool.cc fixed: a Slot per cache line (alignas(64)), so no two threads' locks share a
 * line of the line-aligned pool.
 *   usage: static_pool THREADS ITERATIONS
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>

struct alignas(64) Slot {	/* a line each */
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

/* raw memory, line-aligned: the Slots are placed in it */
alignas(64) static char pool[64 * sizeof(Slot)];
static long iterations;

static void *worker(void *arg)
{
	/* each thread places its own slot (a lock table's slots are made where they are used) */
	Slot *s = new (pool + reinterpret_cast<long>(arg) * sizeof(Slot)) Slot;

	for (long i = 0; i < iterations; i++) {
		s->lock();
		s->count++;
		s->unlock();
	}
	return reinterpret_cast<void *>(static_cast<long>(s->count));	/* read where written */
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 4, sum = 0;
	pthread_t th[64];

	iterations = argc > 2 ? std::atol(argv[2]) : 100000;
	if (n < 1 || n > 64 || iterations < 1)
		return 2;
	for (long t = 0; t < n; t++)
		pthread_create(&th[t], nullptr, worker, reinterpret_cast<void *>(t));
	for (long t = 0; t < n; t++) {
		void *r;

		pthread_join(th[t], &r);
		sum += reinterpret_cast<long>(r);
	}
	std::printf("%ld\n", sum);
	return 0;
}
