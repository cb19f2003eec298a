#!/bin/sh
# A binary whose .gnu_debuglink names a FIFO (planted beside it, in its .debug/, or reached by
# the link's target): layout, fields and report's source lines never open it (libdwfl's own
# search opens with a plain open(), which waits for a writer forever); they go on as without
# debug info.  A regular file there is still found, and one that does not match (another
# build-id) is not taken.
. "$top_srcdir/tests/lib.sh"
need gcc
need objcopy
need mkfifo
scratch
export HOME="$T/home"
mkdir -p "$HOME"

# prog and p.data (tests/lib.sh); prog's DWARF split off into prog.debug, named by .gnu_debuglink
pair_prog
objcopy --only-keep-debug "$T/prog" "$T/keep.debug" || fail "objcopy --only-keep-debug"
cp "$T/keep.debug" "$T/prog.debug"
objcopy --strip-debug --add-gnu-debuglink="$T/prog.debug" "$T/prog" || fail "objcopy --add-gnu-debuglink"
rm "$T/prog.debug"
# the same program built again differs in its build-id: a debug file that is not prog's
sed "s/shared;/shared; int other;/" "$T/prog.c" >"$T/other.c"
gcc -O1 -g -o "$T/other" "$T/other.c" || fail "gcc other"
objcopy --only-keep-debug "$T/other" "$T/other.debug" || fail "objcopy other"

# the regular file beside it: found
cp "$T/keep.debug" "$T/prog.debug"
expect_rc 0 "$LINEUP" layout -C pair "$T/prog" >"$T/out" 2>"$T/err"
grep -q "long int *b; */\* *8 *8 \*/" "$T/out" || fail "prog.debug not used: $(cat "$T/out" "$T/err")"
"$LINEUP" report --stdio -i "$T/p.data" >"$T/out" 2>"$T/err" || fail "report: $(cat "$T/err")"
grep -q "prog.c:" "$T/out" || fail "report has no source line from prog.debug: $(cat "$T/out")"
# another program's debug file at the name: not taken
cp "$T/other.debug" "$T/prog.debug"
expect_rc 2 "$LINEUP" layout -C pair "$T/prog" >"$T/out" 2>"$T/err"
grep -q "no DWARF" "$T/err" || fail "a foreign prog.debug was taken: $(cat "$T/out" "$T/err")"
rm "$T/prog.debug"

for where in beside .debug; do
	rm -rf "$T/prog.debug" "$T/.debug"
	case $where in
	beside) mkfifo "$T/prog.debug" ;;
	.debug) mkdir "$T/.debug" && mkfifo "$T/.debug/prog.debug" ;;
	esac
	w="a FIFO $where"
	no_hang "$w" "$LINEUP" layout -C pair "$T/prog"
	[ $rc -eq 2 ] || fail "layout exit $rc with a FIFO $where: $(cat "$T/err")"
	grep -q "no DWARF" "$T/err" || fail "layout with a FIFO $where: $(cat "$T/err")"
	no_hang "$w" "$LINEUP" report --stdio -i "$T/p.data"
	[ $rc -eq 0 ] || fail "report exit $rc with a FIFO $where: $(cat "$T/err")"
	no_hang "$w" "$LINEUP" fields -i "$T/p.data"
done
# through a symbolic link to the binary: its target's directory is searched too
rm -rf "$T/prog.debug" "$T/.debug"
mkdir "$T/bin" && ln -s "$T/prog" "$T/bin/prog" && mkfifo "$T/bin/prog.debug"
no_hang "a FIFO in the link's directory" "$LINEUP" layout -C pair "$T/bin/prog"
[ $rc -eq 2 ] || fail "layout exit $rc through a link: $(cat "$T/err")"
exit 0
