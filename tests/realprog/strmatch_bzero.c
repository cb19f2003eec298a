/*
 * Phoenix string_match's shape: each thread hashes its share of the words, clearing its own
 * small key buffer with bzero and copying each word into it with memcpy.  The buffers come from
 * malloc one after the other, 16 bytes each, so the threads' buffers share a cache line and
 * every bzero writes a line the other thread has just written.  The fix
 * (strmatch_bzero_fixed.c) gives each buffer a line of its own: aligned_alloc(64, 64).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KEY_LEN 16

static long items = 200000;
static const char *const words[] = { "apple", "kernel", "cache", "line", "false", "sharing" };

static unsigned long hash_key(const char *k)
{
	unsigned long h = 5381;

	for (int i = 0; i < KEY_LEN && k[i]; i++)
		h = h * 33 + (unsigned char)k[i];
	return h;
}

static void *work(void *arg)
{
	char *key = arg;
	unsigned long hits = 0;

	for (long i = 0; i < items; i++) {
		const char *word = words[i % 6];

		size_t len = strlen(word);

		bzero(key, KEY_LEN);
		memcpy(key, word, len < KEY_LEN ? len : KEY_LEN - 1);
		if (hash_key(key) % 7 == 3)
			hits++;
	}
	return (void *)hits;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t tid[64];
	char *keys[64];
	unsigned long hits = 0;

	if (argc > 2)
		items = atol(argv[2]);
	if (n < 1 || n > 64)
		return 1;
	/* All the buffers first, as the threads' arguments are: one after the other. */
	for (int i = 0; i < n; i++) {
		char *key = malloc(KEY_LEN);

		if (!key)
			return 1;
		keys[i] = key;
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, work, keys[i]))
			return 1;
	for (int i = 0; i < n; i++) {
		void *h;

		pthread_join(tid[i], &h);
		hits += (unsigned long)h;
	}
	printf("%lu\n", hits);
	return 0;
}
