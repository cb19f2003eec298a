# Shared by the lineup watch tests (sourced after tests/lib.sh and scratch).

# The machine has 4 debug-register slots for everyone: the watch tests (run in parallel by
# make -j) take turns.
watch_lock() {
	command -v flock >/dev/null 2>&1 || return 0
	exec 9>"${TMPDIR:-/tmp}/lineup-watch-tests.lock"
	flock 9
}

# Root, tracefs and a hardware breakpoint on this machine, or skip.
need_watch_kernel() {
	watch_lock
	need_root
	if ! grep -q ' tracefs ' /proc/mounts; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || skip "no tracefs"
	fi
	[ -r /sys/kernel/tracing/events/kmem/kmem_cache_alloc/format ] || skip "no kmem tracepoints"
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
	# A breakpoint for 10 ms on the kernel's first code bytes: does this machine have any?
	a=$(grep -m1 ' [tT] _text$\| [tT] _stext$' /proc/kallsyms | cut -d' ' -f1)
	"$LINEUP" watch -q -o "$T/probe.data" --object "struct file@0x$a" --fields f_ref \
		--duration 0.01 >/dev/null 2>"$T/probe.err"
	if grep -q 'cannot open a hardware breakpoint\|cannot open the breakpoints' "$T/probe.err"; then
		skip "no hardware breakpoints: $(cat "$T/probe.err")"
	fi
}

# Build a workload normally (no sanitizers, no instrumentation): $1 = name under tests/watch.
build_workload() {
	${CC:-cc} -O2 -g -pthread -o "$T/$1" "$top_srcdir/tests/watch/$1.c" || fail "cannot build $1"
}

# A row of the member table: prints "hits load store rmw lockrmw unknown transfers cpus"; of
# the watched object, whose section comes after those of the objects skipped.
member_row() {
	awk -v m="$2" '$1 == m && $2 ~ /^[0-9]+$/ && NF >= 13 { r = $6 " " $7 " " $8 " " $9 " " $10 " " $11 " " $12 " " $13 }
		END { if (r != "") print r }' "$1"
}

# Tracefs state that must be the same before and after a watch: the kmem events' enable
# files and the hash-ptr option.
tracefs_state() {
	for e in kmem_cache_alloc kmem_cache_free kmalloc kfree; do
		printf '%s=%s ' "$e" "$(cat /sys/kernel/tracing/events/kmem/$e/enable 2>/dev/null)"
	done
	printf 'hash-ptr=%s\n' "$(cat /sys/kernel/tracing/options/hash-ptr 2>/dev/null)"
}

# After a watch every debug register is free again: 4 breakpoints open system-wide.
slots_free() {
	[ -n "${PERF:-}" ] || return 0
	a=$(grep -m1 ' [tT] _text$\| [tT] _stext$' /proc/kallsyms | cut -d' ' -f1)
	"$PERF" stat -a -e "mem:0x$a/8:rw" -e "mem:0x$a/8:rw" -e "mem:0x$a/8:rw" \
		-e "mem:0x$a/8:rw" -- true >/dev/null 2>"$T/slots.err" ||
		fail "breakpoint slots still taken after lineup exited: $(cat "$T/slots.err")"
}
