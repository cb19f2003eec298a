#ifndef RING_H
#define RING_H
#include <assert.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t	magic;	// file magic
	uint16_t	version;
	uint8_t		kind, flags;
	uint64_t	length;
} __attribute__((packed)) wire_hdr_t;

#pragma pack(push, 1)
struct disk_rec {
	char		tag;
	uint64_t	lba;
	uint32_t	crc;
};
#pragma pack(pop)

#pragma pack(4)
struct pk4 { char c; long l; short s; };
#pragma pack()

struct ring {
	alignas(64) _Atomic unsigned long head;
	const char *name;
	volatile long prod, cons;
	struct ring *next, **pprev;
	int (*cmp)(const void *, const void *);
	unsigned char bytes[4][8];
	enum { R_IDLE, R_BUSY } state;
	struct stats {
		long hits;
		long misses;
	} stats;
	double avg;
	char data[];
};

/* Keep the cache-line groups of struct ring (see the comment above it). */
static_assert(offsetof(struct ring, head) % 64 == 0, "head starts a cache line");

static inline void *ring_alloc(size_t n)
{
	struct ring *r = malloc(sizeof(*r) + n * sizeof(char));
	void *p = calloc(1, n), *q = realloc(p, 2 * n);

	return r ? r : q;
}
#endif
