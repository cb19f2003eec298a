#!/bin/sh
# lineup ab on real commands: bad input (exit 2, the failure shown), sleep 0.12 against sleep
# 0.10 (the 20% found, with its sign, both ways round), identical commands (never "better"),
# and the JSON.  The verdicts rest on sleep's own times, which a busy machine lengthens on
# both sides alike.
. "$top_srcdir/tests/lib.sh"
scratch

# Bad usage and failing commands: exit 2, and the message says what.
expect_rc 2 "$LINEUP" ab -n 1 -- true --- true 2>"$T/err"
grep -q "at least 2 runs" "$T/err" || fail "N < 2 not explained: $(cat "$T/err")"
expect_rc 2 "$LINEUP" ab -- true 2>"$T/err"
grep -q "two commands are needed" "$T/err" || fail "a missing '---' not explained"
expect_rc 2 "$LINEUP" ab -- true --- 2>"$T/err"
grep -q "command B is empty" "$T/err" || fail "an empty command B not explained"
expect_rc 2 "$LINEUP" ab -- "$T/no-such-command" --- true 2>"$T/err"
grep -q "command A cannot be run: $T/no-such-command: No such file" "$T/err" ||
	fail "a command that does not exist not named: $(cat "$T/err")"
expect_rc 2 "$LINEUP" ab -n 3 -- true --- sh -c 'echo boom on stderr >&2; exit 3' 2>"$T/err"
grep -q "command B exited with status 3" "$T/err" || fail "a failing command's status not shown"
grep -q "boom on stderr" "$T/err" || fail "a failing command's stderr not shown"
# ... shown as text, not as orders to the terminal: each control character a '?'
expect_rc 2 "$LINEUP" ab -n 3 -- true --- \
	sh -c 'printf "\033]0;pwned\007\033[2Jafter\n" >&2; exit 3' 2>"$T/err"
grep -qF '?]0;pwned??[2Jafter' "$T/err" || fail "an escape sequence not shown as text"
LC_ALL=C grep -q "$(printf '[\033\007]')" "$T/err" && fail "a failing command's ESC or BEL echoed"
expect_rc 2 "$LINEUP" ab -- sh -c 'kill -TERM $$' --- true 2>"$T/err"
grep -q "command A was killed by signal 15" "$T/err" || fail "a killed command not said"

# B (sleep 0.10) is faster than A (sleep 0.12) by the 20 ms of 100 that sleep adds: better,
# exit 0.  Up to 60 runs each, stopping once the interval is within 3%: on a loaded machine
# the wake-ups come late by tens (at times hundreds) of milliseconds on both sides, which
# dilutes the ratio (140/120 ms is 1.17) while the difference of the medians stays 20 ms.  A
# machine so loaded that 60 runs do not settle it must get "not significant" with the right
# sign and a count of runs to go, never "worse".
sleep_pair() {
	"$LINEUP" ab -n 60 -p 3 --json -- sleep "$1" --- sleep "$2" >"$T/ab.json"
	rc=$?
	python3 - "$T/ab.json" "$3" $rc <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
faster, rc = sys.argv[2] == "faster", int(sys.argv[3])
d = j["a"]["median"] - j["b"]["median"]
r = j["ratio"] if faster else 1 / j["ratio"]
print("%s: difference %.1f ms, ratio %.3f [%.3f, %.3f], %s" %
      (sys.argv[2], d * 1e3, j["ratio"], j["ci"][0], j["ci"][1], j["verdict"]))
assert (d > 0) == faster and r > 1.05, j
if j["verdict"] == "not significant":
    assert rc == 1 and j["more_runs"] > 0, j
    print("note: the machine is too busy for 60 runs to settle 20 ms")
    sys.exit(0)
assert j["verdict"] == ("better" if faster else "worse"), j
assert rc == (0 if faster else 1), rc
assert 0.012 < abs(d) < 0.028, d
assert 1.05 < r < 1.25 and (j["ci"][0] > 1 if faster else j["ci"][1] < 1), j
PY
}
if command -v python3 >/dev/null 2>&1; then
	sleep_pair 0.12 0.10 faster || fail "sleep 0.12 against sleep 0.10: not the 20% faster"
	sleep_pair 0.10 0.12 slower || fail "sleep 0.10 against sleep 0.12: not the 20% slower"
fi
# The text says the same.  (12 runs each: with 6, one run's wake-up late by 200 ms on a busy
# machine widened the rank interval past 1.)
"$LINEUP" ab -n 12 -p 0 -- sleep 0.12 --- sleep 0.02 >"$T/out"
rc=$?
cat "$T/out"
[ $rc -eq 0 ] || fail "sleep 0.12 against sleep 0.02: exit $rc, not 0 (better)"
grep -Eq '^B ran [0-9.]+ times faster than A \(95% CI .*: better$' "$T/out" ||
	fail "sleep 0.12 against sleep 0.02: the text does not say faster"

# Identical commands: never "better".  At 95% a false verdict either way comes once in 20
# runs, "better" once in 40: it must not come twice in a row (1 in 1600).
identical() {
	"$LINEUP" ab -n 12 -p 0 --json -- sleep 0.02 --- sleep 0.02 >"$T/same.json"
}
if identical; then
	identical && fail "identical commands called better twice: $(cat "$T/same.json")"
fi
grep -q '"verdict": "better"' "$T/same.json" && fail "identical commands called better"

# The JSON: both sides' runs, the interval around the ratio, the method named.
if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/same.json" <<'PY' || fail "--json is not what it should be"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["a"]["command"] == ["sleep", "0.02"] and j["b"]["runs"] == 12, j
assert len(j["a"]["wall_s"]) == 12 and len(j["b"]["user_s"]) == 12
assert j["ci"][0] <= j["ratio"] <= j["ci"][1]
assert "Mann-Whitney" in j["method"] and j["level"] == 0.95
assert j["verdict"] in ("not significant", "worse")
PY
fi

# Too few runs for a 95% interval: said, not significant.
expect_rc 1 "$LINEUP" ab -n 3 -w 0 -- true --- true >"$T/out"
grep -q "too few runs for a 95% interval" "$T/out" || fail "3 runs: too few not said"

# --plot: both rows over one axis.  (The verdict is not what is tested: 4 runs of identical
# commands separate completely by chance 1 time in 35, and a busy machine makes it likelier.)
"$LINEUP" ab -n 4 --plot -- true --- true >"$T/out"
rc=$?
[ $rc -le 1 ] || fail "--plot: exit $rc"
grep -q '^  A |' "$T/out" && grep -q '^  B |' "$T/out" || fail "--plot drew no rows"
exit 0
