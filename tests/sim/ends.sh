#!/bin/sh
# The ways a recorded program ends, and the descriptors it closes: the recording is written,
# whole, and read by lineup report and perf c2c report alike, when two threads call exit() at
# once, when the program ends with _exit(), when it execs itself (the new image records) or
# execs another program, when it dies of a stack overflow, and when it closes every descriptor or takes the spool's number (its
# own files are never written by the runtime).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

SIM_OPTS=
build() {
	# shellcheck disable=SC2046
	"$CC" $("$LINEUP" sim-flags --cflags) -O2 -c -o "$T/$1.o" "$T/$1.c" &&
		"$CC" -o "$T/$1" "$T/$1.o" $("$LINEUP" sim-flags --libs) 2>/dev/null ||
		fail "$1: build"
}
# readable FILE: both reports read it, the same.
readable() {
	"$LINEUP" report --stdio -i "$1" >"$T/l.txt" 2>"$T/l.err" || fail "lineup report -i $1: $(cat "$T/l.err")"
	"$PERF" c2c report --stdio -i "$1" >"$T/p.txt" 2>/dev/null || fail "perf c2c report -i $1"
	diff -q "$T/p.txt" "$T/l.txt" >/dev/null || fail "lineup and perf read $1 differently"
}

# two.h: two threads incrementing adjacent counters (false sharing the recording must show).
cat >"$T/two.h" <<'EOF'
#include <pthread.h>
volatile long g[64];
static void *worker(void *a)
{
	for (long k = 0; k < 2000000; k++)
		g[(long)a]++;
	return a;
}
static void two_threads(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
}
EOF

cat >"$T/ends.c" <<'EOF'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
volatile long g[64];
static pthread_barrier_t b;
static const char *how;
static void *worker(void *a)
{
	long i = (long)a;

	for (int k = 0; k < 2000000; k++)
		g[i * 8] += k;
	pthread_barrier_wait(&b);
	if (!strcmp(how, "exit"))
		exit(3); /* both workers at once */
	_exit(4);
}
int main(int argc, char **argv)
{
	pthread_t t[2];

	how = argc > 1 ? argv[1] : "exit";
	pthread_barrier_init(&b, 0, 2);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (;;)
		pause();
}
EOF
build ends
for how in exit _exit; do
	for try in 1 2 3; do
		sim_record "$T/e.data" "$T/ends" $how
		grep -q "exited with status [34]" "$T/record.err" || fail "$how: $(cat "$T/record.err")"
		readable "$T/e.data"
	done
done

# exec: itself (the new image does the work and is what is recorded), and another program at
# the end (what ran before the exec is recorded).
cat >"$T/reexec.c" <<'EOF'
#include <stdio.h>
#include <unistd.h>
#include "two.h"
int main(int argc, char **argv)
{
	if (argc == 1) {
		execl("/proc/self/exe", argv[0], "again", (char *)0);
		return 1;
	}
	two_threads();
	if (argc > 2)
		execlp("true", "true", (char *)0);
	printf("%ld\n", g[0] + g[1]);
	return 0;
}
EOF
build reexec
# Modeled exactly: a short run's sampled windows give a record count that a busy machine
# changes (76 records of the exec at the end, wanted 100, in 3 of 6 runs beside two busy
# loops), and these checks are about the exec, not the windows.
SIM_OPTS=--sim-exact
sim_record "$T/r.data" "$T/reexec"
grep -qx 4000000 "$T/record.out" || fail "re-exec: $(cat "$T/record.out")"
readable "$T/r.data"
n=$(c2c_stat "$T/r.data" "Load Local HITM")
[ "${n:-0}" -gt 0 ] || fail "re-exec: the new image's contention is not in the recording"
sim_record "$T/x.data" "$T/reexec" again then-exec
readable "$T/x.data"
n=$(c2c_stat "$T/x.data" "Total records")
[ "${n:-0}" -gt 100 ] || fail "exec at the end: $n records"
SIM_OPTS=

# A stack overflow: the fatal-signal handler runs on the signal stack the runtime gave the
# thread, and writes the recording.
cat >"$T/overflow.c" <<'EOF'
#include "two.h"
static int down(int d)
{
	volatile char buf[4096];

	buf[0] = (char)d;
	return down(d + 1) + buf[0];
}
int main(void)
{
	two_threads();
	return down(0);
}
EOF
build overflow
ulimit -c 0 2>/dev/null
sim_record "$T/o.data" "$T/overflow"
grep -q "killed by signal 11" "$T/record.err" || fail "stack overflow: $(cat "$T/record.err")"
readable "$T/o.data"
n=$(c2c_stat "$T/o.data" "Load Local HITM")
[ "${n:-0}" -gt 0 ] || fail "stack overflow: the recording lost the contention"

# More threads alive at once than the runtime has slots (256): the rest go unobserved, and
# the runtime says how many.
cat >"$T/many.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
volatile long g[512];
static pthread_barrier_t b;
static void *w(void *a)
{
	g[(long)a]++;
	pthread_barrier_wait(&b);
	return a;
}
int main(void)
{
	pthread_t t[300];

	pthread_barrier_init(&b, 0, 300);
	for (long i = 0; i < 300; i++)
		pthread_create(&t[i], 0, w, (void *)i);
	for (int i = 0; i < 300; i++)
		pthread_join(t[i], 0);
	puts("ok");
	return 0;
}
EOF
build many
# (exact: every thread's first access registers it, whatever the timing)
SIM_OPTS=--sim-exact sim_record "$T/m.data" "$T/many"
grep -qx ok "$T/record.out" || fail "300 threads: $(cat "$T/record.out")"
grep -q "lineup-sim: 45 threads were not observed: more than 256 were alive at once" \
	"$T/record.err" || fail "300 threads: $(cat "$T/record.err")"
readable "$T/m.data"

# Descriptors: every one closed (close loop, closefrom), then files opened until the numbers
# pass 900 (where the runtime keeps its spool), one dup2()ed onto every number up to 1000: the
# program's files hold exactly what it wrote, and the recording is whole.
cat >"$T/fds.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "two.h"
int main(int argc, char **argv)
{
	int out = dup(1), f, n = 0;
	pthread_t t[2];
	char name[4096];

	for (int fd = 3; fd < 1024; fd++)
		if (fd != out)
			close(fd);
	closefrom(1000);
	snprintf(name, sizeof(name), "%s.log", argv[1]);
	f = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	for (int fd = 800; fd < 1000; fd++)
		if (fd != out && fd != f && dup2(f, fd) == fd)
			n++;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (int fd = 800; fd < 1000; fd++)
		if (fd != out && fd != f)
			write(fd, "x", 1);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	dprintf(out, "%d %ld\n", n, g[0] + g[1]);
	return 0;
}
EOF
build fds
sim_record "$T/f.data" "$T/fds" "$T/fds"
read -r n total <"$T/record.out" || fail "fds: no output"
[ "$total" = 4000000 ] || fail "fds: $(cat "$T/record.out")"
[ "$(wc -c <"$T/fds.log")" = "$n" ] ||
	fail "fds: the program's log has $(wc -c <"$T/fds.log") bytes, it wrote $n"
readable "$T/f.data"
n=$(c2c_stat "$T/f.data" "Load Local HITM")
[ "${n:-0}" -gt 0 ] || fail "fds: the recording lost the contention"
exit 0
