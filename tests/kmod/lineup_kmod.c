// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tiny out-of-tree module whose only purpose is real kernel DWARF: the structs the seeds are
 * about (struct file, buffer_head, block_device, mb_cache_entry) with the offsets the installed
 * linux-headers give them, and real code at real IPs touching their fields.
 *
 * To extend: add a noinline function below that touches the fields you need and list it in
 * lineup_kmod_touch[] so the compiler keeps it.  Built by tests/layout/kmod.sh with
 *   make -C /usr/src/linux-headers-VERSION M=$BUILD_DIR modules
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/buffer_head.h>
#include <linux/blkdev.h>
#include <linux/blk_types.h>
#include <linux/mbcache.h>

noinline loff_t lineup_file_pos(struct file *f)
{
	return READ_ONCE(f->f_pos);
}

noinline int lineup_bh_uptodate(struct buffer_head *bh)
{
	return test_bit(BH_Uptodate, &bh->b_state);
}

noinline dev_t lineup_bdev_dev(struct block_device *bdev)
{
	return bdev->bd_dev;
}

noinline u32 lineup_mbe_key(struct mb_cache_entry *e)
{
	return e->e_key;
}

/* Every function above, so none is dropped as unused. */
void *lineup_kmod_touch[] = {
	lineup_file_pos,
	lineup_bh_uptodate,
	lineup_bdev_dev,
	lineup_mbe_key,
};
EXPORT_SYMBOL_GPL(lineup_kmod_touch);

static int __init lineup_kmod_init(void)
{
	return 0;
}

static void __exit lineup_kmod_exit(void)
{
}

module_init(lineup_kmod_init);
module_exit(lineup_kmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lineup test module: kernel structs with DWARF");
