// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/machine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "util/xalloc.h"

/* Kernel ABI values (include/uapi/linux/perf_event.h, mman.h). */
#define MISC_MMAP_DATA (1u << 13)
#define MISC_FORK_EXEC (1u << 13)
#define MISC_COMM_EXEC (1u << 13)
#define PROT_EXEC_BIT 0x4
#define MAP_HUGETLB_BIT 0x40000

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"

/* An address space: maps sorted by start, not overlapping (after fixup). */
struct maps {
	struct map **v;
	size_t n, cap;
	/*
	 * indices of the last two hits, a cheap cache for runs of samples, whose code and data
	 * addresses fall in two maps (the second one only where maps do not overlap)
	 */
	size_t last, prev;
	unsigned int refcnt;
	bool overlaps; /* the kernel's: modules may lie inside the kernel map's range */
};

struct thread_impl {
	struct thread pub;
	struct maps *maps;
	bool comm_set;
	int32_t ns_pid;		   /* pid at creation: perf's nsinfo pid, names JIT maps */
	struct thread_impl *hnext; /* tid hash chain */
};

struct str_ent {
	struct str_ent *next;
	uint64_t hash;
	char s[];
};

struct bid_ent {
	char *name;
	bool kernel;
	uint8_t size;
	uint8_t bid[20];
};

struct machine {
	/* tid -> thread, chained; removed threads stay in @all_threads until delete */
	struct thread_impl **thash;
	size_t thash_size, nr_live;
	struct thread_impl **all_threads;
	size_t nr_all_threads, all_threads_cap;
	struct thread_impl *last_thread;

	/* every map ever made, so addr_locs never dangle */
	struct map **all_maps;
	size_t nr_all_maps, all_maps_cap;
	struct maps **all_maps_sets;
	size_t nr_sets, sets_cap;

	struct dso **dsos;
	size_t nr_dsos, dsos_cap;
	struct dso **dhash; /* open addressing on long_name */
	size_t dhash_size;

	struct str_ent **strs; /* string interning: comms and names repeat */
	size_t strs_size, nr_strs;

	struct bid_ent *bids;
	size_t nr_bids, bids_cap;

	struct maps *kmaps;
	struct map *kernel_map;
	struct dso *kernel_dso;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static const char *intern(struct machine *m, const char *s)
{
	uint64_t h = hash_str(s);
	struct str_ent *e;
	size_t b;

	if (m->nr_strs * 2 >= m->strs_size) {
		size_t nsize = m->strs_size ? m->strs_size * 2 : 256;
		struct str_ent **nv = xcalloc(nsize, sizeof(*nv));

		for (size_t i = 0; i < m->strs_size; i++) {
			while ((e = m->strs[i])) {
				m->strs[i] = e->next;
				e->next = nv[e->hash & (nsize - 1)];
				nv[e->hash & (nsize - 1)] = e;
			}
		}
		free(m->strs);
		m->strs = nv;
		m->strs_size = nsize;
	}
	b = h & (m->strs_size - 1);
	for (e = m->strs[b]; e; e = e->next)
		if (e->hash == h && !strcmp(e->s, s))
			return e->s;
	e = xmalloc(sizeof(*e) + strlen(s) + 1);
	e->hash = h;
	strcpy(e->s, s);
	e->next = m->strs[b];
	m->strs[b] = e;
	m->nr_strs++;
	return e->s;
}

/* ---- address spaces ---- */

static struct maps *maps__new(struct machine *m)
{
	struct maps *ms = xcalloc(1, sizeof(*ms));

	ms->refcnt = 1;
	m->all_maps_sets =
	    xgrow(m->all_maps_sets, &m->sets_cap, m->nr_sets + 1, sizeof(*m->all_maps_sets));
	m->all_maps_sets[m->nr_sets++] = ms;
	return ms;
}

static struct map *map__alloc(struct machine *m)
{
	struct map *map = xcalloc(1, sizeof(*map));

	m->all_maps =
	    xgrow(m->all_maps, &m->all_maps_cap, m->nr_all_maps + 1, sizeof(*m->all_maps));
	m->all_maps[m->nr_all_maps++] = map;
	return map;
}

static struct map *map__clone(struct machine *m, const struct map *src)
{
	struct map *map = map__alloc(m);

	*map = *src;
	return map;
}

/* Index of the first map whose start is > addr. */
static size_t maps__upper(const struct maps *ms, uint64_t addr)
{
	size_t lo = 0, hi = ms->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ms->v[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void maps__insert_at(struct maps *ms, size_t i, struct map *map)
{
	ms->v = xgrow(ms->v, &ms->cap, ms->n + 1, sizeof(*ms->v));
	memmove(ms->v + i + 1, ms->v + i, (ms->n - i) * sizeof(*ms->v));
	ms->v[i] = map;
	ms->n++;
}

/* Insert keeping the order by start (perf's maps__insert: no overlap check). */
static void maps__insert(struct maps *ms, struct map *map)
{
	maps__insert_at(ms, maps__upper(ms, map->start), map);
	ms->last = ms->prev = 0;
}

static void maps__remove_at(struct maps *ms, size_t i)
{
	memmove(ms->v + i, ms->v + i + 1, (ms->n - i - 1) * sizeof(*ms->v));
	ms->n--;
	ms->last = ms->prev = 0;
}

/*
 * perf's maps__fixup_overlappings: every map overlapping [map->start, map->end) is removed,
 * and what it had before and after that range is put back as clones.
 */
static void maps__fixup_overlappings(struct machine *m, struct maps *ms, const struct map *map)
{
	size_t i = 0;

	/* first map whose end > map->start */
	while (i < ms->n && ms->v[i]->end <= map->start)
		i++;
	while (i < ms->n) {
		struct map *pos = ms->v[i];

		if (pos->start >= map->end)
			break;
		maps__remove_at(ms, i);
		if (map->start > pos->start) {
			struct map *before = map__clone(m, pos);

			before->end = map->start;
			maps__insert_at(ms, i++, before);
		}
		if (map->end < pos->end) {
			struct map *after = map__clone(m, pos);

			after->start = map->end;
			if (!after->identity)
				after->pgoff += map->end - pos->start;
			maps__insert_at(ms, i++, after);
		}
	}
}

static struct map *maps__find(struct maps *ms, uint64_t addr)
{
	size_t i;

	if (!ms->n)
		return NULL;
	if (ms->last < ms->n) {
		struct map *c = ms->v[ms->last];

		if (addr >= c->start && addr < c->end)
			return c;
	}
	if (!ms->overlaps && ms->prev < ms->n) {
		struct map *c = ms->v[ms->prev];

		if (addr >= c->start && addr < c->end)
			return c;
	}
	i = maps__upper(ms, addr);
	/* Overlaps only happen in the kernel maps (modules inside the kernel's range). */
	while (i > 0) {
		struct map *c = ms->v[--i];

		if (addr < c->end) {
			ms->prev = ms->last;
			ms->last = i;
			return c;
		}
		if (!ms->overlaps)
			break;
	}
	return NULL;
}

/* ---- dsos ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static struct dso *dso__find(struct machine *m, const char *name)
{
	if (!m->dhash_size)
		return NULL;
	for (size_t i = hash_str(name) & (m->dhash_size - 1);; i = (i + 1) & (m->dhash_size - 1)) {
		struct dso *d = m->dhash[i];

		if (!d)
			return NULL;
		if (!strcmp(d->long_name, name))
			return d;
	}
}

static void dhash__put(struct machine *m, struct dso *d)
{
	size_t i = hash_str(d->long_name) & (m->dhash_size - 1);

	while (m->dhash[i])
		i = (i + 1) & (m->dhash_size - 1);
	m->dhash[i] = d;
}

static const struct bid_ent *bid__find(struct machine *m, const char *name, bool kernel)
{
	for (size_t i = 0; i < m->nr_bids; i++)
		if (m->bids[i].kernel == kernel && !strcmp(m->bids[i].name, name))
			return &m->bids[i];
	return NULL;
}

static struct dso *dso__findnew(struct machine *m, const char *long_name, const char *short_name,
				enum dso_kind kind)
{
	struct dso *d = dso__find(m, long_name);
	const struct bid_ent *b;

	if (d)
		return d;
	if ((m->nr_dsos + 1) * 2 > m->dhash_size) {
		size_t nsize = m->dhash_size ? m->dhash_size * 2 : 64;

		free(m->dhash);
		m->dhash = xcalloc(nsize, sizeof(*m->dhash));
		m->dhash_size = nsize;
		for (size_t i = 0; i < m->nr_dsos; i++)
			dhash__put(m, m->dsos[i]);
	}
	d = xcalloc(1, sizeof(*d));
	d->long_name = intern(m, long_name);
	d->short_name = intern(m, short_name ? short_name : base_name(long_name));
	d->kind = kind;
	d->index = m->nr_dsos;
	b = bid__find(m, long_name, kind == DSO_KIND_KERNEL);
	if (b) {
		d->build_id_size = b->size;
		memcpy(d->build_id, b->bid, b->size);
	}
	m->dsos = xgrow(m->dsos, &m->dsos_cap, m->nr_dsos + 1, sizeof(*m->dsos));
	m->dsos[m->nr_dsos++] = d;
	dhash__put(m, d);
	return d;
}

/* The first MMAP or MMAP2 that maps @d gives it its id (zero for MMAP), as perf's dso keeps. */
static void dso__note_id(struct dso *d, const struct rec_mmap *mm)
{
	if (d->has_id)
		return;
	d->has_id = true;
	if (mm->is_mmap2) {
		d->id.maj = mm->maj;
		d->id.min = mm->min;
		d->id.ino = mm->ino;
		d->id.ino_generation = mm->ino_generation;
	}
}

/* perf's build_id__is_defined: an all-zero build-id (an old header's padding) is none. */
static bool bid_defined(const uint8_t *bid, unsigned int size)
{
	for (unsigned int i = 0; i < size; i++)
		if (bid[i])
			return true;
	return false;
}

static void dso__set_build_id(struct dso *d, const uint8_t *bid, unsigned int size)
{
	if (!bid_defined(bid, size))
		return;
	if (size > sizeof(d->build_id))
		size = sizeof(d->build_id);
	memcpy(d->build_id, bid, size);
	d->build_id_size = size;
}

void machine__set_build_id(struct machine *m, const char *filename, bool kernel,
			   const uint8_t *build_id, unsigned int size)
{
	struct bid_ent *b;
	struct dso *d;

	if (size > 20)
		size = 20;
	if (!bid_defined(build_id, size))
		return;
	m->bids = xgrow(m->bids, &m->bids_cap, m->nr_bids + 1, sizeof(*m->bids));
	b = &m->bids[m->nr_bids++];
	b->name = xstrdup(filename);
	b->kernel = kernel;
	b->size = size;
	memcpy(b->bid, build_id, size);
	d = dso__find(m, filename);
	if (d && !d->build_id_size)
		dso__set_build_id(d, build_id, size);
}

/* ---- threads ---- */

static struct thread_impl *thash__find(struct machine *m, int32_t tid)
{
	if (!m->thash_size)
		return NULL;
	for (struct thread_impl *t = m->thash[(uint32_t)tid & (m->thash_size - 1)]; t; t = t->hnext)
		if (t->pub.tid == tid)
			return t;
	return NULL;
}

static void thash__add(struct machine *m, struct thread_impl *t)
{
	if ((m->nr_live + 1) > m->thash_size) {
		size_t nsize = m->thash_size ? m->thash_size * 2 : 256;
		struct thread_impl **nv = xcalloc(nsize, sizeof(*nv));
		struct thread_impl *e;

		for (size_t i = 0; i < m->thash_size; i++)
			while ((e = m->thash[i])) {
				m->thash[i] = e->hnext;
				e->hnext = nv[(uint32_t)e->pub.tid & (nsize - 1)];
				nv[(uint32_t)e->pub.tid & (nsize - 1)] = e;
			}
		free(m->thash);
		m->thash = nv;
		m->thash_size = nsize;
	}
	size_t b = (uint32_t)t->pub.tid & (m->thash_size - 1);

	t->hnext = m->thash[b];
	m->thash[b] = t;
	m->nr_live++;
}

static void thash__remove(struct machine *m, struct thread_impl *t)
{
	struct thread_impl **pp = &m->thash[(uint32_t)t->pub.tid & (m->thash_size - 1)];

	for (; *pp; pp = &(*pp)->hnext)
		if (*pp == t) {
			*pp = t->hnext;
			m->nr_live--;
			break;
		}
	if (m->last_thread == t)
		m->last_thread = NULL;
}

static struct thread_impl *impl(struct thread *t)
{
	return (struct thread_impl *)t;
}

static struct thread_impl *findnew(struct machine *m, int32_t pid, int32_t tid);

/* perf's machine__update_thread_pid: a thread first seen without its pid joins its leader. */
static void update_pid(struct machine *m, struct thread_impl *t, int32_t pid)
{
	struct thread_impl *leader;

	if (pid == t->pub.pid || pid == -1 || t->pub.pid != -1)
		return;
	t->pub.pid = pid;
	if (pid == t->pub.tid)
		return;
	leader = findnew(m, pid, pid);
	if (t->maps == leader->maps)
		return;
	if (t->maps)
		t->maps->refcnt--;
	t->maps = leader->maps;
	t->maps->refcnt++;
}

static struct thread_impl *findnew(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread_impl *t;
	char comm[24];

	if (m->last_thread && m->last_thread->pub.tid == tid)
		t = m->last_thread;
	else
		t = thash__find(m, tid);
	if (t) {
		m->last_thread = t;
		update_pid(m, t, pid);
		return t;
	}
	t = xcalloc(1, sizeof(*t));
	t->pub.pid = pid;
	t->pub.tid = tid;
	t->pub.ppid = -1;
	t->ns_pid = pid;
	snprintf(comm, sizeof(comm), ":%d", tid);
	t->pub.comm = intern(m, comm);
	thash__add(m, t);
	m->all_threads = xgrow(m->all_threads, &m->all_threads_cap, m->nr_all_threads + 1,
			       sizeof(*m->all_threads));
	m->all_threads[m->nr_all_threads++] = t;
	/* perf's thread__init_maps */
	if (pid == tid || pid == -1) {
		t->maps = maps__new(m);
	} else {
		struct thread_impl *leader = findnew(m, pid, pid);

		t->maps = leader->maps;
		t->maps->refcnt++;
	}
	m->last_thread = t;
	return t;
}

struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid)
{
	return &findnew(m, pid, tid)->pub;
}

struct thread *machine__find_thread(struct machine *m, int32_t tid)
{
	struct thread_impl *t = thash__find(m, tid);

	return t ? &t->pub : NULL;
}

/* ---- records ---- */

static int is_anon_memory(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14);
}

static int is_no_dso_memory(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

static int is_vdso_map(const char *f)
{
	return !strcmp(f, "[vdso]") || !strcmp(f, "[vdso32]") || !strcmp(f, "[vdsox32]");
}

/* A record's end, saturated: a hostile length must not wrap below the start. */
static uint64_t map_end(const struct rec_mmap *mm)
{
	return mm->len > UINT64_MAX - mm->start ? UINT64_MAX : mm->start + mm->len;
}

/* "/lib/modules/.../nf-nat.ko.xz" -> "[nf_nat]"; "[foo]" stays. */
static void module_short_name(const char *path, char *out, size_t size)
{
	const char *b = base_name(path);
	size_t n;

	if (path[0] == '[') {
		snprintf(out, size, "%s", path);
		return;
	}
	n = strcspn(b, ".");
	if (n > size - 3)
		n = size - 3;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[i + 1] = b[i] == '-' ? '_' : b[i];
	out[n + 1] = ']';
	out[n + 2] = 0;
}

/*
 * The kernel's dso: a kernel entry of the BUILD_ID header that is not a module names it
 * (a vmlinux path shows as "[kernel.vmlinux]", as perf shows it), else "[kernel.kallsyms]".
 */
static struct dso *kernel_dso(struct machine *m)
{
	for (size_t i = 0; i < m->nr_bids; i++) {
		const char *n = m->bids[i].name;
		size_t len = strlen(n);

		if (!m->bids[i].kernel || (len > 3 && strstr(n, ".ko")) ||
		    (n[0] == '[' && strcmp(n, KERNEL_MMAP_NAME)))
			continue;
		return dso__findnew(m, n,
				    strstr(n, "vmlinux") ? "[kernel.vmlinux]" : KERNEL_MMAP_NAME,
				    DSO_KIND_KERNEL);
	}
	return dso__findnew(m, KERNEL_MMAP_NAME, KERNEL_MMAP_NAME, DSO_KIND_KERNEL);
}

static void kernel_mmap(struct machine *m, const struct rec_mmap *mm, bool has_bid)
{
	const char *name = mm->filename;
	size_t klen = strlen(KERNEL_MMAP_NAME);
	bool is_kernel = !strncmp(name, KERNEL_MMAP_NAME, klen - 1);

	if (name[0] == '/' || (!is_kernel && name[0] == '[')) {
		char sn[256];
		struct map *map = map__alloc(m);

		module_short_name(name, sn, sizeof(sn));
		map->dso = dso__findnew(m, name, sn, DSO_KIND_MODULE);
		map->start = mm->start;
		map->end = map_end(mm);
		map->prot = PROT_EXEC_BIT;
		if (has_bid)
			dso__set_build_id(map->dso, mm->build_id, mm->build_id_size);
		dso__note_id(map->dso, mm);
		maps__insert(m->kmaps, map);
	} else if (is_kernel) {
		/* perf's __machine__create_kernel_maps: a fresh identity map for each such MMAP */
		struct map *km = map__alloc(m);

		if (m->kernel_map) {
			for (size_t i = 0; i < m->kmaps->n; i++)
				if (m->kmaps->v[i] == m->kernel_map) {
					maps__remove_at(m->kmaps, i);
					break;
				}
		}
		if (!m->kernel_dso)
			m->kernel_dso = kernel_dso(m);
		km->dso = m->kernel_dso;
		km->identity = true;
		km->prot = PROT_EXEC_BIT;
		km->start = mm->start;
		km->end = map_end(mm);
		if (km->start == 0 && km->end == 0)
			km->end = ~0ULL;
		m->kernel_map = km;
		maps__insert(m->kmaps, km);
		if (has_bid)
			dso__set_build_id(km->dso, mm->build_id, mm->build_id_size);
		dso__note_id(km->dso, mm);
		if (mm->pgoff) {
			km->ref_reloc = mm->pgoff;
			km->ref_reloc_name = intern(m, name + klen);
		}
	}
	/* Other kernel maps (entry trampolines) carry no symbols lineup can use. */
}

static int process_mmap(struct machine *m, const struct record *rec)
{
	const struct rec_mmap *mm = &rec->mmap;
	uint8_t cpumode = rec->misc & CPUMODE_MASK;
	bool has_bid = mm->is_mmap2 && mm->has_build_id;
	const char *filename = mm->filename;
	struct thread_impl *t;
	struct map *map;
	uint32_t prot, flags = 0;
	int anon, no_dso, vdso;
	char jit[40], jit_short[40];

	if (!filename || !filename[0])
		return -EINVAL;
	if (cpumode == CPUMODE_KERNEL || cpumode == CPUMODE_GUEST_KERNEL) {
		kernel_mmap(m, mm, has_bid);
		return 0;
	}
	t = findnew(m, (int32_t)mm->pid, (int32_t)mm->tid);
	if (mm->is_mmap2) {
		prot = mm->prot;
		flags = mm->flags;
	} else {
		prot = (rec->misc & MISC_MMAP_DATA) ? 0 : PROT_EXEC_BIT;
	}
	anon = is_anon_memory(filename) || (flags & MAP_HUGETLB_BIT);
	vdso = is_vdso_map(filename);
	no_dso = is_no_dso_memory(filename);

	map = map__alloc(m);
	map->start = mm->start;
	map->end = map_end(mm);
	map->pgoff = mm->pgoff;
	map->prot = prot;
	map->flags = flags;
	if ((anon || no_dso) && (prot & PROT_EXEC_BIT) && t->ns_pid != 0) {
		/* perf names the map after the pid the thread was created with (its nsinfo) */
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", t->ns_pid);
		snprintf(jit_short, sizeof(jit_short), "[JIT] tid %d", t->ns_pid);
		map->dso = dso__findnew(m, jit, jit_short, DSO_KIND_JIT);
	} else if (vdso) {
		map->pgoff = 0;
		map->dso = dso__findnew(m, filename, filename, DSO_KIND_VDSO);
	} else if (anon || no_dso) {
		map->dso = dso__findnew(m, filename, NULL, DSO_KIND_ANON);
	} else {
		map->dso = dso__findnew(m, filename, NULL, DSO_KIND_USER);
	}
	if (anon || no_dso)
		map->identity = true;
	if (has_bid)
		dso__set_build_id(map->dso, mm->build_id, mm->build_id_size);
	dso__note_id(map->dso, mm);

	maps__fixup_overlappings(m, t->maps, map);
	maps__insert(t->maps, map);
	return 0;
}

/*
 * PERF_RECORD_KSYMBOL: u64 addr, u32 len, u16 ksym_type, u16 flags, char name[] (NUL-padded),
 * then the sample_id trailer.  perf's machine__process_ksymbol_{register,unregister}.
 */
static int process_ksymbol(struct machine *m, const struct record *rec)
{
	const uint8_t *p = rec->payload;
	size_t len = rec->size > 8 ? rec->size - 8u : 0;
	uint64_t addr;
	uint32_t klen;
	uint16_t flags;
	const char *name;
	struct map *map;

	if (!p || len < 17 || !memchr(p + 16, 0, len - 16))
		return -EINVAL;
	memcpy(&addr, p, 8);
	memcpy(&klen, p + 8, 4);
	memcpy(&flags, p + 14, 2);
	name = (const char *)p + 16;
	map = maps__find(m->kmaps, addr);
	if (flags & 1) { /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
		if (map && map != m->kernel_map)
			for (size_t i = 0; i < m->kmaps->n; i++)
				if (m->kmaps->v[i] == map) {
					maps__remove_at(m->kmaps, i);
					break;
				}
		return 0;
	}
	if (map)
		return 0; /* perf adds the symbol to that map's object; lineup does not */
	map = map__alloc(m);
	map->dso = dso__findnew(m, name, name, DSO_KIND_BPF);
	map->start = addr;
	map->end = klen > UINT64_MAX - addr ? UINT64_MAX : addr + klen;
	map->prot = PROT_EXEC_BIT;
	maps__insert(m->kmaps, map);
	return 0;
}

static void maps__clone_into(struct machine *m, struct maps *dst, const struct maps *src)
{
	for (size_t i = 0; i < src->n; i++)
		maps__insert(dst, map__clone(m, src->v[i]));
}

static int process_fork(struct machine *m, const struct record *rec)
{
	const struct rec_task *f = &rec->task;
	struct thread_impl *t = thash__find(m, (int32_t)f->tid);
	struct thread_impl *parent = findnew(m, (int32_t)f->ppid, (int32_t)f->ptid);

	if (parent->pub.pid != (int32_t)f->ppid) {
		/* a stale thread under the parent's tid: the fork that removed it was lost */
		thash__remove(m, parent);
		parent = findnew(m, (int32_t)f->ppid, (int32_t)f->ptid);
	}
	if (t)
		thash__remove(m, t);
	t = findnew(m, (int32_t)f->pid, (int32_t)f->tid);
	if (parent->comm_set) {
		t->pub.comm = parent->pub.comm;
		t->comm_set = true;
	}
	t->pub.ppid = parent->pub.tid;
	if (t->pub.pid != parent->pub.pid && t->maps != parent->maps &&
	    !(rec->misc & MISC_FORK_EXEC))
		maps__clone_into(m, t->maps, parent->maps);
	return 0;
}

int machine__process_record(struct machine *m, const struct record *rec)
{
	struct thread_impl *t;

	switch (rec->type) {
	case REC_MMAP:
	case REC_MMAP2:
		return process_mmap(m, rec);
	case REC_COMM:
		if (!rec->comm.comm)
			return -EINVAL;
		t = findnew(m, (int32_t)rec->comm.pid, (int32_t)rec->comm.tid);
		t->pub.comm = intern(m, rec->comm.comm);
		t->comm_set = true;
		return 0;
	case REC_FORK:
		return process_fork(m, rec);
	case REC_EXIT:
		t = thash__find(m, (int32_t)rec->task.tid);
		if (t)
			t->pub.exited = true;
		return 0;
	case REC_KSYMBOL:
		return process_ksymbol(m, rec);
	default:
		return 0;
	}
}

/* ---- lookups ---- */

struct map *machine__find_map(struct machine *m, struct thread *thread, uint8_t cpumode,
			      uint64_t addr, struct addr_loc *loc)
{
	struct maps *ms;

	loc->thread = thread;
	loc->addr = addr;
	loc->cpumode = cpumode;
	loc->map = NULL;
	loc->dso = NULL;
	if (cpumode == CPUMODE_KERNEL) {
		loc->level = 'k';
		ms = m->kmaps;
	} else if (cpumode == CPUMODE_USER) {
		loc->level = '.';
		ms = impl(thread)->maps;
	} else {
		loc->level = 'H';
		return NULL;
	}
	loc->map = maps__find(ms, addr);
	if (loc->map) {
		loc->dso = loc->map->dso;
		loc->addr = map__map_ip(loc->map, addr);
	}
	return loc->map;
}

struct map *machine__resolve(struct machine *m, const struct sample *s, struct addr_loc *loc)
{
	int32_t pid = -1, tid = -1;
	struct thread_impl *t;

	if (s->present & SF_TID) {
		pid = (int32_t)s->pid;
		tid = (int32_t)s->tid;
	}
	t = findnew(m, pid, tid);
	return machine__find_map(m, &t->pub, s->cpumode & CPUMODE_MASK, s->ip, loc);
}

struct map *machine__find_any_cpumode(struct machine *m, struct thread *thread, uint64_t addr,
				      struct addr_loc *loc)
{
	static const uint8_t modes[] = {CPUMODE_USER, CPUMODE_KERNEL};

	for (size_t i = 0; i < sizeof(modes); i++) {
		if (machine__find_map(m, thread, modes[i], addr, loc))
			return loc->map;
	}
	/* perf ends on the guest kernel try: level 'H', no map */
	loc->level = 'H';
	loc->addr = addr;
	return NULL;
}

struct map *machine__kernel_map(struct machine *m)
{
	return m->kernel_map;
}

unsigned int machine__nr_dsos(const struct machine *m)
{
	return m->nr_dsos;
}

struct dso *machine__dso(const struct machine *m, unsigned int index)
{
	return index < m->nr_dsos ? m->dsos[index] : NULL;
}

unsigned int machine__nr_threads(const struct machine *m)
{
	return m->nr_live;
}

struct machine *machine__new(void)
{
	struct machine *m = xcalloc(1, sizeof(*m));

	m->kmaps = maps__new(m);
	m->kmaps->overlaps = true;
	return m;
}

void machine__delete(struct machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_all_threads; i++)
		free(m->all_threads[i]);
	free(m->all_threads);
	free(m->thash);
	for (size_t i = 0; i < m->nr_all_maps; i++)
		free(m->all_maps[i]);
	free(m->all_maps);
	for (size_t i = 0; i < m->nr_sets; i++) {
		free(m->all_maps_sets[i]->v);
		free(m->all_maps_sets[i]);
	}
	free(m->all_maps_sets);
	for (size_t i = 0; i < m->nr_dsos; i++)
		free(m->dsos[i]);
	free(m->dsos);
	free(m->dhash);
	for (size_t i = 0; i < m->strs_size; i++) {
		struct str_ent *e, *n;

		for (e = m->strs[i]; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	free(m->strs);
	for (size_t i = 0; i < m->nr_bids; i++)
		free(m->bids[i].name);
	free(m->bids);
	free(m);
}
