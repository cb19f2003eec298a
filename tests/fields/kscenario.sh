# The kernel recording of tests/fields/kernel.sh and tests/suggest/kernel.sh (sourced after
# tests/lib.sh, with $T, $KVER and $MKKERN set): tests/kmod/lineup_touch.c built against the
# headers, the instruction of each function that touches its field picked in the disassembly,
# and a perf.data of kernel memory samples at those real IPs, with data addresses inside
# instances.  Leaves $KO, $T/plan, $T/scenario, $T/expect (type, member, HITM per sample) and
# $T/perf.data.
kernel_scenario() {
build_test_module
objdump -d --no-show-raw-insn "$KO" >"$T/dis" || fail "objdump failed"

# What each function touches (the truth, written here) and how it is sampled:
#   FUNCTION INSTANCE TYPE MEMBER OP COUNT CPUS [NTH]
#   (OP: L load/HITM, S store, LS locked RMW, I indexed; NTH: which memory operand of the
#   function, 1 by default: the 2nd of lineup_bh_bdev_open is the access through the pointer
#   it loaded first, bh->b_bdev->bd_openers, where no variable holds the pointer)
cat >"$T/plan" <<'EOF'
lineup_file_get        file  struct_file  f_count           LS 40 0-7
lineup_file_put        file  struct_file  f_count           LS 20 0-7
lineup_file_trylock    file  struct_file  f_lock            LS 30 0-7
lineup_file_unlock     file  struct_file  f_lock            S  10 0-7
lineup_file_pos_lock   file  struct_file  f_pos_lock.owner  LS 20 0-7
lineup_file_op         file  struct_file  f_op              L  30 4-7
lineup_file_inode      file  struct_file  f_inode           L  20 4-7
lineup_file_dentry     file  struct_file  f_path.dentry     L  20 4-7
lineup_file_mapping    file  struct_file  f_mapping         L  10 4-7
lineup_bh_set_uptodate bh    struct_buffer_head b_state     LS 30 0-7
lineup_bh_next         bh    struct_buffer_head b_this_page L  10 4-7
lineup_bdev_open       bdev  struct_block_device bd_openers LS 10 0-7
lineup_bdev_stamp      bdev  struct_block_device bd_stamp   L  10 4-7
lineup_part_inc_in_flight part struct_lineup_hd_struct in_flight I 30 0-7
lineup_part_get        part  struct_lineup_hd_struct ref    LS 10 0-7
lineup_part_in_flight  part  struct_lineup_hd_struct in_flight L 10 0-1
lineup_mbe_get         mbe   struct_mb_cache_entry e_refcnt LS 10 0-7
lineup_mbe_value       mbe   struct_mb_cache_entry e_value  L  10 4-7
lineup_bh_bdev_open    bdev  struct_block_device bd_openers LS 10 0-7 2
lineup_file_sb         inode struct_inode i_sb              L  10 4-7 2
EOF

python3 - "$T" <<'EOF' || fail "could not write the scenario"
import re, sys
T = sys.argv[1]
dis = open(T + "/dis").read()
funcs = {}
for m in re.finditer(r"^([0-9a-f]+) <([^>]+)>:\n((?:\s+[0-9a-f]+:.*\n)+)", dis, re.M):
    funcs[m.group(2)] = m.group(3)
MOD = 0xffffffffc0a00000
base = {"file": 0xffff888104e3a400, "bh": 0xffff888105000080, "bdev": 0xffff888106000000,
        "part": 0xffff888107000040, "mbe": 0xffff888108000000, "inode": 0xffff888109000000}
# data_src values (mkperf --classes): HITM loads, stores, locked variants
LCL_HITM, RMT_HITM = 0x010605800842, 0x111605808042
ST_L1MISS = 0x010205080184
def locked(v): return (v & ~(3 << 24)) | (2 << 24)
out = ["kernel 0xffffffff81000000 0x1000000",
       "module %#x 0x10000 %s/kmod/lineup_touch.ko" % (MOD, T)]
expect = []
t = 1000000000
for line in open(T + "/plan"):
    fields = line.split()
    fn, inst, typ, member, op, count, cpus = fields[:7]
    nth = int(fields[7]) if len(fields) > 7 else 1
    body = funcs.get(fn)
    if body is None:
        sys.exit("no function %s in the disassembly" % fn)
    ip = disp = None
    for ins in body.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s+(.*)", ins)
        if not m or "__fentry__" in ins or m.group(2).startswith("call"):
            continue
        mem = re.search(r"(-?0x[0-9a-f]+)?\(%(r[a-z0-9]+)[,)]", m.group(3))
        if mem and mem.group(2) not in ("rsp", "rip"):
            nth -= 1
            if nth:
                continue
            ip = int(m.group(1), 16)
            disp = int(mem.group(1), 16) if mem.group(1) else 0
            break
    if ip is None:
        sys.exit("no memory operand in %s" % fn)
    lo, hi = map(int, cpus.split("-"))
    for i in range(int(count)):
        cpu = lo + (i + i // 2) % (hi - lo + 1)
        addr = base[inst] + disp + (4 * (i % 2) if op == "I" else 0)
        t += 1000
        rmt = (i % 3 == 0)
        if op == "L" or (op == "LS" and i % 2):
            ds = RMT_HITM if rmt else LCL_HITM
            if op == "LS":
                ds = locked(ds)
            out.append("load %#x %#x %d %d %#x %d %d" % (MOD + ip, addr, cpu, 1000 + cpu, ds,
                                                         300 if rmt else 150, t))
            expect.append((typ.replace("_", " ", 1), member, 1))
        else:
            ds = locked(ST_L1MISS) if op in ("LS", "I") else ST_L1MISS
            out.append("store %#x %#x %d %d %#x 0 %d" % (MOD + ip, addr, cpu, 1000 + cpu, ds, t))
            expect.append((typ.replace("_", " ", 1), member, 0))
# The rest: HITM loads in the kernel proper, which has no symbols here (no -k vmlinux).
for i in range(8):
    t += 1000
    out.append("load 0xffffffff81234567 %#x %d %d %#x 200 %d" % (base["file"] + 0x38, i, 1000 + i,
                                                                 LCL_HITM, t))
open(T + "/scenario", "w").write("\n".join(out) + "\n")
with open(T + "/expect", "w") as f:
    for typ, member, hitm in expect:
        f.write("%s\t%s\t%d\n" % (typ, member, hitm))
EOF

"$MKKERN" "$T/perf.data" <"$T/scenario" || fail "mkkern failed"

"$MKKERN" "$T/perf.data" <"$T/scenario" || fail "mkkern failed"
}
