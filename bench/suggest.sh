#!/bin/sh
# lineup suggest on a struct of 100+ members: the running kernel's task_struct (from its BTF),
# with a synthetic profile of kernel memory samples (16 threads: per-thread members, members
# every thread writes, read-mostly members, cold ones), beside `lineup fields` on the same
# recording (suggest reads and attributes the same samples, then orders, places and replays).
# Prints wall and CPU times; the target is a second or less for suggest.  Not a test.
#   bench/suggest.sh [LINEUP] [SAMPLES]   (default ./lineup, 200000)
set -u
LINEUP=${1:-${LINEUP:-./lineup}}
N=${2:-200000}
top=$(cd "$(dirname "$0")/.." && pwd)
MKKERN=${MKKERN:-$top/tests/fields/mkkern}
[ -r /sys/kernel/btf/vmlinux ] || { echo "no /sys/kernel/btf/vmlinux: nothing to measure"; exit 0; }
[ -x "$MKKERN" ] || { echo "no $MKKERN (make check builds it)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
BASE=0xffff888100000000

"$LINEUP" layout --btf -C task_struct --json >"$T/ts.json" || { echo "no task_struct in BTF"; exit 1; }
python3 - "$T" "$N" "$BASE" <<'PY' || exit 1
import json, random, sys
T, N, BASE = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 16)
d = json.load(open(T + "/ts.json"))
d = d[0] if isinstance(d, list) else d
mem = [m for m in d["members"] if m.get("size")]
print("task_struct: %d bytes, %d members" % (d["size"], len(d["members"])))
rnd = random.Random(1)
hot = rnd.sample(mem, min(60, len(mem)))
kind = {}
for i, m in enumerate(hot):
    kind[m["offset"]] = ("own", i % 16) if i % 3 == 0 else ("all", None) if i % 3 == 1 else ("read", None)
LCL_HITM, ST = 0x010605800842, 0x010205080184
out = ["kernel 0xffffffff81000000 0x1000000"]
t = 1000000000
offs = list(kind)
for i in range(N):
    off = rnd.choice(offs)
    k, owner = kind[off]
    cpu = rnd.randrange(16)
    if k == "own":
        cpu = owner
    t += 100
    if k == "read" or rnd.random() < 0.5:
        out.append("load 0xffffffff81234567 %#x %d %d %#x 200 %d" % (BASE + off, cpu, 1000 + cpu, LCL_HITM, t))
    else:
        out.append("store 0xffffffff81234567 %#x %d %d %#x 0 %d" % (BASE + off, cpu, 1000 + cpu, ST, t))
open(T + "/scenario", "w").write("\n".join(out) + "\n")
PY
"$MKKERN" "$T/perf.data" <"$T/scenario" || exit 1
hint="struct task_struct@$BASE"
run() {	# run LABEL CMD...: wall and CPU seconds
	label=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$T/t" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	awk -v l="$label" -v rc=$rc '{ printf "%-34s wall %6.2f s  cpu %6.2f s  peak %7d KB  (exit %d)\n", l, $1, $2 + $3, $4, rc }' "$T/t"
}
run "lineup fields ($N samples)" "$LINEUP" fields -i "$T/perf.data" --type "$hint"
run "lineup suggest -C task_struct" "$LINEUP" suggest -i "$T/perf.data" --type "$hint" -C task_struct
sed -n "1,6p" "$T/out"
