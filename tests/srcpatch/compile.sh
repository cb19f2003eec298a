#!/bin/sh
# srcpatch's output compiles to the layout asked for: a ring (head written by the producer,
# tail by the consumer, a read-only mask) with bit-fields, an anonymous union, a
# multi-declarator line, an #ifdef member, a function pointer and a flexible array, regrouped
# in each style (GNU attribute, alignas, the kernel's groups over stand-in macros): patch -p1
# applies it, gcc and clang build it with and without the #ifdef (its static_asserts hold),
# and each group starts its own 64-byte line.
. "$top_srcdir/tests/lib.sh"
scratch
run=$top_builddir/tests/tools/srcpatch_run
need patch
: "${CC:=gcc}"
compilers=$CC
[ -n "${CLANG:-}" ] && command -v "$CLANG" >/dev/null 2>&1 && compilers="$compilers $CLANG"

mkdir -p "$T/orig/include"
cat >"$T/orig/include/ring.h" <<'H'
#include <assert.h>
#include <stdalign.h>
#include <stddef.h>

struct ring;

#ifndef __cacheline_group_begin
#define __cacheline_group_begin(G) unsigned char __cacheline_group_begin__##G[0]
#define __cacheline_group_end(G) unsigned char __cacheline_group_end__##G[0]
#define ____cacheline_aligned_in_smp __attribute__((aligned(64)))
#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))
#endif

struct ring {
	unsigned long head;	/* written by the producer */
	unsigned int mask;	/* read-only */
	unsigned int a:1, b:3;
	unsigned long tail;	/* written by the consumer */
	union {
		void *p;
		long l;
	};
	int x, y, z;
#ifdef WITH_STATS
	long stats;
#endif
	/* called on wrap */
	void (*cb)(struct ring *);
	char slots[];
};
H
cat >"$T/main.c" <<'C'
#include <stdio.h>
#include "ring.h"
int main(void)
{
	printf("%zu %zu %zu %zu\n", offsetof(struct ring, head), offsetof(struct ring, tail),
	       offsetof(struct ring, mask), offsetof(struct ring, cb));
	return 0;
}
C
order='head@prod!,a,b,z,tail@cons!,x,mask@ro!,p,y,stats,cb,slots'
expected=head,mask,a,b,tail,p,l,x,y,z,stats,cb,slots

for style in attr alignas groups; do
	rm -rf "$T/$style" && cp -r "$T/orig" "$T/$style"
	"$run" -e "$expected" -C "Layout by srcpatch ($style)" -f include/ring.h="$T/orig/include/ring.h" \
		"0:ring:15:$style:$order" >"$T/$style.diff" 2>"$T/err" ||
		fail "$style refused: $(cat "$T/err")"
	(cd "$T/$style" && patch -s -p1 <"$T/$style.diff") || fail "$style: patch -p1 fails"
	for cc in $compilers; do
		for def in -DWITH_STATS -UWITH_STATS; do
			$cc -std=gnu11 -Wall -Werror $def -I"$T/$style/include" "$T/main.c" -o "$T/m" \
				2>"$T/cc.err" || { cat "$T/cc.err" >&2; fail "$style, $cc $def does not compile"; }
			set -- $("$T/m")
			for off in "$1" "$2" "$3"; do
				[ $((off % 64)) -eq 0 ] || fail "$style, $cc $def: offsets $*: a group start off a line"
			done
			[ "$1" != "$2" ] && [ "$2" != "$3" ] && [ "$1" != "$3" ] ||
				fail "$style, $cc $def: groups share a line: $*"
		done
	done
done
grep -q '^+	alignas(64) unsigned long tail;	/\* written by the consumer \*/$' "$T/alignas.diff" ||
	fail "alignas: $(cat "$T/alignas.diff")"
grep -q '^+	__cacheline_group_begin(cons) ____cacheline_aligned_in_smp;$' "$T/groups.diff" ||
	fail "groups: $(cat "$T/groups.diff")"
grep -q '^+	int z;$' "$T/attr.diff" && grep -q '^+	int y;$' "$T/attr.diff" ||
	fail "int x, y, z; not split: $(cat "$T/attr.diff")"
exit 0
