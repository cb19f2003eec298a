// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyzer/coherence.h"

#include <linux/perf_event.h>

void coherence__default_costs(struct coh_costs *costs)
{
	/* Rough Intel client/server figures: L1 4, LLC 40, cross-core HITM 80, DRAM 200. */
	*costs = (struct coh_costs){
	    .load =
		{[COH_SRC_L1] = 4, [COH_SRC_LLC] = 40, [COH_SRC_HITM] = 80, [COH_SRC_DRAM] = 200},
	    .store_hit = 1,
	    .store_miss = 60,
	    .store_hitm = 80,
	    .lock = 20,
	};
}

#define DS(kind, val) ((uint64_t)(val) << PERF_MEM_##kind##_SHIFT)

uint64_t coherence__load_data_src(enum coh_src src, bool locked)
{
	uint64_t ds = DS(OP, PERF_MEM_OP_LOAD) | DS(TLB, PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT) |
		      DS(LOCK, locked ? PERF_MEM_LOCK_LOCKED : PERF_MEM_LOCK_NA);

	switch (src) {
	case COH_SRC_L1:
		return ds | DS(LVL, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1) |
		       DS(LVLNUM, PERF_MEM_LVLNUM_L1) | DS(SNOOP, PERF_MEM_SNOOP_NONE);
	case COH_SRC_LLC:
		return ds | DS(LVL, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3) |
		       DS(LVLNUM, PERF_MEM_LVLNUM_L3) | DS(SNOOP, PERF_MEM_SNOOP_HIT);
	case COH_SRC_HITM:
		return ds | DS(LVL, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3) |
		       DS(LVLNUM, PERF_MEM_LVLNUM_L3) | DS(SNOOP, PERF_MEM_SNOOP_HITM);
	case COH_SRC_DRAM:
	default:
		return ds | DS(LVL, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM) |
		       DS(LVLNUM, PERF_MEM_LVLNUM_RAM) | DS(SNOOP, PERF_MEM_SNOOP_MISS);
	}
}

uint64_t coherence__store_data_src(bool hit, bool locked)
{
	return DS(OP, PERF_MEM_OP_STORE) |
	       DS(LVL, PERF_MEM_LVL_L1 | (hit ? PERF_MEM_LVL_HIT : PERF_MEM_LVL_MISS)) |
	       DS(LVLNUM, PERF_MEM_LVLNUM_L1) | DS(SNOOP, PERF_MEM_SNOOP_NA) |
	       DS(TLB, PERF_MEM_TLB_NA) |
	       DS(LOCK, locked ? PERF_MEM_LOCK_LOCKED : PERF_MEM_LOCK_NA);
}
