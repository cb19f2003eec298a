// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suggester's result in words (see suggest_text.h).
 */
#include <config.h>

#include "analyzer/suggest_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

static const char *thread_name(const struct suggest_names *n, uint32_t tid, char *buf,
			       size_t len)
{
	const char *s = n->thread ? n->thread(n->ctx, tid) : NULL;

	if (s)
		return s;
	snprintf(buf, len, "tid %" PRIu32, tid);
	return buf;
}

/* "tid 1, tid 2 and 3 more" */
static void threads(const struct suggest_names *n, const struct id_set *s, struct strbuf *out)
{
	char buf[32];
	uint32_t shown = s->nr > 4 ? 3 : s->nr;

	for (uint32_t i = 0; i < shown; i++)
		strbuf__addf(out, "%s%s", i ? (i + 1 == s->nr ? " and " : ", ") : "",
			     thread_name(n, s->ids[i], buf, sizeof(buf)));
	if (shown < s->nr)
		strbuf__addf(out, " and %" PRIu32 " more", s->nr - shown);
	if (!s->nr)
		strbuf__addf(out, "no thread");
}

static const char *plural(uint64_t v, const char *one, const char *many)
{
	return v == 1 ? one : many;
}

static const char *group_kind_text(const struct suggest_group *g)
{
	switch (g->kind) {
	case SUGGEST_GROUP_READ_MOSTLY:
		return "read-mostly";
	case SUGGEST_GROUP_WRITTEN:
		return "written";
	case SUGGEST_GROUP_COLD:
		return "cold";
	}
	return "";
}

/* The units of group @g in the new order, ", "-separated. */
static void group_members(const struct suggest_result *r, const struct suggest_names *n, int g,
			  struct strbuf *out)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < r->nr_units; i++) {
		unsigned int u = r->order[i];

		if (r->profiles[u].group != g)
			continue;
		strbuf__addf(out, "%s%s", k++ ? ", " : "", n->units[u].name);
	}
}

/* "2 threads": a source comment outlives the recording's thread ids. */
static void thread_count(const struct id_set *s, struct strbuf *out)
{
	strbuf__addf(out, "%" PRIu32 " %s", s->nr, plural(s->nr, "thread", "threads"));
}

/* The threads that read a group's members without writing them. */
static void other_readers(const struct suggest_group *g, struct id_set *out)
{
	for (uint32_t i = 0; i < g->readers.nr; i++)
		if (!id_set__has(&g->writers, g->readers.ids[i]))
			id_set__add(out, g->readers.ids[i]);
}

/*
 * How an array unit of group @g is shared out, when its elements have different writers: a
 * 2 KB row a thread is not a member "written by 4 threads".
 */
static void group_parts(const struct suggest_result *r, const struct suggest_names *n, int g,
			struct strbuf *out)
{
	for (unsigned int u = 0; u < r->nr_units; u++) {
		const struct suggest_profile *p = &r->profiles[u];

		if (p->group != g || !p->elem_writers)
			continue;
		if (p->elem_interleaved)
			strbuf__addf(out, ", each its own elements of %s, in turn", n->units[u].name);
		else if (p->elem_part > n->units[u].elem_size)
			strbuf__addf(out, ", each its own %" PRIu64 "-byte part of %s", p->elem_part,
				     n->units[u].name);
		else
			strbuf__addf(out, ", each its own element of %s", n->units[u].name);
		return;
	}
}

static void group_use(const struct suggest_result *r, const struct suggest_names *n,
		      const struct suggest_group *g, struct strbuf *out)
{
	if (g->kind == SUGGEST_GROUP_WRITTEN) {
		strbuf__addf(out, "written by ");
		threads(n, &g->writers, out);
		group_parts(r, n, (int)(g - r->groups), out);
		strbuf__addf(out, " (%" PRIu64 " %s", g->writes, plural(g->writes, "write", "writes"));
		if (g->hitm)
			strbuf__addf(out, ", %" PRIu64 " HITM", g->hitm);
		strbuf__addf(out, ")");
		struct id_set others = { 0 };

		other_readers(g, &others);
		if (others.nr) {
			strbuf__addf(out, ", read by ");
			threads(n, &others, out);
		}
		id_set__release(&others);
	} else {
		strbuf__addf(out, "read by ");
		threads(n, &g->readers, out);
		strbuf__addf(out, " (%" PRIu64 " %s", g->loads, plural(g->loads, "load", "loads"));
		if (g->hitm)
			strbuf__addf(out, ", %" PRIu64 " HITM", g->hitm);
		strbuf__addf(out, "), %s", g->writes ? "hardly ever written" : "never written");
	}
}

static double change_pct(uint64_t before, uint64_t after)
{
	return before ? 100.0 * ((double)after - (double)before) / (double)before : 0;
}

static void prediction(const struct suggest_prediction *p, const char *what, bool measured,
		       unsigned int line, struct strbuf *out)
{
	strbuf__addf(out, "    %-7s", what);
	for (unsigned int i = 0; i < p->nr_lines; i++) {
		const struct suggest_line *l = &p->lines[i];

		strbuf__addf(out, "%s line %" PRIu64 " (+%" PRIu64 "): %" PRIu64, i ? ";" : "",
			     l->offset / line, l->offset, l->transfers);
		strbuf__addf(out, " [%" PRIu64 " HITM %s]", l->hitm_measured,
			     measured ? "measured" : "stay");
	}
	strbuf__addf(out, "%s\n", p->nr_lines ? "" : " no access");
}

/* The members with sharing @bit, ", "-separated (at most four, then "and N more"). */
static void units_with(const struct suggest_result *r, const struct suggest_names *n,
		       unsigned int bit, struct strbuf *out)
{
	unsigned int k = 0;

	for (unsigned int u = 0; u < r->nr_units; u++) {
		if (!(r->profiles[u].sharing & bit))
			continue;
		if (k < 4)
			strbuf__addf(out, "%s%s", k ? ", " : "", n->units[u].name);
		k++;
	}
	if (k > 4)
		strbuf__addf(out, " and %u more", k - 4);
}

static bool any_with(const struct suggest_result *r, unsigned int bit)
{
	for (unsigned int u = 0; u < r->nr_units; u++)
		if (r->profiles[u].sharing & bit)
			return true;
	return false;
}

/*
 * lineup fields' verdict on the struct's lines, the one both commands give: the verdicts by
 * lines (the one of the most HITMs first) and what the sharing is between.
 */
static void verdict_line(const struct suggest_result *r, const struct suggest_names *n,
			 struct strbuf *out)
{
	const struct suggest_verdicts *v = &r->verdicts;
	unsigned int k = 0;

	if (!r->have_verdicts)
		return;
	strbuf__addf(out, "  lineup fields: ");
	if (r->verdict == LINE_QUIET) {
		strbuf__addf(out, "no contended line of it\n");
		return;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int kind = LINE_QUIET + 1; kind <= LINE_WRITE_READ; kind++) {
			if (!v->lines[kind] || (kind == (int)r->verdict) != !pass)
				continue;
			strbuf__addf(out, "%s%s on %u line%s (%" PRIu64 " HITM)", k++ ? "; " : "",
				     line_verdict__name((enum line_verdict)kind), v->lines[kind],
				     v->lines[kind] == 1 ? "" : "s", v->hitm[kind]);
		}
	if (any_with(r, SHARING_FALSE_ELEMENTS)) {
		strbuf__addf(out, ", between the elements of ");
		units_with(r, n, SHARING_FALSE_ELEMENTS, out);
	}
	if (any_with(r, SHARING_FALSE_INSTANCES))
		strbuf__addf(out, ", between instances of %s", n->type);
	if (any_with(r, SHARING_FALSE_MEMBERS)) {
		strbuf__addf(out, ", between members (");
		units_with(r, n, SHARING_FALSE_MEMBERS, out);
		strbuf__addf(out, ")");
	}
	if (any_with(r, SHARING_TRUE)) {
		strbuf__addf(out, "; itself written by several CPUs in turn: ");
		units_with(r, n, SHARING_TRUE, out);
	}
	strbuf__addf(out, "\n");
}

void suggest__explain(const struct suggest_result *r, const struct suggest_names *n,
		      struct strbuf *out)
{
	unsigned int line = n->line_size ? n->line_size : 64;
	uint64_t lines_old = (r->old_size + line - 1) / line, lines_new = (r->size + line - 1) / line;

	switch (r->status) {
	case SUGGEST_OK:
		strbuf__addf(out, "%s: new layout, predicted %" PRIu64 " -> %" PRIu64
				  " modeled line transfers (%+.0f%%), %" PRIu64 " -> %" PRIu64
				  " HITM samples\n",
			     n->type, r->before.transfers, r->after.transfers,
			     change_pct(r->before.transfers, r->after.transfers),
			     r->before.hitm_measured, r->after.hitm_measured);
		break;
	case SUGGEST_NOTHING:
		strbuf__addf(out, "%s: nothing to do: %s\n", n->type, r->message);
		break;
	case SUGGEST_REFUSED:
		strbuf__addf(out, "%s: no suggestion: %s\n", n->type, r->message);
		return;
	}
	verdict_line(r, n, out);
	strbuf__addf(out, "  from %s: %" PRIu64 " %s of %" PRIu64 " %s\n", n->recording,
		     r->nr_accesses, plural(r->nr_accesses, "access", "accesses"), r->nr_instances,
		     plural(r->nr_instances, "instance", "instances"));
	if (r->status == SUGGEST_OK && r->after.transfers > r->before.transfers)
		strbuf__addf(out, "  note: the model predicts more transfers: these members are handed "
				  "from thread to thread\n  (a producer and a consumer), and each line "
				  "now moves on its own; what the layout\n  removes is one thread's "
				  "writes invalidating the other's lines: measure it (lineup ab)\n");
	if (r->status == SUGGEST_OK)
		strbuf__addf(out, "  size %" PRIu64 " -> %" PRIu64 " bytes (%+" PRId64 "), %" PRIu64
				  " -> %" PRIu64 " cache %s, holes and padding %" PRIu64 " -> %"
				  PRIu64 " bytes, alignment %u -> %u\n",
			     r->old_size, r->size, (int64_t)(r->size - r->old_size), lines_old,
			     lines_new, plural(lines_new, "line", "lines"), r->old_holes, r->holes,
			     r->old_align, r->align);
	if (r->nr_groups)
		strbuf__addf(out, "  groups:\n");
	for (unsigned int g = 0; g < r->nr_groups; g++) {
		const struct suggest_group *gr = &r->groups[g];

		strbuf__addf(out, "    %s (%s", gr->name, group_kind_text(gr));
		if (r->status == SUGGEST_OK)
			strbuf__addf(out, ", %s", gr->aligned ? "starts a line" : "shares a line");
		strbuf__addf(out, "): ");
		group_members(r, n, (int)g, out);
		strbuf__addf(out, "\n      ");
		group_use(r, n, gr, out);
		strbuf__addf(out, "\n");
	}
	struct strbuf cold = { 0 };

	for (unsigned int i = 0; i < r->nr_units; i++)
		if (r->profiles[r->order[i]].use == SUGGEST_COLD)
			strbuf__addf(&cold, "%s%s", cold.len ? ", " : "", n->units[r->order[i]].name);
	if (cold.len && r->nr_groups)
		strbuf__addf(out, "    cold (no access recorded, or one setup store; fills the space left): %s\n",
			     cold.buf);
	strbuf__release(&cold);
	strbuf__addf(out, "  modeled line transfers per cache line:\n");
	prediction(&r->before, "before:", true, line, out);
	if (r->status == SUGGEST_OK)
		prediction(&r->after, "after:", false, line, out);
	strbuf__addf(out, "  (transfers: the recorded accesses replayed in time order through the "
			  "coherence model,\n   one core per thread, instances line-aligned; HITMs: "
			  "the recorded HITM samples re-bucketed\n   on the new lines, kept where "
			  "another thread writes the line,\n   as often as the line's writer "
			  "changed between sampled writes)\n");
	suggest__advice(r, n, out);
}

/*
 * The truly shared members of one group in one paragraph (the first finding of the group
 * prints it, the others nothing): a lock, a refcount and a position written by every thread
 * are one problem, with one answer.
 */
static void true_sharing(const struct suggest_result *r, const struct suggest_names *n,
			 unsigned int at, struct strbuf *out)
{
	const struct suggest_finding *f = &r->findings[at];
	int g = r->profiles[f->unit].group;
	uint64_t writers = 0;
	unsigned int k = 0;

	for (unsigned int i = 0; i < at; i++)
		if (r->findings[i].kind == SUGGEST_TRUE_SHARING &&
		    r->profiles[r->findings[i].unit].group == g)
			return;
	strbuf__addf(out, "  true sharing: ");
	for (unsigned int i = at; i < r->nr_findings; i++) {
		const struct suggest_finding *h = &r->findings[i];

		if (h->kind != SUGGEST_TRUE_SHARING || r->profiles[h->unit].group != g)
			continue;
		strbuf__addf(out, "%s%s", k++ ? ", " : "", n->units[h->unit].name);
		if (h->a > writers)
			writers = h->a;
	}
	strbuf__addf(out, " %s written by %" PRIu64 " threads (", k > 1 ? "are each" : "is",
		     writers);
	threads(n, &r->profiles[f->unit].writers, out);
	strbuf__addf(out, "): no layout removes that.  A per-CPU or sharded counter (or batched "
			  "updates) does; its readers would then sum every shard:");
	k = 0;
	for (unsigned int i = at; i < r->nr_findings; i++) {
		const struct suggest_finding *h = &r->findings[i];

		if (h->kind != SUGGEST_TRUE_SHARING || r->profiles[h->unit].group != g)
			continue;
		strbuf__addf(out, "%s %" PRIu64 " %s of %s", k++ ? "," : "", h->b,
			     plural(h->b, "read", "reads"), n->units[h->unit].name);
		if (h->rate > 0)
			strbuf__addf(out, " (%.0f/s)", h->rate);
	}
	strbuf__addf(out, " in this recording.\n");
}

/*
 * An array member whose elements, written by different threads, share lines (lineup fields'
 * verdict): what to pad depends on how the threads share the elements out.
 */
static void elements(const struct suggest_result *r, const struct suggest_names *n,
		     const struct suggest_finding *f, struct strbuf *out)
{
	const struct suggest_unit *un = &n->units[f->unit];
	const struct suggest_profile *p = &r->profiles[f->unit];
	unsigned int line = n->line_size ? n->line_size : 64;
	uint64_t part = p->elem_part ? p->elem_part : un->elem_size;

	strbuf__addf(out, "  elements: ");
	if (p->elem_interleaved) {
		strbuf__addf(out, "the elements of %s are written by %" PRIu64 " threads in turn "
				  "(no thread's are one run); no member order separates them.  "
				  "Give each thread a contiguous run of them, or pad the element "
				  "type to %" PRIu64 " bytes (+%" PRIu64 " bytes for %s).\n",
			     un->name, p->elem_writers, f->a, f->b, un->name);
	} else if (part > un->elem_size && part % line == 0) {
		strbuf__addf(out, "each of the %" PRIu64 " threads writes its own %" PRIu64 "-byte "
				  "part of %s (%" PRIu64 " elements), whole lines, but %s does not "
				  "start on a line, so neighbouring parts share one: %s.\n",
			     p->elem_writers, part, un->name, part / un->elem_size, un->name,
			     r->status == SUGGEST_OK ? "the new layout starts it on a line" :
			     "start it on a line");
	} else if (part > un->elem_size) {
		strbuf__addf(out, "each of the %" PRIu64 " threads writes its own %" PRIu64 "-byte "
				  "part of %s (%" PRIu64 " elements), no multiple of the %u-byte "
				  "line, so neighbouring parts share lines: make each part %" PRIu64
				  " bytes (+%" PRIu64 " bytes for %s) and start %s on a line.\n",
			     p->elem_writers, part, un->name, part / un->elem_size, line, f->a,
			     f->b, un->name, un->name);
	} else {
		strbuf__addf(out, "the elements of %s are written by %" PRIu64 " different "
				  "threads; no member order separates them.  Align or pad the "
				  "element type to %" PRIu64 " bytes (+%" PRIu64 " bytes for %s).\n",
			     un->name, p->elem_writers, f->a, f->b, un->name);
	}
}

void suggest__advice(const struct suggest_result *r, const struct suggest_names *n,
		     struct strbuf *out)
{
	unsigned int line = n->line_size ? n->line_size : 64;

	for (unsigned int i = 0; i < r->nr_findings; i++) {
		const struct suggest_finding *f = &r->findings[i];
		const char *name = f->unit >= 0 ? n->units[f->unit].name : n->type;

		switch (f->kind) {
		case SUGGEST_TRUE_SHARING:
			true_sharing(r, n, i, out);
			break;
		case SUGGEST_TEST_BEFORE_SET:
			strbuf__addf(out, "  test before set: %" PRIu64 " of %" PRIu64 " locked "
					  "RMWs on %s changed nothing (a set_bit whose bits were set, a "
					  "compare-and-swap that failed); testing first (if "
					  "(!test_bit()) set_bit(), a plain load before the cmpxchg) "
					  "leaves the line shared instead of taking it.\n",
				     f->a, f->b, name);
			break;
		case SUGGEST_ELEMENTS:
			elements(r, n, f, out);
			break;
		case SUGGEST_INSTANCES:
			strbuf__addf(out, "  instances: %" PRIu64 " %s of %s share a cache line with "
					  "the next one; the new layout aligns the type to %u bytes "
					  "(heap objects then need aligned_alloc or "
					  "posix_memalign).\n",
				     f->a, plural(f->a, "instance", "instances"), n->type, line);
			break;
		case SUGGEST_ARRAY_ELEMENT:
			strbuf__addf(out, "  elements: %s is the element of an array whose elements, "
					  "written by different threads, share cache lines: padded to "
					  "%" PRIu64 " bytes (+%" PRIu64 " each), every element starts a "
					  "line of its own in a line-aligned array.\n",
				     n->type, f->a, f->b);
			break;
		case SUGGEST_GAVE_UP:
			strbuf__addf(out, "  --max-growth: %s does not start a line of its own "
					  "(%" PRIu64 " HITM on its members stay possible).\n",
				     f->a < r->nr_groups ? r->groups[f->a].name : "a group", f->b);
			break;
		}
	}
}

/* A group's use in a source comment: counts of threads, not their ids. */
static void group_use_brief(const struct suggest_group *g, struct strbuf *out)
{
	if (g->kind == SUGGEST_GROUP_WRITTEN) {
		struct id_set others = { 0 };

		other_readers(g, &others);
		strbuf__addf(out, "written by ");
		thread_count(&g->writers, out);
		if (others.nr) {
			strbuf__addf(out, ", read by %s", others.nr == 1 ? "another" : "");
			if (others.nr > 1)
				thread_count(&others, out);
			else
				strbuf__addf(out, " thread");
		}
		id_set__release(&others);
	} else {
		strbuf__addf(out, "read by ");
		thread_count(&g->readers, out);
		strbuf__addf(out, ", %s", g->writes ? "hardly ever written" : "never written");
	}
}

/* The finding of @kind in @r, or NULL. */
static const struct suggest_finding *finding_of(const struct suggest_result *r,
						enum suggest_finding_kind kind)
{
	for (unsigned int f = 0; f < r->nr_findings; f++)
		if (r->findings[f].kind == kind)
			return &r->findings[f];
	return NULL;
}

void suggest__comment(const struct suggest_result *r, const struct suggest_names *n,
		      struct strbuf *out)
{
	const struct suggest_finding *pad = finding_of(r, SUGGEST_ARRAY_ELEMENT);

	if (pad) {
		/* the element of a per-thread array: its size is the whole point */
		strbuf__addf(out, "Cache-line layout (lineup suggest, from %s):\n", n->recording);
		strbuf__addf(out, "each %s is one thread's element of an array: it is aligned to\n"
				  "%u bytes (%" PRIu64 " with the padding), so no two threads' "
				  "elements share\na cache line.  Allocate such arrays line-aligned "
				  "(aligned_alloc).\n", n->type, n->line_size, pad->a);
		return;
	}
	strbuf__addf(out, "Cache-line layout (lineup suggest, from %s):\n", n->recording);
	strbuf__addf(out, "members written by the same threads share a line; members that are only\n"
			  "read sit on a line that no write invalidates.\n");
	for (unsigned int g = 0; g < r->nr_groups; g++) {
		const struct suggest_group *gr = &r->groups[g];
		struct strbuf sb = { 0 };

		strbuf__addf(&sb, "%s: ", gr->name);
		group_members(r, n, (int)g, &sb);
		strbuf__addf(&sb, " -- ");
		group_use_brief(gr, &sb);
		if (gr->kind == SUGGEST_GROUP_WRITTEN && n->code) {
			for (unsigned int i = 0; i < r->nr_units; i++) {
				unsigned int u = r->order[i];
				const char *c;

				if (r->profiles[u].group != (int)g || !(c = n->code(n->ctx, u, 1)))
					continue;
				strbuf__addf(&sb, "; hot writer %s", c);
				break;
			}
		}
		strbuf__addf(out, "  %s\n", sb.buf ? sb.buf : "");
		strbuf__release(&sb);
	}
	strbuf__addf(out, "Add a member to the group whose threads use it the same way.\n");
}

void suggest__doc(const struct suggest_result *r, const struct suggest_names *n,
		  const char *const *type_names, struct strbuf *out)
{
	static const char rule[] = "============================== ========================= "
				   "=============== ==================== =========================\n";
	char title[200];
	int len = snprintf(title, sizeof(title), "%s fast path usage breakdown", n->type);

	for (int i = 0; i < len; i++)
		strbuf__add(out, "=", 1);
	strbuf__addf(out, "\n%s\n", title);
	for (int i = 0; i < len; i++)
		strbuf__add(out, "=", 1);
	strbuf__addf(out, "\n\nMeasured by lineup suggest from %s.\n\n", n->recording);
	strbuf__addf(out, "%s", rule);
	strbuf__addf(out, "%-30s %-25s %-15s %-20s %s\n", "Type", "Name", "fastpath_access", "Group",
		     "Comments");
	strbuf__addf(out, "%s", rule);
	for (unsigned int i = 0; i < r->nr_units; i++) {
		unsigned int u = r->order[i];
		const struct suggest_profile *p = &r->profiles[u];
		const char *use = p->use == SUGGEST_COLD	  ? "cold"
				  : p->use == SUGGEST_READ_MOSTLY ? "read_mostly"
								  : "read_write";
		const char *code = n->code ? n->code(n->ctx, u, p->use == SUGGEST_WRITTEN) : NULL;
		struct strbuf c = { 0 };

		if (p->use == SUGGEST_WRITTEN) {
			strbuf__addf(&c, "written by ");
			threads(n, &p->writers, &c);
		} else if (p->use == SUGGEST_READ_MOSTLY) {
			strbuf__addf(&c, "read by ");
			threads(n, &p->readers, &c);
		}
		if (code)
			strbuf__addf(&c, "%s%s", c.len ? "; " : "", code);
		strbuf__addf(out, "%-30s %-25s %-15s %-20s %s\n",
			     type_names && type_names[u] ? type_names[u] : "?", n->units[u].name, use,
			     p->group >= 0 ? r->groups[p->group].name : "-", c.buf ? c.buf : "");
		strbuf__release(&c);
	}
	strbuf__addf(out, "%s", rule);
}
