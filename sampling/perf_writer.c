// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The perf.data writer.  The file is laid out as
 *
 *	[file header][data: records ...][feature section table][features][ids][attrs]
 *
 * The data is streamed through one fixed buffer; everything after it is written at close,
 * because perf finds the feature table at data.offset + data.size and the ids may grow until
 * then.  Only libc here (see the header): the software collector's runtime links this file.
 */
#include <config.h>

#include "sampling/perf_writer.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PW_MAGIC 0x32454c4946524550ULL	/* "PERFILE2" */
#define PW_HEADER_SIZE 104
#define PW_ATTR_SIZE 128		/* PERF_ATTR_SIZE_VER7, what perf 6.1 writes */
#define PW_BUF_SIZE (4u << 20)
#define PW_NAME_ALIGN 64
#define PW_MAX_RECORD 65535u

#define MISC_MMAP_BUILD_ID (1u << 14)
#define MISC_COMM_EXEC (1u << 13)
#define MISC_BUILD_ID_SIZE (1u << 15)

/* A growable byte buffer for the features. */
struct mbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

struct pw_event {
	uint8_t attr[PW_ATTR_SIZE];
	char *name;
	uint64_t *ids;
	uint32_t nr_ids, cap_ids;
	uint64_t sample_type, read_format, branch_sample_type, regs_user, regs_intr;
	bool sample_id_all;
	int id_pos, is_pos;
};

struct pw_numa {
	uint32_t node;
	uint64_t total, free;
	char *cpus;
};

struct pw_cache {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

struct pw_memnode {
	uint64_t node, nbits;
	uint64_t *set;
};

struct perf_writer {
	int fd;
	bool own_fd, opened, closed;
	bool pipe;			/* pipe mode: sequential writes, header records first */
	uint32_t pipe_sent;		/* features sent as HEADER_FEATURE records at open */
	size_t pipe_build_ids_sent;	/* bytes of build_ids sent */
	int err;
	char errmsg[512];
	char *path;
	char *tmp_path;		/* perf_writer__open's new file, renamed to path at close */

	uint8_t *buf;
	size_t buf_len;
	uint64_t off;		/* file offset of buf[0] */
	uint64_t data_offset;

	struct pw_event *ev;
	uint32_t nr_ev;
	uint64_t next_id;

	uint64_t nr_samples, nr_records;
	uint64_t first_time, last_time;
	bool have_time, have_sample_time;
	uint64_t st_first, st_last;

	/* features */
	char *str[FEAT_LAST];
	bool have_nrcpus;
	uint32_t nr_avail, nr_online;
	bool have_total_mem;
	uint64_t total_mem;
	char **cmdline;
	int nr_cmdline;
	bool have_topo;
	char **core_sibs, **thread_sibs, **die_sibs;
	uint32_t nr_core_sibs, nr_thread_sibs, nr_die_sibs, topo_cpus;
	uint32_t *core_id, *socket_id, *die_id;
	struct pw_numa *numa;
	uint32_t nr_numa;
	struct pw_cache *caches;
	uint32_t nr_caches;
	bool have_mem_topo;
	uint64_t mem_bsize;
	struct pw_memnode *mem;
	uint32_t nr_mem;
	struct mbuf build_ids;
	uint8_t *tracing;
	size_t tracing_size;
	/* AUXTRACE records written (file mode): the AUXTRACE feature's index */
	uint64_t *aux_index;	/* {file offset, size} pairs */
	size_t nr_aux_index, aux_index_cap;
};

static int pw_error(struct perf_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int pw_error(struct perf_writer *w, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* the file's name once there is one (perf_writer__open_fd has none) */
	n = w->path ? snprintf(w->errmsg, sizeof(w->errmsg), "%s: ", w->path) : 0;
	if (n < 0 || (size_t)n >= sizeof(w->errmsg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(w->errmsg + n, sizeof(w->errmsg) - n, fmt, ap);
	va_end(ap);
	if (err > 0)
		err = -err;
	if (!w->err && (err == -EIO || err == -ENOSPC || err == -EBADF || err == -EFBIG))
		w->err = err;	/* the file is broken from here on */
	return err;
}

static char *pw_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* ---- the byte buffer for features -------------------------------------------------- */

static void mbuf_add(struct mbuf *b, const void *p, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void mbuf_zero(struct mbuf *b, size_t n)
{
	static const uint8_t zero[64];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		mbuf_add(b, zero, k);
		n -= k;
	}
}

static void mbuf_u32(struct mbuf *b, uint32_t v)
{
	mbuf_add(b, &v, 4);
}

static void mbuf_u64(struct mbuf *b, uint64_t v)
{
	mbuf_add(b, &v, 8);
}

/* perf's do_write_string: u32 length (NUL included, padded to 64), then the padded bytes. */
static void mbuf_str(struct mbuf *b, const char *s)
{
	uint32_t olen = strlen(s) + 1;
	uint32_t len = (olen + PW_NAME_ALIGN - 1) / PW_NAME_ALIGN * PW_NAME_ALIGN;

	mbuf_u32(b, len);
	mbuf_add(b, s, olen);
	mbuf_zero(b, len - olen);
}

/* ---- setup ------------------------------------------------------------------------- */

struct perf_writer *perf_writer__new(void)
{
	struct perf_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = -1;
	w->next_id = 1;
	return w;
}

static void free_strv(char **v, uint32_t n)
{
	if (!v)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_topology(struct perf_writer *w)
{
	free_strv(w->core_sibs, w->nr_core_sibs);
	free_strv(w->thread_sibs, w->nr_thread_sibs);
	free_strv(w->die_sibs, w->nr_die_sibs);
	free(w->core_id);
	free(w->socket_id);
	free(w->die_id);
	w->core_sibs = w->thread_sibs = w->die_sibs = NULL;
	w->core_id = w->socket_id = w->die_id = NULL;
	w->nr_core_sibs = w->nr_thread_sibs = w->nr_die_sibs = 0;
	w->have_topo = false;
}

void perf_writer__delete(struct perf_writer *w)
{
	if (!w)
		return;
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	if (w->tmp_path)
		unlink(w->tmp_path);	/* never closed: nothing replaces the file at path */
	free(w->tmp_path);
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	free(w->ev);
	for (int i = 0; i < FEAT_LAST; i++)
		free(w->str[i]);
	free_strv(w->cmdline, w->nr_cmdline);
	free_topology(w);
	for (uint32_t i = 0; i < w->nr_numa; i++)
		free(w->numa[i].cpus);
	free(w->numa);
	for (uint32_t i = 0; i < w->nr_caches; i++) {
		free(w->caches[i].type);
		free(w->caches[i].size);
		free(w->caches[i].map);
	}
	free(w->caches);
	for (uint32_t i = 0; i < w->nr_mem; i++)
		free(w->mem[i].set);
	free(w->mem);
	free(w->build_ids.p);
	free(w->tracing);
	free(w->aux_index);
	free(w->buf);
	free(w->path);
	free(w);
}

const char *perf_writer__strerror(const struct perf_writer *w)
{
	return w->errmsg;
}

uint64_t perf_writer__nr_samples(const struct perf_writer *w)
{
	return w->nr_samples;
}

uint64_t perf_writer__data_size(const struct perf_writer *w)
{
	return w->off + w->buf_len - w->data_offset;
}

/* Where perf finds the id in a sample (from the start) and in a sample_id trailer (from the
 * end), as evsel__calc_id_pos computes them; -1 when there is none. */
static void calc_id_pos(struct pw_event *e)
{
	uint64_t t = e->sample_type;
	int idx = 0;

	if (t & SF_IDENTIFIER) {
		e->id_pos = 0;
	} else if (!(t & SF_ID)) {
		e->id_pos = -1;
	} else {
		if (t & SF_IP)
			idx++;
		if (t & SF_TID)
			idx++;
		if (t & SF_TIME)
			idx++;
		if (t & SF_ADDR)
			idx++;
		e->id_pos = idx;
	}
	idx = 1;
	if (t & SF_IDENTIFIER) {
		e->is_pos = 1;
	} else if (!(t & SF_ID)) {
		e->is_pos = -1;
	} else {
		if (t & SF_CPU)
			idx++;
		if (t & SF_STREAM_ID)
			idx++;
		e->is_pos = idx;
	}
}

int perf_writer__add_event(struct perf_writer *w, const struct perf_writer_event *ev)
{
	struct perf_event_attr *a;
	struct pw_event *e, *nev;

	if (w->opened)
		return pw_error(w, -EBUSY, "event %s added after the file was opened",
				ev->name ? ev->name : "?");
	nev = realloc(w->ev, (w->nr_ev + 1) * sizeof(*w->ev));
	if (!nev)
		return pw_error(w, -ENOMEM, "out of memory adding an event");
	w->ev = nev;
	e = &w->ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	a = (struct perf_event_attr *)e->attr;
	if (ev->raw_attr) {
		size_t n = ev->raw_attr_size < PW_ATTR_SIZE ? ev->raw_attr_size : PW_ATTR_SIZE;

		if (n < PERF_ATTR_SIZE_VER0)
			return pw_error(w, -EINVAL, "raw attr of %u bytes, less than the %d of the "
					"first ABI", ev->raw_attr_size, PERF_ATTR_SIZE_VER0);
		memcpy(e->attr, ev->raw_attr, n);
	} else {
		a->type = ev->type;
		a->config = ev->config;
		a->config1 = ev->config1;
		a->config2 = ev->config2;
		a->sample_period = ev->sample_period;
		a->sample_type = ev->sample_type;
		a->read_format = ev->read_format;
		a->branch_sample_type = ev->branch_sample_type;
		a->sample_regs_user = ev->sample_regs_user;
		a->sample_regs_intr = ev->sample_regs_intr;
		a->sample_stack_user = ev->sample_stack_user;
		a->precise_ip = ev->precise_ip & 3;
		a->freq = ev->freq;
		a->disabled = ev->disabled;
		a->inherit = ev->inherit;
		a->exclude_user = ev->exclude_user;
		a->exclude_kernel = ev->exclude_kernel;
		a->exclude_hv = ev->exclude_hv;
		a->exclude_idle = ev->exclude_idle;
		a->mmap = ev->mmap;
		a->mmap2 = ev->mmap2;
		a->mmap_data = ev->mmap_data;
		a->comm = ev->comm;
		a->comm_exec = ev->comm_exec;
		a->task = ev->task;
		a->sample_id_all = ev->sample_id_all;
		a->enable_on_exec = ev->enable_on_exec;
	}
	a->size = PW_ATTR_SIZE;
	e->sample_type = a->sample_type;
	e->read_format = a->read_format;
	e->branch_sample_type = a->branch_sample_type;
	e->regs_user = a->sample_regs_user;
	e->regs_intr = a->sample_regs_intr;
	e->sample_id_all = a->sample_id_all;
	calc_id_pos(e);

	if (w->nr_ev) {
		const struct pw_event *f = &w->ev[0];

		if (f->sample_id_all != e->sample_id_all)
			return pw_error(w, -EINVAL, "event %s: sample_id_all differs from the first "
					"event's (perf requires all equal)", ev->name ? ev->name : "?");
		if (e->id_pos < 0 || e->is_pos < 0 || f->id_pos != e->id_pos ||
		    f->is_pos != e->is_pos)
			return pw_error(w, -EINVAL, "event %s: with several events each must carry "
					"its id at the same place (use SF_IDENTIFIER)",
					ev->name ? ev->name : "?");
	}
	e->name = pw_strdup(ev->name ? ev->name : "unknown");
	if (!e->name)
		return pw_error(w, -ENOMEM, "out of memory adding an event");
	w->nr_ev++;
	if (ev->nr_ids) {
		for (uint32_t i = 0; i < ev->nr_ids; i++) {
			int rc = perf_writer__add_id(w, w->nr_ev - 1, ev->ids[i]);

			if (rc)
				return rc;
		}
	} else {
		int rc = perf_writer__add_id(w, w->nr_ev - 1, w->next_id);

		if (rc)
			return rc;
	}
	return w->nr_ev - 1;
}

int perf_writer__add_c2c_events(struct perf_writer *w, unsigned int ldlat,
				uint64_t extra_sample_type, int *load, int *store)
{
	char name[64];
	struct perf_writer_event ev = {
		.name = name,
		.type = PW_TYPE_RAW,
		.config = 0x1cd,	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
		.config1 = ldlat,
		.sample_type = SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU |
			       SF_PERIOD | SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR | extra_sample_type,
		.sample_period = 1,
		.precise_ip = 2,
		.sample_id_all = true,
		.mmap = true, .mmap2 = true, .mmap_data = true, .comm = true, .comm_exec = true,
		.task = true,
	};
	int l, st;

	snprintf(name, sizeof(name), "cpu/mem-loads,ldlat=%u/P", ldlat);
	l = perf_writer__add_event(w, &ev);
	if (l < 0)
		return l;
	ev.name = "cpu/mem-stores/P";
	ev.config = 0x82d0;	/* MEM_INST_RETIRED.ALL_STORES */
	ev.config1 = 0;
	ev.mmap = ev.mmap2 = ev.mmap_data = ev.comm = ev.comm_exec = ev.task = false;
	st = perf_writer__add_event(w, &ev);
	if (st < 0)
		return st;
	if (load)
		*load = l;
	if (store)
		*store = st;
	return 0;
}

int perf_writer__add_id(struct perf_writer *w, int evsel, uint64_t id)
{
	struct pw_event *e;

	if (evsel < 0 || (uint32_t)evsel >= w->nr_ev)
		return pw_error(w, -EINVAL, "no event %d", evsel);
	e = &w->ev[evsel];
	if (e->nr_ids == e->cap_ids) {
		uint32_t cap = e->cap_ids ? 2 * e->cap_ids : 4;
		uint64_t *p = realloc(e->ids, cap * sizeof(*p));

		if (!p)
			return pw_error(w, -ENOMEM, "out of memory adding an id");
		e->ids = p;
		e->cap_ids = cap;
	}
	e->ids[e->nr_ids++] = id;
	if (id >= w->next_id)
		w->next_id = id + 1;
	return 0;
}

uint64_t perf_writer__event_id(const struct perf_writer *w, int evsel)
{
	if (evsel < 0 || (uint32_t)evsel >= w->nr_ev || !w->ev[evsel].nr_ids)
		return 0;
	return w->ev[evsel].ids[0];
}

/* ---- output ------------------------------------------------------------------------ */

static int pw_pwrite(struct perf_writer *w, const void *p, size_t n, uint64_t off)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t k = w->pipe ? write(w->fd, b, n) : pwrite(w->fd, b, n, off);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return pw_error(w, errno, "write of %zu bytes at offset %llu failed: %s", n,
					(unsigned long long)off, strerror(errno));
		}
		b += k;
		n -= k;
		off += k;
	}
	return 0;
}

static int pw_flush(struct perf_writer *w)
{
	int rc;

	if (!w->buf_len)
		return 0;
	rc = pw_pwrite(w, w->buf, w->buf_len, w->off);
	if (rc)
		return rc;
	w->off += w->buf_len;
	w->buf_len = 0;
	return 0;
}

/* Room for @n bytes at the end of the buffer; NULL (error set) on failure. */
static uint8_t *pw_reserve(struct perf_writer *w, size_t n)
{
	if (w->err)
		return NULL;
	if (!w->opened || w->closed) {
		pw_error(w, -EBADF, "record written to a writer that is not open");
		return NULL;
	}
	if (w->buf_len + n > PW_BUF_SIZE && pw_flush(w))
		return NULL;
	return w->buf + w->buf_len;
}

int perf_writer__open_fd(struct perf_writer *w, int fd)
{
	uint8_t hdr[PW_HEADER_SIZE] = { 0 };

	if (w->opened)
		return pw_error(w, -EBUSY, "writer already open");
	if (!w->nr_ev)
		return pw_error(w, -EINVAL, "no event added before open");
	w->buf = malloc(PW_BUF_SIZE);
	if (!w->buf)
		return pw_error(w, -ENOMEM, "out of memory for the output buffer");
	w->fd = fd;
	w->opened = true;
	if (ftruncate(fd, 0) && errno != EINVAL)
		return pw_error(w, errno, "cannot truncate: %s", strerror(errno));
	/* Provisional header: magic and sizes; data.size 0 marks it unfinished. */
	memcpy(hdr, &(uint64_t){ PW_MAGIC }, 8);
	memcpy(hdr + 8, &(uint64_t){ PW_HEADER_SIZE }, 8);
	memcpy(hdr + 16, &(uint64_t){ PW_ATTR_SIZE + 16 }, 8);
	if (pw_pwrite(w, hdr, sizeof(hdr), 0))
		return w->err ? w->err : -EIO;
	w->data_offset = PW_HEADER_SIZE;
	w->off = PW_HEADER_SIZE;
	return 0;
}

/* @path's directory part ("." when none), malloc'ed; NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	char *d = malloc(n + 2);

	if (!d)
		return NULL;
	if (!slash)
		strcpy(d, ".");
	else if (!n)
		strcpy(d, "/");
	else
		memcpy(d, path, n), d[n] = 0;
	return d;
}

/*
 * A new file beside @path, "DIR/.NAME.XXXXXX": created with O_EXCL (mkostemp), so no link
 * planted at a name can redirect it, mode 0600 as perf's.  The fd, or -errno.
 */
static int create_beside(const char *path, char **tmp)
{
	const char *base = strrchr(path, '/');
	char *dir = dir_of(path);
	size_t n;
	int fd;

	*tmp = NULL;
	if (!dir)
		return -ENOMEM;
	base = base ? base + 1 : path;
	n = strlen(dir) + strlen(base) + 10;
	*tmp = malloc(n);
	if (!*tmp) {
		free(dir);
		return -ENOMEM;
	}
	snprintf(*tmp, n, "%s/.%s.XXXXXX", dir, base);
	free(dir);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(*tmp);
		*tmp = NULL;
		return -e;
	}
	return fd;
}

int perf_writer__open(struct perf_writer *w, const char *path)
{
	struct stat st;
	char *tmp;
	int fd;

	free(w->path);
	w->path = pw_strdup(path);
	if (!w->path)
		return pw_error(w, -ENOMEM, "out of memory");
	if (!*path || path[strlen(path) - 1] == '/')
		return pw_error(w, -EISDIR, "cannot create: a file name is needed, not a directory");
	/* (a symbolic link at @path is replaced at close, never written through) */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return pw_error(w, S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST,
				"cannot create: it exists and is not a regular file");
	fd = create_beside(path, &tmp);
	if (fd < 0)
		return pw_error(w, fd, "cannot create: %s", strerror(-fd));
	w->tmp_path = tmp;
	w->own_fd = true;
	return perf_writer__open_fd(w, fd);
}

int perf_writer__prepare_output(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *tmp, *old;
	int fd;

	if (!*path || path[strlen(path) - 1] == '/') {
		snprintf(err, errlen, "%s: a file name is needed, not a directory", path);
		return -EISDIR;
	}
	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a regular file (%s): not replacing it",
			 path, S_ISDIR(st.st_mode) ? "a directory" : S_ISLNK(st.st_mode) ?
			 "a symbolic link" : "a device, FIFO or socket");
		return -EEXIST;
	}
	/* The directory must take a new file: said now, not after the run. */
	fd = create_beside(path, &tmp);
	if (fd < 0) {
		char *dir = dir_of(path);

		snprintf(err, errlen, "cannot write %s: %s (a new file in %s)", path, strerror(-fd),
			 dir ? dir : "its directory");
		free(dir);
		return fd;
	}
	close(fd);
	unlink(tmp);
	free(tmp);
	if (lstat(path, &st) || !st.st_size)
		return 0;
	old = malloc(strlen(path) + 5);
	if (!old) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sprintf(old, "%s.old", path);
	if (rename(path, old)) {
		int e = errno;

		snprintf(err, errlen, "cannot move %s to %s: %s", path, old, strerror(e));
		free(old);
		return -e;
	}
	free(old);
	return 0;
}

/* ---- records ----------------------------------------------------------------------- */

static inline uint8_t *put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

static inline uint8_t *put32x2(uint8_t *p, uint32_t a, uint32_t b)
{
	memcpy(p, &a, 4);
	memcpy(p + 4, &b, 4);
	return p + 8;
}

static inline void put_header(uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
}

static size_t read_words(const struct pw_event *e, const struct sample *s)
{
	uint64_t rf = e->read_format;
	size_t n = 1 + !!(rf & PW_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PW_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & PW_FORMAT_GROUP)
		n += s->read_nr * (1 + !!(rf & PW_FORMAT_ID) + !!(rf & PW_FORMAT_LOST));
	else
		n += !!(rf & PW_FORMAT_ID) + !!(rf & PW_FORMAT_LOST);
	return n;
}

static uint32_t raw_padded(uint32_t size)
{
	return (size + 4 + 7) / 8 * 8 - 4;
}

/* Bytes of the sample body (without the 8-byte header). */
static uint64_t sample_size(const struct pw_event *e, const struct sample *s)
{
	uint64_t t = e->sample_type, n = 0;

	n += 8 * (!!(t & SF_IDENTIFIER) + !!(t & SF_IP) + !!(t & SF_TID) + !!(t & SF_TIME) +
		  !!(t & SF_ADDR) + !!(t & SF_ID) + !!(t & SF_STREAM_ID) + !!(t & SF_CPU) +
		  !!(t & SF_PERIOD) + !!(t & (SF_WEIGHT | SF_WEIGHT_STRUCT)) +
		  !!(t & SF_DATA_SRC) + !!(t & SF_TRANSACTION) + !!(t & SF_PHYS_ADDR) +
		  !!(t & SF_CGROUP) + !!(t & SF_DATA_PAGE_SIZE) + !!(t & SF_CODE_PAGE_SIZE));
	if (t & SF_READ)
		n += 8 * (uint64_t)read_words(e, s);
	if (t & SF_CALLCHAIN)
		n += 8 + 8 * s->callchain_nr;
	if (t & SF_RAW)
		n += 4 + (uint64_t)raw_padded(s->raw_size);
	if (t & SF_BRANCH_STACK)
		n += 8 + !!(e->branch_sample_type & PW_BRANCH_HW_INDEX) * 8 + 24 * s->branch_nr;
	if (t & SF_REGS_USER)
		n += 8 + (s->regs_user_abi ? 8 * (uint64_t)__builtin_popcountll(e->regs_user) : 0);
	if (t & SF_STACK_USER)
		n += 8 + (s->stack_user_size ? s->stack_user_size + 8 : 0);
	if (t & SF_REGS_INTR)
		n += 8 + (s->regs_intr_abi ? 8 * (uint64_t)__builtin_popcountll(e->regs_intr) : 0);
	if (t & SF_AUX)
		n += 8;
	return n;
}

static const void *nz(const void *p)
{
	static const uint64_t zeros[1];

	return p ? p : zeros;
}

static int check_arrays(struct perf_writer *w, const struct pw_event *e, const struct sample *s)
{
	uint64_t t = e->sample_type;

	if ((t & SF_CALLCHAIN) && s->callchain_nr && !s->callchain)
		return pw_error(w, -EINVAL, "sample %llu: callchain_nr %llu without callchain",
				(unsigned long long)w->nr_samples,
				(unsigned long long)s->callchain_nr);
	if ((t & SF_RAW) && s->raw_size && !s->raw)
		return pw_error(w, -EINVAL, "sample %llu: raw_size without raw data",
				(unsigned long long)w->nr_samples);
	if ((t & SF_BRANCH_STACK) && s->branch_nr && !s->branch_entries)
		return pw_error(w, -EINVAL, "sample %llu: branch_nr without entries",
				(unsigned long long)w->nr_samples);
	if ((t & SF_REGS_USER) && s->regs_user_abi && e->regs_user && !s->regs_user)
		return pw_error(w, -EINVAL, "sample %llu: REGS_USER without registers",
				(unsigned long long)w->nr_samples);
	if ((t & SF_REGS_INTR) && s->regs_intr_abi && e->regs_intr && !s->regs_intr)
		return pw_error(w, -EINVAL, "sample %llu: REGS_INTR without registers",
				(unsigned long long)w->nr_samples);
	if ((t & SF_STACK_USER) && s->stack_user_size) {
		if (s->stack_user_size % 8)
			return pw_error(w, -EINVAL, "sample %llu: STACK_USER size %llu is not a "
					"multiple of 8", (unsigned long long)w->nr_samples,
					(unsigned long long)s->stack_user_size);
		if (!s->stack_user)
			return pw_error(w, -EINVAL, "sample %llu: STACK_USER without data",
					(unsigned long long)w->nr_samples);
	}
	if ((t & SF_READ) && !s->read_values)
		return pw_error(w, -EINVAL, "sample %llu: READ without read_values",
				(unsigned long long)w->nr_samples);
	return 0;
}

int perf_writer__sample(struct perf_writer *w, const struct sample *s)
{
	const struct pw_event *e;
	uint64_t t, body;
	uint8_t *p, *start;

	if (s->evsel >= w->nr_ev)
		return pw_error(w, -EINVAL, "sample %llu: no event %u",
				(unsigned long long)w->nr_samples, s->evsel);
	e = &w->ev[s->evsel];
	t = e->sample_type;
	body = sample_size(e, s);
	if (body + 8 > PW_MAX_RECORD)
		return pw_error(w, -EMSGSIZE, "sample %llu: %llu bytes, more than a record holds",
				(unsigned long long)w->nr_samples, (unsigned long long)body + 8);
	if (t & (SF_CALLCHAIN | SF_RAW | SF_BRANCH_STACK | SF_REGS_USER | SF_REGS_INTR |
		 SF_STACK_USER | SF_READ)) {
		int rc = check_arrays(w, e, s);

		if (rc)
			return rc;
	}
	start = p = pw_reserve(w, body + 8);
	if (!p)
		return w->err;
	put_header(p, REC_SAMPLE, (s->misc & ~CPUMODE_MASK) | (s->cpumode & CPUMODE_MASK),
		   body + 8);
	p += 8;
	if (t & SF_IDENTIFIER)
		p = put64(p, s->id);
	if (t & SF_IP)
		p = put64(p, s->ip);
	if (t & SF_TID)
		p = put32x2(p, s->pid, s->tid);
	if (t & SF_TIME)
		p = put64(p, s->time);
	if (t & SF_ADDR)
		p = put64(p, s->addr);
	if (t & SF_ID)
		p = put64(p, s->id);
	if (t & SF_STREAM_ID)
		p = put64(p, s->stream_id);
	if (t & SF_CPU)
		p = put32x2(p, s->cpu, s->res);
	if (t & SF_PERIOD)
		p = put64(p, s->period);
	if (t & SF_READ) {
		size_t n = read_words(e, s) * 8;

		memcpy(p, s->read_values, n);
		p += n;
	}
	if (t & SF_CALLCHAIN) {
		p = put64(p, s->callchain_nr);
		memcpy(p, nz(s->callchain), 8 * s->callchain_nr);
		p += 8 * s->callchain_nr;
	}
	if (t & SF_RAW) {
		uint32_t padded = raw_padded(s->raw_size);

		memcpy(p, &padded, 4);
		memcpy(p + 4, nz(s->raw), s->raw_size);
		memset(p + 4 + s->raw_size, 0, padded - s->raw_size);
		p += 4 + padded;
	}
	if (t & SF_BRANCH_STACK) {
		p = put64(p, s->branch_nr);
		if (e->branch_sample_type & PW_BRANCH_HW_INDEX)
			p = put64(p, s->branch_hw_idx);
		memcpy(p, nz(s->branch_entries), 24 * s->branch_nr);
		p += 24 * s->branch_nr;
	}
	if (t & SF_REGS_USER) {
		p = put64(p, s->regs_user_abi);
		if (s->regs_user_abi) {
			size_t n = 8 * (size_t)__builtin_popcountll(e->regs_user);

			memcpy(p, nz(s->regs_user), n);
			p += n;
		}
	}
	if (t & SF_STACK_USER) {
		p = put64(p, s->stack_user_size);
		if (s->stack_user_size) {
			memcpy(p, s->stack_user, s->stack_user_size);
			p += s->stack_user_size;
			p = put64(p, s->stack_user_dyn_size);
		}
	}
	if (t & SF_WEIGHT_STRUCT) {
		uint32_t w32 = s->weight;

		memcpy(p, &w32, 4);
		memcpy(p + 4, &s->ins_lat, 2);
		memcpy(p + 6, &s->retire_lat, 2);
		p += 8;
	} else if (t & SF_WEIGHT) {
		p = put64(p, s->weight);
	}
	if (t & SF_DATA_SRC)
		p = put64(p, s->data_src);
	if (t & SF_TRANSACTION)
		p = put64(p, s->transaction);
	if (t & SF_REGS_INTR) {
		p = put64(p, s->regs_intr_abi);
		if (s->regs_intr_abi) {
			size_t n = 8 * (size_t)__builtin_popcountll(e->regs_intr);

			memcpy(p, nz(s->regs_intr), n);
			p += n;
		}
	}
	if (t & SF_PHYS_ADDR)
		p = put64(p, s->phys_addr);
	if (t & SF_CGROUP)
		p = put64(p, s->cgroup);
	if (t & SF_DATA_PAGE_SIZE)
		p = put64(p, s->data_page_size);
	if (t & SF_CODE_PAGE_SIZE)
		p = put64(p, s->code_page_size);
	if (t & SF_AUX)
		p = put64(p, 0);
	w->buf_len += p - start;
	w->nr_samples++;
	w->nr_records++;
	if (t & SF_TIME) {
		if (!w->have_time || s->time < w->first_time)
			w->first_time = s->time;
		if (!w->have_time || s->time > w->last_time)
			w->last_time = s->time;
		w->have_time = true;
	}
	return 0;
}

/* The sample_id_all trailer of a non-sample record: its size, then its bytes. */
static size_t sid_size(const struct perf_writer *w, const struct sample *sid)
{
	const struct pw_event *e = &w->ev[sid ? sid->evsel : 0];
	uint64_t t = e->sample_type;

	if (!e->sample_id_all)
		return 0;
	return 8 * (!!(t & SF_TID) + !!(t & SF_TIME) + !!(t & SF_ID) + !!(t & SF_STREAM_ID) +
		    !!(t & SF_CPU) + !!(t & SF_IDENTIFIER));
}

static uint8_t *put_sid(const struct perf_writer *w, uint8_t *p, const struct sample *sid)
{
	const struct pw_event *e = &w->ev[sid ? sid->evsel : 0];
	uint64_t t = e->sample_type;
	uint64_t id = sid ? sid->id : (e->nr_ids ? e->ids[0] : 0);

	if (!e->sample_id_all)
		return p;
	if (t & SF_TID)
		p = put32x2(p, sid ? sid->pid : 0, sid ? sid->tid : 0);
	if (t & SF_TIME)
		p = put64(p, sid ? sid->time : 0);
	if (t & SF_ID)
		p = put64(p, id);
	if (t & SF_STREAM_ID)
		p = put64(p, sid ? sid->stream_id : 0);
	if (t & SF_CPU)
		p = put32x2(p, sid ? sid->cpu : 0, 0);
	if (t & SF_IDENTIFIER)
		p = put64(p, id);
	return p;
}

/* Start a record of @body bytes (8-aligned) plus its trailer; returns where the body goes. */
static uint8_t *begin_record(struct perf_writer *w, uint32_t type, uint16_t misc, size_t body,
			     const struct sample *sid, const char *what)
{
	size_t size;
	uint8_t *p;

	if (sid && sid->evsel >= w->nr_ev) {
		pw_error(w, -EINVAL, "%s record: no event %u", what, sid->evsel);
		return NULL;
	}
	size = 8 + body + sid_size(w, sid);
	if (size > PW_MAX_RECORD) {
		pw_error(w, -EMSGSIZE, "%s record of %zu bytes, more than a record holds", what,
			 size);
		return NULL;
	}
	p = pw_reserve(w, size);
	if (!p)
		return NULL;
	put_header(p, type, misc, size);
	return p + 8;
}

static int end_record(struct perf_writer *w, uint8_t *p, const struct sample *sid)
{
	p = put_sid(w, p, sid);
	w->buf_len = p - w->buf;
	w->nr_records++;
	return 0;
}

static uint8_t *put_name(uint8_t *p, const char *s, size_t padded)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	memset(p + n, 0, padded - n);
	return p + padded;
}

static int bad_ret(struct perf_writer *w)
{
	return w->err ? w->err : -EINVAL;
}

int perf_writer__mmap(struct perf_writer *w, uint16_t misc, const struct rec_mmap *m,
		      const struct sample *sid)
{
	const char *fn = m->filename ? m->filename : "";
	size_t fl = (strlen(fn) + 1 + 7) / 8 * 8;
	uint8_t *p;

	if (m->is_mmap2) {
		if (m->has_build_id)
			misc |= MISC_MMAP_BUILD_ID;
		else
			misc &= ~MISC_MMAP_BUILD_ID;
		p = begin_record(w, REC_MMAP2, misc, 64 + fl, sid, "MMAP2");
		if (!p)
			return bad_ret(w);
		p = put32x2(p, m->pid, m->tid);
		p = put64(p, m->start);
		p = put64(p, m->len);
		p = put64(p, m->pgoff);
		if (m->has_build_id) {
			uint8_t bid[24] = { 0 };

			bid[0] = m->build_id_size > 20 ? 20 : m->build_id_size;
			memcpy(bid + 4, m->build_id, bid[0]);
			memcpy(p, bid, 24);
			p += 24;
		} else {
			p = put32x2(p, m->maj, m->min);
			p = put64(p, m->ino);
			p = put64(p, m->ino_generation);
		}
		p = put32x2(p, m->prot, m->flags);
	} else {
		p = begin_record(w, REC_MMAP, misc, 32 + fl, sid, "MMAP");
		if (!p)
			return bad_ret(w);
		p = put32x2(p, m->pid, m->tid);
		p = put64(p, m->start);
		p = put64(p, m->len);
		p = put64(p, m->pgoff);
	}
	p = put_name(p, fn, fl);
	return end_record(w, p, sid);
}

int perf_writer__comm(struct perf_writer *w, const struct rec_comm *c, const struct sample *sid)
{
	const char *s = c->comm ? c->comm : "";
	size_t fl = (strlen(s) + 1 + 7) / 8 * 8;
	uint8_t *p = begin_record(w, REC_COMM, c->exec ? MISC_COMM_EXEC : 0, 8 + fl, sid, "COMM");

	if (!p)
		return bad_ret(w);
	p = put32x2(p, c->pid, c->tid);
	p = put_name(p, s, fl);
	return end_record(w, p, sid);
}

int perf_writer__task(struct perf_writer *w, uint32_t type, const struct rec_task *t,
		      const struct sample *sid)
{
	uint8_t *p;

	if (type != REC_FORK && type != REC_EXIT)
		return pw_error(w, -EINVAL, "task record of type %u (FORK or EXIT expected)", type);
	p = begin_record(w, type, 0, 24, sid, type == REC_FORK ? "FORK" : "EXIT");
	if (!p)
		return bad_ret(w);
	p = put32x2(p, t->pid, t->ppid);
	p = put32x2(p, t->tid, t->ptid);
	p = put64(p, t->time);
	return end_record(w, p, sid);
}

int perf_writer__lost(struct perf_writer *w, const struct rec_lost *l, const struct sample *sid)
{
	uint8_t *p = begin_record(w, REC_LOST, 0, 16, sid, "LOST");

	if (!p)
		return bad_ret(w);
	p = put64(p, l->id);
	p = put64(p, l->lost);
	return end_record(w, p, sid);
}

int perf_writer__finished_round(struct perf_writer *w)
{
	uint8_t *p = pw_reserve(w, 8);

	if (!p)
		return bad_ret(w);
	put_header(p, REC_FINISHED_ROUND, 0, 8);
	w->buf_len += 8;
	w->nr_records++;
	return 0;
}

int perf_writer__raw_record(struct perf_writer *w, const void *rec)
{
	uint16_t size;
	uint32_t type;
	uint8_t *p;

	memcpy(&type, rec, 4);
	memcpy(&size, (const uint8_t *)rec + 6, 2);
	if (size < 8 || size % 8)
		return pw_error(w, -EINVAL, "raw record of type %u has size %u (a multiple of 8, "
				"at least 8, expected)", type, size);
	p = pw_reserve(w, size);
	if (!p)
		return bad_ret(w);
	memcpy(p, rec, size);
	w->buf_len += size;
	w->nr_records++;
	if (type == REC_SAMPLE)
		w->nr_samples++;
	return 0;
}

int perf_writer__time_conv(struct perf_writer *w, const struct perf_writer_time_conv *tc)
{
	uint8_t *p = pw_reserve(w, 64);

	if (!p)
		return bad_ret(w);
	put_header(p, REC_TIME_CONV, 0, 64);
	p = put64(p + 8, tc->time_shift);
	p = put64(p, tc->time_mult);
	p = put64(p, tc->time_zero);
	p = put64(p, tc->time_cycles);
	p = put64(p, tc->time_mask);
	memset(p, 0, 8);
	p[0] = tc->cap_user_time_zero;
	p[1] = tc->cap_user_time_short;
	w->buf_len += 64;
	w->nr_records++;
	return 0;
}

int perf_writer__auxtrace_info(struct perf_writer *w, uint32_t type, const uint64_t *priv,
			       uint32_t nr_priv)
{
	size_t size = 16 + 8 * (size_t)nr_priv;
	uint8_t *p;

	if (size > PW_MAX_RECORD)
		return pw_error(w, -EMSGSIZE, "AUXTRACE_INFO record with %u priv words", nr_priv);
	p = pw_reserve(w, size);
	if (!p)
		return bad_ret(w);
	put_header(p, REC_AUXTRACE_INFO, 0, (uint16_t)size);
	p = put32x2(p + 8, type, 0);
	for (uint32_t i = 0; i < nr_priv; i++)
		p = put64(p, priv[i]);
	w->buf_len += size;
	w->nr_records++;
	return 0;
}

int perf_writer__auxtrace(struct perf_writer *w, const struct rec_auxtrace *a, const void *data)
{
	static const uint8_t zeros[8];
	uint64_t padded = (a->size + 7) & ~7ULL;
	uint8_t *p;

	if (padded < a->size)
		return pw_error(w, -EINVAL, "AUXTRACE data of %llu bytes",
				(unsigned long long)a->size);
	p = pw_reserve(w, 48);
	if (!p)
		return bad_ret(w);
	if (!w->pipe) {
		/* the index perf record writes as the AUXTRACE feature: where each record is */
		if (w->nr_aux_index == w->aux_index_cap) {
			size_t cap = w->aux_index_cap ? 2 * w->aux_index_cap : 64;
			uint64_t *v = realloc(w->aux_index, cap * 2 * sizeof(*v));

			if (!v)
				return pw_error(w, -ENOMEM, "out of memory");
			w->aux_index = v;
			w->aux_index_cap = cap;
		}
		w->aux_index[2 * w->nr_aux_index] = w->off + w->buf_len;
		w->aux_index[2 * w->nr_aux_index + 1] = 48;	/* the record, not its data */
		w->nr_aux_index++;
	}
	put_header(p, REC_AUXTRACE, 0, 48);
	p = put64(p + 8, padded);
	p = put64(p, a->offset);
	p = put64(p, a->reference);
	p = put32x2(p, a->idx, a->tid);
	put32x2(p, a->cpu, 0);
	w->buf_len += 48;
	w->nr_records++;
	/* the data follows the record, not counted in its size: straight to the file */
	if (pw_flush(w) || pw_pwrite(w, data, (size_t)a->size, w->off))
		return bad_ret(w);
	w->off += a->size;
	if (padded > a->size) {
		if (pw_pwrite(w, zeros, (size_t)(padded - a->size), w->off))
			return bad_ret(w);
		w->off += padded - a->size;
	}
	return 0;
}

/* ---- header features --------------------------------------------------------------- */

int perf_writer__set_string(struct perf_writer *w, enum perf_feature feat, const char *s)
{
	char *c;

	switch (feat) {
	case FEAT_HOSTNAME:
	case FEAT_OSRELEASE:
	case FEAT_VERSION:
	case FEAT_ARCH:
	case FEAT_CPUDESC:
	case FEAT_CPUID:
		break;
	default:
		return pw_error(w, -EINVAL, "feature %d is not a string", feat);
	}
	c = pw_strdup(s);
	if (!c)
		return pw_error(w, -ENOMEM, "out of memory");
	free(w->str[feat]);
	w->str[feat] = c;
	return 0;
}

void perf_writer__set_nrcpus(struct perf_writer *w, uint32_t avail, uint32_t online)
{
	w->have_nrcpus = true;
	w->nr_avail = avail;
	w->nr_online = online;
}

void perf_writer__set_total_mem(struct perf_writer *w, uint64_t kb)
{
	w->have_total_mem = true;
	w->total_mem = kb;
}

static char **dup_strv(const char *const *v, uint32_t n)
{
	char **r = calloc(n ? n : 1, sizeof(*r));

	if (!r)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		r[i] = pw_strdup(v[i] ? v[i] : "");
		if (!r[i]) {
			free_strv(r, i);
			return NULL;
		}
	}
	return r;
}

void perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv)
{
	free_strv(w->cmdline, w->nr_cmdline);
	w->cmdline = dup_strv(argv, argc < 0 ? 0 : argc);
	w->nr_cmdline = w->cmdline ? argc : 0;
}

void perf_writer__set_sample_time(struct perf_writer *w, uint64_t first, uint64_t last)
{
	w->have_sample_time = true;
	w->st_first = first;
	w->st_last = last;
}

void perf_writer__set_tracing_data(struct perf_writer *w, const void *data, size_t size)
{
	free(w->tracing);
	w->tracing = NULL;
	w->tracing_size = 0;
	if (!size)
		return;
	w->tracing = malloc(size);
	if (!w->tracing)
		return;
	memcpy(w->tracing, data, size);
	w->tracing_size = size;
}

static uint32_t *dup_u32(const uint32_t *v, uint32_t n)
{
	uint32_t *r = calloc(n ? n : 1, sizeof(*r));

	if (r && v)
		memcpy(r, v, n * sizeof(*r));
	return r;
}

int perf_writer__set_cpu_topology(struct perf_writer *w, const struct perf_writer_cpu_topology *t)
{
	free_topology(w);
	w->core_sibs = dup_strv(t->core_sibs, t->nr_core_sibs);
	w->thread_sibs = dup_strv(t->thread_sibs, t->nr_thread_sibs);
	w->die_sibs = dup_strv(t->die_sibs, t->nr_die_sibs);
	w->core_id = dup_u32(t->core_id, t->nr_cpus);
	w->socket_id = dup_u32(t->socket_id, t->nr_cpus);
	w->die_id = dup_u32(t->die_id, t->nr_cpus);
	w->nr_core_sibs = t->nr_core_sibs;
	w->nr_thread_sibs = t->nr_thread_sibs;
	w->nr_die_sibs = t->nr_die_sibs;
	w->topo_cpus = t->nr_cpus;
	if (!w->core_sibs || !w->thread_sibs || !w->die_sibs || !w->core_id || !w->socket_id ||
	    !w->die_id) {
		free_topology(w);
		return pw_error(w, -ENOMEM, "out of memory");
	}
	w->have_topo = true;
	return 0;
}

int perf_writer__add_numa_node(struct perf_writer *w, uint32_t node, uint64_t mem_total_kb,
			       uint64_t mem_free_kb, const char *cpus)
{
	struct pw_numa *n = realloc(w->numa, (w->nr_numa + 1) * sizeof(*n));

	if (!n)
		return pw_error(w, -ENOMEM, "out of memory");
	w->numa = n;
	n += w->nr_numa;
	n->node = node;
	n->total = mem_total_kb;
	n->free = mem_free_kb;
	n->cpus = pw_strdup(cpus ? cpus : "");
	if (!n->cpus)
		return pw_error(w, -ENOMEM, "out of memory");
	w->nr_numa++;
	return 0;
}

int perf_writer__add_cache(struct perf_writer *w, uint32_t level, uint32_t line_size,
			   uint32_t sets, uint32_t ways, const char *type, const char *size,
			   const char *map)
{
	struct pw_cache *c = realloc(w->caches, (w->nr_caches + 1) * sizeof(*c));

	if (!c)
		return pw_error(w, -ENOMEM, "out of memory");
	w->caches = c;
	c += w->nr_caches;
	c->level = level;
	c->line_size = line_size;
	c->sets = sets;
	c->ways = ways;
	c->type = pw_strdup(type ? type : "");
	c->size = pw_strdup(size ? size : "");
	c->map = pw_strdup(map ? map : "");
	w->nr_caches++;
	if (!c->type || !c->size || !c->map)
		return pw_error(w, -ENOMEM, "out of memory");
	return 0;
}

void perf_writer__set_mem_block_size(struct perf_writer *w, uint64_t bytes)
{
	w->have_mem_topo = true;
	w->mem_bsize = bytes;
}

int perf_writer__add_mem_node(struct perf_writer *w, uint64_t node, const uint64_t *blocks,
			      uint64_t nbits)
{
	struct pw_memnode *m = realloc(w->mem, (w->nr_mem + 1) * sizeof(*m));
	uint64_t words = (nbits + 63) / 64;

	if (!m)
		return pw_error(w, -ENOMEM, "out of memory");
	w->mem = m;
	m += w->nr_mem;
	m->node = node;
	m->nbits = nbits;
	m->set = calloc(words ? words : 1, 8);
	if (!m->set)
		return pw_error(w, -ENOMEM, "out of memory");
	if (words)
		memcpy(m->set, blocks, words * 8);
	w->nr_mem++;
	w->have_mem_topo = true;
	return 0;
}

int perf_writer__add_build_id(struct perf_writer *w, int32_t pid, uint16_t cpumode,
			      const uint8_t *build_id, uint8_t size, const char *filename)
{
	/*
	 * perf_record_header_build_id: header, pid, build_id[24] (20 bytes, then the size at
	 * [20]), 36 bytes in all, then the NUL-terminated name; perf walks the records by
	 * header.size, so padding the name to a multiple of 8 keeps them aligned.
	 */
	size_t name = strlen(filename), rsize = (36 + name + 1 + 7) / 8 * 8;
	struct mbuf *b = &w->build_ids;
	uint8_t bid[24] = { 0 }, h[8];

	if (rsize > PW_MAX_RECORD)
		return pw_error(w, -ENAMETOOLONG, "build-id file name too long: %s", filename);
	if (size > 20)
		size = 20;
	memcpy(bid, build_id, size);
	bid[20] = size;
	put_header(h, REC_HEADER_BUILD_ID, (cpumode & CPUMODE_MASK) | MISC_BUILD_ID_SIZE, rsize);
	mbuf_add(b, h, 8);
	mbuf_add(b, &pid, 4);
	mbuf_add(b, bid, 24);
	mbuf_add(b, filename, name);
	mbuf_zero(b, rsize - 36 - name);
	if (b->oom)
		return pw_error(w, -ENOMEM, "out of memory");
	return 0;
}

/* Write one feature's bytes into @b; false when the feature is not set. */
static bool feature_bytes(struct perf_writer *w, int feat, struct mbuf *b)
{
	switch (feat) {
	case FEAT_TRACING_DATA:
		if (!w->tracing)
			return false;
		mbuf_add(b, w->tracing, w->tracing_size);
		return true;
	case FEAT_AUXTRACE:
		if (!w->nr_aux_index || w->pipe)
			return false;
		mbuf_u64(b, w->nr_aux_index);
		mbuf_add(b, w->aux_index, 16 * w->nr_aux_index);
		return true;
	case FEAT_BUILD_ID:
		if (!w->build_ids.len)
			return false;
		mbuf_add(b, w->build_ids.p, w->build_ids.len);
		return true;
	case FEAT_HOSTNAME:
	case FEAT_OSRELEASE:
	case FEAT_VERSION:
	case FEAT_ARCH:
	case FEAT_CPUDESC:
	case FEAT_CPUID:
		if (!w->str[feat])
			return false;
		mbuf_str(b, w->str[feat]);
		return true;
	case FEAT_NRCPUS:
		if (!w->have_nrcpus)
			return false;
		mbuf_u32(b, w->nr_avail);
		mbuf_u32(b, w->nr_online);
		return true;
	case FEAT_TOTAL_MEM:
		if (!w->have_total_mem)
			return false;
		mbuf_u64(b, w->total_mem);
		return true;
	case FEAT_CMDLINE:
		if (!w->cmdline)
			return false;
		mbuf_u32(b, w->nr_cmdline);
		for (int i = 0; i < w->nr_cmdline; i++)
			mbuf_str(b, w->cmdline[i]);
		return true;
	case FEAT_EVENT_DESC:
		mbuf_u32(b, w->nr_ev);
		mbuf_u32(b, PW_ATTR_SIZE);
		for (uint32_t i = 0; i < w->nr_ev; i++) {
			mbuf_add(b, w->ev[i].attr, PW_ATTR_SIZE);
			mbuf_u32(b, w->ev[i].nr_ids);
			mbuf_str(b, w->ev[i].name);
			mbuf_add(b, w->ev[i].ids, 8 * (size_t)w->ev[i].nr_ids);
		}
		return true;
	case FEAT_CPU_TOPOLOGY:
		/* perf reads one core/socket pair per NRCPUS' avail CPUs. */
		if (!w->have_topo || !w->have_nrcpus)
			return false;
		mbuf_u32(b, w->nr_core_sibs);
		for (uint32_t i = 0; i < w->nr_core_sibs; i++)
			mbuf_str(b, w->core_sibs[i]);
		mbuf_u32(b, w->nr_thread_sibs);
		for (uint32_t i = 0; i < w->nr_thread_sibs; i++)
			mbuf_str(b, w->thread_sibs[i]);
		for (uint32_t i = 0; i < w->nr_avail; i++) {
			mbuf_u32(b, i < w->topo_cpus ? w->core_id[i] : (uint32_t)-1);
			mbuf_u32(b, i < w->topo_cpus ? w->socket_id[i] : (uint32_t)-1);
		}
		if (w->nr_die_sibs) {
			mbuf_u32(b, w->nr_die_sibs);
			for (uint32_t i = 0; i < w->nr_die_sibs; i++)
				mbuf_str(b, w->die_sibs[i]);
			for (uint32_t i = 0; i < w->nr_avail; i++)
				mbuf_u32(b, i < w->topo_cpus ? w->die_id[i] : (uint32_t)-1);
		}
		return true;
	case FEAT_NUMA_TOPOLOGY:
		if (!w->nr_numa)
			return false;
		mbuf_u32(b, w->nr_numa);
		for (uint32_t i = 0; i < w->nr_numa; i++) {
			mbuf_u32(b, w->numa[i].node);
			mbuf_u64(b, w->numa[i].total);
			mbuf_u64(b, w->numa[i].free);
			mbuf_str(b, w->numa[i].cpus);
		}
		return true;
	case FEAT_CACHE:
		if (!w->nr_caches)
			return false;
		mbuf_u32(b, 1);
		mbuf_u32(b, w->nr_caches);
		for (uint32_t i = 0; i < w->nr_caches; i++) {
			const struct pw_cache *c = &w->caches[i];

			mbuf_u32(b, c->level);
			mbuf_u32(b, c->line_size);
			mbuf_u32(b, c->sets);
			mbuf_u32(b, c->ways);
			mbuf_str(b, c->type);
			mbuf_str(b, c->size);
			mbuf_str(b, c->map);
		}
		return true;
	case FEAT_SAMPLE_TIME:
		if (w->have_sample_time) {
			mbuf_u64(b, w->st_first);
			mbuf_u64(b, w->st_last);
		} else if (w->have_time) {
			mbuf_u64(b, w->first_time);
			mbuf_u64(b, w->last_time);
		} else {
			return false;
		}
		return true;
	case FEAT_MEM_TOPOLOGY:
		if (!w->have_mem_topo)
			return false;
		mbuf_u64(b, 1);
		mbuf_u64(b, w->mem_bsize);
		mbuf_u64(b, w->nr_mem);
		for (uint32_t i = 0; i < w->nr_mem; i++) {
			mbuf_u64(b, w->mem[i].node);
			mbuf_u64(b, w->mem[i].nbits);
			mbuf_u64(b, w->mem[i].nbits);
			mbuf_add(b, w->mem[i].set, 8 * ((w->mem[i].nbits + 63) / 64));
		}
		return true;
	default:
		return false;
	}
}

/* Append a HEADER_FEATURE record for @feat to @b; false when the feature is not set. */
static bool pipe_feature(struct perf_writer *w, int feat, struct mbuf *b)
{
	size_t at = b->len;
	uint8_t h[16] = { 0 };
	uint64_t id = feat;
	uint16_t size;

	mbuf_add(b, h, 16);
	if (!feature_bytes(w, feat, b)) {
		b->len = at;
		return false;
	}
	if (b->len - at > PW_MAX_RECORD) {
		b->len = at;	/* too big for one record (huge TRACING_DATA-like data) */
		return false;
	}
	size = b->len - at;
	put_header(b->p + at, REC_HEADER_FEATURE, 0, size);
	memcpy(b->p + at + 8, &id, 8);
	return true;
}

/* The HEADER_BUILD_ID records added since the last call. */
static void pipe_build_ids(struct perf_writer *w, struct mbuf *b)
{
	mbuf_add(b, w->build_ids.p + w->pipe_build_ids_sent,
		 w->build_ids.len - w->pipe_build_ids_sent);
	w->pipe_build_ids_sent = w->build_ids.len;
}

int perf_writer__open_pipe(struct perf_writer *w, int fd)
{
	struct mbuf b = { 0 };
	uint8_t h[16];
	int rc;

	if (w->opened)
		return pw_error(w, -EBUSY, "writer already open");
	if (!w->nr_ev)
		return pw_error(w, -EINVAL, "no event added before open");
	w->buf = malloc(PW_BUF_SIZE);
	if (!w->buf)
		return pw_error(w, -ENOMEM, "out of memory for the output buffer");
	w->fd = fd;
	w->opened = true;
	w->pipe = true;
	/* pipe header: magic, size 16 */
	memcpy(h, &(uint64_t){ PW_MAGIC }, 8);
	memcpy(h + 8, &(uint64_t){ 16 }, 8);
	mbuf_add(&b, h, 16);
	/* the events first (features such as EVENT_DESC refer to them), as perf does */
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		size_t size = 8 + PW_ATTR_SIZE + 8 * (size_t)w->ev[i].nr_ids;

		if (size > PW_MAX_RECORD) {
			free(b.p);
			return pw_error(w, -EMSGSIZE, "event %s has too many ids for a pipe-mode "
					"HEADER_ATTR record", w->ev[i].name);
		}
		put_header(h, REC_HEADER_ATTR, 0, size);
		mbuf_add(&b, h, 8);
		mbuf_add(&b, w->ev[i].attr, PW_ATTR_SIZE);
		mbuf_add(&b, w->ev[i].ids, 8 * (size_t)w->ev[i].nr_ids);
	}
	/*
	 * Each event's name, as perf record sends it in pipe mode (a file has EVENT_DESC):
	 * EVENT_UPDATE {header, u64 type = NAME (2), u64 id (its first), name NUL-padded to 8}.
	 * Without it perf names a dynamic PMU's event by its type ("unknown attr type: 8").
	 */
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		size_t len = strlen(w->ev[i].name) + 1, size = (24 + len + 7) / 8 * 8;

		if (!w->ev[i].nr_ids || size > PW_MAX_RECORD)
			continue;
		put_header(h, REC_EVENT_UPDATE, 0, size);
		memcpy(h + 8, &(uint64_t){ 2 }, 8);
		mbuf_add(&b, h, 16);
		mbuf_add(&b, &w->ev[i].ids[0], 8);
		mbuf_add(&b, w->ev[i].name, len);
		mbuf_zero(&b, size - 24 - len);
	}
	/* every feature set so far, then perf's end mark */
	for (int f = 1; f < FEAT_LAST; f++) {
		if (f == FEAT_TRACING_DATA || f == FEAT_BUILD_ID || f == FEAT_SAMPLE_TIME)
			continue;
		if (pipe_feature(w, f, &b))
			w->pipe_sent |= 1u << f;
	}
	memset(h, 0, sizeof(h));
	put_header(h, REC_HEADER_FEATURE, 0, 16);
	memcpy(h + 8, &(uint64_t){ FEAT_LAST }, 8);
	mbuf_add(&b, h, 16);
	if (w->tracing) {
		/* HEADER_TRACING_DATA {header, u32 size, pad}: the data follows, padded to 8 */
		uint32_t aligned = (w->tracing_size + 7) / 8 * 8;

		memset(h, 0, sizeof(h));
		put_header(h, REC_HEADER_TRACING_DATA, 0, 16);
		memcpy(h + 8, &aligned, 4);
		mbuf_add(&b, h, 16);
		mbuf_add(&b, w->tracing, w->tracing_size);
		mbuf_zero(&b, aligned - w->tracing_size);
	}
	pipe_build_ids(w, &b);
	put_header(h, REC_FINISHED_INIT, 0, 8);
	mbuf_add(&b, h, 8);
	if (b.oom) {
		free(b.p);
		return pw_error(w, -ENOMEM, "out of memory for the pipe header");
	}
	rc = pw_pwrite(w, b.p, b.len, 0);
	free(b.p);
	if (rc)
		return rc;
	w->data_offset = 0;
	w->off = b.len;
	return 0;
}

/* Pipe mode's close: what became known since open (SAMPLE_TIME, features set later, build-ids)
 * as header records after the data. */
static int close_pipe(struct perf_writer *w)
{
	struct mbuf b = { 0 };
	int rc;

	for (int f = 1; f < FEAT_LAST; f++) {
		if (f == FEAT_TRACING_DATA || f == FEAT_BUILD_ID || (w->pipe_sent & (1u << f)))
			continue;
		pipe_feature(w, f, &b);
	}
	pipe_build_ids(w, &b);
	if (b.oom) {
		free(b.p);
		return pw_error(w, -ENOMEM, "out of memory for the last header records");
	}
	rc = b.len ? pw_pwrite(w, b.p, b.len, 0) : 0;
	free(b.p);
	return rc;
}

int perf_writer__close(struct perf_writer *w)
{
	struct mbuf feats = { 0 };
	uint64_t sections[FEAT_LAST][2];
	uint64_t bitmap[4] = { 0 };
	uint64_t data_size, pos, ids_off, attrs_off;
	uint8_t hdr[PW_HEADER_SIZE];
	int nr_feat = 0, rc = 0;

	if (w->err)
		goto out;
	if (!w->opened || w->closed) {
		rc = pw_error(w, -EBADF, "close of a writer that is not open");
		goto out;
	}
	rc = pw_flush(w);
	if (rc)
		goto out;
	if (w->pipe) {
		rc = close_pipe(w);
		if (rc)
			goto out;
		w->closed = true;
		goto out;
	}
	data_size = w->off - w->data_offset;

	/* Feature contents, in bit order, after the section table that follows the data. */
	for (int f = 1; f < FEAT_LAST; f++) {
		size_t before = feats.len;

		if (!feature_bytes(w, f, &feats))
			continue;
		bitmap[f / 64] |= 1ULL << (f % 64);
		sections[nr_feat][0] = before;
		sections[nr_feat][1] = feats.len - before;
		nr_feat++;
	}
	if (feats.oom) {
		rc = pw_error(w, -ENOMEM, "out of memory building the header features");
		goto out;
	}
	pos = w->off + 16 * (uint64_t)nr_feat;
	for (int i = 0; i < nr_feat; i++)
		sections[i][0] += pos;
	rc = pw_pwrite(w, sections, 16 * (size_t)nr_feat, w->off);
	if (!rc && feats.len)
		rc = pw_pwrite(w, feats.p, feats.len, pos);
	if (rc)
		goto out;
	pos += feats.len;

	/* The ids of every event, then the attrs pointing at them. */
	ids_off = pos;
	for (uint32_t i = 0; i < w->nr_ev && !rc; i++) {
		rc = pw_pwrite(w, w->ev[i].ids, 8 * (size_t)w->ev[i].nr_ids, pos);
		pos += 8 * (uint64_t)w->ev[i].nr_ids;
	}
	attrs_off = pos;
	for (uint32_t i = 0; i < w->nr_ev && !rc; i++) {
		uint64_t sec[2] = { ids_off, 8 * (uint64_t)w->ev[i].nr_ids };

		rc = pw_pwrite(w, w->ev[i].attr, PW_ATTR_SIZE, pos);
		if (!rc)
			rc = pw_pwrite(w, sec, 16, pos + PW_ATTR_SIZE);
		pos += PW_ATTR_SIZE + 16;
		ids_off += sec[1];
	}
	if (rc)
		goto out;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, &(uint64_t){ PW_MAGIC }, 8);
	memcpy(hdr + 8, &(uint64_t){ PW_HEADER_SIZE }, 8);
	memcpy(hdr + 16, &(uint64_t){ PW_ATTR_SIZE + 16 }, 8);
	memcpy(hdr + 24, &attrs_off, 8);
	memcpy(hdr + 32, &(uint64_t){ (uint64_t)w->nr_ev * (PW_ATTR_SIZE + 16) }, 8);
	memcpy(hdr + 40, &w->data_offset, 8);
	memcpy(hdr + 48, &data_size, 8);
	/* event_types (56..71) stays empty */
	memcpy(hdr + 72, bitmap, sizeof(bitmap));
	rc = pw_pwrite(w, hdr, sizeof(hdr), 0);
	if (rc)
		goto out;
	w->closed = true;
	if (w->own_fd) {
		if (close(w->fd))
			rc = pw_error(w, errno, "close failed: %s", strerror(errno));
		w->fd = -1;
		w->own_fd = false;
	}
	/* The finished file takes its name only now: a reader never sees it half written. */
	if (!rc && w->tmp_path) {
		if (rename(w->tmp_path, w->path))
			rc = pw_error(w, errno, "cannot rename %s into place: %s", w->tmp_path,
				      strerror(errno));
		else
			free(w->tmp_path), w->tmp_path = NULL;
	}
out:
	free(feats.p);
	if (!rc && w->err)
		rc = w->err;
	return rc;
}
