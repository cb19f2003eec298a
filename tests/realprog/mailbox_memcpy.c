/*
 * Per-thread mailboxes in one shared table: each thread publishes its latest record into its
 * own slot with memcpy and reads its previous record back the same way (a status table, a
 * double-buffered result, a per-worker "last seen" entry).  The slots are 24-byte structs
 * side by side, so two or three threads' slots share a cache line and every publish writes a
 * line another thread has just written.  The fix (mailbox_memcpy_fixed.c) aligns the slot type
 * to the cache line, as ____cacheline_aligned would.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mailbox {
	long seq;
	long sum;
	char tag[8];
};

static struct mailbox slots[64] __attribute__((aligned(64))); /* the table, not its slots */
static long items = 200000;

/* The mailbox's accessors (a library's, in a translation unit of their own in a real program). */
static __attribute__((noinline)) void mailbox_read(struct mailbox *dst, const struct mailbox *box)
{
	memcpy(dst, box, sizeof(*dst));
}

static __attribute__((noinline)) void mailbox_post(struct mailbox *box, const struct mailbox *src)
{
	memcpy(box, src, sizeof(*box));
}

static void *work(void *arg)
{
	long me = (long)arg;
	struct mailbox cur, prev;
	long delta = 0;

	memset(&cur, 0, sizeof(cur));
	strcpy(cur.tag, "worker");
	for (long i = 0; i < items; i++) {
		mailbox_read(&prev, &slots[me]);
		cur.seq = prev.seq + 1;
		cur.sum = prev.sum + (i & 7);
		delta += cur.sum - prev.sum;
		mailbox_post(&slots[me], &cur);
	}
	return (void *)delta;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t tid[64];
	long total = 0;

	if (argc > 2)
		items = atol(argv[2]);
	if (n < 1 || n > 64)
		return 1;
	for (long i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, work, (void *)i))
			return 1;
	for (int i = 0; i < n; i++) {
		void *d;

		pthread_join(tid[i], &d);
		total += (long)d + slots[i].seq;
	}
	printf("%ld\n", total);
	return 0;
}
