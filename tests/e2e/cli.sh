#!/bin/sh
# The command line: help, exit codes, and the man page generated from the same option tables.
. "$top_srcdir/tests/lib.sh"
scratch

"$LINEUP" --help >"$T/help" || fail "--help exits non-zero"
grep -q '^subcommands:' "$T/help" || fail "--help lists no subcommands"
expect_rc 2 "$LINEUP" 2>/dev/null
expect_rc 2 "$LINEUP" no-such-subcommand 2>"$T/err"
grep -q "no-such-subcommand" "$T/err" || fail "unknown subcommand not named in the error"

# Every subcommand answers --help with its usage line and exits 0.
for c in $(sed -n '/^subcommands:/,/^$/p' "$T/help" | awk 'NR>1 && NF {print $1}'); do
	"$LINEUP" "$c" --help >"$T/h.$c" || fail "lineup $c --help exits non-zero"
	grep -q "^usage: lineup $c" "$T/h.$c" || fail "lineup $c --help has no usage line"
	expect_rc 2 "$LINEUP" "$c" --no-such-option 2>/dev/null
done

# `lineup help` alone lists the subcommands, as `lineup --help` does (issue 23).
"$LINEUP" help >"$T/help" || fail "lineup help failed"
grep -q '^  suggest ' "$T/help" && grep -q '^  watch ' "$T/help" ||
	{ cat "$T/help"; fail "lineup help does not list the subcommands"; }
"$LINEUP" --help | cmp -s - "$T/help" || fail "lineup help and lineup --help differ"

# doc/lineup.1 must be what the option tables generate now.
"$LINEUP" help --man >"$T/man" || fail "help --man failed"
diff -u "$top_srcdir/doc/lineup.1" "$T/man" ||
	fail "doc/lineup.1 drifted from the option tables: run 'lineup help --man > doc/lineup.1'"
exit 0
