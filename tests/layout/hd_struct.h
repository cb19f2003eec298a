/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct hd_struct as Linux 5.10 had it (include/linux/genhd.h, x86-64, CONFIG_SMP,
 * !CONFIG_FAIL_MAKE_REQUEST), the block-accounting case of seed 004.  The struct is gone since
 * 5.11 (folded into struct block_device), so tests keep its field list here, with user-space
 * stand-ins of the right size and alignment for the kernel types it embeds.  Before 4.19 it
 * also had `atomic_t in_flight[2]` (the per-partition in-flight counters written from every
 * CPU); hd_struct_old keeps that shape.
 */
#ifndef LINEUP_TESTS_HD_STRUCT_H
#define LINEUP_TESTS_HD_STRUCT_H

typedef unsigned long long sector_t;
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

struct rcu_head_5_10 {
	struct rcu_head_5_10 *next;
	void (*func)(struct rcu_head_5_10 *head);
};

/* include/linux/percpu-refcount.h, 5.10 */
struct percpu_ref_data;
struct percpu_ref {
	unsigned long percpu_count_ptr;
	struct percpu_ref_data *data;
};

struct work_struct_5_10 {
	atomic_long_t data;
	struct { void *next, *prev; } entry;
	void (*func)(struct work_struct_5_10 *work);
};

struct rcu_work {
	struct work_struct_5_10 work;
	struct rcu_head_5_10 rcu;
	void *wq;
};

/* struct device is 744 bytes on a 5.10 x86-64 defconfig; only its size and alignment matter */
struct device_5_10 {
	unsigned long opaque[93];
};

struct disk_stats;
struct kobject;
struct partition_meta_info;

struct hd_struct {
	sector_t start_sect;
	sector_t nr_sects;
	unsigned long stamp;
	struct disk_stats *dkstats;	/* __percpu */
	struct percpu_ref ref;
	struct device_5_10 __dev;
	struct kobject *holder_dir;
	int policy, partno;
	struct partition_meta_info *info;
	struct rcu_work rcu_work;
};

/* the 4.x shape, with the shared in-flight counters */
struct hd_struct_old {
	sector_t start_sect;
	sector_t nr_sects;
	unsigned long stamp;
	atomic_t in_flight[2];
	struct disk_stats *dkstats;
	struct percpu_ref ref;
	struct device_5_10 __dev;
	struct kobject *holder_dir;
	int policy, partno;
	struct partition_meta_info *info;
	struct rcu_work rcu_work;
};

#endif
