#!/bin/sh
# Packing.  Under #pragma pack(N) an aligned member is capped at N bytes: a layout that starts
# a cache line is refused, with the pragma's place, and no diff.  __attribute__((packed)) (and
# the kernel's __packed) keeps an aligned member's alignment: that struct is patched in each
# style, and gcc and clang build it with its checks holding and the group on its own line.
. "$top_srcdir/tests/lib.sh"
scratch
run=$top_builddir/tests/tools/srcpatch_run
need patch
: "${CC:=gcc}"
compilers=$CC
[ -n "${CLANG:-}" ] && command -v "$CLANG" >/dev/null 2>&1 && compilers="$compilers $CLANG"

mkdir -p "$T/orig/include"
cat >"$T/orig/include/pk.h" <<'H'
#include <assert.h>
#include <stdalign.h>
#include <stddef.h>

#ifndef __cacheline_group_begin
#define __cacheline_group_begin(G) unsigned char __cacheline_group_begin__##G[0]
#define __cacheline_group_end(G) unsigned char __cacheline_group_end__##G[0]
#define ____cacheline_aligned_in_smp __attribute__((aligned(64)))
#define __packed __attribute__((__packed__))
#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))
#endif

#pragma pack(push, 1)
struct wire {
	char tag;
	long lba;
	int crc;
};
#pragma pack(pop)

struct __attribute__((packed)) attr {
	char tag;
	long lba;
	int crc;
};

struct kern {
	char tag;
	long lba;
	int crc;
} __packed;
H
cat >"$T/main.c" <<'C'
#include <stdio.h>
#include "pk.h"
int main(void)
{
	printf("%zu %zu %zu %zu\n", offsetof(struct attr, tag), offsetof(struct attr, crc),
	       offsetof(struct kern, tag), offsetof(struct kern, crc));
	return 0;
}
C
h=$T/orig/include/pk.h

for style in attr alignas groups; do
	rc=0
	"$run" -e tag,lba,crc -f include/pk.h="$h" "0:wire:14:$style:lba@g!,tag,crc" \
		>"$T/wire.diff" 2>"$T/err" || rc=$?
	[ $rc -eq 1 ] || fail "$style: wire: exit $rc, not refused: $(cat "$T/err" "$T/wire.diff")"
	grep -q "^error: include/pk.h:14: struct wire is declared under #pragma pack(1) (include/pk.h:13): an aligned member would not start a line; lay it out by hand or remove the packing$" \
		"$T/err" || fail "$style: wire: $(cat "$T/err")"
	[ ! -s "$T/wire.diff" ] || fail "$style: a diff for a refused struct: $(cat "$T/wire.diff")"

	rm -rf "$T/$style" && cp -r "$T/orig" "$T/$style"
	"$run" -e tag,lba,crc -f include/pk.h="$h" "0:attr:21:$style:tag@a!,lba,crc@b!" \
		"0:kern:27:$style:tag@a!,lba,crc@b!" >"$T/$style.diff" 2>"$T/err" ||
		fail "$style refused: $(cat "$T/err")"
	(cd "$T/$style" && patch -s -p1 <"$T/$style.diff") || fail "$style: patch -p1 fails"
	for cc in $compilers; do
		$cc -std=gnu11 -Wall -Werror -I"$T/$style/include" "$T/main.c" -o "$T/m" \
			2>"$T/cc.err" || { cat "$T/cc.err" >&2; fail "$style, $cc does not compile"; }
		set -- $("$T/m")
		for off in "$@"; do
			[ $((off % 64)) -eq 0 ] || fail "$style, $cc: offsets $*: a group start off a line"
		done
	done
done
exit 0
