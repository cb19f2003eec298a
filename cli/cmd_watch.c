// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup watch: hardware breakpoints on chosen members of one real object (a kernel slab
 * object followed from kmem:kmem_cache_alloc, a global, or an address), every hit classified
 * load/store/RMW from the instruction that made it, replayed through the coherence model,
 * written as a standard perf.data and summarized per member.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/watch_object.h"
#include "analyzer/watch_table.h"
#include "cli/command.h"
#include "cli/output.h"
#include "pipeline/watch_run.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_OUTPUT = 'o',
	OPT_OBJECT = 1000,
	OPT_SYMBOL,
	OPT_ALLOC,
	OPT_COMM,
	OPT_PID,
	OPT_NTH,
	OPT_TYPE,
	OPT_FIELDS,
	OPT_ALL_FIELDS,
	OPT_ROTATE,
	OPT_DURATION,
	OPT_BINARY,
	OPT_QUIET,
	OPT_METHOD,
	OPT_JSON,
	OPT_CSV,
};

static const struct cli_option watch_options[] = {
	{ OPT_OUTPUT, 'o', "output", "FILE", "write the hits to this perf.data (default watch.data)" },
	{ OPT_OBJECT, 0, "object", "'struct T'@ADDR", "watch the object of type T at ADDR" },
	{ OPT_SYMBOL, 0, "symbol", "NAME",
	  "watch a global: of the workload's binary (DWARF gives its type), else of the kernel "
	  "(/proc/kallsyms, with --type)" },
	{ OPT_ALLOC, 0, "alloc", "CACHE",
	  "watch the next object allocated from this kernel slab cache (kmem:kmem_cache_alloc; "
	  "kmalloc-N: kmem:kmalloc of that size class)" },
	{ OPT_COMM, 0, "comm", "NAME", "with --alloc: only allocations by a task of this name" },
	{ OPT_PID, 0, "pid", "PID", "with --alloc: only allocations by this process" },
	{ OPT_NTH, 0, "nth", "N", "with --alloc: the N-th matching allocation, however short its "
	  "life (default: the first that outlives 250 ms)" },
	{ OPT_TYPE, 0, "type", "'struct T'",
	  "the object's type (--alloc knows common caches: filp, vm_area_struct, dentry ...)" },
	{ OPT_FIELDS, 0, "fields", "F1,F2,...", "members to watch (one breakpoint each)" },
	{ OPT_ALL_FIELDS, 0, "all-fields", NULL, "watch every member (needs --rotate beyond the "
	  "machine's breakpoint slots)" },
	{ OPT_ROTATE, 0, "rotate", "SECONDS",
	  "move the breakpoints through the members in groups, this long each" },
	{ OPT_DURATION, 0, "duration", "SECONDS", "stop after this long (default: when the "
	  "workload exits, the object is freed, or on Ctrl-C)" },
	{ OPT_BINARY, 0, "binary", "FILE", "the user program holding --symbol (default: the "
	  "workload's executable)" },
	{ OPT_QUIET, 'q', "quiet", NULL, "print the header and the member table only" },
	{ OPT_JSON, 0, "json", NULL,
	  "print the report as one JSON object (the workload's output goes to stderr)" },
	{ OPT_CSV, 0, "csv", NULL,
	  "print the member tables of every object followed as one CSV table, led by columns "
	  "saying which object (number, status, address, path, allocating call chain); the "
	  "workload's output goes to stderr" },
	{ OPT_METHOD, 0, "method", "decode|pair",
	  "how to tell loads from writes: decode the instruction (default; kernel text from "
	  "/proc/kcore or BPF) or pair a write-only breakpoint with each read/write one (two "
	  "slots per member, no store/RMW split; the default where no kernel code can be read)" },
	CLI_OPTION_END
};

/* The command's side of a watch: the engine's run, and what its messages name. */
struct watch_cli {
	const struct command *cmd;
	struct watch_run run;
};

/* What the engine says, as lineup watch always said it. */
static void say(void *ctx, enum watch_say kind, const char *msg)
{
	const struct watch_cli *wc = ctx;

	if (kind == WATCH_SAY_USAGE)
		cli__usage_error(wc->cmd, "%s", msg);
	else if (kind == WATCH_SAY_NOTE)
		fprintf(stderr, "lineup watch: %s\n", msg);
	else
		cli__error("%s", msg);
}

static int watch_option(void *ctx, int id, const char *arg)
{
	struct watch_cli *wc = ctx;
	struct watch_run *r = &wc->run;
	struct watch_cfg *c = &r->cfg;
	char *end;

	switch (id) {
	case OPT_OUTPUT: c->output = arg; break;
	case OPT_OBJECT: c->object = arg; break;
	case OPT_SYMBOL: c->symbol = arg; break;
	case OPT_ALLOC: c->alloc = arg; break;
	case OPT_COMM: c->comm = arg; break;
	case OPT_TYPE: c->type = arg; break;
	case OPT_FIELDS: c->fields = arg; break;
	case OPT_BINARY: c->binary = arg; break;
	case OPT_METHOD:
		if (strcmp(arg, "decode") && strcmp(arg, "pair"))
			return cli__usage_error(wc->cmd, "--method is decode or pair, not '%s'", arg);
		c->method = arg;
		break;
	case OPT_ALL_FIELDS: c->all_fields = true; break;
	case OPT_QUIET: c->quiet = true; break;
	case OPT_JSON:
		c->json = true;
		return cli__output_format(wc->cmd, &c->format, "json");
	case OPT_CSV:
		c->csv = true;
		return cli__output_format(wc->cmd, &c->format, "csv");
	case OPT_PID:
	case OPT_NTH: {
		long long v = strtoll(arg, &end, 0);

		if (*end || v <= 0)
			return cli__usage_error(wc->cmd, "--%s wants a positive number, not '%s'",
						id == OPT_PID ? "pid" : "nth", arg);
		*(id == OPT_PID ? &c->pid : &c->nth) = v;
		break;
	}
	case OPT_ROTATE:
	case OPT_DURATION: {
		double v = strtod(arg, &end);

		if (*end || !(v > 0) || v > 1e6)
			return cli__usage_error(wc->cmd, "--%s wants seconds > 0, not '%s'",
						id == OPT_ROTATE ? "rotate" : "duration", arg);
		*(id == OPT_ROTATE ? &c->rotate : &c->duration) = v;
		break;
	}
	}
	return 0;
}

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->member != y->member)
		return x->member - y->member;
	return x->count > y->count ? -1 : x->count < y->count;
}

/* Member @m's hits on CPU @c by kind (a row of WR_NR_KINDS), their total in *@tot. */
static const uint64_t *cpu_hits(const struct watch_member *m, unsigned int c, uint64_t *tot)
{
	const uint64_t *kc = &m->st.cpu_kinds[(size_t)c * WR_NR_KINDS];

	*tot = 0;
	for (int i = 0; i < WR_NR_KINDS; i++)
		*tot += kc[i];
	return kc;
}

/* A member's hits per CPU, by kind. */
static void member_cpus_json(struct json *j, const struct watch_run *r, int mi)
{
	const struct watch_member *m = &r->o.members[mi];

	json__key(j, "cpus");
	json__begin_array(j);
	for (unsigned int c = 0; c < r->o.nr_cpus; c++) {
		uint64_t tot;
		const uint64_t *kc = cpu_hits(m, c, &tot);

		if (!tot)
			continue;
		json__begin_object(j);
		json__ku64(j, "cpu", c);
		json__ku64(j, "hits", tot);
		for (int i = 0; i < WR_NR_KINDS; i++)
			json__ku64(j, wr_kind__name(i), kc[i]);
		json__end_object(j);
	}
	json__end_array(j);
}

/* The code sites that touched a member. */
static void member_sites_json(struct json *j, const struct watch_run *r, int mi)
{
	json__key(j, "sites");
	json__begin_array(j);
	for (size_t i = 0; i < r->nr_sites; i++) {
		const struct site *st = &r->sites[i];

		if (st->member != mi)
			continue;
		json__begin_object(j);
		json__ku64(j, "count", st->count);
		json__ku64(j, "transfers", st->transfers);
		json__ku64(j, "ip", st->ip);
		json__kstr(j, "kind", access_kind__name(st->info.kind));
		json__kstr(j, "function", st->info.func ? st->info.func : "");
		json__ku64(j, "offset", st->info.func_off);
		json__kstr(j, "instruction", st->info.text);
		if (st->info.why)
			json__kstr(j, "why_unknown", st->info.why);
		json__end_object(j);
	}
	json__end_array(j);
}

/* What the object is, as the text's header says it. */
static void what_json(struct json *j, const struct kobject_what *w, uint64_t late)
{
	json__key(j, "what");
	json__begin_object(j);
	json__kstr(j, "path", w->path);
	json__kstr(j, "how", w->how);
	json__key(j, "read_after_free");
	json__bool(j, late != 0);
	json__kstr(j, "allocated_at", w->chain);
	json__kstr(j, "user_caller", w->user);
	if (w->why[0])
		json__kstr(j, "unknown_why", w->why);
	json__end_object(j);
}

/* The skipped objects, each as its text section says it. */
static void skipped_json(struct json *j, const struct watch_run *r)
{
	json__key(j, "skipped_objects");
	json__begin_array(j);
	for (size_t i = 0; i < r->nr_skips; i++) {
		const struct skipped_object *k = &r->skips[i];
		double life = k->free_time > k->life_from ? (k->free_time - k->life_from) / 1e9 : 0;
		struct watch_tables wt;

		json__begin_object(j);
		json__ku64(j, "address", k->o.addr);
		json__ku64(j, "allocation_number", (uint64_t)k->nth);
		json__kstr(j, "allocated_by", k->alloc_comm);
		json__ku64(j, "allocated_by_tid", k->alloc_tid);
		what_json(j, &k->what, k->late);
		json__kstr(j, "why", "freed within 250 ms of its allocation");
		json__kstr(j, "freed_by", k->free_comm);
		json__ku64(j, "freed_by_tid", k->free_tid);
		json__key(j, "life_seconds");
		json__double(j, (k->free_time - k->alloc_time) / 1e9, 6);
		json__key(j, "object_life_seconds");	/* what cover is a share of */
		json__double(j, life, 6);
		json__ku64(j, "hits", k->nr_hits);
		json__key(j, "members");
		json__begin_array(j);
		watch_tables__init(&wt, &k->o, life);
		for (size_t m = 0; m < wt.members.nr_rows; m++) {
			json__begin_object(j);
			json__row(j, &wt.members, wt.members.rows[m]);
			json__end_object(j);
		}
		watch_tables__release(&wt);
		json__end_array(j);
		json__end_object(j);
	}
	json__end_array(j);
}

/* The report as one JSON object (same numbers as the text). */
static void print_report_json(const struct watch_run *r)
{
	double secs = (r->end_ns - r->start_ns) / 1e9;
	struct watch_tables wt;
	struct json j;

	watch_tables__init(&wt, &r->o, watch_run__life_secs(r));
	json__init(&j, stdout, true);
	json__begin_object(&j);
	json__key(&j, "object");
	json__begin_object(&j);
	json__kstr(&j, "type", r->type_name);
	json__ku64(&j, "address", r->o.addr);
	json__ku64(&j, "size", r->o.size);
	if (r->cfg.alloc) {
		json__kstr(&j, "cache", r->cfg.alloc);
		json__kstr(&j, "allocated_by", r->alloc_comm);
		json__ku64(&j, "allocated_by_tid", r->alloc_tid);
		what_json(&j, &r->what, watch_run__named_late(r));
	}
	json__end_object(&j);
	json__kstr(&j, "method", r->method ? r->method : "");
	json__key(&j, "seconds");
	json__double(&j, secs, 3);
	json__key(&j, "object_life_seconds");	/* what cover is a share of */
	json__double(&j, watch_run__life_secs(r), 3);
	json__ku64(&j, "hits", r->nr_hits);
	json__key(&j, "hits_per_second");
	json__double(&j, secs > 0 ? r->nr_hits / secs : 0.0, 0);
	json__ku64(&j, "lost_records", watcher__lost(r->w));
	json__ku64(&j, "hits_over_cap", r->hits_over_cap);
	json__key(&j, "freed");
	json__bool(&j, r->freed);
	json__ku64(&j, "skipped_short_lived", r->skipped);
	skipped_json(&j, r);
	json__ku64(&j, "hits_after_free_dropped", r->dropped_after_free);
	if (r->freed) {
		json__kstr(&j, "freed_by", r->free_comm);
		json__ku64(&j, "freed_by_tid", r->free_tid);
	}
	json__key(&j, "counts_only_watched");
	json__bool(&j, true);
	json__key(&j, "members");
	json__begin_array(&j);
	for (size_t k = 0; k < wt.members.nr_rows; k++) {
		json__begin_object(&j);
		json__row(&j, &wt.members, wt.members.rows[k]);
		member_cpus_json(&j, r, r->o.order[k]);
		member_sites_json(&j, r, r->o.order[k]);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__key(&j, "not_watched");
	json__begin_array(&j);
	{
		int *idx = xcalloc(r->o.nr_top + 1, sizeof(int));
		size_t n = watch_object__not_watched(&r->o, true, idx);

		for (size_t i = 0; i < n; i++)
			json__str(&j, r->o.members[idx[i]].name);
		free(idx);
	}
	json__end_array(&j);
	json__kstr(&j, "output", r->cfg.output ? r->cfg.output : "");
	json__key(&j, "lines");
	json__begin_array(&j);
	for (size_t i = 0; i < wt.lines.nr_rows; i++) {
		json__begin_object(&j);
		json__row(&j, &wt.lines, wt.lines.rows[i]);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__end_object(&j);
	fputc('\n', stdout);
	json__release(&j);
	watch_tables__release(&wt);
}

/* What a section's object columns say of it. */
static void section_info(struct watch_section_info *info, unsigned int number, bool skipped,
			 uint64_t address, const struct kobject_what *w, uint64_t late)
{
	info->number = number;
	info->status = skipped ? "skipped" : "watched";
	info->address = address;
	info->path = late ? "" : w->path;
	info->allocated_at = w->chain;
	info->user_caller = w->user;
}

/* The members of every object followed, one CSV table led by the columns saying which. */
static void print_report_csv(const struct watch_run *r)
{
	size_t n = r->nr_skips + !!r->o.addr;
	struct watch_section_info *info = xcalloc(n ? n : 1, sizeof(*info));
	struct watch_tables *wt = xcalloc(n ? n : 1, sizeof(*wt));
	struct csv c;

	for (size_t i = 0; i < r->nr_skips; i++) {
		const struct skipped_object *k = &r->skips[i];

		section_info(&info[i], (unsigned int)i + 1, true, k->o.addr, &k->what, k->late);
		watch_tables__init_section(&wt[i], &k->o, k->free_time > k->life_from ?
					   (k->free_time - k->life_from) / 1e9 : 0, &info[i]);
	}
	if (r->o.addr) {
		section_info(&info[n - 1], r->skipped + 1, false, r->o.addr, &r->what,
			     watch_run__named_late(r));
		watch_tables__init_section(&wt[n - 1], &r->o, watch_run__life_secs(r), &info[n - 1]);
	}
	csv__init(&c, stdout, false);
	if (n)
		csv__add_columns(&c, &wt[0].members);
	csv__header(&c);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < wt[i].members.nr_rows; k++)
			csv__row(&c, &wt[i].members, wt[i].members.rows[k]);
		watch_tables__release(&wt[i]);
	}
	csv__release(&c);
	free(wt);
	free(info);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* What the object is: its path (a file), its allocating call chain and user-space caller. */
static void print_what(const struct kobject_what *w, uint64_t late)
{
	char lt[32];

	if (w->path[0] && late)
		printf("# what: unknown: read %s after its free (the memory then held %s, %s)\n",
		       watch_run__duration_text(late / 1e9, lt, sizeof(lt)), w->path, w->how);
	else if (w->path[0])
		printf("# what: %s (%s)\n", w->path, w->how);
	else if (w->why[0])
		printf("# what: unknown (%s)\n", w->why);
	if (w->chain[0])
		printf("# allocated at: %s\n", w->chain);
	if (w->user[0])
		printf("# from user space: %s\n", w->user);
}

static void print_header(const struct watch_run *r, double secs)
{
	uint64_t nr_lines = watch_object__nr_lines(&r->o);
	char lt[32];

	printf("# lineup watch: %s at %#" PRIx64 " (%" PRIu64 " byte%s, %" PRIu64 " cache line%s)",
	       r->type_name, r->o.addr, r->o.size, plural(r->o.size), nr_lines, plural(nr_lines));
	if (r->skipped)
		printf(": object %u of %u, watched", r->skipped + 1, r->skipped + 1);
	printf("\n");
	print_what(&r->what, watch_run__named_late(r));
	if (r->cfg.alloc)
		printf("# allocated from cache %s by %s/%u\n", r->cfg.alloc, r->alloc_comm,
		       r->alloc_tid);
	if (r->skipped)
		printf("# allocation number %lld of those that matched: %u before it freed within "
		       "250 ms of their allocation, skipped (--nth N takes one)\n", r->nth_seen,
		       r->skipped);
	printf("# %zu hit%s in %.2f s: %.0f hits/s (the overhead: every hit is a debug trap and a "
	       "perf sample)\n", r->nr_hits, plural(r->nr_hits), secs,
	       secs > 0 ? r->nr_hits / secs : 0.0);
	printf("# access kinds: %s\n", r->method);
	if (r->hits_over_cap)
		printf("# %" PRIu64 " hits after the first %llu were counted out (memory bound): "
		       "use --duration\n", r->hits_over_cap, WATCH_MAX_HITS);
	if (watcher__lost(r->w))
		printf("# %" PRIu64 " records lost by the kernel (ring buffer full): those hits are "
		       "missing from the counts and from the replayed order\n", watcher__lost(r->w));
	if (r->freed)
		printf("# stopped: the object was freed by %s/%u; %" PRIu64 " hits after the free "
		       "dropped\n", r->free_comm, r->free_tid, r->dropped_after_free);
	printf("# cover: the share of the object's %s %s a member's breakpoint was on",
	       watch_run__duration_text(watch_run__life_secs(r), lt, sizeof(lt)),
	       r->cfg.alloc ? "from its allocation" : "of the watch");
	if (r->cfg.alloc && r->start_ns > r->life_from)
		printf(" (they went in %s after it)",
		       watch_run__duration_text((r->start_ns - r->life_from) / 1e9, lt, sizeof(lt)));
	printf("\n");
	printf("# counts only what was watched: one word per member; accesses to other bytes of "
	       "the same lines are invisible, so transfers are a lower bound\n");
}

/* The member and line tables' text: "# " before the header, cells apart by a space. */
static const struct table_text_style text_style = { "# ", "  ", " ", 1, false, false };

static void print_table(const struct table *t)
{
	struct strbuf sb = STRBUF_INIT;

	table_text__headers(t, &text_style, &sb);
	for (size_t i = 0; i < t->nr_rows; i++) {
		table_text__row(t, t->rows[i], &text_style, &sb);
		strbuf__add(&sb, "\n", 1);
	}
	output__strbuf(stdout, &sb);
	strbuf__release(&sb);
}

/* One member: its hits per CPU, its transfers and its code sites. */
static void print_member_detail(const struct watch_run *r, int mi)
{
	const struct watch_member *m = &r->o.members[mi];

	printf("\n%s (+%" PRIu64 ", %u of %" PRIu64 " byte%s watched at %#" PRIx64 "):\n",
	       m->name, m->offset, m->wlen, m->size, plural(m->size), m->st.addr);
	for (unsigned int c = 0; c < r->o.nr_cpus; c++) {
		uint64_t tot;
		const uint64_t *kc = cpu_hits(m, c, &tot);

		if (!tot)
			continue;
		printf("  cpu %-3u %9" PRIu64 " hit%s:", c, tot, plural(tot));
		for (int i = 1; i <= WR_NR_KINDS; i++)
			if (kc[i % WR_NR_KINDS])
				printf(" %s %" PRIu64, wr_kind__name(i % WR_NR_KINDS),
				       kc[i % WR_NR_KINDS]);
		printf("\n");
	}
	printf("  transfers %" PRIu64 " (HITM loads %" PRIu64 ", invalidations %" PRIu64 ")\n",
	       m->st.transfers, m->st.hitm, m->st.invalidations);
	printf("  %9s  %-10s %-36s %9s  %s\n", "hits", "kind", "code", "transfers", "instruction");
	for (size_t s = 0; s < r->nr_sites; s++) {
		const struct site *st = &r->sites[s];
		char where[160];

		if (st->member != mi)
			continue;
		snprintf(where, sizeof(where), "%s+%#" PRIx64, st->info.func ? st->info.func : "?",
			 st->info.func_off);
		printf("  %9" PRIu64 "  %-10s %-36s %9" PRIu64 "  %s%s%s\n", st->count,
		       access_kind__name(st->info.kind), where, st->transfers,
		       st->info.text[0] ? st->info.text : "",
		       st->info.why ? "  # " : "", st->info.why ? st->info.why : "");
	}
}

static void print_not_watched(const struct watch_run *r)
{
	printf("\n# not watched:");
	if (r->cfg.fields) {
		int *idx = xcalloc(r->o.nr_top + 1, sizeof(int));
		size_t n = watch_object__not_watched(&r->o, false, idx);

		for (size_t i = 0; i < n; i++)
			printf("%s %s", i ? "," : "", r->o.members[idx[i]].name);
		if (!n)
			printf(" no other member");
		free(idx);
	} else if (!watch_object__never_watched(&r->o)) {
		printf(" every member had its breakpoint for part of the run (see cover)");
	} else {
		printf(" %zu members never got a breakpoint (run longer or rotate faster)",
		       watch_object__never_watched(&r->o));
	}
	printf("; of members larger than their watched word only the first %s bytes\n",
	       "1/2/4/8 aligned");
}

/* A skipped object's section: what it was, its short life, its hits per member. */
static void print_skipped(const struct watch_run *r, const struct skipped_object *k)
{
	double life = k->free_time > k->life_from ? (k->free_time - k->life_from) / 1e9 : 0;
	uint64_t nr_lines = watch_object__nr_lines(&k->o);
	struct watch_tables wt;
	char lt[32];

	printf("# lineup watch: %s at %#" PRIx64 " (%" PRIu64 " byte%s, %" PRIu64 " cache line%s): "
	       "object %lld of %u, skipped\n", r->type_name, k->o.addr, k->o.size,
	       plural(k->o.size), nr_lines, plural(nr_lines), (long long)(k - r->skips) + 1,
	       r->skipped + !!r->o.addr);
	print_what(&k->what, k->late);
	printf("# allocated from cache %s by %s/%u (allocation number %lld of those that matched)\n",
	       r->cfg.alloc, k->alloc_comm, k->alloc_tid, k->nth);
	printf("# skipped: freed by %s/%u %s after its allocation, within 250 ms, with %zu hit%s "
	       "(--nth %lld watches it anyway)\n", k->free_comm, k->free_tid,
	       watch_run__duration_text((k->free_time - k->alloc_time) / 1e9, lt, sizeof(lt)), k->nr_hits,
	       plural(k->nr_hits), k->nth);
	printf("# cover: the share of the object's %s from its allocation a member's breakpoint "
	       "was on\n#\n", watch_run__duration_text(life, lt, sizeof(lt)));
	watch_tables__init(&wt, &k->o, life);
	print_table(&wt.members);
	watch_tables__release(&wt);
	printf("#\n");
}

/* The skipped objects' sections, before the watched one's. */
static void print_skipped_all(const struct watch_run *r)
{
	for (size_t i = 0; i < r->nr_skips; i++)
		print_skipped(r, &r->skips[i]);
	if (r->skipped > r->nr_skips)
		printf("# objects %zu to %u were skipped too (freed within 250 ms of their allocation); "
		       "only the first %d get a section\n#\n", r->nr_skips + 1, r->skipped,
		       WATCH_MAX_SECTIONS);
}

static void print_report(const struct watch_run *r)
{
	double secs = (r->end_ns - r->start_ns) / 1e9;
	struct watch_tables wt;

	watch_tables__init(&wt, &r->o, watch_run__life_secs(r));
	print_skipped_all(r);
	print_header(r, secs);
	printf("#\n");
	print_table(&wt.members);
	if (!r->cfg.quiet) {
		/* per cache line: what the watched words on it add up to */
		printf("#\n");
		print_table(&wt.lines);
		printf("#\n# cpus: writers/readers; per CPU and code site below\n");
		for (size_t k = 0; k < r->o.nr_order; k++)
			if (r->o.members[r->o.order[k]].st.hits)
				print_member_detail(r, r->o.order[k]);
		print_not_watched(r);
	}
	watch_tables__release(&wt);
}

/*
 * The object --nth chose died early: the first later allocation that lived WATCH_SKIP_NS or more
 * (freed that late, or still allocated when the workload ended) is the --nth to take.
 */
static void hint_later(const struct watch_run *r)
{
	uint64_t end = watch_run__now_ns();
	char lt[32];

	if (!r->tracking || !r->freed || (watch_run__life_secs(r) >= 0.25 && r->nr_hits))
		return;
	for (size_t i = 0; i < r->nr_later; i++) {
		uint64_t until = r->later[i].free_time ? r->later[i].free_time : end;

		if (until - r->later[i].time < WATCH_SKIP_NS)
			continue;
		cli__error("watch: allocation %lld of those that matched (at %#" PRIx64 ") lived "
			   "%s%s: --nth %lld watches it", r->later[i].nth, r->later[i].ptr,
			   r->later[i].free_time ? "" : "at least ",
			   watch_run__duration_text((until - r->later[i].time) / 1e9, lt, sizeof(lt)),
			   r->later[i].nth);
		return;
	}
	if (r->later_seen)
		cli__error("watch: none of the %lld allocations that matched after number %lld "
			   "lived 250 ms while the workload ran", r->later_seen, r->nth_seen);
}

/*
 * What the numbers leave out, said where it is easy to miss: members the rotation never reached
 * while the object lived, and an object that died before much could be seen (a process's first
 * files are the loader's: the hint says how to take a later one).
 */
static void warn_coverage(const struct watch_run *r)
{
	double life = watch_run__life_secs(r);
	char lt[32];
	size_t n = 0;

	for (size_t k = 0; k < r->o.nr_order; k++)
		n += !r->o.members[r->o.order[k]].watched_ns;
	if (n) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t k = 0; k < r->o.nr_order; k++)
			if (!r->o.members[r->o.order[k]].watched_ns)
				strbuf__addf(&sb, "%s%s", sb.len ? ", " : "",
					     r->o.members[r->o.order[k]].name);
		cli__error("watch: warning: %zu of %zu members never had a breakpoint in the "
			   "object's %s (cover 0%%: their counts are not zero, they are "
			   "unknown): %s%s%s", n, r->o.nr_order,
			   watch_run__duration_text(life, lt, sizeof(lt)), sb.buf,
			   r->freed ? "" : "; run longer",
			   r->freed || !r->cfg.rotate ? "" : " or rotate faster (--rotate)");
		strbuf__release(&sb);
	}
	if (r->freed && r->cfg.alloc && (life < 0.25 || !r->nr_hits))
		cli__error("watch: the %s allocated by %s/%u was freed %s after its "
			   "allocation, with %zu hit%s: it may not be the object meant; --nth %lld "
			   "watches the next allocation that matches (this was number %lld)",
			   r->type_name, r->alloc_comm, r->alloc_tid,
			   watch_run__duration_text(life, lt, sizeof(lt)), r->nr_hits, plural(r->nr_hits),
			   r->nth_seen + 1, r->nth_seen);
}

static int watch_run_inner(struct watch_run *r, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = watch_run__on_signal };
	int rc;

	rc = watch_run__check(r);
	if (!rc)
		rc = watch_run__load(r);
	if (rc)
		return rc;
	watch_run__choose_method(r);
	rc = watch_run__plan(r);
	if (rc)
		return rc;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	rc = watch_run__start(r);
	if (!rc)
		rc = watch_run__loop(r);
	if (rc)
		return rc;
	watch_run__stop(r);
	if (!r->o.addr && r->skipped) {
		const struct skipped_object *longest = NULL;
		char lt[32], best[KOBJECT_PATH + 96] = "";

		/* what they were, each in its section; the longest-lived is the best guess */
		if (r->cfg.csv)
			print_report_csv(r);
		else if (!r->cfg.json)
			print_skipped_all(r);
		for (size_t i = 0; i < r->nr_skips; i++)
			if (!longest || r->skips[i].free_time - r->skips[i].alloc_time >
					longest->free_time - longest->alloc_time)
				longest = &r->skips[i];
		if (longest)
			snprintf(best, sizeof(best), " (the longest-lived: --nth %lld, %s%s%s)",
				 longest->nth, longest->late ? "" : longest->what.path,
				 longest->what.path[0] && !longest->late ? ", " : "",
				 watch_run__duration_text((longest->free_time - longest->alloc_time) / 1e9, lt,
					       sizeof(lt)));
		cli__error("no %s object allocated%s%s%s outlived %s before %s: %u freed sooner, "
			   "skipped; --nth N watches the N-th anyway%s",
			   r->cfg.alloc, r->cfg.comm ? " by " : "", r->cfg.comm ? r->cfg.comm : "",
			   r->cfg.pid ? " by that process" : "", "250 ms",
			   r->wl.exited ? "the workload exited" : "the watch ended", r->skipped, best);
		return EXIT_NOTHING;
	}
	if (!r->o.addr) {
		cli__error("no %s object was allocated%s%s%s before %s", r->cfg.alloc ? r->cfg.alloc :
			   "", r->cfg.comm ? " by " : "", r->cfg.comm ? r->cfg.comm : "",
			   r->cfg.pid ? " by that process" : "",
			   r->wl.exited ? "the workload exited" : "the watch ended");
		return EXIT_NOTHING;
	}
	warn_coverage(r);
	watch_run__classify(r);
	watch_run__replay(r);
	if (watch_run__write(r, argc, argv) < 0)
		rc = EXIT_RUNTIME;
	if (r->nr_sites)	/* none when the object died before a breakpoint went in */
		qsort(r->sites, r->nr_sites, sizeof(*r->sites), site_cmp);
	if (r->cfg.json) {
		print_report_json(r);
	} else if (r->cfg.csv) {
		print_report_csv(r);
	} else {
		print_report(r);
		printf("# written to %s (perf script -i %s lists the hits)\n", r->cfg.output,
		       r->cfg.output);
	}
	if (!rc && !r->nr_hits)
		rc = EXIT_NOTHING;
	return cli__close_output(stdout, "standard output", rc);
}

static int watch_main(const struct command *cmd, int argc, char **argv)
{
	struct watch_cli wc = { .cmd = cmd };
	struct watch_run *r = &wc.run;
	int prc, i, rc;

	watch_run__init(r);
	r->say = say;
	r->say_ctx = &wc;
	i = cli__parse(cmd, argc, argv, watch_option, &wc, &prc);
	if (i < 0) {
		watch_run__release(r);
		return prc;
	}
	r->cmd_argv = argv + i;
	if (!r->cfg.output)
		r->cfg.output = "watch.data";
	rc = watch_run_inner(r, argc, argv);
	watch_run__end_workload(r);
	hint_later(r);
	if (r->wl.exited && WIFEXITED(r->wl.status) && WEXITSTATUS(r->wl.status) == 127 &&
	    !r->nr_hits && !rc)
		rc = EXIT_USAGE;
	watch_run__release(r);
	return rc;
}

const struct command cmd_watch = {
	.name = "watch",
	.summary = "hardware breakpoints on members of one real object: who touches what, how",
	.usage = "[-o FILE] TARGET (--fields F1,F2,... | --all-fields [--rotate S]) [-- CMD]",
	.description =
		"Put hardware breakpoints (libperf, PERF_TYPE_BREAKPOINT) on chosen members of "
		"one object: a kernel slab object followed from kmem:kmem_cache_alloc (--alloc), "
		"a global (--symbol) or an address (--object). Every hit is classified load, "
		"store or locked read-modify-write by decoding the instruction that ended at the "
		"trap address, the exact access order is replayed through the coherence model, "
		"and the hits are written to a perf.data that perf script and lineup report "
		"read. Watching stops when the object is freed; a workload still running is "
		"waited for (until --duration, or Ctrl-C, ends it). The cover column is the share "
		"of the object's life, from its allocation, that a member's breakpoint was on. "
		"With --alloc, an object freed within 250 ms of its allocation (a loader's file, a "
		"temporary) is skipped and the next one that matches followed, unless --nth "
		"chose it; each object skipped keeps a section of the report (what it was, its "
		"life, its hits per member and cover), before the watched one's. When an object "
		"--nth chose dies early, the allocations after it are followed while the workload "
		"runs, and the --nth of the first that lived 250 ms is named. "
		"Each object followed is said: a struct file by its path (the allocating task's "
		"fd or mapping of it, else its dentries, read from kernel memory), any object by "
		"its allocating kernel call chain and user-space caller. "
		"Needs root for kernel objects.",
	.options = watch_options,
	.run = watch_main,
};
