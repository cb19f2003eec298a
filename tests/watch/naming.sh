#!/bin/sh
# lineup watch says what each object it follows is: a struct file by the path of the file the
# workload opened (found through its fd table, else its maps, else its dentries), any slab object by its allocating kernel call
# chain, whose first function is the call site that perf script shows for the object's
# kmem:kmalloc record in the same recording, with the user-space caller; in the header of the
# text report and in --json.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need_watch_kernel
build_workload sharedfd
build_workload pipeloop
cd "$T" || exit 99
abs=$(pwd -P)

# (1) filp: the file the workload opened, by its path (a space in it), in text and JSON.
echo data >"$T/some file.txt"
"$LINEUP" watch -o "$T/a.data" --alloc filp --comm lw-name --fields f_ref,f_op -- \
	"$T/sharedfd" -n lw-name -f "$T/some file.txt" -d 300 -t 0.5 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch --alloc filp exited $rc: $(cat "$T/err")"
! grep -q '^# what: unknown (no path: kernel memory cannot be read' "$T/out" ||
	skip "kernel memory cannot be read here (no /proc/kcore, no BPF): no path to name"
grep -q "^# what: $abs/some file.txt (fd [0-9]* of pid [0-9]*)$" "$T/out" ||
	fail "the struct file's header does not name the file opened: $(head -5 "$T/out")"
grep -q "^# allocated at: alloc_empty_file+0x[0-9a-f]* <- " "$T/out" ||
	fail "no allocating call chain for the struct file: $(head -5 "$T/out")"
"$LINEUP" watch --json -o "$T/b.data" --alloc filp --comm lw-name2 --fields f_ref -- \
	"$T/sharedfd" -n lw-name2 -f "$T/some file.txt" -d 300 -t 0.3 >"$T/json" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch --json exited $rc: $(cat "$T/err")"
grep -q "\"path\":\"$abs/some file.txt\"" "$T/json" ||
	fail "no path in the JSON object: $(head -c 1500 "$T/json")"

# (1b) No fd refers to it: a file only mapped is found in the maps; one only in a message in
# flight on a Unix socket is named from its dentries.
build_workload holdfile
for how in "-m mapped by pid [0-9]*" "-s from its dentries"; do
	"$LINEUP" watch -q -o "$T/h.data" --alloc filp --comm lw-hold --fields f_ref -- \
		"$T/holdfile" ${how%% *} -n lw-hold -t 0.5 "$T/some file.txt" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "watch of holdfile ${how%% *} exited $rc: $(cat "$T/err")"
	# (or by its fd, when this machine kept the workload from closing it before the read)
	grep -q "^# what: $abs/some file.txt (\(${how#* }\|fd [0-9]* of pid [0-9]*\))$" "$T/out" ||
		fail "holdfile ${how%% *}: the file is not named '${how#* }': $(head -5 "$T/out")"
done

# (2) kmalloc-192: a pipe's struct pipe_inode_info, named by the function that allocated it.
"$LINEUP" watch -o "$T/c.data" --alloc kmalloc-192 --type 'struct pipe_inode_info' \
	--comm lw-pipe --fields mutex,head_tail -- "$T/pipeloop" -n lw-pipe -d 300 -t 0.5 \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "watch --alloc kmalloc-192 exited $rc: $(cat "$T/err")"
site=$("$PERF" script -i "$T/c.data" 2>/dev/null | sed -n 's/.*kmem:kmalloc: call_site=\([A-Za-z0-9_.]*\).*/\1/p' | head -1)
[ -n "$site" ] || fail "no kmem:kmalloc record in the recording"
grep -q "^# allocated at: $site+0x[0-9a-f]*\( <- \|$\)" "$T/out" ||
	fail "the header does not name the allocating function $site: $(head -5 "$T/out")"
grep -q "^# from user space: [a-z_0-9]*pipe[a-z_0-9]*+0x[0-9a-f]* (libc" "$T/out" ||
	fail "the header does not name the user-space caller (libc's pipe): $(head -5 "$T/out")"
slots_free
exit 0
