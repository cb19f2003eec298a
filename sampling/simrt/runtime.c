// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector's core: per-thread state, the shared line tables, sampling, the spool, and
 * the ways out (exit, fatal signal, SIGINT/SIGTERM).
 *
 * Hot path: one relaxed load (and, when the line changes state, one compare-and-swap) per
 * table and access, no lock.  Each thread samples with its own countdowns and appends to its
 * own buffer; a full buffer is written to the spool, an unlinked file opened O_APPEND, so
 * memory stays bounded however long the program runs.  The line tables are fixed-size
 * direct-mapped tables (coherence__slot), so memory is bounded there too.
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

/* The model is compiled into this file so that the compiler inlines it into the hot path. */
#include "analyzer/coherence.c"

#define LOG2_SLOTS 19
#define RMW_GLOBAL_SLOTS 4096
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

int simrt__state;
uint64_t simrt__max_allocs = 1000000;

/* Sampling periods: [0] accesses that hit (L1), [1] those that miss (contention, cold). */
static uint64_t periods[2] = { 1000, 50 };
static int64_t yield_every;
static char out_path[4096] = "perf.data";
static int spool_fd = -1;
static struct coh_costs costs;
/*
 * One slot per 128-byte pair of lines: the states of both 64-byte halves and of the pair as
 * one 128-byte line, all under the pair's tag.  A slot fills a cache line of its own, so the
 * table adds no false sharing of its own between threads working on different lines.
 */
struct pair_slot {
	_Atomic uint64_t half[2];
	_Atomic uint64_t pair;
	uint64_t pad[5];
};

static struct pair_slot *table;

static struct simrt_thread threads[SIMRT_MAX_THREADS];
static atomic_int slot_used[SIMRT_MAX_THREADS];
static atomic_uint slots_seen;		/* highest slot used + 1 */
static pthread_key_t thread_key;
static pthread_mutex_t cold_lock = PTHREAD_MUTEX_INITIALIZER;
static struct simrt_rmw rmw_all[RMW_GLOBAL_SLOTS];
static atomic_int finishing;

static __thread __attribute__((tls_model("initial-exec"))) struct simrt_thread *cur;
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

	if (p[-5] == 0xe8)			/* call rel32 */
		return ret - 5;
	if (p[-6] == 0xff && p[-5] == 0x15)	/* call *rel32(%rip) (-fno-plt) */
		return ret - 6;
	return ret - 1;
}

static int64_t next_period(struct simrt_thread *t, int miss)
{
	uint64_t period = periods[miss];

	/* xorshift64: jitter the period so that a loop's fixed access pattern does not alias. */
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	if (period <= 1)
		return 1;
	return (int64_t)(period / 2 + t->rng % period);
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

void simrt__emit(struct simrt_thread *t, enum simrt_event ev, uint64_t ip, uint64_t addr,
		 uint64_t data_src, uint64_t weight, uint64_t per)
{
	struct simrt_rec *r = &t->buf[t->nrec];

	*r = (struct simrt_rec){
		.kind = SIMRT_REC_SAMPLE, .event = ev, .core = t->core, .tid = t->tid,
		.ip = ip, .addr = addr, .time = simrt__now(), .data_src = data_src,
		.weight = weight, .period = per,
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

	pthread_mutex_lock(&cold_lock);
	if (t->registered) {
		thread_flush(t);
		rmw_merge(t->rmw, SIMRT_RMW_SLOTS);
		t->registered = false;
		atomic_store(&slot_used[t->slot], 0);
	}
	pthread_mutex_unlock(&cold_lock);
	cur = NULL;
	gone = 1;
}

struct simrt_thread *simrt__thread(void)
{
	struct simrt_thread *t = NULL;
	char comm[17] = "";

	if (cur)
		return cur;
	if (gone || inside || simrt__state != 1)
		return NULL;
	inside++;
	for (unsigned s = 0; s < SIMRT_MAX_THREADS; s++) {
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
	t->yield_left = yield_every;
	memset(t->rmw, 0, sizeof(t->rmw));
	for (int k = 0; k < SIMRT_NR_COUNTDOWNS; k++)
		t->left[k] = next_period(t, k & 1);
	t->registered = true;
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	t->buf[0] = (struct simrt_rec){ .kind = SIMRT_REC_THREAD, .core = t->core, .tid = t->tid,
					.time = simrt__now() };
	memcpy(&t->buf[0].ip, comm, 16);
	t->nrec = 1;
	pthread_setspecific(thread_key, t);
	cur = t;
	inside--;
	return t;
}

/*
 * Advance one state word of a slot by one access; returns the state before it.  The update is a
 * plain store, not a compare-and-swap: two threads changing one line at the same instant
 * leave one of their two valid states (last writer wins), which costs the model one
 * transition now and then but keeps a contended line from costing a locked instruction per
 * access on top of the program's own traffic (measured: 4x faster on workload (a)).
 */
static inline coh_state_t word_step(_Atomic uint64_t *p, struct coh_slot s,
				    const struct simrt_thread *t, enum coh_op op)
{
	coh_state_t old = coherence__lookup(atomic_load_explicit(p, memory_order_relaxed), s);

	if (unlikely(!coherence__silent(old, t->me, op)))
		atomic_store_explicit(p, coherence__step(old, t->core, op, &costs, NULL),
				      memory_order_relaxed);
	return old;
}

/* Advance the 64-byte line and the 128-byte pair holding @addr; their states before. */
static inline void table_step(uint64_t addr, const struct simrt_thread *t, enum coh_op op,
			      coh_state_t *old64, coh_state_t *old128)
{
	struct coh_slot s = coherence__slot(addr, 7, LOG2_SLOTS);
	struct pair_slot *slot = &table[s.index];

	*old64 = word_step(&slot->half[(addr >> 6) & 1], s, t, op);
	*old128 = word_step(&slot->pair, s, t, op);
}

/*
 * Countdowns: one per (load, store) x (hit, miss), so that the rare accesses that matter
 * (HITMs, invalidating stores) are sampled more densely than L1 hits, as a PMU's load-latency
 * threshold does; each sample carries its period, so weighting by period stays unbiased.
 */
static inline bool countdown(struct simrt_thread *t, int k)
{
	if (likely(--t->left[k] > 0))
		return false;
	t->left[k] = next_period(t, k & 1);
	return true;
}

static void sample_load(struct simrt_thread *t, enum coh_op op, uint64_t addr, uint64_t ret,
			const struct coh_outcome *o, int miss)
{
	simrt__emit(t, SIMRT_EV_LOAD, simrt__ip(ret), addr,
		    coherence__load_data_src(o->load_src, op == COH_RMW), o->load_cycles,
		    periods[miss]);
}

static void sample_store(struct simrt_thread *t, enum coh_op op, uint64_t addr, uint64_t ret,
			 const struct coh_outcome *o, int miss)
{
	simrt__emit(t, SIMRT_EV_STORE, simrt__ip(ret), addr,
		    coherence__store_data_src(o->store_hit, op == COH_RMW), o->store_cycles,
		    periods[miss]);
}

/* An access only the 128-byte model finds contended: data_src as the 128-byte model sees it,
 * with the op bits set to PERF_MEM_OP_NA so that perf c2c does not count it as an access. */
static void sample_pair(struct simrt_thread *t, enum coh_op op, uint64_t addr, uint64_t ret,
			const struct coh_outcome *o)
{
	uint64_t ds = op == COH_STORE ? coherence__store_data_src(false, false)
				      : coherence__load_data_src(o->load_src, op == COH_RMW);

	simrt__emit(t, SIMRT_EV_PAIR_HITM, simrt__ip(ret), addr, (ds & ~0x1fULL) | 1,
		    op == COH_STORE ? o->store_cycles : o->load_cycles, periods[1]);
}

/*
 * The 128-byte model says an access that hit its 64-byte line is contended: believe it only
 * when the other half of the pair is held by another core (Modified, for a load), since the
 * pair's and the halves' words are updated separately and can briefly disagree.
 */
static bool pair_contended(const struct simrt_thread *t, uint64_t addr, enum coh_op op)
{
	struct coh_slot s = coherence__slot(addr, 7, LOG2_SLOTS);
	coh_state_t other = coherence__lookup(
		atomic_load_explicit(&table[s.index].half[((addr >> 6) & 1) ^ 1],
				     memory_order_relaxed), s);

	if (op == COH_LOAD)
		return coherence__owner(other) >= 0 && !(other & t->me);
	return (coherence__sharers(other) & ~t->me) != 0;
}

void simrt__access(uint64_t addr, uint64_t size, enum coh_op op, uint64_t ret)
{
	struct simrt_thread *t = cur;
	coh_state_t s64, s128;
	struct coh_outcome o;

	if (unlikely(!t)) {
		t = simrt__thread();
		if (!t)
			return;
	}
	if (unlikely(simrt__state != 1))
		return;
	if (unlikely(yield_every) && --t->yield_left <= 0) {
		/* Threads sharing a CPU interleave only at yields: see LINEUP_SIM_YIELD. */
		/* Jittered, so that the yield does not always fall before the same access of a loop. */
		t->yield_left = yield_every / 2 + t->rng % (uint64_t)yield_every;
		sched_yield();
	}
	table_step(addr, t, op, &s64, &s128);
	if (unlikely(((addr ^ (addr + size - 1)) >> 6) != 0)) {
		/* An unaligned access that straddles two lines touches both. */
		coh_state_t x, x2;
		uint64_t last = addr + size - 1;
		struct coh_slot s = coherence__slot(last, 7, LOG2_SLOTS);

		if (((addr ^ last) >> 7) != 0)
			table_step(last, t, op, &x, &x2);
		else
			x = word_step(&table[s.index].half[1], s, t, op);
		(void)x;
	}
	if (likely(coherence__silent(s64, t->me, op))) {
		/* A hit that changed nothing: the outcome is known without the model. */
		if (op != COH_STORE && unlikely(countdown(t, CD_LOAD_HIT))) {
			coherence__step(s64, t->core, op, &costs, &o);
			sample_load(t, op, addr, ret, &o, 0);
		}
		if (op != COH_LOAD && unlikely(countdown(t, CD_STORE_HIT))) {
			coherence__step(s64, t->core, op, &costs, &o);
			sample_store(t, op, addr, ret, &o, 0);
		}
		if (unlikely(!coherence__silent(s128, t->me, op)) && pair_contended(t, addr, op) &&
		    countdown(t, CD_PAIR)) {
			coherence__step(s128, t->core, op, &costs, &o);
			sample_pair(t, op, addr, ret, &o);
		}
		return;
	}
	coherence__step(s64, t->core, op, &costs, &o);
	if (op != COH_STORE) {
		int miss = o.load_src != COH_SRC_L1;

		if (countdown(t, miss ? CD_LOAD_MISS : CD_LOAD_HIT))
			sample_load(t, op, addr, ret, &o, miss);
	}
	if (op != COH_LOAD) {
		int miss = !o.store_hit;

		if (countdown(t, miss ? CD_STORE_MISS : CD_STORE_HIT))
			sample_store(t, op, addr, ret, &o, miss);
	}
}

void simrt__range(uint64_t addr, uint64_t size, enum coh_op op, uint64_t ret)
{
	uint64_t end = addr + size;

	/* One modeled access per line the range touches. */
	while (addr < end) {
		uint64_t next = (addr | 63) + 1;
		uint64_t n = (next < end ? next : end) - addr;

		simrt__access(addr, n, op, ret);
		addr = next;
	}
}

void simrt__rmw_done(uint64_t addr, bool changed, uint64_t ret)
{
	struct simrt_thread *t = cur;

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
	pthread_mutex_lock(&cold_lock);
	rmw_merge(t->rmw, SIMRT_RMW_SLOTS);
	pthread_mutex_unlock(&cold_lock);
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
	pthread_mutex_lock(&cold_lock);
	for (unsigned s = 0; s < SIMRT_MAX_THREADS; s++) {
		if (!threads[s].registered)
			continue;
		thread_flush(&threads[s]);
		rmw_merge(threads[s].rmw, SIMRT_RMW_SLOTS);
	}
	for (unsigned i = 0; i < RMW_GLOBAL_SLOTS; i++)
		if (rmw_all[i].ip)
			rmw_all[n++] = rmw_all[i];
	pthread_mutex_unlock(&cold_lock);
	for (unsigned i = 0; i < n; i++)
		rmw_all[i].ip = simrt__ip(rmw_all[i].ip);
	o = (struct simrt_output){
		.path = out_path,
		.spool_fd = spool_fd,
		.period = periods[0],
		.rmw = rmw_all,
		.nr_rmw = n,
		.nr_cores = atomic_load(&slots_seen) < COH_MAX_CORES ? atomic_load(&slots_seen) :
								     COH_MAX_CORES,
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

void simrt__init(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT, SIGTERM };
	size_t tab_bytes = sizeof(struct pair_slot) << LOG2_SLOTS;
	char spool[4200];
	const char *s;

	if (simrt__state)
		return;
	simrt__state = 2;
	if (getenv("LINEUP_SIM_ACTIVE"))
		return;		/* an instrumented child of a recorded program */
	setenv("LINEUP_SIM_ACTIVE", "1", 1);
	s = getenv("LINEUP_SIM_OUTPUT");
	if (s && *s)
		snprintf(out_path, sizeof(out_path), "%s", s);
	periods[0] = env_u64("LINEUP_SIM_PERIOD", periods[0]);
	periods[1] = env_u64("LINEUP_SIM_MISS_PERIOD", periods[0] >= 20 ? periods[0] / 20 : 1);
	for (int k = 0; k < 2; k++)
		if (!periods[k])
			periods[k] = 1;
	yield_every = (int64_t)env_u64("LINEUP_SIM_YIELD", 0);
	simrt__max_allocs = env_u64("LINEUP_SIM_MAX_ALLOCS", simrt__max_allocs);
	coherence__default_costs(&costs);

	table = mmap(NULL, tab_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	snprintf(spool, sizeof(spool), "%s.spool.%d", out_path, (int)getpid());
	spool_fd = open(spool, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	if (table == MAP_FAILED || spool_fd < 0) {
		dprintf(2, "lineup-sim: cannot set up the collector (%s): not recording\n",
			spool_fd < 0 ? spool : "line table");
		return;
	}
	unlink(spool);
	if (pthread_key_create(&thread_key, thread_retire))
		return;
	pthread_atfork(NULL, NULL, at_fork_child);
	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa = { .sa_handler = on_fatal, .sa_flags = SA_RESETHAND | SA_NODEFER };
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
