// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkspe: a text scenario -> a perf.data with an Arm SPE AUX trace, laid out as
 * `perf c2c record` on an arm64 machine writes it: the arm_spe_0 event (first) and a dummy:u
 * tracking event, TIME_CONV, AUXTRACE_INFO (type 4, priv: PMU type, per-CPU mmaps), side-band
 * records, AUXTRACE records with the packets (one queue per CPU), the AUXTRACE index feature,
 * and arm64 header facts (topology, NUMA, CACHE, MEM_TOPOLOGY, CPUID = a Neoverse N1 MIDR).
 *
 *	mkspe [-o FILE] [SCENARIO|-]	(-o -: pipe mode on stdout, as perf record -o -;
 *					 perf then has no AUXTRACE index)
 *
 * One directive a line, '#' starts a comment, numbers are C literals:
 *	cpus N [sockets=S]		NRCPUS etc. (default 4, 1 socket); node n = socket n,
 *					physical memory [2n GiB, 2n+2 GiB) on node n
 *	cpuid TEXT | arch TEXT		the CPUID (MIDR) and ARCH strings
 *	pmutype N			the arm_spe_0 PMU's attr.type (default 8)
 *	timeconv SHIFT MULT ZERO	TIME_CONV (default 0 1 0: timestamps are ns)
 *	notime				the events do not sample TIME (perf decodes "timeless")
 *	comm PID TID NAME [time=T]
 *	fork PID PPID TID PTID [time=T]
 *	mmap PID START LEN PGOFF FILE [time=T] [prot=N]	an MMAP2 of FILE (prot 5: r-x)
 *	anon PID START LEN [time=T]		an rw- anonymous MMAP2 (data)
 *	switch CPU PID TID [time=T]	a SWITCH_CPU_WIDE out record: CPU switches to PID/TID
 *	switchout CPU PID TID [time=T]	a SWITCH out record (per-task): PID/TID leaves CPU
 *	spe CPU key=value...		a load/store record into CPU's AUX buffer: ip= va= pa=
 *					lat= op=ld|st|other|branch src=N (data source packet)
 *					ev=N (events packet) ctx=TID (CONTEXT packet) ts=N
 *					repeat=N step=N (ts step) va_step=N
 *	raw CPU HEXBYTES		bytes as they are into CPU's AUX buffer
 *	aux CPU [tid=T]			write CPU's buffer now as an AUXTRACE record
 *	round				FINISHED_ROUND
 * At the end every buffer left is written.  Errors name the line and exit 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/arm_spe.h"
#include "sampling/event.h"
#include "sampling/perf_writer.h"

#define MAX_CPUS 64
#define C2C_SPE_TYPE (SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU | SF_WEIGHT | \
		      SF_DATA_SRC | SF_PHYS_ADDR)

static const char *scen_name = "-";
static unsigned int lineno;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mkspe: %s:%u: ", scen_name, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

struct auxbuf {
	uint8_t *p;
	size_t n, cap;
};

static struct auxbuf bufs[MAX_CPUS];
static struct perf_writer *w;
static int ev_spe, ev_dummy;
static bool started, notime;
static unsigned int cpus = 4, sockets = 1, pmutype = 8;
static char *cpuid, *arch;
static struct perf_writer_time_conv tc = { .time_mult = 1 };

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("'%s' is not a number", s);
	return v;
}

static void add(struct auxbuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void pkt(struct auxbuf *b, uint8_t hdr, uint64_t v, unsigned int len)
{
	uint8_t x[9] = { hdr };

	for (unsigned int i = 0; i < len; i++)
		x[1 + i] = (uint8_t)(v >> (8 * i));
	add(b, x, 1 + len);
}

static void check(int rc)
{
	if (rc)
		die("writer: %s", perf_writer__strerror(w));
}

static void header(void)
{
	char buf[64];
	const char **csib = calloc(sockets, sizeof(*csib)), **tsib = calloc(cpus, sizeof(*tsib));
	uint32_t core[MAX_CPUS], sock[MAX_CPUS], die_id[MAX_CPUS];
	unsigned int per = cpus / sockets;
	struct perf_writer_cpu_topology t = { 0 };

	perf_writer__set_string(w, FEAT_HOSTNAME, "mkspe");
	perf_writer__set_string(w, FEAT_OSRELEASE, "6.1.0-mkspe");
	perf_writer__set_string(w, FEAT_VERSION, "6.1");
	perf_writer__set_string(w, FEAT_ARCH, arch ? arch : "arm64");
	perf_writer__set_string(w, FEAT_CPUDESC, "Neoverse-N1");
	perf_writer__set_string(w, FEAT_CPUID, cpuid ? cpuid : "0x00000000410fd0c0");
	perf_writer__set_nrcpus(w, cpus, cpus);
	perf_writer__set_total_mem(w, 16ULL << 20);
	for (unsigned int s = 0; s < sockets; s++) {
		snprintf(buf, sizeof(buf), "%u-%u", s * per, (s + 1) * per - 1);
		csib[s] = strdup(buf);
	}
	for (unsigned int c = 0; c < cpus; c++) {
		snprintf(buf, sizeof(buf), "%u", c);
		tsib[c] = strdup(buf);
		core[c] = c % per;
		sock[c] = c / per;
		die_id[c] = 0;
	}
	t.nr_core_sibs = sockets;
	t.core_sibs = csib;
	t.nr_thread_sibs = cpus;
	t.thread_sibs = tsib;
	t.nr_cpus = cpus;
	t.core_id = core;
	t.socket_id = sock;
	t.die_id = die_id;
	check(perf_writer__set_cpu_topology(w, &t));
	perf_writer__set_mem_block_size(w, 128ULL << 20);
	for (unsigned int s = 0; s < sockets; s++) {
		uint64_t set[8] = { 0 };

		check(perf_writer__add_numa_node(w, s, 8ULL << 20, 4ULL << 20, csib[s]));
		for (unsigned int b = s * 16; b < (s + 1) * 16; b++)
			set[b / 64] |= 1ULL << (b % 64);
		check(perf_writer__add_mem_node(w, s, set, (s + 1) * 16));
	}
	check(perf_writer__add_cache(w, 1, 64, 256, 4, "Data", "64K", "0"));
	check(perf_writer__add_cache(w, 1, 64, 256, 4, "Instruction", "64K", "0"));
	check(perf_writer__add_cache(w, 2, 64, 2048, 8, "Unified", "1024K", "0"));
	for (unsigned int s = 0; s < sockets; s++)
		free((void *)csib[s]);
	for (unsigned int c = 0; c < cpus; c++)
		free((void *)tsib[c]);
	free(csib);
	free(tsib);
}

/* The events, TIME_CONV and AUXTRACE_INFO, before the first record. */
static void start(const char *path)
{
	struct perf_writer_event spe = { 0 }, dummy = { 0 };
	uint64_t priv[ARM_SPE_PRIV_MAX] = { pmutype, 1 };

	if (started)
		return;
	started = true;
	spe.name = "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,"
		   "min_latency=30/";
	spe.type = pmutype;
	spe.config = (1ULL << 0) | (1ULL << 1) | (1ULL << 33) | (1ULL << 34);
	spe.config2 = 30;
	spe.sample_period = 4096;
	spe.sample_type = C2C_SPE_TYPE & ~(notime ? (uint64_t)SF_TIME : 0);
	spe.sample_id_all = true;
	spe.disabled = true;
	spe.enable_on_exec = true;
	spe.inherit = true;
	ev_spe = perf_writer__add_event(w, &spe);
	dummy.name = "dummy:u";
	dummy.type = PW_TYPE_SOFTWARE;
	dummy.config = 9;
	dummy.sample_period = 1;
	dummy.sample_type = (SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_CPU) &
			    ~(notime ? (uint64_t)SF_TIME : 0);
	dummy.sample_id_all = dummy.mmap = dummy.mmap2 = dummy.comm = dummy.comm_exec = true;
	dummy.task = dummy.exclude_kernel = dummy.exclude_hv = dummy.inherit = true;
	ev_dummy = perf_writer__add_event(w, &dummy);
	if (ev_spe < 0 || ev_dummy < 0)
		die("writer: %s", perf_writer__strerror(w));
	header();
	check(strcmp(path, "-") ? perf_writer__open(w, path) : perf_writer__open_pipe(w, 1));
	check(perf_writer__time_conv(w, &tc));
	check(perf_writer__auxtrace_info(w, ARM_SPE_AUXTRACE_TYPE, priv, ARM_SPE_PRIV_MAX));
}

/* The sample_id_all trailer of a side-band record. */
static struct sample sid(uint32_t pid, uint32_t tid, uint64_t time)
{
	struct sample s = { .evsel = (uint32_t)ev_dummy, .pid = pid, .tid = tid, .time = time };

	s.id = perf_writer__event_id(w, ev_dummy);
	return s;
}

static void flush(unsigned int cpu, int32_t tid)
{
	struct auxbuf *b = &bufs[cpu];
	struct rec_auxtrace a = { .size = b->n, .idx = cpu, .tid = (uint32_t)tid, .cpu = cpu };
	static uint64_t offsets[MAX_CPUS];

	if (!b->n)
		return;
	a.offset = offsets[cpu];
	offsets[cpu] += (b->n + 7) & ~7ULL;
	check(perf_writer__auxtrace(w, &a, b->p));
	b->n = 0;
}

static unsigned int cpu_arg(const char *s)
{
	uint64_t c = num(s);

	if (c >= cpus)
		die("cpu %s: only %u CPUs", s, cpus);
	return (unsigned int)c;
}

/* key=value arguments */
static const char *kv(char **argv, int argc, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], key, n) && argv[i][n] == '=')
			return argv[i] + n + 1;
	return NULL;
}

static uint64_t kvnum(char **argv, int argc, const char *key, uint64_t dflt)
{
	const char *v = kv(argv, argc, key);

	return v ? num(v) : dflt;
}

static void spe_record(char **argv, int argc)
{
	struct auxbuf *b = &bufs[cpu_arg(argv[1])];
	const char *op = kv(argv, argc, "op"), *ctx = kv(argv, argc, "ctx");
	uint64_t repeat = kvnum(argv, argc, "repeat", 1), step = kvnum(argv, argc, "step", 1);
	uint64_t ts = kvnum(argv, argc, "ts", 0), va = kvnum(argv, argc, "va", 0);

	for (uint64_t i = 0; i < repeat; i++, ts += step, va += kvnum(argv, argc, "va_step", 0)) {
		pkt(b, 0xb0, kvnum(argv, argc, "ip", 0), 8);
		if (ctx)
			pkt(b, 0x65, num(ctx), 4);
		if (!op || !strcmp(op, "ld"))
			pkt(b, 0x49, 0, 1);
		else if (!strcmp(op, "st"))
			pkt(b, 0x49, 1, 1);
		else if (!strcmp(op, "other"))
			pkt(b, 0x48, 0, 1);
		else if (!strcmp(op, "branch"))
			pkt(b, 0x4a, 1, 1);
		else
			die("op=%s: ld, st, other or branch", op);
		pkt(b, 0x52, kvnum(argv, argc, "ev", 0), 2);
		if (kv(argv, argc, "src"))
			pkt(b, 0x43, kvnum(argv, argc, "src", 0), 1);
		pkt(b, 0x99, 1, 2);
		pkt(b, 0x98, kvnum(argv, argc, "lat", 0), 2);
		pkt(b, 0xb2, va, 8);
		pkt(b, 0xb3, kvnum(argv, argc, "pa", 0), 8);
		pkt(b, 0x71, ts, 8);
	}
}

static void directive(char **argv, int argc, const char *path)
{
	const char *d = argv[0];

	if (!strcmp(d, "cpus") && argc >= 2) {
		if (started)
			die("cpus after the first record");
		cpus = (unsigned int)num(argv[1]);
		sockets = (unsigned int)kvnum(argv, argc, "sockets", 1);
		if (!cpus || cpus > MAX_CPUS || !sockets || cpus % sockets)
			die("cpus %u sockets %u: 1..%d CPUs, a multiple of the sockets", cpus,
			    sockets, MAX_CPUS);
		return;
	}
	if ((!strcmp(d, "cpuid") || !strcmp(d, "arch")) && argc == 2) {
		if (started)
			die("%s after the first record", d);
		*(d[0] == 'c' ? &cpuid : &arch) = strdup(argv[1]);
		return;
	}
	if (!strcmp(d, "pmutype") && argc == 2 && !started) {
		pmutype = (unsigned int)num(argv[1]);
		return;
	}
	if (!strcmp(d, "timeconv") && argc == 4 && !started) {
		tc.time_shift = num(argv[1]);
		tc.time_mult = num(argv[2]);
		tc.time_zero = num(argv[3]);
		return;
	}
	if (!strcmp(d, "notime") && argc == 1 && !started) {
		notime = true;
		return;
	}
	start(path);
	if (!strcmp(d, "comm") && argc >= 4) {
		uint32_t pid = (uint32_t)num(argv[1]), tid = (uint32_t)num(argv[2]);
		struct rec_comm c = { .pid = pid, .tid = tid, .comm = argv[3] };
		struct sample s = sid(pid, tid, kvnum(argv, argc, "time", 0));

		check(perf_writer__comm(w, &c, &s));
	} else if (!strcmp(d, "fork") && argc >= 5) {
		struct rec_task t = { .pid = (uint32_t)num(argv[1]), .ppid = (uint32_t)num(argv[2]),
				      .tid = (uint32_t)num(argv[3]), .ptid = (uint32_t)num(argv[4]) };
		struct sample s;

		t.time = kvnum(argv, argc, "time", 0);
		s = sid(t.pid, t.tid, t.time);
		check(perf_writer__task(w, REC_FORK, &t, &s));
	} else if ((!strcmp(d, "mmap") && argc >= 6) || (!strcmp(d, "anon") && argc >= 4)) {
		bool code = d[0] == 'm';
		uint32_t pid = (uint32_t)num(argv[1]);
		struct rec_mmap m = { .pid = pid, .tid = pid, .is_mmap2 = true,
				      .start = num(argv[2]), .len = num(argv[3]),
				      .pgoff = code ? num(argv[4]) : 0,
				      .prot = (uint32_t)kvnum(argv, argc, "prot", code ? 5 : 3),
				      .flags = code ? 2 : 0x22, .filename = code ? argv[5] : "//anon" };
		struct sample s = sid(pid, pid, kvnum(argv, argc, "time", 0));

		check(perf_writer__mmap(w, CPUMODE_USER | ((m.prot & 4) ? 0 : (1u << 13)), &m, &s));
	} else if ((!strcmp(d, "switchout") || !strcmp(d, "switch")) && argc >= 4) {
		/* header, (switch: the next/prev pid/tid,) then the dummy event's sample_id: TID TIME
		 * CPU ID */
		bool wide = !strcmp(d, "switch");
		uint64_t rec[6] = { 0 }, time = kvnum(argv, argc, "time", 0);
		uint32_t cpu = cpu_arg(argv[1]), pid = (uint32_t)num(argv[2]);
		uint32_t tid = (uint32_t)num(argv[3]);
		uint16_t size = (notime ? 32 : 40) + (wide ? 8 : 0);
		uint64_t *p = rec + 1;

		rec[0] = (wide ? REC_SWITCH_CPU_WIDE : REC_SWITCH) | (uint64_t)(1u << 13) << 32 |
			 (uint64_t)size << 48;
		*p++ = pid | (uint64_t)tid << 32;
		if (wide)
			*p++ = pid | (uint64_t)tid << 32; /* the sample_id's own thread: unused */
		if (!notime)
			*p++ = time;
		*p++ = cpu;
		*p = perf_writer__event_id(w, ev_dummy);
		check(perf_writer__raw_record(w, rec));
	} else if (!strcmp(d, "spe") && argc >= 2) {
		spe_record(argv, argc);
	} else if (!strcmp(d, "raw") && argc == 3) {
		struct auxbuf *b = &bufs[cpu_arg(argv[1])];
		const char *h = argv[2];

		if (strlen(h) % 2)
			die("raw: odd number of hex digits");
		for (; *h; h += 2) {
			char x[3] = { h[0], h[1], 0 };
			uint8_t v = (uint8_t)strtoul(x, NULL, 16);

			add(b, &v, 1);
		}
	} else if (!strcmp(d, "aux") && argc >= 2) {
		flush(cpu_arg(argv[1]), (int32_t)kvnum(argv, argc, "tid", (uint64_t)-1));
	} else if (!strcmp(d, "round") && argc == 1) {
		check(perf_writer__finished_round(w));
	} else {
		die("unknown directive or wrong arguments: %s", d);
	}
}

int main(int argc, char **argv)
{
	const char *out = "perf.data";
	FILE *f = stdin;
	char line[4096];
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		i = 3;
	}
	if (i < argc && strcmp(argv[i], "-")) {
		scen_name = argv[i];
		f = fopen(argv[i], "r");
		if (!f) {
			fprintf(stderr, "mkspe: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
	}
	w = perf_writer__new();
	while (fgets(line, sizeof(line), f)) {
		char *words[64], *save = NULL, *t, *hash = strchr(line, '#');
		int n = 0;

		lineno++;
		if (hash)
			*hash = '\0';
		for (t = strtok_r(line, " \t\n", &save); t && n < 64; t = strtok_r(NULL, " \t\n", &save))
			words[n++] = t;
		if (n)
			directive(words, n, out);
	}
	if (f != stdin)
		fclose(f);
	lineno++;
	start(out);
	for (unsigned int c = 0; c < cpus; c++) {
		flush(c, -1);
		free(bufs[c].p);
	}
	check(perf_writer__close(w));
	perf_writer__delete(w);
	free(cpuid);
	free(arch);
	return 0;
}
