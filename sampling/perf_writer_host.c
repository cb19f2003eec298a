// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header facts from the running machine (perf_writer__fill_host) and the build-id of an ELF
 * file (perf_writer__read_build_id).  libc only, like perf_writer.c.  The sysfs root is a
 * parameter so tests can point it at a fake tree.
 */
#include "sampling/perf_writer.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sampling/small_file.h"

static int read_u64(const char *path, int base, uint64_t *v)
{
	char buf[64], *end;
	int rc = small_file__read(path, buf, sizeof(buf));

	if (rc)
		return rc;
	*v = strtoull(buf, &end, base);
	return end == buf ? -EINVAL : 0;
}

/* Highest N such that @dir/@prefixN exists, plus one (0 when none). */
static unsigned int count_entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int max = 0, idx;
	size_t pl = strlen(prefix);
	char *end;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, pl))
			continue;
		idx = strtoul(de->d_name + pl, &end, 10);
		if (end == de->d_name + pl || *end)
			continue;
		if (idx + 1 > max)
			max = idx + 1;
	}
	closedir(d);
	return max;
}

static void fill_cpuinfo(struct perf_writer *w)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], vendor[64] = "", model_name[256] = "";
	int family = -1, model = -1, stepping = -1;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = 0;
		if (!strncmp(line, "vendor_id", 9) && !vendor[0])
			snprintf(vendor, sizeof(vendor), "%s", v);
		else if (!strncmp(line, "model name", 10) && !model_name[0])
			snprintf(model_name, sizeof(model_name), "%s", v);
		else if (!strncmp(line, "cpu family", 10) && family < 0)
			family = atoi(v);
		else if (!strncmp(line, "model\t", 6) && model < 0)
			model = atoi(v);
		else if (!strncmp(line, "stepping", 8) && stepping < 0)
			stepping = atoi(v);
		else if (!strncmp(line, "processor", 9) && vendor[0] && model_name[0])
			break;
	}
	fclose(f);
	if (model_name[0])
		perf_writer__set_string(w, FEAT_CPUDESC, model_name);
	if (vendor[0] && family >= 0) {
		char cpuid[128];

		/* perf's x86 get_cpuid format: vendor,family,model,stepping */
		snprintf(cpuid, sizeof(cpuid), "%s,%d,%d,%d", vendor, family, model, stepping);
		perf_writer__set_string(w, FEAT_CPUID, cpuid);
	}
}

static uint64_t meminfo_kb(const char *path, const char *key)
{
	FILE *f = fopen(path, "re");
	char line[256];
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *k = strstr(line, key);

		if (k && k[strlen(key)] == ':') {
			v = strtoull(k + strlen(key) + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Add @s to a list of distinct strings. */
static int add_unique(char ***v, uint32_t *n, const char *s)
{
	char **nv;

	for (uint32_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void free_list(char **v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int fill_topology(struct perf_writer *w, const char *sysfs, unsigned int nr_cpus)
{
	struct perf_writer_cpu_topology t = { 0 };
	char **cores = NULL, **threads = NULL, **dies = NULL;
	char path[4096], buf[4096];
	uint64_t v;
	int rc = -ENOMEM;

	t.core_id = calloc(nr_cpus, 4);
	t.socket_id = calloc(nr_cpus, 4);
	t.die_id = calloc(nr_cpus, 4);
	if (!t.core_id || !t.socket_id || !t.die_id)
		goto out;
	for (unsigned int c = 0; c < nr_cpus; c++) {
		static const char *const core_files[] = { "package_cpus_list", "core_siblings_list" };
		static const char *const thread_files[] = { "core_cpus_list",
							    "thread_siblings_list" };
		uint32_t *core_id = (uint32_t *)t.core_id, *socket_id = (uint32_t *)t.socket_id;
		uint32_t *die_id = (uint32_t *)t.die_id;

		core_id[c] = socket_id[c] = die_id[c] = (uint32_t)-1;
		for (int k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/%s", sysfs,
				 c, core_files[k]);
			if (!small_file__read(path, buf, sizeof(buf))) {
				if (add_unique(&cores, &t.nr_core_sibs, buf))
					goto out;
				break;
			}
		}
		for (int k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/%s", sysfs,
				 c, thread_files[k]);
			if (!small_file__read(path, buf, sizeof(buf))) {
				if (add_unique(&threads, &t.nr_thread_sibs, buf))
					goto out;
				break;
			}
		}
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/die_cpus_list",
			 sysfs, c);
		if (!small_file__read(path, buf, sizeof(buf)) &&
		    add_unique(&dies, &t.nr_die_sibs, buf))
			goto out;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/core_id", sysfs, c);
		if (!read_u64(path, 10, &v))
			core_id[c] = v;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%u/topology/physical_package_id", sysfs, c);
		if (!read_u64(path, 10, &v))
			socket_id[c] = v;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/die_id", sysfs, c);
		if (!read_u64(path, 10, &v))
			die_id[c] = v;
	}
	rc = 0;
	if (!t.nr_core_sibs && !t.nr_thread_sibs)
		goto out;	/* no topology directory: leave the feature out */
	t.core_sibs = (const char *const *)cores;
	t.thread_sibs = (const char *const *)threads;
	t.die_sibs = (const char *const *)dies;
	t.nr_cpus = nr_cpus;
	rc = perf_writer__set_cpu_topology(w, &t);
out:
	free_list(cores, t.nr_core_sibs);
	free_list(threads, t.nr_thread_sibs);
	free_list(dies, t.nr_die_sibs);
	free((void *)t.core_id);
	free((void *)t.socket_id);
	free((void *)t.die_id);
	return rc;
}

static int fill_numa(struct perf_writer *w, const char *sysfs)
{
	char dir[4096], path[4200], buf[4096];
	unsigned int nr;
	int rc;

	snprintf(dir, sizeof(dir), "%s/devices/system/node", sysfs);
	nr = count_entries(dir, "node");
	for (unsigned int n = 0; n < nr; n++) {
		uint64_t total, free_kb;
		char key[64];

		snprintf(path, sizeof(path), "%s/node%u/cpulist", dir, n);
		if (small_file__read(path, buf, sizeof(buf)))
			continue;
		snprintf(path, sizeof(path), "%s/node%u/meminfo", dir, n);
		snprintf(key, sizeof(key), "Node %u MemTotal", n);
		total = meminfo_kb(path, key);
		snprintf(key, sizeof(key), "Node %u MemFree", n);
		free_kb = meminfo_kb(path, key);
		rc = perf_writer__add_numa_node(w, n, total, free_kb, buf);
		if (rc)
			return rc;
	}
	return 0;
}

static int fill_mem_topology(struct perf_writer *w, const char *sysfs)
{
	char dir[4096], path[4200];
	uint64_t bsize;
	unsigned int nr;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", sysfs);
	if (read_u64(path, 16, &bsize))
		return 0;
	perf_writer__set_mem_block_size(w, bsize);
	snprintf(dir, sizeof(dir), "%s/devices/system/node", sysfs);
	nr = count_entries(dir, "node");
	for (unsigned int n = 0; n < nr; n++) {
		uint64_t *set;
		unsigned int nbits;
		int rc;

		snprintf(path, sizeof(path), "%s/node%u", dir, n);
		if (access(path, F_OK))
			continue;
		nbits = count_entries(path, "memory");
		set = calloc((nbits + 63) / 64 + 1, 8);
		if (!set)
			return -ENOMEM;
		for (unsigned int b = 0; b < nbits; b++) {
			char p2[4300];

			snprintf(p2, sizeof(p2), "%s/memory%u", path, b);
			if (!access(p2, F_OK))
				set[b / 64] |= 1ULL << (b % 64);
		}
		rc = perf_writer__add_mem_node(w, n, set, nbits);
		free(set);
		if (rc)
			return rc;
	}
	return 0;
}

/* Every distinct cache of every CPU, in level order as perf writes them. */
static int fill_caches(struct perf_writer *w, const char *sysfs, unsigned int nr_cpus)
{
	struct cache {
		uint64_t level, line, sets, ways;
		char type[64], size[64], map[1024];
	} *seen = NULL, c;
	char path[4096];
	uint32_t nr_seen = 0;
	int rc = 0;

	for (unsigned int cpu = 0; cpu < nr_cpus && !rc; cpu++) {
		for (unsigned int i = 0; i < 16 && !rc; i++) {
			bool dup = false;
			struct cache *ns;

#define CACHE_PATH(f) snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/cache/index%u/%s", \
			       sysfs, cpu, i, f)
			memset(&c, 0, sizeof(c));
			CACHE_PATH("level");
			if (read_u64(path, 10, &c.level))
				break;
			CACHE_PATH("coherency_line_size");
			read_u64(path, 10, &c.line);
			CACHE_PATH("number_of_sets");
			read_u64(path, 10, &c.sets);
			CACHE_PATH("ways_of_associativity");
			read_u64(path, 10, &c.ways);
			CACHE_PATH("type");
			if (small_file__read(path, c.type, sizeof(c.type)))
				c.type[0] = 0;
			CACHE_PATH("size");
			if (small_file__read(path, c.size, sizeof(c.size)))
				c.size[0] = 0;
			CACHE_PATH("shared_cpu_list");
			if (small_file__read(path, c.map, sizeof(c.map)))
				c.map[0] = 0;
#undef CACHE_PATH
			for (uint32_t k = 0; k < nr_seen; k++)
				if (seen[k].level == c.level && !strcmp(seen[k].type, c.type) &&
				    !strcmp(seen[k].map, c.map))
					dup = true;
			if (dup)
				continue;
			ns = realloc(seen, (nr_seen + 1) * sizeof(*seen));
			if (!ns) {
				rc = -ENOMEM;
				break;
			}
			seen = ns;
			seen[nr_seen++] = c;
		}
	}
	for (uint64_t level = 0; level < 8 && !rc; level++)
		for (uint32_t k = 0; k < nr_seen && !rc; k++)
			if (seen[k].level == level)
				rc = perf_writer__add_cache(w, level, seen[k].line, seen[k].sets,
							   seen[k].ways, seen[k].type, seen[k].size,
							   seen[k].map);
	free(seen);
	return rc;
}

int perf_writer__fill_host(struct perf_writer *w, const char *sysfs)
{
	struct utsname u;
	char path[4096];
	unsigned int nr_cpus;
	long online;
	uint64_t kb;
	int rc;

	if (!sysfs)
		sysfs = "/sys";
	if (!uname(&u)) {
		perf_writer__set_string(w, FEAT_HOSTNAME, u.nodename);
		perf_writer__set_string(w, FEAT_OSRELEASE, u.release);
		perf_writer__set_string(w, FEAT_ARCH, u.machine);
	}
	perf_writer__set_string(w, FEAT_VERSION, "6.1 (lineup perf_writer)");
	snprintf(path, sizeof(path), "%s/devices/system/cpu", sysfs);
	nr_cpus = count_entries(path, "cpu");
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (!nr_cpus)
		nr_cpus = online > 0 ? online : 1;
	perf_writer__set_nrcpus(w, nr_cpus, online > 0 ? online : nr_cpus);
	fill_cpuinfo(w);
	kb = meminfo_kb("/proc/meminfo", "MemTotal");
	if (kb)
		perf_writer__set_total_mem(w, kb);
	rc = fill_topology(w, sysfs, nr_cpus);
	if (!rc)
		rc = fill_numa(w, sysfs);
	if (!rc)
		rc = fill_caches(w, sysfs, nr_cpus);
	if (!rc)
		rc = fill_mem_topology(w, sysfs);
	return rc;
}

/* ---- build-id ---------------------------------------------------------------------- */

static uint32_t e32(uint32_t v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t e64(uint64_t v, bool swap)
{
	return swap ? __builtin_bswap64(v) : v;
}

/* Look for NT_GNU_BUILD_ID in the notes at [off, off + size). */
static int scan_notes(int fd, uint64_t off, uint64_t size, bool swap, uint8_t out[20])
{
	uint8_t buf[4096];
	uint64_t pos = 0;

	if (size > sizeof(buf))
		size = sizeof(buf);
	if (pread(fd, buf, size, off) != (ssize_t)size)
		return 0;
	while (pos + 12 <= size) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		namesz = e32(namesz, swap);
		descsz = e32(descsz, swap);
		type = e32(type, swap);
		pos += 12;
		if (namesz > size || descsz > size)
			return 0;
		uint64_t name_at = pos, desc_at = pos + ((namesz + 3) & ~3u);

		if (desc_at + descsz > size)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name_at, "GNU", 4)) {
			uint32_t n = descsz > 20 ? 20 : descsz;

			memcpy(out, buf + desc_at, n);
			return n;
		}
		pos = desc_at + ((descsz + 3) & ~3u);
	}
	return 0;
}

int perf_writer__read_build_id(const char *path, uint8_t out[20])
{
	unsigned char ident[EI_NIDENT];
	/* O_NONBLOCK and fstat: a FIFO put at a mapped file's name is never waited on */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = 0;
	bool swap, is64;
	uint64_t shoff;
	uint16_t shnum, shentsize;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (pread(fd, ident, sizeof(ident), 0) != sizeof(ident) || memcmp(ident, ELFMAG, SELFMAG)) {
		rc = -ENOEXEC;
		goto out;
	}
	is64 = ident[EI_CLASS] == ELFCLASS64;
	swap = (ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (is64) {
		Elf64_Ehdr eh;

		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh)) {
			rc = -ENOEXEC;
			goto out;
		}
		shoff = e64(eh.e_shoff, swap);
		shnum = swap ? __builtin_bswap16(eh.e_shnum) : eh.e_shnum;
		shentsize = swap ? __builtin_bswap16(eh.e_shentsize) : eh.e_shentsize;
	} else {
		Elf32_Ehdr eh;

		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh)) {
			rc = -ENOEXEC;
			goto out;
		}
		shoff = e32(eh.e_shoff, swap);
		shnum = swap ? __builtin_bswap16(eh.e_shnum) : eh.e_shnum;
		shentsize = swap ? __builtin_bswap16(eh.e_shentsize) : eh.e_shentsize;
	}
	/* Section headers: every SHT_NOTE section (present in executables and in .debug files). */
	for (unsigned int i = 0; i < shnum && shoff && !rc; i++) {
		uint64_t off, size;
		uint32_t type;

		if (is64) {
			Elf64_Shdr sh;

			if (shentsize < sizeof(sh) ||
			    pread(fd, &sh, sizeof(sh), shoff + (uint64_t)i * shentsize) != sizeof(sh))
				break;
			type = e32(sh.sh_type, swap);
			off = e64(sh.sh_offset, swap);
			size = e64(sh.sh_size, swap);
		} else {
			Elf32_Shdr sh;

			if (shentsize < sizeof(sh) ||
			    pread(fd, &sh, sizeof(sh), shoff + (uint64_t)i * shentsize) != sizeof(sh))
				break;
			type = e32(sh.sh_type, swap);
			off = e32(sh.sh_offset, swap);
			size = e32(sh.sh_size, swap);
		}
		if (type == SHT_NOTE)
			rc = scan_notes(fd, off, size, swap, out);
	}
out:
	close(fd);
	return rc;
}
