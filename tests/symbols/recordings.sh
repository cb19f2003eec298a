#!/bin/sh
# Oracle on real recordings of this machine (perf record -e cpu-clock: a software event, no
# PMU needed): a test program, ld.so and libc (with /usr/lib/debug), the kernel through its
# MMAP and kallsyms, a program calling through its PLT and into the vDSO, a JIT with its
# /tmp/perf-PID.map, a C++ program: lineup's tests/tools/resolve output equals
# `perf script -F ip,sym,dso,srcline`'s, sample for sample, in perf's time order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/symbols/lib-symbols.sh"
symbols_setup

# A real recording of this machine (software clock event: no PMU needed): the kernel map from
# the kernel MMAP and kallsyms, ld.so, libc with its separate debug info, the test program.
if "$PERF" record -q -e cpu-clock -c 50000 -o "$T/real.data" -- \
	sh -c "'$T/prog' 20000000; ls / >/dev/null" >/dev/null 2>"$T/rec.err"; then
	# (records in time order on both sides: perf's ordered events, sampling/ordered.h)
	"$PERF" script -i "$T/real.data" -F ip,sym,dso,srcline 2>/dev/null | grep -v '^$' \
		> "$T/want" || fail "perf script failed on a real recording"
	"$RESOLVE" "$T/real.data" > "$T/got" || fail "resolve failed on a real recording"
	if ! cmp -s "$T/want" "$T/got"; then
		diff "$T/want" "$T/got" | head -30
		fail "real recording: lineup resolves samples differently from perf script"
	fi
	echo "real recording: $(grep -c '^ ' "$T/got") samples resolved like perf"
else
	echo "perf record not possible here ($(head -1 "$T/rec.err")): real-recording part skipped"
fi

# A program whose hot calls go through its PLT (where a zero-sized _init stretched by perf
# overlaps the "name@plt" symbols: the symbol tree's shape picks) and into the vDSO.
cat > "$T/vd.c" <<'SRC'
#include <time.h>
int main(void) { struct timespec ts; long s = 0; for (int i = 0; i < 2000000; i++) { clock_gettime(CLOCK_MONOTONIC, &ts); s += ts.tv_nsec; } return s == 42; }
SRC
gcc -O2 -g -o "$T/vd" "$T/vd.c" || fail "gcc vd"
if "$PERF" record -q -e cpu-clock -c 50000 -o "$T/vd.data" -- "$T/vd" >/dev/null 2>"$T/rec.err"; then
	"$PERF" script -i "$T/vd.data" -F ip,sym,dso,srcline 2>/dev/null | grep -v '^$' \
		> "$T/want" || fail "perf script failed on the vdso recording"
	"$RESOLVE" "$T/vd.data" > "$T/got" || fail "resolve failed on the vdso recording"
	if ! cmp -s "$T/want" "$T/got"; then
		diff "$T/want" "$T/got" | head -30
		fail "PLT/vDSO recording: lineup resolves samples differently from perf script"
	fi
	echo "PLT/vDSO recording: $(grep -c '^ ' "$T/got") samples resolved like perf"
fi

# A JIT: code in anonymous executable memory, named by /tmp/perf-PID.map (perf's map for it
# is "/tmp/perf-PID.map", "[JIT] tid PID", symbols from that file at absolute addresses).
cat > "$T/jit.c" <<'SRC'
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void)
{
	/* mov ecx, 2000000; 1: dec ecx; jnz 1b; mov eax, edi; ret */
	static const unsigned char spin[] = { 0xb9, 0x80, 0x84, 0x1e, 0x00, 0xff, 0xc9, 0x75, 0xfc,
					      0x89, 0xf8, 0xc3 };
	unsigned char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;
	int (*fa)(int), (*fb)(int), s = 0;

	if (p == MAP_FAILED)
		return 1;
	memcpy(p, spin, sizeof(spin));
	memcpy(p + 0x100, spin, sizeof(spin));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "%lx %x jit_spin_a\n%lx %x jit_spin_b\n", (unsigned long)p, 0x10,
		(unsigned long)(p + 0x100), 0x8);
	fclose(f);
	fa = (int (*)(int))p;
	fb = (int (*)(int))(p + 0x100);
	for (int i = 0; i < 60; i++)
		s += fa(i) + fb(i);
	printf("%d\n", (int)getpid());
	return s == 42;
}
SRC
gcc -O2 -o "$T/jit" "$T/jit.c" || fail "gcc jit"
if "$PERF" record -q -e cpu-clock -c 50000 -o "$T/jit.data" -- "$T/jit" >"$T/jit.pid" 2>"$T/rec.err"; then
	jitmap="/tmp/perf-$(cat "$T/jit.pid").map"
	"$PERF" script -i "$T/jit.data" -F ip,sym,dso,srcline 2>/dev/null | grep -v '^$' \
		> "$T/want" || { rm -f "$jitmap"; fail "perf script failed on the JIT recording"; }
	"$RESOLVE" "$T/jit.data" > "$T/got" || { rm -f "$jitmap"; fail "resolve failed (JIT)"; }
	rm -f "$jitmap"
	if ! cmp -s "$T/want" "$T/got"; then
		diff "$T/want" "$T/got" | head -30
		fail "JIT recording: lineup resolves samples differently from perf script"
	fi
	grep -q 'jit_spin_a (/tmp/perf-' "$T/got" || fail "JIT symbols not resolved"
	echo "JIT recording: $(grep -c '^ ' "$T/got") samples resolved like perf"
fi

# C++: perf demangles user-space names to the bare name (libiberty, DMGL_NO_OPTS: no
# parameters, return type, qualifiers or clone suffix); lineup does the same from
# __cxa_demangle.  A real recording of a C++ program with templates, operators, a lambda,
# anonymous namespaces and gcc clones.
if command -v g++ >/dev/null 2>&1; then
	cxx_src "$T/cxx.cc" 10000000 200000 "== 42"
	g++ -O2 -g -o "$T/cxx" "$T/cxx.cc" || fail "g++ failed"
	if "$PERF" record -q -e cpu-clock -c 50000 -o "$T/cxx.data" -- "$T/cxx" \
		>/dev/null 2>"$T/rec.err"; then
		"$PERF" script -i "$T/cxx.data" -F ip,sym,dso,srcline 2>/dev/null | grep -v '^$' \
			> "$T/want" || fail "perf script failed on the C++ recording"
		"$RESOLVE" "$T/cxx.data" > "$T/got" || fail "resolve failed on the C++ recording"
		if ! cmp -s "$T/want" "$T/got"; then
			diff "$T/want" "$T/got" | head -30
			fail "C++ recording: lineup resolves samples differently from perf script"
		fi
		grep -q 'ns::K::get (' "$T/got" || fail "C++ names not demangled: $(head "$T/got")"
		echo "C++ recording: $(grep -c '^ ' "$T/got") samples resolved like perf"
	fi
fi

# Threads and processes made while recording (FORK records for threads and for a child that
# execs another program): every sample resolved in its own thread's address space.
cat > "$T/thr.c" <<'SRC'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
static volatile long sink;
static void *spin(void *arg)
{
	long n = (long)arg, s = 0;

	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	sink = s;
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[3];
	pid_t pid;

	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, spin, (void *)(20000000L + i));
	pid = fork();
	if (pid == 0) {
		execl(argv[1], argv[1], "3000000", (char *)NULL);
		_exit(1);
	}
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	waitpid(pid, NULL, 0);
	return 0;
}
SRC
gcc -O2 -g -pthread -o "$T/thr" "$T/thr.c" || fail "gcc thr"
if "$PERF" record -q -e cpu-clock -c 50000 -o "$T/thr.data" -- "$T/thr" "$T/prog" \
	>/dev/null 2>"$T/rec.err"; then
	"$PERF" script -i "$T/thr.data" -F ip,sym,dso,srcline 2>/dev/null | grep -v '^$' \
		> "$T/want" || fail "perf script failed on the threads recording"
	"$RESOLVE" "$T/thr.data" > "$T/got" || fail "resolve failed on the threads recording"
	if ! cmp -s "$T/want" "$T/got"; then
		diff "$T/want" "$T/got" | head -30
		fail "threads recording: lineup resolves samples differently from perf script"
	fi
	grep -q ' spin (' "$T/got" || fail "threads recording: no samples in the threads"
	echo "threads/fork/exec recording: $(grep -c '^ ' "$T/got") samples resolved like perf"
fi
