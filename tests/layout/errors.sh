#!/bin/sh
# lineup layout on what is not there: a missing struct (exit 1, closest names), no debug info
# (exit 2, where lineup looked), separate debuginfo found by .gnu_debuglink and by build-id,
# and bad ELF input (exit 2, a clear message, never a crash), including 200 mutated objects.
. "$top_srcdir/tests/lib.sh"
scratch
command -v gcc >/dev/null 2>&1 || skip "no gcc"
src=$top_srcdir/tests/layout
gcc -g -c "$src/structs.c" -I"$src" -o "$T/s.o" || fail "structs.c does not compile"

# Not found: exit 1, and the closest names.
expect_rc 1 "$LINEUP" layout -C hd_strcut "$T/s.o" >"$T/out" 2>"$T/err"
grep -q "hd_strcut" "$T/err" || fail "the missing name is not in the message"
grep -q "closest: hd_struct" "$T/err" || fail "no closest name: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "output for a missing struct"
# one found, one not: the found one is printed, exit 1
expect_rc 1 "$LINEUP" layout -C bits,nosuch "$T/s.o" >"$T/out" 2>/dev/null
grep -q '^struct bits {' "$T/out" || fail "the found struct is not printed"

# No debug info: exit 2, say what is missing and where lineup looked.
cp "$T/s.o" "$T/stripped.o" && strip --strip-debug "$T/stripped.o"
expect_rc 2 "$LINEUP" layout "$T/stripped.o" 2>"$T/err"
grep -q "stripped.o" "$T/err" && grep -q "no DWARF" "$T/err" || fail "no-DWARF message: $(cat "$T/err")"
grep -q "debuginfod" "$T/err" || fail "the message does not say whether debuginfod was tried"

# A linked program: its build-id names the debuginfo path that was looked for.
gcc -g -Wl,--build-id "$src/structs.c" -I"$src" -shared -fPIC -o "$T/lib.so" || fail "cannot link"
cp "$T/lib.so" "$T/lib-stripped.so" && strip --strip-debug "$T/lib-stripped.so"
expect_rc 2 "$LINEUP" layout "$T/lib-stripped.so" 2>"$T/err"
grep -q "/usr/lib/debug/.build-id/../.*\.debug" "$T/err" || fail "no build-id path: $(cat "$T/err")"

# Separate debuginfo through .gnu_debuglink, beside the file.
mkdir "$T/dl" && cp "$T/lib.so" "$T/dl/lib.so"
objcopy --only-keep-debug "$T/dl/lib.so" "$T/dl/lib.so.debug"
strip --strip-debug "$T/dl/lib.so"
(cd "$T/dl" && objcopy --add-gnu-debuglink=lib.so.debug lib.so) || fail "objcopy"
"$LINEUP" layout -C hd_struct "$T/dl/lib.so" >"$T/out" || fail "debuglink debuginfo not found"
grep -q 'rcu_work; */' "$T/out" || grep -q 'rcu_work;' "$T/out" || fail "wrong debuglink output"

# Separate debuginfo by build-id in perf's cache, ~/.debug/.build-id/xx/yyyy/debug.
id=$(readelf -n "$T/lib-stripped.so" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || fail "no build-id in the linked library"
dir=$T/home/.debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)
mkdir -p "$dir" && cp "$T/lib.so" "$dir/debug"
HOME=$T/home "$LINEUP" layout -C bits "$T/lib-stripped.so" >"$T/out" ||
	fail "build-id debuginfo in ~/.debug not found"
grep -q '^struct bits {' "$T/out" || fail "wrong build-id output"

# Bad input: exit 2, a message naming the file, no crash.
expect_rc 2 "$LINEUP" layout "$T/nonexistent.o" 2>"$T/err"
grep -q nonexistent "$T/err" || fail "missing file not named"
echo "not an object" >"$T/text.o"
expect_rc 2 "$LINEUP" layout "$T/text.o" 2>"$T/err"
grep -q "not an ELF file" "$T/err" || fail "non-ELF message: $(cat "$T/err")"
head -c 1000 "$T/s.o" >"$T/trunc.o"
expect_rc 2 "$LINEUP" layout "$T/trunc.o" 2>"$T/err"
grep -q "trunc.o" "$T/err" || fail "truncated ELF not named"
: >"$T/empty.o"
expect_rc 2 "$LINEUP" layout "$T/empty.o" 2>/dev/null
expect_rc 2 "$LINEUP" layout --btf="$T/text.o" 2>/dev/null
# a fuzzer find: an ELF whose .BTF section header points outside the file (libbpf crashed)
seed=$top_srcdir/tests/fuzz/seeds/elf-btf-outside.bin
expect_rc 2 "$LINEUP" layout --btf="$seed" 2>"$T/err"
grep -q "outside the file" "$T/err" || fail "bad .BTF header: $(cat "$T/err")"
must_fail "$LINEUP" layout --btf="$T/s.o" 2>/dev/null
# a fuzzer find: anonymous types that contain each other (took minutes, exponentially)
seed=$top_srcdir/tests/fuzz/seeds/elf-dwarf-cycle.bin
timeout 20 "$LINEUP" layout "$seed" >/dev/null 2>&1
rc=$?
[ $rc -le 2 ] || fail "exit $rc (124: too slow) on $seed"
# a fuzzer find: a function type whose parameter points back to it (stack overflow)
seed=$top_srcdir/tests/fuzz/seeds/elf-params-loop.bin
timeout 20 "$LINEUP" layout "$seed" >/dev/null 2>"$T/loop.err"
rc=$?
# 0 or 2 only: an ASan build reports the overflow with exit 1.
[ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "exit $rc on $seed: $(head -3 "$T/loop.err")"
! grep -q Sanitizer "$T/loop.err" || fail "sanitizer report on $seed"
expect_rc 2 "$LINEUP" layout 2>/dev/null
expect_rc 2 "$LINEUP" layout --line-size 48 "$T/s.o" 2>/dev/null

# Mutated objects (a fixed seed, so a failure reproduces): any exit code but a signal.
need python3
python3 - "$T/s.o" "$T/mut" 200 <<'EOP'
import os, random, sys
data = open(sys.argv[1], "rb").read()
os.mkdir(sys.argv[2])
rnd = random.Random(20261130)
for i in range(int(sys.argv[3])):
    b = bytearray(data)
    kind = i % 4
    if kind == 0:          # flip bytes anywhere
        for _ in range(rnd.randint(1, 16)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
    elif kind == 1:        # cut
        b = b[:rnd.randrange(64, len(b))]
    elif kind == 2:        # hit the headers: ELF header and section headers
        shoff = int.from_bytes(b[0x28:0x30], "little")
        for _ in range(rnd.randint(1, 4)):
            pos = rnd.choice([rnd.randrange(64), min(len(b) - 1, shoff + rnd.randrange(64 * 20))])
            b[pos] = rnd.randrange(256)
    else:                  # smash a run inside the DWARF-heavy middle
        p = rnd.randrange(len(b) // 4, 3 * len(b) // 4)
        for k in range(rnd.randint(1, 64)):
            if p + k < len(b):
                b[p + k] = rnd.randrange(256)
    open(os.path.join(sys.argv[2], "m%03d.o" % i), "wb").write(b)
EOP
for f in "$T"/mut/*.o; do
	"$LINEUP" layout "$f" >/dev/null 2>&1
	rc=$?
	[ $rc -lt 128 ] || fail "crash (signal $((rc - 128))) on mutated object $(basename "$f")"
	[ $rc -le 2 ] || fail "exit $rc on mutated object $(basename "$f")"
done
exit 0
