// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (c) An object shaped like the kernel's struct file (Linux 6.1, seed 003), on the heap, used
 * by every thread the way fdget/fput, f_pos locking and vfs_read use a shared file: the
 * spinlock, the refcount, the position lock, the position and the flags are written hot by
 * all threads, while f_op, f_inode and f_path are only read, and share their cache line.
 */
#include <stdatomic.h>
#include <string.h>

#include "workload.h"

struct path {
	void *mnt;
	void *dentry;
};

struct file_operations {
	long (*read)(long);
};

struct file {
	union {
		void *fu_llist;
		void *fu_rcuhead[2];
	} f_u;					/* 0: 16 */
	struct path f_path;			/* 16: 16, read-mostly */
	void *f_inode;				/* 32: 8, read-mostly */
	const struct file_operations *f_op;	/* 40: 8, read-mostly */
	atomic_int f_lock;			/* 48: 4, spinlock, write-hot */
	int f_write_hint;			/* 52: 4 */
	atomic_long f_count;			/* 56: 8, refcount, write-hot */
	unsigned int f_flags;			/* 64: 4, written under f_lock */
	unsigned int f_mode;			/* 68: 4 */
	atomic_long f_pos_lock;			/* 72: 8, mutex owner, write-hot */
	long f_pos;				/* 80: 8, written under f_pos_lock */
	void *f_cred;				/* 88: 8 */
};

static struct file *file;
static long dummy_inode, dummy_mnt, dummy_dentry;

static long do_read(long pos)
{
	return pos + 1;
}

static const struct file_operations fops = { .read = do_read };

static void setup(void)
{
	/* The kernel's filp cache hands out cache-line aligned objects (SLAB_HWCACHE_ALIGN). */
	file = aligned_alloc(64, sizeof(*file));
	memset(file, 0, sizeof(*file));
	file->f_op = &fops;
	file->f_inode = &dummy_inode;
	file->f_path.mnt = &dummy_mnt;
	file->f_path.dentry = &dummy_dentry;
	atomic_store(&file->f_count, 1);
}

static void spin_lock(atomic_int *l)
{
	while (atomic_exchange_explicit(l, 1, memory_order_acquire))
		while (atomic_load_explicit(l, memory_order_relaxed))
			;
}

static void spin_unlock(atomic_int *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

static void body(long t)
{
	long me = t + 1, sum = 0;

	for (long i = 0; i < iterations; i++) {
		struct file *f = file;
		long free = 0;

		atomic_fetch_add(&f->f_count, 1);			/* fdget */
		sum += (long)f->f_inode + (long)f->f_path.dentry;	/* read-mostly */
		while (!atomic_compare_exchange_weak(&f->f_pos_lock, &free, me))
			free = 0;					/* mutex_lock */
		f->f_pos = f->f_op->read(f->f_pos);			/* vfs_read */
		atomic_store(&f->f_pos_lock, 0);			/* mutex_unlock */
		if ((i & 7) == 0) {					/* fcntl(F_SETFL) */
			spin_lock(&f->f_lock);
			f->f_flags ^= 1u << (t & 7);
			spin_unlock(&f->f_lock);
		}
		atomic_fetch_sub(&f->f_count, 1);			/* fput */
	}
	if (sum == 42)
		puts("");
}

static void report(void)
{
	fprintf(stderr, "f_pos=%ld f_count=%ld\n", file->f_pos, atomic_load(&file->f_count));
}
