#!/bin/sh
# lineup watch --symbol on a global struct of a normally built program (gcc -O2 -g, no
# instrumentation): the load/store/RMW split of each member equals what the source does
# (tests/watch/gstruct.c's header comment), and perf script lists the same hits.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
[ -n "${PERF:-}" ] || skip "perf is not installed"
watch_lock
build_workload gstruct
cd "$T" || exit 99
"$LINEUP" watch -o "$T/u.data" --symbol g_stats --fields hits,refs,name,misses -- \
	"$T/gstruct" 1000 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint\|perf_event_paranoid' "$T/err"; then
	skip "no hardware breakpoints for this user: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || fail "lineup watch exited $rc: $(cat "$T/err")"
cat "$T/out"
grep -q '^# lineup watch: struct gstats at 0x' "$T/out" || fail "no header"
grep -q "access kinds: instruction decode (capstone) of the program's own code" "$T/out" ||
	fail "method not stated"

# member    hits load store rmw lock-rmw unknown (main's printf reads hits, refs, misses once)
expect() {
	got=$(member_row "$T/out" "$1" | cut -d' ' -f1-6)
	[ "$got" = "$2" ] || fail "$1: got '$got', want '$2' (hits load store rmw lock-rmw unknown)"
}
expect hits   "2001 1001 1000 0 0 0"
expect refs   "2001 1 0 0 2000 0"
expect name   "1001 1000 1 0 0 0"
expect misses "1001 1 1000 0 0 0"
grep -q 'store      thread_a+' "$T/out" && grep -q 'locked-rmw thread_b+' "$T/out" ||
	fail "code sites not named"

n=$("$PERF" script -i "$T/u.data" -F ip 2>/dev/null | wc -l)
[ "$n" -eq 6004 ] || fail "perf script lists $n hits, lineup counted 6004"
"$PERF" script -i "$T/u.data" -F ip,sym 2>/dev/null | awk '{ print $2 }' | sort | uniq -c >"$T/syms"
grep -q ' 3000 thread_a$' "$T/syms" && grep -q ' 3000 thread_b$' "$T/syms" ||
	fail "perf script symbols differ: $(cat "$T/syms")"

# The same as JSON (stdout is lineup's alone: the workload's output goes to stderr).
"$LINEUP" watch --json -o "$T/j.data" --symbol g_stats --fields hits,refs,name,misses -- \
	"$T/gstruct" 1000 >"$T/j.json" 2>"$T/err" || fail "--json: $(cat "$T/err")"
python3 - "$T/j.json" <<'PY' || fail "--json report: $(head -c 600 "$T/j.json")"
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["member"]: x for x in d["members"]}
want = {"hits": (1001, 1000, 0), "refs": (1, 0, 2000), "name": (1000, 1, 0), "misses": (1, 1000, 0)}
for k, (l, st, lr) in want.items():
    assert (m[k]["loads"], m[k]["stores"], m[k]["locked_rmw"]) == (l, st, lr), m[k]
assert d["hits"] == 6004 and d["not_watched"] == ["pad"] and d["counts_only_watched"], d
sites = {(s["function"], s["kind"]): s["count"] for s in m["refs"]["sites"]}
assert sites[("thread_a", "locked-rmw")] == 1000 and sites[("thread_b", "locked-rmw")] == 1000
PY

# A program whose path has spaces (its maps are read with the one /proc/PID/maps parser of
# sampling/host.h, which keeps them): found where it is loaded, its hits decoded and named,
# and the recording's map lets perf name the functions too.
mkdir -p "$T/a dir/with  spaces" && cp "$T/gstruct" "$T/a dir/with  spaces/"
"$LINEUP" watch -o "$T/s.data" --symbol g_stats --fields refs -- \
	"$T/a dir/with  spaces/gstruct" 100 >"$T/out" 2>"$T/err" || fail "spaced path: $(cat "$T/err")"
expect refs "201 1 0 0 200 0"
"$PERF" script -i "$T/s.data" -F ip,sym,dso 2>/dev/null | grep -c 'thread_a (.*/a dir/with  spaces/gstruct)' \
	>"$T/n" || true
[ "$(cat "$T/n")" -eq 100 ] || fail "perf script does not name the spaced path's code: $(cat "$T/n")"

# Not root (perf_event_paranoid 2 allows user-space breakpoints on one's own processes): the
# same counts, kernel-mode accesses left out and said so.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ]; then
	mkdir -p "$T/nobody" && cp "$T/gstruct" "$T/nobody/" && chmod -R a+rwx "$T/nobody" &&
		chmod a+x "$T"
	(cd "$T/nobody" && setpriv --reuid=65534 --regid=65534 --clear-groups "$LINEUP" watch \
		-o "$T/nobody/u.data" --symbol g_stats --fields hits,refs,name,misses -- \
		"$T/nobody/gstruct" 1000) >"$T/out" 2>"$T/err" || fail "as nobody: $(cat "$T/err")"
	grep -q 'accesses from kernel mode not watched (not root)' "$T/out" || fail "$(head -5 "$T/out")"
	expect hits   "2001 1001 1000 0 0 0"
	expect refs   "2001 1 0 0 2000 0"
	expect name   "1001 1000 1 0 0 0"
	expect misses "1001 1 1000 0 0 0"
fi
