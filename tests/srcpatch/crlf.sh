#!/bin/sh
# A header with CRLF line endings (and a .c file whose check function is CRLF too), patched in
# each style: every line of the patched files ends in CRLF, the lines written included; the diff
# applies with patch -p1 and git apply; the result compiles with its checks holding, and a
# second run on it changes nothing.
. "$top_srcdir/tests/lib.sh"
scratch
run=$top_builddir/tests/tools/srcpatch_run
need patch
: "${CC:=gcc}"
cr=$(printf '\r')

mkdir -p "$T/orig/include" "$T/orig/net"
# (written with LF here, then every line given its CR)
cat >"$T/q.h" <<'H'
#include <assert.h>
#include <stdalign.h>
#include <stddef.h>

#ifndef __cacheline_group_begin
#define __cacheline_group_begin(G) unsigned char __cacheline_group_begin__##G[0]
#define __cacheline_group_end(G) unsigned char __cacheline_group_end__##G[0]
#define ____cacheline_aligned_in_smp __attribute__((aligned(64)))
#define CACHELINE_ASSERT_GROUP_MEMBER(T, G, m) \
	static_assert(offsetof(T, m) >= offsetof(T, __cacheline_group_begin__##G), #m)
#endif

/* A queue edited on Windows. */
struct q {
	unsigned long head;	/* written by the producer */
	int x, y;
#define Q_FLAG(x) \
	((x) << 1)
	unsigned long tail;	/* written by the consumer */
	void (*cb)(struct q *);
};
H
cat >"$T/q.c" <<'C'
#include <stdio.h>
#include "q.h"

static void q_struct_check(void)
{
}

int main(void)
{
	q_struct_check();
	printf("%zu %zu\n", offsetof(struct q, head), offsetof(struct q, tail));
	return 0;
}
C
sed "s/\$/$cr/" "$T/q.h" >"$T/orig/include/q.h"
sed "s/\$/$cr/" "$T/q.c" >"$T/orig/net/q.c"
order='head@prod!,y,tail@cons!,x,cb'

crlf_only() {
	lines=$(wc -l <"$1")
	[ "$(grep -c "$cr\$" "$1")" -eq "$lines" ] || {
		grep -n -v "$cr\$" "$1" >&2
		fail "$2: $1 has LF lines"
	}
}

for style in attr alignas kaligned groups; do
	rm -rf "$T/$style" && cp -r "$T/orig" "$T/$style"
	"$run" -e head,x,y,tail,cb -k q_struct_check -C "Layout by srcpatch ($style)" \
		-f include/q.h="$T/orig/include/q.h" -f net/q.c="$T/orig/net/q.c" \
		"0:q:14:$style:$order" >"$T/$style.diff" 2>"$T/err" ||
		fail "$style refused: $(cat "$T/err")"
	[ -s "$T/$style.diff" ] || fail "$style: an empty diff"
	# the added lines are CRLF (their '+' and text, then CR LF)
	grep '^+' "$T/$style.diff" | grep -v '^+++ ' | grep -v "$cr\$" >&2 &&
		fail "$style: the diff adds LF lines"
	(cd "$T/$style" && patch -s -p1 <"$T/$style.diff") || fail "$style: patch -p1 fails"
	crlf_only "$T/$style/include/q.h" "$style"
	crlf_only "$T/$style/net/q.c" "$style"
	if command -v git >/dev/null 2>&1; then
		rm -rf "$T/g" && cp -r "$T/orig" "$T/g"
		(cd "$T/g" && git init -q . && git apply -p1 "$T/$style.diff") ||
			fail "$style: git apply fails"
		cmp -s "$T/g/include/q.h" "$T/$style/include/q.h" ||
			fail "$style: git apply and patch -p1 differ"
	fi
	[ "$style" = kaligned ] && continue # (____cacheline_aligned_in_smp is ours above)
	$CC -std=gnu11 -Wall -Werror -I"$T/$style/include" "$T/$style/net/q.c" -o "$T/m" \
		2>"$T/cc.err" || { cat "$T/cc.err" >&2; fail "$style does not compile"; }
	set -- $("$T/m")
	[ $(($1 % 64)) -eq 0 ] && [ $(($2 % 64)) -eq 0 ] && [ "$1" != "$2" ] ||
		fail "$style: head at $1, tail at $2"
	# a second run finds the layout written: nothing to change
	"$run" -e head,x,y,tail,cb -k q_struct_check -C "Layout by srcpatch ($style)" \
		-f include/q.h="$T/$style/include/q.h" -f net/q.c="$T/$style/net/q.c" \
		"0:q:17:$style:$order" >"$T/again.diff" 2>"$T/err" ||
		fail "$style, again: refused: $(cat "$T/err")"
	[ ! -s "$T/again.diff" ] || { cat "$T/again.diff" >&2; fail "$style: a second run changes it"; }
done
grep -q "^+	__cacheline_group_begin(cons) ____cacheline_aligned_in_smp;$cr\$" "$T/groups.diff" ||
	fail "groups: $(cat "$T/groups.diff")"
grep -q "^+	CACHELINE_ASSERT_GROUP_MEMBER(struct q, cons, x);$cr\$" "$T/groups.diff" ||
	fail "groups: no check in q_struct_check: $(cat "$T/groups.diff")"
exit 0
