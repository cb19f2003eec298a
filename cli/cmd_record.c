// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup record: record memory accesses into a standard perf.data, through libperf with the
 * machine's memory PMU (Intel mem-loads/mem-stores, AMD IBS op, Arm SPE found in sysfs), or
 * with any software event (-e page-faults), or with lineup's software collector (--sim,
 * pipeline/sim_run.c).
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "pipeline/sim_run.h"
#include "sampling/perf_writer.h"
#include "sampling/pmu.h"
#include "sampling/recorder.h"
#include "sampling/tracefs.h"
#include "sampling/workload.h"

enum {
	OPT_OUTPUT = 'o',
	OPT_EVENT = 'e',
	OPT_ALL = 'a',
	OPT_USER = 'u',
	OPT_KERNEL = 'k',
	OPT_CPU = 'C',
	OPT_COUNT = 'c',
	OPT_FREQ = 'F',
	OPT_DATA = 'd',
	OPT_MMAP = 'm',
	OPT_LDLAT = 256,
	OPT_LIST,
	OPT_SIM,
	OPT_SIM_WINDOW,
	OPT_SIM_EXACT,
	OPT_SIM_COUNT,
	OPT_SIM_TURNS,
};

static const struct cli_option record_options[] = {
	{ OPT_OUTPUT, 'o', "output", "FILE", "write to FILE (default perf.data; an older one becomes "
	  "FILE.old; - for pipe mode on stdout, where --sim sends CMD's own output to stderr)" },
	{ OPT_EVENT, 'e', "event", "EVENT",
	  "event to record, repeatable: mem (the default: the memory PMU's load and store "
	  "events), mem-loads, mem-stores, a software event (page-faults, minor-faults, "
	  "major-faults, cpu-clock, task-clock, context-switches, cpu-migrations), a "
	  "tracepoint SYS:NAME (e.g. kmem:kmem_cache_alloc, with its payload) or PMU/TERMS/ as "
	  "in sysfs" },
	{ OPT_LDLAT, 0, "ldlat", "N", "load latency threshold in cycles (default 30)" },
	{ OPT_ALL, 'a', "all-cpus", NULL, "record every CPU (while CMD runs, or until Ctrl-C)" },
	{ OPT_USER, 'u', "all-user", NULL, "user space only" },
	{ OPT_KERNEL, 'k', "all-kernel", NULL, "kernel only" },
	{ OPT_CPU, 'C', "cpu", "LIST", "only these CPUs (\"0-3,6\")" },
	{ OPT_COUNT, 'c', "count", "N", "sample every N events (with --sim: every N modeled "
	  "accesses, the periods then scaled to the whole run; see --sim-window)" },
	{ OPT_FREQ, 'F', "freq", "HZ", "sample at HZ per second (hardware events, default 4000)" },
	{ OPT_DATA, 'd', "data", NULL, "sample data addresses (always on; accepted as perf's -d)" },
	{ OPT_MMAP, 'm', "mmap-pages", "N", "ring buffer pages per CPU, a power of two (default "
	  "128)" },
	{ OPT_LIST, 0, "list", NULL, "print the memory events this machine offers and exit (without "
	  "a memory PMU: that it is missing, and what can be recorded instead)" },
	{ OPT_SIM, 0, "sim", NULL, "use the software collector: CMD must be built with "
	  "`lineup sim-flags` (no PMU needed)" },
	{ OPT_SIM_WINDOW, 0, "sim-window", "BURST/EVERY[/START]", "with --sim: after the "
	  "first START microseconds of CPU time (modeled exactly), model plain loads and stores "
	  "only inside windows of BURST microseconds that open once every EVERY, the same for all threads "
	  "(default 200/2000/10000: a tenth of the time; atomic RMWs and locks are always "
	  "modeled; sample periods are scaled to the whole run); 0 or exact: every access.  "
	  "Between windows the calls to the collector are patched out of CMD's code (x86-64)" },
	{ OPT_SIM_EXACT, 0, "sim-exact", NULL, "with --sim: model every access (--sim-window 0; "
	  "slower: 10-40x on tight loops)" },
	{ OPT_SIM_COUNT, 0, "sim-count", NULL, "with --sim: between windows, count the loads "
	  "instead of patching the calls out (sample periods from exact counts rather than CPU "
	  "time; slower: 12-20x on tight loops)" },
	{ OPT_SIM_TURNS, 0, "sim-turns", "N", "with --sim: the threads take turns every N modeled "
	  "accesses, handing one baton around, so that they interleave whatever the scheduler "
	  "does: on a busy machine, or one with fewer CPUs than threads, where they would "
	  "otherwise run at different times and show no contention (100 is a good value; "
	  "slower: they no longer run at the same time; with the sampled windows, the periods "
	  "estimated from CPU time count the waits for the baton as work: --sim-exact for "
	  "exact counts)" },
	CLI_OPTION_END
};

struct record_cli {
	const struct command *cmd;
	const char *output;
	const char *events[8];
	unsigned int nr_events;
	unsigned long long ldlat, count, freq, mmap_pages;
	unsigned long long sim_turns;
	bool all, user, kernel, list, sim, sim_count;
	const char *cpus;
	const char *sim_window; /* LINEUP_SIM_WINDOW for the collector, or NULL */
};

/* --sim-window: BURST/EVERY[/START] in microseconds, 0 < BURST <= EVERY <= 60 s, START <= 1 h;
 * or 0 / exact.  The runtime reads the same syntax from LINEUP_SIM_WINDOW. */
static int parse_sim_window(const struct command *cmd, const char *arg)
{
	unsigned long long v[3] = { 0, 0, 0 };
	const char *p = arg;
	int n = 0;

	if (!strcmp(arg, "0") || !strcmp(arg, "exact"))
		return 0;
	while (n < 3) {
		char *end;

		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[n++] = strtoull(p, &end, 10);
		if (errno)
			break;
		p = end;
		if (*p != '/')
			break;
		p++;
	}
	if (n >= 2 && !*p && p[-1] != '/' && v[0] && v[0] <= v[1] && v[1] <= 60000000ULL &&
	    v[2] <= 3600000000ULL)
		return 0;
	return cli__usage_error(cmd, "--sim-window: BURST/EVERY[/START] in microseconds "
				"(0 < BURST <= EVERY <= 60000000, e.g. 200/2000/10000), or 0 "
				"(exact) expected, not '%s'", arg);
}

static int record_option(void *ctx, int id, const char *arg)
{
	struct record_cli *o = ctx;

	switch (id) {
	case OPT_OUTPUT:
		o->output = arg;
		break;
	case OPT_EVENT:
		if (o->nr_events == 8)
			return cli__usage_error(o->cmd, "at most 8 events");
		o->events[o->nr_events++] = arg;
		break;
	case OPT_LDLAT:
		if (cli__parse_u64(o->cmd, "--ldlat", arg, &o->ldlat))
			return EXIT_USAGE;
		break;
	case OPT_ALL:
		o->all = true;
		break;
	case OPT_USER:
		o->user = true;
		break;
	case OPT_KERNEL:
		o->kernel = true;
		break;
	case OPT_CPU:
		o->cpus = arg;
		break;
	case OPT_COUNT:
		if (cli__parse_u64(o->cmd, "--count", arg, &o->count) || !o->count)
			return cli__usage_error(o->cmd, "--count: a positive number expected");
		break;
	case OPT_FREQ:
		if (cli__parse_u64(o->cmd, "--freq", arg, &o->freq) || !o->freq ||
		    o->freq > 1000000)
			return cli__usage_error(o->cmd, "--freq: 1 to 1000000 expected");
		break;
	case OPT_DATA:
		break;
	case OPT_MMAP:
		if (cli__parse_u64(o->cmd, "--mmap-pages", arg, &o->mmap_pages) ||
		    !o->mmap_pages || (o->mmap_pages & (o->mmap_pages - 1)) ||
		    o->mmap_pages > 65536)
			return cli__usage_error(o->cmd, "--mmap-pages: a power of two up to 65536");
		break;
	case OPT_LIST:
		o->list = true;
		break;
	case OPT_SIM:
		o->sim = true;
		break;
	case OPT_SIM_WINDOW:
		if (parse_sim_window(o->cmd, arg))
			return EXIT_USAGE;
		o->sim_window = arg;
		break;
	case OPT_SIM_EXACT:
		o->sim_window = "0";
		break;
	case OPT_SIM_COUNT:
		o->sim_count = true;
		break;
	case OPT_SIM_TURNS:
		if (cli__parse_u64(o->cmd, "--sim-turns", arg, &o->sim_turns) || !o->sim_turns)
			return cli__usage_error(o->cmd, "--sim-turns wants a number of accesses, "
						"1 or more (e.g. 100), not '%s'", arg);
		break;
	}
	return 0;
}

static const struct {
	const char *name;
	uint64_t config;
} software_events[] = {
	{ "cpu-clock", 0 },	   { "task-clock", 1 },	    { "page-faults", 2 },
	{ "faults", 2 },	   { "context-switches", 3 }, { "cs", 3 },
	{ "cpu-migrations", 4 }, { "migrations", 4 },	    { "minor-faults", 5 },
	{ "major-faults", 6 },
};

static void no_pmu_message(const struct pmu_mem *m)
{
	cli__error("this machine has no memory-sampling PMU (VMs and most clouds do not expose "
		   "one).\n  Looked for: %s.\n  Use the software collector instead: build the "
		   "program with `lineup sim-flags` and run `lineup record --sim -- PROG ARGS`;\n"
		   "  or record a software event that carries data addresses: "
		   "`lineup record -e page-faults -- PROG`.", m->looked_for);
}

/* Find the memory PMU once; 0 found, EXIT_RUNTIME (message printed) otherwise. */
static int memory_pmu(struct pmu_mem *m, bool *have, unsigned int ldlat)
{
	char err[512];
	int rc;

	if (*have)
		return 0;
	rc = pmu__find_mem_events(NULL, ldlat, m, err, sizeof(err));
	if (rc < 0) {
		cli__error("reading the PMUs in sysfs: %s", err);
		return EXIT_RUNTIME;
	}
	if (rc == 1) {
		no_pmu_message(m);
		return EXIT_RUNTIME;
	}
	*have = true;
	return 0;
}

static void add_pmu_event(struct recorder_opts *ro, const struct pmu_event *pe)
{
	struct recorder_event *e = &ro->events[ro->nr_events++];

	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", pe->name);
	e->type = pe->type;
	e->config = pe->config;
	e->config1 = pe->config1;
	e->config2 = pe->config2;
	e->precise_ip = pe->precise_ip;
	e->group_leader = pe->group_leader;
	e->aux = pe->aux;	/* Arm SPE: an AUX trace, decoded by the reader */
}

/* Turn the -e list into events; EXIT_OK or an exit code (message printed). */
static int resolve_events(struct record_cli *o, struct recorder_opts *ro)
{
	struct pmu_mem m;
	bool have = false;
	unsigned int ldlat = o->ldlat ? o->ldlat : 30;
	int rc;

	if (!o->nr_events)
		o->events[o->nr_events++] = "mem";
	for (unsigned int i = 0; i < o->nr_events; i++) {
		const char *name = o->events[i];
		const char *slash = strchr(name, '/');
		bool found = false;

		if (ro->nr_events >= 8)
			return cli__usage_error(o->cmd, "too many events");
		if (!strcmp(name, "mem") || !strcmp(name, "mem-loads") ||
		    !strcmp(name, "mem-stores")) {
			rc = memory_pmu(&m, &have, ldlat);
			if (rc)
				return rc;
			for (unsigned int k = 0; k < m.nr_events && ro->nr_events < 8; k++) {
				const struct pmu_event *pe = &m.events[k];

				/* mem-loads keeps its aux leader (the next event) */
				bool loads = pe->loads || pe->group_leader;

				if ((!strcmp(name, "mem-loads") && !loads) ||
				    (!strcmp(name, "mem-stores") && !pe->stores))
					continue;
				if (pe->group_leader && ro->nr_events >= 7)
					break;
				add_pmu_event(ro, pe);
				found = true;
			}
			if (!found) {
				cli__error("the %s PMU has no %s event", m.pmu, name);
				return EXIT_USAGE;
			}
			continue;
		}
		for (size_t k = 0; k < sizeof(software_events) / sizeof(software_events[0]); k++)
			if (!strcmp(name, software_events[k].name)) {
				struct recorder_event *e = &ro->events[ro->nr_events++];

				memset(e, 0, sizeof(*e));
				snprintf(e->name, sizeof(e->name), "%s", name);
				e->type = 1;	/* PERF_TYPE_SOFTWARE */
				e->config = software_events[k].config;
				found = true;
				break;
			}
		if (found)
			continue;
		if (!slash && strchr(name, ':')) {
			/* a tracepoint: its id from tracefs, its payload as RAW */
			struct recorder_event *e = &ro->events[ro->nr_events];
			const char *colon = strchr(name, ':');
			char sys[128], err[512];
			long long id;

			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
			id = tracefs__event_id(sys, colon + 1, err, sizeof(err));
			if (id < 0) {
				cli__error("event '%s': %s", name, err);
				return EXIT_USAGE;
			}
			memset(e, 0, sizeof(*e));
			snprintf(e->name, sizeof(e->name), "%s", name);
			e->type = 2;	/* PERF_TYPE_TRACEPOINT */
			e->config = id;
			e->raw = true;
			ro->nr_events++;
			continue;
		}
		if (slash) {
			/* PMU/terms/[modifiers]: P = highest precision */
			char pmu[64], terms[512];
			const char *end = strchr(slash + 1, '/');
			struct pmu_event pe = { 0 };
			char err[512];

			if (!end || (size_t)(slash - name) >= sizeof(pmu) ||
			    (size_t)(end - slash - 1) >= sizeof(terms))
				return cli__usage_error(o->cmd, "event '%s': PMU/TERMS/ expected",
							name);
			snprintf(pmu, sizeof(pmu), "%.*s", (int)(slash - name), name);
			snprintf(terms, sizeof(terms), "%.*s", (int)(end - slash - 1), slash + 1);
			if (pmu__type(pmu__sysfs_root(), pmu, &pe.type)) {
				cli__error("event '%s': no PMU named %s in %s/bus/event_source/devices",
					   name, pmu, pmu__sysfs_root());
				return EXIT_USAGE;
			}
			if (terms[0] &&
			    pmu__encode_terms(pmu__sysfs_root(), pmu, terms, &pe, err, sizeof(err))) {
				cli__error("event '%s': %s", name, err);
				return EXIT_USAGE;
			}
			snprintf(pe.name, sizeof(pe.name), "%s", name);
			pe.precise_ip = strchr(end + 1, 'P') ? 3 : (uint8_t)strspn(end + 1, "p");
			add_pmu_event(ro, &pe);
			continue;
		}
		return cli__usage_error(o->cmd, "unknown event '%s'", name);
	}
	for (unsigned int i = 0; i < ro->nr_events; i++) {
		ro->events[i].period = o->count;
		ro->events[i].freq = o->freq;
	}
	return EXIT_OK;
}

static int list_events(unsigned int ldlat)
{
	struct pmu_mem m;
	char err[512];
	int rc = pmu__find_mem_events(NULL, ldlat, &m, err, sizeof(err));
	static const char *const kinds[] = { "none", "Intel", "AMD IBS", "Arm SPE" };

	if (rc < 0) {
		cli__error("reading the PMUs in sysfs: %s", err);
		return EXIT_RUNTIME;
	}
	if (rc == 1) {
		/* What there is, and what is missing: a list, not an error. */
		printf("memory PMU: none (looked for: %s)\n", m.looked_for);
		printf("software events (-e NAME; of these only the faults carry a data "
		       "address):");
		for (size_t k = 0; k < sizeof(software_events) / sizeof(software_events[0]); k++)
			printf(" %s", software_events[k].name);
		printf("\ntracepoints (-e SYS:NAME, with their payload): as tracefs lists them, "
		       "e.g. kmem:kmem_cache_alloc\n"
		       "software collector: record --sim -- PROG, for a program built with "
		       "`lineup sim-flags` (no PMU needed)\n");
		return EXIT_OK;
	}
	printf("memory PMU: %s (%s)\n", m.pmu, kinds[m.kind]);
	for (unsigned int i = 0; i < m.nr_events; i++) {
		const struct pmu_event *e = &m.events[i];

		printf("  %-40s type=%u config=%#llx config1=%#llx config2=%#llx%s%s%s%s\n",
		       e->name, e->type, (unsigned long long)e->config,
		       (unsigned long long)e->config1, (unsigned long long)e->config2,
		       e->loads ? " loads" : "", e->stores ? " stores" : "", e->aux ? " aux" : "",
		       e->group_leader ? " group-leader" : "");
	}
	return EXIT_OK;
}

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* record --sim: the collector run (pipeline/sim_run.h), its result said. */
static int record_sim(const char *output, const struct sim_run_opts *so, int argc, char **argv)
{
	struct sim_run_result res;
	char err[2 * PATH_MAX + 256];
	int rc = sim_run__run(output, so, argc, argv, &res, err, sizeof(err));
	const struct sim_census *c = &res.census;

	if (res.status_text[0])
		fprintf(stderr, "lineup: record --sim: %s %s\n", argv[0], res.status_text);
	if (rc) {
		cli__error("%s", err);
		return rc;
	}
	fprintf(stderr, "[ lineup record --sim: wrote %s (%lld bytes; %ld load samples, %ld of "
			"them HITM; %ld store samples)",
		strcmp(output, "-") ? output : "standard output", res.size, c->loads, c->hitm,
		c->stores);
	if (c->has_overlap)
		fprintf(stderr, "; threads ran at the same time for %.1f ms of %.1f ms modeled "
				"(%.0f%%)",
			c->overlap_ns / 1e6, c->observed_ns / 1e6,
			c->observed_ns ? 100.0 * c->overlap_ns / c->observed_ns : 0.0);
	fprintf(stderr, " ]\n");
	if (res.no_contention[0])
		fprintf(stderr, "lineup: record --sim: %s\n", res.no_contention);
	return EXIT_OK;
}

static int record_run(const struct command *cmd, int argc, char **argv)
{
	struct record_cli o = { .cmd = cmd, .output = "perf.data" };
	struct recorder_opts ro = { 0 };
	struct recorder_stats st;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	const char **cmdline;
	void *tracing = NULL;
	size_t tracing_size = 0;
	struct sim_run_opts so;
	char err[1024];
	int rc, i = cli__parse(cmd, argc, argv, record_option, &o, &rc);

	if (i < 0)
		return rc;
	if (o.list)
		return list_events(o.ldlat ? o.ldlat : 30);
	if (o.sim) {
		if (o.nr_events || o.all || o.user || o.kernel || o.cpus || o.freq || o.mmap_pages ||
		    o.ldlat)
			return cli__usage_error(cmd, "--sim runs CMD under the software collector: -e, "
						"--ldlat, -a, -u, -k, -C, -F and -m do not apply (-c "
						"sets its sampling period)");
		so = (struct sim_run_opts){.period = o.count, .turns = o.sim_turns,
					   .window = o.sim_window, .count = o.sim_count};
		return record_sim(o.output, &so, argc - i, argv + i);
	}
	if (o.sim_window || o.sim_count || o.sim_turns)
		return cli__usage_error(cmd, "--sim-window, --sim-exact, --sim-count and --sim-turns "
					"go with --sim");
	if (o.user && o.kernel)
		return cli__usage_error(cmd, "-u and -k exclude each other");
	if (i >= argc && !o.all)
		return cli__usage_error(cmd, "no command to record (lineup record [OPTIONS] -- CMD "
					"ARGS), and no -a");
	rc = resolve_events(&o, &ro);
	if (rc)
		return rc;
	{
		/* TRACING_DATA for the tracepoints, so perf and lineup decode their payloads */
		const char *tps[8];
		unsigned int ntp = 0;
		char terr[512];

		for (unsigned int k = 0; k < ro.nr_events; k++)
			if (ro.events[k].type == 2)
				tps[ntp++] = ro.events[k].name;
		if (ntp && tracefs__tracing_data(tps, ntp, &tracing, &tracing_size, terr,
						 sizeof(terr))) {
			cli__error("record: tracing data: %s", terr);
			return EXIT_RUNTIME;
		}
		ro.tracing_data = tracing;
		ro.tracing_size = tracing_size;
	}
	/* As perf record does, before the workload runs: the directory takes a new file, an
	 * older recording becomes FILE.old, a directory, link or device at FILE is refused. */
	if (strcmp(o.output, "-") && perf_writer__prepare_output(o.output, err, sizeof(err))) {
		cli__error("record: %s", err);
		free(tracing);
		return EXIT_USAGE;
	}
	ro.output = o.output;
	ro.system_wide = o.all;
	ro.cpu_list = o.cpus;
	ro.exclude_kernel = o.user;
	ro.exclude_user = o.kernel;
	ro.mmap_pages = o.mmap_pages;
	ro.argv = i < argc ? argv + i : NULL;
	/* CMDLINE as perf writes it: the program, the subcommand, its arguments */
	cmdline = calloc(argc + 1, sizeof(*cmdline));
	if (!cmdline) {
		cli__error("out of memory");
		return EXIT_RUNTIME;
	}
	cmdline[0] = "lineup";
	for (int k = 0; k < argc; k++)
		cmdline[k + 1] = argv[k];
	ro.cmdline_argc = argc + 1;
	ro.cmdline = cmdline;
	ro.stop = &stop_requested;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = recorder__run(&ro, &st, err, sizeof(err));
	free(cmdline);
	free(tracing);
	/*
	 * The handlers stay until record returns: a second ^C (or timeout(1), which signals the
	 * process and then its group) landing while the summary is printed would otherwise kill
	 * a run that has already stopped and written its file, with status 130.
	 */
	if (rc) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		/* a program that cannot be run, an offline CPU: given wrongly; else a failure */
		cli__error("record: %s", err);
		return st.exec_errno || st.bad_options ? EXIT_USAGE : EXIT_RUNTIME;
	}
	fprintf(stderr, "[ lineup record: wrote %llu samples, %llu records (%llu bytes of data) "
		"to %s ]\n", (unsigned long long)st.samples, (unsigned long long)st.records,
		(unsigned long long)st.bytes, o.output);
	if (st.user_only)
		fprintf(stderr, "[ lineup record: perf_event_paranoid is %d: user-space samples "
			"only (events named NAME:u, as perf falls back) ]\n", st.paranoid);
	if (st.no_phys_addr)
		fputs("[ lineup record: no physical addresses (they need perf_event_paranoid <= 1 "
		      "or CAP_PERFMON): the PA cnt column stays 0 ]\n", stderr);
	if (st.aux_bytes)
		fprintf(stderr, "[ lineup record: %llu bytes of AUX trace (Arm SPE: lineup report "
			"decodes it into memory samples) ]\n", (unsigned long long)st.aux_bytes);
	if (st.aux_lost)
		fprintf(stderr, "[ lineup record: %llu bytes of AUX trace were overwritten before "
			"they were read ]\n", (unsigned long long)st.aux_lost);
	if (st.lost_samples)
		fprintf(stderr, "[ lineup record: the kernel lost %llu samples in %llu LOST "
			"records: try more --mmap-pages ]\n",
			(unsigned long long)st.lost_samples, (unsigned long long)st.lost_records);
	if (st.workload_run && st.workload_status) {
		char how[96];

		fprintf(stderr, "[ lineup record: %s %s ]\n", argv[i],
			workload__describe_status(st.workload_status, how, sizeof(how)));
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return EXIT_OK;
}

const struct command cmd_record = {
	.name = "record",
	.summary = "record memory accesses into perf.data (memory PMU, software event, or --sim)",
	.usage = "[-o FILE] [-e EVENT]... [--ldlat N] [-a] [-u|-k] [-C LIST] [--sim [--sim-window "
		 "BURST/EVERY[/START]|--sim-exact] [--sim-count] [--sim-turns N]] [-- CMD ARGS]",
	.description =
		"Record the memory accesses of CMD (or of every CPU with -a) into a standard "
		"perf.data that lineup and perf c2c report read. The default events are the "
		"machine's memory-sampling events found in sysfs (Intel cpu/mem-loads,ldlat=N/P "
		"and cpu/mem-stores/P, AMD ibs_op//), sampled with IP, TID, TIME, ADDR, CPU, "
		"PERIOD, DATA_SRC, WEIGHT and PHYS_ADDR, following CMD's threads; the file gets "
		"COMM/MMAP2/FORK records and the topology, NUMA, cache and build-id headers. "
		"Where the machine has no memory PMU (VMs, most clouds), it says so and exits with "
		"1: use --sim (the software collector) or a software event such as -e page-faults. "
		"The sysfs root is $LINEUP_SYSFS when set.",
	.options = record_options,
	.run = record_run,
};
