// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder (see recorder.h).  Ownership: everything allocated here is freed before
 * recorder__run returns; libperf objects live in struct rec and go in rec_cleanup().
 */
#include <config.h>

#include "sampling/recorder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sampling/arm_spe.h"
#include "sampling/aux_ring.h"
#include "sampling/event.h"
#include "sampling/host.h"
#include "sampling/perf_writer.h"
#include "sampling/workload.h"

#define MAX_DSOS 2048
#define AUX_AREA_BYTES (1u << 20)	/* AUX area per CPU (perf: 4 MiB root, 128 KiB user) */
#define AUX_PERIOD 4096			/* perf's default for arm_spe when sysfs says none */

struct rec {
	const struct recorder_opts *o;
	struct recorder_stats *st;
	char *err;
	size_t errlen;

	/* One evlist per group (Intel's {mem-loads-aux,mem-loads}), one for the other events;
	 * each has its own rings. */
	struct perf_evlist *evlists[8];
	char evlist_names[8][340];	/* for messages: "{a,b}" or "a, b" */
	bool mmapped[8];
	unsigned int nr_evlists;
	struct perf_evsel *evsel[8];
	struct perf_event_attr attr[8];
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct perf_writer *w;

	/* Event names as recorded: perf's fallback to user-only samples adds ":u". */
	char names[8][168];

	struct workload wl;	/* the command recorded (wl.pid 0: none) */

	/* Executable files mapped and the maps, so BUILD_ID lists the files samples hit, as
	 * perf record does. */
	char *dsos[MAX_DSOS];
	bool dso_hit[MAX_DSOS];
	unsigned int nr_dsos;
	struct xmap {
		uint32_t pid;
		uint64_t start, end;
		unsigned int dso;
	} *maps;
	size_t nr_maps, cap_maps, last_map;
	bool kernel_hit;
	uint64_t first_time, last_time;	/* SAMPLE_TIME, as perf record writes it */

	/* The AUX-area event (-1: none), opened per CPU here rather than by libperf, which
	 * does not map AUX areas: its fds and rings, read in drain(). */
	int aux_ev;
	int *aux_fd;
	struct aux_ring *aux_rings;
	int nr_aux;
};

static int rec_error(struct rec *r, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rec_error(struct rec *r, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return rc < 0 ? rc : -rc;
}

static int libperf_quiet(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

#if defined(__SANITIZE_ADDRESS__)
/*
 * libperf 6.1 never drops an evsel's references to its CPU and thread maps, nor its sample-id
 * arrays (perf_evsel__delete is a plain free; perf itself uses its own evsel__exit), so
 * LeakSanitizer would report them on every run.  Those are libperf's; ours are still checked.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:perf_evsel__alloc_id\nleak:perf_thread_map__realloc\n"
	       "leak:perf_cpu_map__alloc\nleak:perf_cpu_map__dummy_new\n";
}
#endif

/* ---- the workload ------------------------------------------------------------------ */

/*
 * Fork the workload held before exec, as perf does, so the events can be opened on its pid
 * first and enabled by its exec (enable_on_exec).
 */
static int start_workload(struct rec *r)
{
	struct workload_opts wo;
	int rc;

	workload_opts__init(&wo, r->o->argv);
	wo.hold = true;
	/* with -o - our stdout carries perf.data: the workload prints to stderr */
	if (!strcmp(r->o->output, "-"))
		wo.stdio[1] = STDERR_FILENO;
	rc = workload__prepare(&r->wl, &wo);
	if (rc)
		return rec_error(r, rc, "cannot start %s: %s", r->o->argv[0], strerror(-rc));
	return 0;
}

static int go_workload(struct rec *r)
{
	char msg[512];
	int rc = workload__start(&r->wl);

	if (rc) {
		/* the command could not be run: given wrongly (an exit 2), not a failure */
		r->st->exec_errno = r->wl.err;
		return rec_error(r, rc, "%s", r->wl.err ? workload__strerror(&r->wl, msg, sizeof(msg))
							 : strerror(-rc));
	}
	r->st->workload_run = true;
	return 0;
}

/* ---- events ------------------------------------------------------------------------ */

static void make_attr(const struct recorder_opts *o, unsigned int i, struct perf_event_attr *a)
{
	const struct recorder_event *e = &o->events[i];

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = e->type;
	a->config = e->config;
	a->config1 = e->config1;
	a->config2 = e->config2;
	a->precise_ip = e->precise_ip;
	/* What perf c2c/mem sample, with IDENTIFIER so several events can share a ring. */
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_PHYS_ADDR;
	if (e->raw)
		a->sample_type |= PERF_SAMPLE_RAW;
	a->read_format = PERF_FORMAT_ID;
	if (e->period) {
		a->sample_period = e->period;
	} else if (e->type == PERF_TYPE_SOFTWARE || e->type == PERF_TYPE_TRACEPOINT) {
		a->sample_period = 1;
	} else {
		a->freq = 1;
		a->sample_freq = e->freq ? e->freq : 4000;
	}
	a->sample_id_all = 1;
	a->exclude_kernel = o->exclude_kernel;
	a->exclude_user = o->exclude_user;
	a->exclude_hv = o->exclude_kernel;
	a->disabled = 1;
	if (o->argv && !o->system_wide) {
		/* follow the workload's threads from its exec on */
		a->inherit = 1;
		a->enable_on_exec = 1;
	}
	if (i == 0) {
		/* the side-band records come with the first event */
		a->mmap = 1;
		a->mmap2 = 1;
		a->mmap_data = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* an SPE trace without CONTEXT packets gets its threads from the switches, as
		 * perf record's arm_spe tracking event asks for them */
		for (unsigned int k = 0; k < o->nr_events; k++)
			if (o->events[k].aux)
				a->context_switch = 1;
	}
}

/* Append @sep and @name to the string in @dst (@size bytes), cutting what does not fit. */
static void name_append(char *dst, size_t size, const char *sep, const char *name)
{
	size_t len = strlen(dst);

	for (const char *p = sep; *p && len + 1 < size; p++)
		dst[len++] = *p;
	for (const char *p = name; *p && len + 1 < size; p++)
		dst[len++] = *p;
	dst[len] = '\0';
}

/* Exclude the kernel and hypervisor from event @i and name it as perf's fallback does. */
static void user_only(struct rec *r, unsigned int i)
{
	const char *name = r->o->events[i].name;
	size_t n = strlen(r->names[i]);

	if (r->attr[i].exclude_kernel || r->attr[i].exclude_user)
		return;
	r->attr[i].exclude_kernel = 1;
	r->attr[i].exclude_hv = 1;
	snprintf(r->names[i] + n, sizeof(r->names[i]) - n, "%su",
		 strchr(name, '/') || strchr(name, ':') ? "" : ":");
}

static int open_error(struct rec *r, const char *what, int rc)
{
	if (rc == -EACCES || rc == -EPERM)
		return rec_error(r, rc, "cannot open %s: %s (perf_event_paranoid is %d: run as root "
				 "or lower it)", what, strerror(-rc), paranoid());
	if (rc == -ENOENT || rc == -EOPNOTSUPP || rc == -ENODEV)
		return rec_error(r, rc, "cannot open %s: %s (this machine does not have that event)",
				 what, strerror(-rc));
	return rec_error(r, rc, "cannot open %s: %s", what, strerror(rc < 0 ? -rc : rc));
}

/*
 * The AUX-area event, one fd per CPU (following the workload's threads with inherit, or every
 * task), each with its ring and AUX area mapped, as perf record maps an arm_spe event.
 */
static int open_aux(struct rec *r)
{
	const struct recorder_event *e = &r->o->events[r->aux_ev];
	struct perf_event_attr *a = &r->attr[r->aux_ev];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int ncpu = perf_cpu_map__nr(r->cpus);
	pid_t pid = perf_thread_map__pid(r->threads, 0);
	unsigned int aux_pages = AUX_AREA_BYTES / page ? AUX_AREA_BYTES / page : 1;

	/* the SPE driver samples one operation every period; it has no frequency mode */
	a->freq = 0;
	a->sample_period = e->period ? e->period : AUX_PERIOD;
	r->aux_fd = calloc((size_t)ncpu, sizeof(*r->aux_fd));
	r->aux_rings = calloc((size_t)ncpu, sizeof(*r->aux_rings));
	if (!r->aux_fd || !r->aux_rings)
		return rec_error(r, -ENOMEM, "out of memory");
	for (int k = 0; k < ncpu; k++) {
		int cpu = perf_cpu_map__cpu(r->cpus, k).cpu, fd, rc;

		fd = (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			return open_error(r, e->name, -errno);
		rc = aux_ring__map(&r->aux_rings[k], fd, page,
				   r->o->mmap_pages ? r->o->mmap_pages : 128, aux_pages);
		if (rc) {
			close(fd);
			return rec_error(r, rc, "cannot map the AUX area of %s on CPU %d: %s",
					 e->name, cpu, strerror(-rc));
		}
		r->aux_fd[k] = fd;
		r->nr_aux = k + 1;
	}
	return 0;
}

static int open_events(struct rec *r)
{
	const struct recorder_opts *o = r->o;
	struct perf_evlist *plain = NULL;
	unsigned int plain_idx = 0;
	int rc;

	libperf_init(libperf_quiet);
	r->cpus = perf_cpu_map__new(o->cpu_list);
	if (!r->cpus) {
		r->st->bad_options = true;
		return rec_error(r, -EINVAL, "bad CPU list '%s'", o->cpu_list ? o->cpu_list : "");
	}
	if (o->cpu_list) {
		struct perf_cpu_map *online = perf_cpu_map__new(NULL);

		for (int k = 0; online && k < perf_cpu_map__nr(r->cpus); k++) {
			struct perf_cpu c = perf_cpu_map__cpu(r->cpus, k);

			if (!perf_cpu_map__has(online, c)) {
				perf_cpu_map__put(online);
				r->st->bad_options = true;
				return rec_error(r, -EINVAL, "CPU %d of '%s' is not online", c.cpu,
						 o->cpu_list);
			}
		}
		perf_cpu_map__put(online);
	}
	if (o->argv && !o->system_wide) {
		r->threads = perf_thread_map__new_dummy();
		if (r->threads)
			perf_thread_map__set_pid(r->threads, 0, r->wl.pid);
	} else {
		r->threads = perf_thread_map__new_dummy();	/* pid -1: every task */
	}
	if (!r->threads)
		return rec_error(r, -ENOMEM, "out of memory");

	/*
	 * Open each event alone first, stepping the precision down as perf does for /P.  Grouped
	 * events cannot open alone (mem-loads needs its aux leader): they keep their precision.
	 */
	for (unsigned int i = 0; i < o->nr_events; i++) {
		bool grouped = o->events[i].group_leader ||
			       (i > 0 && o->events[i - 1].group_leader);
		struct perf_evsel *ev;

		make_attr(o, i, &r->attr[i]);
		snprintf(r->names[i], sizeof(r->names[i]), "%s", o->events[i].name);
		if (r->st->no_phys_addr)
			r->attr[i].sample_type &= ~(uint64_t)PERF_SAMPLE_PHYS_ADDR;
		if (r->st->user_only)
			user_only(r, i);
		if (o->events[i].aux) {
			if (r->aux_ev >= 0) {
				r->st->bad_options = true;
				return rec_error(r, -EINVAL, "%s and %s: one AUX-area event at most",
						 o->events[r->aux_ev].name, o->events[i].name);
			}
			r->aux_ev = (int)i;
			continue;	/* opened by open_aux */
		}
		for (; !grouped;) {
			ev = perf_evsel__new(&r->attr[i]);
			if (!ev)
				return rec_error(r, -ENOMEM, "out of memory");
			rc = perf_evsel__open(ev, r->cpus, r->threads);
			if (!rc) {
				perf_evsel__close(ev);
				perf_evsel__delete(ev);
				break;
			}
			perf_evsel__delete(ev);
			if ((rc == -EACCES || rc == -EPERM) &&
			    (r->attr[i].sample_type & PERF_SAMPLE_PHYS_ADDR)) {
				/* A user without perf_allow_kernel: record without physical
				 * addresses, as every event must then (perf c2c's PA cnt is 0). */
				r->st->no_phys_addr = true;
				for (unsigned int k = 0; k < o->nr_events; k++)
					r->attr[k].sample_type &= ~(uint64_t)PERF_SAMPLE_PHYS_ADDR;
				continue;
			}
			if ((rc == -EACCES || rc == -EPERM) && !r->attr[i].exclude_kernel &&
			    !r->attr[i].exclude_user && paranoid() > 1) {
				/* perf's fallback: user-space samples only, every event */
				r->st->user_only = true;
				r->st->paranoid = paranoid();
				for (unsigned int k = 0; k <= i; k++)
					user_only(r, k);
				continue;
			}
			if ((rc == -EOPNOTSUPP || rc == -EINVAL) && r->attr[i].precise_ip) {
				r->attr[i].precise_ip--;
				continue;
			}
			return open_error(r, r->names[i], rc);
		}
	}

	/* Groups get their own evlist; the other events share the last one. */
	for (unsigned int i = 0; i < o->nr_events; i++) {
		struct perf_evlist *el;

		if (o->events[i].aux)
			continue;
		if (o->events[i].group_leader && i + 1 < o->nr_events) {
			el = perf_evlist__new();
			if (!el)
				return rec_error(r, -ENOMEM, "out of memory");
			name_append(r->evlist_names[r->nr_evlists], sizeof(r->evlist_names[0]),
				    "{", r->names[i]);
			name_append(r->evlist_names[r->nr_evlists], sizeof(r->evlist_names[0]),
				    ",", r->names[i + 1]);
			name_append(r->evlist_names[r->nr_evlists], sizeof(r->evlist_names[0]),
				    "}", "");
			r->evlists[r->nr_evlists++] = el;
			for (unsigned int k = i; k <= i + 1; k++) {
				r->evsel[k] = perf_evsel__new(&r->attr[k]);
				if (!r->evsel[k])
					return rec_error(r, -ENOMEM, "out of memory");
				perf_evlist__add(el, r->evsel[k]);
			}
			perf_evlist__set_leader(el);
			i++;
			continue;
		}
		if (!plain) {
			plain = perf_evlist__new();
			if (!plain)
				return rec_error(r, -ENOMEM, "out of memory");
			plain_idx = r->nr_evlists;
			r->evlists[r->nr_evlists++] = plain;
		}
		name_append(r->evlist_names[plain_idx], sizeof(r->evlist_names[0]),
			    r->evlist_names[plain_idx][0] ? ", " : "", r->names[i]);
		r->evsel[i] = perf_evsel__new(&r->attr[i]);
		if (!r->evsel[i])
			return rec_error(r, -ENOMEM, "out of memory");
		perf_evlist__add(plain, r->evsel[i]);
	}
	for (unsigned int k = 0; k < r->nr_evlists; k++) {
		struct perf_evlist *el = r->evlists[k];

		perf_evlist__set_maps(el, r->cpus, r->threads);
		rc = perf_evlist__open(el);
		if (rc)
			return open_error(r, r->evlist_names[k], rc);
		rc = perf_evlist__mmap(el, o->mmap_pages ? o->mmap_pages : 128);
		if (rc)
			return rec_error(r, rc, "cannot map the ring buffers: %s (try fewer "
					 "--mmap-pages)", strerror(rc < 0 ? -rc : rc));
		r->mmapped[k] = true;
	}
	return r->aux_ev >= 0 ? open_aux(r) : 0;
}

/* Register every event and its ids (one per CPU and thread) with the writer. */
static int describe_events(struct rec *r)
{
	int ncpu = perf_cpu_map__nr(r->cpus), nthr = perf_thread_map__nr(r->threads);

	for (unsigned int i = 0; i < r->o->nr_events; i++) {
		struct perf_writer_event we = { .name = r->names[i],
						.raw_attr = &r->attr[i],
						.raw_attr_size = sizeof(r->attr[i]) };
		uint64_t *ids = calloc((size_t)ncpu * nthr, sizeof(*ids));
		uint32_t n = 0;
		int idx;

		if (!ids)
			return rec_error(r, -ENOMEM, "out of memory");
		for (int c = 0; c < ncpu; c++) {
			uint64_t id;

			if ((int)i == r->aux_ev) {
				if (c < r->nr_aux && !ioctl(r->aux_fd[c], PERF_EVENT_IOC_ID, &id))
					ids[n++] = id;
				continue;
			}
			for (int t = 0; t < nthr; t++) {
				struct perf_counts_values v;

				if (!perf_evsel__read(r->evsel[i], c, t, &v))
					ids[n++] = v.id;
			}
		}
		if (!n) {
			free(ids);
			return rec_error(r, -EIO, "cannot read the sample ids of %s",
					 r->o->events[i].name);
		}
		we.ids = ids;
		we.nr_ids = n;
		idx = perf_writer__add_event(r->w, &we);
		free(ids);
		if (idx < 0)
			return rec_error(r, idx, "%s", perf_writer__strerror(r->w));
	}
	return 0;
}

/* ---- build-ids --------------------------------------------------------------------- */

/* An executable mapping of @name at [start, start + len) in @pid. */
static void note_dso(struct rec *r, uint32_t pid, uint64_t start, uint64_t len, const char *name)
{
	unsigned int i;

	if (!name[0] || name[0] == '[' || !strncmp(name, "//", 2))
		return;
	for (i = 0; i < r->nr_dsos; i++)
		if (!strcmp(r->dsos[i], name))
			break;
	if (i == r->nr_dsos) {
		if (r->nr_dsos == MAX_DSOS)
			return;
		r->dsos[i] = strdup(name);
		if (!r->dsos[i])
			return;
		r->nr_dsos++;
	}
	if (r->nr_maps == r->cap_maps) {
		size_t cap = r->cap_maps ? 2 * r->cap_maps : 256;
		struct xmap *m = realloc(r->maps, cap * sizeof(*m));

		if (!m)
			return;
		r->maps = m;
		r->cap_maps = cap;
	}
	r->maps[r->nr_maps++] = (struct xmap){ pid, start, start + len, i };
}

/* Mark the file a sample's IP falls in (newest mapping first: exec replaces maps). */
static void sample_hit(struct rec *r, const union perf_event *ev)
{
	const uint8_t *p = (const uint8_t *)ev;
	uint64_t ip;
	uint32_t pid;

	if (ev->header.size < 32)
		return;
	if ((ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		r->kernel_hit = true;
		return;
	}
	memcpy(&ip, p + 16, 8);		/* after the header and IDENTIFIER */
	memcpy(&pid, p + 24, 4);
	if (r->last_map < r->nr_maps) {
		const struct xmap *m = &r->maps[r->last_map];

		if (m->pid == pid && ip >= m->start && ip < m->end) {
			r->dso_hit[m->dso] = true;
			return;
		}
	}
	for (size_t i = r->nr_maps; i-- > 0;) {
		const struct xmap *m = &r->maps[i];

		if (m->pid == pid && ip >= m->start && ip < m->end) {
			r->dso_hit[m->dso] = true;
			r->last_map = i;
			return;
		}
	}
}

/* The running kernel's build-id, from the raw notes in /sys/kernel/notes. */
static void kernel_build_id(struct rec *r)
{
	uint8_t buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t pos = 0;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && pos + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;
		size_t desc;

		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		desc = pos + 12 + ((namesz + 3) & ~3u);
		if (namesz > 64 || descsz > 256 || desc + descsz > (size_t)n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + pos + 12, "GNU", 4)) {
			perf_writer__add_build_id(r->w, -1, CPUMODE_KERNEL, buf + desc,
						  descsz > 20 ? 20 : descsz, "[kernel.kallsyms]");
			return;
		}
		pos = desc + ((descsz + 3) & ~3u);
	}
}

static void add_build_ids(struct rec *r)
{
	for (unsigned int i = 0; i < r->nr_dsos; i++) {
		uint8_t bid[20];
		int n;

		/* an AUX trace is decoded later: every file may be hit (perf's buildid_all) */
		if (!r->dso_hit[i] && r->aux_ev < 0)
			continue;
		n = perf_writer__read_build_id(r->dsos[i], bid);
		if (n > 0)
			perf_writer__add_build_id(r->w, -1, CPUMODE_USER, bid, n, r->dsos[i]);
	}
	if (r->kernel_hit)
		kernel_build_id(r);
}

/* ---- synthesized records ----------------------------------------------------------- */

static void synth_sid(struct rec *r, struct sample *sid, uint32_t pid, uint32_t tid)
{
	memset(sid, 0, sizeof(*sid));
	sid->id = perf_writer__event_id(r->w, 0);
	sid->pid = pid;
	sid->tid = tid;
	sid->cpu = 0;
}

static int synth_map(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	struct rec *r = arg;
	struct sample sid;
	int rc;

	synth_sid(r, &sid, m->pid, m->pid == (uint32_t)-1 ? 0 : m->pid);
	rc = perf_writer__mmap(r->w, misc, m, &sid);
	if (!rc && m->pid != (uint32_t)-1 && (m->prot & PROT_EXEC))
		note_dso(r, m->pid, m->start, m->len, m->filename);
	return rc;
}

/* COMM for each thread and MMAP2 for each mapping of @pid, from /proc. */
static int synthesize_pid(struct rec *r, pid_t pid)
{
	char path[64];
	struct sample sid;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;	/* gone meanwhile */
	while ((de = readdir(d)) && !rc) {
		char comm[64];
		struct rec_comm c = { 0 };
		int tid = atoi(de->d_name);

		if (tid <= 0 || host__thread_comm(pid, tid, comm, sizeof(comm)) < 0)
			continue;
		c.pid = pid;
		c.tid = tid;
		c.comm = comm;
		synth_sid(r, &sid, pid, tid);
		rc = perf_writer__comm(r->w, &c, &sid);
	}
	closedir(d);
	if (rc)
		return rc;
	rc = proc_maps__for_each(NULL, pid, synth_map, r);
	return rc < 0 ? 0 : rc;		/* gone meanwhile */
}

static int synthesize(struct rec *r)
{
	DIR *d;
	struct dirent *de;
	/* The kernel and its modules, as perf synthesizes them: left out where kallsyms hides
	 * the addresses (kptr_restrict). */
	int rc = host__kernel_maps(NULL, NULL, synth_map, r);

	if (rc)
		return rc;

	if (r->o->argv && !r->o->system_wide)
		return synthesize_pid(r, r->wl.pid);
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d)) && !rc) {
		int pid = atoi(de->d_name);

		if (pid > 0)
			rc = synthesize_pid(r, pid);
	}
	closedir(d);
	return rc;
}

/* ---- the rings --------------------------------------------------------------------- */

static int handle(struct rec *r, const union perf_event *ev)
{
	const uint8_t *p = (const uint8_t *)ev;
	int rc;

	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		r->st->samples++;
		sample_hit(r, ev);
		if (ev->header.size >= 40) {
			uint64_t t;

			memcpy(&t, p + 32, 8);	/* header, IDENTIFIER, IP, TID, then TIME */
			if (!r->first_time || t < r->first_time)
				r->first_time = t;
			if (t > r->last_time)
				r->last_time = t;
		}
		break;
	case PERF_RECORD_LOST:
		r->st->lost_records++;
		r->st->lost_samples += ev->lost.lost;
		break;
	case PERF_RECORD_MMAP2:
		if (ev->header.size > 72 && (ev->mmap2.prot & PROT_EXEC))
			note_dso(r, ev->mmap2.pid, ev->mmap2.start, ev->mmap2.len,
				 (const char *)p + 72);
		break;
	case PERF_RECORD_MMAP:
		if (ev->header.size > 40 && !(ev->header.misc & PERF_RECORD_MISC_MMAP_DATA))
			note_dso(r, ev->mmap.pid, ev->mmap.start, ev->mmap.len, (const char *)p + 40);
		break;
	default:
		break;
	}
	r->st->records++;
	rc = perf_writer__raw_record(r->w, ev);
	if (rc)
		return rec_error(r, rc, "%s", perf_writer__strerror(r->w));
	return 0;
}

static int aux_record(void *ctx, const void *rec)
{
	return handle(ctx, rec);
}

/* The AUX-area event's rings: their records, then their trace. */
static int drain_aux(struct rec *r, bool *any)
{
	int rc = 0;

	for (int k = 0; k < r->nr_aux && !rc; k++) {
		uint64_t before = r->st->records + r->st->aux_bytes;

		rc = aux_ring__read_records(&r->aux_rings[k], aux_record, r);
		/* AUX data of CPU index k: queue k, that CPU */
		if (!rc) {
			rc = aux_ring__write(&r->aux_rings[k], r->w, (uint32_t)k,
					     perf_cpu_map__cpu(r->cpus, k).cpu, &r->st->aux_bytes,
					     &r->st->aux_lost);
			if (rc)
				rec_error(r, rc, "%s", perf_writer__strerror(r->w));
		}
		if (r->st->records + r->st->aux_bytes != before)
			*any = true;
	}
	return rc;
}

/* The first AUX ring's TIME_CONV (when the kernel offers one), then AUXTRACE_INFO. */
static int aux_header(struct rec *r)
{
	struct perf_writer_time_conv tc;
	uint64_t priv[ARM_SPE_PRIV_MAX];
	int rc = 0;

	if (r->aux_ev < 0 || !r->nr_aux)
		return 0;
	priv[ARM_SPE_PRIV_PMU_TYPE] = r->attr[r->aux_ev].type;
	priv[ARM_SPE_PRIV_PER_CPU_MMAPS] = 1;
	if (!aux_ring__time_conv(r->aux_rings[0].up, &tc))
		rc = perf_writer__time_conv(r->w, &tc);
	if (!rc)
		rc = perf_writer__auxtrace_info(r->w, ARM_SPE_AUXTRACE_TYPE, priv, ARM_SPE_PRIV_MAX);
	return rc ? rec_error(r, rc, "%s", perf_writer__strerror(r->w)) : 0;
}

/* Enable or disable the AUX-area event on every CPU. */
static void aux_enable(struct rec *r, bool on)
{
	for (int k = 0; k < r->nr_aux; k++)
		ioctl(r->aux_fd[k], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* Wait up to 100 ms for data in any ring. */
static void wait_data(struct rec *r)
{
	struct pollfd pfd[256];
	int n = 0;

	if (r->nr_evlists) {
		perf_evlist__poll(r->evlists[0], 100);	/* the others are drained alongside */
		return;
	}
	for (int k = 0; k < r->nr_aux && n < 256; k++)
		pfd[n++] = (struct pollfd){ .fd = r->aux_fd[k], .events = POLLIN };
	poll(pfd, (nfds_t)n, 100);
}

/* Read every ring once; a FINISHED_ROUND after a pass that found something. */
static int drain(struct rec *r)
{
	struct perf_mmap *map;
	bool any = false;
	int rc = drain_aux(r, &any);

	for (unsigned int k = 0; k < r->nr_evlists && !rc; k++) {
		for (map = perf_evlist__next_mmap(r->evlists[k], NULL, false); map && !rc;
		     map = perf_evlist__next_mmap(r->evlists[k], map, false)) {
			union perf_event *ev;

			if (perf_mmap__read_init(map) < 0)
				continue;
			while (!rc && (ev = perf_mmap__read_event(map))) {
				rc = handle(r, ev);
				perf_mmap__consume(map);
				any = true;
			}
			perf_mmap__read_done(map);
		}
	}
	if (!rc && any) {
		rc = perf_writer__finished_round(r->w);
		if (rc)
			rec_error(r, rc, "%s", perf_writer__strerror(r->w));
	}
	return rc;
}

static void rec_cleanup(struct rec *r)
{
	workload__end(&r->wl);	/* a held one exits; one still running is killed */
	for (unsigned int k = 0; k < r->nr_evlists; k++) {
		if (r->mmapped[k])
			perf_evlist__munmap(r->evlists[k]);
		perf_evlist__close(r->evlists[k]);
		perf_evlist__delete(r->evlists[k]);	/* deletes the evsels too */
	}
	for (int k = 0; k < r->nr_aux; k++) {
		aux_ring__unmap(&r->aux_rings[k]);
		close(r->aux_fd[k]);
	}
	free(r->aux_rings);
	free(r->aux_fd);
	perf_cpu_map__put(r->cpus);
	perf_thread_map__put(r->threads);
	perf_writer__delete(r->w);
	for (unsigned int i = 0; i < r->nr_dsos; i++)
		free(r->dsos[i]);
	free(r->maps);
}

int recorder__run(const struct recorder_opts *o, struct recorder_stats *st, char *err,
		  size_t errlen)
{
	struct rec r = { .o = o, .st = st, .err = err, .errlen = errlen, .aux_ev = -1,
			 .wl = WORKLOAD_INIT };
	int rc;

	memset(st, 0, sizeof(*st));
	if (!o->nr_events || o->nr_events > 8)
		return rec_error(&r, -EINVAL, "%u events: 1 to 8 expected", o->nr_events);
	if (!o->argv && !o->system_wide)
		return rec_error(&r, -EINVAL, "nothing to record: give a command or -a");
	if (o->argv) {
		rc = start_workload(&r);
		if (rc)
			goto out;
	}
	rc = open_events(&r);
	if (rc)
		goto out;
	r.w = perf_writer__new();
	if (!r.w) {
		rc = rec_error(&r, -ENOMEM, "out of memory");
		goto out;
	}
	rc = describe_events(&r);
	if (rc)
		goto out;
	/* The host facts first: pipe mode sends the header before the data. */
	perf_writer__fill_host(r.w, NULL);
	if (o->tracing_data)
		perf_writer__set_tracing_data(r.w, o->tracing_data, o->tracing_size);
	if (o->cmdline)
		perf_writer__set_cmdline(r.w, o->cmdline_argc, o->cmdline);
	if (!strcmp(o->output, "-"))
		rc = perf_writer__open_pipe(r.w, STDOUT_FILENO);
	else
		rc = perf_writer__open(r.w, o->output);
	if (rc) {
		rec_error(&r, rc, "%s", perf_writer__strerror(r.w));
		goto out;
	}
	rc = aux_header(&r);
	if (rc)
		goto out;
	rc = synthesize(&r);
	if (rc) {
		rec_error(&r, rc, "%s", perf_writer__strerror(r.w));
		goto out;
	}
	if (o->system_wide) {
		for (unsigned int k = 0; k < r.nr_evlists; k++)
			perf_evlist__enable(r.evlists[k]);
		aux_enable(&r, true);
	}
	if (o->argv) {
		rc = go_workload(&r);	/* per-task events: enabled by its exec */
		if (rc)
			goto out;
	}

	for (;;) {
		bool done = o->stop && *o->stop;

		rc = drain(&r);
		if (rc)
			goto out;
		if (o->argv && workload__wait(&r.wl, false, NULL) == 1) {
			st->workload_status = r.wl.status;
			done = true;
		}
		if (done)
			break;
		wait_data(&r);
	}
	for (unsigned int k = 0; k < r.nr_evlists; k++)
		perf_evlist__disable(r.evlists[k]);
	aux_enable(&r, false);
	rc = drain(&r);
	if (rc)
		goto out;

	add_build_ids(&r);
	if (r.first_time)
		perf_writer__set_sample_time(r.w, r.first_time, r.last_time);
	rc = perf_writer__close(r.w);
	if (rc) {
		rec_error(&r, rc, "%s", perf_writer__strerror(r.w));
		goto out;
	}
	st->bytes = perf_writer__data_size(r.w);
out:
	rec_cleanup(&r);
	return rc;
}
