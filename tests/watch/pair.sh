#!/bin/sh
# The two ways lineup tells loads from writes agree: decoding the instruction that ended at the
# trap (--method decode) and a write-only + read/write breakpoint pair on the same word
# (--method pair), on a user global (exact counts from the source) and on the kernel's
# struct file f_ref (the same code sites are writes and loads both ways: the pair does not
# split by function here, see notes).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
watch_lock
build_workload gstruct
cd "$T" || exit 99

"$LINEUP" watch --method pair -o "$T/p.data" --symbol g_stats --fields hits,refs -- \
	"$T/gstruct" 1000 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint' "$T/err"; then
	skip "no hardware breakpoints: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || fail "pair watch exited $rc: $(cat "$T/err")"
grep -q 'access kinds: write-only + read/write breakpoint pair' "$T/out" || fail "method not stated"
got=$(member_row "$T/out" hits | cut -d' ' -f1-6)
[ "$got" = "2001 1001 1000 0 0 0" ] || fail "pair, hits: $got"
got=$(member_row "$T/out" refs | cut -d' ' -f1-6)
[ "$got" = "2001 1 2000 0 0 0" ] || fail "pair, refs (RMWs are writes): $got"
must_fail "$LINEUP" watch --method pair -o "$T/p.data" --symbol g_stats \
	--fields hits,refs,name -- "$T/gstruct" 10 2>"$T/err"
grep -q 'the pair method watches at most 2' "$T/err" || fail "$(cat "$T/err")"

# Kernel: f_ref both ways.
[ "$(id -u)" -eq 0 ] || exit 0
need_watch_kernel
build_workload sharedfd
for m in decode pair; do
	"$LINEUP" watch --method $m -o "$T/$m.data" --alloc filp --comm lw-pair-$m --fields f_ref \
		-- "$T/sharedfd" -n lw-pair-$m -p -d 300 -t 0.5 >"$T/$m.out" 2>"$T/$m.err" ||
		fail "$m: $(cat "$T/$m.err")"
	# function kind, one per line, for the sites hit more than 10 times
	awk '/^f_ref \(/ { on = 1; next } on && /^$/ { on = 0 } on && $1 ~ /^[0-9]+$/ && $1 > 10 {
		split($3, f, "+"); print f[1], $2 }' "$T/$m.out" | sort -u >"$T/$m.sites"
done
cat "$T/decode.sites" "$T/pair.sites"
sed 's/ locked-rmw$/ store/; s/ rmw$/ store/' "$T/decode.sites" | sort -u >"$T/decode.norm"
diff -u "$T/decode.norm" "$T/pair.sites" || fail "decode and pair disagree on f_ref's code sites"
grep -q '^fput store$' "$T/pair.sites" && grep -q '^fdget_pos load$' "$T/pair.sites" ||
	fail "pair: fput not a write or fdget_pos's load missing"
slots_free
