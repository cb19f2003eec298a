/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FUZZ_H
#define _LINUX_FUZZ_H

#include <linux/types.h>
#include <linux/cache.h>

#define FUZZ_MAX	16
#define FUZZ_FLAGS(x)	\
	((x) & 0xff)

struct fuzz_ops;

/**
 * struct fuzz_queue - a queue shared by producers and consumers
 * @head: written by the producer
 * @tail: written by the consumer
 * @ops: callbacks
 */
struct fuzz_queue {
	unsigned long		head;		/* written by the producer */
	unsigned int		mask;		/* read-only after init */
	unsigned int		shift:5,
				frozen:1,
				:2;
	unsigned long		tail;		/* written by the consumer */
	/* protected by @lock */
	spinlock_t		lock;
	union {
		void		*ptr;
		unsigned long	val;
	};
	struct {
		u32		seq, gen;
	} stamp;
	int			x, y, z;
#ifdef CONFIG_FUZZ_STATS
	u64			enq;
	u64			deq;
#else
	u32			pad;
#endif
	struct_group(counters,
		atomic_t	users;
		atomic_t	refs;
	);
	DECLARE_BITMAP(flags, FUZZ_MAX);
	const struct fuzz_ops	*ops;
	void			(*wake)(struct fuzz_queue *q, int why);
	int			(*handler[4])(void *);
	struct list_head	list;
	struct rcu_head		rcu;
	char			name[32] __aligned(8);
	u8			data[];
} __randomize_layout;

static void check(void)
{
	CACHELINE_ASSERT_GROUP_MEMBER(struct fuzz_queue, hot, head);
	CACHELINE_ASSERT_GROUP_SIZE(struct fuzz_queue, hot);
}

#endif /* _LINUX_FUZZ_H */
