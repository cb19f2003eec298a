// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every kind of access the ThreadSanitizer instrumentation reports, with results checked: the
 * collector's runtime performs the atomic operations itself, so a wrong one shows here.
 * `abi [ITERATIONS [THREADS]]`; prints "ok" and the wall time, or the first wrong result.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "workload.h"

static _Atomic char c8;
static _Atomic short c16;
static _Atomic int c32;
static _Atomic long c64;
static _Atomic unsigned long bits;
static _Atomic long cas_counter;
static __int128 c128 __attribute__((aligned(16)));
static long plain[8];
static char buf[256];

struct __attribute__((packed)) unaligned {
	char pad;
	long value;
};
static struct unaligned un[4];

static int bad;
static long ignored[8];

/* ThreadSanitizer's brackets for accesses a tool must not look at (the runtime honours them). */
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);

#define EXPECT(cond)                                                                \
	do {                                                                        \
		if (!(cond)) {                                                      \
			fprintf(stderr, "abi.c:%d: wrong: %s\n", __LINE__, #cond);  \
			bad = 1;                                                    \
		}                                                                   \
	} while (0)

static void setup(void)
{
	/* One thread: each operation's value and return. */
	EXPECT(atomic_fetch_add(&c8, 5) == 0 && atomic_load(&c8) == 5);
	EXPECT(atomic_fetch_sub(&c16, 3) == 0 && atomic_load(&c16) == -3);
	EXPECT(atomic_fetch_or(&c32, 0x30) == 0 && atomic_fetch_and(&c32, 0x10) == 0x30);
	EXPECT(atomic_fetch_xor(&c32, 0x11) == 0x10 && atomic_load(&c32) == 0x01);
	EXPECT(__atomic_fetch_nand(&plain[7], 0, __ATOMIC_SEQ_CST) == 0 && plain[7] == -1);
	EXPECT(atomic_exchange(&c64, 7) == 0 && atomic_load(&c64) == 7);
	long e = 6;
	EXPECT(!atomic_compare_exchange_strong(&c64, &e, 9) && e == 7);
	EXPECT(atomic_compare_exchange_strong(&c64, &e, 9) && atomic_load(&c64) == 9);
	e = 9;
	while (!atomic_compare_exchange_weak(&c64, &e, 10))
		;
	EXPECT(__sync_val_compare_and_swap(&plain[0], 0, 4) == 0 && plain[0] == 4);
	EXPECT(__sync_bool_compare_and_swap(&plain[0], 4, 5) && plain[0] == 5);
	atomic_store_explicit(&c32, 42, memory_order_release);
	EXPECT(atomic_load_explicit(&c32, memory_order_acquire) == 42);
	atomic_thread_fence(memory_order_seq_cst);
	atomic_signal_fence(memory_order_seq_cst);
	__atomic_fetch_add(&c128, 1, __ATOMIC_SEQ_CST);
	EXPECT(__atomic_load_n(&c128, __ATOMIC_SEQ_CST) == 1);
	/* Plain, unaligned and range accesses. */
	un[1].value = 0x1122334455667788;
	EXPECT(un[1].value == 0x1122334455667788);
	memset(buf, 'x', sizeof(buf));
	memcpy(buf + 3, "lineup", 6);
	memmove(buf + 1, buf + 3, 6);
	EXPECT(!memcmp(buf, "xlineupup", 9));
	atomic_store(&c64, 0);
	atomic_store(&bits, 1);
	__tsan_ignore_thread_begin();
	for (int i = 0; i < 20000; i++)
		ignored[i & 7]++; /* not recorded */
	__tsan_ignore_thread_end();
}

static void body(long t)
{
	for (long i = 0; i < iterations; i++) {
		long v = atomic_load(&cas_counter);

		atomic_fetch_add(&c64, 1);
		atomic_fetch_or(&bits, 1);		/* always redundant */
		while (!atomic_compare_exchange_weak(&cas_counter, &v, v + 1))
			;
		plain[1 + (t & 3)]++;
	}
}

static void report(void)
{
	EXPECT(atomic_load(&c64) == iterations * nthreads);
	EXPECT(atomic_load(&cas_counter) == iterations * nthreads);
	EXPECT(atomic_load(&bits) == 1);
	if (!bad)
		puts("ok");
}
