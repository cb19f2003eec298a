#!/bin/sh
# Oracle: BPF programs and other code the kernel registers at run time reach perf.data as
# KSYMBOL records; perf gives each a kernel map and one symbol named after it, and removes the
# map when the program is unregistered.  lineup's symbol and object for each sample equal
# `perf script -F ip,sym,dso`'s on a file with registrations, an unregistration and samples
# inside, at the end of, past and after them.
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] || skip "perf is not installed"
scratch
KT=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms 2>/dev/null)
[ -n "$KT" ] && [ "$KT" != 0000000000000000 ] || KT=ffffffff81000000

cat > "$T/scenario" <<EOF2
kernel $KT 1000000
ksym ffffffffa0001000 80 bpf_prog_6deef7357e7b4530_sd_devices
ksym ffffffffa0002000 40 bpf_prog_aaaabbbbccccdddd_other
ksym ffffffffa0003000 100 bpf_trampoline_6442
load ffffffffa0001000
load ffffffffa0001010
load ffffffffa000107f
load ffffffffa0001080
load ffffffffa0002004
load ffffffffa00030ff
unksym ffffffffa0002000 40 bpf_prog_aaaabbbbccccdddd_other
load ffffffffa0002004
load ffffffffa0001004
load $KT
EOF2
"$top_builddir/tests/tools/mkksym" "$T/perf.data" < "$T/scenario" || fail "mkksym failed"
"$PERF" script -i "$T/perf.data" -F ip,sym,dso 2>/dev/null > "$T/want" || fail "perf script failed"
"$top_builddir/tests/tools/resolve" --no-srcline "$T/perf.data" > "$T/got" || fail "resolve failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got"
	fail "KSYMBOL samples resolve differently from perf script"
fi
grep -q 'bpf_prog_6deef7357e7b4530_sd_devices (bpf_prog' "$T/got" || fail "no BPF symbol"
echo "$(wc -l < "$T/got") samples around KSYMBOL records resolved like perf"
