#!/bin/sh
# A recording whose MMAP2 file name is a FIFO on the reading machine (the binary replaced
# since, or a name planted on purpose): report, fields and the symbolizer never open it (a
# plain open() of a FIFO waits for a writer forever); its samples stay unresolved.  Same for
# a directory and a device at that name.
. "$top_srcdir/tests/lib.sh"
need gcc
need mkfifo
scratch
RESOLVE="$top_builddir/tests/tools/resolve"
export HOME="$T/home"
mkdir -p "$HOME"
pair_prog
for what in fifo directory device; do
	rm -rf "$T/prog"
	case $what in
	fifo) mkfifo "$T/prog" ;;
	directory) mkdir "$T/prog" ;;
	device) ln -s /dev/zero "$T/prog" ;;
	esac
	w="a $what at the binary's name"
	no_hang "$w" "$LINEUP" report -i "$T/p.data" --stdio
	[ $rc -eq 0 ] || fail "report exit $rc with a $what: $(cat "$T/err")"
	no_hang "$w" "$LINEUP" report -i "$T/p.data" --stdio -d 0 --full-symbols
	no_hang "$w" "$LINEUP" fields -i "$T/p.data"
	no_hang "$w" "$LINEUP" info -i "$T/p.data"
	no_hang "$w" "$RESOLVE" "$T/p.data"
	[ $rc -eq 0 ] || fail "resolve exit $rc with a $what: $(cat "$T/err")"
done
exit 0
