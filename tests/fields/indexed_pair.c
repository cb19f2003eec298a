// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two threads each bump one member of a calloc'd pair (tests/fields/indexed.sh), then of a
 * global one.  gcc -O2 gives each member its own addq $1,(%rdx) / addq $1,0x8(%rdx); clang -O2
 * folds both into one addq $1,(%rcx,%rsi,1) whose index says which.  peek() reads a member
 * with no index.  Prints the heap pair's address; argv[1]: the iterations (100000).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct pair {
	long a;
	long b;
};

struct pair g;

struct arg {
	struct pair *p;
	int which;
	long n;
};

__attribute__((noinline)) static void *worker(void *v)
{
	struct arg *w = v;

	for (long i = 0; i < w->n; i++) {
		if (w->which)
			w->p->b++;
		else
			w->p->a++;
	}
	return NULL;
}

__attribute__((noinline)) long peek(const struct pair *p)
{
	return p->a;
}

static void run(struct pair *p, long n)
{
	struct arg args[2] = { { p, 0, n }, { p, 1, n } };
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &args[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	struct pair *p = calloc(1, sizeof(*p));
	long n = argc > 1 ? atol(argv[1]) : 100000;

	if (!p)
		return 1;
	printf("%p\n", (void *)p);
	fflush(stdout);
	run(p, n);
	run(&g, n);
	return (int)(peek(p) + peek(&g)) & 1;
}
