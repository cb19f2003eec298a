// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The running machine's kernel symbols, kernel and module maps, process maps and thread names,
 * read from /proc as perf record's synthesis reads them.
 */
#include <config.h>

#include "sampling/host.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* PERF_RECORD_MISC_MMAP_DATA: a mapping that is not executable. */
#define MISC_MMAP_DATA (1u << 13)

int kallsyms__for_each(const char *path, int (*fn)(const struct ksym *sym, void *arg), void *arg)
{
	FILE *f = fopen(path ? path : HOST_KALLSYMS, "re");
	int rc;

	if (!f)
		return -errno;
	rc = ksym__for_each_in(f, fn, arg);
	fclose(f);
	return rc;
}

struct text_range {
	uint64_t text, stext, etext;
};

static int text_symbol(const struct ksym *s, void *arg)
{
	struct text_range *t = arg;

	if (s->module)
		return 1;	/* the kernel proper comes first; modules follow */
	if (!strcmp(s->name, "_text"))
		t->text = s->addr;
	else if (!strcmp(s->name, "_stext"))
		t->stext = s->addr;
	else if (!strcmp(s->name, "_etext"))
		t->etext = s->addr;
	return t->text && t->etext;
}

int kallsyms__kernel_text(const char *path, uint64_t *start, uint64_t *end)
{
	struct text_range t = { 0 };
	int rc = kallsyms__for_each(path, text_symbol, &t);

	if (rc < 0)
		return rc;
	*start = t.text ? t.text : t.stext;
	if (!*start)
		return -ENOENT;
	*end = t.etext > *start ? t.etext : UINT64_MAX;
	return 0;
}

int host__kernel_maps(const char *kallsyms, const char *modules,
		      int (*fn)(const struct rec_mmap *m, uint16_t misc, void *arg), void *arg)
{
	struct rec_mmap m = { 0 };
	uint64_t start, end;
	char line[1024], name[256], fname[260];
	unsigned long long size, addr;
	FILE *f;
	int rc;

	if (kallsyms__kernel_text(kallsyms, &start, &end) < 0)
		return 0;
	m.pid = (uint32_t)-1;
	m.start = start;
	m.len = end - start;
	m.pgoff = start;
	m.filename = "[kernel.kallsyms]_text";
	rc = fn(&m, CPUMODE_KERNEL, arg);
	f = fopen(modules ? modules : "/proc/modules", "re");
	if (!f)
		return rc;
	while (!rc && fgets(line, sizeof(line), f)) {
		/* "NAME SIZE REFS DEPS STATE ADDR" */
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr)
			continue;
		snprintf(fname, sizeof(fname), "[%s]", name);
		memset(&m, 0, sizeof(m));
		m.pid = (uint32_t)-1;
		m.start = addr;
		m.len = size;
		m.filename = fname;
		rc = fn(&m, CPUMODE_KERNEL, arg);
	}
	fclose(f);
	return rc;
}

int proc_maps__parse(char *line, struct rec_mmap *m)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	char perms[8];
	int name_at = 0;
	char *name;
	size_t n;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj, &min,
		   &ino, &name_at) != 7 || !name_at || end < start || strlen(perms) < 4)
		return -1;
	name = line + name_at + strspn(line + name_at, " \t");
	n = strcspn(name, "\n");
	name[n] = 0;
	m->start = start;
	m->len = end - start;
	m->pgoff = off;
	m->is_mmap2 = true;
	m->has_build_id = false;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->ino_generation = 0;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->filename = name[0] ? name : "//anon";
	return 0;
}

uint16_t proc_maps__misc(const struct rec_mmap *m)
{
	return CPUMODE_USER | (m->prot & PROT_EXEC ? 0 : MISC_MMAP_DATA);
}

int proc_maps__for_each(const char *root, pid_t pid,
			int (*fn)(const struct rec_mmap *m, uint16_t misc, void *arg), void *arg)
{
	char path[4200], line[4096 + 256];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%d/maps", root ? root : "/proc", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!rc && fgets(line, sizeof(line), f)) {
		struct rec_mmap m = { 0 };

		if (proc_maps__parse(line, &m) < 0)
			continue;
		m.pid = m.tid = (uint32_t)pid;
		rc = fn(&m, proc_maps__misc(&m), arg);
	}
	fclose(f);
	return rc;
}

int host__thread_comm(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* One "Key: N kB" value of a /proc/meminfo-like file, in bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	size_t n = strlen(key);
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

uint64_t host__memory_available(const char **which)
{
	uint64_t avail = meminfo_bytes("MemAvailable");
	struct rlimit rl;

	*which = "MemAvailable";
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		FILE *f = fopen("/proc/self/statm", "re");
		unsigned long long pages = 0;
		uint64_t vm, left;

		if (f) {
			if (fscanf(f, "%llu", &pages) != 1)
				pages = 0;
			fclose(f);
		}
		vm = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
		left = rl.rlim_cur > vm ? rl.rlim_cur - vm : 0;
		if (!avail || left < avail) {
			avail = left;
			*which = "RLIMIT_AS";
		}
	}
	return avail;
}

unsigned int host__cache_line_size(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size", "re");
	long n = 0;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 0;
		fclose(f);
	}
	if (n <= 0)
		n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	if (n < 8 || n > 4096 || (n & (n - 1)))
		n = 64;
	return (unsigned int)n;
}

char *host__self_exe(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}
