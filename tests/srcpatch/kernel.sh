#!/bin/sh
# srcpatch on the real kernel source (seed 003): struct file of Debian's linux-source-6.1,
# write-hot f_lock/f_count/f_pos_lock/f_pos grouped apart from the read-mostly f_op/f_path/
# f_inode: the diff applies (git apply --check, patch --dry-run -p1) in the unpacked tree, the
# randstruct warning is given, and a second run on the patched header changes nothing.
. "$top_srcdir/tests/lib.sh"
scratch
run=$top_builddir/tests/tools/srcpatch_run
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || skip "no $tarball (Debian's linux-source-6.1)"
need git
need patch

tar -xJf "$tarball" -C "$T" linux-source-6.1/include/linux/fs.h || fail "cannot unpack fs.h"
tree=$T/linux-source-6.1
line=$(grep -n '^struct file {' "$tree/include/linux/fs.h" | cut -d: -f1)
[ -n "$line" ] || fail "no struct file in fs.h"

# The members as the source has them: the anonymous union by its three names, the #ifdefs.
"$run" -s -f include/linux/fs.h="$tree/include/linux/fs.h" "file:$line" >"$T/scan" 2>"$T/err" ||
	fail "scan: $(cat "$T/err")"
grep -q "^lines $line-.* randomized$" "$T/scan" || fail "scan: $(head -1 "$T/scan")"
grep -q '^f_rcuhead line .* unit 0 block 0$' "$T/scan" || fail "the union is not one unit"
grep -q '^f_security line .* block 1 #ifdef CONFIG_SECURITY$' "$T/scan" ||
	fail "f_security's #ifdef: $(grep f_security "$T/scan")"
grep -q '^f_ep line .* block 2 #ifdef CONFIG_EPOLL$' "$T/scan" || fail "f_ep's #ifdef"

order='f_op@file_read!,f_path,f_inode,f_mode,f_flags,f_mapping,private_data,f_cred'
order="$order,f_lock@file_write!,f_count,f_pos_lock,f_pos"
order="$order,f_llist@,f_owner,f_ra,f_version,f_security,f_ep,f_wb_err,f_sb_err"
comment='Cache-line layout (lineup suggest):
f_lock, f_count, f_pos_lock and f_pos are written on every read and write;
f_op, f_path and f_inode are only read: they get a line of their own.'
"$run" -C "$comment" -f include/linux/fs.h="$tree/include/linux/fs.h" \
	"0:file:$line:kaligned:$order" >"$T/fix.diff" 2>"$T/err" || fail "refused: $(cat "$T/err")"
grep -q 'CONFIG_RANDSTRUCT off' "$T/err" || fail "no randstruct warning: $(cat "$T/err")"
grep -q '^--- a/include/linux/fs.h$' "$T/fix.diff" && grep -q '^+++ b/include/linux/fs.h$' "$T/fix.diff" ||
	fail "diff paths: $(head -2 "$T/fix.diff")"
grep -q '^+	spinlock_t		f_lock ____cacheline_aligned_in_smp;$' "$T/fix.diff" ||
	fail "f_lock does not start a line"
grep -q '^+ \* Cache-line layout (lineup suggest):$' "$T/fix.diff" || fail "no layout comment"
grep -q '^+static_assert(offsetof(struct file, f_count) >= offsetof(struct file, f_lock) &&$' \
	"$T/fix.diff" || fail "no group check for f_count"
# the comments move with their members
grep -B1 -n 'void			\*private_data;' "$T/fix.diff" | grep -q 'needed for tty driver' ||
	fail "private_data lost its comment"

(cd "$tree" && git apply --check "$T/fix.diff") || fail "git apply --check refuses the diff"
(cd "$tree" && patch --dry-run -p1 <"$T/fix.diff" >"$T/patch.out") ||
	fail "patch --dry-run refuses: $(cat "$T/patch.out")"
(cd "$tree" && patch -s -p1 <"$T/fix.diff") || fail "patch does not apply"

# The patched header has the members in the new order.
awk '/^struct file {/,/^}/' "$tree/include/linux/fs.h" | grep -o 'f_[a-z_]*\( ____cacheline_aligned_in_smp\)\{0,1\};' | sed 's/[ ;].*//' |
	tr '\n' ' ' >"$T/members"
grep -q '^f_op f_path f_inode f_mode f_flags f_mapping f_cred f_lock f_count f_pos_lock f_pos ' \
	"$T/members" || fail "new order: $(cat "$T/members")"

# Again on the patched header (the comment, attributes and checks are there): nothing to do.
line=$(grep -n '^struct file {' "$tree/include/linux/fs.h" | cut -d: -f1)
"$run" -C "$comment" -f include/linux/fs.h="$tree/include/linux/fs.h" \
	"0:file:$line:kaligned:$order" >"$T/again.diff" 2>/dev/null || fail "second run refused"
[ ! -s "$T/again.diff" ] || fail "a second run changes the patched header: $(head -30 "$T/again.diff")"

# A binary that no longer matches (6.18's f_ref for 6.1's f_count): refused, both names said.
expect_rc 1 "$run" -e "$(echo "$order" | sed 's/f_count/f_ref/; s/@[a-z_]*!\{0,1\}//g'),f_rcuhead,f_iocb_flags" \
	-f include/linux/fs.h="$tree/include/linux/fs.h" "0:file:$line:kaligned:$order" \
	>/dev/null 2>"$T/err"
grep -q 'only in the binary: f_ref; only in the source: f_count' "$T/err" ||
	fail "mismatch message: $(cat "$T/err")"
exit 0
