# Helpers of the diff tests (sourced after tests/lib.sh, scratch and tests/sim/sim-lib.sh).

# record_hitm OUT PROG ARGS: record until at least 10 HITMs (threads that took turns).
record_hitm() {
	local out=$1 try n
	shift
	for try in 1 2 3 4 5; do
		sim_record "$out" "$@"
		n=$(sed -n 's/.* \([0-9]*\) of them HITM;.*/\1/p' "$T/record.err")
		[ "${n:-0}" -ge 10 ] && return 0
		echo "try $try: $n HITMs, again" >&2
	done
	fail "$* never showed 10 HITMs in 5 runs"
}

# overlap_low RECORD_ERR [SLACK]: record's summary says the threads overlapped for under 1% of
# the modeled time, what diff calls inconclusive.  The milliseconds are rounded to 0.1: SLACK
# 0.05 (the default) means surely under, -0.05 possibly under.
overlap_low() {
	sed -n 's/.* at the same time for \([0-9.]*\) ms of \([0-9.]*\) ms.*/\1 \2/p' "$1" |
		awk -v d="${2:-0.05}" '{ low = ($1 + d) * 100 < $2 } END { exit !low }'
}

# check JSON PYTHON WHAT: run PYTHON with the diff's JSON as j and group(NAME), the one line
# group whose holdings name NAME; fail with WHAT and the JSON when it raises.
check() {
	python3 - "$1" <<PY || fail "$3: $(cat "$1")"
import json, sys
j = json.load(open(sys.argv[1]))
def group(name):
    g = [r for r in j["lines"] if name in r["holds"]]
    assert len(g) == 1, [r["holds"] for r in j["lines"]]
    return g[0]
$2
PY
}
