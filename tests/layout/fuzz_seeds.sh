#!/bin/sh
# Every ELF fuzzing seed (tests/fuzz/seeds/elf-*: the fuzzer's finds, kept) through lineup
# layout, DWARF and BTF, with a name that is not there (the closest names are then looked
# for): exit 0, 1 or 2, never a signal.  elf-btf-name-offset.bin, found by the structure-aware
# mutator of tests/fuzz/elf_fuzz.c, crashed (a BTF name offset past the strings: strlen(NULL)).
. "$top_srcdir/tests/lib.sh"
scratch
n=0
for f in "$top_srcdir"/tests/fuzz/seeds/elf-*; do
	for how in dwarf btf; do
		if [ $how = btf ]; then
			timeout 60 "$LINEUP" layout --btf="$f" -C no_such_struct >/dev/null 2>"$T/err"
		else
			timeout 60 "$LINEUP" layout -C no_such_struct "$f" >/dev/null 2>"$T/err"
		fi
		rc=$?
		[ $rc -le 2 ] || fail "exit $rc (a crash, or 124: hung) on $(basename "$f") $how: $(head -3 "$T/err")"
		! grep -q Sanitizer "$T/err" || fail "sanitizer report on $(basename "$f") $how"
		# and every struct built and printed (elf-member-size-overflow.bin: a member of 2^60
		# bytes made the hole arithmetic overflow, undefined behaviour)
		if [ $how = btf ]; then
			timeout 60 "$LINEUP" layout --btf="$f" >/dev/null 2>"$T/err"
		else
			timeout 60 "$LINEUP" layout "$f" >/dev/null 2>"$T/err"
		fi
		rc=$?
		[ $rc -le 2 ] || fail "exit $rc, every struct, on $(basename "$f") $how: $(head -3 "$T/err")"
		! grep -q 'Sanitizer\|runtime error' "$T/err" ||
			fail "sanitizer report, every struct, on $(basename "$f") $how: $(head -3 "$T/err")"
	done
	n=$((n + 1))
done
[ $n -ge 4 ] || fail "only $n seeds"
exit 0
