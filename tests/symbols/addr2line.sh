#!/bin/sh
# Oracle: for every instruction of every function of a test program built with gcc and clang,
# -O0 and -O2 (with inlining), DWARF 4 and 5, lineup's function, inline chain and source:line
# equal `addr2line -f -i`'s, line for line (binutils' addr2line is what perf runs for srcline);
# also built in its own directory with relative names.  The same for a C++ program (templates,
# operators, lambdas, anonymous namespaces, clones, the STL inlined), except clang -O2 DWARF 5,
# where binutils 2.40 reads some of clang's DW_FORM_rnglistx inline ranges in a way lineup does
# not reproduce (92 of 3500 lines differ).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/symbols/lib-symbols.sh"
need addr2line
need objdump
scratch
TOOL="$top_builddir/tests/unit/symbolize"

cat > "$T/prog.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include "prog.h"

struct counters { long hits; long misses; int flags; } stats;
static int table[64];

static inline int sq(int x) { return x * x + table[x & 63]; }
static inline int twice(int x) { return sq(x) + sq(x + 1); }

__attribute__((noinline)) int work(int n)
{
	int t = 0;

	for (int i = 0; i < n; i++) {
		t += twice(i);
		if (t & 1)
			stats.hits++;
		else
			stats.misses += helper_add(t, i);
	}
	return t;
}

static __attribute__((noinline)) void fill(int seed)
{
	for (int i = 0; i < 64; i++)
		table[i] = seed * i;
}

int main(int argc, char **argv)
{
	fill(argc);
	printf("%d %ld\n", work(atoi(argc > 1 ? argv[1] : "10")), stats.hits);
	return 0;
}
SRC
cat > "$T/prog.h" <<'SRC'
static inline long helper_add(long a, long b)
{
	if (a > b)
		return a - b;
	return b + 2 * a;
}
SRC

cxx_src "$T/cxx.cc" 3000 2000 "& 1"

nchecked=0
check() {	# compiler, flags..., source
	bin="$T/bin"
	"$@" -o "$bin" || fail "$* failed"
	# every instruction address inside a function symbol
	objdump -d --no-show-raw-insn "$bin" |
		awk '/^[0-9a-f]+ <.*>:$/ { infn = 1; next }
		     /^$/ { infn = 0 }
		     infn && /^ *[0-9a-f]+:/ { sub(":", "", $1); print $1 }' > "$T/addrs"
	[ -s "$T/addrs" ] || fail "no addresses in $bin"
	addr2line -f -i -e "$bin" < "$T/addrs" > "$T/want"
	"$TOOL" -e "$bin" < "$T/addrs" > "$T/got" || fail "symbolize failed on $bin"
	if ! cmp -s "$T/want" "$T/got"; then
		diff "$T/want" "$T/got" | head -20
		fail "$*: lineup differs from addr2line -f -i"
	fi
	nchecked=$((nchecked + $(wc -l < "$T/addrs")))
}
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { [ $cc = gcc ] && fail "no gcc"; continue; }
	cxx=$([ $cc = gcc ] && echo g++ || echo clang++)
	for opt in -O0 -O2; do
		for dw in -gdwarf-4 -gdwarf-5; do
			check $cc $opt $dw "$T/prog.c"
			command -v $cxx >/dev/null 2>&1 || continue
			[ $cc = clang ] && [ $opt = -O2 ] && [ $dw = -gdwarf-5 ] && continue
			# (-O0 C++ once: thousands of trivial addresses, slow to compile)
			[ $opt = -O0 ] && { [ $cc = clang ] || [ $dw = -gdwarf-4 ]; } && continue
			check $cxx $opt $dw "$T/cxx.cc"
		done
	done
done
# Built in its own directory with relative names, as a user builds: the line table's relative
# names ("inc/prog.h"; clang's "./prog.c" dir entries) are addr2line's joined to DW_AT_comp_dir.
mkdir "$T/rel" "$T/rel/inc" && cp "$T/prog.c" "$T/rel/" && cp "$T/prog.h" "$T/rel/inc/" ||
	fail "cannot copy the program"
cd "$T/rel" || fail "cd $T/rel"
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for dw in -gdwarf-4 -gdwarf-5; do
		check $cc -O2 $dw -Iinc prog.c
	done
done
cd "$T" || fail "cd $T"
echo "checked $nchecked addresses"
