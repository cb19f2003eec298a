// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory-event choice (sampling/pmu.c) against fake sysfs trees built here: an Intel
 * server (cpu with events/mem-loads and mem-stores, formats event/umask/ldlat), an Intel hybrid
 * (cpu_core and cpu_atom), an AMD with IBS op, an Arm with SPE, and a VM with none.  The
 * expected config words are written out by hand from the format files.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sampling/pmu.h"

static int failures;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);   \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			failures++;                                             \
		}                                                               \
	} while (0)

static char root[64];

/* Write @text to ROOT/TREE/bus/event_source/devices/REL, creating the directories. */
static void put(const char *tree, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/bus/event_source/devices/%s", root, tree, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(99);
	}
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void intel_cpu(const char *tree, const char *pmu, const char *type)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/type", pmu);
	put(tree, rel, type);
	snprintf(rel, sizeof(rel), "%s/events/mem-loads", pmu);
	put(tree, rel, "event=0xcd,umask=0x1,ldlat=3");
	snprintf(rel, sizeof(rel), "%s/events/mem-stores", pmu);
	put(tree, rel, "event=0xd0,umask=0x82");
	snprintf(rel, sizeof(rel), "%s/format/event", pmu);
	put(tree, rel, "config:0-7");
	snprintf(rel, sizeof(rel), "%s/format/umask", pmu);
	put(tree, rel, "config:8-15");
	snprintf(rel, sizeof(rel), "%s/format/ldlat", pmu);
	put(tree, rel, "config1:0-15");
}

static const char *tree_path(const char *tree)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, tree);
	return p;
}

int main(void)
{
	struct pmu_mem m;
	char err[512];
	int rc;

	snprintf(root, sizeof(root), "/tmp/pmu_test.XXXXXX");
	if (!mkdtemp(root))
		return 99;

	/* Intel server */
	intel_cpu("intel", "cpu", "4");
	put("intel", "software/type", "1");
	rc = pmu__find_mem_events(tree_path("intel"), 30, &m, err, sizeof(err));
	CHECK(rc == 0, "intel: rc %d (%s)", rc, err);
	CHECK(m.kind == PMU_KIND_INTEL && m.nr_events == 2, "intel: kind %d, %u events", m.kind,
	      m.nr_events);
	CHECK(!strcmp(m.events[0].name, "cpu/mem-loads,ldlat=30/P"), "load name %s",
	      m.events[0].name);
	CHECK(m.events[0].type == 4 && m.events[0].config == 0x1cd && m.events[0].config1 == 30,
	      "load: type %u config %#llx config1 %#llx", m.events[0].type,
	      (unsigned long long)m.events[0].config, (unsigned long long)m.events[0].config1);
	CHECK(m.events[0].loads && !m.events[0].stores && m.events[0].precise_ip == 3, "load flags");
	CHECK(!strcmp(m.events[1].name, "cpu/mem-stores/P"), "store name %s", m.events[1].name);
	CHECK(m.events[1].config == 0x82d0 && m.events[1].config1 == 0 && m.events[1].stores,
	      "store config %#llx", (unsigned long long)m.events[1].config);

	/* Intel hybrid: the big cores' PMU */
	intel_cpu("hybrid", "cpu_atom", "10");
	intel_cpu("hybrid", "cpu_core", "8");
	rc = pmu__find_mem_events(tree_path("hybrid"), 50, &m, err, sizeof(err));
	CHECK(rc == 0 && m.kind == PMU_KIND_INTEL && !strcmp(m.pmu, "cpu_core"),
	      "hybrid: rc %d pmu %s", rc, m.pmu);
	CHECK(m.events[0].type == 8 && !strcmp(m.events[0].name, "cpu_core/mem-loads,ldlat=50/P") &&
	      m.events[0].config1 == 50, "hybrid load: %s type %u", m.events[0].name,
	      m.events[0].type);

	/* Sapphire Rapids: mem-loads-aux must lead mem-loads in a group */
	intel_cpu("spr", "cpu", "4");
	put("spr", "cpu/events/mem-loads-aux", "event=0x03,umask=0x82");
	rc = pmu__find_mem_events(tree_path("spr"), 30, &m, err, sizeof(err));
	CHECK(rc == 0 && m.nr_events == 3, "spr: rc %d, %u events (%s)", rc, m.nr_events, err);
	CHECK(!strcmp(m.events[0].name, "cpu/mem-loads-aux/P") && m.events[0].group_leader &&
	      m.events[0].config == 0x8203 && !m.events[0].loads, "spr leader: %s config %#llx",
	      m.events[0].name, (unsigned long long)m.events[0].config);
	CHECK(m.events[1].loads && !m.events[1].group_leader && m.events[1].config == 0x1cd,
	      "spr loads after the leader");
	CHECK(m.events[2].stores, "spr stores");

	/* AMD: cpu without mem-loads, ibs_op present */
	put("amd", "cpu/type", "4");
	put("amd", "cpu/format/event", "config:0-7,32-35");
	put("amd", "ibs_op/type", "11");
	put("amd", "ibs_op/format/cnt_ctl", "config:19");
	rc = pmu__find_mem_events(tree_path("amd"), 30, &m, err, sizeof(err));
	CHECK(rc == 0 && m.kind == PMU_KIND_AMD_IBS && m.nr_events == 1, "amd: rc %d kind %d", rc,
	      m.kind);
	CHECK(!strcmp(m.events[0].name, "ibs_op//") && m.events[0].type == 11 &&
	      m.events[0].loads && m.events[0].stores && !m.events[0].aux, "amd event %s type %u",
	      m.events[0].name, m.events[0].type);

	/* AMD's split event field: the value's low bits fill 0-7, the next ones 32-35 */
	{
		struct pmu_event ev = { 0 };

		rc = pmu__encode_terms(tree_path("amd"), "cpu", "event=0x1c0", &ev, err, sizeof(err));
		CHECK(rc == 0 && ev.config == 0x1000000c0ULL, "split field: rc %d config %#llx", rc,
		      (unsigned long long)ev.config);
		rc = pmu__encode_terms(tree_path("amd"), "cpu", "event=0x1000", &ev, err, sizeof(err));
		CHECK(rc == -ERANGE, "too big for the field: %d", rc);
		rc = pmu__encode_terms(tree_path("amd"), "cpu", "umask=1", &ev, err, sizeof(err));
		CHECK(rc == -ENOENT && strstr(err, "umask"), "missing format: %d %s", rc, err);
	}

	/* Arm SPE */
	put("arm", "armv8_pmuv3_0/type", "8");
	put("arm", "arm_spe_0/type", "9");
	put("arm", "arm_spe_0/format/ts_enable", "config:0");
	put("arm", "arm_spe_0/format/pa_enable", "config:1");
	put("arm", "arm_spe_0/format/load_filter", "config:33");
	put("arm", "arm_spe_0/format/store_filter", "config:34");
	put("arm", "arm_spe_0/format/min_latency", "config2:0-11");
	rc = pmu__find_mem_events(tree_path("arm"), 30, &m, err, sizeof(err));
	CHECK(rc == 0 && m.kind == PMU_KIND_ARM_SPE && !strcmp(m.pmu, "arm_spe_0"),
	      "arm: rc %d kind %d (%s)", rc, m.kind, err);
	CHECK(m.events[0].type == 9 && m.events[0].config == 0x600000003ULL &&
	      m.events[0].config2 == 30 && m.events[0].aux, "spe: type %u config %#llx config2 %llu",
	      m.events[0].type, (unsigned long long)m.events[0].config,
	      (unsigned long long)m.events[0].config2);
	CHECK(!strcmp(m.events[0].name, "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,"
					 "store_filter=1,min_latency=30/"), "spe name %s",
	      m.events[0].name);

	/* A VM: a cpu PMU without memory events, software and tracepoints */
	put("vm", "cpu/type", "4");
	put("vm", "software/type", "1");
	put("vm", "tracepoint/type", "2");
	rc = pmu__find_mem_events(tree_path("vm"), 30, &m, err, sizeof(err));
	CHECK(rc == 1 && m.kind == PMU_KIND_NONE && m.nr_events == 0, "vm: rc %d", rc);
	CHECK(strstr(m.looked_for, "cpu_core}/events/mem-loads") && strstr(m.looked_for, "ibs_op") &&
	      strstr(m.looked_for, "arm_spe_"), "looked_for: %s", m.looked_for);

	/* A malformed tree: a type that is not a number */
	put("bad", "cpu/type", "four");
	put("bad", "cpu/events/mem-loads", "event=0xcd");
	rc = pmu__find_mem_events(tree_path("bad"), 30, &m, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "cpu/type"), "bad type: rc %d err %s", rc, err);

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", root);
	}
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
