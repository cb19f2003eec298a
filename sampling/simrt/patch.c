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
 * between windows (phase SIMRT_PH_LEARN), and kept only if the bytes before that address are a
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
 * Not handled: a library unloaded (dlclose) after its sites were learned, and a program that
 * installs its own SIGTRAP handler after the runtime's (a trap at a site being patched would
 * reach it).
 */
#define _GNU_SOURCE /* REG_RIP */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "sampling/simrt/simrt.h"

#if defined(__x86_64__) && !defined(SIMRT_C_HOOKS)

#include <linux/membarrier.h>

/* The plain-access hooks' section (tsan.c): ld defines its bounds. */
extern const char __start_simrt_hooks[] __attribute__((visibility("hidden")));
extern const char __stop_simrt_hooks[] __attribute__((visibility("hidden")));

enum site_kind {
	SITE_BUSY,  /* being classified by the thread that found it */
	SITE_NO,    /* not a patchable call: left alone */
	SITE_CALL,  /* a call (its original bytes) */
	SITE_NOP,   /* patched to a no-op */
};

struct site {
	_Atomic uint64_t pc; /* the call instruction's address; 0: a free slot */
	_Atomic uint8_t kind;
	uint8_t len;	 /* 5 or 6 */
	uint8_t call[6]; /* the call's bytes */
};

#define SITE_SLOTS (1u << 16)
#define PAGE_SLOTS 4096

static struct site sites[SITE_SLOTS];
static uint32_t order[SITE_SLOTS]; /* slots of the patchable sites, in the order found */
static _Atomic uint32_t nr_order;
static _Atomic uint32_t nr_sites;
static uint64_t pages[PAGE_SLOTS]; /* pages made writable (timer thread only) */
static unsigned nr_pages;
static struct sigaction old_trap;
bool simrt__patching;
uint64_t simrt__patched_sites; /* sites made no-ops at least once (debug) */

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

/*
 * A hook was called between windows from the call that returns to @ret: learn its site (the
 * timer thread makes it a no-op at the next window's end).  Known sites return at once.
 */
void simrt__learn(uint64_t ret)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)ret;
	unsigned len = p[-5] == 0xe8 ? 5 : p[-6] == 0xff && p[-5] == 0x15 ? 6 : 0;
	uint64_t pc = ret - len;

	if (!len)
		return;
	for (unsigned k = 0, h = hash(pc); k < SITE_SLOTS; k++) {
		struct site *s = &sites[(h + k) & (SITE_SLOTS - 1)];
		uint64_t v = atomic_load_explicit(&s->pc, memory_order_acquire);

		if (v == pc)
			return;
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
		atomic_store_explicit(&s->kind, SITE_CALL, memory_order_release);
		order[atomic_fetch_add(&nr_order, 1)] = (uint32_t)(s - sites);
		return;
	}
}

static void sync_cores(void)
{
	syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
}

/* Make the page(s) of @s writable (and still executable); false when they cannot be. */
static bool writable(const struct site *s)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t pc = atomic_load_explicit(&s->pc, memory_order_relaxed);
	uint64_t first = pc & ~(uint64_t)(psz - 1), last = (pc + s->len - 1) & ~(uint64_t)(psz - 1);

	for (uint64_t pg = first; pg <= last; pg += (uint64_t)psz) {
		unsigned i;

		for (i = 0; i < nr_pages && pages[i] != pg; i++)
			;
		if (i < nr_pages)
			continue;
		if (nr_pages == PAGE_SLOTS ||
		    mprotect((void *)(uintptr_t)pg, (size_t)psz, PROT_READ | PROT_WRITE | PROT_EXEC))
			return false;
		pages[nr_pages++] = pg;
	}
	return true;
}

static void poke(uint64_t pc, unsigned at, const uint8_t *bytes, unsigned n)
{
	volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)pc;

	for (unsigned i = 0; i < n; i++)
		p[at + i] = bytes[i];
}

/*
 * Turn every patchable site into a call (@call) or a no-op (!@call); timer thread only.
 * Returns the number of sites changed.
 */
unsigned simrt__patch_all(bool call)
{
	static const uint8_t int3 = 0xcc;
	uint8_t from = call ? SITE_NOP : SITE_CALL, to = call ? SITE_CALL : SITE_NOP;
	uint32_t n = atomic_load_explicit(&nr_order, memory_order_acquire), changed = 0;

	if (!simrt__patching)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		struct site *s = &sites[order[i]];

		if (atomic_load_explicit(&s->kind, memory_order_acquire) != from)
			continue;
		if (!call && !writable(s)) {
			atomic_store_explicit(&s->kind, SITE_NO, memory_order_release);
			continue;
		}
		poke(atomic_load_explicit(&s->pc, memory_order_relaxed), 0, &int3, 1);
		changed++;
	}
	if (!changed)
		return 0;
	sync_cores();
	for (int step = 1; step <= 2; step++) {
		for (uint32_t i = 0; i < n; i++) {
			struct site *s = &sites[order[i]];
			const uint8_t *b = call ? s->call : s->len == 5 ? nop5 : nop6;

			if (atomic_load_explicit(&s->kind, memory_order_relaxed) != from)
				continue;
			if (step == 1) {
				poke(atomic_load_explicit(&s->pc, memory_order_relaxed), 1, b + 1,
				     s->len - 1u);
			} else {
				poke(atomic_load_explicit(&s->pc, memory_order_relaxed), 0, b, 1);
			}
		}
		sync_cores();
	}
	for (uint32_t i = 0; i < n; i++) {
		struct site *s = &sites[order[i]];

		if (atomic_load_explicit(&s->kind, memory_order_relaxed) == from)
			atomic_store_explicit(&s->kind, to, memory_order_release);
	}
	if (!call)
		simrt__patched_sites = n;
	return changed;
}

/*
 * In a forked child (one thread, not recording): every site a no-op, whatever state the fork
 * caught it in (an int3 half-way included).
 */
void simrt__patch_child(void)
{
	uint32_t n = atomic_load_explicit(&nr_order, memory_order_acquire);

	if (!simrt__patching)
		return;
	for (uint32_t i = 0; i < n; i++) {
		struct site *s = &sites[order[i]];
		uint8_t k = atomic_load_explicit(&s->kind, memory_order_relaxed);

		if (k != SITE_CALL && k != SITE_NOP)
			continue;
		/* The pages of a site never made a no-op may not be writable. */
		if (k == SITE_CALL && !writable(s))
			continue;
		poke(atomic_load_explicit(&s->pc, memory_order_relaxed), 0, s->len == 5 ? nop5 : nop6,
		     s->len);
		atomic_store_explicit(&s->kind, SITE_NOP, memory_order_relaxed);
	}
}

/* An int3 at a site being patched: go past the site.  Any other trap: as before the runtime. */
static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP] - 1;
	struct site *s = find(pc);

	if (s && atomic_load_explicit(&s->kind, memory_order_acquire) >= SITE_CALL) {
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(pc + s->len);
		return;
	}
	if (old_trap.sa_flags & SA_SIGINFO) {
		old_trap.sa_sigaction(sig, si, ctx);
	} else if (old_trap.sa_handler != SIG_DFL && old_trap.sa_handler != SIG_IGN) {
		old_trap.sa_handler(sig);
	} else {
		signal(SIGTRAP, SIG_DFL);
		raise(SIGTRAP);
	}
}

/* Set patching up (before the timer thread starts); false: the hooks stay calls. */
bool simrt__patch_init(void)
{
	struct sigaction sa = {.sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART};
	long q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (q < 0 || !(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) ||
	    syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0))
		return false;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, &old_trap))
		return false;
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

bool simrt__patch_init(void)
{
	return false;
}

#endif
