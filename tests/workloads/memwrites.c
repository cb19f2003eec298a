/*
 * Writes and copies through the libc calls, one member each, for tests/sim/memwrites.sh: the
 * collector must record each at its call's line and the analysis tie it to the member.  Each
 * call is on a line of its own, named in the test by the call's text.  Arguments: ITERATIONS.
 * Prints "ok" when every call did its work (memmove with overlap, the fortified copy).
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

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

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
