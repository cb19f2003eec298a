// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector's core: per-thread state, the line table, sampling periods, the spool, and
 * the ways out (exit, fatal signal, SIGINT/SIGTERM).  The hot path is in access.h.
 *
 * Each thread samples with its own countdowns and appends to its own buffer; a full buffer is
 * written to the spool, a file without a name in the output's directory (O_TMPFILE, else a
 * random name created O_EXCL and unlinked at once), opened O_APPEND, so memory stays bounded
 * however long the program runs.  The line table is a fixed-size direct-mapped table (coherence__slot), so
 * memory is bounded there too.
 *
 * Ownership: everything here is static or mmap'ed once and lives as long as the process.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampling/simrt/simrt.h"
#include "sampling/small_file.h"

#define RMW_GLOBAL_SLOTS 4096

int simrt__state;
uint64_t simrt__max_allocs = 1000000;

/* Sampling periods: [0] accesses that hit (L1), [1] those that miss (contention, cold). */
uint64_t simrt__periods[2] = {1000, 50};
int64_t simrt__yield_every;
/* Modeling windows (LINEUP_SIM_WINDOW): BURST ns once every EVERY ns after an exact START;
 * every 0: exact. */
uint64_t simrt__burst_ns = 200000, simrt__every_ns = 2000000, simrt__start_ns = 10000000;
/* Nonzero once the exact start has ended (samples are scaled from then on). */
uint64_t simrt__start_end;
uint8_t simrt__phase[64] __attribute__((aligned(64)));
static char out_path[4096];
static bool out_pipe;
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
static atomic_int finishing; /* 0, 1 while a thread writes the recording, 2 once written */
static pid_t finisher;	     /* the thread that writes it */
static pid_t recording_pid;  /* the process that records (not a child that shares its memory) */
static atomic_int main_gone; /* the main thread has ended (pthread_exit) */
static atomic_uint unobserved; /* threads that found no free slot */
unsigned simrt__nr_cpus = 1; /* CPUs the process may run on (at init) */

__thread __attribute__((tls_model("initial-exec"))) struct simrt_thread *simrt__cur;
__thread __attribute__((tls_model("initial-exec"))) uint64_t simrt__cnt[SIMRT_NR_CNT];
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
	unsigned len;

	if (ret & SIMRT_EXACT_IP)
		return ret & ~SIMRT_EXACT_IP;
	/* A patched site may be a no-op (or half-way) by now: its length is known. */
	if ((len = simrt__site_len(ret - 5)) == 5 || (len = simrt__site_len(ret - 6)) == 6)
		return ret - len;
	return ret - ((len = simrt__call_len(ret)) ? len : 1);
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

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

/* @t's CPU time (ns) by its clock; 0 if it cannot be read. */
static uint64_t thread_cpu(const struct simrt_thread *t)
{
	struct timespec ts;

	return t->has_clock && !clock_gettime(t->clock, &ts) ? ts_ns(&ts) : 0;
}

/* A window opens (@open) or closes for @t at its CPU time @now (cold_lock held). */
static void window_cpu(struct simrt_thread *t, bool open, uint64_t now)
{
	if (!now)
		return; /* (no clock: the estimate falls back on the counts it has) */
	if (open) {
		t->cpu_open = now;
		t->in_win = true;
	} else if (t->in_win) {
		t->cpu_win += now > t->cpu_open ? now - t->cpu_open : 0;
		t->in_win = false;
	}
}

/* The loads @t's hooks counted so far (compound accesses twice). */
static uint64_t loads_now(const struct simrt_thread *t)
{
	return __atomic_load_n(&t->cnt[0], __ATOMIC_RELAXED) +
	       2 * __atomic_load_n(&t->cnt[2], __ATOMIC_RELAXED);
}

/* The loads @t's hooks counted since the exact start ended. */
static uint64_t loads_since_start(const struct simrt_thread *t)
{
	return loads_now(t) - t->cnt_base[0] - 2 * t->cnt_base[2];
}

/* A counting phase (patched sites: the one after each window) begins or ends for @t at its CPU
 * time @now (cold_lock held). */
static void count_cpu(struct simrt_thread *t, bool begin, uint64_t now)
{
	if (!now)
		return;
	if (begin) {
		t->cpu_cnt_open = now;
		t->cnt_open = loads_now(t);
		t->in_cnt = true;
	} else if (t->in_cnt) {
		t->cpu_cnt += now > t->cpu_cnt_open ? now - t->cpu_cnt_open : 0;
		t->loads_cnt += loads_now(t) - t->cnt_open;
		t->in_cnt = false;
	}
}

/*
 * The overlap account (simrt.h, "Overlap"), kept by the timer thread under cold_lock: an
 * interval of modeled time is open between two marks; the CPU each thread used in it, and that
 * of threads that ended inside it, bound the time in which two or more ran.
 */
struct overlap_acc {
	uint64_t sum, max; /* CPU ns used in the interval: all threads, the busiest */
	unsigned n;	   /* threads that used any */
};

static struct {
	bool open;
	uint64_t wall;		 /* the open interval's beginning (simrt__now) */
	struct overlap_acc gone; /* threads that ended inside it */
	uint64_t observed_ns, overlap_ns;
} overlap;

static void overlap_add(struct overlap_acc *a, uint64_t cpu_ns)
{
	if (!cpu_ns)
		return;
	a->sum += cpu_ns;
	a->n++;
	if (cpu_ns > a->max)
		a->max = cpu_ns;
}

/* @t is at CPU time @now at a mark: what it used since the last one goes to @a (NULL: nothing,
 * an interval begins). */
static void overlap_thread(struct simrt_thread *t, uint64_t now, struct overlap_acc *a)
{
	if (a && overlap.open && now > t->cpu_mark)
		overlap_add(a, now - t->cpu_mark);
	t->cpu_mark = now;
}

static void overlap_begin(void)
{
	overlap.open = true;
	overlap.wall = simrt__now();
	overlap.gone = (struct overlap_acc){ 0 };
}

/* The open interval ends; @a holds what the live threads used in it. */
static void overlap_end(struct overlap_acc *a)
{
	uint64_t w, o = 0;
	unsigned m;

	if (!overlap.open)
		return;
	overlap.open = false;
	w = simrt__now() - overlap.wall;
	a->sum += overlap.gone.sum;
	a->n += overlap.gone.n;
	if (overlap.gone.max > a->max)
		a->max = overlap.gone.max;
	overlap.observed_ns += w;
	if (a->n < 2)
		return;
	m = a->n < simrt__nr_cpus ? a->n : simrt__nr_cpus;
	if (simrt__yield_every)
		o = a->sum - a->max; /* they interleave at every yield */
	else if (m >= 2 && a->sum > w)
		o = (a->sum - w) / (m - 1);
	overlap.overlap_ns += o < w ? o : w;
}

/* @t ends, or recording does (cold_lock held): its CPU time since its base. */
static void thread_cpu_end(struct simrt_thread *t)
{
	uint64_t now = thread_cpu(t);

	overlap_thread(t, now, &overlap.gone);
	window_cpu(t, false, now);
	count_cpu(t, false, now);
	t->cpu_total = now > t->cpu_base ? now - t->cpu_base : 0;
}

/*
 * The plain accesses @t made since the exact start's end, estimated: the hooks count its loads
 * (simrt__cnt[0], and [2] for compound accesses, two each) in and out of windows, exactly;
 * the rest are scaled by its mix inside windows (all plain accesses modeled per load modeled).
 * A thread that had no load modeled: its loads counted and the stores modeled.
 */
static uint64_t plain_estimate(const struct simrt_thread *t)
{
	uint64_t loads;

	if (!t->ev[0] || !t->cnt)
		return t->plain_modeled; /* exact, or still in the exact start: unscaled */
	if (simrt__patching) {
		/*
		 * Patched sites count nothing between windows, except in the counting phase after
		 * each window (the sites still calls, the hooks counting loads, nothing modeled):
		 * the loads outside windows are estimated from the thread's CPU time there at the
		 * counting phases' rate, the rest from its mix inside windows as below.  Without
		 * a load modeled or counted: by CPU time at the windows' own rate.
		 */
		double out, loads_out;

		if (!t->cpu_win || t->cpu_total <= t->cpu_win)
			return t->plain_modeled;
		out = (double)(t->cpu_total - t->cpu_win);
		if (!t->loads_modeled || !t->cpu_cnt || !t->loads_cnt)
			return (uint64_t)((double)t->plain_modeled * (double)t->cpu_total /
					  (double)t->cpu_win);
		loads_out = (double)t->loads_cnt * out / (double)t->cpu_cnt;
		return t->plain_modeled + (uint64_t)(loads_out * (double)t->plain_modeled /
						     (double)t->loads_modeled);
	}
	loads = loads_since_start(t);
	if (!t->loads_modeled)
		return t->plain_modeled + loads;
	if (loads < t->loads_modeled)
		return t->plain_modeled;
	return (uint64_t)((double)loads * (double)t->plain_modeled / (double)t->loads_modeled);
}

/*
 * The spool's descriptor is the runtime's alone: a program that closes every descriptor (a
 * close loop, closefrom, close_range) or dup2()s onto its number must not get it, or the
 * runtime would write its records into a file of the program's.  close() of it succeeds
 * without closing, close_range() and closefrom() skip it, dup2() and dup3() onto it move the
 * spool to another number first.  And before each write the descriptor's identity is checked
 * (device and inode, from the open): one that is no longer the spool is never written.
 */
static dev_t spool_dev;
static ino_t spool_ino;

extern int __close(int fd);
extern int __dup2(int fd, int fd2);

#define API __attribute__((visibility("default")))

API int close(int fd)
{
	if (fd >= 0 && fd == spool_fd)
		return 0;
	return __close(fd);
}

API int close_range(unsigned int first, unsigned int last, int flags)
{
	unsigned int s = (unsigned int)spool_fd;

	if (spool_fd < 0 || s < first || s > last)
		return (int)syscall(SYS_close_range, first, last, flags);
	if (s > first && syscall(SYS_close_range, first, s - 1, flags))
		return -1;
	if (s < last && syscall(SYS_close_range, s + 1, last, flags))
		return -1;
	return 0;
}

API void closefrom(int lowfd)
{
	long max = sysconf(_SC_OPEN_MAX);

	if (!close_range(lowfd < 0 ? 0 : (unsigned int)lowfd, ~0U, 0))
		return;
	for (long fd = lowfd < 0 ? 0 : lowfd; fd < (max > 0 && max < 1 << 20 ? max : 1 << 20); fd++)
		close((int)fd);
}

/* A dup2/dup3 onto the spool's number: the spool moves out of the way first. */
static void spool_make_way(int fd)
{
	if (fd >= 0 && fd == spool_fd) {
		int n = fcntl(spool_fd, F_DUPFD_CLOEXEC, 900);

		if (n >= 0)
			spool_fd = n; /* (the old number is the program's to replace) */
	}
}

API int dup2(int fd, int fd2)
{
	spool_make_way(fd2);
	return __dup2(fd, fd2);
}

API int dup3(int fd, int fd2, int flags)
{
	spool_make_way(fd2);
	return (int)syscall(SYS_dup3, fd, fd2, flags);
}

/* Whether spool_fd is still the spool; if not (taken behind the runtime's back, by a raw
 * syscall), the recording stops there, said once. */
static bool spool_ok(void)
{
	struct stat st;

	if (spool_fd < 0)
		return false;
	if (!fstat(spool_fd, &st) && st.st_dev == spool_dev && st.st_ino == spool_ino)
		return true;
	dprintf(2, "lineup-sim: descriptor %d is no longer the recording's spool (the program "
		   "took it): recording stops here\n",
		spool_fd);
	spool_fd = -1;
	return false;
}

static void spool_write(const void *buf, size_t len)
{
	const char *p = buf;

	if (!spool_ok())
		return;
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
	uint64_t seen = plain_estimate(t);

	if (debug)
		dprintf(2, "lineup-sim: tid %u: plain accesses %llu (estimated), modeled %llu, loads "
			   "counted %llu, modeled %llu; sync %llu, modeled %llu; cpu %.3f ms, in "
			   "windows %.3f ms, counting %.3f ms (%llu loads); patched sites %llu\n",
			t->tid, (unsigned long long)seen, (unsigned long long)t->plain_modeled,
			(unsigned long long)loads_since_start(t),
			(unsigned long long)t->loads_modeled, (unsigned long long)t->sync_seen,
			(unsigned long long)t->sync_modeled, t->cpu_total / 1e6, t->cpu_win / 1e6,
			t->cpu_cnt / 1e6, (unsigned long long)t->loads_cnt,
			(unsigned long long)simrt__patched_sites);
	*r = (struct simrt_rec){
	    .kind = SIMRT_REC_COUNTS,
	    .core = t->core,
	    .tid = t->tid,
	    .ip = seen,
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

/*
 * A signal stack for each recorded thread that has none, so that the fatal-signal handler can
 * still write the recording when the thread dies of a stack overflow.  256 KB (the writer's
 * frames; mapped, touched only if used), taken back when the thread ends.
 */
#define ALTSTACK_SIZE (256 * 1024)

static void altstack_give(struct simrt_thread *t)
{
	stack_t old, ss = {.ss_size = ALTSTACK_SIZE};

	t->altstack = NULL;
	if (sigaltstack(NULL, &old) || !(old.ss_flags & SS_DISABLE))
		return; /* (the program's own, or none to be had) */
	ss.ss_sp = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (ss.ss_sp == MAP_FAILED)
		return;
	if (sigaltstack(&ss, NULL)) {
		munmap(ss.ss_sp, ALTSTACK_SIZE);
		return;
	}
	t->altstack = ss.ss_sp;
}

static void altstack_take_back(struct simrt_thread *t)
{
	stack_t cur, off = {.ss_flags = SS_DISABLE};

	if (!t->altstack)
		return;
	/* Still the runtime's (the program may have set its own since), and not in use. */
	if (!sigaltstack(NULL, &cur) && cur.ss_sp == t->altstack && !(cur.ss_flags & SS_ONSTACK))
		sigaltstack(&off, NULL);
	else if (cur.ss_sp == t->altstack)
		return; /* running on it: left mapped */
	munmap(t->altstack, ALTSTACK_SIZE);
	t->altstack = NULL;
}

/* @t's account closed (at its end, or at the finish; cold_lock held): its CPU time, its counts
 * and its buffer to the spool, its RMW counts to the global table. */
static void thread_close(struct simrt_thread *t)
{
	thread_cpu_end(t);
	simrt__emit_counts(t);
	thread_flush(t);
	rmw_merge(t->rmw, SIMRT_RMW_SLOTS);
}

static void thread_retire(void *arg)
{
	struct simrt_thread *t = arg;

	if (t->tid == (uint32_t)getpid())
		atomic_store(&main_gone, 1);
	simrt__turn_end(t);
	simrt__mutex_lock(&cold_lock);
	if (t->registered) {
		thread_close(t);
		t->registered = false;
		altstack_take_back(t);
		atomic_store(&slot_used[t->slot], 0);
	}
	simrt__mutex_unlock(&cold_lock);
	simrt__cur = NULL;
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
		/* More live threads than slots: this one goes unobserved (said at the end). */
		atomic_fetch_add(&unobserved, 1);
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
	t->plain_modeled = t->sync_seen = t->sync_modeled = 0;
	t->ev[0] = t->ev[1] = 0; /* unscaled while in the exact start (current() switches) */
	t->loads_modeled = 0;
	/* Under the timer thread's lock: at the exact start's end it reads the counts of the
	 * registered threads (a thread that begins later counts from its beginning). */
	t->has_clock = !pthread_getcpuclockid(pthread_self(), &t->clock);
	simrt__mutex_lock(&cold_lock);
	t->cnt = simrt__cnt;
	memset(t->cnt_base, 0, sizeof(t->cnt_base));
	t->cpu_base = thread_cpu(t);
	t->cpu_mark = t->cpu_base;
	t->cpu_win = t->cpu_total = t->cpu_cnt = t->loads_cnt = 0;
	t->in_cnt = false;
	t->in_win = false;
	if (simrt__phase_now() == SIMRT_PH_MODEL && simrt__start_end)
		window_cpu(t, true, thread_cpu(t));
	t->registered = true;
	altstack_give(t);
	simrt__mutex_unlock(&cold_lock);
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	t->buf[0] = (struct simrt_rec){
	    .kind = SIMRT_REC_THREAD, .core = t->core, .tid = t->tid, .time = simrt__now()};
	memcpy(&t->buf[0].ip, comm, 16);
	t->nrec = 1;
	pthread_setspecific(thread_key, t);
	simrt__cur = t;
	simrt__turn_join(t);
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

	int was = 0;

	if (!atomic_compare_exchange_strong(&finishing, &was, 1)) {
		/*
		 * Another thread is writing the recording (two threads calling exit(), a fatal
		 * signal during an exit): wait for it (60 s at most), or this thread's exit would
		 * end the process with the file half written.
		 */
		struct timespec ms = {.tv_nsec = 1000000};

		for (int i = 0; was == 1 && finisher != (pid_t)syscall(SYS_gettid) &&
				atomic_load(&finishing) == 1 && i < 60000;
		     i++)
			nanosleep(&ms, NULL);
		return;
	}
	if (simrt__state != 1) {
		atomic_store(&finishing, 2);
		return;
	}
	finisher = (pid_t)syscall(SYS_gettid);
	inside++;
	simrt__state = 2;
	__atomic_store_n(&simrt__phase[0], 0, __ATOMIC_RELAXED);
	simrt__mutex_lock(&cold_lock);
	if (overlap.open) {
		struct overlap_acc acc = { 0 };

		for (unsigned s = 0; s < SIMRT_MAX_THREADS; s++)
			if (threads[s].registered)
				overlap_thread(&threads[s], thread_cpu(&threads[s]), &acc);
		overlap_end(&acc);
	}
	for (unsigned s = 0; s < SIMRT_MAX_THREADS; s++) {
		if (!threads[s].registered)
			continue;
		/* Threads still running: their counts as they are, their CPU time now. */
		thread_close(&threads[s]);
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
	    .pipe = out_pipe,
	    .observed_ns = overlap.observed_ns,
	    .overlap_ns = overlap.overlap_ns,
	};
	if (simrt__write_perf_data(&o, err, sizeof(err)) < 0)
		dprintf(2, "lineup-sim: %s\n", err);
	if (atomic_load(&unobserved))
		dprintf(2, "lineup-sim: %u threads were not observed: more than %d were alive at "
			   "once\n",
			atomic_load(&unobserved), SIMRT_MAX_THREADS);
	atomic_store(&finishing, 2);
	inside--;
}

/*
 * The ways a process ends without returning from main: exit() (the recording written first,
 * and by one thread: see simrt__finish), _exit() and _Exit() (no atexit handlers: written here
 * or never).  Not in a child that shares the recording process's memory (vfork): its pid is
 * another.
 */
typedef void (*exit_fn)(int) __attribute__((noreturn));

static __attribute__((noreturn)) void end_with(const char *name, int status)
{
	exit_fn real = (exit_fn)dlsym(RTLD_NEXT, name);

	if (recording_pid && getpid() == recording_pid)
		simrt__finish();
	if (real)
		real(status);
	syscall(SYS_exit_group, status);
	for (;;)
		;
}

API void exit(int status)
{
	end_with("exit", status);
}

API void _exit(int status)
{
	end_with("_exit", status);
}

API void _Exit(int status)
{
	end_with("_Exit", status);
}

/*
 * exec*() in the recording process: the recording is written before its image goes (a failed
 * exec goes on unrecorded; an instrumented new image records again, under the same pid, and its
 * file replaces this one).  In a vfork child (another pid, the same memory) nothing is written.
 */
static void *before_exec(const char *name)
{
	void *real = dlsym(RTLD_NEXT, name);

	if (!real)
		errno = ENOSYS;
	else if (recording_pid && getpid() == recording_pid)
		simrt__finish();
	return real;
}

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);

API int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn real = (execve_fn)before_exec("execve");

	return real ? real(path, argv, envp) : -1;
}

API int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execve_fn real = (execve_fn)before_exec("execvpe");

	return real ? real(file, argv, envp) : -1;
}

API int execv(const char *path, char *const argv[])
{
	execv_fn real = (execv_fn)before_exec("execv");

	return real ? real(path, argv) : -1;
}

API int execvp(const char *file, char *const argv[])
{
	execv_fn real = (execv_fn)before_exec("execvp");

	return real ? real(file, argv) : -1;
}

API int fexecve(int fd, char *const argv[], char *const envp[])
{
	int (*real)(int, char *const[], char *const[]) =
	    (int (*)(int, char *const[], char *const[]))before_exec("fexecve");

	return real ? real(fd, argv, envp) : -1;
}

/* execl, execlp, execle: their arguments gathered into an argv (and envp), then as above. */
#define GATHER(arg, ap, argv)                                                                      \
	size_t n_ = 1;                                                                             \
	va_start(ap, arg);                                                                         \
	while (va_arg(ap, const char *))                                                           \
		n_++;                                                                              \
	va_end(ap);                                                                                \
	const char *argv[n_ + 1];                                                                  \
	argv[0] = arg;                                                                             \
	va_start(ap, arg);                                                                         \
	for (size_t i_ = 1; i_ <= n_; i_++)                                                        \
		argv[i_] = va_arg(ap, const char *);

API int execl(const char *path, const char *arg, ...)
{
	va_list ap;

	GATHER(arg, ap, argv)
	va_end(ap);
	return execv(path, (char *const *)argv);
}

API int execlp(const char *file, const char *arg, ...)
{
	va_list ap;

	GATHER(arg, ap, argv)
	va_end(ap);
	return execvp(file, (char *const *)argv);
}

API int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	char *const *envp;

	GATHER(arg, ap, argv)
	envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, (char *const *)argv, envp);
}

/*
 * The timer thread: it sets the phase for all threads.  First the exact start (phase MODEL
 * until the process has used START ns of CPU time: a short program is modeled whole, on a
 * busy machine too); then, once every EVERY ns (the k-th period from the start's end E), a
 * window of BURST ns at an offset in [0, EVERY - BURST] that is a hash of k (no aliasing with
 * a program's own period).  It never makes an instrumented access, never registers, blocks
 * every signal, and ends when recording stops; a process whose last other thread is gone
 * (main called pthread_exit) is ended by it (exit(0)), as glibc would have done.
 */
static void sleep_until(uint64_t at)
{
	struct timespec ts = {.tv_sec = (time_t)(at / 1000000000ULL),
			      .tv_nsec = (long)(at % 1000000000ULL)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Only the timer thread is left besides the ended main thread, which Linux still counts
 * (/proc/self/stat's num_threads is 2). */
static bool alone(void)
{
	char buf[1024], *p;
	int f = 0;

	if (small_file__read("/proc/self/stat", buf, sizeof(buf)))
		return false;
	p = strrchr(buf, ')'); /* after the comm, which may hold spaces */
	for (; p && *p && f < 18; p++) /* field 20; the one after ')' is field 3 */
		if (*p == ' ')
			f++;
	return p && atoi(p) <= 2;
}

/* Set the phase; false when recording has stopped. */
static bool set_phase(unsigned ph)
{
	if (simrt__state != 1)
		return false;
	__atomic_store_n(&simrt__phase[0], (uint8_t)ph, __ATOMIC_RELAXED);
	return true;
}

static bool timer_wait(uint64_t at)
{
	sleep_until(at);
	if (atomic_load(&main_gone) && alone())
		exit(0);
	return simrt__state == 1;
}

/* What the timer thread marks on every registered thread, at its CPU time read once. */
enum phase_mark {
	MARK_WINDOW_OPEN,
	MARK_WINDOW_CLOSE, /* and, with patching, the counting phase's beginning */
	MARK_COUNT_CLOSE,
	MARK_TICK,	   /* a millisecond of the exact start, or of an exact run */
	MARK_START_END,	   /* the exact start's end */
};

static void threads_mark(enum phase_mark m)
{
	struct overlap_acc acc = { 0 };
	bool ends = m == MARK_WINDOW_CLOSE || m == MARK_TICK || m == MARK_START_END;
	bool begins = m == MARK_WINDOW_OPEN || m == MARK_TICK;

	simrt__mutex_lock(&cold_lock);
	for (unsigned s = 0; s < atomic_load(&slots_seen); s++) {
		struct simrt_thread *t = &threads[s];
		uint64_t now;

		if (!t->registered)
			continue;
		now = thread_cpu(t);
		if (ends || begins)
			overlap_thread(t, now, ends ? &acc : NULL);
		if (m == MARK_TICK || m == MARK_START_END)
			continue;
		if (m == MARK_COUNT_CLOSE) {
			count_cpu(t, false, now);
			continue;
		}
		window_cpu(t, m == MARK_WINDOW_OPEN, now);
		if (m == MARK_WINDOW_CLOSE && simrt__patching)
			count_cpu(t, true, now);
	}
	if (ends)
		overlap_end(&acc);
	if (begins && simrt__state == 1)
		overlap_begin();
	simrt__mutex_unlock(&cold_lock);
}

static void *timer_main(void *arg)
{
	uint64_t e, next, k;
	/* The phase between windows: with patching, the hooks still called learn their sites. */
	unsigned idle = simrt__patching ? SIMRT_PH_LEARN : 0;

	(void)arg;
	inside++;
	if (!simrt__every_ns) {
		/* Exact: no windows, the timer only keeps the overlap account, every 10 ms (a
		 * clock read per thread each time). */
		do
			threads_mark(MARK_TICK);
		while (timer_wait(simrt__now() + 10000000));
		return NULL;
	}
	while (simrt__start_ns) {
		struct timespec ts;

		threads_mark(MARK_TICK);
		if (!clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) && ts_ns(&ts) >= simrt__start_ns)
			break;
		if (!timer_wait(simrt__now() + 1000000))
			return NULL;
	}
	threads_mark(MARK_START_END);
	/* The exact start ends: each thread's loads from here on are what its samples weigh.
	 * (Without one, simrt__init() set the end: the threads count from their beginning.) */
	simrt__mutex_lock(&cold_lock);
	if (simrt__state != 1) {
		simrt__mutex_unlock(&cold_lock);
		return NULL;
	}
	e = simrt__now();
	for (unsigned s = 0; simrt__start_ns && s < atomic_load(&slots_seen); s++)
		if (threads[s].registered) {
			for (int i = 0; i < SIMRT_NR_CNT; i++)
				threads[s].cnt_base[i] =
				    __atomic_load_n(&threads[s].cnt[i], __ATOMIC_RELAXED);
			threads[s].cpu_base = thread_cpu(&threads[s]);
		}
	if (simrt__start_ns) {
		__atomic_store_n(&simrt__start_end, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&simrt__phase[0], idle, __ATOMIC_RELAXED);
	}
	simrt__mutex_unlock(&cold_lock);
	for (k = 0, next = e;; k++) {
		uint64_t off = (k * 0x9e3779b97f4a7c15ULL >> 20) %
			       (simrt__every_ns - simrt__burst_ns + 1);

		if (!timer_wait(next + off))
			break;
		/* Open: the sites become calls, then the hooks model. */
		simrt__patch_all(true);
		if (!set_phase(SIMRT_PH_MODEL))
			break;
		threads_mark(MARK_WINDOW_OPEN);
		if (!timer_wait(next + off + simrt__burst_ns) || !set_phase(0))
			break;
		threads_mark(MARK_WINDOW_CLOSE);
		if (simrt__patching) {
			/* Closed: the hooks count loads for half a window (the rate between
			 * windows), then learn new sites while the known ones become no-ops. */
			if (!timer_wait(simrt__now() + simrt__burst_ns / 2))
				break;
			threads_mark(MARK_COUNT_CLOSE);
			if (!set_phase(idle))
				break;
			simrt__patch_all(false);
		}
		next += simrt__every_ns;
		if (next + simrt__every_ns < simrt__now())
			next = simrt__now(); /* far behind (a stopped process): start again from now */
	}
	return NULL;
}

static void timer_start(void)
{
	pthread_attr_t attr;
	pthread_t tid;
	sigset_t all, old;

	sigfillset(&all);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	/* Signals go to the program's threads: the timer thread is created with all blocked. */
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&tid, &attr, timer_main, NULL)) {
		/* No timer: every access modeled, samples unscaled. */
		dprintf(2, "lineup-sim: cannot start the timer thread: modeling every access\n");
		simrt__every_ns = simrt__burst_ns = 0;
		simrt__patching = false;
		simrt__start_end = 0; /* every sample unscaled */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

static void on_fatal(int sig)
{
	simrt__finish();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* fork() never copies a lock held by another thread (the timer takes cold_lock at each window,
 * patch.c its lock while it rewrites the sites). */
static void at_fork_prepare(void)
{
	simrt__patch_fork_prepare();
	simrt__mutex_lock(&cold_lock);
}

static void at_fork_parent(void)
{
	simrt__mutex_unlock(&cold_lock);
	simrt__patch_fork_parent();
}

static void at_fork_child(void)
{
	pthread_mutex_init(&cold_lock, NULL);
	/* A forked child shares the spool and the tables: it must not write either.  It has no
	 * timer thread (not recording, it needs none): the hooks stay on their fast path. */
	simrt__state = 2;
	spool_fd = -1;
	atomic_store(&finishing, 2); /* (a fork during the parent's finish: nothing to wait for) */
	__atomic_store_n(&simrt__phase[0], 0, __ATOMIC_RELAXED);
	simrt__patch_child();
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

/*
 * The spool, in the output's directory (where the recording will be, so there is room), with
 * no name anyone could plant a link at: O_TMPFILE, or where the file system lacks it a random
 * name created O_EXCL (which never follows a link) and unlinked at once.  The fd, or -1.
 */
static int spool_open(const char *out, char *what, size_t size)
{
	const char *slash = strrchr(out, '/');
	int dirlen = slash ? (int)(slash - out) : 0, fd;

	snprintf(what, size, "%.*s", dirlen ? dirlen : 1, dirlen ? out : "/");
	fd = open(what, O_TMPFILE | O_RDWR | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	snprintf(what, size, "%s.spool.XXXXXX", out);
	fd = mkostemp(what, O_APPEND | O_CLOEXEC);
	if (fd >= 0)
		unlink(what);
	return fd;
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
	s = getenv("LINEUP_SIM_ACTIVE");
	if (s && atol(s) != (long)getpid())
		return; /* an instrumented child of a recorded program */
	/* (The recorded process itself after an exec: it records again, its new image's file
	 * replacing the one written before the exec.) */
	snprintf(cwd, sizeof(cwd), "%ld", (long)getpid());
	setenv("LINEUP_SIM_ACTIVE", cwd, 1);
	s = getenv("LINEUP_SIM_OUTPUT");
	/* Absolute now: the program may chdir before it exits. */
	if (s[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(out_path, sizeof(out_path), "%s/%s", cwd, s);
	else
		snprintf(out_path, sizeof(out_path), "%s", s);
	out_pipe = env_u64("LINEUP_SIM_PIPE", 0) == 1;
	simrt__periods[0] = env_u64("LINEUP_SIM_PERIOD", simrt__periods[0]);
	simrt__periods[1] =
	    env_u64("LINEUP_SIM_MISS_PERIOD", simrt__periods[0] >= 20 ? simrt__periods[0] / 20 : 1);
	for (int k = 0; k < 2; k++)
		if (!simrt__periods[k])
			simrt__periods[k] = 1;
	simrt__yield_every = (int64_t)env_u64("LINEUP_SIM_YIELD", 0);
	if (env_u64("LINEUP_SIM_TURNS", 0)) {
		simrt__yield_every = (int64_t)env_u64("LINEUP_SIM_TURNS", 0);
		simrt__turns = true;
	}
	{
		cpu_set_t set;

		if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
			simrt__nr_cpus = (unsigned)CPU_COUNT(&set);
	}
	if (parse_window(getenv("LINEUP_SIM_WINDOW"), &simrt__burst_ns, &simrt__every_ns,
			 &simrt__start_ns) < 0)
		dprintf(2, "lineup-sim: LINEUP_SIM_WINDOW=%s is not BURST/EVERY[/START] "
			   "(microseconds, BURST <= EVERY) or 0: using %llu/%llu/%llu\n",
			getenv("LINEUP_SIM_WINDOW"), (unsigned long long)simrt__burst_ns / 1000,
			(unsigned long long)simrt__every_ns / 1000,
			(unsigned long long)simrt__start_ns / 1000);
	debug = getenv("LINEUP_SIM_DEBUG") != NULL;
	simrt__max_allocs = env_u64("LINEUP_SIM_MAX_ALLOCS", simrt__max_allocs);
	coherence__default_costs(&simrt__costs);

	simrt__table = mmap(NULL, tab_bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	spool_fd = spool_open(out_path, spool, sizeof(spool));
	if (spool_fd >= 0) {
		/* Out of the way of programs that close or dup2 over their low descriptors. */
		int low = spool_fd, high = fcntl(spool_fd, F_DUPFD_CLOEXEC, 900);
		struct stat st;

		if (high >= 0) {
			spool_fd = high;
			__close(low);
		}
		if (fstat(spool_fd, &st)) {
			__close(spool_fd);
			spool_fd = -1;
		} else {
			spool_dev = st.st_dev;
			spool_ino = st.st_ino;
		}
	}
	if (simrt__table == MAP_FAILED || spool_fd < 0) {
		dprintf(2, "lineup-sim: cannot set up the collector (%s): not recording\n",
			spool_fd < 0 ? spool : "line table");
		return;
	}
	if (pthread_key_create(&thread_key, thread_retire))
		return;
	recording_pid = getpid();
	pthread_atfork(at_fork_prepare, at_fork_parent, at_fork_child);
	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa = {.sa_handler = on_fatal,
				       .sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK};
		struct sigaction old;

		/* A signal the program was started with ignored (nohup, `cmd &`) stays ignored. */
		if (sigaction(fatal[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
	atexit(simrt__finish);
	/* Every access is modeled in the exact start, and always when exact. */
	__atomic_store_n(&simrt__phase[0], simrt__start_ns || !simrt__every_ns ? SIMRT_PH_MODEL : 0,
			 __ATOMIC_RELAXED);
	simrt__state = 1;
	if (simrt__every_ns) {
		inside++;
		/* Patched sites, unless LINEUP_SIM_PATCH=0 (the hooks count loads between windows). */
		s = getenv("LINEUP_SIM_PATCH");
		if (!s || strcmp(s, "0"))
			simrt__patch_init();
		if (!simrt__start_ns) {
			/* No exact start: scaled from the first access on, counted from there
			 * (not from whenever the timer thread first runs). */
			simrt__start_end = 1;
			__atomic_store_n(&simrt__phase[0], simrt__patching ? SIMRT_PH_LEARN : 0,
					 __ATOMIC_RELAXED);
		}
		timer_start();
		inside--;
		if (!simrt__every_ns)
			__atomic_store_n(&simrt__phase[0], SIMRT_PH_MODEL, __ATOMIC_RELAXED);
	} else {
		/* Exact: a timer thread only for the overlap account. */
		inside++;
		timer_start();
		inside--;
	}
}
