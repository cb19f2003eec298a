#!/bin/sh
# lineup watch --all-fields --rotate: every member of the running kernel's struct file gets its
# breakpoint for part of a longer run (4 slots, so in groups), and the table lists them all
# with the share of the run each was watched.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need_watch_kernel
build_workload sharedfd

# The members of struct file on this kernel, from BTF (pahole's view, anonymous unions as one).
nmembers=$("$LINEUP" layout --btf -C file 2>/dev/null | sed -n 's/.*members: \([0-9]*\).*/\1/p')
[ -n "$nmembers" ] || fail "lineup layout --btf -C file gives no member count"

cd "$T" || exit 99
"$LINEUP" watch -o "$T/r.data" --alloc filp --comm lw-rotate --all-fields --rotate 0.1 -- \
	"$T/sharedfd" -n lw-rotate -p -d 200 -t 2 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint' "$T/err"; then
	skip "no hardware breakpoints"
fi
[ $rc -eq 0 ] || fail "lineup watch exited $rc: $(cat "$T/err")"
cat "$T/out"

awk '$2 ~ /^[0-9]+$/ && NF >= 13 && $1 !~ /^#/' "$T/out" >"$T/rows"
n=$(wc -l <"$T/rows")
[ -z "$nmembers" ] || [ "$n" -eq "$nmembers" ] || fail "$n member rows, BTF has $nmembers members"
[ "$n" -ge 10 ] || fail "only $n member rows"
# Every member covered for part of the run.
uncovered=$(awk '$5 == "0%" { print $1 }' "$T/rows")
[ -z "$uncovered" ] || fail "members never watched: $uncovered"
grep -q '^  f_ref ' "$T/rows" || fail "no f_ref row"
grep -q 'every member had its breakpoint' "$T/out" || fail "coverage not stated"
# The hot members still show up.
set -- $(member_row "$T/out" f_ref)
[ "${1:-0}" -gt 0 ] || fail "no hits on f_ref while rotating"
