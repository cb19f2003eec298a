// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seed program of tests/fuzz/debuginfo_fuzz.c: small, but with what the attribution side
 * reads (a global struct, a heap struct reached through pointers in registers, an inline
 * function, a loop whose local pointer gets a location list, an atomic, an allocation site,
 * nested and anonymous members, a typedef'd anonymous struct, a thread-local and a per-CPU
 * section variable).  tests/fuzz/debuginfo_run.sh compiles it a dozen ways, e.g.
 *
 *	gcc -O2 -gdwarf-5 -c debuginfo_seed.c -o seed-gcc-O2-5.o
 *	clang -O0 -gdwarf-4 debuginfo_seed.c -o seed-clang-O0-4.exe
 *	clang -O1 -g -fsanitize=thread -c debuginfo_seed.c (linked with stub __tsan_* hooks)
 */
#include <stdlib.h>

struct counter {
	long hits;
	long misses;
	char name[12];
	unsigned int flags : 3, level : 5;
	struct counter *next;
};

typedef struct {
	int lock;
	union {
		long owner;
		void *waiter;
	};
} seed_lock_t;

struct stats {
	int nr;
	struct counter first;
	struct counter slot[4];
	seed_lock_t lock;
	long tail[3];
};

struct stats g_stats;
struct stats *g_current;
static long g_hist[8];
static __thread long t_calls;
/* as a vmlinux's per-CPU variables lie (dwarf/symbols.h's symbols__percpu_var) */
__attribute__((section(".data..percpu"))) long pcpu_hits[2] = { 1, 2 };

static inline void counter_bump(struct counter *c, long n)
{
	__atomic_fetch_add(&c->hits, n, __ATOMIC_RELAXED);
	if (n > 2)
		c->misses++;
}

__attribute__((noinline)) long counter_walk(const struct counter *head)
{
	long t = 0;

	for (const struct counter *p = head; p; p = p->next)
		t += p->hits + p->level;
	return t;
}

__attribute__((noinline)) struct counter *counter_new(long hits)
{
	struct counter *c = malloc(sizeof(*c));

	t_calls++;
	if (!c)
		return NULL;
	c->hits = hits;
	c->misses = 0;
	c->next = NULL;
	c->level = 1;
	return c;
}

__attribute__((noinline)) void stats_lock(struct stats *s, long who)
{
	__atomic_exchange_n(&s->lock.lock, 1, __ATOMIC_ACQUIRE);
	s->lock.owner = who;
	s->first.hits += s->nr;
}

int main(int argc, char **argv)
{
	struct counter *a = counter_new(argc), *b = counter_new(2);
	long t;

	(void)argv;
	if (!a || !b)
		return 1;
	a->next = b;
	g_current = malloc(sizeof(*g_current));
	if (!g_current)
		return 1;
	g_current->nr = argc;
	stats_lock(g_current, argc);
	counter_bump(a, argc);
	counter_bump(&g_stats.slot[argc & 3], 3);
	g_hist[argc & 7]++;
	pcpu_hits[argc & 1]++;
	g_stats.nr = argc;
	t = counter_walk(a) + g_current->first.hits;
	free(g_current);
	free(b);
	free(a);
	return (int)(t & 1);
}
