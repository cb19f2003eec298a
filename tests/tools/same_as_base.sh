#!/bin/sh
# Byte-identical outputs across a refactoring (issue 22): build BASE (a commit) beside this
# tree, make a set of recordings once, and compare what both lineups print for them: report
# (stdio, JSON, --fields), fields (stdio, JSON), suggest (stdio, JSON, the patch), diff.
#   tests/tools/same_as_base.sh BASE        (from the top of a built tree; needs git)
# Exit 0 when every output is the same, 1 with the first differences.  Watch is left out: it
# records a live run, which no two runs repeat.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
base=${1:?usage: same_as_base.sh BASE}
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-same.XXXXXX")
trap 'git -C "$top" worktree remove --force "$W/base" >/dev/null 2>&1; rm -rf "$W"' EXIT
NEW=$top/lineup

git -C "$top" worktree add -q --detach "$W/base" "$base"
mkdir -p "$W/base/.local"
ln -s "$top/.local/libperf" "$W/base/.local/libperf"
(cd "$W/base" && ./setup.sh >"$W/base-setup.log" 2>&1) ||
	{ tail -20 "$W/base-setup.log"; echo "BASE does not build"; exit 2; }
OLD=$W/base/lineup

# The recordings: the fixtures with data addresses, a mkperf pair, the collector's struct_file.
mkdir "$W/rec"
for f in "$top"/tests/fixtures/perf-data/*; do
	case $f in *.md | *LICENSE*) continue ;; esac
	cp "$f" "$W/rec/"
done
cat >"$W/prog.c" <<'SRC'
struct pair { long a, b; } shared;
__attribute__((noinline)) void reader(void) { (void)*(volatile long *)&shared.a; }
__attribute__((noinline)) void writer(void) { shared.b++; }
int main(void) { reader(); writer(); return 0; }
SRC
gcc -O1 -g -o "$W/prog" "$W/prog.c"
cat >"$W/s" <<EOF2
event load
event store
comm 100 100 prog
fork 100 100 101 100
mmap 100 auto $W/prog
sample load tid=100 cpu=0 ip=reader addr=shared src=LCL_HITM weight=200 repeat=5
sample store tid=101 cpu=1 ip=writer addr=shared+8 src=ST_L1HIT weight=10 repeat=5
EOF2
"$top/tests/tools/mkperf" -o "$W/rec/pair.data" "$W/s"
cp "$top"/tests/workloads/*.[ch] "$W/"
for wl in struct_file percpu_stats; do
	f=$("$NEW" sim-flags --cflags) && l=$("$NEW" sim-flags --libs)
	# shellcheck disable=SC2086
	gcc $f -O2 -c -o "$W/$wl.o" "$W/$wl.c" && gcc -o "$W/$wl" "$W/$wl.o" $l
	for k in 1 2; do
		LINEUP_SIM_TURNS=100 "$NEW" record --sim --sim-exact -o "$W/rec/$wl-$k.data" -- \
			"$W/$wl" 20000 2 >/dev/null 2>&1
	done
done

n=0 bad=0
run() {	# run NAME ARGS...: both lineups, stdout and stderr and the exit status compared
	local name=$1 o n_ rc_o rc_n
	shift
	n=$((n + 1))
	(cd "$W" && "$OLD" "$@" >"$W/old.out" 2>"$W/old.err"); rc_o=$?
	(cd "$W" && "$NEW" "$@" >"$W/new.out" 2>"$W/new.err"); rc_n=$?
	sed -i "s|$W/base/lineup|LINEUP|g; s|$OLD|LINEUP|g" "$W/old.out" "$W/old.err"
	sed -i "s|$NEW|LINEUP|g" "$W/new.out" "$W/new.err"
	if [ "$rc_o" != "$rc_n" ] || ! cmp -s "$W/old.out" "$W/new.out" ||
	   ! cmp -s "$W/old.err" "$W/new.err"; then
		bad=$((bad + 1))
		echo "DIFFERS: $name: lineup $* (exit $rc_o -> $rc_n)"
		diff "$W/old.out" "$W/new.out" | head -10
		diff "$W/old.err" "$W/new.err" | head -10
	fi
	return 0
}
set +e
for f in "$W"/rec/*; do
	b=$(basename "$f")
	run "$b report" report --stdio -i "$f"
	run "$b report json" report --json -i "$f"
	run "$b report fields" report --stdio --fields -i "$f"
	run "$b fields" fields -i "$f"
	run "$b fields json" fields --json -i "$f"
	run "$b suggest" suggest -i "$f"
	run "$b suggest json" suggest --json -i "$f"
	run "$b suggest patch" suggest -i "$f" --patch -
done
for wl in struct_file percpu_stats; do
	run "$wl diff" diff "$W/rec/$wl-1.data" "$W/rec/$wl-2.data"
	run "$wl diff json" diff --json "$W/rec/$wl-1.data" "$W/rec/$wl-2.data"
done
echo "$n outputs compared, $bad differ"
[ "$bad" -eq 0 ]
