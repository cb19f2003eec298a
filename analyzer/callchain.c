// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/callchain.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

enum { CC_LT = -1, CC_EQ = 0, CC_GT = 1 };

/*
 * perf's match_chain (function key) for an existing frame and a new one: object first (perf
 * compares dso pointers), then symbol starts when both have a symbol, else addresses.
 */
static int cc_match(const struct cc_frame *old, const struct cc_frame *new)
{
	uint64_t l, r;

	if (old->dso != new->dso)
		return (uintptr_t)old->dso < (uintptr_t)new->dso ? CC_LT : CC_GT;
	if (old->sym && new->sym) {
		l = old->sym_start;
		r = new->sym_start;
	} else {
		l = old->ip;
		r = new->ip;
	}
	if (l != r)
		return l < r ? CC_LT : CC_GT;
	return CC_EQ;
}

static uint32_t node__new(struct cc_forest *f)
{
	if (f->nr_nodes == f->cap_nodes)
		f->nodes = xgrow(f->nodes, &f->cap_nodes, f->nr_nodes + 1, sizeof(*f->nodes));
	memset(&f->nodes[f->nr_nodes], 0, sizeof(*f->nodes));
	return f->nr_nodes++;
}

static void node__insert_child(struct cc_forest *f, uint32_t parent, uint32_t at, uint32_t child)
{
	struct cc_node *p = &f->nodes[parent];

	if (p->nr_children == p->cap_children) {
		size_t cap = p->cap_children;

		p->children = xgrow(p->children, &cap, p->nr_children + 1, sizeof(uint32_t));
		p->cap_children = cap;
	}
	memmove(p->children + at + 1, p->children + at, (p->nr_children - at) * sizeof(uint32_t));
	p->children[at] = child;
	p->nr_children++;
}

uint32_t cc_forest__new_root(struct cc_forest *f)
{
	return node__new(f);
}

/* perf's add_child: a node for the rest of the chain, from @pos; not linked yet. */
static uint32_t add_child(struct cc_forest *f, const struct cc_frame *cur, uint32_t nr,
			  uint32_t pos, uint64_t period)
{
	uint32_t n = node__new(f);

	if (f->nr_frames + (nr - pos) > f->cap_frames)
		f->frames = xgrow(f->frames, &f->cap_frames, f->nr_frames + (nr - pos),
				  sizeof(*f->frames));
	memcpy(f->frames + f->nr_frames, cur + pos, (nr - pos) * sizeof(*cur));
	f->nodes[n].frame = f->nr_frames;
	f->nodes[n].nr_frames = nr - pos;
	f->nodes[n].hit = period;
	f->nr_frames += nr - pos;
	return n;
}

static void append_chain_children(struct cc_forest *f, uint32_t root, const struct cc_frame *cur,
				  uint32_t nr, uint32_t *pos, uint64_t period);

/*
 * perf's split_add_child: @parent matched only its first @local frames; its tail (and its
 * children) move to a new child, and the rest of the chain, if any, becomes another child.
 */
static void split_add_child(struct cc_forest *f, uint32_t parent, const struct cc_frame *cur,
			    uint32_t nr, uint32_t start, uint32_t local, uint64_t period)
{
	uint32_t tail = node__new(f), total = start + local;
	struct cc_node *p = &f->nodes[parent], *t = &f->nodes[tail];

	t->frame = p->frame + local;
	t->nr_frames = p->nr_frames - local;
	p->nr_frames = local;
	t->children = p->children;
	t->nr_children = p->nr_children;
	t->cap_children = p->cap_children;
	p->children = NULL;
	p->nr_children = p->cap_children = 0;
	t->hit = p->hit;
	t->children_hit = p->children_hit;
	p->children_hit = cc_node__cumul(t);
	node__insert_child(f, parent, 0, tail);

	if (total < nr) {
		uint32_t branch;
		int cmp;

		p = &f->nodes[parent];
		p->hit = 0;
		p->children_hit += period;
		branch = add_child(f, cur, nr, total, period);
		cmp = cc_match(&f->frames[f->nodes[tail].frame], &cur[total]);
		node__insert_child(f, parent, cmp == CC_LT ? 0 : 1, branch);
	} else {
		f->nodes[parent].hit = period;
	}
}

/* perf's append_chain: CC_EQ when the chain went into @node (or below), else the order. */
static int append_chain(struct cc_forest *f, uint32_t node, const struct cc_frame *cur, uint32_t nr,
			uint32_t *pos, uint64_t period)
{
	uint32_t start = *pos, k, matches;
	int cmp = CC_LT;
	bool found = false;

	for (k = 0; k < f->nodes[node].nr_frames && *pos < nr; k++) {
		cmp = cc_match(&f->frames[f->nodes[node].frame + k], &cur[*pos]);
		if (cmp != CC_EQ)
			break;
		found = true;
		(*pos)++;
	}
	if (!found)
		return cmp;
	matches = *pos - start;
	if (matches < f->nodes[node].nr_frames) {
		split_add_child(f, node, cur, nr, start, matches, period);
		return CC_EQ;
	}
	if (*pos == nr) {
		f->nodes[node].hit += period;
		return CC_EQ;
	}
	append_chain_children(f, node, cur, nr, pos, period);
	return CC_EQ;
}

/* perf's append_chain_children: the child whose first frame matches, else a new child. */
static void append_chain_children(struct cc_forest *f, uint32_t root, const struct cc_frame *cur,
				  uint32_t nr, uint32_t *pos, uint64_t period)
{
	uint32_t lo = 0, hi = f->nodes[root].nr_children;

	/* the children are in perf's rb-tree order: a search by the first frame finds the same */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int ret = append_chain(f, f->nodes[root].children[mid], cur, nr, pos, period);

		if (ret == CC_EQ)
			goto out;
		if (ret == CC_LT)
			hi = mid;
		else
			lo = mid + 1;
	}
	node__insert_child(f, root, lo, add_child(f, cur, nr, *pos, period));
out:
	f->nodes[root].children_hit += period;
}

void cc_forest__append(struct cc_forest *f, uint32_t root, const struct cc_frame *frames,
		       uint32_t nr, uint64_t period)
{
	uint32_t pos = 0;

	if (!nr)
		return;
	append_chain_children(f, root, frames, nr, &pos, period);
}

void cc_forest__sort(struct cc_forest *f)
{
	for (size_t i = 0; i < f->nr_nodes; i++) {
		struct cc_node *n = &f->nodes[i];

		/* stable insertion sort: cumulated hits descending, ties in tree order */
		for (uint32_t a = 1; a < n->nr_children; a++) {
			uint32_t v = n->children[a], b = a;
			uint64_t cv = cc_node__cumul(&f->nodes[v]);

			while (b > 0 && cc_node__cumul(&f->nodes[n->children[b - 1]]) < cv) {
				n->children[b] = n->children[b - 1];
				b--;
			}
			n->children[b] = v;
		}
	}
}

void cc_forest__release(struct cc_forest *f)
{
	for (size_t i = 0; i < f->nr_nodes; i++)
		free(f->nodes[i].children);
	free(f->nodes);
	free(f->frames);
	memset(f, 0, sizeof(*f));
}
