#!/bin/sh
# lineup suggest --tui on a recording: the browser's suggestion view with what lineup measured
# and predicts (each cache line's HITMs and transfers beside the layouts, side by side on a wide
# terminal, one above the other on a narrow one), and w writes the patch --patch writes.
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
LINEUP=$(cd "$(dirname "$LINEUP")" && pwd)/$(basename "$LINEUP")
MKPERF=$(cd "$top_builddir" && pwd)/tests/tools/mkperf
grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h" || skip "built without ncursesw"

cat >"$T/prog.c" <<'EOF'
/* Counters written by one thread beside fields another thread only reads. */
struct stats {
	long hits;
	long limit;
	long flags;
	long misses;
};

struct stats st __attribute__((aligned(64)));

long reader(void)
{
	return st.limit + st.flags;
}

void writer(void)
{
	st.hits++;
	st.misses++;
}

int main(void)
{
	writer();
	return (int)reader();
}
EOF
${CC:-cc} -g -O0 -o "$T/prog" "$T/prog.c" || fail "the test program does not build"
cat >"$T/s.txt" <<EOF
cpus 4 sockets=2
event load
event store
comm 10 10 prog
fork 10 10 11 10
mmap 10 auto $T/prog
sample load tid=10 cpu=0 time=1000000000 ip=reader+4 addr=st+8 src=LCL_HITM weight=100 repeat=40
sample store tid=11 cpu=2 time=2000000000 ip=writer+4 addr=st src=ST_L1HIT weight=10 repeat=30
sample load tid=10 cpu=1 time=4000000000 ip=reader+20 addr=st+16 src=LCL_HITM weight=5 repeat=20
sample store tid=11 cpu=2 time=2100000000 ip=writer+20 addr=st+24 src=ST_L1HIT weight=10 repeat=20
EOF
"$MKPERF" -o "$T/s.data" "$T/s.txt" || fail "mkperf"
cd "$T" || exit 99
"$LINEUP" suggest -i s.data --patch want.patch >/dev/null 2>&1 || fail "suggest --patch"
[ -s want.patch ] || fail "suggest --patch wrote no patch"

TUI_LINES= TUI_COLUMNS= tui_start 200 60 "$LINEUP" suggest --tui -i s.data
tui_settled "Layout comment" >wide
grep -q '^Current layout (measured)  *| Proposed layout (predicted)$' wide ||
	{ cat wide; fail "200x60: the layouts are not side by side"; }
grep -q '/\* line 0 (+0): 60 HITM measured, 2 transfers \*/  *|  */\* line 0 (+0): 0 HITM predicted, 0 transfers \*/$' wide ||
	{ cat wide; fail "200x60: no line 0 figures beside each other"; }
grep -q ' | .*/\* line 1 (+64): 0 HITM predicted, 0 transfers \*/$' wide ||
	{ cat wide; fail "200x60: no line 1 figures in the proposed layout"; }
grep -q '^What it does$' wide && grep -q 'predicted 2 -> 0 modeled line transfers' wide ||
	{ cat wide; fail "200x60: no summary"; }
tui_resize 80 24
tui_settled "Current layout (measured)" >narrow
grep -q '|' narrow && { cat narrow; fail "80x24: still side by side"; }
grep -q '^        /\* line 0 (+0): 60 HITM measured, 2 transfers \*/$' narrow ||
	{ cat narrow; fail "80x24: no line 0 figures"; }
tui_keys Tab Tab Tab Tab w Enter
tui_settled "the patch is in layout.patch" >/dev/null
cmp -s want.patch layout.patch || fail "w wrote another patch than suggest --patch"
tui_keys q
tui_rc 0
tui_restored
