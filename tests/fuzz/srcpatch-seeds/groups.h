/* Linux 6.8+ style: the groups are written already */
struct netdev_queue_like {
	__cacheline_group_begin(read_mostly);
	struct net_device	*dev;
	netdevice_tracker	dev_tracker;
	struct Qdisc __rcu	*qdisc;
	__cacheline_group_end(read_mostly);

	__cacheline_group_begin(read_write) ____cacheline_aligned_in_smp;
	spinlock_t		_xmit_lock;
	int			xmit_lock_owner;
	unsigned long		trans_start;
	__cacheline_group_end(read_write);

	randomized_struct_fields_start
	unsigned long		state;
	KABI_RESERVE(1)
	KABI_RESERVE(2);
	randomized_struct_fields_end
	struct dql		dql;
	DECLARE_FLEX_ARRAY(u8, tail);
};

static void __init netdev_queue_like_check(void)
{
	CACHELINE_ASSERT_GROUP_MEMBER(struct netdev_queue_like, read_mostly, dev);
	CACHELINE_ASSERT_GROUP_MEMBER(struct netdev_queue_like, read_mostly, qdisc);
	CACHELINE_ASSERT_GROUP_MEMBER(struct netdev_queue_like, read_write, _xmit_lock);
}

static void check(void)
{
}
