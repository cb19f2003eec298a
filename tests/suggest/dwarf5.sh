#!/bin/sh
# lineup suggest on structs declared in the program's main .c file, built in its own directory
# with relative names as a user builds it: gcc and clang, DWARF 4 and 5 (clang's default,
# where DW_AT_decl_file 0 is the primary source file).  Each gets a patch of prog.c that
# --verify compiles as predicted; the typedef'd anonymous struct prints as pahole prints it,
# and from clang (whose DWARF gives a struct no DW_AT_alignment) the suggested layout is
# pahole's text of the patched build, byte for byte.  A struct whose debug info names no file
# is said so, with the object's name and what --source-root would look for, and found with it.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
need git

mkdir "$T/src" "$T/bin"
cat >"$T/src/prog.c" <<'SRC'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Each worker counts in its own member; both read the limit. */
struct worker_stats {
	long ops_a;
	long ops_b;
	int limit;
	int flags;
};

/* Each worker moves its own end; both read the mask. */
typedef struct {
	long head;
	long tail;
	int mask;
	int seq[7];
} ring_t;

static struct worker_stats stats;
static ring_t ring;

static void *run(void *arg)
{
	long id = (long)arg;

	for (long i = 0; i < *(volatile int *)&stats.limit; i++) {
		if (id) {
			__atomic_fetch_add(&stats.ops_b, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&ring.tail, *(volatile int *)&ring.mask,
					   __ATOMIC_RELAXED);
		} else {
			__atomic_fetch_add(&stats.ops_a, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&ring.head, *(volatile int *)&ring.mask,
					   __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	stats.limit = argc > 1 ? atoi(argv[1]) : 1000;
	ring.mask = 1;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", stats.ops_a + stats.ops_b, ring.head + ring.tail);
	return 0;
}
SRC
git -C "$T/src" init -q && git -C "$T/src" add . &&
	git -C "$T/src" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"

# build NAME CC FLAGS...: prog.c compiled in its directory as "prog.c", into $T/bin/NAME
build() {
	local name=$1 cc=$2 f l
	shift 2
	f=$("$LINEUP" sim-flags --cc "$cc" --cflags) || fail "sim-flags --cc $cc --cflags"
	l=$("$LINEUP" sim-flags --cc "$cc" --libs) || fail "sim-flags --cc $cc --libs"
	# shellcheck disable=SC2086
	(cd "$T/src" && "$cc" $f "$@" -c prog.c -o "$T/bin/$name.o") ||
		fail "$cc $* does not compile prog.c"
	# shellcheck disable=SC2086
	"$cc" -o "$T/bin/$name" "$T/bin/$name.o" $l || fail "$cc does not link $name"
}

# record NAME: $T/NAME.data with HITMs on the structs (threads that never met prove nothing)
record() {
	local try hitm
	for try in 1 2 3 4 5; do
		sim_record "$T/$1.data" "$T/bin/$1" 20000
		hitm=$(lineup_stat "$T/$1.data" "Load Local HITM")
		[ "${hitm:-0}" -ge 50 ] && return 0
		echo "try $try: $hitm HITMs from $1, again" >&2
	done
	fail "$1 never showed 50 HITMs in 5 runs"
}

# suggest NAME STRUCT: suggest --patch --verify --json in the tree, as its user would run it;
# the struct is ok and verified, and its patch is prog.c's and applies.
suggest() {
	local out=$T/$1-$2
	(cd "$T/src" && "$LINEUP" suggest -i "$T/$1.data" -C "$2" --patch "$out.diff" --verify \
		--json >"$out.json" 2>"$out.err") ||
		{ cat "$out.err" "$out.json"; fail "$1: suggest -C $2 --patch --verify"; }
	python3 - "$out.json" <<'PY' || { cat "$out.err"; fail "$1: $2 not patched and verified"; }
import json, sys
s = json.load(open(sys.argv[1]))["structs"][0]
assert s["status"] == "ok" and s.get("verify", {}).get("ok"), (s["status"], s.get("verify"))
assert s.get("patch"), "no patch"
PY
	grep -q '^+++ b/prog.c$' "$out.diff" || { cat "$out.diff"; fail "$1: $2's patch is not prog.c's"; }
	git -C "$T/src" apply --check "$out.diff" || fail "$1: git apply --check refuses $2's patch"
}

# pahole_same NAME CC FLAGS...: the suggested layout of ring_t, its annotations cut, is what
# pahole prints for it in the patched prog.c compiled by CC
pahole_same() {
	local name=$1 cc=$2
	shift 2
	(cd "$T/src" && "$LINEUP" suggest -i "$T/$name.data" -C ring_t >"$T/$name.txt" 2>&1) ||
		{ cat "$T/$name.txt"; fail "$name: suggest -C ring_t"; }
	awk 'p { print } p && /^}/ { exit } /^suggested layout/ { p = 1 }' "$T/$name.txt" |
		sed 's#\(\*/\)[^*]*$#\1#' >"$T/$name.lineup"
	rm -rf "$T/patched" && cp -r "$T/src" "$T/patched" &&
		git -C "$T/patched" apply "$T/$name-ring_t.diff" || fail "$name: git apply"
	(cd "$T/patched" && "$cc" -g "$@" -c prog.c -o "$T/patched.o") || fail "$name: the patched build"
	"$PAHOLE" -C ring_t "$T/patched.o" >"$T/$name.pahole" || fail "pahole -C ring_t"
	diff -u "$T/$name.pahole" "$T/$name.lineup" ||
		fail "$name: the suggested layout of ring_t is not pahole's of the patched build"
}

ccs=gcc
[ -n "${CLANG:-}" ] && ccs="$ccs $CLANG"
n=0
for cc in $ccs; do
	for v in 4 5; do
		for o in -O2 -O0; do
			[ $o = -O0 ] && [ $v = 4 ] && continue
			name=$(basename "$cc")-$v$o
			build "$name" "$cc" -gdwarf-$v $o
			record "$name"
			suggest "$name" worker_stats
			suggest "$name" ring_t
			if [ "$cc" != gcc ] && [ -n "${PAHOLE:-}" ]; then
				pahole_same "$name" "$cc" -gdwarf-$v $o
			fi
			n=$((n + 1))
		done
	done
done

# The typedef's name in the suggestion's text, from either compiler.
(cd "$T/src" && "$LINEUP" suggest -i "$T/gcc-5-O2.data" -C ring_t >"$T/g.txt" 2>&1) ||
	fail "suggest -C ring_t"
sed -n '/^suggested layout/,$p' "$T/g.txt" >"$T/g.after"
grep -q '^typedef struct {$' "$T/g.after" && grep -q '^} ring_t;$' "$T/g.after" ||
	{ cat "$T/g.after"; fail "the suggested layout of ring_t is not printed as its typedef"; }

# Debug info without the struct's file (DWARF 4's file 0): the message says which object and
# what --source-root looks for; with --source-root the tree is searched and the patch made.
build nofile gcc -gdwarf-4 -O2
"$top_builddir/tests/tools/dwarf_patch" "$T/bin/nofile" "$T/bin/nofile.p" \
	'worker_stats@decl_file=0' >/dev/null || fail "dwarf_patch"
mv "$T/bin/nofile.p" "$T/bin/nofile" && chmod +x "$T/bin/nofile"
record nofile
(cd "$T/src" && "$LINEUP" suggest -i "$T/nofile.data" -C worker_stats --patch "$T/nf.diff" \
	>"$T/nf.out" 2>"$T/nf.err")
rc=$?
[ $rc -eq 1 ] || { cat "$T/nf.err"; fail "no declaration file: exit $rc, not 1"; }
grep -qF "struct worker_stats: no source file for the patch: the debug info of $T/bin/nofile names no file for it; --source-root DIR looks for \"struct worker_stats {\" in DIR's .c and .h files" "$T/nf.err" ||
	{ cat "$T/nf.err"; fail "no declaration file: not said with the object and the advice"; }
[ ! -s "$T/nf.diff" ] || fail "no declaration file: a patch was written"
(cd "$T/src" && "$LINEUP" suggest -i "$T/nofile.data" -C worker_stats --patch "$T/nf.diff" \
	--source-root "$T/src" --verify >"$T/nf.out" 2>"$T/nf.err") ||
	{ cat "$T/nf.err" "$T/nf.out"; fail "no declaration file, --source-root: suggest"; }
grep -q '^verify: ok' "$T/nf.out" && grep -q '^+++ b/prog.c$' "$T/nf.diff" ||
	{ cat "$T/nf.out"; fail "no declaration file, --source-root: prog.c not patched"; }
echo "$n builds: main-file structs patched and verified"
exit 0
