#!/bin/sh
# lineup watch's output file, as perf record treats its own: an older recording at -o FILE
# (and at the default watch.data) becomes FILE.old; a symbolic link, a directory or a device
# there is refused before anything runs, never written through; the file is mode 0600.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
watch_lock
build_workload gstruct
cd "$T" || exit 99

watch() {
	"$LINEUP" watch -q "$@" --symbol g_stats --fields hits,refs -- "$T/gstruct" 100 \
		>"$T/out" 2>"$T/err"
}

watch -o "$T/w.data"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint\|perf_event_paranoid' "$T/err"; then
	skip "no hardware breakpoints for this user: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || fail "lineup watch exited $rc: $(cat "$T/err")"
[ "$(stat -c %a "$T/w.data")" = 600 ] || fail "mode $(stat -c %a "$T/w.data"), want 600 as perf's"
cp "$T/w.data" "$T/first"
watch -o "$T/w.data" || fail "second watch exited $?: $(cat "$T/err")"
cmp -s "$T/w.data.old" "$T/first" || fail "the first recording was not kept as w.data.old"
# The default output, watch.data in the current directory, the same.
watch || fail "watch to watch.data exited $?: $(cat "$T/err")"
cp watch.data "$T/first"
watch || fail "second watch to watch.data exited $?: $(cat "$T/err")"
cmp -s watch.data.old "$T/first" || fail "watch.data was not kept as watch.data.old"

# A link planted at the output's name: refused, the file it points to untouched.
echo precious >"$T/victim"
ln -s "$T/victim" "$T/link.data"
expect_rc 2 watch -o "$T/link.data"
grep -q 'is not a regular file' "$T/err" || fail "planted link: $(cat "$T/err")"
[ "$(cat "$T/victim")" = precious ] || fail "wrote through the link"
[ -L "$T/link.data" ] || fail "the link was moved"
# A directory, a device: refused the same way.
mkdir "$T/dir.data"
expect_rc 2 watch -o "$T/dir.data"
grep -q 'is not a regular file' "$T/err" || fail "directory: $(cat "$T/err")"
expect_rc 2 watch -o /dev/null
[ -c /dev/null ] || fail "/dev/null was moved"
# A directory that does not exist: said before the run.
expect_rc 2 watch -o "$T/no/such/dir/w.data"
grep -q "cannot write $T/no/such/dir/w.data: No such file or directory" "$T/err" ||
	fail "missing directory: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "the workload ran: $(cat "$T/out")"
exit 0
