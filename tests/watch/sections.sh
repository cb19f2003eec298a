#!/bin/sh
# Two objects followed in one run, two sections: the workload opens a file for 150 ms (skipped:
# freed within 250 ms of its allocation), then the file it works on (watched).  Each section
# says which object it is (number, address, path), its life, its hits per member and cover, and
# the skipped one says why it was skipped; --json has the skipped one in skipped_objects, --csv
# one table of both objects' members.  An early death names the --nth that would have lived.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need_watch_kernel
build_workload sharedfd
cd "$T" || exit 99
abs=$(pwd -P)
echo data >"$T/work.txt"

"$LINEUP" watch -o "$T/a.data" --alloc filp --comm lw-sec --fields f_ref,f_op -- \
	"$T/sharedfd" -n lw-sec -s -f "$T/work.txt" -d 300 -t 0.5 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch exited $rc: $(cat "$T/err")"
! grep -q '^# what: unknown (no path: kernel memory cannot be read' "$T/out" ||
	skip "kernel memory cannot be read here (no /proc/kcore, no BPF): no path to name"
[ "$(grep -c '^# lineup watch: struct file at 0x' "$T/out")" -eq 2 ] ||
	fail "not two sections: $(cat "$T/out")"
# each section from its header to the next one's
awk '/^# lineup watch: /{ n++ } n { print > ("'"$T"'/section" n) }' "$T/out"
s1=$T/section1
s2=$T/section2
grep -q '^# lineup watch: struct file at 0x[0-9a-f]* (.*): object 1 of 2, skipped$' "$s1" ||
	fail "the first section is not the skipped object 1 of 2: $(cat "$s1")"
# (named while it is open, unless this machine kept lineup from running for 150 ms)
grep -q "^# what: $abs/sharedfd (\|^# what: unknown: read .* after its free" "$s1" ||
	fail "the skipped section does not name the file (the program, /proc/self/exe): $(cat "$s1")"
grep -q '^# skipped: freed by lw-sec/[0-9]* [0-9.]* ms after its allocation, within 250 ms, with [0-9]* hits* (--nth 1 watches it anyway)$' "$s1" ||
	fail "the skipped section does not say why it was skipped: $(cat "$s1")"
grep -q "^# cover: the share of the object's [0-9.]* ms from its allocation" "$s1" ||
	fail "the skipped section has no life: $(cat "$s1")"
for m in f_ref f_op; do
	awk -v m=$m '$1 == m && $2 ~ /^[0-9]+$/ && $5 ~ /%$/ && $6 ~ /^[0-9]+$/ { ok = 1 } END { exit !ok }' "$s1" ||
		fail "no row with cover and hits for $m in the skipped section: $(cat "$s1")"
done
grep -q '^# lineup watch: struct file at 0x[0-9a-f]* (.*): object 2 of 2, watched$' "$s2" ||
	fail "the second section is not the watched object 2 of 2: $(cat "$s2")"
grep -q "^# what: $abs/work.txt (fd [0-9]* of pid [0-9]*)$" "$s2" ||
	fail "the watched section does not name its file: $(cat "$s2")"
a1=$(sed -n 's/^# lineup watch: struct file at \(0x[0-9a-f]*\).*/\1/p' "$s1")
a2=$(sed -n 's/^# lineup watch: struct file at \(0x[0-9a-f]*\).*/\1/p' "$s2")
[ "$a1" != "$a2" ] || [ -n "$a1" ] || fail "the two sections have one address"
set -- $(member_row "$T/out" f_ref)
[ "${1:-0}" -gt 0 ] || fail "no hits on the watched object: $(cat "$s2")"

"$LINEUP" watch --json -o "$T/b.data" --alloc filp --comm lw-sec2 --fields f_ref -- \
	"$T/sharedfd" -n lw-sec2 -s -f "$T/work.txt" -d 300 -t 0.3 >"$T/json" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch --json exited $rc: $(cat "$T/err")"
grep -q '"skipped_objects":\[{"address":[0-9]*,"allocation_number":1,.*"path":"'"$abs"'/sharedfd".*"why":"freed within 250 ms of its allocation".*"members":\[{"member":"f_ref"' "$T/json" ||
	fail "no skipped object in the JSON: $(head -c 2000 "$T/json")"
grep -q '"what":{"path":"'"$abs"'/work.txt"' "$T/json" ||
	fail "the watched object's path is not in the JSON: $(head -c 2000 "$T/json")"
# --csv: one table of both objects' members, led by the columns saying which object.
"$LINEUP" watch --csv -o "$T/e.data" --alloc filp --comm lw-csv --fields f_ref,f_op -- \
	"$T/sharedfd" -n lw-csv -s -f "$T/work.txt" -d 300 -t 0.3 >"$T/csv" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch --csv exited $rc: $(cat "$T/err")"
head -1 "$T/csv" | grep -q '^object,status,object_address,path,allocated_at,user_caller,member,' ||
	fail "no object columns in the CSV header: $(head -1 "$T/csv")"
for want in "1,skipped,[0-9]*,$abs/sharedfd,alloc_empty_file+0x[0-9a-f]* <- .*,f_ref," \
	"1,skipped,[0-9]*,$abs/sharedfd,.*,f_op," "2,watched,[0-9]*,$abs/work.txt,.*,f_ref," \
	"2,watched,[0-9]*,$abs/work.txt,.*,f_op,"; do
	grep -q "^$want" "$T/csv" || fail "no CSV row '$want': $(cat "$T/csv")"
done
[ "$(wc -l <"$T/csv")" -eq 5 ] || fail "not a header and four rows: $(cat "$T/csv")"

# --nth 1 takes the short-lived file: it dies early, and watch, which went on following the
# allocations while the workload ran, names the --nth that takes the long-lived one ("lived at
# least" when that one was still allocated as the workload ended, as on a busy machine).
"$LINEUP" watch -q -o "$T/c.data" --alloc filp --comm lw-nth --nth 1 --fields f_ref -- \
	"$T/sharedfd" -n lw-nth -s -f "$T/work.txt" -d 300 -t 0.5 >"$T/out" 2>"$T/err"
grep -q "watch: allocation 2 of those that matched (at 0x[0-9a-f]*) lived \(at least \)\{0,1\}[0-9.]* m*s: --nth 2 watches it$" "$T/err" ||
	fail "no --nth hint naming the long-lived allocation: $(cat "$T/err")"
# Every object skipped: each has its section, and the longest-lived is named.
"$LINEUP" watch -o "$T/d.data" --alloc filp --comm lw-all --fields f_ref -- \
	"$T/sharedfd" -n lw-all -s -d 0 -c -t 0.3 >"$T/out" 2>"$T/err"
[ "$(grep -c '^# lineup watch: struct file at 0x.*: object [12] of 2, skipped$' "$T/out")" -eq 2 ] ||
	fail "not two skipped sections when every object was skipped: $(cat "$T/out")"
grep -q "2 freed sooner, skipped; --nth N watches the N-th anyway (the longest-lived: --nth 1, \($abs/sharedfd, \)\{0,1\}[0-9.]* ms)" "$T/err" ||
	fail "the longest-lived skipped object is not named: $(cat "$T/err")"
slots_free
exit 0
