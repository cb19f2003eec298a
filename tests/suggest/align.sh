#!/bin/sh
# lineup suggest on misaligned arrays (issue 16, item 5): the patch aligns the allocating call
# (malloc -> aligned_alloc) where the array starts inside a line, pads the element where its
# size is no multiple of the line, and nothing else.  Each patch must apply (git apply,
# patch --dry-run), build, compile to the predicted layout (--verify), and the patched
# program's recording must show no contended line and no misaligned array.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
need git

mkdir "$T/src"
cp "$top_srcdir"/tests/realprog/malloc16.c "$top_srcdir"/tests/realprog/histo_slot.c \
	"$top_srcdir"/tests/realprog/block_matrix.c "$T/src/"
git -C "$T/src" init -q && git -C "$T/src" add . &&
	git -C "$T/src" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"
WL=$T/src

# loop NAME ARGS...: record, suggest --patch --verify, apply, rebuild, record again.
loop() {
	local name=$1
	shift
	sim_build "$name" gcc -g
	sim_record_contended "$T/$name.data" 50 "$T/$name-gcc" "$@"
	(cd "$T/src" && "$LINEUP" suggest -i "$T/$name.data" --patch "$T/$name.diff" \
		--source-root "$T/src" --verify >"$T/$name.out" 2>"$T/$name.err") ||
		{ cat "$T/$name.err" "$T/$name.out" >&2; fail "$name: suggest --patch --verify"; }
	(cd "$T/src" && "$LINEUP" suggest -i "$T/$name.data" --source-root "$T/src" --json \
		>"$T/$name.json" 2>"$T/$name.jerr") ||
		{ cat "$T/$name.jerr" >&2; fail "$name: suggest --json"; }
	git -C "$T/src" apply --check "$T/$name.diff" ||
		{ cat "$T/$name.diff" >&2; fail "$name: git apply --check refuses the patch"; }
	(cd "$T/src" && patch --dry-run -s -p1 <"$T/$name.diff") >/dev/null ||
		fail "$name: patch --dry-run -p1 refuses the patch"
	git -C "$T/src" apply "$T/$name.diff" || fail "$name: git apply"
	sim_build "$name" gcc -g
	"$T/$name-gcc" "$@" >/dev/null || fail "$name: the patched program fails"
	sim_record "$T/$name-after.data" "$T/$name-gcc" "$@"
	"$LINEUP" fields -i "$T/$name-after.data" >"$T/$name-after.txt" 2>&1 ||
		{ cat "$T/$name-after.txt"; fail "$name: fields on the patched program's recording"; }
	if grep -q "^line 0x\|^# arrays whose" "$T/$name-after.txt"; then
		cat "$T/$name.diff" "$T/$name-after.txt"
		fail "$name: the patched program still has a contended line"
	fi
	git -C "$T/src" diff >"$T/$name.applied"
	git -C "$T/src" checkout -q -- . || fail "git checkout"
}

# An array of 64-byte elements 16 bytes into a line: the allocation, and only it, changes.
loop malloc16 2 300000
grep -q '^+	stats = aligned_alloc(64, (MAX_WORKERS \* sizeof(\*stats) + 63) & ~(size_t)63);$' \
	"$T/malloc16.diff" || { cat "$T/malloc16.diff"; fail "malloc16: not the aligned allocation"; }
[ "$(grep -c '^[-+][^-+]' "$T/malloc16.diff")" -eq 2 ] ||
	{ cat "$T/malloc16.diff"; fail "malloc16: more than the allocation changed"; }
grep -q "struct worker_stats: nothing to do: no member order is the cause" "$T/malloc16.out" ||
	{ cat "$T/malloc16.out"; fail "malloc16: the struct is reordered"; }
grep -q "patch: the allocation at .*malloc16.c:[0-9]* made line-aligned" "$T/malloc16.out" ||
	{ cat "$T/malloc16.out"; fail "malloc16: the allocation's patch is not said"; }
# --verify compiles the unit it patched, and says so (issue 19: it said ok, compiling nothing)
grep -q "^  verify: ok: .* compiled the patched malloc16.c (the allocation at .*malloc16.c:[0-9]* made line-aligned)" \
	"$T/malloc16.out" || { cat "$T/malloc16.out"; fail "malloc16: --verify compiled no unit"; }

# A 3000-byte element in an aligned array: the element is padded to 3008 bytes, the compiler
# agrees (--verify), the allocation stays.
loop histo_slot 2 300000
grep -q '^+	unsigned int bins\[NBINS\] __attribute__((aligned(64)));' "$T/histo_slot.diff" ||
	{ cat "$T/histo_slot.diff"; fail "histo_slot: the element is not padded"; }
! grep -q '^[-+].*aligned_alloc(' "$T/histo_slot.diff" ||
	{ cat "$T/histo_slot.diff"; fail "histo_slot: the aligned allocation was rewritten"; }
grep -q "^verify: ok: .*size 3008" "$T/histo_slot.out" ||
	{ cat "$T/histo_slot.out"; fail "histo_slot: --verify did not find the predicted 3008 bytes"; }
python3 - "$T/histo_slot.json" <<'PY' || fail "histo_slot: --json (above)"
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["structs"] if x["type"] == "struct hist"][0]
assert s["status"] == "ok" and s["size"]["after"] == 3008 and s["align"]["after"] == 64, s
assert [x["name"] for x in s["members"]] == s["order"] == ["bins"], s
assert any(f["kind"] == "pad_array_element" for f in s["findings"]), s["findings"]
a = d["alignment"]
assert len(a) == 1 and a[0]["causes"] == ["pad_element"] and a[0]["new_stride"] == 3008, a
PY

# A blocked matrix malloc'd at +16: one allocation rewritten, whatever the number of lines.
loop block_matrix 2 20
grep -q '^+	matrix = aligned_alloc(64, (NBLOCKS \* B \* B \* sizeof(double) + 63) & ~(size_t)63);$' \
	"$T/block_matrix.diff" || { cat "$T/block_matrix.diff"; fail "block_matrix: not the aligned allocation"; }
[ "$(grep -c '^[-+][^-+]' "$T/block_matrix.diff")" -eq 2 ] ||
	{ cat "$T/block_matrix.diff"; fail "block_matrix: more than the allocation changed"; }
exit 0
