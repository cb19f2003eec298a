#!/bin/sh
# C++ types defined in scopes (issue 20): in a namespace, a nested namespace, an anonymous one,
# and inside a class are found by their own names, as pahole -C finds them and as attribution
# names the types of operands (svc::Stats is "struct Stats"); `lineup layout -C NAME` equals
# pahole's byte for byte, with g++ and clang++.  The full listing stays pahole's (which lists
# only the types at the top of each unit).
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
cat >"$T/scopes.cc" <<'SRC'
namespace svc {
struct Stats { long requests; long bytes; };
namespace inner { struct Deep { int x; Stats s; }; }
}
namespace { struct Hidden { char c; long l; }; }
struct List { struct Node { long v; Node *next; }; Node *head; long n; };
struct Top { svc::Stats st; int y; };
svc::Stats s1; svc::inner::Deep d1; Hidden h1; Top t1; List l1; List::Node n1;
long use(void) { return h1.l; }
SRC
n=0
for cxx in g++ clang++; do
	command -v "$cxx" >/dev/null 2>&1 || continue
	obj=$T/scopes-$cxx.o
	"$cxx" -g -c "$T/scopes.cc" -o "$obj" || fail "$cxx does not compile scopes.cc"
	for s in Stats Deep Node List Top Hidden; do
		"$PAHOLE" -C $s "$obj" >"$T/p.txt" 2>/dev/null
		if [ ! -s "$T/p.txt" ]; then
			# pahole 1.24 misses clang's anonymous namespace: lineup finds it
			[ $s = Hidden ] || fail "$cxx: pahole does not show struct $s"
			"$LINEUP" layout -C $s "$obj" >"$T/l.txt" ||
				fail "$cxx: struct Hidden in an anonymous namespace not found"
			continue
		fi
		"$LINEUP" layout -C $s "$obj" >"$T/l.txt" || fail "$cxx: layout -C $s failed"
		diff -u "$T/p.txt" "$T/l.txt" || fail "$cxx: struct $s differs from pahole"
	done
	"$PAHOLE" "$obj" >"$T/p.txt" 2>/dev/null
	"$LINEUP" layout "$obj" >"$T/l.txt" || fail "$cxx: layout failed"
	diff -u "$T/p.txt" "$T/l.txt" || fail "$cxx: the full listing differs from pahole"
	n=$((n + 1))
done
[ $n -gt 0 ] || skip "neither g++ nor clang++"
echo "$n compilers: types in namespaces and classes found by name"
exit 0
