// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkperf - turn a small text scenario into a real perf.data, with lineup's perf.data writer.
 * Used by the tests (oracle tests against perf) and by bench/ (generator mode).
 *
 *   mkperf [-o FILE] [SCENARIO]		scenario from a file, or stdin
 *   mkperf --generate N [-o FILE] [--threads T] [--lines L] [--seed S] [--count-entries]
 *   mkperf --classes			list the data_src class names with their values
 *
 * The scenario language is documented in tests/tools/mkperf.md.  Errors name the scenario
 * line; exit 2 on bad input.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampling/perf_writer.h"

/* ---- perf_mem_data_src ------------------------------------------------------------- */

#define OP(x) ((uint64_t)(x) << 0)
#define LVL(x) ((uint64_t)(x) << 5)
#define SNOOP(x) ((uint64_t)(x) << 19)
#define LOCK(x) ((uint64_t)(x) << 24)
#define DTLB(x) ((uint64_t)(x) << 26)
#define LVLNUM(x) ((uint64_t)(x) << 33)
#define REMOTE(x) ((uint64_t)(x) << 37)
#define SNOOPX(x) ((uint64_t)(x) << 38)
#define BLK(x) ((uint64_t)(x) << 40)
#define HOPS(x) ((uint64_t)(x) << 43)

enum {
	OP_NA = 1, OP_LOAD = 2, OP_STORE = 4,
	LVL_NA = 0x1, LVL_HIT = 0x2, LVL_MISS = 0x4, LVL_L1 = 0x8, LVL_LFB = 0x10, LVL_L2 = 0x20,
	LVL_L3 = 0x40, LVL_LOC_RAM = 0x80, LVL_REM_RAM1 = 0x100, LVL_REM_RAM2 = 0x200,
	LVL_REM_CCE1 = 0x400, LVL_REM_CCE2 = 0x800, LVL_IO = 0x1000, LVL_UNC = 0x2000,
	SNOOP_NA = 1, SNOOP_NONE = 2, SNOOP_HIT = 4, SNOOP_MISS = 8, SNOOP_HITM = 16,
	LOCK_NA = 1, LOCK_LOCKED = 2,
	DTLB_NA = 1, DTLB_HIT = 2, DTLB_MISS = 4, DTLB_L1 = 8, DTLB_L2 = 16, DTLB_WK = 32,
	LN_L1 = 1, LN_L2 = 2, LN_L3 = 3, LN_ANY_CACHE = 0xb, LN_LFB = 0xc, LN_RAM = 0xd, LN_NA = 0xf,
	SNOOPX_FWD = 1, SNOOPX_PEER = 2,
	BLK_NA = 1, BLK_DATA = 2, BLK_ADDR = 4,
};

/* The defaults of fields a class leaves unsaid: TLB, lock and blocking "not available". */
#define NA_REST (DTLB(DTLB_NA) | LOCK(LOCK_NA) | BLK(BLK_NA))

struct ds_class {
	const char *name;
	uint64_t value;
	const char *what;	/* what perf c2c counts it as */
};

static const struct ds_class classes[] = {
	{ "L1", OP(OP_LOAD) | LVL(LVL_HIT | LVL_L1) | SNOOP(SNOOP_NONE) | LVLNUM(LN_L1),
	  "Load L1D hit" },
	{ "LFB", OP(OP_LOAD) | LVL(LVL_HIT | LVL_LFB) | SNOOP(SNOOP_NONE) | LVLNUM(LN_LFB),
	  "Load Fill Buffer Hit" },
	{ "L2", OP(OP_LOAD) | LVL(LVL_HIT | LVL_L2) | SNOOP(SNOOP_NONE) | LVLNUM(LN_L2),
	  "Load L2D hit" },
	{ "LLC", OP(OP_LOAD) | LVL(LVL_HIT | LVL_L3) | SNOOP(SNOOP_NONE) | LVLNUM(LN_L3),
	  "Load LLC hit" },
	{ "LCL_HITM", OP(OP_LOAD) | LVL(LVL_HIT | LVL_L3) | SNOOP(SNOOP_HITM) | LVLNUM(LN_L3),
	  "Load Local HITM" },
	{ "RMT_HITM", OP(OP_LOAD) | LVL(LVL_HIT | LVL_REM_CCE1) | SNOOP(SNOOP_HITM) |
	  LVLNUM(LN_ANY_CACHE) | HOPS(2), "Load Remote HITM" },
	{ "RMT_HIT", OP(OP_LOAD) | LVL(LVL_HIT | LVL_REM_CCE1) | SNOOP(SNOOP_HIT) |
	  LVLNUM(LN_ANY_CACHE) | HOPS(2), "Load Remote HIT" },
	{ "LCL_DRAM", OP(OP_LOAD) | LVL(LVL_HIT | LVL_LOC_RAM) | SNOOP(SNOOP_MISS) | LVLNUM(LN_RAM),
	  "Load Local DRAM, MESI Exclusive" },
	{ "LCL_DRAM_SHARED", OP(OP_LOAD) | LVL(LVL_HIT | LVL_LOC_RAM) | SNOOP(SNOOP_HIT) |
	  LVLNUM(LN_RAM), "Load Local DRAM, MESI Shared" },
	{ "RMT_DRAM", OP(OP_LOAD) | LVL(LVL_HIT | LVL_REM_RAM1) | SNOOP(SNOOP_MISS) | LVLNUM(LN_RAM) |
	  HOPS(2), "Load Remote DRAM, MESI Exclusive" },
	{ "RMT_DRAM_SHARED", OP(OP_LOAD) | LVL(LVL_HIT | LVL_REM_RAM1) | SNOOP(SNOOP_HIT) |
	  LVLNUM(LN_RAM) | HOPS(2), "Load Remote DRAM, MESI Shared" },
	{ "LCL_PEER", OP(OP_LOAD) | LVL(LVL_HIT | LVL_L2) | SNOOP(SNOOP_NA) | SNOOPX(SNOOPX_PEER) |
	  LVLNUM(LN_L2), "Load L2D hit + Load HIT Local Peer (Arm SPE style)" },
	{ "LCL_PEER_LLC", OP(OP_LOAD) | LVL(LVL_HIT | LVL_L3) | SNOOP(SNOOP_NA) |
	  SNOOPX(SNOOPX_PEER) | LVLNUM(LN_L3), "Load LLC hit + Load HIT Local Peer" },
	{ "RMT_PEER", OP(OP_LOAD) | LVL(LVL_HIT | LVL_REM_CCE1) | SNOOP(SNOOP_NA) |
	  SNOOPX(SNOOPX_PEER) | LVLNUM(LN_ANY_CACHE) | REMOTE(1) | HOPS(2),
	  "Load Remote HIT + Load HIT Remote Peer" },
	{ "LLC_MISS", OP(OP_LOAD) | LVL(LVL_MISS | LVL_L3) | SNOOP(SNOOP_NA) | LVLNUM(LN_L3),
	  "Loads - Miss" },
	{ "UNCACHED", OP(OP_LOAD) | LVL(LVL_HIT | LVL_UNC) | SNOOP(SNOOP_NONE), "Loads - uncacheable" },
	{ "IO", OP(OP_LOAD) | LVL(LVL_HIT | LVL_IO) | SNOOP(SNOOP_NONE), "Loads - IO" },
	{ "LOAD_NA", OP(OP_LOAD) | LVL(LVL_NA) | SNOOP(SNOOP_NA) | LVLNUM(LN_NA),
	  "Load with no level" },
	{ "ST_L1HIT", OP(OP_STORE) | LVL(LVL_HIT | LVL_L1) | SNOOP(SNOOP_NA) | LVLNUM(LN_L1),
	  "Store L1D Hit" },
	{ "ST_L1MISS", OP(OP_STORE) | LVL(LVL_MISS | LVL_L1) | SNOOP(SNOOP_NA) | LVLNUM(LN_L1),
	  "Store L1D Miss" },
	{ "ST_NA", OP(OP_STORE) | LVL(LVL_NA) | SNOOP(SNOOP_NA) | LVLNUM(LN_NA),
	  "Store No available memory level" },
	{ "ST_UNCACHED", OP(OP_STORE) | LVL(LVL_HIT | LVL_UNC) | SNOOP(SNOOP_NA),
	  "Store - uncacheable" },
	{ "NOPARSE", OP(OP_NA) | LVL(LVL_NA), "Unable to parse data source" },
};

/* Modifiers, appended with '+': they replace the field they name. */
static const struct {
	const char *name;
	uint64_t mask, value;
} modifiers[] = {
	{ "LOCKED", LOCK(3), LOCK(LOCK_LOCKED) },
	{ "BLK_DATA", BLK(7), BLK(BLK_DATA) },
	{ "BLK_ADDR", BLK(7), BLK(BLK_ADDR) },
	{ "TLB_HIT", DTLB(0x7f), DTLB(DTLB_HIT | DTLB_L1) },
	{ "TLB_MISS", DTLB(0x7f), DTLB(DTLB_MISS | DTLB_L2) },
	{ "TLB_WALK", DTLB(0x7f), DTLB(DTLB_MISS | DTLB_WK) },
	{ "REMOTE", REMOTE(1), REMOTE(1) },
	{ "NOHOPS", HOPS(7), 0 },
	{ "FWD", SNOOPX(3), SNOOPX(SNOOPX_FWD) },
};

static int parse_class(const char *s, uint64_t *out)
{
	char buf[256], *tok, *save = NULL;
	bool first = true;
	uint64_t v = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		bool found = false;

		if (first) {
			for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
				if (!strcasecmp(tok, classes[i].name)) {
					v = classes[i].value | NA_REST;
					found = true;
				}
			first = false;
		} else {
			for (size_t i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++)
				if (!strcasecmp(tok, modifiers[i].name)) {
					v = (v & ~modifiers[i].mask) | modifiers[i].value;
					found = true;
				}
		}
		if (!found)
			return -EINVAL;
	}
	*out = v;
	return first ? -EINVAL : 0;
}

/* ---- scenario state ---------------------------------------------------------------- */

struct elfsym {
	char *name;
	uint64_t value, size;
};

struct map {
	uint32_t pid, prot;
	uint64_t start, len, pgoff;
	uint64_t bias;		/* ELF maps: runtime address = vaddr + bias */
	int file;		/* index in files[], -1 for anon */
};

struct file {
	char *path;
	struct elfsym *syms;
	size_t nr_syms;
};

struct event {
	char *name;
	int evsel;
};

struct scenario {
	const char *src;	/* scenario file name, for messages */
	int line;
	struct perf_writer *w;
	bool opened;
	const char *out;
	/* header */
	unsigned int cpus, sockets, threads_per_core;
	unsigned int line_size;
	char *node_cpus[64];
	unsigned int nr_nodes;
	bool host;
	char *strs[FEAT_LAST];
	uint64_t mem_block;
	char **cmdline;
	int nr_cmdline;
	/* events */
	struct perf_writer_event pending[16];
	char *pending_names[16];
	unsigned int nr_pending;
	struct event events[16];
	unsigned int nr_events;
	/* maps and files */
	struct map *maps;
	size_t nr_maps;
	struct file *files;
	size_t nr_files;
	unsigned int c2c_ldlat;	/* c2c_events: the writer's perf c2c events */
	uint8_t *tracing;	/* tracing_data, handed to the writer at open */
	size_t tracing_size;
	/* tid -> pid, from comm and fork records */
	uint32_t tids[4096][2];
	unsigned int nr_tids;
	/* defaults carried from sample to sample */
	uint64_t time;
	uint32_t pid, tid, cpu;
	/* `percpu`: samples held in per-CPU buffers, written CPU by CPU at each round */
	bool percpu;
	struct sbuf {
		struct sample *v;
		size_t n, cap;
	} *pcpu;
	size_t nr_pcpu;
	/* `mix` ... `mix end`: sample lines collected, their copies written interleaved */
	bool mixing;
	struct kind {
		struct sample s;
		uint64_t repeat;
	} *kinds;
	size_t nr_kinds, cap_kinds;
};

static struct scenario *S;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	if (S && S->line)
		fprintf(stderr, "mkperf: %s:%d: ", S->src, S->line);
	else
		fprintf(stderr, "mkperf: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static char *xdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static uint64_t num(const char *s, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("%s: '%s' is not a number", what, s);
	return v;
}

/* ---- ELF files --------------------------------------------------------------------- */

static int file_load(const char *path)
{
	struct file *f;
	Elf *e;
	Elf_Scn *scn = NULL;
	int fd;

	for (size_t i = 0; i < S->nr_files; i++)
		if (!strcmp(S->files[i].path, path))
			return i;
	S->files = realloc(S->files, (S->nr_files + 1) * sizeof(*S->files));
	if (!S->files)
		die("out of memory");
	f = &S->files[S->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = xdup(path);
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		die("%s is not an ELF file", path);
	/* .symtab when there is one, else .dynsym */
	for (int pass = 0; pass < 2 && !f->nr_syms; pass++) {
		scn = NULL;
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			d = elf_getdata(scn, NULL);
			for (size_t k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
				GElf_Sym sym;
				const char *name;

				if (!gelf_getsym(d, k, &sym) || !sym.st_value)
					continue;
				name = elf_strptr(e, sh.sh_link, sym.st_name);
				if (!name || !*name)
					continue;
				f->syms = realloc(f->syms, (f->nr_syms + 1) * sizeof(*f->syms));
				if (!f->syms)
					die("out of memory");
				f->syms[f->nr_syms].name = xdup(name);
				f->syms[f->nr_syms].value = sym.st_value;
				f->syms[f->nr_syms].size = sym.st_size;
				f->nr_syms++;
			}
		}
	}
	elf_end(e);
	close(fd);
	return S->nr_files++;
}

static void add_map(uint32_t pid, uint32_t prot, uint64_t start, uint64_t len, uint64_t pgoff,
		    uint64_t bias, int file)
{
	S->maps = realloc(S->maps, (S->nr_maps + 1) * sizeof(*S->maps));
	if (!S->maps)
		die("out of memory");
	S->maps[S->nr_maps++] = (struct map){ pid, prot, start, len, pgoff, bias, file };
}

/* SYMBOL[+OFF] against the ELF maps of @pid, or a number. */
static uint64_t address(const char *s, uint32_t pid, const char *what)
{
	char name[256];
	const char *plus;
	uint64_t off = 0;

	if (isdigit((unsigned char)s[0]))
		return num(s, what);
	plus = strchr(s, '+');
	snprintf(name, sizeof(name), "%.*s", plus ? (int)(plus - s) : (int)strlen(s), s);
	if (plus)
		off = num(plus + 1, what);
	for (size_t i = 0; i < S->nr_maps; i++) {
		const struct map *m = &S->maps[i];

		if (m->file < 0 || m->pid != pid)
			continue;
		for (size_t k = 0; k < S->files[m->file].nr_syms; k++) {
			const struct elfsym *sym = &S->files[m->file].syms[k];

			if (!strcmp(sym->name, name))
				return sym->value + m->bias + off;
		}
	}
	die("%s: no symbol '%s' in the binaries mapped by pid %u", what, name, pid);
}

/* ---- header ------------------------------------------------------------------------ */

static void set_header(void)
{
	static bool done;
	struct perf_writer *w = S->w;
	static const char *const defaults[FEAT_LAST] = {
		[FEAT_HOSTNAME] = "mkperf",
		[FEAT_OSRELEASE] = "6.1.0-mkperf",
		[FEAT_VERSION] = "6.1",
		[FEAT_ARCH] = "x86_64",
		[FEAT_CPUDESC] = "mkperf virtual CPU",
		[FEAT_CPUID] = "GenuineIntel,6,85,4",
	};
	unsigned int cpus = S->cpus, tpc = S->threads_per_core, sockets = S->sockets;
	unsigned int cores = cpus / tpc, per_socket = cpus / sockets;
	char buf[64];

	if (done)
		return;	/* pipe mode set it at open */
	done = true;
	if (S->host) {
		perf_writer__fill_host(w, getenv("LINEUP_SYSFS"));
	} else {
		struct perf_writer_cpu_topology t = { 0 };
		char **csib = xalloc(sockets * sizeof(char *));
		char **tsib = xalloc(cores * sizeof(char *));
		uint32_t *core_id = xalloc(cpus * 4), *socket_id = xalloc(cpus * 4);
		uint32_t *die_id = xalloc(cpus * 4);

		for (int f = 0; f < FEAT_LAST; f++)
			if (defaults[f])
				perf_writer__set_string(w, f, defaults[f]);
		perf_writer__set_nrcpus(w, cpus, cpus);
		perf_writer__set_total_mem(w, 16ULL << 20);
		/* CPUs numbered socket-major; the threads of one core are consecutive. */
		for (unsigned int s = 0; s < sockets; s++) {
			snprintf(buf, sizeof(buf), "%u-%u", s * per_socket, (s + 1) * per_socket - 1);
			csib[s] = xdup(buf);
		}
		for (unsigned int c = 0; c < cores; c++) {
			if (tpc == 1)
				snprintf(buf, sizeof(buf), "%u", c);
			else
				snprintf(buf, sizeof(buf), "%u-%u", c * tpc, c * tpc + tpc - 1);
			tsib[c] = xdup(buf);
		}
		for (unsigned int c = 0; c < cpus; c++) {
			core_id[c] = (c % per_socket) / tpc;
			socket_id[c] = c / per_socket;
			die_id[c] = 0;
		}
		t.nr_core_sibs = sockets;
		t.core_sibs = (const char *const *)csib;
		t.nr_thread_sibs = cores;
		t.thread_sibs = (const char *const *)tsib;
		t.nr_die_sibs = sockets;
		t.die_sibs = (const char *const *)csib;
		t.nr_cpus = cpus;
		t.core_id = core_id;
		t.socket_id = socket_id;
		t.die_id = die_id;
		perf_writer__set_cpu_topology(w, &t);
		for (unsigned int s = 0; s < sockets; s++)
			free(csib[s]);
		for (unsigned int c = 0; c < cores; c++)
			free(tsib[c]);
		free(csib);
		free(tsib);
		free(core_id);
		free(socket_id);
		free(die_id);

		/* NUMA: the declared nodes, else one node per socket. */
		if (!S->nr_nodes) {
			for (unsigned int s = 0; s < sockets; s++) {
				snprintf(buf, sizeof(buf), "%u-%u", s * per_socket,
					 (s + 1) * per_socket - 1);
				S->node_cpus[S->nr_nodes++] = xdup(buf);
			}
		}
		for (unsigned int n = 0; n < S->nr_nodes; n++)
			perf_writer__add_numa_node(w, n, 8ULL << 20, 4ULL << 20, S->node_cpus[n]);

		/* Memory: 2 GiB per node, 16 blocks of 128 MiB, node n at [2n GiB, 2n+2 GiB). */
		perf_writer__set_mem_block_size(w, S->mem_block);
		for (unsigned int n = 0; n < S->nr_nodes; n++) {
			uint64_t set[64] = { 0 };
			unsigned int per = (2ULL << 30) / S->mem_block;

			if ((n + 1) * per > 64 * 64)
				die("too many memory blocks: raise memblock");
			for (unsigned int b = n * per; b < (n + 1) * per; b++)
				set[b / 64] |= 1ULL << (b % 64);
			perf_writer__add_mem_node(w, n, set, (n + 1) * per);
		}

		/* Caches: private L1d/L1i/L2 per core, L3 per socket, all with the line size. */
		snprintf(buf, sizeof(buf), "%u-%u", 0, per_socket - 1);
		perf_writer__add_cache(w, 1, S->line_size, 64, 12, "Data", "48K",
				       tpc > 1 ? "0-1" : "0");
		perf_writer__add_cache(w, 1, S->line_size, 64, 8, "Instruction", "32K",
				       tpc > 1 ? "0-1" : "0");
		perf_writer__add_cache(w, 2, S->line_size, 2048, 16, "Unified", "2048K",
				       tpc > 1 ? "0-1" : "0");
		perf_writer__add_cache(w, 3, S->line_size, 32768, 16, "Unified", "32M", buf);
	}
	for (int f = 0; f < FEAT_LAST; f++)
		if (S->strs[f])
			perf_writer__set_string(w, f, S->strs[f]);
	if (S->cmdline)
		perf_writer__set_cmdline(w, S->nr_cmdline, (const char *const *)S->cmdline);
}

/* ---- events ------------------------------------------------------------------------ */

static const struct {
	const char *name;
	uint64_t bit;
} sample_bits[] = {
	{ "IP", SF_IP }, { "TID", SF_TID }, { "TIME", SF_TIME }, { "ADDR", SF_ADDR },
	{ "READ", SF_READ }, { "CALLCHAIN", SF_CALLCHAIN }, { "ID", SF_ID }, { "CPU", SF_CPU },
	{ "PERIOD", SF_PERIOD }, { "STREAM_ID", SF_STREAM_ID }, { "RAW", SF_RAW },
	{ "BRANCH_STACK", SF_BRANCH_STACK }, { "REGS_USER", SF_REGS_USER },
	{ "STACK_USER", SF_STACK_USER }, { "WEIGHT", SF_WEIGHT }, { "DATA_SRC", SF_DATA_SRC },
	{ "IDENTIFIER", SF_IDENTIFIER }, { "TRANSACTION", SF_TRANSACTION },
	{ "REGS_INTR", SF_REGS_INTR }, { "PHYS_ADDR", SF_PHYS_ADDR }, { "AUX", SF_AUX },
	{ "CGROUP", SF_CGROUP }, { "DATA_PAGE_SIZE", SF_DATA_PAGE_SIZE },
	{ "CODE_PAGE_SIZE", SF_CODE_PAGE_SIZE }, { "WEIGHT_STRUCT", SF_WEIGHT_STRUCT },
};

#define C2C_SAMPLE_TYPE (SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU | SF_PERIOD | \
			 SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR)

static uint64_t parse_bits(const char *s)
{
	char buf[512], *tok, *save = NULL;
	uint64_t v = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	if (isdigit((unsigned char)buf[0]))
		return num(buf, "sample_type");
	for (tok = strtok_r(buf, ",|", &save); tok; tok = strtok_r(NULL, ",|", &save)) {
		bool found = false;

		if (!strcasecmp(tok, "C2C")) {
			v |= C2C_SAMPLE_TYPE;
			continue;
		}
		for (size_t i = 0; i < sizeof(sample_bits) / sizeof(sample_bits[0]); i++)
			if (!strcasecmp(tok, sample_bits[i].name)) {
				v |= sample_bits[i].bit;
				found = true;
			}
		if (!found)
			die("unknown sample_type field '%s'", tok);
	}
	return v;
}

static uint64_t parse_read_format(const char *s)
{
	char buf[256], *tok, *save = NULL;
	uint64_t v = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",|", &save); tok; tok = strtok_r(NULL, ",|", &save)) {
		if (!strcasecmp(tok, "TOTAL_TIME_ENABLED"))
			v |= PW_FORMAT_TOTAL_TIME_ENABLED;
		else if (!strcasecmp(tok, "TOTAL_TIME_RUNNING"))
			v |= PW_FORMAT_TOTAL_TIME_RUNNING;
		else if (!strcasecmp(tok, "ID"))
			v |= PW_FORMAT_ID;
		else if (!strcasecmp(tok, "GROUP"))
			v |= PW_FORMAT_GROUP;
		else if (!strcasecmp(tok, "LOST"))
			v |= PW_FORMAT_LOST;
		else
			die("unknown read_format '%s'", tok);
	}
	return v;
}

static void cmd_event(char **tok, int n)
{
	struct perf_writer_event *e;

	if (S->opened)
		die("events must come before the first record");
	if (n < 2)
		die("usage: event NAME [key=value...]");
	if (S->nr_pending == 16)
		die("too many events");
	e = &S->pending[S->nr_pending];
	memset(e, 0, sizeof(*e));
	e->sample_type = C2C_SAMPLE_TYPE;
	e->sample_period = 1;
	e->sample_id_all = e->mmap = e->mmap2 = e->comm = e->task = e->mmap_data = true;
	e->comm_exec = true;
	if (!strcmp(tok[1], "load") || !strcmp(tok[1], "mem-loads")) {
		e->type = PW_TYPE_RAW;
		e->config = 0x1cd;	/* Intel MEM_TRANS_RETIRED.LOAD_LATENCY */
		e->config1 = 30;
		e->precise_ip = 2;
		S->pending_names[S->nr_pending] = xdup("cpu/mem-loads,ldlat=30/P");
	} else if (!strcmp(tok[1], "store") || !strcmp(tok[1], "mem-stores")) {
		e->type = PW_TYPE_RAW;
		e->config = 0x82d0;	/* Intel MEM_INST_RETIRED.ALL_STORES */
		e->precise_ip = 2;
		S->pending_names[S->nr_pending] = xdup("cpu/mem-stores/P");
	} else {
		e->type = PW_TYPE_SOFTWARE;
		S->pending_names[S->nr_pending] = xdup(tok[1]);
	}
	for (int i = 2; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		const char *k = tok[i], *v;

		if (!eq)
			die("'%s': key=value expected", tok[i]);
		*eq = 0;
		v = eq + 1;
		if (!strcmp(k, "name")) {
			free(S->pending_names[S->nr_pending]);
			S->pending_names[S->nr_pending] = xdup(v);
		} else if (!strcmp(k, "type")) {
			e->type = num(v, k);
		} else if (!strcmp(k, "config")) {
			e->config = num(v, k);
		} else if (!strcmp(k, "config1") || !strcmp(k, "ldlat")) {
			e->config1 = num(v, k);
		} else if (!strcmp(k, "config2")) {
			e->config2 = num(v, k);
		} else if (!strcmp(k, "precise")) {
			e->precise_ip = num(v, k);
		} else if (!strcmp(k, "period")) {
			e->sample_period = num(v, k);
		} else if (!strcmp(k, "freq")) {
			e->freq = true;
			e->sample_period = num(v, k);
		} else if (!strcmp(k, "sample_type")) {
			if (v[0] == '+')
				e->sample_type |= parse_bits(v + 1);
			else if (v[0] == '-')
				e->sample_type &= ~parse_bits(v + 1);
			else
				e->sample_type = parse_bits(v);
		} else if (!strcmp(k, "read_format")) {
			e->read_format = parse_read_format(v);
		} else if (!strcmp(k, "branch_type")) {
			e->branch_sample_type = !strcmp(v, "HW_INDEX") ? PW_BRANCH_HW_INDEX |
					       1 /* USER */ : num(v, k);
		} else if (!strcmp(k, "regs_user")) {
			e->sample_regs_user = num(v, k);
		} else if (!strcmp(k, "regs_intr")) {
			e->sample_regs_intr = num(v, k);
		} else if (!strcmp(k, "stack_user")) {
			e->sample_stack_user = num(v, k);
		} else if (!strcmp(k, "sample_id_all")) {
			e->sample_id_all = num(v, k);
		} else if (!strcmp(k, "exclude_kernel")) {
			e->exclude_kernel = num(v, k);
		} else {
			die("unknown event key '%s'", k);
		}
	}
	S->nr_pending++;
}

static void open_output(void)
{
	if (S->opened)
		return;
	if (!S->nr_pending && !S->c2c_ldlat) {
		char *argv[] = { "event", "load" };

		cmd_event(argv, 2);
	}
	S->w = perf_writer__new();
	if (!S->w)
		die("out of memory");
	if (S->c2c_ldlat) {
		/* the writer's own perf c2c events */
		char name[64];
		int l, st;

		if (perf_writer__add_c2c_events(S->w, S->c2c_ldlat, 0, &l, &st))
			die("%s", perf_writer__strerror(S->w));
		snprintf(name, sizeof(name), "cpu/mem-loads,ldlat=%u/P", S->c2c_ldlat);
		memset(S->pending, 0, 2 * sizeof(S->pending[0]));
		S->pending_names[0] = xdup(name);
		S->pending_names[1] = xdup("cpu/mem-stores/P");
		S->nr_pending = 2;
		S->events[0] = (struct event){ S->pending_names[0], l };
		S->events[1] = (struct event){ S->pending_names[1], st };
		S->nr_events = 2;
	}
	for (unsigned int i = 0; i < S->nr_pending && !S->c2c_ldlat; i++) {
		int idx;

		S->pending[i].name = S->pending_names[i];
		idx = perf_writer__add_event(S->w, &S->pending[i]);
		if (idx < 0)
			die("%s", perf_writer__strerror(S->w));
		S->events[S->nr_events].name = S->pending_names[i];
		S->events[S->nr_events++].evsel = idx;
	}
	if (S->tracing)
		perf_writer__set_tracing_data(S->w, S->tracing, S->tracing_size);
	if (!strcmp(S->out, "-")) {
		/* pipe mode: the header goes first, with what the scenario said so far */
		set_header();
		if (perf_writer__open_pipe(S->w, STDOUT_FILENO))
			die("%s", perf_writer__strerror(S->w));
	} else if (perf_writer__open(S->w, S->out)) {
		die("%s", perf_writer__strerror(S->w));
	}
	S->opened = true;
}

static int find_event(const char *name)
{
	for (unsigned int i = 0; i < S->nr_events; i++)
		if (!strcmp(S->events[i].name, name))
			return S->events[i].evsel;
	if (!strcmp(name, "load") || !strcmp(name, "mem-loads")) {
		for (unsigned int i = 0; i < S->nr_events; i++)
			if (!strncmp(S->events[i].name, "cpu/mem-loads,", 14))
				return S->events[i].evsel;
	}
	if (!strcmp(name, "store") || !strcmp(name, "mem-stores"))
		return find_event("cpu/mem-stores/P");
	die("no event named '%s' (declare it with `event`)", name);
}

/* ---- records ----------------------------------------------------------------------- */

/* A comma-separated list of numbers into @out (at most @max); returns the count. */
static size_t num_list(const char *s, uint64_t *out, size_t max, const char *what)
{
	char buf[4096], *tok, *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",:", &save); tok; tok = strtok_r(NULL, ",:", &save)) {
		if (n == max)
			die("%s: more than %zu values", what, max);
		out[n++] = num(tok, what);
	}
	return n;
}

static size_t hex_bytes(const char *s, uint8_t *out, size_t max, const char *what)
{
	size_t n = 0;

	while (s[0] && s[1]) {
		unsigned int b;

		if (n == max || sscanf(s, "%2x", &b) != 1)
			die("%s: bad hex bytes", what);
		out[n++] = b;
		s += 2;
	}
	if (*s)
		die("%s: odd number of hex digits", what);
	return n;
}

struct kv {
	char *k, *v;
};

static int split_kv(char **tok, int n, int from, struct kv *kv, int max)
{
	int nr = 0;

	for (int i = from; i < n; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq)
			die("'%s': key=value expected", tok[i]);
		if (nr == max)
			die("too many keys");
		*eq = 0;
		kv[nr].k = tok[i];
		kv[nr++].v = eq + 1;
	}
	return nr;
}

/* The sample_id_all trailer for a side-band record: first event, the record's pid/tid/time. */
static void sid_for(struct sample *sid, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	memset(sid, 0, sizeof(*sid));
	sid->evsel = S->events[0].evsel;
	sid->id = perf_writer__event_id(S->w, sid->evsel);
	sid->pid = pid;
	sid->tid = tid;
	sid->time = time;
	sid->cpu = cpu;
}

static void note_tid(uint32_t pid, uint32_t tid)
{
	for (unsigned int i = 0; i < S->nr_tids; i++)
		if (S->tids[i][0] == tid) {
			S->tids[i][1] = pid;
			return;
		}
	if (S->nr_tids < 4096) {
		S->tids[S->nr_tids][0] = tid;
		S->tids[S->nr_tids++][1] = pid;
	}
	S->pid = pid;
	S->tid = tid;
}

static bool pid_of(uint32_t tid, uint32_t *pid)
{
	for (unsigned int i = 0; i < S->nr_tids; i++)
		if (S->tids[i][0] == tid) {
			*pid = S->tids[i][1];
			return true;
		}
	return false;
}

static void check(int rc)
{
	if (rc)
		die("%s", perf_writer__strerror(S->w));
}

static uint64_t opt_time(struct kv *kv, int nkv)
{
	for (int i = 0; i < nkv; i++)
		if (!strcmp(kv[i].k, "time"))
			return num(kv[i].v, "time");
	return S->time;
}

static void cmd_comm(char **tok, int n)
{
	struct kv kv[4];
	struct sample sid;
	struct rec_comm c = { 0 };
	int nkv;

	if (n < 4)
		die("usage: comm PID TID NAME [time=T] [exec=1]");
	open_output();
	c.pid = num(tok[1], "pid");
	c.tid = num(tok[2], "tid");
	c.comm = tok[3];
	nkv = split_kv(tok, n, 4, kv, 4);
	for (int i = 0; i < nkv; i++)
		if (!strcmp(kv[i].k, "exec"))
			c.exec = num(kv[i].v, "exec");
	sid_for(&sid, c.pid, c.tid, opt_time(kv, nkv), 0);
	check(perf_writer__comm(S->w, &c, &sid));
	note_tid(c.pid, c.tid);
}

static void cmd_task(char **tok, int n, uint32_t type)
{
	struct kv kv[4];
	struct sample sid;
	struct rec_task t = { 0 };
	int nkv;

	if (n < 5)
		die("usage: %s PID PPID TID PTID [time=T]", tok[0]);
	open_output();
	t.pid = num(tok[1], "pid");
	t.ppid = num(tok[2], "ppid");
	t.tid = num(tok[3], "tid");
	t.ptid = num(tok[4], "ptid");
	nkv = split_kv(tok, n, 5, kv, 4);
	t.time = opt_time(kv, nkv);
	sid_for(&sid, t.pid, t.tid, t.time, 0);
	check(perf_writer__task(S->w, type, &t, &sid));
	if (type == REC_FORK)
		note_tid(t.pid, t.tid);
}

/* mmap PID BASE FILE: one MMAP2 per PT_LOAD segment, as the kernel reports them. */
static void cmd_mmap(char **tok, int n)
{
	struct kv kv[8];
	uint32_t pid, tid;
	uint64_t base, bias, first_vaddr = UINT64_MAX;
	uint8_t bid[20];
	int nkv, bid_size, fidx, fd;
	bool old = false;
	size_t nph;
	Elf *e;

	if (n < 4)
		die("usage: mmap PID BASE FILE [tid=T] [time=T] [mmap1=1]");
	open_output();
	pid = num(tok[1], "pid");
	tid = pid;
	nkv = split_kv(tok, n, 4, kv, 8);
	for (int i = 0; i < nkv; i++) {
		if (!strcmp(kv[i].k, "tid"))
			tid = num(kv[i].v, "tid");
		else if (!strcmp(kv[i].k, "mmap1"))
			old = num(kv[i].v, "mmap1");
		else if (strcmp(kv[i].k, "time"))
			die("unknown mmap key '%s'", kv[i].k);
	}
	fidx = file_load(tok[3]);
	bid_size = perf_writer__read_build_id(tok[3], bid);
	if (bid_size < 0)
		die("%s: cannot read its build-id: %s", tok[3], strerror(-bid_size));
	fd = open(tok[3], O_RDONLY);
	e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &nph))
		die("%s: cannot read its program headers", tok[3]);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < first_vaddr)
			first_vaddr = ph.p_vaddr;
	}
	if (!strcmp(tok[2], "auto")) {
		GElf_Ehdr eh;

		gelf_getehdr(e, &eh);
		base = eh.e_type == ET_EXEC ? first_vaddr & ~0xfffULL : 0x555555554000ULL;
	} else {
		base = num(tok[2], "base");
	}
	bias = base - (first_vaddr & ~0xfffULL);
	for (size_t i = 0; i < nph; i++) {
		struct rec_mmap m = { 0 };
		struct sample sid;
		GElf_Phdr ph;
		uint64_t start, end;

		if (!gelf_getphdr(e, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		start = (ph.p_vaddr & ~0xfffULL) + bias;
		end = ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffULL) + bias;
		m.pid = pid;
		m.tid = tid;
		m.start = start;
		m.len = end - start;
		m.pgoff = ph.p_offset & ~0xfffULL;
		m.is_mmap2 = !old;
		m.prot = ((ph.p_flags & PF_R) ? 1 : 0) | ((ph.p_flags & PF_W) ? 2 : 0) |
			 ((ph.p_flags & PF_X) ? 4 : 0);
		m.flags = 2;	/* MAP_PRIVATE */
		m.filename = tok[3];
		if (bid_size > 0) {
			m.has_build_id = true;
			m.build_id_size = bid_size;
			memcpy(m.build_id, bid, bid_size);
		}
		sid_for(&sid, pid, tid, opt_time(kv, nkv), 0);
		check(perf_writer__mmap(S->w, CPUMODE_USER | ((ph.p_flags & PF_X) ? 0 : 1u << 13),
					&m, &sid));
		add_map(pid, m.prot, start, end - start, m.pgoff, bias, fidx);
	}
	elf_end(e);
	close(fd);
	if (bid_size > 0)
		check(perf_writer__add_build_id(S->w, pid, CPUMODE_USER, bid, bid_size, tok[3]));
}

/* anon PID START LEN [name=//anon]: a data mapping (heap, stack, shared memory). */
/*
 * `kernel START LEN` and `module START LEN PATH`: the kernel and module maps as perf record
 * synthesizes them (pid -1, cpumode kernel, "[kernel.kallsyms]_text" with pgoff = START, a
 * module with its .ko's path and pgoff 0).  Their symbols come from kallsyms, -k or the .ko.
 */
static void cmd_kmap(char **tok, int n)
{
	bool kernel = !strcmp(tok[0], "kernel");
	struct rec_mmap m = { 0 };
	struct sample sid;

	if (kernel ? n != 3 : n != 4)
		die("usage: kernel START LEN | module START LEN PATH");
	open_output();
	m.pid = (uint32_t)-1;
	m.tid = 0;
	m.start = num(tok[1], "start");
	m.len = num(tok[2], "len");
	m.pgoff = kernel ? m.start : 0;
	m.is_mmap2 = true;
	m.prot = 5;	/* r-x */
	m.filename = kernel ? "[kernel.kallsyms]_text" : tok[3];
	sid_for(&sid, (uint32_t)-1, 0, S->time, 0);
	check(perf_writer__mmap(S->w, CPUMODE_KERNEL, &m, &sid));
}

static void cmd_anon(char **tok, int n)
{
	struct kv kv[4];
	struct rec_mmap m = { 0 };
	struct sample sid;
	int nkv;

	if (n < 4)
		die("usage: anon PID START LEN [name=NAME] [tid=T] [time=T]");
	open_output();
	m.pid = m.tid = num(tok[1], "pid");
	m.start = num(tok[2], "start");
	m.len = num(tok[3], "len");
	m.is_mmap2 = true;
	m.prot = 3;
	m.flags = 0x22;	/* MAP_PRIVATE | MAP_ANONYMOUS */
	m.filename = "//anon";
	nkv = split_kv(tok, n, 4, kv, 4);
	for (int i = 0; i < nkv; i++) {
		if (!strcmp(kv[i].k, "name"))
			m.filename = kv[i].v;
		else if (!strcmp(kv[i].k, "tid"))
			m.tid = num(kv[i].v, "tid");
		else if (strcmp(kv[i].k, "time"))
			die("unknown anon key '%s'", kv[i].k);
	}
	sid_for(&sid, m.pid, m.tid, opt_time(kv, nkv), 0);
	check(perf_writer__mmap(S->w, CPUMODE_USER | (1u << 13), &m, &sid));
	add_map(m.pid, m.prot, m.start, m.len, 0, 0, -1);
}

/*
 * Samples that wait in a buffer (percpu, mix) are copied by value: their variable-length parts
 * would point into cmd_sample's buffers, which the next line overwrites.
 */
static void held_check(const struct sample *s)
{
	if (s->callchain || s->raw || s->branch_entries || s->regs_user || s->regs_intr ||
	    s->stack_user || s->read_values)
		die("percpu/mix: samples with callchain, raw, branch, regs, stack or read data are "
		    "not supported");
}

/*
 * perf record drains each CPU's ring buffer in turn, then writes a FINISHED_ROUND: within a
 * round the file holds CPU 0's samples in time order, then CPU 1's, and so on.  With `percpu`
 * the samples wait in per-CPU buffers until the next round (or the end of the scenario).
 */
static void emit_sample(const struct sample *s)
{
	struct sbuf *b;

	if (!S->percpu) {
		check(perf_writer__sample(S->w, s));
		return;
	}
	held_check(s);
	if (s->cpu >= 65536)
		die("percpu: cpu %u too large", s->cpu);
	if (s->cpu >= S->nr_pcpu) {
		size_t n = s->cpu + 1;

		S->pcpu = realloc(S->pcpu, n * sizeof(*S->pcpu));
		if (!S->pcpu)
			die("out of memory");
		memset(S->pcpu + S->nr_pcpu, 0, (n - S->nr_pcpu) * sizeof(*S->pcpu));
		S->nr_pcpu = n;
	}
	b = &S->pcpu[s->cpu];
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 1024;
		b->v = realloc(b->v, b->cap * sizeof(*b->v));
		if (!b->v)
			die("out of memory");
	}
	b->v[b->n++] = *s;
}

/* Write the per-CPU buffers, CPU by CPU (percpu). */
static void flush_percpu(void)
{
	for (size_t c = 0; c < S->nr_pcpu; c++) {
		struct sbuf *b = &S->pcpu[c];

		for (size_t i = 0; i < b->n; i++)
			check(perf_writer__sample(S->w, &b->v[i]));
		b->n = 0;
	}
}

static void cmd_sample(char **tok, int n)
{
	static uint64_t callchain[256], regs_u[64], regs_i[64], read_v[256], branches[3 * 64];
	static uint8_t raw[4096], stack[4096];
	struct kv kv[40];
	struct sample s = { 0 };
	uint64_t repeat = 1, step = 1, addr_step = 0;
	const char *ip = NULL, *addr = NULL;
	bool have_pid = false;
	int nkv;

	if (n < 2)
		die("usage: sample EVENT key=value...");
	open_output();
	s.evsel = find_event(tok[1]);
	s.cpumode = CPUMODE_USER;
	s.pid = S->pid;
	s.tid = S->tid;
	s.cpu = S->cpu;
	s.period = 1;
	s.time = S->time;
	s.id = perf_writer__event_id(S->w, s.evsel);
	nkv = split_kv(tok, n, 2, kv, 40);
	for (int i = 0; i < nkv; i++) {
		const char *k = kv[i].k, *v = kv[i].v;

		if (!strcmp(k, "pid")) {
			s.pid = num(v, k);
			have_pid = true;
		} else if (!strcmp(k, "tid")) {
			s.tid = num(v, k);
		} else if (!strcmp(k, "cpu")) {
			s.cpu = num(v, k);
		} else if (!strcmp(k, "time")) {
			s.time = num(v, k);
		} else if (!strcmp(k, "ip")) {
			ip = v;
		} else if (!strcmp(k, "addr")) {
			addr = v;
		} else if (!strcmp(k, "weight")) {
			s.weight = num(v, k);
		} else if (!strcmp(k, "ins_lat")) {
			s.ins_lat = num(v, k);
		} else if (!strcmp(k, "retire_lat")) {
			s.retire_lat = num(v, k);
		} else if (!strcmp(k, "period")) {
			s.period = num(v, k);
		} else if (!strcmp(k, "phys") || !strcmp(k, "phys_addr")) {
			s.phys_addr = num(v, k);
		} else if (!strcmp(k, "src")) {
			if (parse_class(v, &s.data_src))
				die("unknown data_src class '%s' (mkperf --classes lists them)", v);
		} else if (!strcmp(k, "data_src")) {
			s.data_src = num(v, k);
		} else if (!strcmp(k, "page") || !strcmp(k, "data_page_size")) {
			s.data_page_size = num(v, k);
		} else if (!strcmp(k, "code_page") || !strcmp(k, "code_page_size")) {
			s.code_page_size = num(v, k);
		} else if (!strcmp(k, "id")) {
			s.id = num(v, k);
		} else if (!strcmp(k, "stream_id")) {
			s.stream_id = num(v, k);
		} else if (!strcmp(k, "transaction")) {
			s.transaction = num(v, k);
		} else if (!strcmp(k, "cgroup")) {
			s.cgroup = num(v, k);
		} else if (!strcmp(k, "kernel")) {
			s.cpumode = num(v, k) ? CPUMODE_KERNEL : CPUMODE_USER;
		} else if (!strcmp(k, "callchain")) {
			s.callchain_nr = num_list(v, callchain, 256, k);
			s.callchain = callchain;
		} else if (!strcmp(k, "raw")) {
			s.raw_size = hex_bytes(v, raw, sizeof(raw), k);
			s.raw = raw;
		} else if (!strcmp(k, "branch")) {	/* from:to:flags,... */
			size_t nb = num_list(v, branches, 3 * 64, k);

			if (nb % 3)
				die("branch: from:to:flags triples expected");
			s.branch_nr = nb / 3;
			s.branch_entries = branches;
		} else if (!strcmp(k, "hw_idx")) {
			s.branch_hw_idx = num(v, k);
		} else if (!strcmp(k, "regs_user")) {	/* abi,values... */
			size_t nr = num_list(v, regs_u, 64, k);

			s.regs_user_abi = nr ? regs_u[0] : 0;
			s.regs_user = regs_u + 1;
		} else if (!strcmp(k, "regs_intr")) {
			size_t nr = num_list(v, regs_i, 64, k);

			s.regs_intr_abi = nr ? regs_i[0] : 0;
			s.regs_intr = regs_i + 1;
		} else if (!strcmp(k, "stack")) {	/* hex bytes */
			s.stack_user_size = hex_bytes(v, stack, sizeof(stack), k);
			s.stack_user = stack;
			s.stack_user_dyn_size = s.stack_user_size;
		} else if (!strcmp(k, "dyn_size")) {
			s.stack_user_dyn_size = num(v, k);
		} else if (!strcmp(k, "read")) {	/* raw read_format words */
			s.read_nr = num_list(v, read_v, 256, k);
			s.read_values = read_v;
		} else if (!strcmp(k, "read_nr")) {
			s.read_nr = num(v, k);
		} else if (!strcmp(k, "repeat")) {
			repeat = num(v, k);
		} else if (!strcmp(k, "step")) {
			step = num(v, k);
		} else if (!strcmp(k, "addr_step")) {
			addr_step = num(v, k);
		} else {
			die("unknown sample key '%s'", k);
		}
	}
	if (s.read_values)	/* GROUP: nr is the first word; otherwise one value */
		s.read_nr = (S->pending[s.evsel].read_format & PW_FORMAT_GROUP) ? read_v[0] : 1;
	if (!have_pid)
		pid_of(s.tid, &s.pid);
	if (ip)
		s.ip = address(ip, s.pid, "ip");
	if (addr)
		s.addr = address(addr, s.pid, "addr");
	S->pid = s.pid;
	S->tid = s.tid;
	S->cpu = s.cpu;
	if (S->mixing) {
		if (addr_step)
			die("mix: addr_step is not supported inside a mix");
		held_check(&s);
		if (S->nr_kinds == S->cap_kinds) {
			S->cap_kinds = S->cap_kinds ? 2 * S->cap_kinds : 256;
			S->kinds = realloc(S->kinds, S->cap_kinds * sizeof(*S->kinds));
			if (!S->kinds)
				die("out of memory");
		}
		S->kinds[S->nr_kinds].s = s;
		S->kinds[S->nr_kinds++].repeat = repeat;
		return;
	}
	for (uint64_t r = 0; r < repeat; r++) {
		emit_sample(&s);
		s.time += step;
		s.addr += addr_step;
	}
	S->time = s.time;
}

static void cmd_finished_round(void)
{
	open_output();
	flush_percpu();
	check(perf_writer__finished_round(S->w));
}

static uint64_t rng(void);
static uint64_t rng_state;

/*
 * `mix end [seed=S] [round=K]`: write the collected sample lines' copies (repeat=N each) in a
 * random order, every copy once, time going up by one per sample; a FINISHED_ROUND every K
 * samples (0: none).  A program's accesses interleave; N copies in a row would not.
 */
static void cmd_mix(char **tok, int n)
{
	struct kv kv[4];
	uint64_t seed = 1, round = 0, total = 0, k = 0;
	uint32_t *order;
	int nkv;

	if (n >= 2 && !strcmp(tok[1], "end")) {
		if (!S->mixing)
			die("mix end without mix");
	} else {
		if (n != 1 || S->mixing)
			die("usage: mix, sample lines, then mix end [seed=S] [round=K]");
		S->mixing = true;
		S->nr_kinds = 0;
		return;
	}
	nkv = split_kv(tok, n, 2, kv, 4);
	for (int i = 0; i < nkv; i++) {
		if (!strcmp(kv[i].k, "seed"))
			seed = num(kv[i].v, "seed");
		else if (!strcmp(kv[i].k, "round"))
			round = num(kv[i].v, "round");
		else
			die("unknown mix key '%s'", kv[i].k);
	}
	S->mixing = false;
	open_output();
	for (size_t i = 0; i < S->nr_kinds; i++)
		total += S->kinds[i].repeat;
	if (S->nr_kinds >= UINT32_MAX || total > (1ULL << 32))
		die("mix: too many samples");
	order = xalloc(total * sizeof(*order));
	for (size_t i = 0; i < S->nr_kinds; i++)
		for (uint64_t r = 0; r < S->kinds[i].repeat; r++)
			order[k++] = i;
	rng_state = seed;
	for (uint64_t i = total; i > 1; i--) {	/* Fisher-Yates */
		uint64_t j = rng() % i;
		uint32_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	for (uint64_t i = 0; i < total; i++) {
		struct sample s = S->kinds[order[i]].s;

		s.time = S->time++;
		emit_sample(&s);
		if (round && (i + 1) % round == 0)
			cmd_finished_round();
	}
	free(order);
	S->nr_kinds = 0;
}

/* ---- the scenario ------------------------------------------------------------------ */

static void run_line(char *line)
{
	char *tok[128];
	int n = 0;
	char *p = strchr(line, '#');

	if (p)
		*p = 0;
	for (p = strtok(line, " \t\r\n"); p && n < 128; p = strtok(NULL, " \t\r\n"))
		tok[n++] = p;
	if (!n)
		return;
	if (!strcmp(tok[0], "cpus")) {
		if (n < 2)
			die("usage: cpus N [sockets=S] [smt=T]");
		S->cpus = num(tok[1], "cpus");
		for (int i = 2; i < n; i++) {
			if (!strncmp(tok[i], "sockets=", 8))
				S->sockets = num(tok[i] + 8, "sockets");
			else if (!strncmp(tok[i], "smt=", 4))
				S->threads_per_core = num(tok[i] + 4, "smt");
			else
				die("unknown cpus key '%s'", tok[i]);
		}
		if (!S->cpus || !S->sockets || !S->threads_per_core ||
		    S->cpus % (S->sockets * S->threads_per_core))
			die("cpus must be a multiple of sockets x smt");
	} else if (!strcmp(tok[0], "node")) {
		unsigned int idx;

		if (n != 3)
			die("usage: node N CPULIST");
		idx = num(tok[1], "node");
		if (idx != S->nr_nodes || idx >= 64)
			die("nodes must be declared in order 0, 1, ...");
		S->node_cpus[S->nr_nodes++] = xdup(tok[2]);
	} else if (!strcmp(tok[0], "cacheline")) {
		if (n != 2)
			die("usage: cacheline SIZE");
		S->line_size = num(tok[1], "cacheline");
	} else if (!strcmp(tok[0], "memblock")) {
		if (n != 2)
			die("usage: memblock SIZE");
		S->mem_block = num(tok[1], "memblock");
		if (!S->mem_block || (2ULL << 30) % S->mem_block)
			die("memblock must divide 2 GiB");
	} else if (!strcmp(tok[0], "host")) {
		S->host = true;
	} else if (!strcmp(tok[0], "hostname") || !strcmp(tok[0], "osrelease") ||
		   !strcmp(tok[0], "arch") || !strcmp(tok[0], "version") ||
		   !strcmp(tok[0], "cpudesc") || !strcmp(tok[0], "cpuid")) {
		static const struct {
			const char *k;
			int f;
		} m[] = { { "hostname", FEAT_HOSTNAME }, { "osrelease", FEAT_OSRELEASE },
			  { "arch", FEAT_ARCH }, { "version", FEAT_VERSION },
			  { "cpudesc", FEAT_CPUDESC }, { "cpuid", FEAT_CPUID } };
		char buf[1024] = "";

		for (int i = 1; i < n; i++) {
			strncat(buf, tok[i], sizeof(buf) - strlen(buf) - 2);
			if (i + 1 < n)
				strcat(buf, " ");
		}
		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
			if (!strcmp(m[i].k, tok[0]))
				S->strs[m[i].f] = xdup(buf);
	} else if (!strcmp(tok[0], "cmdline")) {
		for (int i = 0; i < S->nr_cmdline; i++)
			free(S->cmdline[i]);
		free(S->cmdline);
		S->cmdline = xalloc(n * sizeof(char *));
		for (int i = 1; i < n; i++)
			S->cmdline[i - 1] = xdup(tok[i]);
		S->nr_cmdline = n - 1;
	} else if (!strcmp(tok[0], "event")) {
		if (S->c2c_ldlat)
			die("c2c_events declares the events already");
		cmd_event(tok, n);
	} else if (!strcmp(tok[0], "c2c_events")) {
		if (S->nr_pending || S->opened)
			die("c2c_events must come first, instead of `event` lines");
		S->c2c_ldlat = n > 1 ? num(tok[1], "ldlat") : 30;
		if (!S->c2c_ldlat)
			die("c2c_events: ldlat must be positive");
	} else if (!strcmp(tok[0], "comm")) {
		cmd_comm(tok, n);
	} else if (!strcmp(tok[0], "fork")) {
		cmd_task(tok, n, REC_FORK);
	} else if (!strcmp(tok[0], "exit")) {
		cmd_task(tok, n, REC_EXIT);
	} else if (!strcmp(tok[0], "mmap")) {
		cmd_mmap(tok, n);
	} else if (!strcmp(tok[0], "kernel") || !strcmp(tok[0], "module")) {
		cmd_kmap(tok, n);
	} else if (!strcmp(tok[0], "anon")) {
		cmd_anon(tok, n);
	} else if (!strcmp(tok[0], "sample")) {
		cmd_sample(tok, n);
	} else if (!strcmp(tok[0], "round")) {
		if (S->mixing)
			die("round inside a mix: use mix end round=K");
		cmd_finished_round();
	} else if (!strcmp(tok[0], "percpu")) {
		if (n != 1)
			die("usage: percpu");
		S->percpu = true;
	} else if (!strcmp(tok[0], "mix")) {
		cmd_mix(tok, n);
	} else if (!strcmp(tok[0], "lost")) {
		struct rec_lost l = { 0 };
		struct sample sid;

		if (n != 2)
			die("usage: lost COUNT");
		open_output();
		l.id = perf_writer__event_id(S->w, 0);
		l.lost = num(tok[1], "lost");
		sid_for(&sid, S->pid, S->tid, S->time, S->cpu);
		check(perf_writer__lost(S->w, &l, &sid));
	} else if (!strcmp(tok[0], "tracing_data")) {
		/*
		 * tracing_data FILE: FILE's bytes become the TRACING_DATA feature; when FILE is a
		 * perf.data (file mode), its own TRACING_DATA feature is taken.
		 */
		FILE *f;
		uint8_t *buf, *part;
		long sz;
		size_t psz;

		if (n != 2)
			die("usage: tracing_data FILE");
		f = fopen(tok[1], "rb");
		if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
			die("cannot read %s", tok[1]);
		buf = xalloc(sz);
		if (fread(buf, 1, sz, f) != (size_t)sz)
			die("cannot read %s", tok[1]);
		fclose(f);
		part = buf;
		psz = sz;
		if (sz >= 104 && !memcmp(buf, "PERFILE2", 8)) {
			uint64_t doff, dsize, bits, sec[2];

			memcpy(&doff, buf + 40, 8);
			memcpy(&dsize, buf + 48, 8);
			memcpy(&bits, buf + 72, 8);
			/* TRACING_DATA is feature bit 1, the lowest one: the first section */
			if (!(bits & 2) || doff + dsize + 16 > (uint64_t)sz)
				die("%s has no TRACING_DATA feature", tok[1]);
			memcpy(sec, buf + doff + dsize, 16);
			if (sec[0] > (uint64_t)sz || sec[1] > (uint64_t)sz - sec[0])
				die("%s: TRACING_DATA section out of the file", tok[1]);
			part = buf + sec[0];
			psz = sec[1];
		}
		if (S->opened)
			die("tracing_data must come before the first record");
		free(S->tracing);
		S->tracing = xalloc(psz);
		memcpy(S->tracing, part, psz);
		S->tracing_size = psz;
		free(buf);
	} else {
		die("unknown directive '%s'", tok[0]);
	}
}

/* Free what the scenario allocated (so LeakSanitizer checks the writer for real). */
static void scenario_free(void)
{
	perf_writer__delete(S->w);
	S->w = NULL;
	for (size_t i = 0; i < S->nr_files; i++) {
		for (size_t k = 0; k < S->files[i].nr_syms; k++)
			free(S->files[i].syms[k].name);
		free(S->files[i].syms);
		free(S->files[i].path);
	}
	free(S->files);
	free(S->maps);
	free(S->tracing);
	for (unsigned int i = 0; i < S->nr_pending; i++)
		free(S->pending_names[i]);
	for (unsigned int i = 0; i < S->nr_nodes; i++)
		free(S->node_cpus[i]);
	for (int i = 0; i < FEAT_LAST; i++)
		free(S->strs[i]);
	for (int i = 0; i < S->nr_cmdline; i++)
		free(S->cmdline[i]);
	free(S->cmdline);
	for (size_t i = 0; i < S->nr_pcpu; i++)
		free(S->pcpu[i].v);
	free(S->pcpu);
	free(S->kinds);
}

static void run_scenario(FILE *in)
{
	char line[8192];

	while (fgets(line, sizeof(line), in)) {
		S->line++;
		run_line(line);
	}
	S->line = 0;
	if (S->mixing)
		die("mix without mix end");
	open_output();
	flush_percpu();
	set_header();
	if (perf_writer__close(S->w))
		die("%s", perf_writer__strerror(S->w));
	scenario_free();
}

/* The [start, end) link addresses of @path's .text, or 0s. */
static void text_section(const char *path, uint64_t *start, uint64_t *end)
{
	int fd = open(path, O_RDONLY);
	Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	*start = *end = 0;
	if (e && !elf_getshdrstrndx(e, &shstrndx)) {
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				continue;
			name = elf_strptr(e, shstrndx, sh.sh_name);
			if (name && !strcmp(name, ".text")) {
				*start = sh.sh_addr;
				*end = sh.sh_addr + sh.sh_size;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

/* ---- generator --------------------------------------------------------------------- */

static uint64_t rng(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * N samples over @threads threads (one per CPU, nodes by halves) touching @lines cache lines of
 * a heap area; instruction addresses inside this program's own text, so perf resolves them.
 * The class mix is fixed so the numbers are reproducible for a given seed.
 */
static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The number of distinct (cache line, offset, code address) of @keys: the entries perf c2c's
 * and lineup's Pareto aggregate the samples into, with the default coalescing (bench/ divides
 * peak memory by it).
 */
static uint64_t count_distinct(uint64_t *keys, uint64_t n)
{
	uint64_t d = 0;

	qsort(keys, n, sizeof(*keys), cmp_key);
	for (uint64_t i = 0; i < n; i++)
		d += !i || keys[i] != keys[i - 1];
	return d;
}

static void generate(uint64_t n, unsigned int threads, unsigned int lines, uint64_t seed,
		     const char *self, bool count_entries)
{
	uint64_t *keys = NULL;
	static const char *const mix[] = {
		"L1", "L1", "L1", "L1", "LFB", "L2", "LLC", "LCL_HITM", "LCL_HITM", "RMT_HITM",
		"RMT_HIT", "LCL_DRAM", "RMT_DRAM", "ST_L1HIT", "ST_L1HIT", "ST_L1HIT", "ST_L1MISS",
		"ST_NA", "LOAD_NA", "L1+LOCKED", "LCL_PEER", "UNCACHED", "L2+TLB_MISS", "L1+BLK_DATA",
	};
	uint64_t src[sizeof(mix) / sizeof(mix[0])];
	char buf[4300];
	const uint64_t heap = 0x7f0000000000ULL, pid = 4242;
	uint64_t text_lo = 0, text_hi = 0;

	rng_state = seed;
	for (size_t i = 0; i < sizeof(mix) / sizeof(mix[0]); i++)
		parse_class(mix[i], &src[i]);
	snprintf(buf, sizeof(buf), "cpus %u sockets=%u", threads < 2 ? 2 : threads + (threads & 1),
		 2);
	run_line(buf);
	snprintf(buf, sizeof(buf), "event load");
	run_line(buf);
	snprintf(buf, sizeof(buf), "event store");
	run_line(buf);
	snprintf(buf, sizeof(buf), "comm %" PRIu64 " %" PRIu64 " mkperf-gen", pid, pid);
	run_line(buf);
	snprintf(buf, sizeof(buf), "mmap %" PRIu64 " auto %s", pid, self);
	run_line(buf);
	snprintf(buf, sizeof(buf), "anon %" PRIu64 " %#" PRIx64 " %#" PRIx64, pid, heap,
		 (uint64_t)lines * 64 + 4096);
	run_line(buf);
	/* IPs only in .text (real code: no PLT stubs, where symbolizers differ) */
	text_section(self, &text_lo, &text_hi);
	if (text_hi <= text_lo + 16)
		die("%s: no .text section", self);
	text_lo += S->maps[0].bias;
	text_hi += S->maps[0].bias;
	for (unsigned int t = 1; t < threads; t++) {
		snprintf(buf, sizeof(buf), "fork %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, pid,
			 pid, pid + t, pid);
		run_line(buf);
	}
	S->percpu = true;	/* as perf record writes them: each CPU's samples in turn */
	if (count_entries && !(keys = malloc((n ? n : 1) * sizeof(*keys))))
		die("out of memory for %" PRIu64 " keys", n);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t r = rng();
		unsigned int t = r % threads;
		size_t c = (r >> 8) % (sizeof(mix) / sizeof(mix[0]));
		uint64_t line = (r >> 16) % lines, off = ((r >> 40) % 8) * 8;
		struct sample s = { 0 };

		s.evsel = (src[c] & OP(OP_STORE)) ? S->events[1].evsel : S->events[0].evsel;
		s.id = perf_writer__event_id(S->w, s.evsel);
		s.cpumode = CPUMODE_USER;
		s.pid = pid;
		s.tid = pid + t;
		s.cpu = t;
		s.time = 1000000 + i * 100;
		s.ip = text_lo + ((r >> 24) % ((text_hi - text_lo) / 16)) * 16;
		s.addr = heap + line * 64 + off;
		/* odd lines on node 1, even ones on node 0 (MEM_TOPOLOGY: 2 GiB a node) */
		s.phys_addr = (line & 1 ? 2ULL << 30 : 0) + 0x10000000ULL + line * 64 + off;
		s.period = 1;
		s.weight = 30 + (r >> 48) % 400;
		s.data_src = src[c];
		emit_sample(&s);
		if (keys)	/* line < 2^24, off < 64, (ip - text_lo) / 16 < 2^36 */
			keys[i] = ((s.ip - text_lo) / 16) << 30 | line << 6 | off;
		if ((i & 0xffff) == 0xffff)
			cmd_finished_round();
	}
	flush_percpu();
	if (keys) {
		printf("%" PRIu64 " samples, %" PRIu64 " distinct (cache line, offset, code address)\n",
		       n, count_distinct(keys, n));
		free(keys);
	}
}

static void usage(FILE *f)
{
	fputs("usage: mkperf [-o FILE] [SCENARIO]\n"
	      "       mkperf --generate N [-o FILE] [--threads T] [--lines L] [--seed S]\n"
	      "              [--count-entries]\n"
	      "       mkperf --classes\n", f);
}

int main(int argc, char **argv)
{
	struct scenario sc = { 0 };
	const char *in = NULL;
	uint64_t gen = 0, seed = 1;
	unsigned int threads = 8, lines = 4096;
	bool generating = false, count_entries = false;

	S = &sc;
	sc.out = "perf.data";
	sc.cpus = 4;
	sc.sockets = 1;
	sc.threads_per_core = 1;
	sc.line_size = 64;
	sc.mem_block = 128ULL << 20;
	sc.pid = sc.tid = 1;
	sc.time = 1000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			sc.out = argv[++i];
		} else if (!strcmp(argv[i], "--generate") && i + 1 < argc) {
			gen = num(argv[++i], "--generate");
			generating = true;
		} else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
			threads = num(argv[++i], "--threads");
		} else if (!strcmp(argv[i], "--lines") && i + 1 < argc) {
			lines = num(argv[++i], "--lines");
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = num(argv[++i], "--seed");
		} else if (!strcmp(argv[i], "--count-entries")) {
			count_entries = true;
		} else if (!strcmp(argv[i], "--classes")) {
			for (size_t k = 0; k < sizeof(classes) / sizeof(classes[0]); k++)
				printf("%-16s %#014" PRIx64 "  %s\n", classes[k].name,
				       classes[k].value | NA_REST, classes[k].what);
			printf("modifiers (CLASS+MOD+...):");
			for (size_t k = 0; k < sizeof(modifiers) / sizeof(modifiers[0]); k++)
				printf(" %s", modifiers[k].name);
			printf("\n");
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage(stderr);
			return 2;
		} else {
			in = argv[i];
		}
	}
	if (generating) {
		if (!threads || !lines || threads > 256 || lines > (1u << 24))
			die("--threads: 1 to 256, --lines: 1 to 16777216");
		sc.src = "generator";
		char self[4096];
		ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (k <= 0)
			die("cannot find this program's own path");
		self[k] = 0;
		generate(gen, threads, lines, seed, self, count_entries);
		set_header();
		if (perf_writer__close(sc.w))
			die("%s", perf_writer__strerror(sc.w));
		scenario_free();
		return 0;
	}
	if (in && strcmp(in, "-")) {
		FILE *f = fopen(in, "r");

		if (!f)
			die("cannot open %s: %s", in, strerror(errno));
		sc.src = in;
		run_scenario(f);
		fclose(f);
	} else {
		sc.src = "<stdin>";
		run_scenario(stdin);
	}
	return 0;
}
