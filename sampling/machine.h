/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_MACHINE_H
#define LINEUP_SAMPLING_MACHINE_H

/*
 * perf's machine/thread/map model, rebuilt from the records of one perf.data: threads (pid,
 * tid, comm, fork inheritance), each process's address space from MMAP/MMAP2 records, and the
 * kernel's (the kernel MMAP with cpumode kernel, and one map per module), so that a sample's
 * (pid, tid, ip, cpumode) resolves to the object, the map and the file-relative address exactly
 * as perf's machine__resolve()/thread__find_map() do (tools/perf/util/machine.c, map.c,
 * event.c, thread.c of Linux 6.1):
 *
 *   - threads are keyed by tid; a new thread whose pid differs from its tid shares the address
 *     space of its leader (pid, pid); FORK of another process copies the parent's maps (unless
 *     the record carries PERF_RECORD_MISC_FORK_EXEC, perf's "synthesized" mark); a FORK for a
 *     tid that already exists replaces it; COMM sets the name (an exec keeps the maps: the new
 *     image's MMAPs replace the old ones by overlap, as in perf); EXIT keeps the thread;
 *   - a new map cuts away what it overlaps of older maps (perf's maps__fixup_overlappings);
 *   - map_ip: ip - start + pgoff; identity (ip itself) for "//anon", "/dev/zero*",
 *     "/anon_hugepage*", MAP_HUGETLB, "[stack*", "/SYSV*", "[heap]" and for the kernel map;
 *     an executable anon mapping is named "/tmp/perf-PID.map" (JIT symbol map) as perf does;
 *     "[vdso]" maps have pgoff 0;
 *   - a MMAP/MMAP2 with cpumode kernel named "[kernel.kallsyms]..." creates the kernel map
 *     (identity, its range from the record; pgoff is the address of the reference symbol,
 *     e.g. _text, kept as ref_reloc); there is none before such a record, as in perf; any
 *     other such record naming a path or "[name]" adds a module map ("[modname]");
 *   - a KSYMBOL record (a BPF program the kernel registered) adds a kernel map named after
 *     it, [addr, addr + len), unless a kernel map already holds the address; one with the
 *     UNREGISTER flag removes the kernel map holding its address (not the kernel's own);
 *   - cpumode kernel looks in the kernel maps (level 'k'), user in the thread's maps (level
 *     '.'); guest and hypervisor modes get level 'H' and no map (perf's defaults: host only).
 *
 * Lookups are O(log maps) with a per-address-space last-hit cache and an O(1) tid hash; memory
 * is bounded by the number of threads, maps and distinct objects, never by the sample count.
 *
 * Ownership: the machine owns every thread, map and dso it hands out; they stay valid until
 * machine__delete (a map replaced by a later MMAP stays allocated, so an addr_loc taken earlier
 * never dangles).  Record pointers are copied, never kept.
 */
#include <stdbool.h>
#include <stdint.h>

struct record;
struct sample;
struct machine;

enum dso_kind {
	DSO_KIND_USER,	 /* a file mapped by a process */
	DSO_KIND_KERNEL, /* [kernel.kallsyms] */
	DSO_KIND_MODULE, /* a kernel module, short name "[name]" */
	DSO_KIND_VDSO,	 /* [vdso] */
	DSO_KIND_ANON,	 /* //anon, [heap], [stack], /SYSV...: no file, identity map_ip */
	DSO_KIND_JIT,	 /* executable anon memory: /tmp/perf-PID.map */
	DSO_KIND_BPF,	 /* code the kernel registered with a KSYMBOL record (BPF programs):
			  * the name is its one symbol */
};

/**
 * struct dso_id - the file an object was mapped from, perf's struct dso_id: MMAP2's maj, min,
 * ino and ino_generation.  perf reads them from the record's union even when it carries a
 * build-id instead (PERF_RECORD_MISC_MMAP_BUILD_ID): then they are that build-id's bytes.
 */
struct dso_id {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};

/**
 * struct dso - one object, as perf's struct dso (one per distinct long name and build-id).
 * @long_name:	the name in the MMAP record ("/usr/lib/x86_64-linux-gnu/libc.so.6"), or
 *		"[kernel.kallsyms]", "[vdso]", "/tmp/perf-PID.map"
 * @short_name:	what perf prints in the Object/Shared Object column: the basename of the
 *		path, "[kernel.kallsyms]", "[vdso]", "[modname]" for a module, "[JIT] tid PID"
 * @build_id:	from MMAP2 (PERF_RECORD_MISC_MMAP_BUILD_ID) or machine__set_build_id (the
 *		file's BUILD_ID header feature); @build_id_size 0 when unknown
 * @id:		from the first MMAP or MMAP2 record that mapped it (perf's dso keeps the id it
 *		was created with); all zero after an MMAP, or for an object no record mapped
 * @index:	dense number of this dso in the machine, 0..machine__nr_dsos()-1, for callers
 *		that keep per-dso tables (the symbolizer's handle, for instance)
 * @priv:	free for the caller (e.g. the symbolizer's per-dso handle); never touched here
 */
struct dso {
	const char *long_name;
	const char *short_name;
	enum dso_kind kind;
	uint8_t build_id_size;
	uint8_t build_id[20];
	struct dso_id id;
	bool has_id;		/* @id set (private to the machine) */
	uint32_t index;
	void *priv;
};

/**
 * struct map - one mapping of a dso in an address space, [start, end).
 * @pgoff:	file offset of @start (0 for [vdso]; for the kernel map, 0)
 * @identity:	map_ip is the identity (anon memory, the kernel map)
 * @prot, @flags: from MMAP2 (MMAP: PROT_EXEC unless the record is a data mmap)
 * @ref_reloc:	kernel map only: the address of the reference symbol named after
 *		"[kernel.kallsyms]" in the record (@ref_reloc_name, e.g. "_text"), 0 if unknown
 */
struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
	bool identity;
	uint32_t prot, flags;
	uint64_t ref_reloc;
	const char *ref_reloc_name;
};

/**
 * struct thread - one task.
 * @pid:	process id (-1 until known)
 * @tid:	thread id
 * @ppid:	parent pid from FORK, -1 if unknown
 * @comm:	the latest COMM, or ":TID" until there is one (perf's default)
 * @exited:	an EXIT record was seen
 */
struct thread {
	int32_t pid, tid, ppid;
	const char *comm;
	bool exited;
};

/**
 * struct addr_loc - where an address lies, perf's struct addr_location.
 * @thread:	the sample's thread (always set by machine__resolve)
 * @map:	the map containing the address, NULL when none does
 * @dso:	@map->dso or NULL
 * @addr:	the file-relative address: map_ip(ip), or the ip itself when no map
 * @level:	'.' user, 'k' kernel, 'H' hypervisor/guest/unknown (no map looked up)
 * @cpumode:	the cpumode used
 */
struct addr_loc {
	struct thread *thread;
	struct map *map;
	struct dso *dso;
	uint64_t addr;
	char level;
	uint8_t cpumode;
};

struct machine *machine__new(void);
void machine__delete(struct machine *m);

/*
 * Feed one record; MMAP, MMAP2, COMM, FORK, EXIT and KSYMBOL change the model, any other type
 * is ignored.  Returns 0, or -EINVAL for a record it cannot use (an empty filename): perf skips
 * those too, so callers may count and continue.
 */
int machine__process_record(struct machine *m, const struct record *rec);

/*
 * The BUILD_ID header feature: remember @build_id for @filename (and "[kernel.kallsyms]" when
 * @kernel); applied to the dso of that name whenever it appears without an MMAP2 build-id.
 */
void machine__set_build_id(struct machine *m, const char *filename, bool kernel,
			   const uint8_t *build_id, unsigned int size);

/* The thread for (pid, tid), created if new (perf's machine__findnew_thread). */
struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid);
/* The thread for tid, or NULL. */
struct thread *machine__find_thread(struct machine *m, int32_t tid);

/*
 * Resolve @addr for @thread in @cpumode (perf's thread__find_map).  Fills *loc; returns
 * loc->map (NULL when no map contains the address).
 */
struct map *machine__find_map(struct machine *m, struct thread *thread, uint8_t cpumode,
			      uint64_t addr, struct addr_loc *loc);

/* A sample's ip: findnew_thread(sample pid, tid) then find_map(sample cpumode, ip). */
struct map *machine__resolve(struct machine *m, const struct sample *s, struct addr_loc *loc);

/*
 * perf's thread__find_cpumode_addr_location, used for a mem sample's code and data addresses:
 * tries user, then kernel (then the guest modes, which a host-only session never maps) and
 * takes the first map that contains @addr; when none does, *loc has level 'H' and no map.
 */
struct map *machine__find_any_cpumode(struct machine *m, struct thread *thread, uint64_t addr,
				      struct addr_loc *loc);

/* perf's map__map_ip and map__unmap_ip. */
static inline uint64_t map__map_ip(const struct map *map, uint64_t ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

static inline uint64_t map__unmap_ip(const struct map *map, uint64_t rip)
{
	return map->identity ? rip : rip + map->start - map->pgoff;
}

/*
 * The kernel's map, NULL until a kernel MMAP record (perf reading a file creates it only
 * then: kernel samples before it, or in a file without one, have no map, "[unknown]").
 */
struct map *machine__kernel_map(struct machine *m);

unsigned int machine__nr_dsos(const struct machine *m);
struct dso *machine__dso(const struct machine *m, unsigned int index);
unsigned int machine__nr_threads(const struct machine *m);

#endif
