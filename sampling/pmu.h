/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_PMU_H
#define LINEUP_SAMPLING_PMU_H

/*
 * Finding the machine's memory-access sampling events in sysfs
 * (SYSFS/bus/event_source/devices), the way perf mem/c2c do:
 *   Intel:  cpu (or cpu_core on hybrids) with events/mem-loads and events/mem-stores
 *           -> cpu/mem-loads,ldlat=N/P and cpu/mem-stores/P
 *   AMD:    ibs_op -> ibs_op// (loads and stores in one event)
 *   Arm:    arm_spe_N -> arm_spe_N/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,
 *           min_latency=N/ (an AUX-area event)
 * Event terms are turned into config words through the PMU's format/ files, so nothing here
 * hard-codes an encoding.  No allocation: everything lives in the caller's struct pmu_mem.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pmu_kind {
	PMU_KIND_NONE,
	PMU_KIND_INTEL,
	PMU_KIND_AMD_IBS,
	PMU_KIND_ARM_SPE,
};

/**
 * struct pmu_event - one event to open.
 * @name:	perf's spelling, which perf c2c shows ("cpu/mem-loads,ldlat=30/P")
 * @precise_ip:	the highest precision to try (the recorder steps down on EOPNOTSUPP)
 * @loads, @stores: what it samples
 * @aux:	needs an AUX area (Arm SPE): samples come as a trace to decode
 * @group_leader: must lead the next event in a group: Intel's mem-loads-aux, which Sapphire
 *		Rapids and later require in front of mem-loads (perf's
 *		"{cpu/mem-loads-aux/,cpu/mem-loads,ldlat=N/}:P")
 */
struct pmu_event {
	char name[160];
	uint32_t type;
	uint64_t config, config1, config2;
	uint8_t precise_ip;
	bool loads, stores, aux, group_leader;
};

struct pmu_mem {
	enum pmu_kind kind;
	char pmu[64];
	unsigned int nr_events;
	struct pmu_event events[4];
	char looked_for[512];	/* what was searched, for "no memory PMU" messages */
};

/* The sysfs root: $LINEUP_SYSFS when set, else "/sys". */
const char *pmu__sysfs_root(void);

/*
 * Find the memory events under @sysfs (NULL: pmu__sysfs_root()), with load latency threshold
 * @ldlat (Intel ldlat, Arm min_latency).  Returns 0 when found, 1 when the machine has no
 * memory PMU (out->looked_for says what was looked for), -errno when sysfs is malformed
 * (@err says which file and what was wrong).
 */
int pmu__find_mem_events(const char *sysfs, unsigned int ldlat, struct pmu_mem *out, char *err,
			 size_t errlen);

/*
 * Put the event terms of @terms ("event=0xcd,umask=0x1,ldlat=3") into config words through
 * the format files of PMU @pmu (OR-ed into ev->config*); a term given twice takes the last
 * value.  0 or -errno with @err filled.
 */
int pmu__encode_terms(const char *sysfs, const char *pmu, const char *terms,
		      struct pmu_event *ev, char *err, size_t errlen);

/* The `type` number of PMU @pmu, or -errno. */
int pmu__type(const char *sysfs, const char *pmu, uint32_t *type);

#endif
