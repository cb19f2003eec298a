// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Arm SPE packets, records and the memory samples perf c2c makes of them (see arm_spe.h).
 * Written from the Arm ARM's packet format and from reading perf's decoder, whose behaviour
 * (not its code) is followed; the comments say where the two part.
 */
#include "sampling/arm_spe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "util/xalloc.h"

/* ---- packets ------------------------------------------------------------------------ */

/* The payload size field (header bits 5:4): 1, 2, 4 or 8 bytes. */
static unsigned int payload_len(uint8_t hdr)
{
	return 1u << ((hdr >> 4) & 3);
}

/* Read the little-endian payload after the @hdr_len header bytes; the packet's length. */
static int get_payload(const uint8_t *buf, size_t len, unsigned int hdr_len,
		       struct arm_spe_pkt *pkt)
{
	unsigned int n = payload_len(buf[hdr_len - 1]);
	uint64_t v = 0;

	if (len < hdr_len + n)
		return SPE_NEED_MORE;
	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)buf[hdr_len + i] << (8 * i);
	pkt->payload = v;
	return (int)(hdr_len + n);
}

int arm_spe__packet(const uint8_t *buf, size_t len, uint64_t pos, struct arm_spe_pkt *pkt)
{
	uint8_t hdr;
	unsigned int hdr_len = 1;

	memset(pkt, 0, sizeof(*pkt));
	if (!len)
		return SPE_NEED_MORE;
	hdr = buf[0];
	switch (hdr) {
	case 0x00:
		pkt->type = SPE_PKT_PAD;
		return 1;
	case 0x01:
		pkt->type = SPE_PKT_END;
		return 1;
	case 0x71:
		pkt->type = SPE_PKT_TIMESTAMP;
		return get_payload(buf, len, 1, pkt);
	}
	/* 0b01xx0010 events, 0b01xx0011 data source: xx is the payload size */
	if ((hdr & 0xcf) == 0x42) {
		pkt->type = SPE_PKT_EVENTS;
		pkt->index = payload_len(hdr);
		return get_payload(buf, len, 1, pkt);
	}
	if ((hdr & 0xcf) == 0x43) {
		pkt->type = SPE_PKT_DATA_SOURCE;
		return get_payload(buf, len, 1, pkt);
	}
	if ((hdr & 0xfc) == 0x64) {
		pkt->type = SPE_PKT_CONTEXT;
		pkt->index = hdr & 3;
		return get_payload(buf, len, 1, pkt);
	}
	if ((hdr & 0xfc) == 0x48) {
		pkt->type = SPE_PKT_OP_TYPE;
		pkt->index = hdr & 3;
		return get_payload(buf, len, 1, pkt);
	}
	if ((hdr & 0xfc) == 0x20) {
		/* the extended header: a second byte, and two more index bits in the first */
		if (len < 2)
			return SPE_NEED_MORE;
		hdr_len = 2;
		hdr = buf[1];
		if (hdr == 0x00) {
			/* alignment: pad to the next multiple of 2^(n+1) of the stream position */
			unsigned int align = 1u << ((buf[0] & 0xf) + 1);

			if (len < align)
				return SPE_NEED_MORE;
			pkt->type = SPE_PKT_PAD;
			return (int)(align - (pos & (align - 1)));
		}
	}
	if ((hdr & 0xf8) == 0xb0 || (hdr & 0xf8) == 0x98) {
		pkt->type = (hdr & 0xf8) == 0xb0 ? SPE_PKT_ADDRESS : SPE_PKT_COUNTER;
		pkt->index = hdr & 7;
		if (hdr_len == 2)
			pkt->index |= (buf[0] & 3u) << 3;
		return get_payload(buf, len, hdr_len, pkt);
	}
	return SPE_BAD_PACKET;
}

/* ---- records ------------------------------------------------------------------------ */

void arm_spe_decoder__init(struct arm_spe_decoder *d)
{
	memset(d, 0, sizeof(*d));
}

/* The address of an address packet: tag/attribute bits off, kernel addresses sign-filled. */
static uint64_t spe_addr(unsigned int index, uint64_t v)
{
	const uint64_t low56 = (1ULL << 56) - 1, top = 0xffULL << 56;

	switch (index) {
	case SPE_ADDR_INS:
	case SPE_ADDR_BRANCH: {
		/* bit 63: non-secure; bits 62:61: exception level.  NS EL1/EL2: a kernel address */
		unsigned int ns = v >> 63, el = (v >> 61) & 3;

		v &= low56;
		if (ns && (el == 1 || el == 2))
			v |= top;
		return v;
	}
	case SPE_ADDR_DATA_VA:
		/* the top byte is a tag; bits 55:52 all set mean a kernel address */
		v &= low56;
		if (((v >> 48) & 0xf0) == 0xf0)
			v |= top;
		return v;
	case SPE_ADDR_DATA_PA:
		return v & low56;
	default:
		return v;
	}
}

static const struct {
	unsigned int bit;
	uint32_t type;
} spe_events[] = {
	{ SPE_EV_L1D_REFILL, SPE_L1D_MISS },	 { SPE_EV_L1D_ACCESS, SPE_L1D_ACCESS },
	{ SPE_EV_TLB_WALK, SPE_TLB_MISS },	 { SPE_EV_TLB_ACCESS, SPE_TLB_ACCESS },
	{ SPE_EV_LLC_MISS, SPE_LLC_MISS },	 { SPE_EV_LLC_ACCESS, SPE_LLC_ACCESS },
	{ SPE_EV_REMOTE_ACCESS, SPE_REMOTE_ACCESS }, { SPE_EV_MISPRED, SPE_BRANCH_MISS },
};

int arm_spe_decoder__next(struct arm_spe_decoder *d, const uint8_t *buf, size_t len,
			  size_t *pos, uint64_t base, struct arm_spe_record *out, const char **why)
{
	struct arm_spe_record *r = &d->rec;

	while (*pos < len) {
		struct arm_spe_pkt pkt;
		int n = arm_spe__packet(buf + *pos, len - *pos, base + *pos, &pkt);

		if (n < 0) {
			*why = n == SPE_NEED_MORE ? "SPE packet cut by the end of its AUX buffer"
						  : "bad SPE packet header";
			return -EINVAL;
		}
		if (!d->open) {
			memset(r, 0, sizeof(*r));
			r->context_id = UINT64_MAX;
			d->open = true;
		}
		switch (pkt.type) {
		case SPE_PKT_TIMESTAMP:		/* a timestamp ends its record */
		case SPE_PKT_END:
			if (pkt.type == SPE_PKT_TIMESTAMP)
				r->timestamp = pkt.payload;
			*pos += (size_t)n;
			*out = *r;
			d->open = false;
			return 1;
		case SPE_PKT_ADDRESS: {
			uint64_t a = spe_addr(pkt.index, pkt.payload);

			if (pkt.index == SPE_ADDR_INS)
				r->from_ip = a;
			else if (pkt.index == SPE_ADDR_BRANCH)
				r->to_ip = a;
			else if (pkt.index == SPE_ADDR_DATA_VA)
				r->virt_addr = a;
			else if (pkt.index == SPE_ADDR_DATA_PA)
				r->phys_addr = a;
			break;
		}
		case SPE_PKT_COUNTER:
			if (pkt.index == SPE_CNT_TOTAL_LAT)
				r->latency = (uint32_t)pkt.payload;
			break;
		case SPE_PKT_CONTEXT:
			r->context_id = pkt.payload;
			break;
		case SPE_PKT_OP_TYPE:
			if (pkt.index == SPE_OP_CLASS_LDST)
				r->op |= SPE_OP_LDST | ((pkt.payload & 1) ? SPE_OP_ST : SPE_OP_LD);
			else if (pkt.index == SPE_OP_CLASS_OTHER)
				r->op |= SPE_OP_OTHER;
			else if (pkt.index == SPE_OP_CLASS_BRANCH)
				r->op |= SPE_OP_BRANCH;
			else {
				*why = "SPE operation type packet of an unknown class (3)";
				return -EINVAL;
			}
			break;
		case SPE_PKT_EVENTS:
			for (size_t i = 0; i < sizeof(spe_events) / sizeof(spe_events[0]); i++)
				if (pkt.payload & (1ULL << spe_events[i].bit))
					r->type |= spe_events[i].type;
			break;
		case SPE_PKT_DATA_SOURCE:
			r->source = (uint16_t)pkt.payload;
			break;
		default:
			break;	/* PAD */
		}
		*pos += (size_t)n;
	}
	return 0;
}

/* ---- data source -------------------------------------------------------------------- */

/* perf_mem_data_src fields and values (include/uapi/linux/perf_event.h). */
#define DS_OP(v) ((uint64_t)(v) << 0)
#define DS_LVL(v) ((uint64_t)(v) << 5)
#define DS_SNOOP(v) ((uint64_t)(v) << 19)
#define DS_TLB(v) ((uint64_t)(v) << 26)
#define DS_LVLNUM(v) ((uint64_t)(v) << 33)
#define DS_REMOTE(v) ((uint64_t)(v) << 37)
#define DS_SNOOPX(v) ((uint64_t)(v) << 38)
enum { OP_NA = 1, OP_LOAD = 2, OP_STORE = 4 };
enum { LVL_NA = 1, LVL_HIT = 2, LVL_MISS = 4, LVL_L1 = 8, LVL_L2 = 0x20, LVL_L3 = 0x40,
       LVL_LOC_RAM = 0x80 };
enum { SNOOP_NA = 1, SNOOP_NONE = 2, SNOOP_HIT = 4 };
enum { SNOOPX_PEER = 2 };
enum { TLB_HIT = 2, TLB_MISS = 4, TLB_WK = 0x20 };
enum { LVLNUM_L1 = 1, LVLNUM_L2 = 2, LVLNUM_L3 = 3, LVLNUM_RAM = 0xd, LVLNUM_NA = 0xf };

/* Neoverse N1, N2, V1: implementer, architecture and part number of the MIDR. */
bool arm_spe__midr_common_ds(uint64_t midr)
{
	static const uint32_t models[] = { 0x410fd0c0, 0x410fd490, 0x410fd400 };
	uint32_t model = (uint32_t)midr & 0xff0ffff0u;

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (model == models[i])
			return true;
	return false;
}

/* The Neoverse encoding: stores say nothing; loads by where the data came from. */
static uint64_t ds_common(const struct arm_spe_record *r)
{
	if (r->op & SPE_OP_ST)
		return DS_LVL(LVL_NA) | DS_LVLNUM(LVLNUM_NA) | DS_SNOOP(SNOOP_NA);
	switch (r->source) {
	case SPE_DS_L1D:
		return DS_LVL(LVL_L1 | LVL_HIT) | DS_LVLNUM(LVLNUM_L1) | DS_SNOOP(SNOOP_NONE);
	case SPE_DS_L2:
		return DS_LVL(LVL_L2 | LVL_HIT) | DS_LVLNUM(LVLNUM_L2) | DS_SNOOP(SNOOP_NONE);
	case SPE_DS_PEER_CORE:
		return DS_LVL(LVL_L2 | LVL_HIT) | DS_LVLNUM(LVLNUM_L2) | DS_SNOOPX(SNOOPX_PEER);
	case SPE_DS_LOCAL_CLUSTER:
	case SPE_DS_PEER_CLUSTER:
		/* a cache-to-cache transfer from an unknown level */
		return DS_LVL(LVL_L3 | LVL_HIT) | DS_LVLNUM(LVLNUM_L3) | DS_SNOOPX(SNOOPX_PEER);
	case SPE_DS_SYS_CACHE:
		return DS_LVL(LVL_L3 | LVL_HIT) | DS_LVLNUM(LVLNUM_L3) | DS_SNOOP(SNOOP_HIT);
	case SPE_DS_REMOTE:
		return DS_LVL(LVL_NA) | DS_LVLNUM(LVLNUM_NA) | DS_REMOTE(1) |
		       DS_SNOOPX(SNOOPX_PEER);
	case SPE_DS_DRAM:
		return DS_LVL(LVL_LOC_RAM | LVL_HIT) | DS_LVLNUM(LVLNUM_RAM) |
		       DS_SNOOP(SNOOP_NONE);
	default:
		return 0;
	}
}

/* Other cores: only the events say something (LLC before L1D). */
static uint64_t ds_generic(const struct arm_spe_record *r)
{
	uint64_t v = 0;

	if (r->type & (SPE_LLC_ACCESS | SPE_LLC_MISS))
		v = DS_LVL(LVL_L3 | ((r->type & SPE_LLC_MISS) ? LVL_MISS : LVL_HIT));
	else if (r->type & (SPE_L1D_ACCESS | SPE_L1D_MISS))
		v = DS_LVL(LVL_L1 | ((r->type & SPE_L1D_MISS) ? LVL_MISS : LVL_HIT));
	if (r->type & SPE_REMOTE_ACCESS)
		v |= DS_REMOTE(1);
	return v;
}

uint64_t arm_spe__data_src(const struct arm_spe_record *r, uint64_t midr)
{
	uint64_t v;

	if (r->op & SPE_OP_LD)
		v = DS_OP(OP_LOAD);
	else if (r->op & SPE_OP_ST)
		v = DS_OP(OP_STORE);
	else
		return 0;
	v |= arm_spe__midr_common_ds(midr) ? ds_common(r) : ds_generic(r);
	if (r->type & (SPE_TLB_ACCESS | SPE_TLB_MISS))
		v |= DS_TLB(TLB_WK | ((r->type & SPE_TLB_MISS) ? TLB_MISS : TLB_HIT));
	return v;
}

/* ---- time --------------------------------------------------------------------------- */

uint64_t spe_time_conv__perf_time(const struct spe_time_conv *tc, uint64_t cyc)
{
	uint64_t quot, rem;
	unsigned int shift = tc->time_shift & 63;

	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> shift;
	rem = cyc & ((1ULL << shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

uint64_t spe_time_conv__tsc(const struct spe_time_conv *tc, uint64_t ns)
{
	uint64_t t = ns - tc->time_zero, quot, rem;
	unsigned int shift = tc->time_shift & 63;

	if (!tc->time_mult)
		return 0;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << shift) + (rem << shift) / tc->time_mult;
}

/* ---- synthesis ---------------------------------------------------------------------- */

#define MAX_QUEUES 65536u
#define MAX_SWITCH_CPUS 65536u
/*
 * Switches kept per CPU ahead of its trace (memory bounded by this, not by the file): a CPU
 * whose AUX data lags by more loses the oldest half, whose records then get a later task.
 */
#define MAX_SWITCHES_KEPT 65536u

/* A context switch: from @tsc on, the CPU runs @pid/@tid. */
struct spe_switch {
	uint64_t tsc;
	int32_t pid, tid;
};

/* One CPU's switches not yet passed by its trace: v[head, n). */
struct spe_cpu_switches {
	struct spe_switch *v;
	size_t head, n, cap;
};

struct spe_queue {
	bool used;
	int32_t cpu, tid;		/* from the queue's first AUXTRACE record */
	int32_t cur_tid;		/* the last CONTEXT packet's, else tid */
	struct arm_spe_decoder dec;
};

struct tid_slot {
	int32_t tid, pid;		/* tid -1: empty */
};

struct arm_spe_synth {
	uint64_t midr;
	struct spe_time_conv tc;
	bool timeless;

	struct spe_queue *queues;
	uint32_t nr_queues;

	/* the buffer being decoded */
	struct spe_queue *q;
	const uint8_t *data;
	size_t size, pos;
	uint64_t file_off;

	/* tid -> pid from COMM and FORK, open addressing */
	struct tid_slot *tids;
	size_t tids_cap, nr_tids;

	/* perf's use_ctx_pkt_for_pid: once a CONTEXT packet was seen, switches are not used */
	bool use_ctx;
	struct spe_cpu_switches *sw;	/* by CPU */
	uint32_t nr_sw;
};

struct arm_spe_synth *arm_spe_synth__new(uint64_t midr, const struct spe_time_conv *tc,
					 bool timeless)
{
	struct arm_spe_synth *s = xcalloc(1, sizeof(*s));

	s->midr = midr;
	if (tc)
		s->tc = *tc;
	s->timeless = timeless;
	return s;
}

void arm_spe_synth__delete(struct arm_spe_synth *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nr_sw; i++)
		free(s->sw[i].v);
	free(s->sw);
	free(s->queues);
	free(s->tids);
	free(s);
}

static size_t tid_hash(int32_t tid, size_t mask)
{
	return ((uint32_t)tid * 0x9e3779b1u) & mask;
}

static struct tid_slot *tid_find(const struct arm_spe_synth *s, int32_t tid)
{
	size_t mask = s->tids_cap - 1;

	if (!s->tids_cap)
		return NULL;
	for (size_t i = tid_hash(tid, mask);; i = (i + 1) & mask) {
		if (s->tids[i].tid == tid || s->tids[i].tid == -1)
			return &s->tids[i];
	}
}

void arm_spe_synth__thread(struct arm_spe_synth *s, int32_t pid, int32_t tid)
{
	struct tid_slot *slot;

	if (tid == -1)
		return;
	if ((s->nr_tids + 1) * 2 > s->tids_cap) {
		struct tid_slot *old = s->tids;
		size_t old_cap = s->tids_cap;

		s->tids_cap = old_cap ? old_cap * 2 : 64;
		s->tids = xmalloc(s->tids_cap * sizeof(*s->tids));
		for (size_t i = 0; i < s->tids_cap; i++)
			s->tids[i].tid = -1;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].tid != -1)
				*tid_find(s, old[i].tid) = old[i];
		free(old);
	}
	slot = tid_find(s, tid);
	if (slot->tid == -1)
		s->nr_tids++;
	slot->tid = tid;
	slot->pid = pid;
}

/* The pid perf finds for a tid: the thread's, -1 when it knows no such thread. */
static int32_t pid_of(const struct arm_spe_synth *s, int32_t tid)
{
	const struct tid_slot *slot = tid == -1 ? NULL : tid_find(s, tid);

	return slot && slot->tid == tid ? slot->pid : -1;
}

void arm_spe_synth__switch(struct arm_spe_synth *s, int32_t cpu, uint64_t time, int32_t pid,
			   int32_t tid)
{
	struct spe_cpu_switches *c;

	if (cpu < 0 || (uint32_t)cpu >= MAX_SWITCH_CPUS || s->timeless || s->use_ctx)
		return;
	if ((uint32_t)cpu >= s->nr_sw) {
		uint32_t n = (uint32_t)cpu + 1;

		s->sw = xrealloc(s->sw, n * sizeof(*s->sw));
		memset(s->sw + s->nr_sw, 0, (n - s->nr_sw) * sizeof(*s->sw));
		s->nr_sw = n;
	}
	c = &s->sw[cpu];
	if (c->n - c->head >= MAX_SWITCHES_KEPT)
		c->head += MAX_SWITCHES_KEPT / 2;	/* bounded: its trace lags far behind */
	if (c->head && c->head * 2 >= c->n) {
		/* drop what the trace has passed */
		memmove(c->v, c->v + c->head, (c->n - c->head) * sizeof(*c->v));
		c->n -= c->head;
		c->head = 0;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	c->v[c->n++] = (struct spe_switch){ spe_time_conv__tsc(&s->tc, time), pid, tid };
}

/*
 * The task on @cpu for a record at @tsc: perf handles a switch before the records whose tsc
 * is not below its own, so the last switch with tsc <= @tsc.  NULL when none.  Switches
 * before it are dropped: a CPU's records come in time order.
 */
static const struct spe_switch *switch_at(struct arm_spe_synth *s, int32_t cpu, uint64_t tsc)
{
	struct spe_cpu_switches *c;
	size_t lo, hi;

	if (cpu < 0 || (uint32_t)cpu >= s->nr_sw)
		return NULL;
	c = &s->sw[cpu];
	lo = c->head;
	hi = c->n;
	while (lo < hi) {	/* the first switch with tsc > @tsc */
		size_t mid = lo + (hi - lo) / 2;

		if (c->v[mid].tsc <= tsc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == c->head)
		return NULL;
	c->head = lo - 1;
	return &c->v[lo - 1];
}

int arm_spe_synth__queue(struct arm_spe_synth *s, uint32_t idx, int32_t cpu, int32_t tid,
			 const void *data, uint64_t size, uint64_t file_off, const char **why)
{
	struct spe_queue *q;

	if (idx >= MAX_QUEUES) {
		*why = "AUXTRACE queue number beyond 65535";
		return -EINVAL;
	}
	if (idx >= s->nr_queues) {
		uint32_t n = idx + 1;

		s->queues = xrealloc(s->queues, n * sizeof(*s->queues));
		memset(s->queues + s->nr_queues, 0, (n - s->nr_queues) * sizeof(*s->queues));
		s->nr_queues = n;
	}
	q = &s->queues[idx];
	if (!q->used) {
		/* perf takes a queue's cpu and tid from its first buffer */
		q->used = true;
		q->cpu = cpu;
		q->tid = tid;
		q->cur_tid = tid;
		arm_spe_decoder__init(&q->dec);
	}
	s->q = q;
	s->data = data;
	s->size = (size_t)size;
	s->pos = 0;
	s->file_off = file_off;
	return 0;
}

int arm_spe_synth__next(struct arm_spe_synth *s, struct spe_sample *out, uint64_t *err_off,
			const char **why)
{
	struct arm_spe_record r;

	while (s->q) {
		struct spe_queue *q = s->q;
		int rc = arm_spe_decoder__next(&q->dec, s->data, s->size, &s->pos, s->file_off, &r,
					       why);
		uint64_t ds;

		if (rc < 0) {
			*err_off = s->file_off + s->pos;
			s->q = NULL;
			return rc;
		}
		if (rc == 0) {
			s->q = NULL;
			s->data = NULL;
			break;
		}
		/* perf reads the thread from CONTEXT packets only when it has time */
		if (!s->timeless && r.context_id != UINT64_MAX) {
			q->cur_tid = (int32_t)r.context_id;
			s->use_ctx = true;
		}
		ds = arm_spe__data_src(&r, s->midr);
		if (!ds)
			continue;	/* not a load or a store */
		memset(out, 0, sizeof(*out));
		out->ip = r.from_ip;
		out->kernel = r.from_ip >= (1ULL << 63);
		out->addr = r.virt_addr;
		out->phys_addr = r.phys_addr;
		out->data_src = ds;
		out->weight = r.latency;
		out->period = 1;
		out->time = s->timeless ? 0 : spe_time_conv__perf_time(&s->tc, r.timestamp);
		out->tid = q->cur_tid;
		out->pid = pid_of(s, q->cur_tid);
		if (!s->use_ctx && !s->timeless) {
			const struct spe_switch *w = switch_at(s, q->cpu, r.timestamp);

			if (w) {
				out->tid = w->tid;
				out->pid = w->pid;
			}
		}
		out->cpu = q->cpu;
		return 1;
	}
	return 0;
}

/* ---- sample records ----------------------------------------------------------------- */

static uint8_t *put_u64(uint8_t *p, uint64_t v, bool be)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * (be ? 7 - i : i)));
	return p + 8;
}

/* Two u32 in one u64 slot, in the file's byte order. */
static uint8_t *put_u32x2(uint8_t *p, uint32_t a, uint32_t b, bool be)
{
	for (int i = 0; i < 4; i++) {
		p[i] = (uint8_t)(a >> (8 * (be ? 3 - i : i)));
		p[4 + i] = (uint8_t)(b >> (8 * (be ? 3 - i : i)));
	}
	return p + 8;
}

size_t spe_sample__encode(const struct spe_sample *smp, uint64_t type, uint64_t id,
			  bool big_endian, uint8_t *out)
{
	uint8_t *p = out;

	if (type & SF_IDENTIFIER)
		p = put_u64(p, id, big_endian);
	if (type & SF_IP)
		p = put_u64(p, smp->ip, big_endian);
	if (type & SF_TID)
		p = put_u32x2(p, (uint32_t)smp->pid, (uint32_t)smp->tid, big_endian);
	if (type & SF_TIME)
		p = put_u64(p, smp->time, big_endian);
	if (type & SF_ADDR)
		p = put_u64(p, smp->addr, big_endian);
	if (type & SF_ID)
		p = put_u64(p, id, big_endian);
	if (type & SF_STREAM_ID)
		p = put_u64(p, id, big_endian);
	if (type & SF_CPU)
		p = put_u32x2(p, (uint32_t)smp->cpu, 0, big_endian);
	if (type & SF_PERIOD)
		p = put_u64(p, smp->period, big_endian);
	if (type & SF_WEIGHT)
		p = put_u64(p, smp->weight, big_endian);
	if (type & SF_DATA_SRC)
		p = put_u64(p, smp->data_src, big_endian);
	if (type & SF_PHYS_ADDR)
		p = put_u64(p, smp->phys_addr, big_endian);
	return (size_t)(p - out);
}
