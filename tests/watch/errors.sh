#!/bin/sh
# lineup watch's error cases: clear messages, documented exit codes, nothing left behind
# (tracefs unchanged, every breakpoint slot free again).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need_watch_kernel
build_workload sharedfd
cd "$T" || exit 99
before=$(tracefs_state)

# $1 = exit code, $2 = text the message must contain, rest = lineup watch arguments.
check() {
	want=$1 text=$2
	shift 2
	"$LINEUP" watch -o "$T/e.data" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -lt 128 ] || fail "crashed ($rc): lineup watch $*"
	[ $rc -eq "$want" ] || fail "exit $rc, want $want: lineup watch $*: $(cat "$T/err")"
	grep -q "$text" "$T/err" || fail "message lacks '$text': $(cat "$T/err")"
}

check 2 "json and --csv exclude each other" --json --csv --alloc filp --comm x --fields f_ref
"$LINEUP" watch -o /nonexistent-dir/w.data --alloc filp --comm x --fields f_ref -- true \
	>"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'cannot write /nonexistent-dir/w.data' "$T/err" ||
	fail "unwritable output: $(cat "$T/err")"
check 2 "no slab cache 'no_such_cache'" --alloc no_such_cache --fields f_ref -- true
check 2 "no struct no_such_struct" --object 'struct no_such_struct'@0xffff888100000000 --fields x
check 2 "has no member 'f_no_such'" --alloc filp --comm x --fields f_ref,f_no_such -- true
check 2 "which struct are the objects of cache 'kmalloc-64'" --alloc kmalloc-64 --fields x -- true
check 2 "5 members but only 4 breakpoint slots are free on this machine (it has 4)" --alloc filp --comm x \
	--fields f_ref,f_op,f_pos,f_mode,f_flags -- true
check 2 "give exactly one of" --fields f_ref -- true
check 2 "give --fields" --alloc filp -- true
check 2 "no data symbol 'no_such_symbol' in /proc/kallsyms" --symbol no_such_symbol \
	--type 'struct file' --fields f_ref
# The workload exits before allocating a matching object: nothing found.
check 1 "no filp object was allocated by lw-never before the workload exited" \
	--alloc filp --comm lw-never --fields f_ref -- true
# A member given twice takes one slot: three members here, not five (else "5 members but only
# 4 breakpoint slots"), so this gets as far as the workload.
check 1 "no filp object was allocated by lw-never before the workload exited" \
	--alloc filp --comm lw-never --fields f_ref,f_ref,f_op,f_op,f_pos -- true
grep -q "member 'f_ref' given twice in --fields: watched once" "$T/err" ||
	fail "duplicate member not reported: $(cat "$T/err")"
# The object is freed while watched: watching stops, with a message; the hits before count.
check 0 "stopped: the object was freed by lw-close" --alloc filp --comm lw-close \
	--fields f_ref,f_op -- "$T/sharedfd" -n lw-close -d 300 -c -t 0.5
grep -q '^# stopped: the object was freed' "$T/out" || fail "report does not say it was freed"
# Not root: a clear message, exit 2.  (An output path nobody else uses: a file left at a
# shared name by another run was moved to .old first, and failed for lack of permission.)
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LINEUP" watch -o "/tmp/lineup-noroot-$$.data" \
		--alloc filp --comm x --fields f_ref -- true >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "not root: exit $rc: $(cat "$T/err")"
	grep -q 'needs root' "$T/err" || fail "not root: $(cat "$T/err")"
fi
# Slots taken by another tool: the message says so.
a=$(grep -m1 ' [tT] _text$\| [tT] _stext$' /proc/kallsyms | cut -d' ' -f1)
if [ -n "${PERF:-}" ]; then
	"$PERF" stat -a -e "mem:0x$a/8:rw" -e "mem:0x$a/8:rw" -e "mem:0x$a/8:rw" -- sleep 30 \
		>/dev/null 2>&1 &
	p=$!
	# perf opens its events before it starts its workload: wait for the sleep (a busy
	# machine can take seconds to get there)
	for i in $(seq 100); do
		pgrep -P $p -x sleep >/dev/null && break
		sleep 0.2
	done
	check 2 "in use by another tool" --alloc filp --comm lw-busy --fields f_ref,f_op -- \
		"$T/sharedfd" -n lw-busy -d 300 -t 0.2
	kill $p 2>/dev/null
	wait $p 2>/dev/null
fi
# Interrupted (Ctrl-C): stops, reports what it saw, stops the workload, frees everything.
"$LINEUP" watch -o "$T/i.data" --alloc filp --comm lw-int --fields f_ref -- \
	"$T/sharedfd" -n lw-int -d 200 -t 30 >"$T/out" 2>"$T/err" &
p=$!
# ^C once it watches (before, a background job's SIGINT is still the shell's ignored one):
# a busy machine can take seconds to get there.
for i in $(seq 300); do
	grep -q 'watching' "$T/err" 2>/dev/null && break
	sleep 0.2
done
sleep 0.5
kill -INT $p
wait $p
rc=$?
[ $rc -eq 0 ] || fail "interrupted watch exited $rc: $(cat "$T/err")"
grep -q 'stopped by signal 2' "$T/err" || fail "no signal message: $(cat "$T/err")"
grep -q '^  f_ref ' "$T/out" || fail "no report after the interrupt"
! pgrep -f 'sharedfd -n lw-int' >/dev/null || fail "the workload is still running"
"$PERF" script -i "$T/i.data" -F ip >/dev/null 2>&1 || fail "perf cannot read the interrupted recording"

[ "$(tracefs_state)" = "$before" ] || fail "tracefs changed: $before -> $(tracefs_state)"
slots_free
