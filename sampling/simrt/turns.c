// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Turns (LINEUP_SIM_TURNS=N): the program's threads take turns every N modeled accesses, by
 * handing one baton around, so that the model sees their accesses interleaved whatever the
 * scheduler does.  Two threads contend in the model only while both make accesses; on a busy
 * machine they run on different CPUs at different times (each CPU shared with another job),
 * and sched_yield() (LINEUP_SIM_YIELD) then hands the CPU to the other job, not to the other
 * thread: the threads meet at time-slice ends only, and a false-sharing bug shows a handful of
 * HITMs or none.  With the baton, only its holder makes modeled accesses; at each turn's end it
 * hands the baton to the next thread in the rotation (round robin over the slots) and sleeps
 * until the baton comes back, which frees its CPU for the thread whose turn it is.
 *
 * The rotation: the threads that registered (their first modeled access) and have not ended,
 * less those away.  A thread is away when it blocks holding no baton: the blocking calls
 * lineup interposes (a contended mutex, a rwlock) say so first (simrt__turn_away), and a
 * waiter finds the others, by their state in /proc/self/task/TID/stat, when the baton does
 * not come: a holder that sleeps (a join, a barrier, a condition variable, I/O) loses the
 * baton to the waiter; one that is runnable, only preempted, keeps it.  A thread is back in
 * the rotation at its next turn.  Between windows nothing is modeled: nobody waits, and the
 * threads run as the scheduler runs them.
 *
 * The baton is one 32-bit futex word: the holder's slot + 1 in the low bits (0: nobody), a
 * generation above them, so that a waiter sleeping on an old value is woken by any handoff.
 */
#include <config.h>

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampling/simrt/simrt.h"
#include "sampling/small_file.h"

#define TURN_SLOT_BITS 10
#define TURN_SLOT_MASK ((1u << TURN_SLOT_BITS) - 1)
/* A waiter looks at the holder's state this often while the baton does not come. */
#define TURN_SLICE_NS 500000ULL
/* ... and takes the baton after this long whatever the holder's state (a holder that spins
 * on something not modeled never reaches the end of its turn). */
#define TURN_CAP_NS 50000000ULL
/* A waiter spins on the word this long before it sleeps, where the process may use 2 CPUs or
 * more: a handoff between threads running on two CPUs is then a cache line's transfer, not a
 * futex wake-up's tens of microseconds (and, on a busy machine, the wait for a CPU): inside
 * the modeling windows, a few handoffs per window against hundreds. */
#define TURN_SPIN_NS 50000ULL
/* pauses between two readings of the clock while spinning */
#define TURN_SPIN_STEP 64
/* A holder with nobody to hand the baton to looks for runnable threads this often, and naps
 * this long to let one run. */
#define TURN_LOOK_NS 1000000ULL
#define TURN_NAP_NS 200000ULL

_Static_assert(SIMRT_MAX_THREADS < TURN_SLOT_MASK, "a slot + 1 fits the baton's low bits");

enum member { OUT, IN, AWAY };

bool simrt__turns;
static _Atomic uint32_t baton;
static _Atomic int sleepers; /* waiters in futex_wait: a handoff wakes them, spinners see it */
static _Atomic uint8_t member[SIMRT_MAX_THREADS];
static _Atomic uint8_t waiting[SIMRT_MAX_THREADS];
static _Atomic uint32_t tids[SIMRT_MAX_THREADS];

static unsigned holder(uint32_t w)
{
	return w & TURN_SLOT_MASK;
}

static uint32_t next_word(uint32_t w, unsigned who)
{
	return ((w & ~TURN_SLOT_MASK) + (1u << TURN_SLOT_BITS)) | who;
}

static void futex_wait(_Atomic uint32_t *word, uint32_t val, uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void futex_wake_all(_Atomic uint32_t *word)
{
	if (atomic_load(&sleepers))
		syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Whether thread @tid is runnable (running or preempted), from its state in /proc; a thread
 * that cannot be read is not. */
static bool runnable(uint32_t tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/self/task/%u/stat", tid);
	if (small_file__read(path, buf, sizeof(buf)))
		return false;
	p = strrchr(buf, ')'); /* after the comm, which may hold spaces and parentheses */
	return p && p[1] == ' ' && p[2] == 'R';
}

/* The next thread after @slot, round robin, in the rotation or waiting; -1: none. */
static int next_in_turn(unsigned slot)
{
	for (unsigned k = 1; k < SIMRT_MAX_THREADS; k++) {
		unsigned s = (slot + k) % SIMRT_MAX_THREADS;

		if (atomic_load_explicit(&waiting[s], memory_order_relaxed) ||
		    atomic_load_explicit(&member[s], memory_order_relaxed) == IN)
			return (int)s;
	}
	return -1;
}

/* Hand the baton, held by @slot as @w, to the next thread, or free it (@release) when there
 * is none; false: nobody to hand it to, kept. */
static bool hand_on(unsigned slot, uint32_t w, bool release)
{
	int next = next_in_turn(slot);

	if (next < 0 && !release)
		return false;
	/* Only the holder changes a held baton, except a waiter taking it: then the exchange
	 * fails and the baton is that waiter's. */
	if (atomic_compare_exchange_strong(&baton, &w, next_word(w, next < 0 ? 0 : next + 1)))
		futex_wake_all(&baton);
	return true;
}

/* @t waits until the baton is its own: handed to it, free, or taken from a holder that sleeps
 * (or has had it for TURN_CAP_NS); or until the window closes. */
static void wait_turn(struct simrt_thread *t)
{
	unsigned me = t->slot + 1;
	uint64_t start = simrt__now(), now, slice_end = start + TURN_SLICE_NS;
	uint64_t spin_end = simrt__nr_cpus >= 2 ? start + TURN_SPIN_NS : start;

	atomic_store(&waiting[t->slot], 1);
	for (unsigned spin = 1;; spin++) {
		uint32_t w = atomic_load(&baton);
		unsigned h = holder(w);

		if (h == me)
			break;
		if ((!h || simrt__phase_now() != SIMRT_PH_MODEL) &&
		    atomic_compare_exchange_strong(&baton, &w, next_word(w, me)))
			break;
		if (spin % TURN_SPIN_STEP) {
			__builtin_ia32_pause();
			continue;
		}
		now = simrt__now();
		if (now < spin_end)
			continue;
		if (now >= slice_end) {
			/* The holder has not handed it on for a slice: does it sleep? */
			if (now - start >= TURN_CAP_NS ||
			    !runnable(atomic_load_explicit(&tids[h - 1], memory_order_relaxed))) {
				if (atomic_compare_exchange_strong(&baton, &w, next_word(w, me))) {
					uint8_t in = IN;

					atomic_compare_exchange_strong(&member[h - 1], &in, AWAY);
					break;
				}
				continue;
			}
			slice_end = now + TURN_SLICE_NS;
		}
		atomic_fetch_add(&sleepers, 1);
		futex_wait(&baton, w, slice_end - now);
		atomic_fetch_sub(&sleepers, 1);
	}
	atomic_store(&waiting[t->slot], 0);
}

/*
 * Whether a thread of the process other than @self is runnable: one preempted before its
 * first modeled access (not registered yet: the threads of a workload leave its start barrier
 * together, and one may not run again before the other is done), or one away whose block
 * has ended.  Read from /proc/self/task with getdents64 into the stack: no allocation.
 */
static bool others_runnable(uint32_t self)
{
	char buf[4096];
	bool found = false;
	long n;
	int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while (!found && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && !found;) {
			const struct linux_dirent64 {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (const void *)(buf + off);
			unsigned long tid = strtoul(d->name, NULL, 10);

			found = tid && tid != self && runnable((uint32_t)tid);
			off += d->reclen;
		}
	}
	close(fd);
	return found;
}

void simrt__turn(struct simrt_thread *t)
{
	static _Atomic uint64_t next_look;
	uint32_t w;
	uint64_t now;

	if (atomic_load_explicit(&member[t->slot], memory_order_relaxed) != IN)
		simrt__turn_join(t);
	w = atomic_load(&baton);
	if (holder(w) != t->slot + 1 || hand_on(t->slot, w, false)) {
		wait_turn(t);
		return;
	}
	/* Nobody else in the rotation.  Now and then, look for a thread that could be: one that
	 * is runnable gets the baton free and the CPU for a nap's length. */
	now = simrt__now();
	if (now < atomic_load_explicit(&next_look, memory_order_relaxed))
		return;
	atomic_store_explicit(&next_look, now + TURN_LOOK_NS, memory_order_relaxed);
	if (!others_runnable(t->tid))
		return;
	hand_on(t->slot, w, true);
	futex_wait(&baton, next_word(w, 0), TURN_NAP_NS);
	wait_turn(t);
}

void simrt__turn_join(struct simrt_thread *t)
{
	if (!simrt__turns)
		return;
	atomic_store(&tids[t->slot], t->tid);
	atomic_store(&member[t->slot], IN);
}

/* @t blocks (@end: ends): out of the rotation, the baton handed on or freed if it held it. */
static void leave(struct simrt_thread *t, enum member now)
{
	uint32_t w;

	if (!simrt__turns || !t)
		return;
	atomic_store(&member[t->slot], now);
	w = atomic_load(&baton);
	if (holder(w) == t->slot + 1)
		hand_on(t->slot, w, true);
}

void simrt__turn_away(struct simrt_thread *t)
{
	leave(t, AWAY);
}

void simrt__turn_end(struct simrt_thread *t)
{
	leave(t, OUT);
}
