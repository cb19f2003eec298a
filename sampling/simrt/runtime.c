// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector's core: per-thread state, the line table, sampling periods, the spool, and
 * the ways out (exit, fatal signal, SIGINT/SIGTERM).  The hot path is in access.h.
 *
 * Each thread samples with its own countdowns and appends to its own buffer; a full buffer is
 * written to the spool, an unlinked file opened O_APPEND, so memory stays bounded however long
 * the program runs.  The line table is a fixed-size direct-mapped table (coherence__slot), so
 * memory is bounded there too.
 *
 * Ownership: everything here is static or mmap'ed once and lives as long as the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampling/simrt/simrt.h"

#define RMW_GLOBAL_SLOTS 4096

int simrt__state;
uint64_t simrt__max_allocs = 1000000;

/* Sampling periods: [0] accesses that hit (L1), [1] those that miss (contention, cold). */
uint64_t simrt__periods[2] = {1000, 50};
int64_t simrt__yield_every;
/* Modeling windows (LINEUP_SIM_WINDOW): BURST ns once every EVERY ns after an exact START;
 * every 0: exact. */
uint64_t simrt__burst_ns = 200000, simrt__every_ns = 2000000, simrt__start_ns = 10000000;
static uint64_t t0;	    /* simrt__now() at the start */
static uint64_t start_end; /* when the exact start ended (ns since t0, at least 1); 0: not yet */
static char out_path[4096];
static int spool_fd = -1;
struct coh_costs simrt__costs;
struct simrt_pair_slot *simrt__table;

static struct simrt_thread threads[SIMRT_MAX_THREADS];
static atomic_int slot_used[SIMRT_MAX_THREADS];
static atomic_uint slots_seen; /* highest slot used + 1 */
static atomic_uint next_slot;  /* where the next thread starts looking for a slot */
static pthread_key_t thread_key;
static pthread_mutex_t cold_lock = PTHREAD_MUTEX_INITIALIZER;
static struct simrt_rmw rmw_all[RMW_GLOBAL_SLOTS];
static atomic_int finishing;

__thread __attribute__((tls_model("initial-exec"))) struct simrt_thread *simrt__cur;
__thread __attribute__((tls_model("initial-exec"))) int64_t simrt__skip[SIMRT_NR_SKIP];
static __thread __attribute__((tls_model("initial-exec"))) int inside;
static __thread __attribute__((tls_model("initial-exec"))) int gone;

void simrt__enter(void)
{
	inside++;
}

void simrt__leave(void)
{
	inside--;
}

bool simrt__inside(void)
{
	return inside != 0;
}

uint64_t simrt__now(void)
{
	struct timespec ts;

	/* perf's sample clock is the kernel's sched_clock, which CLOCK_MONOTONIC tracks. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t simrt__ip(uint64_t ret)
{
	const uint8_t *p = (const uint8_t *)ret;

	if (ret & SIMRT_EXACT_IP)
		return ret & ~SIMRT_EXACT_IP;
	if (p[-5] == 0xe8) /* call rel32 */
		return ret - 5;
	if (p[-6] == 0xff && p[-5] == 0x15) /* call *rel32(%rip) (-fno-plt) */
		return ret - 6;
	return ret - 1;
}

int64_t simrt__next_period(struct simrt_thread *t, int miss)
{
	uint64_t period = simrt__periods[miss];

	/* xorshift64: jitter the period so that a loop's fixed access pattern does not alias. */
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	if (period <= 1)
		return 1;
	return (int64_t)(period / 2 + t->rng % period);
}

/*
 * The run's first START ns of CPU time are one window (short programs are modeled exactly);
 * after it, window k opens at (the start's end) + k EVERY + off(k) and lasts BURST, off(k) in
 * [0, EVERY - BURST] a hash of k, so that the windows do not alias with a program's own
 * period; a function of the time only, so every thread has the same windows.  Returns whether
 * @now (since the start) is inside one, and in *@until the ns until the next change.
 */
static bool window_at(uint64_t now, uint64_t *until)
{
	uint64_t k, at, off, end = __atomic_load_n(&start_end, __ATOMIC_RELAXED);

	if (!end) {
		/*
		 * The exact start is START of the process's CPU time, not of the clock's: on a
		 * busy machine a short program can wait longer than START for a CPU, and would
		 * then be seen through a window or two, or none.
		 */
		struct timespec ts;
		uint64_t cpu = 0, zero = 0;

		if (!clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
			cpu = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		if (cpu < simrt__start_ns) {
			*until = simrt__start_ns - cpu;
			return true;
		}
		end = now ? now : 1;
		if (!__atomic_compare_exchange_n(&start_end, &zero, end, false, __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			end = zero;
	}
	now = now > end ? now - end : 0;
	k = now / simrt__every_ns;
	at = now - k * simrt__every_ns;
	off = (k * 0x9e3779b97f4a7c15ULL >> 20) % (simrt__every_ns - simrt__burst_ns + 1);
	if (at < off) {
		*until = off - at;
		return false;
	}
	if (at - off < simrt__burst_ns) {
		*until = simrt__burst_ns - (at - off);
		return true;
	}
	*until = simrt__every_ns - at; /* at least until window k + 1's earliest opening */
	return false;
}

/*
 * Outside a window, the countdown is set to the plain accesses the thread is expected to make
 * until the next window opens (its rate since the last look, capped at BURST / 4 of time so
 * that a thread speeding up is not late by much), at least 16: a tight loop then reads the
 * clock a few times per window period, a slow thread often enough not to miss a window.
 */
void simrt__window_check(struct simrt_thread *t)
{
	uint64_t until, now, seen;
	int64_t n = 1;
	bool in;

	if (!simrt__every_ns) {
		t->ev[0] = t->ev[1] = 0;
		t->window = true;
		t->clock_left = INT32_MAX;
		simrt__reload(t, 1);
		return;
	}
	now = simrt__now() - t0;
	in = window_at(now, &until);
	/* In the exact start, the CPU clock is a system call: look at it less often. */
	t->clock_left = start_end ? SIMRT_CLOCK_CHECK : 16 * SIMRT_CLOCK_CHECK;
	t->window = in;
	simrt__reload(t, 1);
	if (t->ev[0] != SIMRT_EV_PLAIN && start_end) {
		/* Out of the exact start: from here on, samples are scaled by what follows. */
		t->plain_seen = t->plain_modeled = t->sync_seen = t->sync_modeled = 0;
		t->ev[0] = SIMRT_EV_PLAIN;
		t->ev[1] = SIMRT_EV_SYNC;
	}
	seen = t->plain_seen;
	if (!in) {
		uint64_t dt = now - t->check_ns, dn = seen - t->check_seen;
		uint64_t target = until < simrt__burst_ns / 4 ? until : simrt__burst_ns / 4;
		double r = dt && t->check_ns ? (double)dn * (double)target / (double)dt
					      : SIMRT_SKIP_CHECK;

		n = r < 16 ? 16 : r > 65536 ? 65536 : (int64_t)r;
		simrt__set_skip(t, n);
	}
	t->check_ns = now;
	t->check_seen = seen;
}

static void spool_write(const void *buf, size_t len)
{
	const char *p = buf;

	while (len && spool_fd >= 0) {
		ssize_t n = write(spool_fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= n;
	}
}

static void thread_flush(struct simrt_thread *t)
{
	if (t->nrec)
		spool_write(t->buf, t->nrec * sizeof(t->buf[0]));
	t->nrec = 0;
}

void simrt__emit(struct simrt_thread *t, unsigned ev, uint64_t ip, uint64_t addr,
		 uint64_t data_src, uint64_t weight, uint64_t per)
{
	struct simrt_rec *r = &t->buf[t->nrec];

	*r = (struct simrt_rec){
	    .kind = SIMRT_REC_SAMPLE,
	    .event = ev,
	    .core = t->core,
	    .tid = t->tid,
	    .ip = ip,
	    .addr = addr,
	    .time = simrt__now(),
	    .data_src = data_src,
	    .weight = weight,
	    .period = per,
	};
	if (++t->nrec == SIMRT_BUF_RECS)
		thread_flush(t);
}

static bool debug; /* LINEUP_SIM_DEBUG */

void simrt__emit_counts(struct simrt_thread *t)
{
	struct simrt_rec *r = &t->buf[t->nrec];

	if (debug)
		dprintf(2, "lineup-sim: tid %u: plain accesses %llu, modeled %llu; sync %llu, modeled %llu\n",
			t->tid, (unsigned long long)t->plain_seen,
			(unsigned long long)t->plain_modeled, (unsigned long long)t->sync_seen,
			(unsigned long long)t->sync_modeled);
	*r = (struct simrt_rec){
	    .kind = SIMRT_REC_COUNTS,
	    .core = t->core,
	    .tid = t->tid,
	    .ip = t->plain_seen,
	    .addr = t->plain_modeled,
	    .time = simrt__now(),
	    .data_src = t->sync_seen,
	    .weight = t->sync_modeled,
	};
	if (++t->nrec == SIMRT_BUF_RECS)
		thread_flush(t);
}

/* Add @src's counts into the global table (cold_lock held). */
static void rmw_merge(struct simrt_rmw *src, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct simrt_rmw *e = &src[i];

		if (!e->ip)
			continue;
		for (unsigned k = 0; k < RMW_GLOBAL_SLOTS; k++) {
			struct simrt_rmw *g = &rmw_all[((e->ip * 0x9e3779b97f4a7c15ULL >> 52) + k) &
						       (RMW_GLOBAL_SLOTS - 1)];

			if (g->ip && g->ip != e->ip)
				continue;
			g->ip = e->ip;
			g->addr = e->addr;
			g->total += e->total;
			g->redundant += e->redundant;
			break;
		}
		memset(e, 0, sizeof(*e));
	}
}

static void thread_retire(void *arg)
{
	struct simrt_thread *t = arg;

	if (t == simrt__cur)
		simrt__reload(t, SIMRT_SKIP_NEVER); /* settle the count of plain accesses */
	simrt__mutex_lock(&cold_lock);
	if (t->registered) {
		simrt__emit_counts(t);
		thread_flush(t);
		rmw_merge(t->rmw, SIMRT_RMW_SLOTS);
		t->registered = false;
		atomic_store(&slot_used[t->slot], 0);
	}
	simrt__mutex_unlock(&cold_lock);
	simrt__cur = NULL;
	for (int i = 0; i < SIMRT_NR_SKIP; i++)
		simrt__skip[i] = SIMRT_SKIP_NEVER;
	gone = 1;
}

struct simrt_thread *simrt__thread(void)
{
	struct simrt_thread *t = NULL;
	char comm[17] = "";

	if (simrt__cur)
		return simrt__cur;
	if (gone || inside || simrt__state != 1)
		return NULL;
	inside++;
	/*
	 * Slots are handed out round robin, not lowest-free-first, so that threads which follow
	 * each other (one exits before the next starts) still get cores of their own: a new
	 * thread inherits nothing from an old one until all slots have been used once.
	 */
	for (unsigned k = 0, first = atomic_fetch_add(&next_slot, 1); k < SIMRT_MAX_THREADS; k++) {
		unsigned s = (first + k) % SIMRT_MAX_THREADS;
		int zero = 0;

		if (atomic_load_explicit(&slot_used[s], memory_order_relaxed) ||
		    !atomic_compare_exchange_strong(&slot_used[s], &zero, 1))
			continue;
		t = &threads[s];
		t->slot = s;
		unsigned seen = atomic_load(&slots_seen);
		while (seen < s + 1 && !atomic_compare_exchange_weak(&slots_seen, &seen, s + 1))
			;
		break;
	}
	if (!t) {
		/* More live threads than slots: this one goes unobserved. */
		gone = 1;
		inside--;
		return NULL;
	}
	t->core = t->slot % COH_MAX_CORES;
	t->me = 1ULL << t->core;
	t->tid = (uint32_t)syscall(SYS_gettid);
	t->rng = (uint64_t)t->tid * 0x9e3779b97f4a7c15ULL | 1;
	t->nrec = 0;
	t->ignore = 0;
	t->yield_left = simrt__yield_every;
	memset(t->rmw, 0, sizeof(t->rmw));
	for (int k = 0; k < SIMRT_NR_COUNTDOWNS; k++)
		t->left[k] = simrt__next_period(t, k & 1);
	memcpy(t->skip_set, simrt__skip, sizeof(t->skip_set));
	t->plain_seen = t->plain_modeled = t->sync_seen = t->sync_modeled = 0;
	t->check_ns = t->check_seen = 0;
	t->ev[0] = t->ev[1] = 0; /* unscaled while in the exact start */
	simrt__window_check(t);
	t->registered = true;
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	t->buf[0] = (struct simrt_rec){
	    .kind = SIMRT_REC_THREAD, .core = t->core, .tid = t->tid, .time = simrt__now()};
	memcpy(&t->buf[0].ip, comm, 16);
	t->nrec = 1;
	pthread_setspecific(thread_key, t);
	simrt__cur = t;
	inside--;
	return t;
}

void simrt__rmw_done(uint64_t addr, bool changed, uint64_t ret)
{
	struct simrt_thread *t = simrt__cur;

	if (!t || simrt__state != 1)
		return;
	unsigned h = (unsigned)(ret * 0x9e3779b97f4a7c15ULL >> 56);
	for (unsigned k = 0; k < SIMRT_RMW_SLOTS; k++) {
		struct simrt_rmw *e = &t->rmw[(h + k) & (SIMRT_RMW_SLOTS - 1)];

		if (e->ip && e->ip != ret)
			continue;
		e->ip = ret;
		e->addr = addr;
		e->total++;
		e->redundant += !changed;
		return;
	}
	/* The thread's table is full: fold it into the global one and start again. */
	simrt__mutex_lock(&cold_lock);
	rmw_merge(t->rmw, SIMRT_RMW_SLOTS);
	simrt__mutex_unlock(&cold_lock);
	simrt__rmw_done(addr, changed, ret);
}

void simrt__finish(void)
{
	struct simrt_output o;
	char err[256];
	unsigned n = 0;

	if (simrt__state != 1 || atomic_exchange(&finishing, 1))
		return;
	inside++;
	simrt__state = 2;
	if (simrt__cur)
		simrt__reload(simrt__cur, SIMRT_SKIP_NEVER);
	simrt__mutex_lock(&cold_lock);
	for (unsigned s = 0; s < SIMRT_MAX_THREADS; s++) {
		if (!threads[s].registered)
			continue;
		/* Threads still running: their counts as they are (at most SIMRT_SKIP_CHECK
		 * plain accesses short). */
		simrt__emit_counts(&threads[s]);
		thread_flush(&threads[s]);
		rmw_merge(threads[s].rmw, SIMRT_RMW_SLOTS);
	}
	for (unsigned i = 0; i < RMW_GLOBAL_SLOTS; i++)
		if (rmw_all[i].ip)
			rmw_all[n++] = rmw_all[i];
	simrt__mutex_unlock(&cold_lock);
	for (unsigned i = 0; i < n; i++)
		rmw_all[i].ip = simrt__ip(rmw_all[i].ip);
	o = (struct simrt_output){
	    .path = out_path,
	    .spool_fd = spool_fd,
	    .period = simrt__periods[0],
	    .rmw = rmw_all,
	    .nr_rmw = n,
	    .nr_cores =
		atomic_load(&slots_seen) < COH_MAX_CORES ? atomic_load(&slots_seen) : COH_MAX_CORES,
	    .exact = !simrt__every_ns,
	};
	if (simrt__write_perf_data(&o, err, sizeof(err)) < 0)
		dprintf(2, "lineup-sim: %s\n", err);
	inside--;
}

static void on_fatal(int sig)
{
	simrt__finish();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_fork_child(void)
{
	/* A forked child shares the spool and the tables: it must not write either. */
	simrt__state = 2;
	spool_fd = -1;
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return def;
	v = strtoull(s, &end, 0);
	return *end ? def : v;
}

/*
 * LINEUP_SIM_WINDOW: "BURST/EVERY[/START]" in microseconds, 0 < BURST <= EVERY (BURST == EVERY:
 * exact), START >= 0 (the exact start); or "0" / "exact": every access modeled.  Unset or
 * empty: the defaults.
 */
static int parse_window(const char *s, uint64_t *burst_ns, uint64_t *every_ns, uint64_t *start_ns)
{
	unsigned long long b, e, st = *start_ns / 1000;
	char *end;

	if (!s || !*s)
		return 0;
	if (!strcmp(s, "0") || !strcmp(s, "exact")) {
		*burst_ns = *every_ns = 0;
		return 0;
	}
	b = strtoull(s, &end, 10);
	if (end == s || *end != '/')
		return -1;
	s = end + 1;
	e = strtoull(s, &end, 10);
	if (end == s || (*end && *end != '/'))
		return -1;
	if (*end == '/') {
		s = end + 1;
		st = strtoull(s, &end, 10);
		if (end == s || *end || st > 3600ULL * 1000000)
			return -1;
	}
	if (!b || b > e || e > 60ULL * 1000000)
		return -1;
	if (b == e)
		b = e = 0;
	*burst_ns = b * 1000;
	*every_ns = e * 1000;
	*start_ns = st * 1000;
	return 0;
}

void simrt__init(void)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT, SIGTERM};
	size_t tab_bytes = sizeof(struct simrt_pair_slot) << SIMRT_LOG2_SLOTS;
	char spool[4200], cwd[2048];
	const char *s;

	if (simrt__state)
		return;
	simrt__state = 2;
	s = getenv("LINEUP_SIM_OUTPUT");
	/* Not under `lineup record --sim` (run as a plain program): record nothing, write nothing.
	 */
	if (!s || !*s)
		return;
	if (getenv("LINEUP_SIM_ACTIVE"))
		return; /* an instrumented child of a recorded program */
	setenv("LINEUP_SIM_ACTIVE", "1", 1);
	/* Absolute now: the program may chdir before it exits. */
	if (s[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(out_path, sizeof(out_path), "%s/%s", cwd, s);
	else
		snprintf(out_path, sizeof(out_path), "%s", s);
	simrt__periods[0] = env_u64("LINEUP_SIM_PERIOD", simrt__periods[0]);
	simrt__periods[1] =
	    env_u64("LINEUP_SIM_MISS_PERIOD", simrt__periods[0] >= 20 ? simrt__periods[0] / 20 : 1);
	for (int k = 0; k < 2; k++)
		if (!simrt__periods[k])
			simrt__periods[k] = 1;
	simrt__yield_every = (int64_t)env_u64("LINEUP_SIM_YIELD", 0);
	if (parse_window(getenv("LINEUP_SIM_WINDOW"), &simrt__burst_ns, &simrt__every_ns,
			 &simrt__start_ns) < 0)
		dprintf(2, "lineup-sim: LINEUP_SIM_WINDOW=%s is not BURST/EVERY[/START] "
			   "(microseconds, BURST <= EVERY) or 0: using %llu/%llu/%llu\n",
			getenv("LINEUP_SIM_WINDOW"), (unsigned long long)simrt__burst_ns / 1000,
			(unsigned long long)simrt__every_ns / 1000,
			(unsigned long long)simrt__start_ns / 1000);
	debug = getenv("LINEUP_SIM_DEBUG") != NULL;
	t0 = simrt__now();
	simrt__max_allocs = env_u64("LINEUP_SIM_MAX_ALLOCS", simrt__max_allocs);
	coherence__default_costs(&simrt__costs);

	simrt__table = mmap(NULL, tab_bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	snprintf(spool, sizeof(spool), "%s.spool.%d", out_path, (int)getpid());
	spool_fd = open(spool, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	if (spool_fd >= 0) {
		/* Out of the way of programs that close or dup2 over their low descriptors. */
		int high = fcntl(spool_fd, F_DUPFD_CLOEXEC, 900);

		if (high >= 0) {
			close(spool_fd);
			spool_fd = high;
		}
	}
	if (simrt__table == MAP_FAILED || spool_fd < 0) {
		dprintf(2, "lineup-sim: cannot set up the collector (%s): not recording\n",
			spool_fd < 0 ? spool : "line table");
		return;
	}
	unlink(spool);
	if (pthread_key_create(&thread_key, thread_retire))
		return;
	pthread_atfork(NULL, NULL, at_fork_child);
	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa = {.sa_handler = on_fatal,
				       .sa_flags = SA_RESETHAND | SA_NODEFER};
		struct sigaction old;

		/* A signal the program was started with ignored (nohup, `cmd &`) stays ignored. */
		if (sigaction(fatal[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
	atexit(simrt__finish);
	simrt__state = 1;
}
