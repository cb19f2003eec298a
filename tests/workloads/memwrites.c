/*
 * Writes and copies through the libc calls, one member each, for tests/sim/memwrites.sh: the
 * collector must record each at its call's line and the analysis tie it to the member.  Each
 * call is on a line of its own, named in the test by the call's text.  Arguments: ITERATIONS.
 * Prints "ok" when every call did its work (every length to 40, memmove with overlap, the fortified
 * copy).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct record {
	long id;	 /* 0 */
	char name[40];	 /* 8: memset */
	char key[16];	 /* 48: bzero */
	char copy[64];	 /* 64: memcpy's destination */
	char source[64]; /* 128: memcpy's source */
	char ring[64];	 /* 192: memmove within */
	char checked[64]; /* 256: the fortified copy's destination */
};

struct record rec __attribute__((aligned(64)));
volatile size_t len = 48; /* a length the compiler cannot see */

/*
 * Every length up to 40 and every overlap up to 8 bytes either way: the calls agree with byte
 * loops (volatile, so that the compiler does not make calls of them).  Returns 0 when they do.
 */
static int check_lengths(void)
{
	unsigned char a[128], want[128], tmp[40];
	volatile unsigned char *w = want;

	for (size_t len = 0; len <= 40; len++) {
		for (int shift = -8; shift <= 8; shift++) {
			for (int i = 0; i < 128; i++)
				w[i] = a[i] = (unsigned char)(i * 7 + len);
			memmove(a + 24 + shift, a + 24, len);
			memset(a + 72 + shift, 0x5a, len);
			bzero(a + 8 + shift, len > 16 ? 16 : len);
			for (size_t i = 0; i < len; i++)
				tmp[i] = w[24 + i];
			for (size_t i = 0; i < len; i++)
				w[24 + shift + i] = tmp[i];
			for (size_t i = 0; i < len; i++)
				w[72 + shift + i] = 0x5a;
			for (size_t i = 0; i < len && i < 16; i++)
				w[8 + shift + i] = 0;
			for (int i = 0; i < 128; i++)
				if (a[i] != w[i])
					return 1;
			memcpy(a, want + 40, len);
			for (size_t i = 0; i < len; i++)
				if (a[i] != w[40 + i])
					return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	if (check_lengths())
		return 2;

	for (long i = 0; i < n; i++) {
		rec.id = i;
		memset(rec.name, 'a' + (int)(i % 26), sizeof(rec.name));
		bzero(rec.key, sizeof(rec.key));
		memcpy(rec.copy, rec.source, sizeof(rec.copy));
		memmove(rec.ring + 1, rec.ring, sizeof(rec.ring) - 1);
		__builtin___memcpy_chk(rec.checked, rec.source, len, sizeof(rec.checked));
		rec.ring[0] = (char)i;
	}
	if (rec.name[39] != 'a' + (int)((n - 1) % 26) || rec.key[15] || rec.ring[1] != (char)(n - 2) ||
	    rec.copy[5] != rec.source[5])
		return 1;
	/* A fortified copy past its destination still stops the program. */
	if (argc > 2)
		__builtin___memcpy_chk(rec.checked, rec.source, len + 32, sizeof(rec.checked));
	puts("ok");
	return 0;
}
