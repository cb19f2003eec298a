// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup info: a recording's header facts (like `perf report --header-only`) and its record
 * counts (like `perf report --stats`), with the same numbers as perf.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/command.h"
#include "cli/output.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Append a string literal. */
#define SB_LIT(sb, lit) strbuf__add(sb, lit, sizeof(lit) - 1)

enum { OPT_JSON = 1, OPT_INPUT = 'i', OPT_STATS = 2, OPT_HEADER = 3, OPT_SAMPLES = 4,
       OPT_EXTRA = 5, OPT_SHOW_INFO = 'I' };

static const struct cli_option info_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the recording to read (default perf.data; - for stdin)" },
	{ OPT_JSON, 0, "json", NULL, "print the facts and counts as JSON" },
	{ OPT_STATS, 0, "stats", NULL, "print only the record counts (perf report --stats)" },
	{ OPT_HEADER, 0, "header-only", NULL,
	  "print only the header facts (perf report --header-only)" },
	{ OPT_SHOW_INFO, 'I', "show-info", NULL,
	  "print CPU topology, NUMA nodes, caches and memory nodes in full (perf's -I)" },
	{ OPT_EXTRA, 0, "extra", NULL,
	  "with the header, also the facts perf's has no line for: byte order, tracing data "
	  "size, build ids and the cache line size (marked '# lineup:'), the events of a file "
	  "without EVENT_DESC" },
	{ OPT_SAMPLES, 0, "samples", NULL,
	  "print each sample, one line: event index, pid, tid, cpu, time, ip, period, addr, "
	  "data_src, weight, callchain depth, event name" },
	CLI_OPTION_END
};

struct info_opts {
	const char *input;
	int json, stats_only, header_only, samples, show_info, extra;
};

static int info_option(void *ctx, int id, const char *arg)
{
	struct info_opts *o = ctx;

	switch (id) {
	case OPT_INPUT:
		o->input = arg;
		break;
	case OPT_JSON:
		o->json = 1;
		break;
	case OPT_STATS:
		o->stats_only = 1;
		break;
	case OPT_HEADER:
		o->header_only = 1;
		break;
	case OPT_SAMPLES:
		o->samples = 1;
		break;
	case OPT_SHOW_INFO:
		o->show_info = 1;
		break;
	case OPT_EXTRA:
		o->extra = 1;
		break;
	}
	return 0;
}

static void print_sample(const struct perf_header_info *h, const struct sample *s)
{
	printf("%u %u %u %u %" PRIu64 " 0x%" PRIx64 " %" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64
	       " %" PRIu64 " %" PRIu64 " %s\n",
	       s->evsel, s->pid, s->tid, s->cpu, s->time, s->ip, s->period, s->addr, s->data_src,
	       s->weight, s->callchain_nr, s->evsel < h->nr_evsels ? h->evsels[s->evsel].name : "?");
}

/* --samples: each sample as the file has it, in file order. */
static int info_sample(void *ctx, struct session *s, const struct session_sample *ss)
{
	print_sample(session__header(s), ss->sample);
	return 0;
}

static void print_stats(const struct perf_header_info *h, const struct session_stats *c)
{
	uint32_t total = c->nr_events[0];

	printf("\nAggregated stats:%s\n",
	       perf_header__has_feat(h, FEAT_AUXTRACE)
		       ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)"
		       : "");
	for (uint32_t i = 0; i < REC_USER_MAX; i++) {
		const char *name = i ? perf_record__type_name(i) : "TOTAL";

		if (!name || !c->nr_events[i])
			continue;
		if (i && total)
			printf("%16s events: %10d  (%4.1f%%)\n", name, (int)c->nr_events[i],
			       100.0 * c->nr_events[i] / total);
		else
			printf("%16s events: %10d\n", name, (int)c->nr_events[i]);
	}
	for (uint32_t i = 0; i < h->nr_evsels && i < c->nr_evsels; i++) {
		if (!c->nr_samples[i] && !c->nr_lost_samples[i])
			continue;
		/* perf report --stats does not apply EVENT_UPDATE renames (its tool has none) */
		printf("%s stats:\n", h->evsels[i].name_before_update ? h->evsels[i].name_before_update
								 : h->evsels[i].name);
		if (c->nr_samples[i])
			printf("%16s events: %10d\n", "SAMPLE", (int)c->nr_samples[i]);
		if (c->nr_lost_samples[i])
			printf("%16s events: %10d\n", "LOST_SAMPLES", (int)c->nr_lost_samples[i]);
	}
}

/* A bit's name in perf's tables (util/perf_event_attr_fprintf.c), in the order perf prints. */
struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_type_bits[] = {
	{ 1ULL << 0, "IP" }, { 1ULL << 1, "TID" }, { 1ULL << 2, "TIME" }, { 1ULL << 3, "ADDR" },
	{ 1ULL << 4, "READ" }, { 1ULL << 5, "CALLCHAIN" }, { 1ULL << 6, "ID" },
	{ 1ULL << 7, "CPU" }, { 1ULL << 8, "PERIOD" }, { 1ULL << 9, "STREAM_ID" },
	{ 1ULL << 10, "RAW" }, { 1ULL << 11, "BRANCH_STACK" }, { 1ULL << 12, "REGS_USER" },
	{ 1ULL << 13, "STACK_USER" }, { 1ULL << 16, "IDENTIFIER" }, { 1ULL << 18, "REGS_INTR" },
	{ 1ULL << 15, "DATA_SRC" }, { 1ULL << 14, "WEIGHT" }, { 1ULL << 19, "PHYS_ADDR" },
	{ 1ULL << 20, "AUX" }, { 1ULL << 21, "CGROUP" }, { 1ULL << 22, "DATA_PAGE_SIZE" },
	{ 1ULL << 23, "CODE_PAGE_SIZE" }, { 1ULL << 24, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct bit_name read_format_bits[] = {
	{ READ_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ READ_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" }, { READ_FORMAT_ID, "ID" },
	{ READ_FORMAT_GROUP, "GROUP" }, { READ_FORMAT_LOST, "LOST" }, { 0, NULL },
};

static const struct bit_name branch_type_bits[] = {
	{ 1ULL << 0, "USER" }, { 1ULL << 1, "KERNEL" }, { 1ULL << 2, "HV" }, { 1ULL << 3, "ANY" },
	{ 1ULL << 4, "ANY_CALL" }, { 1ULL << 5, "ANY_RETURN" }, { 1ULL << 6, "IND_CALL" },
	{ 1ULL << 7, "ABORT_TX" }, { 1ULL << 8, "IN_TX" }, { 1ULL << 9, "NO_TX" },
	{ 1ULL << 10, "COND" }, { 1ULL << 11, "CALL_STACK" }, { 1ULL << 12, "IND_JUMP" },
	{ 1ULL << 13, "CALL" }, { 1ULL << 14, "NO_FLAGS" }, { 1ULL << 15, "NO_CYCLES" },
	{ 1ULL << 16, "TYPE_SAVE" }, { 1ULL << 17, "HW_INDEX" }, { 1ULL << 18, "PRIV_SAVE" },
	{ 0, NULL },
};

/* The names of @v's bits in @bits' order, "|"-joined; bits perf has no name for are left out,
 * as perf's __p_bits leaves them. */
static void bits_to_names(struct strbuf *sb, uint64_t v, const struct bit_name *bits)
{
	bool first = true;

	for (size_t i = 0; bits[i].name; i++) {
		if (!(v & bits[i].bit))
			continue;
		strbuf__addf(sb, "%s%s", first ? "" : "|", bits[i].name);
		first = false;
	}
}

/* The bitfield word's fields, in perf_event_attr's order; precise_ip is two bits wide. */
static const char *const attr_flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
	"task", "watermark", "precise_ip", NULL, "mmap_data", "sample_id_all", "exclude_host",
	"exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user", "mmap2",
	"comm_exec", "use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
	"remove_on_exec", "sigtrap",
};

static void attr_u64(struct strbuf *sb, const char *name, uint64_t v, bool hex)
{
	if (v)
		strbuf__addf(sb, hex ? ", %s = %#" PRIx64 : ", %s = %" PRIu64, name, v);
}

static void attr_bits(struct strbuf *sb, const char *name, uint64_t v,
		      const struct bit_name *bits)
{
	if (!v)
		return;
	strbuf__addf(sb, ", %s = ", name);
	bits_to_names(sb, v, bits);
}

/*
 * An event line as perf 6.1's print_event_desc writes it: the name, the ids, then every
 * nonzero field of the attr in perf_event_attr__fprintf's order and notation.
 */
static void print_event(const struct perf_evsel *ev)
{
	const struct perf_attr *a = &ev->attr;
	struct strbuf sb = STRBUF_INIT;

	strbuf__addf(&sb, "# event : name = %s, ", ev->name);
	if (ev->nr_ids) {
		SB_LIT(&sb, ", id = {");
		for (uint32_t k = 0; k < ev->nr_ids; k++)
			strbuf__addf(&sb, "%s %" PRIu64, k ? "," : "", ev->ids[k]);
		SB_LIT(&sb, " }");
	}
	attr_u64(&sb, "type", a->type, false);
	attr_u64(&sb, "size", a->size, false);
	attr_u64(&sb, "config", a->config, true);
	attr_u64(&sb, "{ sample_period, sample_freq }", a->sample_period, false);
	attr_bits(&sb, "sample_type", a->sample_type, sample_type_bits);
	attr_bits(&sb, "read_format", a->read_format, read_format_bits);
	for (unsigned int bit = 0; bit < sizeof(attr_flag_names) / sizeof(attr_flag_names[0]);
	     bit++)
		if (attr_flag_names[bit])
			attr_u64(&sb, attr_flag_names[bit],
				 bit == ATTR_PRECISE_IP ? perf_attr__precise_ip(a)
							: (a->flags >> bit) & 1, false);
	attr_u64(&sb, "{ wakeup_events, wakeup_watermark }", a->wakeup_events, false);
	attr_u64(&sb, "bp_type", a->bp_type, false);
	attr_u64(&sb, "{ bp_addr, config1 }", a->config1, true);
	attr_u64(&sb, "{ bp_len, config2 }", a->config2, true);
	attr_bits(&sb, "branch_sample_type", a->branch_sample_type, branch_type_bits);
	attr_u64(&sb, "sample_regs_user", a->sample_regs_user, true);
	attr_u64(&sb, "sample_stack_user", a->sample_stack_user, false);
	if (a->clockid)
		strbuf__addf(&sb, ", clockid = %d", a->clockid);
	attr_u64(&sb, "sample_regs_intr", a->sample_regs_intr, true);
	attr_u64(&sb, "aux_watermark", a->aux_watermark, false);
	attr_u64(&sb, "sample_max_stack", a->sample_max_stack, false);
	attr_u64(&sb, "aux_sample_size", a->aux_sample_size, false);
	attr_u64(&sb, "sig_data", a->sig_data, false);
	printf("%s\n", sb.buf);
	strbuf__release(&sb);
}

/* perf's unit_number__scnprintf: 2G, 512M ... */
static void unit_number(char *buf, size_t size, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, unit[i]);
}

/* A bitmap as ranges of set bits ("0-3,8"), as perf's bitmap_scnprintf. */
static void bitmap_ranges(struct strbuf *sb, const uint64_t *map, uint64_t nbits)
{
	bool first = true;

	for (uint64_t i = 0; i < nbits; i++) {
		uint64_t j = i;

		if (!((map[i / 64] >> (i % 64)) & 1))
			continue;
		while (j + 1 < nbits && ((map[(j + 1) / 64] >> ((j + 1) % 64)) & 1))
			j++;
		if (j == i)
			strbuf__addf(sb, "%s%" PRIu64, first ? "" : ",", i);
		else
			strbuf__addf(sb, "%s%" PRIu64 "-%" PRIu64, first ? "" : ",", i, j);
		first = false;
		i = j;
	}
}

static void print_cpu_topology(const struct perf_header_info *h)
{
	for (uint32_t i = 0; i < h->nr_core_siblings; i++)
		printf("# sibling sockets : %s\n", h->core_siblings[i]);
	for (uint32_t i = 0; i < h->nr_die_siblings; i++)
		printf("# sibling dies    : %s\n", h->die_siblings[i]);
	for (uint32_t i = 0; i < h->nr_thread_siblings; i++)
		printf("# sibling threads : %s\n", h->thread_siblings[i]);
	if (!h->cpu_topo) {
		printf(h->nr_die_siblings ? "# Core ID, Die ID and Socket ID information is not "
					    "available\n"
					  : "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (uint32_t i = 0; i < h->nr_cpu_topo; i++)
		if (h->nr_die_siblings)
			printf("# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
			       h->cpu_topo[i].core_id, h->cpu_topo[i].die_id,
			       h->cpu_topo[i].socket_id);
		else
			printf("# CPU %u: Core ID %d, Socket ID %d\n", i, h->cpu_topo[i].core_id,
			       h->cpu_topo[i].socket_id);
}

static void print_mem_topology(const struct perf_header_info *h)
{
	printf("# memory nodes (nr %u, block size 0x%" PRIx64 "):\n", h->nr_mem_nodes,
	       h->mem_block_size);
	for (uint32_t i = 0; i < h->nr_mem_nodes; i++) {
		const struct perf_mem_node *n = &h->mem_nodes[i];
		struct strbuf sb = STRBUF_INIT;
		uint64_t set = 0;
		char size[32];

		for (uint64_t w = 0; w < (n->nr_bits + 63) / 64; w++)
			set += (uint64_t)__builtin_popcountll(n->bitmap[w]);
		unit_number(size, sizeof(size), h->mem_block_size * set);
		bitmap_ranges(&sb, n->bitmap, n->nr_bits);
		printf("#  %3" PRIu64 " [%s]: %s\n", n->node, size, sb.buf ? sb.buf : "");
		strbuf__release(&sb);
	}
}

static void print_pmu_caps(const struct perf_pmu_caps *pc)
{
	if (!pc->nr_caps) {
		printf("# %s pmu capabilities: not available\n", pc->pmu_name);
		return;
	}
	printf("# %s pmu capabilities: ", pc->pmu_name);
	for (uint32_t k = 0; k < pc->nr_caps; k++)
		printf("%s%s", k ? ", " : "", pc->caps[k]);
	printf("\n");
}

/*
 * The header as perf report --header-only prints it (with @full, as -I does): the file
 * header, then each feature the file has, in feature order, in perf's words.  With @extra,
 * also what perf does not print, marked "# lineup:".
 */
static void print_numa(const struct perf_header_info *h, bool full)
{
	if (!full) {
		printf("# NUMA_TOPOLOGY info available, use -I to display\n");
		return;
	}
	for (uint32_t i = 0; i < h->nr_numa_nodes; i++)
		printf("# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
		       " kB\n# node%u cpu list : %s\n",
		       h->numa_nodes[i].node, h->numa_nodes[i].mem_total,
		       h->numa_nodes[i].mem_free, h->numa_nodes[i].node,
		       h->numa_nodes[i].cpus);
}

static void print_groups(const struct perf_header_info *h)
{
	for (uint32_t i = 0; i < h->nr_groups; i++) {
		const struct perf_group_desc *g = &h->groups[i];

		/* perf names an unnamed group "{anon_group}" and prints no name */
		printf("# group: %s{",
		       g->name && strcmp(g->name, "{anon_group}") ? g->name : "");
		for (uint32_t k = 0;
		     k < g->nr_members && g->leader_idx + k < h->nr_evsels; k++)
			printf("%s%s", k ? "," : "", h->evsels[g->leader_idx + k].name);
		printf("}\n");
	}
}

static void print_caches(const struct perf_header_info *h, bool full)
{
	if (!full) {
		printf("# CACHE info available, use -I to display\n");
		return;
	}
	printf("# CPU cache info:\n");
	for (uint32_t i = 0; i < h->nr_caches; i++)
		printf("#  L%u %-15s %8s [%s]\n", h->caches[i].level,
		       h->caches[i].type, h->caches[i].size, h->caches[i].map);
}

static void print_sample_time(const struct perf_header_info *h)
{
	printf("# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
	       h->sample_time_first / 1000000000,
	       h->sample_time_first % 1000000000 / 1000);
	printf("# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
	       h->sample_time_last / 1000000000,
	       h->sample_time_last % 1000000000 / 1000);
	printf("# sample duration : %10.3f ms\n",
	       (double)(h->sample_time_last - h->sample_time_first) / 1e6);
}

static void print_hybrid(const struct perf_header_info *h, bool full)
{
	if (!full) {
		printf("# HYBRID_TOPOLOGY info available, use -I to display\n");
		return;
	}
	printf("# hybrid cpu system:\n");
	for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++)
		printf("# %s cpu list : %s\n", h->hybrid_nodes[i].pmu_name,
		       h->hybrid_nodes[i].cpus);
}

/* One header feature as perf report --header prints it. */
static void print_feature(const struct perf_header_info *h, unsigned int f, bool full,
			  bool extra)
{
	switch (f) {
	case FEAT_TRACING_DATA:
		if (h->tracing_data && extra)
			printf("# lineup: tracing data : %" PRIu64 " bytes\n",
			       h->tracing_data_size);
		break;
	case FEAT_BUILD_ID:
		for (uint32_t i = 0; extra && i < h->nr_build_ids; i++) {
			printf("# lineup: build id : ");
			for (uint32_t k = 0; k < h->build_ids[i].size; k++)
				printf("%02x", h->build_ids[i].build_id[k]);
			printf(" %s\n", h->build_ids[i].filename);
		}
		break;
	case FEAT_HOSTNAME:
		printf("# hostname : %s\n", h->hostname ? h->hostname : "");
		break;
	case FEAT_OSRELEASE:
		printf("# os release : %s\n", h->osrelease ? h->osrelease : "");
		break;
	case FEAT_VERSION:
		printf("# perf version : %s\n", h->version ? h->version : "");
		break;
	case FEAT_ARCH:
		printf("# arch : %s\n", h->arch ? h->arch : "");
		break;
	case FEAT_NRCPUS:
		printf("# nrcpus online : %u\n", h->nr_cpus_online);
		printf("# nrcpus avail : %u\n", h->nr_cpus_avail);
		break;
	case FEAT_CPUDESC:
		printf("# cpudesc : %s\n", h->cpudesc ? h->cpudesc : "");
		break;
	case FEAT_CPUID:
		printf("# cpuid : %s\n", h->cpuid ? h->cpuid : "");
		break;
	case FEAT_TOTAL_MEM:
		printf("# total memory : %" PRIu64 " kB\n", h->total_mem);
		break;
	case FEAT_CMDLINE:
		printf("# cmdline : ");
		for (uint32_t i = 0; i < h->nr_cmdline; i++)
			printf("%s ", h->cmdline[i]);
		printf("\n");
		break;
	case FEAT_EVENT_DESC:
		for (uint32_t i = 0; i < h->nr_evsels; i++)
			print_event(&h->evsels[i]);
		break;
	case FEAT_CPU_TOPOLOGY:
		if (full)
			print_cpu_topology(h);
		else
			printf("# CPU_TOPOLOGY info available, use -I to display\n");
		break;
	case FEAT_NUMA_TOPOLOGY:
		print_numa(h, full);
		break;
	case FEAT_BRANCH_STACK:
		printf("# contains samples with branch stack\n");
		break;
	case FEAT_PMU_MAPPINGS:
		printf("# pmu mappings: ");
		for (uint32_t i = 0; i < h->nr_pmu_mappings; i++)
			printf("%s%s = %u", i ? ", " : "", h->pmu_mappings[i].name,
			       h->pmu_mappings[i].type);
		printf("\n");
		break;
	case FEAT_GROUP_DESC:
		print_groups(h);
		break;
	case FEAT_AUXTRACE:
		printf("# contains AUX area data (e.g. instruction trace)\n");
		break;
	case FEAT_CACHE:
		print_caches(h, full);
		break;
	case FEAT_SAMPLE_TIME:
		print_sample_time(h);
		break;
	case FEAT_MEM_TOPOLOGY:
		if (full)
			print_mem_topology(h);
		else
			printf("# MEM_TOPOLOGY info available, use -I to display\n");
		break;
	case FEAT_CLOCKID:
		printf("# clockid frequency: %" PRIu64 " MHz\n", h->clockid * 1000);
		break;
	case FEAT_DIR_FORMAT:
		printf("# directory data version : %" PRIu64 "\n", h->dir_version);
		break;
	case FEAT_COMPRESSED:
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       h->comp_type == 1 ? "Zstd" : "Unknown", h->comp_level, h->comp_ratio);
		break;
	case FEAT_CPU_PMU_CAPS:
		print_pmu_caps(&h->cpu_pmu_caps);
		break;
	case FEAT_HYBRID_TOPOLOGY:
		print_hybrid(h, full);
		break;
	case FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < h->nr_pmu_caps; i++)
			print_pmu_caps(&h->pmu_caps[i]);
		break;
	default:
		break;
	}
}

static void print_header(const struct perf_header_info *h, bool full, bool extra)
{
	printf("# ========\n");
	if (h->mtime) {
		time_t t = (time_t)h->mtime;

		printf("# captured on    : %s", ctime(&t));
	}
	printf("# header version : 1\n");
	printf("# data offset    : %" PRIu64 "\n", h->data_offset);
	printf("# data size      : %" PRIu64 "\n", h->data_size);
	printf("# feat offset    : %" PRIu64 "\n", h->feat_offset);
	if (h->pipe)
		printf("# ========\n#\n");
	if (h->big_endian && extra)
		printf("# lineup: byte order : big-endian (swapped)\n");
	for (unsigned int f = 1; f < FEAT_LAST; f++)
		if (perf_header__has_feat(h, f))
			print_feature(h, f, full, extra);
	/* Facts perf has no line for, or finds elsewhere. */
	if (extra && !perf_header__has_feat(h, FEAT_EVENT_DESC))
		for (uint32_t i = 0; i < h->nr_evsels; i++)
			print_event(&h->evsels[i]);
	if (extra)
		printf("# lineup: cache line size : %u%s\n",
		       h->cache_line_size ? h->cache_line_size : 64,
		       h->cache_line_size ? "" : " (not in the recording: default)");
	if (!h->pipe) {
		printf("# missing features: ");
		for (unsigned int f = FEAT_TRACING_DATA; f < FEAT_LAST; f++)
			if (!perf_header__has_feat(h, f))
				printf("%s ", perf_feature__name(f));
		printf("\n");
		printf("# ========\n#\n");
	}
}

static void json_u(struct json *j, const char *key, int64_t v)
{
	json__key(j, key);
	json__i64(j, v);
}

/* The machine's topology facts: NUMA nodes, caches, CPUs, hybrid PMUs, memory blocks. */
static void json_topology(struct json *j, const struct perf_header_info *h)
{
	json__key(j, "numa_nodes");
	json__begin_array(j);
	for (uint32_t i = 0; i < h->nr_numa_nodes; i++) {
		json__begin_object(j);
		json__ku64(j, "node", h->numa_nodes[i].node);
		json__ku64(j, "mem_total_kb", h->numa_nodes[i].mem_total);
		json__ku64(j, "mem_free_kb", h->numa_nodes[i].mem_free);
		json__kstr(j, "cpus", h->numa_nodes[i].cpus);
		json__end_object(j);
	}
	json__end_array(j);
	json__key(j, "caches");
	json__begin_array(j);
	for (uint32_t i = 0; i < h->nr_caches; i++) {
		json__begin_object(j);
		json__ku64(j, "level", h->caches[i].level);
		json__ku64(j, "line_size", h->caches[i].line_size);
		json__ku64(j, "sets", h->caches[i].sets);
		json__ku64(j, "ways", h->caches[i].ways);
		json__kstr(j, "type", h->caches[i].type);
		json__kstr(j, "size", h->caches[i].size);
		json__kstr(j, "cpus", h->caches[i].map);
		json__end_object(j);
	}
	json__end_array(j);
	json__key(j, "cpu_topology");
	json__begin_array(j);
	for (uint32_t i = 0; i < h->nr_cpu_topo; i++) {
		json__begin_object(j);
		json__ku64(j, "cpu", i);
		json_u(j, "core", h->cpu_topo[i].core_id);
		json_u(j, "socket", h->cpu_topo[i].socket_id);
		json_u(j, "die", h->cpu_topo[i].die_id);
		json__end_object(j);
	}
	json__end_array(j);
	json__key(j, "hybrid");
	json__begin_array(j);
	for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++) {
		json__begin_object(j);
		json__kstr(j, "pmu", h->hybrid_nodes[i].pmu_name);
		json__kstr(j, "cpus", h->hybrid_nodes[i].cpus);
		json__end_object(j);
	}
	json__end_array(j);
	json__ku64(j, "mem_block_size", h->mem_block_size);
	json__key(j, "mem_nodes");
	json__begin_array(j);
	for (uint32_t i = 0; i < h->nr_mem_nodes; i++) {
		json__begin_object(j);
		json__ku64(j, "node", h->mem_nodes[i].node);
		json__ku64(j, "size", h->mem_nodes[i].size);
		json__ku64(j, "blocks", h->mem_nodes[i].nr_bits);
		json__end_object(j);
	}
	json__end_array(j);
}

static void print_json(const char *path, const struct perf_header_info *h,
		       const struct session_stats *c, bool with_counts)
{
	struct json j;
	char hex[2 * sizeof(((struct perf_build_id *)0)->build_id) + 1];

	json__init(&j, stdout, false);
	json__begin_object(&j);
	json__kstr(&j, "file", path);
	json__key(&j, "pipe");
	json__bool(&j, h->pipe);
	json__key(&j, "big_endian");
	json__bool(&j, h->big_endian);
	json__ku64(&j, "data_offset", h->data_offset);
	json__ku64(&j, "data_size", h->data_size);
	json__ku64(&j, "feat_offset", h->feat_offset);
	json__kstr(&j, "hostname", h->hostname);
	json__kstr(&j, "os_release", h->osrelease);
	json__kstr(&j, "perf_version", h->version);
	json__kstr(&j, "arch", h->arch);
	json__kstr(&j, "cpudesc", h->cpudesc);
	json__kstr(&j, "cpuid", h->cpuid);
	json__ku64(&j, "nr_cpus_online", h->nr_cpus_online);
	json__ku64(&j, "nr_cpus_avail", h->nr_cpus_avail);
	json__ku64(&j, "total_mem_kb", h->total_mem);
	json__ku64(&j, "cache_line_size", h->cache_line_size);
	json__key(&j, "cmdline");
	json__begin_array(&j);
	for (uint32_t i = 0; i < h->nr_cmdline; i++)
		json__str(&j, h->cmdline[i] ? h->cmdline[i] : "");
	json__end_array(&j);
	json__key(&j, "features");
	json__begin_array(&j);
	for (unsigned int f = 1; f < FEAT_BITS; f++)
		if (perf_header__has_feat(h, f)) {
			const char *name = perf_feature__name(f);

			snprintf(hex, sizeof(hex), "%u", f);
			json__str(&j, name ? name : hex);
		}
	json__end_array(&j);
	json__key(&j, "events");
	json__begin_array(&j);
	for (uint32_t i = 0; i < h->nr_evsels; i++) {
		const struct perf_evsel *ev = &h->evsels[i];

		json__begin_object(&j);
		json__kstr(&j, "name", ev->name);
		json__ku64(&j, "type", ev->attr.type);
		json__ku64(&j, "config", ev->attr.config);
		json__ku64(&j, "attr_size", ev->attr.size);
		json__ku64(&j, "sample_type", ev->attr.sample_type);
		json__ku64(&j, "read_format", ev->attr.read_format);
		json__ku64(&j, "flags", ev->attr.flags);
		json__ku64(&j, "sample_period", ev->attr.sample_period);
		json__ku64(&j, "nr_ids", ev->nr_ids);
		if (with_counts && i < c->nr_evsels) {
			json__ku64(&j, "samples", c->nr_samples[i]);
			json__ku64(&j, "lost_samples", c->nr_lost_samples[i]);
		}
		json__end_object(&j);
	}
	json__end_array(&j);
	json_topology(&j, h);
	json__key(&j, "build_ids");
	json__begin_array(&j);
	for (uint32_t i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id *b = &h->build_ids[i];

		json__begin_object(&j);
		json_u(&j, "pid", b->pid);
		hex[0] = '\0';
		for (uint32_t k = 0; k < b->size && k < sizeof(b->build_id); k++)
			snprintf(hex + 2 * k, 3, "%02x", b->build_id[k]);
		json__kstr(&j, "build_id", hex);
		json__kstr(&j, "filename", b->filename);
		json__end_object(&j);
	}
	json__end_array(&j);
	if (perf_header__has_feat(h, FEAT_SAMPLE_TIME)) {
		json__key(&j, "sample_time");
		json__begin_object(&j);
		json__ku64(&j, "first", h->sample_time_first);
		json__ku64(&j, "last", h->sample_time_last);
		json__end_object(&j);
	}
	if (with_counts) {
		json__key(&j, "records");
		json__begin_object(&j);
		json__ku64(&j, "TOTAL", c->nr_events[0]);
		for (uint32_t i = 1; i < REC_USER_MAX; i++)
			if (c->nr_events[i])
				json__ku64(&j, perf_record__type_name(i) ?: "UNKNOWN",
					   c->nr_events[i]);
		json__end_object(&j);
	}
	json__end_object(&j);
	fputc('\n', stdout);
	json__release(&j);
}

static int info_run(const struct command *cmd, int argc, char **argv)
{
	struct info_opts o = { .input = "perf.data" };
	/* perf report --stats and --header-only leave out what AUX traces synthesize */
	struct session_opts so = { .no_auxtrace = true };
	/* the counts are of the file as it is: in its order, nothing resolved */
	struct session_tool tool = { .unordered = true };
	const struct perf_header_info *h;
	char err[PERF_FILE_ERRMAX];
	struct session *s;
	int rc, i = cli__parse(cmd, argc, argv, info_option, &o, &rc);

	if (i < 0)
		return rc;
	if (i < argc)
		return cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
	if (o.stats_only && o.header_only)
		return cli__usage_error(cmd, "--stats and --header-only exclude each other");
	so.path = o.input;
	if (session__open(&s, &so, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	h = session__header(s);
	if (o.samples)
		tool.sample = info_sample;
	/* A pipe's header facts arrive as records: read them all either way. */
	if ((!o.header_only || h->pipe || h->header_at_end) && session__run(s, &tool) < 0) {
		cli__error("%s", session__errmsg(s));
		session__close(s);
		return EXIT_USAGE;
	}
	if (o.samples) {
		/* just the samples */
	} else if (o.json) {
		print_json(o.input, h, session__stats(s), !o.header_only);
	} else {
		if (!o.stats_only)
			print_header(h, o.show_info, o.extra);
		if (!o.header_only)
			print_stats(h, session__stats(s));
	}
	session__close(s);
	return cli__close_output(stdout, "standard output", EXIT_OK);
}

const struct command cmd_info = {
	.name = "info",
	.summary = "show a recording's header facts and record counts",
	.usage = "[-i FILE] [-I] [--extra] [--json] [--stats|--header-only|--samples]",
	.description = "Read a perf.data (file or pipe mode, either byte order, zstd-compressed "
		       "records too) and print its header facts, like perf report "
		       "--header-only, and the number of records of each type and of samples "
		       "per event, like perf report --stats, with the same numbers.  Bad input "
		       "gives an error naming the file, the byte offset and what was wrong, and "
		       "exit status 2.",
	.options = info_options,
	.run = info_run,
};
