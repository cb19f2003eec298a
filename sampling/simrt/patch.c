// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Call-site patching (x86-64 only): between windows, the calls that the compiler planted for
 * plain loads and stores are made no-ops in the program's own code, and made calls again when a
 * window opens, the way the kernel's static keys and ftrace switch their call sites.
 *
 * Why: on a tight loop the call itself is the cost, not what the hook does.  A bare `x++` loop
 * runs at ~0.3 ns an iteration (the store is forwarded to the next load); two calls to hooks that
 * only return make it 12-20x slower, a 5-byte no-op in their place 1.7x.  Counting anything
 * between windows costs a store per access, and one more store in that loop is already ~10x
 * (measured on workload (a), a counting trampoline instead of the call), so between windows the
 * patched sites count nothing: a thread's plain accesses there are estimated from its CPU time
 * and the rate of a short counting phase after each window (simrt.h, runtime.c).
 *
 * Which sites: each is learned from a hook's return address the first time the hook is called
 * between windows (phase SIMRT_PH_LEARN), patched once it has been called HOT_CALLS times
 * there, and only if the bytes before that address are a
 * call, direct (`call rel32`, 5 bytes, also through a PLT entry) or through the GOT (`call
 * *disp32(%rip)`, -fno-plt, 6 bytes), whose target is one of the plain-access hooks (the section
 * simrt_hooks, tsan.c).  Everything else (the memory intrinsics, atomics) keeps calling.
 *
 * How, with the program's threads running: the timer thread makes each site's pages writable
 * once (mprotect, the mapping is private: the pages become copies), then for a batch of sites
 * writes an int3 over each site's first byte, makes every thread of the process serialize
 * (membarrier's SYNC_CORE: a thread cannot go on executing bytes it fetched before), writes the
 * rest of the new instruction, serializes, writes its first byte, serializes.  A thread that
 * reaches a site while its first byte is the int3 traps; the SIGTRAP handler moves it past the
 * site (the access goes unmodeled, as it would a moment later or earlier).  Without membarrier's
 * SYNC_CORE (Linux < 4.16) or writable text, nothing is patched: the hooks count and return.
 *
 * While patching, the runtime owns SIGTRAP: sigaction, signal, sigprocmask, pthread_sigmask,
 * pthread_attr_setsigmask_np and the calls that wait under a mask of their own (sigsuspend,
 * ppoll, pselect, epoll_pwait) are interposed so that no thread ever blocks it (the kernel kills a thread that traps with it
 * blocked) and the program's own SIGTRAP disposition is kept aside and honoured for every trap
 * that is not at a site.  dlclose is interposed too: a library's sites are forgotten once its
 * code is unmapped.  fork waits for a rewrite to end (patch_lock); the child makes every site a
 * no-op.  If membarrier ever fails (a seccomp filter installed later), patching stops and the
 * sites are calls again.  A process started
 * under a debugger is not patched (gdb would stop at every int3).
 */
#define _GNU_SOURCE /* REG_RIP */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "sampling/simrt/simrt.h"
#include "sampling/small_file.h"

#if defined(__x86_64__) && !defined(SIMRT_C_HOOKS)

#include <linux/membarrier.h>

/* glibc's sigaction, under the name it also exports (sigaction itself is interposed here). */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* The plain-access hooks' section (tsan.c): ld defines its bounds at the program's link (so
 * not hidden: the runtime's hidden symbols are made local before that, see local.mk). */
extern const char __start_simrt_hooks[] __attribute__((visibility("default")));
extern const char __stop_simrt_hooks[] __attribute__((visibility("default")));

/* What the program links against (the interposed calls); everything else stays inside. */
#define API __attribute__((visibility("default")))

enum site_kind {
	SITE_BUSY,  /* being classified by the thread that found it */
	SITE_NO,    /* not a patchable call (or its code is gone): left alone */
	SITE_COLD,  /* patchable, but called fewer than HOT_CALLS times between windows yet */
	SITE_CALL,  /* a call (its original bytes), in order[] */
	SITE_NOP,   /* patched to a no-op */
};

/*
 * A site is patched once its hook has been called this many times between windows: a call
 * made a few times costs nothing worth a rewrite, and a large program has thousands of sites
 * that run once (lineup itself: 13976 sites, 2667 ever called between windows).
 */
#define HOT_CALLS 64

struct site {
	_Atomic uint64_t pc; /* the call instruction's address; 0: a free slot */
	_Atomic uint8_t kind;
	uint8_t len;	  /* 5 or 6 */
	uint8_t call[6];  /* the call's bytes */
	bool writable;	  /* its page(s) made writable (timer thread, under patch_lock) */
	_Atomic uint32_t calls; /* hook calls between windows while SITE_COLD */
};

#define SITE_SLOTS (1u << 16)

static struct site sites[SITE_SLOTS];
/* The patchable sites in the order found: slot + 1, published with release (0: not yet). */
static _Atomic uint32_t order[SITE_SLOTS];
static _Atomic uint32_t nr_order;
static _Atomic uint32_t nr_sites;
static struct site *batch[SITE_SLOTS]; /* the sites one patch_all() changes */
/* Held while sites are rewritten: by the timer thread, dlclose() and fork(). */
static pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;
static bool patch_dead; /* membarrier failed once: no more patching */
/* The program's SIGTRAP disposition: the runtime's handler stays installed while patching. */
static struct sigaction prog_trap;
bool simrt__patching;
uint64_t simrt__patched_sites; /* sites the last rewrite made no-ops (debug) */

static const uint8_t nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const uint8_t nop6[6] = {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00};

static unsigned hash(uint64_t pc)
{
	return (unsigned)((pc * 0x9e3779b97f4a7c15ULL) >> 48) & (SITE_SLOTS - 1);
}

/* The site at @pc, or NULL; lock-free (a signal handler calls it). */
static struct site *find(uint64_t pc)
{
	for (unsigned k = 0, h = hash(pc); k < SITE_SLOTS; k++) {
		struct site *s = &sites[(h + k) & (SITE_SLOTS - 1)];
		uint64_t v = atomic_load_explicit(&s->pc, memory_order_acquire);

		if (v == pc)
			return s;
		if (!v)
			return NULL;
	}
	return NULL;
}

unsigned simrt__site_len(uint64_t pc)
{
	struct site *s;

	if (!simrt__patching || !(s = find(pc)))
		return 0;
	return atomic_load_explicit(&s->kind, memory_order_acquire) >= SITE_CALL ? s->len : 0;
}

static bool is_hook(uint64_t target)
{
	return target >= (uint64_t)(uintptr_t)__start_simrt_hooks &&
	       target < (uint64_t)(uintptr_t)__stop_simrt_hooks;
}

/* The GOT slot's value of an indirect jump or call through it at @insn (its disp32 at +@at). */
static uint64_t got_value(const uint8_t *insn, unsigned at)
{
	int32_t d;

	memcpy(&d, insn + at, 4);
	return *(const uint64_t *)(insn + at + 4 + (int64_t)d);
}

/*
 * Where a call to @target really goes: a PLT entry (an instrumented shared library's call) is
 * followed to its GOT slot, which is bound by now (the hook was reached through it).  The
 * entries: `jmp *disp32(%rip)`, with `bnd` and/or `endbr64` before it (.plt.sec).
 */
static uint64_t through_plt(uint64_t target)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)target;

	if (is_hook(target))
		return target;
	if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
		p += 4; /* endbr64 */
	if (p[0] == 0xf2)
		p++; /* bnd */
	if (p[0] == 0xff && p[1] == 0x25)
		return got_value(p, 2);
	return target;
}

/* Whether the @len bytes at @pc are a call to a plain-access hook. */
static bool hook_call(const uint8_t *pc, unsigned len)
{
	int32_t d;

	if (len == 5) {
		memcpy(&d, pc + 1, 4);
		return pc[0] == 0xe8 && is_hook(through_plt((uint64_t)(uintptr_t)pc + 5 + (int64_t)d));
	}
	return pc[0] == 0xff && pc[1] == 0x15 && is_hook(got_value(pc, 2));
}

/* @s (SITE_COLD) is hot: handed to the timer thread, which patches it at the next window's end. */
static void publish(struct site *s)
{
	atomic_store_explicit(&s->kind, SITE_CALL, memory_order_release);
	atomic_store_explicit(&order[atomic_fetch_add(&nr_order, 1)], (uint32_t)(s - sites) + 1,
			      memory_order_release);
}

/*
 * A hook was called between windows from the call that returns to @ret: learn its site, and
 * count its calls until it is hot.  Known sites return at once.
 */
void simrt__learn(uint64_t ret)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)ret;
	unsigned len;
	uint64_t pc;

	if (ret & SIMRT_EXACT_IP)
		return; /* a _pc hook's instruction address, not a return address */
	len = simrt__call_len(ret);
	pc = ret - len;
	if (!len)
		return;
	for (unsigned k = 0, h = hash(pc); k < SITE_SLOTS; k++) {
		struct site *s = &sites[(h + k) & (SITE_SLOTS - 1)];
		uint64_t v = atomic_load_explicit(&s->pc, memory_order_acquire);

		if (v == pc) {
			if (atomic_load_explicit(&s->kind, memory_order_acquire) == SITE_COLD &&
			    atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed) + 1 ==
				HOT_CALLS)
				publish(s);
			return;
		}
		if (v)
			continue;
		/* A free slot: a table three-quarters full learns no more. */
		if (atomic_load_explicit(&nr_sites, memory_order_relaxed) >= SITE_SLOTS / 4 * 3)
			return;
		if (!atomic_compare_exchange_strong(&s->pc, &v, pc)) {
			if (v == pc)
				return;
			continue;
		}
		atomic_fetch_add(&nr_sites, 1);
		s->len = (uint8_t)len;
		memcpy(s->call, p - len, len);
		if (!hook_call(p - len, len)) {
			atomic_store_explicit(&s->kind, SITE_NO, memory_order_release);
			return;
		}
		atomic_store_explicit(&s->calls, 1, memory_order_relaxed);
		atomic_store_explicit(&s->kind, SITE_COLD, memory_order_release);
		return;
	}
}

/* Every thread of the process serializes (discards what it fetched); false if it cannot. */
static bool sync_cores(void)
{
	return !syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
}

/* The i-th site published in order[], or NULL where publishing has not got to yet. */
static struct site *nth_site(uint32_t i)
{
	uint32_t v = atomic_load_explicit(&order[i], memory_order_acquire);

	return v ? &sites[v - 1] : NULL;
}

/* The page(s) holding @s: their start, and their length (one page, or two it straddles). */
static void *site_pages(const struct site *s, size_t *len)
{
	uint64_t psz = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t pc = atomic_load_explicit(&s->pc, memory_order_relaxed);
	uint64_t first = pc & ~(psz - 1), last = (pc + s->len - 1) & ~(psz - 1);

	*len = (size_t)(last - first + psz);
	return (void *)(uintptr_t)first;
}

/* Make the page(s) of @s writable (and still executable); false when they cannot be. */
static bool writable(struct site *s)
{
	if (!s->writable) {
		size_t len;
		void *pg = site_pages(s, &len);

		s->writable = !mprotect(pg, len, PROT_READ | PROT_WRITE | PROT_EXEC);
	}
	return s->writable;
}

static void poke(const struct site *s, unsigned at, const uint8_t *bytes, unsigned n)
{
	volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)atomic_load_explicit(
	    &s->pc, memory_order_relaxed);

	for (unsigned i = 0; i < n; i++)
		p[at + i] = bytes[i];
}

/* The bytes a site gets: its call, or the no-op of its length. */
static const uint8_t *bytes_of(const struct site *s, bool call)
{
	return call ? s->call : s->len == 5 ? nop5 : nop6;
}

/*
 * Turn every patchable site into a call (@call) or a no-op (!@call); timer thread only.
 * Returns the number of sites changed.
 */
unsigned simrt__patch_all(bool call)
{
	static const uint8_t int3 = 0xcc;
	uint8_t from = call ? SITE_NOP : SITE_CALL, to = call ? SITE_CALL : SITE_NOP;
	uint32_t n = 0, nr;
	bool ok;

	if (!simrt__patching)
		return 0;
	simrt__mutex_lock(&patch_lock);
	if (patch_dead) {
		simrt__mutex_unlock(&patch_lock);
		return 0;
	}
	/* The batch: each published site read once (a learner may be appending meanwhile). */
	nr = atomic_load_explicit(&nr_order, memory_order_acquire);
	for (uint32_t i = 0; i < nr; i++) {
		struct site *s = nth_site(i);

		if (!s)
			break; /* counted, not written yet: next time */
		if (atomic_load_explicit(&s->kind, memory_order_acquire) != from)
			continue;
		if (!writable(s)) {
			atomic_store_explicit(&s->kind, SITE_NO, memory_order_release);
			continue;
		}
		batch[n++] = s;
	}
	if (!n) {
		simrt__mutex_unlock(&patch_lock);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		poke(batch[i], 0, &int3, 1);
	ok = sync_cores();
	for (uint32_t i = 0; i < n; i++)
		poke(batch[i], 1, bytes_of(batch[i], call) + 1, batch[i]->len - 1u);
	ok = sync_cores() && ok;
	for (uint32_t i = 0; i < n; i++)
		poke(batch[i], 0, bytes_of(batch[i], call), 1);
	ok = sync_cores() && ok;
	for (uint32_t i = 0; i < n; i++)
		atomic_store_explicit(&batch[i]->kind, to, memory_order_release);
	if (!call)
		simrt__patched_sites = n;
	if (!ok) {
		/*
		 * membarrier refused (a seccomp filter the program installed?): without it a
		 * thread could run stale bytes.  No more patching; the sites made calls again
		 * (best effort, unsynchronized: a call is what they were compiled as).
		 */
		patch_dead = true;
		for (uint32_t i = 0; i < n; i++) {
			poke(batch[i], 0, batch[i]->call, batch[i]->len);
			atomic_store_explicit(&batch[i]->kind, SITE_CALL, memory_order_release);
		}
	}
	simrt__mutex_unlock(&patch_lock);
	return n;
}

/*
 * Sites whose code is gone (a library unloaded) are forgotten; patch_lock held.  A page still
 * mapped keeps its sites (msync says ENOMEM for an unmapped range).
 */
static void drop_unmapped(void)
{
	uint32_t nr = atomic_load_explicit(&nr_order, memory_order_acquire);
	struct site *s;

	for (uint32_t i = 0; i < nr && (s = nth_site(i)); i++) {
		size_t len;
		void *pg = site_pages(s, &len);

		if (atomic_load_explicit(&s->kind, memory_order_relaxed) >= SITE_CALL &&
		    msync(pg, len, MS_ASYNC) && errno == ENOMEM)
			atomic_store_explicit(&s->kind, SITE_NO, memory_order_release);
	}
}

/* dlclose(), interposed: a library's sites are not patched once its code is unmapped. */
API int dlclose(void *handle)
{
	static int (*real)(void *);
	int rc;

	if (!real)
		real = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	if (!real)
		return -1;
	if (!simrt__patching)
		return real(handle);
	simrt__mutex_lock(&patch_lock);
	rc = real(handle);
	drop_unmapped();
	simrt__mutex_unlock(&patch_lock);
	return rc;
}

/* fork(): never in the middle of a rewrite (pthread_atfork, runtime.c). */
void simrt__patch_fork_prepare(void)
{
	if (simrt__patching)
		simrt__mutex_lock(&patch_lock);
}

void simrt__patch_fork_parent(void)
{
	if (simrt__patching)
		simrt__mutex_unlock(&patch_lock);
}

/* In a forked child (one thread, not recording): every site a no-op. */
void simrt__patch_child(void)
{
	uint32_t nr = atomic_load_explicit(&nr_order, memory_order_acquire);
	struct site *s;

	if (!simrt__patching)
		return;
	pthread_mutex_init(&patch_lock, NULL);
	if (patch_dead)
		return;
	for (uint32_t i = 0; i < nr && (s = nth_site(i)); i++) {
		uint8_t k = atomic_load_explicit(&s->kind, memory_order_relaxed);

		if ((k != SITE_CALL && k != SITE_NOP) || !writable(s))
			continue;
		poke(s, 0, bytes_of(s, false), s->len);
		atomic_store_explicit(&s->kind, SITE_NOP, memory_order_relaxed);
	}
}

/* SIGTRAP's default action (the process ends), from inside on_trap. */
static void trap_default(void)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};

	sigemptyset(&dfl.sa_mask);
	__sigaction(SIGTRAP, &dfl, NULL);
	raise(SIGTRAP);
}

/*
 * SIGTRAP.  An int3 (si_code SI_KERNEL) at a site being patched: go past the site.  Anything
 * else: what the program asked for (prog_trap; it may have ignored the signal).
 */
static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP] - 1;
	struct site *s = si->si_code == SI_KERNEL ? find(pc) : NULL;

	if (s && atomic_load_explicit(&s->kind, memory_order_acquire) >= SITE_CALL) {
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(pc + s->len);
		return;
	}
	if (prog_trap.sa_flags & SA_SIGINFO) {
		prog_trap.sa_sigaction(sig, si, ctx);
	} else if (prog_trap.sa_handler == SIG_IGN) {
		if (si->si_code != SI_KERNEL)
			return;
		trap_default(); /* an int3 of the program's own, ignored: the kernel kills */
	} else if (prog_trap.sa_handler != SIG_DFL) {
		prog_trap.sa_handler(sig);
	} else {
		trap_default();
	}
}

/*
 * The signal calls, interposed while patching: SIGTRAP is never blocked (the kernel kills a
 * thread that traps with it blocked) and its handler stays the runtime's; what the program
 * sets for SIGTRAP is kept in prog_trap and honoured by on_trap.
 */
static void unblock_trap(const sigset_t *set, sigset_t *copy)
{
	*copy = *set;
	sigdelset(copy, SIGTRAP);
}

API int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction a;

	if (!simrt__patching)
		return __sigaction(sig, act, old);
	if (sig == SIGTRAP) {
		if (old)
			*old = prog_trap;
		if (act)
			prog_trap = *act;
		return 0;
	}
	if (!act)
		return __sigaction(sig, act, old);
	a = *act;
	sigdelset(&a.sa_mask, SIGTRAP);
	return __sigaction(sig, &a, old);
}

API sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction a = {.sa_handler = handler, .sa_flags = SA_RESTART}, old;

	/* glibc's (BSD) semantics: the signal blocked in its handler, calls restarted. */
	sigemptyset(&a.sa_mask);
	if (sig > 0 && sig < NSIG)
		sigaddset(&a.sa_mask, sig);
	if (sigaction(sig, &a, &old))
		return SIG_ERR;
	return old.sa_handler;
}

API int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	static int (*real)(int, const sigset_t *, sigset_t *);
	sigset_t copy;

	if (!real)
		real = (int (*)(int, const sigset_t *, sigset_t *))dlsym(RTLD_NEXT,
									"pthread_sigmask");
	if (!real)
		return ENOSYS;
	if (simrt__patching && set && how != SIG_UNBLOCK) {
		unblock_trap(set, &copy);
		set = &copy;
	}
	return real(how, set, old);
}

/* A thread created with a signal mask of its own (glibc 2.32+): SIGTRAP left out of it too. */
API int pthread_attr_setsigmask_np(pthread_attr_t *attr, const sigset_t *set)
{
	static int (*real)(pthread_attr_t *, const sigset_t *);
	sigset_t copy;

	if (!real)
		real = (int (*)(pthread_attr_t *, const sigset_t *))dlsym(
		    RTLD_NEXT, "pthread_attr_setsigmask_np");
	if (!real)
		return ENOSYS;
	if (simrt__patching && set) {
		unblock_trap(set, &copy);
		set = &copy;
	}
	return real(attr, set);
}

/*
 * The calls that wait with a signal mask of their own (a handler may run under it): SIGTRAP
 * left out of it.  @name's real function through dlsym, the mask argument copied.
 */
#define REAL(name, ...)                                                                            \
	static int (*real)(__VA_ARGS__);                                                            \
	if (!real)                                                                                 \
		real = (int (*)(__VA_ARGS__))dlsym(RTLD_NEXT, name);                              \
	if (!real) {                                                                               \
		errno = ENOSYS;                                                                    \
		return -1;                                                                         \
	}
#define TRAP_FREE(mask)                                                                            \
	sigset_t copy_;                                                                            \
	if (simrt__patching && (mask)) {                                                           \
		unblock_trap((mask), &copy_);                                                      \
		(mask) = &copy_;                                                                   \
	}

API int sigsuspend(const sigset_t *set)
{
	const sigset_t *mask = set; /* (set is declared nonnull: not compared itself) */

	REAL("sigsuspend", const sigset_t *)
	TRAP_FREE(mask)
	return real(mask);
}

API int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	REAL("ppoll", struct pollfd *, nfds_t, const struct timespec *, const sigset_t *)
	TRAP_FREE(mask)
	return real(fds, n, ts, mask);
}

API int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *ts,
		const sigset_t *mask)
{
	REAL("pselect", int, fd_set *, fd_set *, fd_set *, const struct timespec *,
	     const sigset_t *)
	TRAP_FREE(mask)
	return real(n, r, w, e, ts, mask);
}

API int epoll_pwait(int fd, struct epoll_event *ev, int max, int timeout, const sigset_t *mask)
{
	REAL("epoll_pwait", int, struct epoll_event *, int, int, const sigset_t *)
	TRAP_FREE(mask)
	return real(fd, ev, max, timeout, mask);
}

API int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int rc = pthread_sigmask(how, set, old);

	if (rc) {
		errno = rc;
		return -1;
	}
	return 0;
}

/* Whether a debugger traces the process (it would stop at every int3 the patching writes). */
static bool traced(void)
{
	char buf[4096];
	const char *p;

	if (small_file__read("/proc/self/status", buf, sizeof(buf)))
		return false;
	p = strstr(buf, "TracerPid:");
	return p && atoi(p + 10) != 0;
}

/* Set patching up (before the timer thread starts); false: the hooks stay calls. */
bool simrt__patch_init(void)
{
	/* SA_NODEFER: a handler of the program's that interrupts on_trap may meet a site too */
	struct sigaction sa = {.sa_sigaction = on_trap,
			       .sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER};
	long q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	sigset_t trap;

	if (traced())
		return false; /* under gdb: the hooks stay calls (LINEUP_SIM_PATCH=0, in effect) */
	if (q < 0 || !(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) ||
	    syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0))
		return false;
	sigemptyset(&sa.sa_mask);
	if (__sigaction(SIGTRAP, &sa, &prog_trap))
		return false;
	sigemptyset(&trap);
	sigaddset(&trap, SIGTRAP);
	pthread_sigmask(SIG_UNBLOCK, &trap, NULL);
	simrt__patching = true;
	return true;
}

#else /* not x86-64: no patching, the hooks count and return between windows */

bool simrt__patching;
uint64_t simrt__patched_sites;

void simrt__learn(uint64_t ret)
{
	(void)ret;
}

unsigned simrt__site_len(uint64_t pc)
{
	(void)pc;
	return 0;
}

unsigned simrt__patch_all(bool call)
{
	(void)call;
	return 0;
}

void simrt__patch_child(void)
{
}

void simrt__patch_fork_prepare(void)
{
}

void simrt__patch_fork_parent(void)
{
}

bool simrt__patch_init(void)
{
	return false;
}

#endif
