/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_DATA_SRC_H
#define LINEUP_ANALYZER_DATA_SRC_H

/*
 * perf_mem_data_src, the memory-access description a PMU attaches to a sample
 * (PERF_SAMPLE_DATA_SRC).  The bit layout is the kernel's stable ABI
 * (include/uapi/linux/perf_event.h); the values below carry the same numbers under lineup's
 * own names so no kernel header is needed.
 */

#include <stdint.h>

/* mem_op, bits 0-4 */
#define DS_OP_NA	0x01
#define DS_OP_LOAD	0x02
#define DS_OP_STORE	0x04
#define DS_OP_PFETCH	0x08
#define DS_OP_EXEC	0x10
#define DS_OP_SHIFT	0

/* mem_lvl, bits 5-18 (the older namespace, still what perf c2c reads) */
#define DS_LVL_NA	0x01
#define DS_LVL_HIT	0x02
#define DS_LVL_MISS	0x04
#define DS_LVL_L1	0x08
#define DS_LVL_LFB	0x10
#define DS_LVL_L2	0x20
#define DS_LVL_L3	0x40
#define DS_LVL_LOC_RAM	0x80
#define DS_LVL_REM_RAM1	0x100
#define DS_LVL_REM_RAM2	0x200
#define DS_LVL_REM_CCE1	0x400
#define DS_LVL_REM_CCE2	0x800
#define DS_LVL_IO	0x1000
#define DS_LVL_UNC	0x2000
#define DS_LVL_SHIFT	5

/* mem_snoop, bits 19-23 */
#define DS_SNOOP_NA	0x01
#define DS_SNOOP_NONE	0x02
#define DS_SNOOP_HIT	0x04
#define DS_SNOOP_MISS	0x08
#define DS_SNOOP_HITM	0x10
#define DS_SNOOP_SHIFT	19

/* mem_lock, bits 24-25 */
#define DS_LOCK_NA	0x01
#define DS_LOCK_LOCKED	0x02
#define DS_LOCK_SHIFT	24

/* mem_dtlb, bits 26-32 */
#define DS_TLB_NA	0x01
#define DS_TLB_HIT	0x02
#define DS_TLB_MISS	0x04
#define DS_TLB_L1	0x08
#define DS_TLB_L2	0x10
#define DS_TLB_WK	0x20
#define DS_TLB_OS	0x40
#define DS_TLB_SHIFT	26

/* mem_lvl_num, bits 33-36 */
#define DS_LVLNUM_L1	0x01
#define DS_LVLNUM_L2	0x02
#define DS_LVLNUM_L3	0x03
#define DS_LVLNUM_L4	0x04
#define DS_LVLNUM_CXL	0x09
#define DS_LVLNUM_IO	0x0a
#define DS_LVLNUM_ANY_CACHE 0x0b
#define DS_LVLNUM_LFB	0x0c
#define DS_LVLNUM_RAM	0x0d
#define DS_LVLNUM_PMEM	0x0e
#define DS_LVLNUM_NA	0x0f
#define DS_LVLNUM_SHIFT	33

/* mem_remote, bit 37 */
#define DS_REMOTE_REMOTE 0x01
#define DS_REMOTE_SHIFT	37

/* mem_snoopx, bits 38-39 */
#define DS_SNOOPX_FWD	0x01
#define DS_SNOOPX_PEER	0x02
#define DS_SNOOPX_SHIFT	38

/* mem_blk, bits 40-42 */
#define DS_BLK_NA	0x01
#define DS_BLK_DATA	0x02
#define DS_BLK_ADDR	0x04
#define DS_BLK_SHIFT	40

/* mem_hops, bits 43-45 */
#define DS_HOPS_0	0x01
#define DS_HOPS_1	0x02
#define DS_HOPS_2	0x03
#define DS_HOPS_3	0x04
#define DS_HOPS_SHIFT	43

/* Build a data_src value: DS_MK(LVL, L1 | ...) == DS_LVL_(...) << DS_LVL_SHIFT. */
#define DS_MK(field, value) ((uint64_t)(value) << DS_##field##_SHIFT)

/**
 * struct data_src - a perf_mem_data_src split into its fields.
 */
struct data_src {
	uint8_t op;		/* DS_OP_* bits */
	uint16_t lvl;		/* DS_LVL_* bits */
	uint8_t snoop;		/* DS_SNOOP_* bits */
	uint8_t lock;		/* DS_LOCK_* bits */
	uint8_t dtlb;		/* DS_TLB_* bits */
	uint8_t lvl_num;	/* DS_LVLNUM_* value */
	uint8_t remote;		/* DS_REMOTE_REMOTE or 0 */
	uint8_t snoopx;		/* DS_SNOOPX_* bits */
	uint8_t blk;		/* DS_BLK_* bits */
	uint8_t hops;		/* DS_HOPS_* value */
};

static inline struct data_src data_src__decode(uint64_t v)
{
	struct data_src d = {
		.op = (v >> DS_OP_SHIFT) & 0x1f,
		.lvl = (v >> DS_LVL_SHIFT) & 0x3fff,
		.snoop = (v >> DS_SNOOP_SHIFT) & 0x1f,
		.lock = (v >> DS_LOCK_SHIFT) & 0x3,
		.dtlb = (v >> DS_TLB_SHIFT) & 0x7f,
		.lvl_num = (v >> DS_LVLNUM_SHIFT) & 0xf,
		.remote = (v >> DS_REMOTE_SHIFT) & 0x1,
		.snoopx = (v >> DS_SNOOPX_SHIFT) & 0x3,
		.blk = (v >> DS_BLK_SHIFT) & 0x7,
		.hops = (v >> DS_HOPS_SHIFT) & 0x7,
	};
	return d;
}

uint64_t data_src__encode(const struct data_src *d);

/*
 * Human-readable forms, as `perf mem report` prints them ("L1 hit", "Remote Cache (1 hop) hit",
 * "HitM", "Yes"/"No"/"N/A").  Each writes at most @size bytes (NUL included) and returns @out.
 */
char *data_src__lvl_str(const struct data_src *d, char *out, unsigned int size);
char *data_src__snoop_str(const struct data_src *d, char *out, unsigned int size);
char *data_src__op_str(const struct data_src *d, char *out, unsigned int size);

#endif
