// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkksym - write a perf.data with the kernel's KSYMBOL records (BPF programs and other code
 * the kernel registers at run time), for tests/symbols/ksymbol.sh:
 *
 *   mkksym OUT < SCENARIO
 *
 * Scenario lines (addresses and lengths in hex):
 *   kernel START LEN          the [kernel.kallsyms]_text MMAP
 *   ksym ADDR LEN NAME        a PERF_RECORD_KSYMBOL registering NAME (type BPF)
 *   unksym ADDR LEN NAME      the same with the UNREGISTER flag
 *   load IP                   a kernel-mode load sample at IP
 * Every record carries the next time stamp, in scenario order.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sampling/perf_writer.h"
#include "tests/tools/kwriter.h"

static void __attribute__((noreturn)) die(const char *what, int line, struct perf_writer *w)
{
	kwriter__die("mkksym", what, line, w);
}

/* KSYMBOL: header, addr, len, ksym_type, flags, name (padded to 8), sample_id trailer. */
static int ksymbol(struct perf_writer *w, uint64_t addr, uint32_t len, const char *name, bool unreg,
		   uint64_t time, uint64_t id)
{
	uint8_t buf[512] = {0};
	size_t nlen = strlen(name) + 1, off = 8;
	uint16_t size, misc = 0, type16 = 1 /* BPF */, flags = unreg ? 1 : 0;
	uint32_t type = 17, pid = (uint32_t)-1, tid = (uint32_t)-1, cpu = 0, res = 0;

	if (nlen > 256)
		return -1;
	memcpy(buf + off, &addr, 8), off += 8;
	memcpy(buf + off, &len, 4), off += 4;
	memcpy(buf + off, &type16, 2), off += 2;
	memcpy(buf + off, &flags, 2), off += 2;
	memcpy(buf + off, name, nlen);
	off += (nlen + 7) & ~(size_t)7;
	/* sample_id_all: TID, TIME, CPU, IDENTIFIER (kwriter's id fields, kernel order) */
	memcpy(buf + off, &pid, 4), memcpy(buf + off + 4, &tid, 4), off += 8;
	memcpy(buf + off, &time, 8), off += 8;
	memcpy(buf + off, &cpu, 4), memcpy(buf + off + 4, &res, 4), off += 8;
	memcpy(buf + off, &id, 8), off += 8;
	size = (uint16_t)off;
	memcpy(buf, &type, 4);
	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &size, 2);
	return perf_writer__raw_record(w, buf);
}

int main(int argc, char **argv)
{
	struct perf_writer *w;
	char line[1024];
	int lineno = 0;
	uint64_t time = 1000000000ULL;

	w = kwriter__open("mkksym", argc, argv, false);
	while (fgets(line, sizeof(line), stdin)) {
		char name[256];
		uint64_t a, b;

		lineno++;
		time += 1000;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "kernel %" SCNx64 " %" SCNx64, &a, &b) == 2) {
			struct rec_mmap m = {.pid = (uint32_t)-1,
					     .start = a,
					     .len = b,
					     .pgoff = a,
					     .is_mmap2 = true,
					     .filename = "[kernel.kallsyms]_text"};
			struct sample sid = {0};

			sid.pid = sid.tid = (uint32_t)-1;
			sid.time = time;
			sid.id = perf_writer__event_id(w, 0);
			if (perf_writer__mmap(w, CPUMODE_KERNEL, &m, &sid) < 0)
				die("kernel mmap", lineno, w);
		} else if (sscanf(line, "ksym %" SCNx64 " %" SCNx64 " %255s", &a, &b, name) == 3 ||
			   sscanf(line, "unksym %" SCNx64 " %" SCNx64 " %255s", &a, &b, name) ==
			       3) {
			if (ksymbol(w, a, (uint32_t)b, name, line[0] == 'u', time,
				    perf_writer__event_id(w, 0)) < 0)
				die("ksymbol", lineno, w);
		} else if (sscanf(line, "load %" SCNx64, &a) == 1) {
			struct sample s = {0};

			s.cpumode = CPUMODE_KERNEL;
			s.ip = a;
			s.pid = s.tid = 10;
			s.time = time;
			s.addr = 0xffff888000001000ULL;
			s.id = perf_writer__event_id(w, 0);
			s.period = 1;
			s.weight = 100;
			s.data_src = 0x10605800842ULL;
			if (perf_writer__sample(w, &s) < 0)
				die("sample", lineno, w);
		} else {
			die("not a scenario line", lineno, NULL);
		}
	}
	if (perf_writer__close(w) < 0)
		die("close", lineno, w);
	perf_writer__delete(w);
	return 0;
}
