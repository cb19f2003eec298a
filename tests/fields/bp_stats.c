// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two threads bump one member each of a global struct and of one at a fixed address
 * (tests/fields/breakpoint.sh watches them with perf record -e mem:ADDR:rw).  The fixed one
 * is reached through a pointer: only the accessing instruction's operand types it.
 * argv[1]: the iterations.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#define FIXED_ADDR 0x10000000UL

struct stats {
	long hits;
	long misses;
	char name[48];
	long bytes;
};

struct stats gstats;
struct stats *fixed;
static long iterations;

static void *hitter(void *arg)
{
	for (long i = 0; i < iterations; i++) {
		gstats.hits++;
		fixed->hits++;
		__asm__ volatile("" ::: "memory");
	}
	return arg;
}

static void *misser(void *arg)
{
	for (long i = 0; i < iterations; i++) {
		gstats.misses++;
		fixed->misses++;
		__asm__ volatile("" ::: "memory");
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	void *p = mmap((void *)FIXED_ADDR, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != (void *)FIXED_ADDR)
		return 2;
	fixed = p;
	iterations = argc > 1 ? atol(argv[1]) : 100000;
	pthread_create(&a, NULL, hitter, NULL);
	pthread_create(&b, NULL, misser, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
