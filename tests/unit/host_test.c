// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampling/host.h: the one kallsyms parser and the one /proc/PID/maps parser that `record`,
 * `watch` and the kernel code reader share, on lines a machine may have: module symbols,
 * kptr_restrict's zeros, a kernel without _etext, paths with spaces, deleted files, anonymous
 * and special mappings.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sampling/host.h"
#include "tests/unit/check.h"

static char dir[] = "/tmp/lineup-host-test.XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[4][256];
	static int n;
	char *p = path[n++ % 4];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		perror(p);
	return p;
}

static void test_ksym(void)
{
	char l1[] = "ffffffff81000000 T _text\n";
	char l2[] = "ffffffffc0a01000 t lineup_touch_init\t[lineup_touch]\n";
	char l3[] = "0000000000000000 D jiffies\n";
	char bad1[] = "zzzz T x\n", bad2[] = "ffff TT x\n", bad3[] = "ffff T\n";
	struct ksym s;

	CHECK(ksym__parse(l1, &s) == 0 && s.addr == 0xffffffff81000000ULL && s.type == 'T' &&
	      !strcmp(s.name, "_text") && !s.module && ksym__is_text(&s));
	CHECK(ksym__parse(l2, &s) == 0 && !strcmp(s.name, "lineup_touch_init") && s.module &&
	      !strcmp(s.module, "lineup_touch"));
	CHECK(ksym__parse(l3, &s) == 0 && s.addr == 0 && ksym__is_data(&s) && !ksym__is_text(&s));
	CHECK(ksym__parse(bad1, &s) < 0 && ksym__parse(bad2, &s) < 0 && ksym__parse(bad3, &s) < 0);
}

struct maps_seen {
	struct rec_mmap m[8];
	char names[8][128];
	uint16_t misc[8];
	int n;
};

static int see(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	struct maps_seen *s = arg;

	if (s->n == 8)
		return 1;
	s->m[s->n] = *m;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", m->filename);
	s->m[s->n].filename = s->names[s->n];
	s->misc[s->n++] = misc;
	return 0;
}

static void test_kernel(void)
{
	uint64_t start, end;
	struct maps_seen s = { .n = 0 };
	const char *ks = write_file("kallsyms",
		"ffffffff81000000 T _stext\n"	/* _text wins when both are listed */
		"ffffffff80ff0000 T _text\n"
		"ffffffff81e00000 T _etext\n"
		"ffffffffc0a01000 t lineup_touch_init\t[lineup_touch]\n");
	const char *modules = write_file("modules",
		"lineup_touch 16384 0 - Live 0xffffffffc0a00000 (O)\n"
		"hidden 4096 0 - Live 0x0000000000000000\n");
	const char *noetext = write_file("kallsyms-noetext", "ffffffff81000000 T _stext\n");
	const char *zeros = write_file("kallsyms-zeros",
		"0000000000000000 T _text\n0000000000000000 T _etext\n");

	CHECK(kallsyms__kernel_text(ks, &start, &end) == 0 && start == 0xffffffff80ff0000ULL &&
	      end == 0xffffffff81e00000ULL);
	CHECK(kallsyms__kernel_text(noetext, &start, &end) == 0 && start == 0xffffffff81000000ULL &&
	      end == UINT64_MAX);
	CHECK(kallsyms__kernel_text(zeros, &start, &end) == -ENOENT);
	CHECK(kallsyms__kernel_text("/nonexistent/kallsyms", &start, &end) < 0);

	/* The kernel map over its text only (perf's length), then each loaded module. */
	CHECK(host__kernel_maps(ks, modules, see, &s) == 0 && s.n == 2);
	CHECK(!strcmp(s.names[0], "[kernel.kallsyms]_text") && s.m[0].pid == (uint32_t)-1 &&
	      s.m[0].start == 0xffffffff80ff0000ULL && s.m[0].len == 0xe10000 &&
	      s.m[0].pgoff == 0xffffffff80ff0000ULL && s.misc[0] == CPUMODE_KERNEL);
	CHECK(!strcmp(s.names[1], "[lineup_touch]") && s.m[1].start == 0xffffffffc0a00000ULL &&
	      s.m[1].len == 16384 && s.misc[1] == CPUMODE_KERNEL);
	s.n = 0;
	CHECK(host__kernel_maps(zeros, modules, see, &s) == 0 && s.n == 0);	/* kptr_restrict */
}

static void test_maps(void)
{
	struct maps_seen s = { .n = 0 };
	char sub[300];
	struct rec_mmap m = { 0 };
	char spaced[] = "5555555540000-5555555560000 r-xp 00001000 08:01 1234      "
			"/tmp/a dir/with  spaces/prog\n";
	char anon[] = "7f0000000000-7f0000021000 rw-p 00000000 00:00 0 \n";
	char bad[] = "7f0000000000 rw-p\n";

	CHECK(proc_maps__parse(spaced, &m) == 0 && m.start == 0x5555555540000ULL &&
	      m.len == 0x20000 && m.pgoff == 0x1000 && m.maj == 8 && m.min == 1 && m.ino == 1234 &&
	      m.prot == (PROT_READ | PROT_EXEC) && m.flags == MAP_PRIVATE && m.is_mmap2 &&
	      !strcmp(m.filename, "/tmp/a dir/with  spaces/prog"));
	CHECK(proc_maps__misc(&m) == CPUMODE_USER);
	CHECK(proc_maps__parse(anon, &m) == 0 && !strcmp(m.filename, "//anon") &&
	      m.prot == (PROT_READ | PROT_WRITE) && proc_maps__misc(&m) == (CPUMODE_USER | 1u << 13));
	CHECK(proc_maps__parse(bad, &m) < 0);

	snprintf(sub, sizeof(sub), "%s/42", dir);
	mkdir(sub, 0700);
	write_file("42/maps",
		"00400000-00401000 r-xp 00000000 08:01 77 /usr/bin/with space (deleted)\n"
		"00601000-00602000 rw-s 00001000 08:01 77 /dev/shm/x\n"
		"garbage\n"
		"7ffd0000-7ffd2000 rw-p 00000000 00:00 0                          [stack]\n");
	CHECK(proc_maps__for_each(dir, 42, see, &s) == 0 && s.n == 3);
	CHECK(!strcmp(s.names[0], "/usr/bin/with space (deleted)") && s.m[0].pid == 42 &&
	      s.m[0].tid == 42 && s.misc[0] == CPUMODE_USER);
	CHECK(s.m[1].flags == MAP_SHARED && s.m[1].pgoff == 0x1000 &&
	      s.misc[1] == (CPUMODE_USER | 1u << 13));
	CHECK(!strcmp(s.names[2], "[stack]"));
	CHECK(proc_maps__for_each(dir, 43, see, &s) < 0);	/* no such process */
	/* This process: its own executable is among its maps. */
	s.n = 0;
	CHECK(proc_maps__for_each(NULL, getpid(), see, &s) >= 0 && s.n > 0);
}

int main(void)
{
	static const char *const files[] = { "kallsyms", "modules", "kallsyms-noetext",
					     "kallsyms-zeros", "42/maps", "42" };
	char path[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_ksym();
	test_kernel();
	test_maps();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		remove(path);
	}
	rmdir(dir);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
