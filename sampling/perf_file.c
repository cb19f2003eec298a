// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The perf.data reader: header, attrs, features, then one record at a time through a read
 * window, with COMPRESSED records inflated through a second window.
 *
 * Ownership: struct perf_file owns its window buffers, its header info and the name; records
 * handed out point into the windows (see sampling/perf_file.h).
 */
#include <config.h>

#include "sampling/perf_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "sampling/arm_spe.h"
#include "sampling/perf_bytes.h"
#include "sampling/perf_header.h"
#include "util/xalloc.h"

#define PERF_MAGIC2 0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC1 0x454c494646524550ULL	/* "PERFFILE", perf before 2.6.36 */
#define PIPE_HEADER_SIZE 16
#define FILE_HEADER_SIZE 104
#define FILE_HEADER_SIZE_NOFEAT 72	/* before adds_features existed */

#define WINDOW (4u << 20)		/* read window; a record is at most 64 KiB */
#define MAP_WINDOW (16u << 20)		/* mmap window over a regular file */
#define MAX_RECORD 65536
#define MAX_DECOMP (256u << 20)		/* bound on inflated data held at once */
#define MAX_TRACING (512u << 20)	/* bound on pipe-mode TRACING_DATA */
#define MAX_PREFIX (64u << 20)		/* file mode through a pipe: header + attrs + ids kept */
#define MAX_SUFFIX (256u << 20)		/* and the feature sections after the data */
#define MAX_ATTR_SIZE 4096
#define MAX_EVSELS 65536		/* real recordings have dozens of events */
#define MAX_IDS (1u << 22)		/* and ids per cpu x thread: a few thousand */
#define MAX_AUX (1u << 30)		/* one AUXTRACE buffer read through a pipe */

#define MISC_SWITCH_OUT (1u << 13)
#define MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define MISC_COMM_EXEC (1u << 13)
#define MISC_MMAP_BUILD_ID (1u << 14)

/* sample_id_all fields, in the order they trail a non-sample record. */
#define SAMPLE_ID_FIELDS (SF_TID | SF_TIME | SF_ID | SF_STREAM_ID | SF_CPU | SF_IDENTIFIER)

struct id_slot {
	uint64_t id;
	int32_t idx;	/* -1: empty */
	int32_t cpu, tid;	/* from ID_INDEX, -1 when not placed */
	uint32_t mmap_idx;
};

struct perf_file {
	char *name;
	int fd;
	bool close_fd;
	const uint8_t *mem;
	size_t mem_size;
	bool seekable;
	bool swap;
	uint64_t src_size;	/* size of the file being read (a directory's data.N: that one) */
	char **dir_files;	/* perf record --threads: DIR/data.N, read after DIR/data */
	uint32_t nr_dir_files, dir_next;
	struct perf_header_info h;
	char err[PERF_FILE_ERRMAX];
	bool failed;
	bool raw_samples;	/* perf_file__set_raw_samples */

	/* perf_file__set_auxtrace: Arm SPE traces made into samples (unless no_aux) */
	bool no_aux;
	uint8_t *aux_buf;	/* the last AUXTRACE record's data */
	size_t aux_cap;
	struct spe_time_conv tc;	/* the last TIME_CONV */
	struct arm_spe_synth *spe;	/* after an Arm SPE AUXTRACE_INFO with its event */
	bool spe_pending;	/* samples of the last AUXTRACE data still to hand out */
	uint32_t spe_evsel;	/* the synthesized "memory" event */
	uint64_t spe_off;	/* offset of the AUXTRACE record being decoded */
	uint64_t spe_rec[(8 + SPE_SAMPLE_MAX) / 8];	/* the synthesized SAMPLE record */

	/*
	 * The read window: buf[head, tail) holds file bytes from offset buf_off + head.  A regular
	 * file is mapped (private, so big-endian data can be swapped in place) a window at a time;
	 * a pipe or a memory buffer is copied into a malloc'd buffer.
	 */
	bool mapped;
	uint8_t *buf;
	size_t cap, head, tail;
	uint64_t buf_off;
	uint64_t src_pos;	/* next file offset to read into the window */
	uint64_t end;		/* stop at this offset (UINT64_MAX: end of file) */

	/* Inflated COMPRESSED payloads: dbuf[dhead, dtail). */
	ZSTD_DStream *zstd;
	uint8_t *dbuf;
	size_t dcap, dhead, dtail;
	uint64_t comp_off;

	uint8_t *scratch;	/* an 8-aligned copy of a record, MAX_RECORD bytes */

	/* A file-mode perf.data through a pipe: the features come after the data. */
	uint8_t *suffix;
	uint64_t suffix_off, suffix_len;
	bool features_done;

	uint64_t last_id;	/* one-entry cache of perf_file__evsel_of_id() */
	int last_idx;

	struct id_slot *ids;
	size_t ids_cap, nr_ids;
	int id_pos, is_pos;	/* where the sample id sits, from the first event */
};

static int perr(struct perf_file *pf, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct perf_file *pf, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(pf->err, sizeof(pf->err), "%s: at byte %" PRIu64 " (0x%" PRIx64 "): ",
			 pf->name, off, off);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(pf->err))
		vsnprintf(pf->err + n, sizeof(pf->err) - n, fmt, ap);
	va_end(ap);
	pf->failed = true;
	return -EINVAL;
}

/* A warning about the file at byte @off, on stderr, as perf's pr_warning; reading goes on. */
static void pwarn(struct perf_file *pf, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pwarn(struct perf_file *pf, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "lineup: warning: %s: at byte %" PRIu64 " (0x%" PRIx64 "): ", pf->name, off,
		off);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int perr_errno(struct perf_file *pf, int e, const char *what)
{
	snprintf(pf->err, sizeof(pf->err), "%s: %s: %s", pf->name, what, strerror(e));
	pf->failed = true;
	return -e;
}

/* ---- ids ---------------------------------------------------------------------------- */

static size_t id_hash(uint64_t id, size_t mask)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & mask;
}

static struct id_slot *id_insert(struct id_slot *t, size_t mask, uint64_t id, int32_t idx)
{
	size_t i = id_hash(id, mask);

	while (t[i].idx >= 0) {
		if (t[i].id == id)
			return &t[i];	/* the first event to claim an id keeps it, as in perf */
		i = (i + 1) & mask;
	}
	t[i].id = id;
	t[i].idx = idx;
	t[i].cpu = t[i].tid = -1;
	t[i].mmap_idx = 0;
	return &t[i];
}

static void id_add(struct perf_file *pf, uint64_t id, int32_t idx)
{
	if ((pf->nr_ids + 1) * 2 > pf->ids_cap) {
		size_t ncap = pf->ids_cap ? pf->ids_cap * 2 : 64;
		struct id_slot *t = xmalloc(ncap * sizeof(*t));

		for (size_t i = 0; i < ncap; i++)
			t[i].idx = -1;
		for (size_t i = 0; i < pf->ids_cap; i++)
			if (pf->ids[i].idx >= 0) {
				struct id_slot *n = id_insert(t, ncap - 1, pf->ids[i].id,
							      pf->ids[i].idx);

				n->cpu = pf->ids[i].cpu;
				n->tid = pf->ids[i].tid;
				n->mmap_idx = pf->ids[i].mmap_idx;
			}
		free(pf->ids);
		pf->ids = t;
		pf->ids_cap = ncap;
	}
	id_insert(pf->ids, pf->ids_cap - 1, id, idx);
	pf->nr_ids++;
	pf->last_idx = -1;
}

static struct id_slot *id_find(const struct perf_file *pf, uint64_t id)
{
	size_t mask, i;

	if (!pf->ids_cap)
		return NULL;
	mask = pf->ids_cap - 1;
	for (i = id_hash(id, mask); pf->ids[i].idx >= 0; i = (i + 1) & mask)
		if (pf->ids[i].id == id)
			return &pf->ids[i];
	return NULL;
}

int perf_file__evsel_of_id(const struct perf_file *pf, uint64_t id)
{
	const struct id_slot *s = id_find(pf, id);

	return s ? s->idx : -1;
}

int perf_file__id_info(const struct perf_file *pf, uint64_t id, struct perf_id_info *out)
{
	const struct id_slot *s = id_find(pf, id);

	if (!s)
		return -1;
	out->evsel = s->idx;
	out->cpu = s->cpu;
	out->tid = s->tid;
	out->mmap_idx = s->mmap_idx;
	return 0;
}

/* Samples come in runs from one ring buffer, hence from one id: cache the last answer. */
static int evsel_of_id_cached(struct perf_file *pf, uint64_t id)
{
	if (pf->last_idx >= 0 && pf->last_id == id)
		return pf->last_idx;
	pf->last_id = id;
	pf->last_idx = perf_file__evsel_of_id(pf, id);
	return pf->last_idx;
}

/* perf_id_lookup_fn for EVENT_DESC: perf's evlist__id2evsel (id 0 is the first event). */
static int id_lookup(const void *ctx, uint64_t id)
{
	return id ? perf_file__evsel_of_id(ctx, id) : 0;
}

/* perf's id_pos/is_pos, from the first event's sample_type. */
static void set_id_pos(struct perf_file *pf)
{
	uint64_t t;

	if (!pf->h.nr_evsels)
		return;
	t = pf->h.evsels[0].attr.sample_type;
	if (t & SF_IDENTIFIER) {
		pf->id_pos = 0;
		pf->is_pos = 1;
	} else if (!(t & SF_ID)) {
		pf->id_pos = pf->is_pos = -1;
	} else {
		pf->id_pos = !!(t & SF_IP) + !!(t & SF_TID) + !!(t & SF_TIME) + !!(t & SF_ADDR);
		pf->is_pos = 1 + !!(t & SF_CPU) + !!(t & SF_STREAM_ID);
	}
}

static int add_evsel(struct perf_file *pf, const struct perf_attr *attr, const uint8_t *ids,
		     uint64_t nr_ids, uint64_t off)
{
	struct perf_evsel *ev;

	if (pf->h.nr_evsels >= MAX_EVSELS)
		return perr(pf, off, "more than %u events", MAX_EVSELS);
	if (nr_ids > MAX_IDS - pf->nr_ids)
		return perr(pf, off, "more than %u sample ids", MAX_IDS);
	ev = perf_header_info__add_evsel(&pf->h, attr);

	ev->ids = xcalloc(nr_ids ? nr_ids : 1, sizeof(uint64_t));
	ev->nr_ids = (uint32_t)nr_ids;
	for (uint64_t i = 0; i < nr_ids; i++) {
		ev->ids[i] = ld64(ids + i * 8, pf->swap);
		id_add(pf, ev->ids[i], (int32_t)ev->idx);
	}
	set_id_pos(pf);
	return 0;
}

/* ---- the source --------------------------------------------------------------------- */

/* Read up to @len bytes at the stream position; returns bytes read, 0 at the end, -errno. */
static ssize_t src_read(struct perf_file *pf, void *dst, size_t len)
{
	ssize_t n;

	if (pf->end != UINT64_MAX) {
		if (pf->src_pos >= pf->end)
			return 0;
		if (len > pf->end - pf->src_pos)
			len = pf->end - pf->src_pos;
	}
	if (pf->mem) {
		if (pf->src_pos >= pf->mem_size)
			return 0;
		if (len > pf->mem_size - pf->src_pos)
			len = pf->mem_size - pf->src_pos;
		memcpy(dst, pf->mem + pf->src_pos, len);
		n = (ssize_t)len;
	} else {
		do {
			n = pf->seekable ? pread(pf->fd, dst, len, (off_t)pf->src_pos)
					 : read(pf->fd, dst, len);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
	}
	pf->src_pos += (uint64_t)n;
	return n;
}

/*
 * Random access for the file-mode header: exactly @len bytes at @off or an error.  A file-mode
 * perf.data through a pipe serves them from the bytes before the data (still in the window,
 * which starts at offset 0 then) or from those after it (the suffix, read at the end).
 */
static int src_pread(struct perf_file *pf, uint64_t off, void *dst, size_t len, const char *what)
{
	if (!pf->seekable) {
		if (pf->suffix && off >= pf->suffix_off && off - pf->suffix_off <= pf->suffix_len &&
		    len <= pf->suffix_len - (off - pf->suffix_off)) {
			memcpy(dst, pf->suffix + (off - pf->suffix_off), len);
			return 0;
		}
		if (!pf->suffix && pf->buf_off == 0 && off <= pf->tail && len <= pf->tail - off) {
			memcpy(dst, pf->buf + off, len);
			return 0;
		}
		return perr(pf, off, "%s (%zu bytes) is out of a pipe's reach (a file-mode "
			    "perf.data must keep its header before the data, its features after)",
			    what, len);
	}
	if (off > pf->src_size || len > pf->src_size - off)
		return perr(pf, off, "%s (%zu bytes) runs past the end of the file (%" PRIu64
			    " bytes)", what, len, pf->src_size);
	if (pf->mem) {
		memcpy(dst, pf->mem + off, len);
		return 0;
	}
	for (size_t done = 0; done < len;) {
		ssize_t n = pread(pf->fd, (uint8_t *)dst + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return perr_errno(pf, errno, what);
		if (n == 0)
			return perr(pf, off + done, "%s: unexpected end of file", what);
		done += (size_t)n;
	}
	return 0;
}

/* Map the window that starts at the page holding the stream position and covers @n bytes. */
static int map_window(struct perf_file *pf, size_t n)
{
	uint64_t pos = pf->buf_off + pf->head, start, len, limit = pf->src_size;
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (pf->end < limit)
		limit = pf->end;
	if (pf->buf)
		munmap(pf->buf, pf->cap);
	pf->buf = NULL;
	pf->cap = pf->head = pf->tail = 0;
	pf->buf_off = pos;
	pf->src_pos = pos;
	if (pos >= limit)
		return 0;
	start = pos & ~(uint64_t)(page - 1);
	len = MAP_WINDOW;
	if (len < pos - start + n)
		len = pos - start + n;
	if (len > limit - start)
		len = limit - start;
	/*
	 * Only a big-endian file is swapped in place; populating a writable private mapping
	 * would copy every page, so map it writable only then.
	 */
	p = mmap(NULL, len, pf->swap ? PROT_READ | PROT_WRITE : PROT_READ,
		 MAP_PRIVATE | (pf->swap ? 0 : MAP_POPULATE), pf->fd, (off_t)start);
	if (p == MAP_FAILED)
		return perr_errno(pf, errno, "mmap");
	madvise(p, len, MADV_SEQUENTIAL);
	pf->buf = p;
	pf->cap = pf->tail = len;
	pf->buf_off = start;
	pf->head = pos - start;
	pf->src_pos = start + len;
	return pf->tail - pf->head >= n;
}

/* Make buf[head, head + n) valid.  Returns 1, 0 when the data ends first, or -errno. */
static int ensure(struct perf_file *pf, size_t n)
{
	if (pf->mapped)
		return pf->tail - pf->head >= n ? 1 : map_window(pf, n);
	while (pf->tail - pf->head < n) {
		ssize_t r;

		if (pf->head + n > pf->cap) {
			memmove(pf->buf, pf->buf + pf->head, pf->tail - pf->head);
			pf->buf_off += pf->head;
			pf->tail -= pf->head;
			pf->head = 0;
			if (n > pf->cap) {
				pf->cap = n;
				pf->buf = xrealloc(pf->buf, pf->cap);
			}
		}
		r = src_read(pf, pf->buf + pf->tail, pf->cap - pf->tail);
		if (r < 0)
			return perr_errno(pf, (int)-r, "read");
		if (r == 0)
			return 0;
		pf->tail += (size_t)r;
	}
	return 1;
}

/* Consume @n bytes of the stream (AUXTRACE data, TRACING_DATA), copying them to @dst if set. */
static int consume(struct perf_file *pf, uint64_t n, void *dst, uint64_t off)
{
	uint8_t *d = dst;

	if (!dst && pf->seekable) {
		/* skip without reading: check against the end, then move the window's start */
		uint64_t pos = pf->buf_off + pf->head, limit = pf->src_size;

		if (pf->end < limit)
			limit = pf->end;
		if (pos > limit || n > limit - pos)
			return perr(pf, off, "%" PRIu64 " bytes of trailing data run past the end of "
				    "the data", n);
		if (n <= pf->tail - pf->head) {
			pf->head += (size_t)n;
			return 0;
		}
		pf->buf_off = pf->src_pos = pos + n;
		pf->head = pf->tail = 0;
		return 0;
	}
	while (n) {
		size_t chunk;
		int rc;

		if (pf->tail == pf->head) {
			rc = ensure(pf, 1);
			if (rc < 0)
				return rc;
			if (rc == 0)
				return perr(pf, off, "%" PRIu64 " bytes of trailing data run past the "
					    "end of the data", n);
		}
		chunk = pf->tail - pf->head;
		if (chunk > n)
			chunk = (size_t)n;
		if (d) {
			memcpy(d, pf->buf + pf->head, chunk);
			d += chunk;
		}
		pf->head += chunk;
		n -= chunk;
	}
	return 0;
}

/* ---- opening ------------------------------------------------------------------------ */

/* Feature sections: a table of {offset, size} after the data, one per set bit. */
static int read_features(struct perf_file *pf)
{
	struct perf_header_info *h = &pf->h;
	bool sw = pf->swap;
	uint64_t nfeat;
	int rc = 0;

	nfeat = 0;
	for (int i = 0; i < 4; i++)
		nfeat += (uint64_t)__builtin_popcountll(h->features[i]);
	if (nfeat) {
		uint8_t *tab = xmalloc(nfeat * 16);
		unsigned int k = 0;

		rc = src_pread(pf, h->feat_offset, tab, nfeat * 16, "feature section table");
		for (unsigned int f = 0; !rc && f < FEAT_BITS; f++) {
			uint64_t off, size;
			uint8_t *sec;
			const char *why;
			size_t at;

			if (!perf_header__has_feat(h, f))
				continue;
			off = ld64(tab + 16 * k, sw);
			size = ld64(tab + 16 * k + 8, sw);
			k++;
			if (pf->seekable ? off > h->file_size || size > h->file_size - off
					 : size > pf->suffix_len) {
				rc = perr(pf, h->feat_offset + 16 * (k - 1),
					  "feature %s section [%" PRIu64 ", +%" PRIu64
					  ") is outside the file",
					  perf_feature__name(f) ?: "?", off, size);
				break;
			}
			if (f >= FEAT_LAST)
				continue;	/* unknown to us: skipped by size */
			sec = xmalloc(size ? size : 1);
			rc = src_pread(pf, off, sec, size, "feature section");
			/* perf reads the samples of a file with a broken feature section (a
			 * CPUDESC cut short by perf 3.14): the feature is left out, said */
			if (!rc && perf_feature__parse(h, f, sec, size, sw, false, id_lookup, pf,
						       &why, &at))
				pwarn(pf, off + at, "bad %s feature section: %s: left out",
				      perf_feature__name(f), why);
			free(sec);
		}
		free(tab);
	}
	return rc;
}

static int read_file_header(struct perf_file *pf)
{
	uint8_t fh[FILE_HEADER_SIZE];
	struct perf_header_info *h = &pf->h;
	uint64_t attrs_off, attrs_size, nr_attrs, pos;
	uint64_t limit = pf->seekable ? h->file_size : UINT64_MAX;
	bool sw = pf->swap;
	int rc;

	memset(fh, 0, sizeof(fh));
	/* perf_file_header__read: exactly these two sizes (the older one without features) */
	if (h->header_size != FILE_HEADER_SIZE && h->header_size != FILE_HEADER_SIZE_NOFEAT)
		return perr(pf, 8, "file header size %" PRIu64 ": a perf.data header is %u bytes "
			    "(%u in the oldest files, without features; %u in pipe mode)", h->header_size,
			    FILE_HEADER_SIZE, FILE_HEADER_SIZE_NOFEAT, PIPE_HEADER_SIZE);
	rc = src_pread(pf, 0, fh,
		       h->header_size < FILE_HEADER_SIZE ? FILE_HEADER_SIZE_NOFEAT
							 : FILE_HEADER_SIZE,
		       "file header");
	if (rc)
		return rc;
	h->attr_size = ld64(fh + 16, sw);
	attrs_off = ld64(fh + 24, sw);
	attrs_size = ld64(fh + 32, sw);
	h->data_offset = ld64(fh + 40, sw);
	h->data_size = ld64(fh + 48, sw);
	if (h->header_size >= FILE_HEADER_SIZE)
		for (int i = 0; i < 4; i++)
			h->features[i] = ld64(fh + 72 + 8 * i, sw);

	if (h->attr_size < PERF_ATTR_SIZE_VER0 + 16 || h->attr_size > MAX_ATTR_SIZE + 16)
		return perr(pf, 16, "attr size %" PRIu64 " out of range (was the recording "
			    "terminated properly?)", h->attr_size);
	if (attrs_off > limit || attrs_size > limit - attrs_off)
		return perr(pf, 24, "attrs section [%" PRIu64 ", +%" PRIu64 ") is outside the "
			    "file", attrs_off, attrs_size);
	if (h->data_offset > limit)
		return perr(pf, 40, "data offset %" PRIu64 " is past the end of the file",
			    h->data_offset);
	if (h->data_size > UINT64_MAX - h->data_offset)
		return perr(pf, 48, "data size %" PRIu64 " overflows", h->data_size);

	/* Attrs, each followed by the section of its ids (perf's read_attr). */
	nr_attrs = attrs_size / h->attr_size;
	pos = attrs_off;
	for (uint64_t i = 0; i < nr_attrs; i++) {
		uint8_t raw[MAX_ATTR_SIZE + 16];
		uint64_t ids_off, ids_size;
		struct perf_attr attr;
		uint8_t *ids;
		uint32_t sz;

		rc = src_pread(pf, pos, raw, PERF_ATTR_SIZE_VER0, "attr");
		if (rc)
			return rc;
		sz = ld32(raw + 4, sw);
		if (sz == 0)
			sz = PERF_ATTR_SIZE_VER0;
		if (sz < PERF_ATTR_SIZE_VER0 || sz > MAX_ATTR_SIZE)
			return perr(pf, pos + 4, "attr %" PRIu64 " has size %u", i, sz);
		rc = src_pread(pf, pos, raw, sz + 16, "attr");
		if (rc)
			return rc;
		perf_attr__decode(raw, sz, sw, &attr);
		attr.size = sz;
		ids_off = ld64(raw + sz, sw);
		ids_size = ld64(raw + sz + 8, sw);
		if (ids_off > limit || ids_size > limit - ids_off)
			return perr(pf, pos + sz, "ids of attr %" PRIu64 " [%" PRIu64 ", +%" PRIu64
				    ") are outside the file", i, ids_off, ids_size);
		if (ids_size / 8 > MAX_IDS)
			return perr(pf, pos + sz, "more than %u sample ids", MAX_IDS);
		ids = xmalloc(ids_size ? ids_size : 1);
		rc = src_pread(pf, ids_off, ids, ids_size, "attr ids");
		if (!rc)
			rc = add_evsel(pf, &attr, ids, ids_size / 8, pos);
		free(ids);
		if (rc)
			return rc;
		pos += sz + 16;
	}

	h->feat_offset = h->data_offset + h->data_size;
	if (!h->data_size)
		memset(h->features, 0, sizeof(h->features));	/* recording not finished */
	if (!pf->seekable) {
		/* through a pipe: the records follow what the window holds; features at the end */
		pf->head = (size_t)h->data_offset;
		pf->end = h->data_size ? h->data_offset + h->data_size : UINT64_MAX;
		pf->h.header_at_end = true;
		if (pf->end < pf->tail) {
			/* the window already holds bytes past the data: they start the suffix */
			pf->suffix_off = pf->end;
			pf->suffix_len = pf->tail - pf->end;
			pf->suffix = xmalloc(pf->suffix_len);
			memcpy(pf->suffix, pf->buf + pf->end, pf->suffix_len);
			pf->tail = (size_t)pf->end;
		}
		return 0;
	}
	rc = read_features(pf);
	if (rc)
		return rc;
	pf->features_done = true;

	pf->src_pos = pf->buf_off = h->data_offset;
	pf->head = pf->tail = 0;
	pf->end = h->data_size ? h->data_offset + h->data_size : UINT64_MAX;
	return 0;
}

static int open_common(struct perf_file *pf)
{
	uint64_t magic;
	int rc;

	pf->mapped = pf->fd >= 0 && pf->seekable;
	if (!pf->mapped) {
		/* a buffer in memory needs no window larger than itself (ensure() grows it) */
		pf->cap = pf->mem && pf->mem_size < WINDOW ? pf->mem_size + 64 : WINDOW;
		pf->buf = xmalloc(pf->cap);
	}
	pf->last_idx = -1;
	pf->end = UINT64_MAX;
	pf->id_pos = pf->is_pos = -1;

	rc = ensure(pf, PIPE_HEADER_SIZE);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return perr(pf, 0, "too short to be a perf.data file (%zu bytes)",
			    pf->tail - pf->head);
	magic = ld64(pf->buf, false);
	if (magic == PERF_MAGIC2) {
		pf->swap = false;
	} else if (magic == bswap_64(PERF_MAGIC2)) {
		pf->swap = true;
	} else if (magic == PERF_MAGIC1 || magic == bswap_64(PERF_MAGIC1)) {
		return perr(pf, 0, "perf.data version 1 (PERFFILE magic, perf before 2.6.36) is "
			    "not supported");
	} else {
		return perr(pf, 0, "not a perf.data file (bad magic 0x%016" PRIx64 ")", magic);
	}
	pf->h.big_endian = pf->swap;
	pf->h.header_size = ld64(pf->buf + 8, pf->swap);
	if (pf->h.header_size == PIPE_HEADER_SIZE) {
		pf->h.pipe = true;
		pf->head = PIPE_HEADER_SIZE;
		if (pf->mapped && pf->swap)
			pf->tail = pf->head;	/* remap writable: big-endian data is swapped in place */
		return 0;
	}
	if (!pf->seekable) {
		/* keep everything before the data in the window: header, ids, attrs */
		uint64_t data_off;

		rc = ensure(pf, FILE_HEADER_SIZE_NOFEAT);
		if (rc <= 0)
			return rc < 0 ? rc : perr(pf, 0, "file header cut short");
		data_off = ld64(pf->buf + 40, pf->swap);
		if (data_off > MAX_PREFIX)
			return perr(pf, 40, "data offset %" PRIu64 " too far for a pipe (at most %u "
				    "MiB of header kept)", data_off, MAX_PREFIX >> 20);
		rc = ensure(pf, data_off > FILE_HEADER_SIZE ? data_off : FILE_HEADER_SIZE);
		if (rc < 0)
			return rc;
		if (rc == 0 && pf->tail < data_off)
			return perr(pf, pf->tail, "the pipe ends before the data (at %" PRIu64 ")",
				    data_off);
	}
	return read_file_header(pf);
}

static struct perf_file *perf_file__new(const char *name)
{
	struct perf_file *pf = xcalloc(1, sizeof(*pf));

	pf->name = xstrdup(name);
	pf->fd = -1;
	return pf;
}

static int dir_file_cmp(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '.'), *y = strrchr(*(char *const *)b, '.');
	unsigned long nx = strtoul(x + 1, NULL, 10), ny = strtoul(y + 1, NULL, 10);

	return nx < ny ? -1 : nx > ny;
}

/* The DIR/data.N files, in N order. */
static int list_dir_files(struct perf_file *pf, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t cap = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name;

		if (strncmp(n, "data.", 5) || !n[5] || strspn(n + 5, "0123456789") != strlen(n + 5))
			continue;
		if (pf->nr_dir_files >= 65536)
			break;
		pf->dir_files = xgrow(pf->dir_files, &cap, pf->nr_dir_files + 1, sizeof(char *));
		pf->dir_files[pf->nr_dir_files++] = xasprintf("%s/%s", path, n);
	}
	closedir(d);
	if (pf->nr_dir_files)
		qsort(pf->dir_files, pf->nr_dir_files, sizeof(char *), dir_file_cmp);
	return 0;
}

/* Go on with the next DIR/data.N: raw records from its first byte to its end. */
static int next_dir_file(struct perf_file *pf)
{
	const char *path = pf->dir_files[pf->dir_next++];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return perr_errno(pf, errno, path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return perr(pf, 0, "%s is not a regular file", path);
	}
	if (pf->buf)
		munmap(pf->buf, pf->cap);
	if (pf->close_fd)
		close(pf->fd);
	pf->fd = fd;
	pf->close_fd = true;
	pf->buf = NULL;
	pf->cap = pf->head = pf->tail = 0;
	pf->buf_off = pf->src_pos = 0;
	pf->end = UINT64_MAX;
	pf->src_size = (uint64_t)st.st_size;
	free(pf->name);
	pf->name = xstrdup(path);
	return 0;
}

int perf_file__open(struct perf_file **pfp, const char *path, char *err, size_t errsz)
{
	struct perf_file *pf;
	struct stat st;
	int rc;

	*pfp = NULL;
	pf = perf_file__new(strcmp(path, "-") ? path : "<stdin>");
	if (!strcmp(path, "-")) {
		pf->fd = 0;
	} else {
		pf->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (pf->fd < 0) {
			rc = -errno;
			snprintf(err, errsz, "%s: %s", path, strerror(errno));
			perf_file__close(pf);
			return rc;
		}
		pf->close_fd = true;
	}
	if (fstat(pf->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* perf record --threads: DIR/data holds the header, DIR/data.N more records */
		char *main_path = xasprintf("%s/data", path);

		close(pf->fd);
		pf->fd = open(main_path, O_RDONLY | O_CLOEXEC);
		if (pf->fd < 0 || fstat(pf->fd, &st) || !S_ISREG(st.st_mode)) {
			rc = pf->fd < 0 ? -errno : -EINVAL;
			snprintf(err, errsz, "%s: a directory without a perf.data 'data' file", path);
			free(main_path);
			pf->close_fd = pf->fd >= 0;
			perf_file__close(pf);
			return rc;
		}
		free(pf->name);
		pf->name = main_path;
		rc = list_dir_files(pf, path);
		if (rc) {
			snprintf(err, errsz, "%s: %s", path, strerror(-rc));
			perf_file__close(pf);
			return rc;
		}
	}
	if (S_ISREG(st.st_mode)) {
		pf->seekable = true;
		pf->h.file_size = pf->src_size = (uint64_t)st.st_size;
		pf->h.mtime = (int64_t)st.st_mtime;
	}
	rc = open_common(pf);
	if (rc) {
		snprintf(err, errsz, "%s", pf->err);
		perf_file__close(pf);
		return rc;
	}
	*pfp = pf;
	return 0;
}

static int open_mem(struct perf_file **pfp, const void *buf, size_t size, const char *name,
		    char *err, size_t errsz, bool stream)
{
	struct perf_file *pf = perf_file__new(name);
	int rc;

	*pfp = NULL;
	pf->mem = buf;
	pf->mem_size = size;
	pf->seekable = !stream;
	pf->src_size = size;
	pf->h.file_size = stream ? 0 : size;
	rc = open_common(pf);
	if (rc) {
		snprintf(err, errsz, "%s", pf->err);
		perf_file__close(pf);
		return rc;
	}
	*pfp = pf;
	return 0;
}

int perf_file__open_mem(struct perf_file **pfp, const void *buf, size_t size, const char *name,
			char *err, size_t errsz)
{
	return open_mem(pfp, buf, size, name, err, errsz, false);
}

int perf_file__open_mem_stream(struct perf_file **pfp, const void *buf, size_t size,
			       const char *name, char *err, size_t errsz)
{
	return open_mem(pfp, buf, size, name, err, errsz, true);
}

void perf_file__close(struct perf_file *pf)
{
	if (!pf)
		return;
	if (pf->close_fd)
		close(pf->fd);
	if (pf->zstd)
		ZSTD_freeDStream(pf->zstd);
	perf_header_info__release(&pf->h);
	free(pf->dbuf);
	if (pf->mapped) {
		if (pf->buf)
			munmap(pf->buf, pf->cap);
	} else {
		free(pf->buf);
	}
	free(pf->scratch);
	free(pf->suffix);
	free(pf->aux_buf);
	arm_spe_synth__delete(pf->spe);
	free(pf->ids);
	free(pf->name);
	for (uint32_t i = 0; i < pf->nr_dir_files; i++)
		free(pf->dir_files[i]);
	free(pf->dir_files);
	free(pf);
}

const char *perf_file__errmsg(const struct perf_file *pf)
{
	return pf->err[0] ? pf->err : "no error";
}

void perf_file__set_raw_samples(struct perf_file *pf, bool raw)
{
	pf->raw_samples = raw;
}

int perf_file__decode_sample(struct perf_file *pf, struct record *rec)
{
	uint32_t idx = rec->sample.evsel;
	const char *why;

	if (perf_sample__decode(&pf->h.evsels[idx].attr, (void *)(uintptr_t)rec->payload,
				rec->size - 8u, pf->swap, &rec->sample, &why))
		return perr(pf, rec->offset, "bad SAMPLE record: %s", why);
	rec->sample.evsel = idx;
	rec->sample.misc = rec->misc;
	rec->sample.cpumode = rec->misc & CPUMODE_MASK;
	return 0;
}

uint64_t perf_file__offset(const struct perf_file *pf)
{
	return pf->buf_off + pf->head;
}

const struct perf_header_info *perf_file__header(const struct perf_file *pf)
{
	return &pf->h;
}

/* ---- records ------------------------------------------------------------------------ */

static const char *const record_names[REC_USER_MAX] = {
	[REC_MMAP] = "MMAP",
	[REC_LOST] = "LOST",
	[REC_COMM] = "COMM",
	[REC_EXIT] = "EXIT",
	[REC_THROTTLE] = "THROTTLE",
	[REC_UNTHROTTLE] = "UNTHROTTLE",
	[REC_FORK] = "FORK",
	[REC_READ] = "READ",
	[REC_SAMPLE] = "SAMPLE",
	[REC_MMAP2] = "MMAP2",
	[REC_AUX] = "AUX",
	[REC_ITRACE_START] = "ITRACE_START",
	[REC_LOST_SAMPLES] = "LOST_SAMPLES",
	[REC_SWITCH] = "SWITCH",
	[REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[REC_NAMESPACES] = "NAMESPACES",
	[REC_KSYMBOL] = "KSYMBOL",
	[REC_BPF_EVENT] = "BPF_EVENT",
	[REC_CGROUP] = "CGROUP",
	[REC_TEXT_POKE] = "TEXT_POKE",
	[REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[REC_HEADER_ATTR] = "ATTR",
	[REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[REC_HEADER_TRACING_DATA] = "TRACING_DATA",
	[REC_HEADER_BUILD_ID] = "BUILD_ID",
	[REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[REC_ID_INDEX] = "ID_INDEX",
	[REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[REC_AUXTRACE] = "AUXTRACE",
	[REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[REC_THREAD_MAP] = "THREAD_MAP",
	[REC_CPU_MAP] = "CPU_MAP",
	[REC_STAT_CONFIG] = "STAT_CONFIG",
	[REC_STAT] = "STAT",
	[REC_STAT_ROUND] = "STAT_ROUND",
	[REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[REC_TIME_CONV] = "TIME_CONV",
	[REC_HEADER_FEATURE] = "FEATURE",
	[REC_COMPRESSED] = "COMPRESSED",
	[REC_FINISHED_INIT] = "FINISHED_INIT",
	[REC_COMPRESSED2] = "COMPRESSED2",
};

const char *perf_record__type_name(uint32_t type)
{
	return type < REC_USER_MAX ? record_names[type] : NULL;
}

/* Which event a sample belongs to (perf's evlist__event2evsel). */
static int sample_evsel(struct perf_file *pf, const uint8_t *body, size_t len, uint64_t off)
{
	uint64_t id;
	int idx;

	if (!pf->h.nr_evsels)
		return perr(pf, off, "SAMPLE record before any event attr");
	if (pf->h.nr_evsels == 1 || pf->id_pos < 0)
		return 0;
	if ((size_t)(pf->id_pos + 1) * 8 > len)
		return perr(pf, off, "SAMPLE record too short for its sample id");
	id = ld64(body + pf->id_pos * 8, pf->swap);
	if (!id)
		return 0;
	idx = evsel_of_id_cached(pf, id);
	if (idx < 0)
		return perr(pf, off, "SAMPLE id %" PRIu64 " belongs to no event", id);
	return idx;
}

/*
 * The sample_id_all trailer of a non-sample record: decode it into rec->sample and return its
 * length, or -EINVAL.
 */
static int parse_sample_id(struct perf_file *pf, struct record *rec, uint8_t *body, size_t len)
{
	const struct perf_evsel *first = &pf->h.evsels[0], *ev = first;
	uint64_t t;
	size_t n;
	uint8_t *p;

	if (pf->h.nr_evsels > 1 && pf->is_pos > 0) {
		uint64_t id;
		int idx;

		if ((size_t)pf->is_pos * 8 > len)
			return perr(pf, rec->offset, "%s record too short for its sample id",
				    perf_record__type_name(rec->type) ?: "kernel");
		id = ld64(body + len - pf->is_pos * 8, pf->swap);
		if (id) {
			idx = evsel_of_id_cached(pf, id);
			if (idx < 0)
				return perr(pf, rec->offset, "%s record's sample id %" PRIu64
					    " belongs to no event",
					    perf_record__type_name(rec->type) ?: "kernel", id);
			ev = &pf->h.evsels[idx];
		}
	}
	t = ev->attr.sample_type & SAMPLE_ID_FIELDS;
	n = (size_t)__builtin_popcountll(t) * 8;
	if (n > len)
		return perr(pf, rec->offset, "%s record too short for its %zu-byte sample id",
			    perf_record__type_name(rec->type) ?: "kernel", n);
	p = body + len - n;
	rec->sample.evsel = ev->idx;
	rec->sample.present = t;
	if (t & SF_TID) {
		rec->sample.pid = ld32(p, pf->swap);
		rec->sample.tid = ld32(p + 4, pf->swap);
		p += 8;
	}
	if (t & SF_TIME) {
		rec->sample.time = ld64(p, pf->swap);
		p += 8;
	}
	if (t & SF_ID) {
		rec->sample.id = ld64(p, pf->swap);
		p += 8;
	}
	if (t & SF_STREAM_ID) {
		rec->sample.stream_id = ld64(p, pf->swap);
		p += 8;
	}
	if (t & SF_CPU) {
		rec->sample.cpu = ld32(p, pf->swap);
		rec->sample.res = ld32(p + 4, pf->swap);
		p += 8;
	}
	if (t & SF_IDENTIFIER)
		rec->sample.id = ld64(p, pf->swap);
	rec->has_sample_id = true;
	return (int)n;
}

static const char *cstring(const uint8_t *p, size_t len)
{
	return memchr(p, 0, len) ? (const char *)p : NULL;
}

static int too_short(struct perf_file *pf, const struct record *rec, size_t need)
{
	return perr(pf, rec->offset, "%s record of %u bytes is too short (needs %zu)",
		    perf_record__type_name(rec->type) ?: "?", rec->size, need + 8);
}

static int decode_kernel_record(struct perf_file *pf, struct record *rec, uint8_t *body,
				size_t len)
{
	bool sw = pf->swap;
	const char *s;

	if (pf->h.nr_evsels && perf_attr__flag(&pf->h.evsels[0].attr, ATTR_SAMPLE_ID_ALL)) {
		int n = parse_sample_id(pf, rec, body, len);

		if (n < 0)
			return n;
		len -= (size_t)n;
	}

	switch (rec->type) {
	case REC_MMAP:
	case REC_MMAP2: {
		struct rec_mmap *m = &rec->mmap;
		size_t fixed = rec->type == REC_MMAP ? 32 : 64;

		if (len < fixed)
			return too_short(pf, rec, fixed);
		m->pid = ld32(body, sw);
		m->tid = ld32(body + 4, sw);
		m->start = ld64(body + 8, sw);
		m->len = ld64(body + 16, sw);
		m->pgoff = ld64(body + 24, sw);
		if (rec->type == REC_MMAP2) {
			m->is_mmap2 = true;
			if (rec->misc & MISC_MMAP_BUILD_ID) {
				m->has_build_id = true;
				m->build_id_size = body[32] <= 20 ? body[32] : 20;
				memcpy(m->build_id, body + 36, 20);
				/*
				 * perf reads the ids from the union all the same, and does
				 * not swap them in a build-id record: its dso id is these
				 * bytes in host order.
				 */
				memcpy(&m->maj, body + 32, 4);
				memcpy(&m->min, body + 36, 4);
				memcpy(&m->ino, body + 40, 8);
				memcpy(&m->ino_generation, body + 48, 8);
			} else {
				m->maj = ld32(body + 32, sw);
				m->min = ld32(body + 36, sw);
				m->ino = ld64(body + 40, sw);
				m->ino_generation = ld64(body + 48, sw);
			}
			m->prot = ld32(body + 56, sw);
			m->flags = ld32(body + 60, sw);
		}
		m->filename = cstring(body + fixed, len - fixed);
		if (!m->filename)
			return perr(pf, rec->offset, "%s file name is not NUL-terminated",
				    perf_record__type_name(rec->type));
		break;
	}
	case REC_COMM:
		if (len < 8)
			return too_short(pf, rec, 8);
		rec->comm.pid = ld32(body, sw);
		rec->comm.tid = ld32(body + 4, sw);
		rec->comm.exec = rec->misc & MISC_COMM_EXEC;
		s = cstring(body + 8, len - 8);
		if (!s)
			return perr(pf, rec->offset, "COMM name is not NUL-terminated");
		rec->comm.comm = s;
		break;
	case REC_FORK:
	case REC_EXIT:
		if (len < 24)
			return too_short(pf, rec, 24);
		rec->task.pid = ld32(body, sw);
		rec->task.ppid = ld32(body + 4, sw);
		rec->task.tid = ld32(body + 8, sw);
		rec->task.ptid = ld32(body + 12, sw);
		rec->task.time = ld64(body + 16, sw);
		break;
	case REC_LOST:
		if (len < 16)
			return too_short(pf, rec, 16);
		rec->lost.id = ld64(body, sw);
		rec->lost.lost = ld64(body + 8, sw);
		break;
	case REC_LOST_SAMPLES:
		if (len < 8)
			return too_short(pf, rec, 8);
		rec->lost.id = rec->sample.id;
		rec->lost.lost = ld64(body, sw);
		break;
	case REC_THROTTLE:
	case REC_UNTHROTTLE:
		if (len < 24)
			return too_short(pf, rec, 24);
		rec->throttle.time = ld64(body, sw);
		rec->throttle.id = ld64(body + 8, sw);
		rec->throttle.stream_id = ld64(body + 16, sw);
		break;
	case REC_SWITCH:
	case REC_SWITCH_CPU_WIDE:
		rec->sw.out = rec->misc & MISC_SWITCH_OUT;
		rec->sw.preempt = rec->misc & MISC_SWITCH_OUT_PREEMPT;
		if (rec->type == REC_SWITCH_CPU_WIDE) {
			if (len < 8)
				return too_short(pf, rec, 8);
			rec->sw.next_prev_pid = ld32(body, sw);
			rec->sw.next_prev_tid = ld32(body + 4, sw);
		}
		break;
	case REC_NAMESPACES:
		if (len < 16)
			return too_short(pf, rec, 16);
		rec->ns.pid = ld32(body, sw);
		rec->ns.tid = ld32(body + 4, sw);
		rec->ns.nr = ld64(body + 8, sw);
		if (rec->ns.nr > (len - 16) / 16)
			return perr(pf, rec->offset, "NAMESPACES count %" PRIu64 " larger than the "
				    "record", rec->ns.nr);
		if (sw)
			swap64_array(body + 16, rec->ns.nr * 2);
		rec->ns.link_info = (const uint64_t *)(void *)(body + 16);
		break;
	case REC_KSYMBOL:
		if (len < 16)
			return too_short(pf, rec, 16);
		rec->ksymbol.addr = ld64(body, sw);
		rec->ksymbol.len = ld32(body + 8, sw);
		rec->ksymbol.ksym_type = ld16(body + 12, sw);
		rec->ksymbol.flags = ld16(body + 14, sw);
		rec->ksymbol.name = cstring(body + 16, len - 16);
		if (!rec->ksymbol.name)
			return perr(pf, rec->offset, "KSYMBOL name is not NUL-terminated");
		break;
	case REC_BPF_EVENT:
		if (len < 16)
			return too_short(pf, rec, 16);
		rec->bpf.type = ld16(body, sw);
		rec->bpf.flags = ld16(body + 2, sw);
		rec->bpf.id = ld32(body + 4, sw);
		memcpy(rec->bpf.tag, body + 8, 8);
		break;
	case REC_CGROUP:
		if (len < 8)
			return too_short(pf, rec, 8);
		rec->cgroup.id = ld64(body, sw);
		rec->cgroup.path = cstring(body + 8, len - 8);
		if (!rec->cgroup.path)
			return perr(pf, rec->offset, "CGROUP path is not NUL-terminated");
		break;
	case REC_TEXT_POKE:
		if (len < 12)
			return too_short(pf, rec, 12);
		rec->text_poke.addr = ld64(body, sw);
		rec->text_poke.old_len = ld16(body + 8, sw);
		rec->text_poke.new_len = ld16(body + 10, sw);
		if ((size_t)rec->text_poke.old_len + rec->text_poke.new_len > len - 12)
			return perr(pf, rec->offset, "TEXT_POKE bytes run past the record");
		rec->text_poke.bytes = body + 12;
		break;
	case REC_READ: {
		/* pid, tid, then the event's read_format values (in rec->sample.read_*) */
		const struct perf_attr *a;
		uint64_t nr = 1, words;

		if (!pf->h.nr_evsels)
			return perr(pf, rec->offset, "READ record before any event attr");
		a = &pf->h.evsels[rec->sample.evsel].attr;
		if (len < 8)
			return too_short(pf, rec, 8);
		rec->sample.pid = ld32(body, sw);
		rec->sample.tid = ld32(body + 4, sw);
		if ((a->read_format & READ_FORMAT_GROUP) && len >= 16)
			nr = ld64(body + 8, sw);
		words = (len - 8) / 8;
		if (nr > words)
			return perr(pf, rec->offset, "READ record count %" PRIu64 " larger than the "
				    "record", nr);
		if (sw)
			swap64_array(body + 8, words);
		rec->sample.read_nr = nr;
		rec->sample.read_values = (const uint64_t *)(void *)(body + 8);
		break;
	}
	case REC_ITRACE_START:
		if (len < 8)
			return too_short(pf, rec, 8);
		rec->itrace.pid = ld32(body, sw);
		rec->itrace.tid = ld32(body + 4, sw);
		break;
	case REC_AUX:
		if (len < 24)
			return too_short(pf, rec, 24);
		rec->aux.aux_offset = ld64(body, sw);
		rec->aux.aux_size = ld64(body + 8, sw);
		rec->aux.flags = ld64(body + 16, sw);
		break;
	default:
		break;
	}
	return 0;
}

static int apply_event_update(struct perf_file *pf, struct record *rec, const uint8_t *body,
			      size_t len)
{
	uint64_t type, id;
	int idx;
	struct perf_evsel *ev;

	if (len < 16)
		return too_short(pf, rec, 16);
	type = ld64(body, pf->swap);
	id = ld64(body + 8, pf->swap);
	idx = perf_file__evsel_of_id(pf, id);
	if (idx < 0)
		return 0;	/* perf ignores updates for unknown ids too */
	ev = &pf->h.evsels[idx];
	body += 16;
	len -= 16;
	switch (type) {
	case 0: /* UNIT */
		free(ev->unit);
		ev->unit = xstrndup((const char *)body, len);
		break;
	case 1: /* SCALE */
		if (len >= 8) {
			uint64_t v = ld64(body, pf->swap);

			memcpy(&ev->scale, &v, sizeof(v));
		}
		break;
	case 2: /* NAME: perf's report applies it (not --stats, see cli/cmd_info.c) */
		if (!ev->name_before_update) {
			ev->name_before_update = ev->name;
			ev->name = NULL;
		}
		free(ev->name);
		ev->name = xstrndup((const char *)body, len);
		break;
	default: /* CPUS: a cpu map, not needed yet */
		break;
	}
	return 0;
}

static int decode_user_record(struct perf_file *pf, struct record *rec, uint8_t *body,
			      size_t len)
{
	const char *why;
	size_t at;

	switch (rec->type) {
	case REC_HEADER_ATTR: {
		struct perf_attr attr;
		uint32_t sz;

		if (len < PERF_ATTR_SIZE_VER0)
			return too_short(pf, rec, PERF_ATTR_SIZE_VER0);
		sz = ld32(body + 4, pf->swap);
		if (sz == 0)
			sz = PERF_ATTR_SIZE_VER0;
		if (sz < PERF_ATTR_SIZE_VER0 || sz > len)
			return perr(pf, rec->offset, "HEADER_ATTR attr size %u out of range", sz);
		perf_attr__decode(body, sz, pf->swap, &attr);
		attr.size = sz;
		return add_evsel(pf, &attr, body + sz, (len - sz) / 8, rec->offset);
	}
	case REC_HEADER_FEATURE: {
		uint64_t feat;

		if (len < 8)
			return too_short(pf, rec, 8);
		feat = ld64(body, pf->swap);
		rec->feature_id = feat;
		if (feat < FEAT_LAST &&
		    perf_feature__parse(&pf->h, (unsigned int)feat, body + 8, len - 8, pf->swap,
					true, id_lookup, pf, &why, &at))
			return perr(pf, rec->offset + 16 + at, "bad %s feature record: %s",
				    perf_feature__name((unsigned int)feat), why);
		break;
	}
	case REC_EVENT_UPDATE:
		return apply_event_update(pf, rec, body, len);
	case REC_HEADER_BUILD_ID:
		/* the whole record is one entry of the BUILD_ID feature's format */
		if (perf_build_ids__append(&pf->h, body - 8, len + 8, pf->swap, &why))
			return perr(pf, rec->offset, "bad HEADER_BUILD_ID record: %s", why);
		pf->h.features[FEAT_BUILD_ID / 64] |= 1ULL << FEAT_BUILD_ID;
		break;
	case REC_ID_INDEX: {
		/* {id, idx (mmap index), cpu, tid} per id: placement, not event membership. */
		uint64_t nr;

		if (len < 8)
			return too_short(pf, rec, 8);
		nr = ld64(body, pf->swap);
		if (nr > (len - 8) / 32)
			return perr(pf, rec->offset, "ID_INDEX count %" PRIu64 " larger than the "
				    "record", nr);
		for (uint64_t i = 0; i < nr; i++) {
			const uint8_t *e = body + 8 + i * 32;
			struct id_slot *slot = id_find(pf, ld64(e, pf->swap));

			/* perf refuses an unknown id here; an index of ids we never saw is moot */
			if (!slot)
				continue;
			slot->mmap_idx = (uint32_t)ld64(e + 8, pf->swap);
			slot->cpu = (int32_t)ld64(e + 16, pf->swap);
			slot->tid = (int32_t)ld64(e + 24, pf->swap);
		}
		break;
	}
	case REC_AUXTRACE:
		if (len < 40)
			return too_short(pf, rec, 40);
		rec->auxtrace.size = ld64(body, pf->swap);
		rec->auxtrace.offset = ld64(body + 8, pf->swap);
		rec->auxtrace.reference = ld64(body + 16, pf->swap);
		rec->auxtrace.idx = ld32(body + 24, pf->swap);
		rec->auxtrace.tid = ld32(body + 28, pf->swap);
		rec->auxtrace.cpu = ld32(body + 32, pf->swap);
		break;
	default:
		break;
	}
	return 0;
}

/* Inflate a COMPRESSED record's payload onto the end of dbuf. */
static int inflate(struct perf_file *pf, const uint8_t *src, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { src, len, 0 };

	if (!pf->zstd) {
		pf->zstd = ZSTD_createDStream();
		if (!pf->zstd)
			return perr(pf, off, "cannot create a zstd stream");
		ZSTD_initDStream(pf->zstd);
	}
	if (pf->dhead) {
		memmove(pf->dbuf, pf->dbuf + pf->dhead, pf->dtail - pf->dhead);
		pf->dtail -= pf->dhead;
		pf->dhead = 0;
	}
	for (;;) {
		ZSTD_outBuffer out;
		size_t ret, before_in = in.pos;

		if (pf->dcap - pf->dtail < 65536) {
			if (pf->dcap >= MAX_DECOMP)
				return perr(pf, off, "COMPRESSED data inflates past %u MiB",
					    MAX_DECOMP >> 20);
			pf->dcap = pf->dcap ? pf->dcap * 2 : 1u << 20;
			pf->dbuf = xrealloc(pf->dbuf, pf->dcap);
		}
		out.dst = pf->dbuf;
		out.size = pf->dcap;
		out.pos = pf->dtail;
		ret = ZSTD_decompressStream(pf->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return perr(pf, off, "COMPRESSED record: zstd: %s", ZSTD_getErrorName(ret));
		if (out.pos == pf->dtail && in.pos == before_in) {
			if (in.pos == in.size)
				break;
			return perr(pf, off, "COMPRESSED record: zstd makes no progress");
		}
		pf->dtail = out.pos;
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
	return 0;
}

/* An 8-aligned buffer for one record, allocated on first use. */
static uint8_t *scratch(struct perf_file *pf)
{
	if (!pf->scratch)
		pf->scratch = xmalloc(MAX_RECORD + 8);
	return pf->scratch;
}

/* Decode the record of @size bytes at @p (8-aligned, writable) into @rec. */
static int decode_record(struct perf_file *pf, struct record *rec, uint8_t *p, uint32_t type,
			 uint16_t misc, uint16_t size, uint64_t off)
{
	uint8_t *body = p + 8;
	size_t len = size - 8u;

	if ((uintptr_t)p & 7) {
		p = memcpy(scratch(pf), p, size);
		body = p + 8;
	}
	if (type == REC_SAMPLE) {
		const char *why;
		int idx = sample_evsel(pf, body, len, off);

		if (idx < 0)
			return idx;
		if (pf->raw_samples) {
			rec->sample.evsel = (uint32_t)idx;
			rec->sample.present = 0;
		} else if (perf_sample__decode(&pf->h.evsels[idx].attr, body, len, pf->swap,
					       &rec->sample, &why))
			return perr(pf, off, "bad SAMPLE record: %s", why);
		rec->sample.evsel = (uint32_t)idx;
		rec->sample.misc = misc;
		rec->sample.cpumode = misc & CPUMODE_MASK;
		rec->has_sample_id = false;
	} else {
		memset(rec, 0, sizeof(*rec));
	}
	rec->type = type;
	rec->misc = misc;
	rec->size = size;
	rec->offset = off;
	rec->payload = body;
	if (type == REC_SAMPLE)
		return 0;
	if (type < REC_HEADER_ATTR)
		return decode_kernel_record(pf, rec, body, len);
	return decode_user_record(pf, rec, body, len);
}

/* The next record from the inflated data, if a whole one is there: 1, 0, or -EINVAL. */
static int next_inflated(struct perf_file *pf, struct record *rec)
{
	size_t avail = pf->dtail - pf->dhead;
	uint8_t *p;
	uint32_t type;
	uint16_t misc, size;
	int rc;

	if (avail < 8)
		return 0;
	p = pf->dbuf + pf->dhead;
	type = ld32(p, pf->swap);
	misc = ld16(p + 4, pf->swap);
	size = ld16(p + 6, pf->swap);
	if (size < 8)
		return perr(pf, pf->comp_off, "record of size %u inside COMPRESSED data (smaller "
			    "than its header)", size);
	if (size > avail)
		return 0;
	if (type == REC_COMPRESSED || type == REC_COMPRESSED2 || type == REC_AUXTRACE ||
	    type == REC_HEADER_TRACING_DATA)
		return perr(pf, pf->comp_off, "%s record inside COMPRESSED data",
			    perf_record__type_name(type));
	pf->dhead += size;
	rc = decode_record(pf, rec, p, type, misc, size, pf->comp_off);
	return rc < 0 ? rc : 1;
}

/* A file-mode perf.data through a pipe: read what follows the data, then its features. */
static int read_suffix(struct perf_file *pf)
{
	size_t cap = pf->suffix_len;
	int rc;

	pf->features_done = true;
	pf->end = UINT64_MAX;
	if (!pf->suffix)
		pf->suffix_off = pf->src_pos;
	for (;;) {
		ssize_t n;

		if (pf->suffix_len >= MAX_SUFFIX)
			return perr(pf, pf->src_pos, "more than %u MiB after the data",
				    MAX_SUFFIX >> 20);
		pf->suffix = xgrow(pf->suffix, &cap, pf->suffix_len + 65536, 1);
		n = src_read(pf, pf->suffix + pf->suffix_len, cap - pf->suffix_len);
		if (n < 0)
			return perr_errno(pf, (int)-n, "read");
		if (n == 0)
			break;
		pf->suffix_len += (uint64_t)n;
	}
	rc = pf->h.data_size ? read_features(pf) : 0;
	zfree(&pf->suffix);
	pf->suffix_len = 0;
	return rc;
}

/* ---- AUX traces (perf_file__set_auxtrace) ------------------------------------------- */

void perf_file__set_auxtrace(struct perf_file *pf, bool on)
{
	pf->no_aux = !on;
}

/*
 * An Arm SPE AUXTRACE_INFO: add the event perf c2c report synthesizes ("memory", perf's
 * arm_spe_synth_events with only itrace mem): the SPE event's sample_type within
 * PERF_SAMPLE_MASK | PHYS_ADDR, plus IP TID PERIOD DATA_SRC WEIGHT ADDR, and TIME unless no
 * event samples it; its id is the SPE event's first id + 1e9.
 */
static int spe_start(struct perf_file *pf, const struct record *rec)
{
	const uint8_t *p = rec->payload;
	size_t len = rec->size - 8u;
	struct perf_evsel *spe = NULL, *ev;
	struct perf_attr attr = { 0 };
	const uint64_t keep = SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_ID | SF_STREAM_ID | SF_CPU |
			      SF_PERIOD | SF_IDENTIFIER | SF_PHYS_ADDR;
	const uint64_t flags = (1ULL << ATTR_EXCLUDE_USER) | (1ULL << ATTR_EXCLUDE_KERNEL) |
			       (1ULL << ATTR_EXCLUDE_HV) | (1ULL << ATTR_EXCLUDE_HOST) |
			       (1ULL << ATTR_EXCLUDE_GUEST) | (1ULL << ATTR_SAMPLE_ID_ALL);
	bool timeless = true;
	uint64_t pmu_type, id;

	if (len < 8 || ld32(p, pf->swap) != ARM_SPE_AUXTRACE_TYPE || pf->spe)
		return 0;
	if (len < 8 + 8 * ARM_SPE_PRIV_MAX)
		return perr(pf, rec->offset, "Arm SPE AUXTRACE_INFO of %zu bytes, %d priv words "
			    "expected", len + 8, ARM_SPE_PRIV_MAX);
	pmu_type = ld64(p + 8, pf->swap);
	for (uint32_t i = 0; i < pf->h.nr_evsels; i++) {
		if (pf->h.evsels[i].attr.sample_type & SF_TIME)
			timeless = false;
		if (!spe && pf->h.evsels[i].attr.type == pmu_type)
			spe = &pf->h.evsels[i];
	}
	if (!spe)
		return 0;	/* perf: "No selected events with SPE trace data" */
	if (pf->h.header_at_end && !pf->features_done)
		return perr(pf, rec->offset, "an Arm SPE trace in a file-mode perf.data read "
			    "through a pipe: the CPUID header, which picks the data source "
			    "encoding, comes after the data; give the file itself");
	attr.type = ATTR_TYPE_HARDWARE;
	attr.size = PERF_ATTR_SIZE_LATEST;
	attr.sample_type = (spe->attr.sample_type & keep) | SF_IP | SF_TID | SF_PERIOD |
			   SF_DATA_SRC | SF_WEIGHT | SF_ADDR;
	if (timeless)
		attr.sample_type &= ~(uint64_t)SF_TIME;
	else
		attr.sample_type |= SF_TIME;
	attr.read_format = spe->attr.read_format;
	attr.flags = spe->attr.flags & flags;
	id = (spe->nr_ids ? spe->ids[0] : 0) + 1000000000;
	ev = perf_header_info__add_evsel(&pf->h, &attr);
	free(ev->name);
	ev->name = xstrdup("memory");
	ev->ids = xcalloc(1, sizeof(uint64_t));
	ev->ids[0] = id;
	ev->nr_ids = 1;
	id_add(pf, id, (int32_t)ev->idx);
	pf->spe_evsel = ev->idx;
	/* the MIDR, read as perf reads it (strtol of the CPUID text) */
	pf->spe = arm_spe_synth__new(pf->h.cpuid ? (uint64_t)strtol(pf->h.cpuid, NULL, 16) : 0,
				     &pf->tc, timeless);
	return 0;
}

/* What the synthesis needs from the records before the trace: time conversion, threads. */
static int aux_note(struct perf_file *pf, struct record *rec)
{
	const uint8_t *p = rec->payload;
	size_t len = rec->size - 8u;

	switch (rec->type) {
	case REC_TIME_CONV:
		if (len < 24)
			return too_short(pf, rec, 24);
		memset(&pf->tc, 0, sizeof(pf->tc));
		pf->tc.time_shift = (uint16_t)ld64(p, pf->swap);
		pf->tc.time_mult = (uint32_t)ld64(p + 8, pf->swap);
		pf->tc.time_zero = ld64(p + 16, pf->swap);
		if (len >= 42) {	/* perf's event_contains(time_cycles...) */
			pf->tc.time_cycles = ld64(p + 24, pf->swap);
			pf->tc.time_mask = ld64(p + 32, pf->swap);
			pf->tc.cap_user_time_zero = p[40];
			pf->tc.cap_user_time_short = p[41];
		}
		break;
	case REC_AUXTRACE_INFO:
		return spe_start(pf, rec);
	case REC_COMM:
		if (pf->spe)
			arm_spe_synth__thread(pf->spe, (int32_t)rec->comm.pid, (int32_t)rec->comm.tid);
		break;
	case REC_FORK:
		if (pf->spe)
			arm_spe_synth__thread(pf->spe, (int32_t)rec->task.pid, (int32_t)rec->task.tid);
		break;
	case REC_SWITCH_CPU_WIDE:
		/* perf's arm_spe_context_switch: the task switched to, for traces without CONTEXT */
		if (pf->spe && rec->sw.out && rec->has_sample_id &&
		    (rec->sample.present & (SF_CPU | SF_TIME)) == (SF_CPU | SF_TIME) &&
		    rec->sample.time)
			arm_spe_synth__switch(pf->spe, (int32_t)rec->sample.cpu, rec->sample.time,
					      (int32_t)rec->sw.next_prev_pid,
					      (int32_t)rec->sw.next_prev_tid);
		break;
	case REC_SWITCH:
		/*
		 * perf reads next_prev from this record too, where it has none: the first word
		 * after the header, the sample_id's TID, i.e. the task switched out.
		 */
		if (pf->spe && rec->sw.out && rec->has_sample_id &&
		    (rec->sample.present & (SF_CPU | SF_TIME | SF_TID)) ==
		    (SF_CPU | SF_TIME | SF_TID) && rec->sample.time)
			arm_spe_synth__switch(pf->spe, (int32_t)rec->sample.cpu, rec->sample.time,
					      (int32_t)rec->sample.pid, (int32_t)rec->sample.tid);
		break;
	}
	return 0;
}

/* An AUXTRACE record's data of an SPE trace: read into aux_buf, handed out, queued. */
static int aux_data(struct perf_file *pf, struct record *rec, uint64_t off)
{
	uint64_t n = rec->auxtrace.size, at = pf->buf_off + pf->head;
	const char *why;
	int rc;

	if (pf->seekable && (at > pf->src_size || n > pf->src_size - at))
		return perr(pf, off, "AUXTRACE data of %" PRIu64 " bytes runs past the end of the "
			    "data", n);
	if (n > MAX_AUX)
		return perr(pf, off, "AUXTRACE data of %" PRIu64 " bytes (more than %u MiB)", n,
			    MAX_AUX >> 20);
	/* through a pipe the size is unchecked until the data is there: grow as it comes */
	for (uint64_t got = 0; got < n;) {
		size_t chunk = n - got < (16u << 20) ? (size_t)(n - got) : 16u << 20;

		if (got + chunk > pf->aux_cap) {
			pf->aux_cap = (size_t)(pf->seekable ? n : got + chunk);
			pf->aux_buf = xrealloc(pf->aux_buf, pf->aux_cap);
		}
		rc = consume(pf, chunk, pf->aux_buf + got, off);
		if (rc)
			return rc;
		got += chunk;
	}
	rec->auxtrace.data = pf->aux_buf;
	if (arm_spe_synth__queue(pf->spe, rec->auxtrace.idx, (int32_t)rec->auxtrace.cpu,
				 (int32_t)rec->auxtrace.tid, pf->aux_buf, n, at, &why))
		return perr(pf, off, "%s", why);
	pf->spe_pending = true;
	pf->spe_off = off;
	return 0;
}

/*
 * The next memory sample of the AUXTRACE data read last, as a SAMPLE record of the "memory"
 * event whose payload is encoded in the file's byte order (so raw-sample readers decode it as
 * any other): 1, 0 when the data is done, -EINVAL on a bad packet.
 */
static int spe_next(struct perf_file *pf, struct record *rec)
{
	const struct perf_attr *attr = &pf->h.evsels[pf->spe_evsel].attr;
	uint8_t *p = (uint8_t *)pf->spe_rec;
	struct spe_sample smp;
	const char *why = NULL;
	uint64_t at = 0;
	size_t len;
	uint16_t misc;
	int rc = arm_spe_synth__next(pf->spe, &smp, &at, &why);

	if (rc < 0)
		return perr(pf, at, "%s (AUXTRACE record at byte %" PRIu64 ")", why, pf->spe_off);
	if (rc == 0) {
		pf->spe_pending = false;
		return 0;
	}
	len = spe_sample__encode(&smp, attr->sample_type, pf->h.evsels[pf->spe_evsel].ids[0],
				 pf->h.big_endian, p + 8);
	misc = smp.kernel ? CPUMODE_KERNEL : CPUMODE_USER;
	memset(rec, 0, sizeof(*rec));
	rec->type = REC_SAMPLE;
	rec->misc = misc;
	rec->size = (uint16_t)(8 + len);
	rec->offset = pf->spe_off;
	rec->payload = p + 8;
	if (!pf->raw_samples &&
	    perf_sample__decode(attr, p + 8, len, pf->swap, &rec->sample, &why))
		return perr(pf, pf->spe_off, "synthesized SPE sample: %s", why);
	rec->sample.evsel = pf->spe_evsel;
	rec->sample.misc = misc;
	rec->sample.cpumode = misc;
	return 1;
}

/*
 * perf_file__next_record for what most of a recording is, a raw SAMPLE whole in the mapped
 * window of a little-endian file, nothing inflated or synthesized pending: the same record,
 * without the general path's calls and checks.  1, or 0 when the general path is needed
 * (anything else, or a sample it reports an error for).
 */
static inline int next_raw_sample(struct perf_file *pf, struct record *rec)
{
	uint8_t *p = pf->buf + pf->head;
	size_t avail = pf->tail - pf->head;
	uint16_t misc, size;
	int idx = 0;

	if (!pf->raw_samples || !pf->mapped || pf->swap || pf->spe_pending ||
	    pf->dtail != pf->dhead || avail < 8 || ld32(p, false) != REC_SAMPLE ||
	    ((uintptr_t)p & 7) || !pf->h.nr_evsels)
		return 0;
	misc = ld16(p + 4, false);
	size = ld16(p + 6, false);
	if (size < 8 || size > avail)
		return 0;
	if (pf->h.nr_evsels > 1 && pf->id_pos >= 0) {
		uint64_t id;

		if ((size_t)(pf->id_pos + 1) * 8 > size - 8u)
			return 0;
		id = ld64(p + 8 + pf->id_pos * 8, false);
		idx = id ? evsel_of_id_cached(pf, id) : 0;
		if (idx < 0)
			return 0;
	}
	rec->sample.evsel = (uint32_t)idx;
	rec->sample.present = 0;
	rec->sample.misc = misc;
	rec->sample.cpumode = misc & CPUMODE_MASK;
	rec->has_sample_id = false;
	rec->type = REC_SAMPLE;
	rec->misc = misc;
	rec->size = size;
	rec->offset = pf->buf_off + pf->head;
	rec->payload = p + 8;
	pf->head += size;
	return 1;
}

int perf_file__next_record(struct perf_file *pf, struct record *rec)
{
	uint8_t *p;
	uint32_t type;
	uint16_t misc, size;
	uint64_t off;
	int rc;

	if (pf->failed)
		return -EINVAL;
	if (next_raw_sample(pf, rec))
		return 1;
	if (pf->spe_pending) {
		rc = spe_next(pf, rec);
		if (rc)
			return rc;
	}
again:
	rc = next_inflated(pf, rec);
	if (rc > 0 && rec->type != REC_SAMPLE && !pf->no_aux && aux_note(pf, rec) < 0)
		return -EINVAL;
	if (rc)
		return rc;

	rc = ensure(pf, 8);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		if (pf->tail != pf->head)
			return perr(pf, pf->buf_off + pf->head, "data ends inside a record header "
				    "(%zu bytes left)", pf->tail - pf->head);
		if (pf->dtail != pf->dhead)
			return perr(pf, pf->comp_off, "COMPRESSED data ends inside a record");
		if (pf->end != UINT64_MAX && pf->src_pos < pf->end)
			return perr(pf, pf->src_pos, "file ends %" PRIu64 " bytes before the end "
				    "of its data section", pf->end - pf->src_pos);
		if (pf->h.header_at_end && !pf->features_done) {
			rc = read_suffix(pf);
			if (rc)
				return rc;
		}
		if (pf->dir_next < pf->nr_dir_files) {
			rc = next_dir_file(pf);
			if (rc)
				return rc;
			goto again;
		}
		return 0;
	}
	p = pf->buf + pf->head;
	off = pf->buf_off + pf->head;
	type = ld32(p, pf->swap);
	misc = ld16(p + 4, pf->swap);
	size = ld16(p + 6, pf->swap);
	if (size < 8)
		return perr(pf, off, "record of type %u has size %u, smaller than its header "
			    "(bad event header size)", type, size);
	rc = ensure(pf, size);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return perr(pf, off, "record of %u bytes runs past the end of the data (%zu bytes "
			    "left)", size, pf->tail - pf->head);
	p = pf->buf + pf->head;
	pf->head += size;

	if (type == REC_COMPRESSED) {
		pf->comp_off = off;
		rc = inflate(pf, p + 8, size - 8u, off);
		if (rc)
			return rc;
	} else if (type == REC_COMPRESSED2) {
		uint64_t n = size >= 16 ? ld64(p + 8, pf->swap) : UINT64_MAX;

		if (n > size - 16u)
			return perr(pf, off, "COMPRESSED2 data size %" PRIu64 " larger than the record",
				    n);
		pf->comp_off = off;
		rc = inflate(pf, p + 16, (size_t)n, off);
		if (rc)
			return rc;
	} else if (type == REC_AUXTRACE || (type == REC_HEADER_TRACING_DATA && pf->h.pipe)) {
		/* Data follows the record: keep the record in scratch while reading past it. */
		p = memcpy(scratch(pf), p, size);
	}
	rc = decode_record(pf, rec, p, type, misc, size, off);
	if (!rc && type != REC_SAMPLE && !pf->no_aux)	/* off the samples' hot path */
		rc = aux_note(pf, rec);
	if (rc < 0)
		return rc;
	rc = 0;

	if (type == REC_AUXTRACE && pf->spe) {
		rc = aux_data(pf, rec, off);
	} else if (type == REC_AUXTRACE) {
		rc = consume(pf, rec->auxtrace.size, NULL, off);
	} else if (type == REC_HEADER_TRACING_DATA && pf->h.pipe) {
		uint64_t n, padded;

		if (size < 12)
			return too_short(pf, rec, 4);
		n = ld32(p + 8, pf->swap);
		padded = (n + 7) & ~7ULL;
		if (padded > MAX_TRACING)
			return perr(pf, off, "TRACING_DATA of %" PRIu64 " bytes is too large", n);
		if (pf->seekable && padded > pf->src_size - (pf->buf_off + pf->head))
			return perr(pf, off, "TRACING_DATA of %" PRIu64 " bytes runs past the end of "
				    "the file", n);
		free(pf->h.tracing_data);
		pf->h.tracing_data = xmalloc(padded ? padded : 1);
		pf->h.tracing_data_size = n;
		pf->h.features[FEAT_TRACING_DATA / 64] |= 1ULL << FEAT_TRACING_DATA;
		rc = consume(pf, padded, pf->h.tracing_data, off);
	}
	return rc < 0 ? rc : 1;
}
