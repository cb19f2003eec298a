// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.data out of the spool: the events, MMAP2 records for every mapping of the process
 * (text and data, from /proc/self/maps at exit, so that both sample IPs and data addresses
 * resolve), COMM/FORK for its threads, the spooled samples, one redundant-rmw sample per IP,
 * and the header features perf c2c needs.  The model's cores are the CPUs of the file:
 * NRCPUS and a single NUMA node list exactly the cores used, so a sample's cpu always indexes
 * perf's tables.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sampling/perf_writer.h"
#include "sampling/simrt/simrt.h"

#define MISC_MMAP_DATA (1u << 13)

static const char *const event_names[SIMRT_NR_EVENTS] = {
    [SIMRT_EV_LOAD] = "lineup-sim/mem-loads/P",
    [SIMRT_EV_STORE] = "lineup-sim/mem-stores/P",
    [SIMRT_EV_REDUNDANT] = "lineup-sim/redundant-rmw/",
    [SIMRT_EV_PAIR_HITM] = "lineup-sim/pair-hitm/",
    [SIMRT_EV_ALLOC] = "lineup-sim/alloc/",
    [SIMRT_EV_FREE] = "lineup-sim/free/",
    [SIMRT_EV_OVERLAP] = "lineup-sim/overlap/",
};

static ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = 0;
	return len;
}

static void write_maps(struct perf_writer *w, uint32_t pid)
{
	static char maps[1 << 20];
	ssize_t len = read_file("/proc/self/maps", maps, sizeof(maps));
	struct sample sid = {.pid = pid, .tid = pid};
	char *line, *save = NULL;

	if (len <= 0)
		return;
	for (line = strtok_r(maps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8];
		int off = 0;
		struct rec_mmap m;
		const char *name;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &off) < 7)
			continue;
		name = off ? line + off : "";
		if (!*name)
			name = "//anon";
		if (!strcmp(name, "[vvar]") || !strcmp(name, "[vsyscall]"))
			continue;
		m = (struct rec_mmap){
		    .pid = pid,
		    .tid = pid,
		    .start = start,
		    .len = end - start,
		    .pgoff = pgoff,
		    .is_mmap2 = true,
		    .maj = maj,
		    .min = min,
		    .ino = ino,
		    .prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) |
			    (perms[2] == 'x' ? 4 : 0),
		    .flags = perms[3] == 's' ? 1 : 2, /* MAP_SHARED : MAP_PRIVATE */
		    .filename = name,
		};
		perf_writer__mmap(w, CPUMODE_USER | (perms[2] == 'x' ? 0 : MISC_MMAP_DATA), &m,
				  &sid);
		if (perms[2] == 'x' && name[0] == '/') {
			/* BUILD_ID: perf and lineup then know a rebuilt binary from the recorded one. */
			uint8_t id[20];
			int n = perf_writer__read_build_id(name, id);

			if (n > 0)
				perf_writer__add_build_id(w, (int32_t)pid, CPUMODE_USER, id, (uint8_t)n,
							  name);
		}
	}
}

static void write_header(struct perf_writer *w, unsigned nr_cores)
{
	static char cmdline[65536];
	const char *argv[256];
	struct utsname u;
	static const uint64_t one_block = 1;
	char cpus[32];
	ssize_t len;
	int argc = 0;

	if (!uname(&u)) {
		perf_writer__set_string(w, FEAT_HOSTNAME, u.nodename);
		perf_writer__set_string(w, FEAT_OSRELEASE, u.release);
		perf_writer__set_string(w, FEAT_ARCH, u.machine);
	}
	perf_writer__set_string(w, FEAT_VERSION, "lineup-sim " PACKAGE_VERSION);
	perf_writer__set_string(w, FEAT_CPUDESC, "lineup software collector (one core per thread)");
	perf_writer__set_nrcpus(w, nr_cores, nr_cores);
	snprintf(cpus, sizeof(cpus), nr_cores > 1 ? "0-%u" : "0", nr_cores - 1);
	perf_writer__add_numa_node(w, 0, 0, 0, cpus);
	perf_writer__add_cache(w, 1, 64, 64, 8, "Data", "32K", cpus);
	/* One memory block on node 0: perf c2c otherwise warns "No memory nodes". */
	perf_writer__set_mem_block_size(w, 128ULL << 20);
	perf_writer__add_mem_node(w, 0, &one_block, 1);
	len = read_file("/proc/self/cmdline", cmdline, sizeof(cmdline));
	for (ssize_t i = 0; i < len && argc < 256; i += strlen(cmdline + i) + 1)
		argv[argc++] = cmdline + i;
	perf_writer__set_cmdline(w, argc, argv);
}

/* Call @fn on every spooled record. */
static void spool_each(int fd,
		       void (*fn)(struct perf_writer *w, const struct simrt_rec *r, uint32_t pid),
		       struct perf_writer *w, uint32_t pid)
{
	static struct simrt_rec chunk[4096];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(fd, chunk, sizeof(chunk), off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < (ssize_t)sizeof(chunk[0]))
			return;
		n /= sizeof(chunk[0]);
		for (ssize_t i = 0; i < n; i++)
			fn(w, &chunk[i], pid);
		off += n * sizeof(chunk[0]);
	}
}

/*
 * Each thread's seen/modeled ratios (SIMRT_REC_COUNTS), by tid: a sample's period times its
 * thread's ratio estimates what the whole run did, windows or not.  A tid reused by a later
 * thread adds its counts to the earlier one's.  Without counts (a full table), ratio 1.
 */
#define COUNT_SLOTS 8192

static struct thread_counts {
	uint32_t tid; /* 0: free */
	uint64_t seen[2], modeled[2]; /* [0] plain, [1] sync */
} counts[COUNT_SLOTS];
static bool scaled;

static struct thread_counts *counts_of(uint32_t tid, bool add)
{
	for (unsigned k = 0; k < COUNT_SLOTS; k++) {
		struct thread_counts *c = &counts[(tid * 2654435761u + k) % COUNT_SLOTS];

		if (c->tid == tid)
			return c;
		if (!c->tid) {
			if (!add)
				return NULL;
			c->tid = tid;
			return c;
		}
	}
	return NULL;
}

static uint64_t scale_period(const struct simrt_rec *r)
{
	unsigned cls = r->event & SIMRT_EV_SYNC ? 1 : 0;
	const struct thread_counts *c;
	double p;

	if (!scaled || !(r->event & (SIMRT_EV_PLAIN | SIMRT_EV_SYNC)))
		return r->period;
	c = counts_of(r->tid, false);
	if (!c || !c->modeled[cls] || c->seen[cls] <= c->modeled[cls])
		return r->period;
	p = (double)r->period * (double)c->seen[cls] / (double)c->modeled[cls];
	return p < 1 ? 1 : (uint64_t)(p + 0.5);
}

static void put_thread(struct perf_writer *w, const struct simrt_rec *r, uint32_t pid)
{
	struct sample sid = {.pid = pid, .tid = r->tid};
	char comm[17] = "";
	struct rec_comm c = {.pid = pid, .tid = r->tid, .comm = comm};
	struct rec_task t = {.pid = pid, .ppid = pid, .tid = r->tid, .ptid = pid};

	if (r->kind == SIMRT_REC_COUNTS) {
		struct thread_counts *tc = counts_of(r->tid, true);

		if (tc) {
			tc->seen[0] += r->ip;
			tc->modeled[0] += r->addr;
			tc->seen[1] += r->data_src;
			tc->modeled[1] += r->weight;
		}
		return;
	}
	if (r->kind != SIMRT_REC_THREAD)
		return;
	memcpy(comm, &r->ip, 16);
	if (r->tid != pid)
		perf_writer__task(w, REC_FORK, &t, &sid);
	perf_writer__comm(w, &c, &sid);
}

static void put_sample(struct perf_writer *w, const struct simrt_rec *r, uint32_t pid)
{
	struct sample s;
	unsigned ev = r->event & SIMRT_EV_MASK;

	if (r->kind != SIMRT_REC_SAMPLE || ev >= SIMRT_NR_EVENTS)
		return;
	s = (struct sample){
	    .evsel = ev,
	    .cpumode = CPUMODE_USER,
	    .ip = r->ip,
	    .pid = pid,
	    .tid = r->tid,
	    .time = r->time,
	    .addr = r->addr,
	    .id = perf_writer__event_id(w, ev),
	    .cpu = r->core,
	    .period = scale_period(r),
	    .weight = r->weight,
	    .data_src = r->data_src,
	};
	perf_writer__sample(w, &s);
}

int simrt__write_perf_data(const struct simrt_output *o, char *err, unsigned errlen)
{
	struct perf_writer *w = perf_writer__new();
	uint32_t pid = (uint32_t)getpid();
	unsigned nr_cores = o->nr_cores ? o->nr_cores : 1;
	uint64_t now = simrt__now();
	int rc = -ENOMEM, pipe_fd = -1;

	if (!w) {
		snprintf(err, errlen, "%s: out of memory", o->path);
		return rc;
	}
	for (int e = 0; e < SIMRT_NR_EVENTS; e++) {
		struct perf_writer_event ev = {
		    .name = event_names[e],
		    .type = PW_TYPE_RAW,
		    /* mem-loads / mem-stores' Intel raw codes; private codes for the rest */
		    .config = e == SIMRT_EV_LOAD    ? 0x1cd
			      : e == SIMRT_EV_STORE ? 0x2cd
						    : 0x4c00 + e,
		    .sample_period = o->period,
		    .sample_type = SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU |
				   SF_PERIOD | SF_WEIGHT | SF_DATA_SRC,
		    .precise_ip = e <= SIMRT_EV_STORE ? 2 : 0,
		    .sample_id_all = true,
		    .mmap = e == 0,
		    .mmap2 = e == 0,
		    .mmap_data = e == 0,
		    .comm = e == 0,
		    .task = e == 0,
		    .exclude_kernel = true,
		    .exclude_hv = true,
		};

		rc = perf_writer__add_event(w, &ev);
		if (rc < 0)
			goto out;
	}
	write_header(w, nr_cores);
	if (o->pipe) {
		/* A fresh file (an exec'ed image records again): O_EXCL never follows a link. */
		unlink(o->path);
		pipe_fd = open(o->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		rc = pipe_fd < 0 ? -errno : perf_writer__open_pipe(w, pipe_fd);
		if (pipe_fd < 0)
			snprintf(err, errlen, "%s: %s", o->path, strerror(-rc));
	} else {
		rc = perf_writer__open(w, o->path);
	}
	if (rc < 0)
		goto out;
	write_maps(w, pid);
	{
		static char comm[64];
		struct rec_comm c = {.pid = pid, .tid = pid, .exec = true, .comm = comm};
		struct sample sid = {.pid = pid, .tid = pid};

		if (read_file("/proc/self/comm", comm, sizeof(comm)) > 0)
			comm[strcspn(comm, "\n")] = 0;
		perf_writer__comm(w, &c, &sid);
	}
	scaled = !o->exact;
	if (o->spool_fd >= 0) {
		spool_each(o->spool_fd, put_thread, w, pid);
		spool_each(o->spool_fd, put_sample, w, pid);
	}
	for (unsigned i = 0; i < o->nr_rmw; i++) {
		const struct simrt_rmw *e = &o->rmw[i];
		struct sample s = {
		    .evsel = SIMRT_EV_REDUNDANT,
		    .cpumode = CPUMODE_USER,
		    .ip = e->ip,
		    .pid = pid,
		    .tid = pid,
		    .time = now,
		    .addr = e->addr,
		    .id = perf_writer__event_id(w, SIMRT_EV_REDUNDANT),
		    .period = e->redundant,
		    .weight = e->total,
		    .data_src = 1 /* PERF_MEM_OP_NA */,
		};

		if (e->redundant)
			perf_writer__sample(w, &s);
	}
	if (o->observed_ns) {
		struct sample s = {
		    .evsel = SIMRT_EV_OVERLAP,
		    .cpumode = CPUMODE_USER,
		    .pid = pid,
		    .tid = pid,
		    .time = now,
		    .id = perf_writer__event_id(w, SIMRT_EV_OVERLAP),
		    .period = o->observed_ns,
		    .weight = o->overlap_ns,
		    .data_src = 1 /* PERF_MEM_OP_NA */,
		};

		perf_writer__sample(w, &s);
	}
	rc = perf_writer__close(w);
out:
	if (rc < 0 && *perf_writer__strerror(w))
		snprintf(err, errlen, "%s", perf_writer__strerror(w));
	perf_writer__delete(w);
	if (pipe_fd >= 0 && close(pipe_fd) && !rc) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
	}
	return rc;
}
