// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/data_src.h"

#include <stdio.h>
#include <string.h>

uint64_t data_src__encode(const struct data_src *d)
{
	return DS_MK(OP, d->op & 0x1f) | DS_MK(LVL, d->lvl & 0x3fff) |
	       DS_MK(SNOOP, d->snoop & 0x1f) | DS_MK(LOCK, d->lock & 0x3) |
	       DS_MK(TLB, d->dtlb & 0x7f) | DS_MK(LVLNUM, d->lvl_num & 0xf) |
	       DS_MK(REMOTE, d->remote & 1) | DS_MK(SNOOPX, d->snoopx & 0x3) |
	       DS_MK(BLK, d->blk & 0x7) | DS_MK(HOPS, d->hops & 0x7);
}

/* A bounded appender: never writes past size - 1, always NUL-terminates. */
struct sbuf {
	char *out;
	unsigned int size, len;
};

static void sbuf__add(struct sbuf *b, const char *s)
{
	while (*s && b->len + 1 < b->size)
		b->out[b->len++] = *s++;
	if (b->size)
		b->out[b->len] = '\0';
}

static const char *const lvl_names[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};

static const char *const lvlnum_names[16] = {
	[DS_LVLNUM_CXL] = "CXL", [DS_LVLNUM_IO] = "I/O", [DS_LVLNUM_ANY_CACHE] = "Any cache",
	[DS_LVLNUM_LFB] = "LFB/MAB", [DS_LVLNUM_RAM] = "RAM", [DS_LVLNUM_PMEM] = "PMEM",
	[DS_LVLNUM_NA] = "N/A",
};

static const char *const hops_names[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

char *data_src__lvl_str(const struct data_src *d, char *out, unsigned int size)
{
	struct sbuf b = { out, size, 0 };
	unsigned int m = d->lvl & ~(DS_LVL_HIT | DS_LVL_MISS);
	int printed = 0;
	char num[16];

	sbuf__add(&b, "");
	if (d->remote)
		sbuf__add(&b, "Remote ");
	if (d->hops) {
		sbuf__add(&b, hops_names[d->hops] ? hops_names[d->hops] : "");
		sbuf__add(&b, " ");
	} else {
		for (unsigned int i = 0; m && i < sizeof(lvl_names) / sizeof(lvl_names[0]);
		     i++, m >>= 1) {
			if (!(m & 1))
				continue;
			if (printed++)
				sbuf__add(&b, " or ");
			sbuf__add(&b, lvl_names[i]);
		}
	}
	if (d->lvl_num) {
		if (printed++)
			sbuf__add(&b, " or ");
		if (lvlnum_names[d->lvl_num]) {
			sbuf__add(&b, lvlnum_names[d->lvl_num]);
		} else {
			snprintf(num, sizeof(num), "L%d", d->lvl_num);
			sbuf__add(&b, num);
		}
	}
	if (b.len == 0)
		sbuf__add(&b, "N/A");
	if (d->lvl & DS_LVL_HIT)
		sbuf__add(&b, " hit");
	if (d->lvl & DS_LVL_MISS)
		sbuf__add(&b, " miss");
	return out;
}

char *data_src__snoop_str(const struct data_src *d, char *out, unsigned int size)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	struct sbuf b = { out, size, 0 };
	unsigned int m = d->snoop;

	sbuf__add(&b, "");
	for (unsigned int i = 0; m && i < 5; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (b.len)
			sbuf__add(&b, " or ");
		sbuf__add(&b, snoop[i]);
	}
	m = d->snoopx;
	for (unsigned int i = 0; m && i < 2; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (b.len)
			sbuf__add(&b, " or ");
		sbuf__add(&b, snoopx[i]);
	}
	if (b.len == 0)
		sbuf__add(&b, "N/A");
	return out;
}

char *data_src__op_str(const struct data_src *d, char *out, unsigned int size)
{
	struct sbuf b = { out, size, 0 };

	if (d->op & DS_OP_NA)
		sbuf__add(&b, "N/A");
	else if (d->op & DS_OP_LOAD)
		sbuf__add(&b, "LOAD");
	else if (d->op & DS_OP_STORE)
		sbuf__add(&b, "STORE");
	else if (d->op & DS_OP_PFETCH)
		sbuf__add(&b, "PFETCH");
	else if (d->op & DS_OP_EXEC)
		sbuf__add(&b, "EXEC");
	else
		sbuf__add(&b, "No");
	return out;
}
