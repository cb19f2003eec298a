// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Qualified arrays in every spelling, for tests/layout/qualarr.sh.  gcc and clang describe
 * them differently: `volatile int a[8]` is volatile -> array -> volatile int in gcc's DWARF,
 * array -> volatile int in clang's; gcc folds `volatile arr8` into an array of int under
 * volatile, clang keeps volatile -> typedef arr8.  Built as
 *   gcc -g -c qualarr.c        clang -g -c qualarr.c
 */
typedef int arr8[8];
typedef volatile int vint;
typedef const arr8 carr8;
typedef vint varr[4];
typedef arr8 arr8x2[2];
typedef _Atomic int aint;

struct qual_arrays {
	volatile int a[8];		/* qualifier over the array, or array of qualified */
	const long b[2];
	int *restrict d[2];
	volatile arr8 e;		/* a qualified typedef of an array */
	const arr8 f;
	carr8 g;			/* a typedef of a qualified typedef of an array */
	varr h;				/* a typedef of an array of a qualified typedef */
	vint i[2];			/* an array of a qualified typedef */
	volatile carr8 j;		/* qualified twice over, through a typedef */
	const volatile int k[2][3];
	volatile struct {
		int x;
	} m[2];
	const char *const o[2];
	volatile arr8x2 q;		/* an array of arrays through typedefs */
	const int p[];
};

/* pahole 1.24 reads no DW_TAG_atomic_type: these are checked against text written here */
struct atomic_arrays {
	_Atomic int c[3];
	_Atomic(long) l[2];
	aint r[2];			/* an array of an atomic typedef */
	volatile _Atomic int s[2];
};

struct qual_arrays qual_arrays;
struct atomic_arrays atomic_arrays;
