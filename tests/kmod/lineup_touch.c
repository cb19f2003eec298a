// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel code touching the fields of the seeds, for the field-attribution test
 * (tests/fields/kernel.sh): each function does what the kernel's hot paths do to one member,
 * with the kernel's own inline primitives (atomic_long_inc, set_bit, try_cmpxchg), so the
 * compiled instructions are the real ones:
 *
 *   struct file:          f_count++ (fget), the f_lock spinlock word (trylock/unlock),
 *                         the f_pos_lock mutex owner (fast path), reads of f_op, f_inode,
 *                         f_path.dentry and f_mapping (the read-mostly victims of seed 003);
 *   struct buffer_head:   set_bit(BH_Uptodate, &b_state) (seed 000), b_this_page read;
 *   struct block_device:  bd_openers++, bd_stamp read, and an hd_struct-style partition
 *                         (Linux <= 4.18's atomic in_flight[2] and the part's refcount, seed
 *                         004) with its summing reader;
 *   struct mb_cache_entry: e_refcnt++, e_key/e_value reads (seed 002).
 *
 * Every function is noinline and listed in lineup_touch[] so none is dropped.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/blk_types.h>
#include <linux/buffer_head.h>
#include <linux/fs.h>
#include <linux/mbcache.h>
#include <linux/module.h>

/* struct file */

noinline void lineup_file_get(struct file *f)
{
	atomic_long_inc(&f->f_count);
}

noinline bool lineup_file_put(struct file *f)
{
	return atomic_long_dec_and_test(&f->f_count);
}

noinline bool lineup_file_trylock(struct file *f)
{
	int v = 0;

	return atomic_try_cmpxchg_acquire(&f->f_lock.rlock.raw_lock.val, &v, 1);
}

noinline void lineup_file_unlock(struct file *f)
{
	smp_store_release(&f->f_lock.rlock.raw_lock.locked, 0);
}

noinline bool lineup_file_pos_lock(struct file *f, unsigned long owner)
{
	long zero = 0;

	return atomic_long_try_cmpxchg_acquire(&f->f_pos_lock.owner, &zero, owner);
}

noinline void lineup_file_pos_unlock(struct file *f, unsigned long owner)
{
	atomic_long_cmpxchg_release(&f->f_pos_lock.owner, owner, 0);
}

noinline const struct file_operations *lineup_file_op(struct file *f)
{
	return READ_ONCE(f->f_op);
}

noinline struct inode *lineup_file_inode(struct file *f)
{
	return READ_ONCE(f->f_inode);
}

noinline struct dentry *lineup_file_dentry(struct file *f)
{
	return READ_ONCE(f->f_path.dentry);
}

noinline struct address_space *lineup_file_mapping(struct file *f)
{
	return READ_ONCE(f->f_mapping);
}

/* struct buffer_head */

noinline void lineup_bh_set_uptodate(struct buffer_head *bh)
{
	set_bit(BH_Uptodate, &bh->b_state);
}

noinline struct buffer_head *lineup_bh_next(struct buffer_head *bh)
{
	return READ_ONCE(bh->b_this_page);
}

/* struct block_device, and a partition as Linux 4.18 accounted it */

noinline void lineup_bdev_open(struct block_device *bdev)
{
	atomic_inc(&bdev->bd_openers);
}

noinline unsigned long lineup_bdev_stamp(struct block_device *bdev)
{
	return READ_ONCE(bdev->bd_stamp);
}

struct lineup_hd_struct {
	sector_t start_sect;
	sector_t nr_sects;
	unsigned long stamp;
	atomic_t in_flight[2];
	atomic_t ref;
	int policy, partno;
};

noinline void lineup_part_inc_in_flight(struct lineup_hd_struct *part, int rw)
{
	atomic_inc(&part->in_flight[rw]);
}

noinline void lineup_part_get(struct lineup_hd_struct *part)
{
	atomic_inc(&part->ref);
}

noinline int lineup_part_in_flight(struct lineup_hd_struct *part)
{
	return atomic_read(&part->in_flight[0]) + atomic_read(&part->in_flight[1]);
}

/* Through a pointer loaded from another struct: no variable holds it. */

noinline void lineup_bh_bdev_open(struct buffer_head *bh)
{
	atomic_inc(&bh->b_bdev->bd_openers);
}

noinline struct super_block *lineup_file_sb(struct file *f)
{
	return READ_ONCE(file_inode(f)->i_sb);
}

/* struct mb_cache_entry */

noinline void lineup_mbe_get(struct mb_cache_entry *e)
{
	atomic_inc(&e->e_refcnt);
}

noinline u64 lineup_mbe_value(struct mb_cache_entry *e)
{
	return READ_ONCE(e->e_value);
}

void *lineup_touch[] = {
	lineup_file_get, lineup_file_put, lineup_file_trylock, lineup_file_unlock,
	lineup_file_pos_lock, lineup_file_pos_unlock, lineup_file_op, lineup_file_inode,
	lineup_file_dentry, lineup_file_mapping, lineup_bh_set_uptodate, lineup_bh_next,
	lineup_bdev_open, lineup_bdev_stamp, lineup_part_inc_in_flight, lineup_part_get,
	lineup_part_in_flight, lineup_mbe_get, lineup_mbe_value, lineup_bh_bdev_open,
	lineup_file_sb,
};
EXPORT_SYMBOL_GPL(lineup_touch);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lineup test module: code touching the seeds' struct fields");
