/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_CALLCHAIN_H
#define LINEUP_ANALYZER_CALLCHAIN_H

/*
 * Call-chain trees, as perf builds them under a hist entry (util/callchain.c, with perf c2c's
 * defaults: graph, callee order, function key, absolute percentages): a radix tree whose
 * nodes hold runs of frames; a new chain follows the children whose first frame matches, and a
 * partial match splits a node.  Frames match by (object, symbol start) when both have a symbol,
 * else by (object, address); siblings stay ordered by that comparison, descending, as perf's
 * rb-tree of children iterates.
 *
 * Pure data: the caller resolves frames (struct cc_frame) and owns the names they point to.
 * Ownership: a struct cc_forest owns its nodes and frames; frames' names are the caller's.
 */

#include <stddef.h>
#include <stdint.h>

/**
 * struct cc_frame - one resolved frame.
 * @dso:	identity of the object (compared by value, as perf compares dso pointers); NULL
 *		when the address is in no map
 * @ip:		the address as recorded
 * @sym:	symbol name, NULL when unresolved (printed as the address)
 * @sym_start:	the symbol's start (compared when both frames have a symbol)
 */
struct cc_frame {
	const void *dso;
	uint64_t ip;
	const char *sym;
	uint64_t sym_start;
};

/**
 * struct cc_node - a node: a run of frames, its hits, its children.
 * @frame, @nr_frames: the run, in the forest's frame pool
 * @hit:	period of the chains that end here
 * @children_hit: period of the chains that go on into the children
 */
struct cc_node {
	uint32_t frame, nr_frames;
	uint64_t hit, children_hit;
	uint32_t *children;	/* node indices: perf's order (after cc_forest__sort: output order) */
	uint32_t nr_children, cap_children;
};

struct cc_forest {
	struct cc_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct cc_frame *frames;
	size_t nr_frames, cap_frames;
};

/* A new tree root (no frames); returns its node index. */
uint32_t cc_forest__new_root(struct cc_forest *f);

/* perf's callchain_append: add @nr frames (callee first) with weight @period under @root. */
void cc_forest__append(struct cc_forest *f, uint32_t root, const struct cc_frame *frames,
		       uint32_t nr, uint64_t period);

/* perf's sort_chain_graph_abs: every node's children by cumulated hits, descending, ties kept
 * in the tree's order.  Call once, after the last append. */
void cc_forest__sort(struct cc_forest *f);

static inline uint64_t cc_node__cumul(const struct cc_node *n)
{
	return n->hit + n->children_hit;
}

void cc_forest__release(struct cc_forest *f);

#endif
