#!/bin/sh
# A zeroed static array (.bss) past the program's last file page is mapped anonymous, right
# after the program's writable file map: its samples are tied to the variable all the same
# (they were "no variable in that register": 0% attributed), at -O0 and -O2, gcc and clang.
. "$top_srcdir/tests/lib.sh"
scratch
cat >"$T/bss.c" <<'SRC'
#include <pthread.h>
struct counter {
	unsigned int handled;
};
static struct counter stats[8];	/* zeroed: .bss */
static void *worker(void *arg)
{
	struct counter *mine = &stats[(long)arg];

	for (long i = 0; i < 200000; i++)
		__atomic_store_n(&mine->handled,
				 __atomic_load_n(&mine->handled, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
	return 0;
}
int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (long i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return stats[0].handled + stats[1].handled == 400000 ? 0 : 1;
}
SRC
ran=0
for cc in gcc clang; do
	command -v "$cc" >/dev/null || continue
	for o in O0 O2; do
		b="$T/bss-$cc-$o"
		# shellcheck disable=SC2046
		"$cc" $("$LINEUP" sim-flags --cc "$cc") -$o -o "$b" "$T/bss.c" || fail "$cc -$o bss.c"
		nm "$b" | grep -q ' b stats$' || fail "$cc -$o: stats is not in .bss"
		LINEUP_SIM_TURNS=100 LINEUP_SIM_MISS_PERIOD=5 "$LINEUP" record --sim --sim-exact \
			-o "$b.data" -- "$b" >/dev/null 2>"$T/rec.err" || { cat "$T/rec.err"; fail "record"; }
		"$LINEUP" fields -i "$b.data" --json >"$b.json" 2>"$T/err" ||
			fail "$cc -$o: fields: $(cat "$T/err")"
		python3 - "$b.json" <<'PY' || fail "$cc -$o: the .bss array is not attributed"
import json, sys
d = json.load(open(sys.argv[1]))
a = d["attribution"]["all"]
# the variable, or at -O0 the operand's type (the local pointer's stack slot) where that
# now answers first: either way every sample is tied to struct counter
e = a["by_evidence"]
assert a["share"] > 0.99 and e["variable"] + e["operand"] == a["total"], a
assert [s["type"] for s in d["structs"]] == ["struct counter"], d["structs"]
for l in d["lines"]:
    assert {s["type"] for s in l["slots"]} == {"struct counter"}, l["slots"]
PY
		ran=$((ran + 1))
	done
done
[ "$ran" -gt 0 ] || skip "neither gcc nor clang here"
exit 0
