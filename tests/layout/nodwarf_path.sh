#!/bin/sh
# The no-DWARF message names the places a .gnu_debuglink file was looked for as clean absolute
# paths: a program given as "./prog" (or "dir/prog") was searched in CWD/, CWD/.debug/ and
# /usr/lib/debug/CWD/, and the message said "/usr/lib/debug/./" instead.
. "$top_srcdir/tests/lib.sh"
scratch
command -v gcc >/dev/null 2>&1 || skip "no gcc"
need objcopy
mkdir "$T/dl" || exit 99
printf 'struct s { long a, b; } g;\nint main(void) { return (int)g.a; }\n' >"$T/dl/p.c"
gcc -O1 -g -o "$T/dl/prog" "$T/dl/p.c" || fail "cannot build the program"
(cd "$T/dl" && objcopy --only-keep-debug prog prog.debug && strip --strip-debug prog &&
	objcopy --add-gnu-debuglink=prog.debug prog && rm prog.debug) || fail "objcopy"
abs=$(cd "$T/dl" && pwd -P)

for how in ./prog dl/prog; do
	case $how in ./*) cd "$T/dl" ;; *) cd "$T" ;; esac
	expect_rc 2 "$LINEUP" layout "$how" 2>"$T/err"
	grep -q "no DWARF in the file itself" "$T/err" || fail "$how: no no-DWARF message: $(cat "$T/err")"
	grep -qF ".gnu_debuglink 'prog.debug': not in $abs/, $abs/.debug/ nor /usr/lib/debug$abs/;" \
		"$T/err" || fail "$how: the debuglink places are not clean absolute paths: $(cat "$T/err")"
	! grep -q '/\./\|//' "$T/err" || fail "$how: a '/./' or '//' in: $(cat "$T/err")"
done
exit 0
