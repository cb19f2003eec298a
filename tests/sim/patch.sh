#!/bin/sh
# Call-site patching (sampling/simrt/patch.c, x86-64): between windows the hook calls are
# rewritten to no-ops while the program's threads run, through int3 and membarrier.  Windows
# here open every 100 us, so every site is rewritten thousands of times a second.  Programs
# must not notice: threads that block every signal, a SIGTRAP the program ignores or handles
# itself, the _pc hooks, fork from a threaded program, a plugin unloaded with dlclose.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
[ "$(uname -m)" = x86_64 ] || skip "call sites are patched on x86-64 only"
ulimit -c 0 2>/dev/null

export LINEUP_SIM_WINDOW=20/100/0 LINEUP_SIM_OUTPUT="$T/o.data"
CFLAGS_SIM=$("$LINEUP" sim-flags --cflags)
LIBS_SIM=$("$LINEUP" sim-flags --libs)
# build NAME [CFLAGS...]: $T/NAME.c compiled for the collector, linked with its runtime.
build() {
	local name=$1
	shift
	# shellcheck disable=SC2086
	"$CC" $CFLAGS_SIM -O2 "$@" -c -o "$T/$name.o" "$T/$name.c" || fail "$name.c: compile"
	# shellcheck disable=SC2086
	"$CC" -o "$T/$name" "$T/$name.o" $LIBS_SIM -ldl 2>/dev/null || fail "$name: link"
}
# run NAME ARGS...: run it (60 s at most), its output in $T/NAME.out; the exit status.
run() {
	local name=$1
	shift
	timeout -s KILL 60 "$T/$name" "$@" >"$T/$name.out" 2>"$T/$name.err"
}

# Worker threads that block every signal (one itself, one from its creation attributes; and a
# handler whose mask is every signal): the kernel kills a thread that hits an int3 with SIGTRAP
# blocked, so the runtime keeps it unblocked; the program sees its mask as it set it, less
# SIGTRAP.
cat >"$T/blocked.c" <<'EOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
volatile long c[2][16];
volatile int usr1;
static void on_usr1(int sig)
{
	(void)sig;
	for (int i = 0; i < 100000; i++)
		usr1++;
}
static void *worker(void *arg)
{
	sigset_t all;

	sigfillset(&all);
	if (!arg) /* (the other one starts with every signal blocked: its attr says so) */
		pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (long i = 0; i < 30000000; i++)
		c[(long)arg][0]++;
	return arg;
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on_usr1};
	pthread_attr_t attr;
	pthread_t t[2];
	sigset_t now;

	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_attr_init(&attr);
	sigfillset(&now);
	pthread_attr_setsigmask_np(&attr, &now);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], i ? &attr : NULL, worker, (void *)i);
	for (int k = 0; k < 50; k++)
		raise(SIGUSR1);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	sigfillset(&now);
	sigprocmask(SIG_BLOCK, &now, NULL);
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("%ld %ld %d %d\n", c[0][0], c[1][0], usr1, sigismember(&now, SIGTRAP));
	return 0;
}
EOF
build blocked
for try in 1 2 3; do
	run blocked || fail "all signals blocked: exit status $? ($(cat "$T/blocked.err"))"
done
grep -qx "30000000 30000000 5000000 0" "$T/blocked.out" || fail "blocked: $(cat "$T/blocked.out")"

# Signal handlers that meet a site being rewritten: a SIGALRM every 100 us whose handler makes
# instrumented accesses, on top of the runtime's own SIGTRAP handler too (it must not block
# SIGTRAP: SA_NODEFER); and a handler that runs out of sigsuspend() under a mask blocking
# everything else (the runtime takes SIGTRAP out of such masks).
cat >"$T/alarm.c" <<'EOF'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
static long hist[64];
static volatile long hits;
static volatile int stop;
static void on_alarm(int sig)
{
	(void)sig;
	hits++;
	for (int i = 0; i < 64; i++)
		hist[i] += i;
}
static void *bg(void *a)
{
	long *x = a;

	for (long i = 0; i < 20000000 && !stop; i++)
		x[i % 512] += i;
	return a;
}
int main(int argc, char **argv)
{
	struct sigaction sa;
	struct itimerval it = {{0, 100}, {0, 100}}, off = {{0, 0}, {0, 0}};
	static long arr[3][512];
	pthread_t t[3];
	sigset_t all, wait;

	(void)argv;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, 0);
	if (argc > 1) { /* sigsuspend: every signal blocked but in the wait */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
	}
	setitimer(ITIMER_REAL, &it, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], 0, bg, arr[i]);
	if (argc > 1) {
		sigfillset(&wait);
		sigdelset(&wait, SIGALRM);
		while (hits < 2000)
			sigsuspend(&wait);
		stop = 1;
	}
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	setitimer(ITIMER_REAL, &off, 0);
	printf("ok %d\n", hist[63] > 0);
	return 0;
}
EOF
build alarm
for mode in "" suspend; do
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		run alarm $mode || fail "SIGALRM handlers ($mode): exit status $? ($(cat "$T/alarm.err"))"
		grep -qx "ok 1" "$T/alarm.out" || fail "SIGALRM handlers ($mode): $(cat "$T/alarm.out")"
	done
done

# The program's own SIGTRAP: its handler (set before and after the runtime started) gets its
# raise()s and sees what it set; ignored, a kill -TRAP does nothing.
cat >"$T/trap.c" <<'EOF'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
volatile long c[2][16];
volatile int traps;
static void on_trap(int sig)
{
	(void)sig;
	traps++;
}
static void *worker(void *arg)
{
	for (long i = 0; i < 20000000; i++)
		c[(long)arg][0]++;
	return arg;
}
int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_trap}, old;
	pthread_t t[2];

	if (argc > 1 && !strcmp(argv[1], "ignore")) {
		signal(SIGTRAP, SIG_IGN);
		printf("ready\n");
		fflush(stdout);
	} else {
		sigaction(SIGTRAP, &sa, NULL);
	}
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	if (argc == 1)
		for (int k = 0; k < 10; k++)
			raise(SIGTRAP);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	sigaction(SIGTRAP, NULL, &old);
	printf("%ld %ld %d %d\n", c[0][0], c[1][0], traps,
	       old.sa_handler == (argc > 1 ? SIG_IGN : on_trap));
	return 0;
}
EOF
build trap
run trap || fail "own SIGTRAP handler: exit status $? ($(cat "$T/trap.err"))"
grep -qx "20000000 20000000 10 1" "$T/trap.out" || fail "own SIGTRAP handler: $(cat "$T/trap.out")"
"$T/trap" ignore >"$T/trap.out" 2>"$T/trap.err" &
pid=$!
for _ in $(seq 100); do grep -q ready "$T/trap.out" && break; sleep 0.05; done
kill -TRAP $pid 2>/dev/null
wait $pid || fail "SIGTRAP ignored, kill -TRAP: exit status $?"
grep -qx "20000000 20000000 0 1" "$T/trap.out" || fail "SIGTRAP ignored: $(cat "$T/trap.out")"

# Only hot sites are rewritten (called 64 times between windows): the workers' loop is, main's
# access made 20 times is not.
cat >"$T/hot.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
volatile long c[2][16], cold;
void *worker(void *arg)
{
	for (long i = 0; i < 20000000; i++)
		c[(long)arg][0]++;
	return arg;
}
int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int k = 0; k < 20; k++) {
		usleep(1000);
		cold++;
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", cold);
	return 0;
}
EOF
build hot
hot=$(objdump -d "$T/hot" | awk '/<worker>:/,/^$/' | grep -c 'call.*<__tsan_\(read\|write\)')
[ "$hot" -ge 1 ] || fail "hot.c: no hook call in worker"
LINEUP_SIM_DEBUG=1 run hot || fail "hot sites: exit status $? ($(cat "$T/hot.err"))"
grep -qx 20 "$T/hot.out" || fail "hot sites: $(cat "$T/hot.out")"
grep -o 'patched sites [0-9]*' "$T/hot.err" | sort -u | grep -qx "patched sites $hot" ||
	fail "hot sites: worker's $hot sites, and only they, should be patched: $(cat "$T/hot.err")"

# A process started under a debugger is not patched (gdb would stop at every int3): under a
# minimal tracer, the hooks stay calls.
cat >"$T/tracer.c" <<'EOF'
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int st;
	pid_t p = fork();

	(void)argc;
	if (!p) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execv(argv[1], argv + 1);
		_exit(127);
	}
	while (waitpid(p, &st, __WALL) == p && WIFSTOPPED(st)) {
		int sig = WSTOPSIG(st);

		/* the exec's own SIGTRAP is the tracer's; every other signal goes on */
		ptrace(PTRACE_CONT, p, 0, sig == SIGTRAP ? 0 : sig);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
EOF
"$CC" -O2 -o "$T/tracer" "$T/tracer.c" || fail "tracer.c: compile"
LINEUP_SIM_DEBUG=1 timeout -s KILL 60 "$T/tracer" "$T/hot" >"$T/hot.out" 2>"$T/hot.err" ||
	fail "traced: exit status $? ($(cat "$T/hot.err"))"
grep -qx 20 "$T/hot.out" || fail "traced: $(cat "$T/hot.out")"
grep -q 'patched sites 0$' "$T/hot.err" && ! grep -q 'patched sites [1-9]' "$T/hot.err" ||
	fail "traced: sites were patched: $(cat "$T/hot.err")"

# The _pc hooks pass an instruction address, not a return address: never learned as a site.
cat >"$T/pc.c" <<'EOF'
#include <stdio.h>
void __tsan_read8_pc(void *addr, void *pc);
long x;
int main(void)
{
	for (long i = 0; i < 20000000; i++)
		__tsan_read8_pc(&x, (void *)main);
	puts("ok");
	return 0;
}
EOF
build pc
run pc || fail "_pc hooks: exit status $? ($(cat "$T/pc.err"))"
grep -qx ok "$T/pc.out" || fail "_pc hooks: $(cat "$T/pc.out")"

# fork() from a threaded program while the timer thread patches and takes its locks: no child
# inherits a held lock (each child ends its main thread with pthread_exit, which runs the
# runtime's thread-end code).
cat >"$T/forks.c" <<'EOF'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
volatile int stop;
volatile long c[2][16];
static void *worker(void *arg)
{
	while (!stop)
		c[(long)arg][0]++;
	return arg;
}
int main(void)
{
	pthread_t t[2];
	int hung = 0;

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int n = 0; n < 100; n++) {
		int st, done = 0;
		pid_t p = fork();

		if (!p)
			pthread_exit(NULL);
		for (int k = 0; k < 2000 && !done; k++)
			if (waitpid(p, &st, WNOHANG) == p)
				done = 1;
			else
				usleep(1000);
		if (!done) {
			hung++;
			kill(p, SIGKILL);
			waitpid(p, &st, 0);
		}
	}
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("hung %d\n", hung);
	return 0;
}
EOF
build forks
run forks || fail "fork: exit status $? ($(cat "$T/forks.err"))"
grep -qx "hung 0" "$T/forks.out" || fail "fork: children hung on a lock: $(cat "$T/forks.out")"

# A plugin built for the collector, loaded, run and unloaded 10 times while the windows go on:
# its sites are patched (its calls go through its PLT, or -fno-plt's GOT) and not rewritten
# once its code is unmapped.
cat >"$T/plug.c" <<'EOF'
#include <pthread.h>
volatile long cnt[2];
static void *run(void *a)
{
	for (long i = 0; i < 2000000; i++)
		cnt[(long)a]++;
	return a;
}
long plug_run(void)
{
	pthread_t t[2];

	cnt[0] = cnt[1] = 0;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, run, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return cnt[0] + cnt[1];
}
EOF
cat >"$T/host.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	/* (read atomically: the host has no patchable site, every one patched is the plugin's) */
	const char *path = __atomic_load_n(&argv[argc - 1], __ATOMIC_RELAXED);
	long total = 0;

	for (int k = 0; k < 10; k++) {
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		long (*run)(void);

		if (!h) {
			dprintf(2, "dlopen: %s\n", dlerror());
			return 1;
		}
		run = (long (*)(void))dlsym(h, "plug_run");
		total += run();
		dlclose(h);
		usleep(3000); /* windows open and close with the plugin gone */
	}
	printf("%ld\n", total);
	return 0;
}
EOF
build host
objdump -d "$T/host" | grep -q 'call.*<__tsan_\(read\|write\)[0-9]*>' && fail "host.c has plain accesses"
for plt in "" -fno-plt; do
	# shellcheck disable=SC2086
	"$CC" $CFLAGS_SIM -O2 -fPIC $plt -c -o "$T/plug.o" "$T/plug.c" &&
		"$CC" -shared -o "$T/plug.so" "$T/plug.o" || fail "plug.so: build"
	LINEUP_SIM_DEBUG=1 run host "$T/plug.so" || fail "dlclose ($plt): exit status $? ($(cat "$T/host.err"))"
	grep -qx 40000000 "$T/host.out" || fail "dlclose ($plt): $(cat "$T/host.out")"
	grep -q 'patched sites [1-9]' "$T/host.err" ||
		fail "dlclose ($plt): the plugin's sites were never patched: $(cat "$T/host.err")"
done
exit 0
