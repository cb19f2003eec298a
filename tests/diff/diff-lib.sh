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
