// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkkern - write a perf.data of kernel memory samples as `perf c2c record` on a kernel with
 * a loaded module would: the two c2c events, the [kernel.kallsyms]_text MMAP, one MMAP2 per
 * module with the kernel cpumode and the module's path (as perf synthesizes them: pid -1,
 * pgoff 0, start = the module's load address), and samples with cpumode kernel.
 *
 *   mkkern OUT < SCENARIO
 *
 * Scenario lines ('#' comments; addresses and DATA_SRC in hex, the rest decimal):
 *   kernel START LEN                       the kernel map
 *   module START LEN PATH                  a module map
 *   load|store IP ADDR CPU TID DATA_SRC WEIGHT [TIME]
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sampling/perf_writer.h"
#include "tests/tools/kwriter.h"

static void __attribute__((noreturn)) die(const char *what, int line, struct perf_writer *w)
{
	kwriter__die("mkkern", what, line, w);
}

int main(int argc, char **argv)
{
	struct perf_writer *w;
	char line[4096];
	int lineno = 0;
	uint64_t time = 1000000000ULL;

	w = kwriter__open("mkkern", argc, argv, true);
	perf_writer__set_nrcpus(w, 8, 8);
	perf_writer__set_string(w, FEAT_OSRELEASE, "6.1.0-57-amd64");
	perf_writer__set_string(w, FEAT_ARCH, "x86_64");
	perf_writer__set_string(w, FEAT_HOSTNAME, "mkkern");
	while (fgets(line, sizeof(line), stdin)) {
		char kind[16], path[1024];
		uint64_t a, b, ip, addr, ds, weight, t = 0;
		unsigned cpu, tid;
		int n;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "kernel %" SCNx64 " %" SCNx64, &a, &b) == 2) {
			struct rec_mmap m = { .pid = (uint32_t)-1, .start = a, .len = b, .pgoff = a,
					      .is_mmap2 = true, .filename = "[kernel.kallsyms]_text" };

			if (perf_writer__mmap(w, CPUMODE_KERNEL, &m, NULL) < 0)
				die("kernel mmap", lineno, w);
			continue;
		}
		if (sscanf(line, "module %" SCNx64 " %" SCNx64 " %1023s", &a, &b, path) == 3) {
			struct rec_mmap m = { .pid = (uint32_t)-1, .start = a, .len = b, .pgoff = 0,
					      .is_mmap2 = true, .filename = path };

			if (perf_writer__mmap(w, CPUMODE_KERNEL, &m, NULL) < 0)
				die("module mmap", lineno, w);
			continue;
		}
		n = sscanf(line, "%15s %" SCNx64 " %" SCNx64 " %u %u %" SCNx64 " %" SCNu64
			   " %" SCNu64, kind, &ip, &addr, &cpu, &tid, &ds, &weight, &t);
		if (n >= 7 && (!strcmp(kind, "load") || !strcmp(kind, "store"))) {
			struct sample s = { 0 };

			s.evsel = strcmp(kind, "load") ? 1 : 0;
			s.cpumode = CPUMODE_KERNEL;
			s.ip = ip;
			s.pid = s.tid = tid;
			s.time = n == 8 ? t : (time += 1000);
			s.addr = addr;
			s.id = perf_writer__event_id(w, (int)s.evsel);
			s.cpu = cpu;
			s.period = 1;
			s.weight = weight;
			s.data_src = ds;
			if (perf_writer__sample(w, &s) < 0)
				die("sample", lineno, w);
			continue;
		}
		die("not a scenario line", lineno, NULL);
	}
	if (perf_writer__close(w) < 0)
		die("close", lineno, w);
	perf_writer__delete(w);
	return 0;
}
