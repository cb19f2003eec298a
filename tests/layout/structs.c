// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Layout oracle test program: structs with every feature the layout printer has to get right.
 * tests/layout/user.sh compiles it with gcc and clang, -gdwarf-4/-gdwarf-5, -O0/-O2:
 *   $CC -g -gdwarf-$V -O$O -c structs.c -o structs.o
 * and requires `lineup layout structs.o` to print exactly what `pahole structs.o` prints.
 */
#include <stddef.h>
#include <stdint.h>

#include "hd_struct.h"

/* bitfields: across storage units, mixed unit types, an explicit :0, a trailing bit padding */
struct bits {
	char c;
	unsigned int a : 3;
	unsigned int b : 16;
	unsigned int : 0;
	unsigned short s : 4;
	long l;
	unsigned long long w : 40;
	int q : 5;
	unsigned char tail : 1;
};

struct bits_span {
	unsigned char x : 1;
	unsigned int y : 3;
	char z;
	unsigned long long w : 40;
	int q : 5;
};

/* packed, and an aligned(64) member that leaves a big hole and forces tail padding */
struct packed_one {
	char c;
	int i;
	short s;
} __attribute__((packed));

struct with_packed {
	char c;
	struct packed_one p;
	long after;
};

struct aligned_member {
	char flag;
	long counter __attribute__((aligned(64)));
	char tail;
};

struct aligned_struct {
	int a;
	char b;
} __attribute__((aligned(32)));

/* anonymous unions and structs, nested */
struct anon {
	int kind;
	union {
		long l;
		double d;
		struct {
			short lo, hi;
		};
	};
	struct {
		char tag;
		int value;
	} named_inner;
	union {
		char bytes[3];
		struct {
			unsigned int f1 : 7;
			unsigned int f2 : 9;
		} flags;
	} u;
};

/* nested arrays, arrays of structs, function pointers, flexible arrays */
struct arrays {
	int grid[3][4];
	char names[2][3][5];
	struct anon many[2];
	void (*handlers[4])(int, const char *);
	int (*cmp)(const void *, const void *);
	const char *strs[2];
	volatile int v;
	/* no _Atomic member: pahole 1.24 cannot read DW_TAG_atomic_type (DWARF 5) */
	long counter;
	unsigned char data[];
};

struct flex_only {
	unsigned int len;
	char bytes[];
};

/* a struct that crosses several cache lines, with a hot counter next to read-mostly fields */
struct many_lines {
	const struct arrays *ops;
	struct hd_struct part;
	atomic_t refcount;
	long stats[20];
	enum { IDLE, BUSY = 7, GONE = -1 } state;
	enum { SMALL_A, SMALL_B } __attribute__((packed)) small;
};

/*
 * An array last, then tail padding: pahole fills it with the array's type ("int [256]:8192;")
 * where the struct has no DW_AT_alignment (clang's DWARF).
 */
struct tail_array {
	long x __attribute__((aligned(64)));
	char tag[16];
	int slots[256];
};

/* An anonymous struct named by its typedef: pahole prints it with -C pair_t. */
typedef struct {
	int p;
	char q;
} pair_t;

struct tail_array t0;
pair_t pr0;
struct bits b0;
struct bits_span b1;
struct with_packed p0;
struct aligned_member a0;
struct aligned_struct a1;
struct anon n0;
struct arrays *r0;
struct flex_only *f0;
struct many_lines *m0;
struct hd_struct hd0;
struct hd_struct_old hd1;

long touch(struct many_lines *m);
long touch(struct many_lines *m)
{
	return m->stats[3] + m->part.partno + b0.b + a0.counter + n0.named_inner.value;
}
