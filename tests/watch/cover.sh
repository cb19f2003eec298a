#!/bin/sh
# Cover is the share of the object's life (from its allocation to its free) that a member's
# breakpoint was on, on the hits' own clock: a file closed as soon as it was opened was never
# seen (cover 0%), whatever the watch's length, and watch says so and how to take a later
# object (--nth).  Without --nth such objects are skipped and the next one followed.  Members
# the rotation never reached are named in a warning.  A workload still running when the object
# is freed is waited for, ended at --duration or on Ctrl-C: never left behind.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need_watch_kernel
build_workload sharedfd
cd "$T" || exit 99

# gone PID COMM: the workload has ended (reaped: no such process of that name)
gone() {
	[ ! -d "/proc/$1" ] || [ "$(cat "/proc/$1/comm" 2>/dev/null)" != "$2" ] ||
		fail "the workload $2 (pid $1) is still running after lineup watch ended"
}
pid_of() {
	sed -n "s/.* allocated by $1\/\([0-9]*\),.*/\1/p" "$T/err" | head -1
}

# (1) A file freed at once (taken with --nth 1), then 30 s of sleep: cover 0%, the --nth
# hint, and --duration 1 ends the workload (SIGTERM) instead of waiting for it.
timeout 120 "$LINEUP" watch -o "$T/a.data" --duration 1 --alloc filp --comm lw-short --nth 1 \
	--fields f_ref,f_op -- "$T/sharedfd" -n lw-short -d 0 -c -t 30 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 124 ] || fail "watch waited for the workload past --duration"
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "watch exited $rc: $(cat "$T/err")"
grep -q "was freed .* after its allocation, with .*--nth 2 watches the next allocation that matches (this was number 1)" "$T/err" ||
	fail "no --nth hint for an object freed at once: $(cat "$T/err")"
grep -q "warning: 2 of 2 members never had a breakpoint in the object's" "$T/err" ||
	fail "no warning that nothing was watched while it lived: $(cat "$T/err")"
for m in f_ref f_op; do
	awk -v m=$m '$1 == m && $2 ~ /^[0-9]+$/ { print $5 }' "$T/out" | grep -qx "0%" ||
		fail "$m: cover is not 0% for an object freed before its breakpoints went in: $(cat "$T/out")"
done
grep -q "^# cover: the share of the object's .* from its allocation" "$T/out" ||
	fail "the report does not say what cover is: $(cat "$T/out")"
p=$(pid_of lw-short)
[ -n "$p" ] || fail "no workload pid in: $(cat "$T/err")"
gone "$p" lw-short

# (2) The same without --duration: waited for, and Ctrl-C ends it.
"$LINEUP" watch -o "$T/b.data" --alloc filp --comm lw-wait --nth 1 --fields f_ref -- \
	"$T/sharedfd" -n lw-wait -d 0 -c -t 60 >"$T/out" 2>"$T/err" &
w=$!
i=0
until grep -q "waiting for .*sharedfd (pid [0-9]*) to end; Ctrl-C ends it" "$T/err"; do
	i=$((i + 1))
	[ $i -le 600 ] || { kill $w; fail "watch did not say it waits: $(cat "$T/err")"; }
	sleep 0.1
done
p=$(pid_of lw-wait)
kill -INT $w
wait $w
gone "$p" lw-wait

# (3) A rotation that cannot reach every group in the object's life: the members it missed
# are named, and their cover is 0%.
"$LINEUP" watch -o "$T/c.data" --alloc filp --comm lw-rot --all-fields --rotate 0.5 -- \
	"$T/sharedfd" -n lw-rot -d 100 -t 1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch --rotate exited $rc: $(cat "$T/err")"
line=$(grep "warning: [0-9]* of [0-9]* members never had a breakpoint in the object's" "$T/err") ||
	fail "no warning for the members the rotation missed: $(cat "$T/err")"
missed=$(echo "$line" | sed 's/.*unknown): //; s/,.*//')
awk -v m="$missed" '$1 == m && $2 ~ /^[0-9]+$/ { print $5 }' "$T/out" | grep -qx "0%" ||
	fail "$missed, named as missed, has a cover: $(cat "$T/out")"
# (4) Without --nth, a file freed at once is skipped and the next one followed and watched;
# with none after it, watch says that all were skipped.
"$LINEUP" watch -o "$T/d.data" --alloc filp --comm lw-skip --fields f_ref,f_op -- \
	"$T/sharedfd" -n lw-skip -s -d 300 -t 1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch with a file to skip exited $rc: $(cat "$T/err")"
grep -q "(allocation 1[,)].* was freed .* after its allocation: skipped, following the next one (--nth 1 takes it anyway)" "$T/err" ||
	fail "the short-lived file was not skipped: $(cat "$T/err")"
grep -q "^# allocation number 2 of those that matched: 1 before it freed within 250 ms" "$T/out" ||
	fail "the report does not say which allocation it watched: $(cat "$T/out")"
set -- $(member_row "$T/out" f_ref)
[ "${1:-0}" -gt 0 ] || fail "no hits on the file followed after the skip: $(cat "$T/out")"
"$LINEUP" watch -o "$T/e.data" --alloc filp --comm lw-none --fields f_ref -- \
	"$T/sharedfd" -n lw-none -d 0 -c -t 0.5 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "watch with only short-lived files exited $rc: $(cat "$T/err")"
grep -q "no filp object allocated by lw-none outlived 250 ms before the workload exited: 1 freed sooner, skipped" "$T/err" ||
	fail "not said that every object was skipped: $(cat "$T/err")"
slots_free
exit 0
