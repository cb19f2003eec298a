// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.data header feature sections (perf's util/header.c formats), each count and length
 * checked against the section before anything is allocated.
 *
 * Ownership: every string and array hangs off struct perf_header_info and is freed by
 * perf_header_info__release().
 */
#include <config.h>

#include "sampling/perf_header.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/perf_bytes.h"
#include "util/xalloc.h"

static const char *const feature_names[FEAT_LAST] = {
	[FEAT_RESERVED] = "RESERVED",
	[FEAT_TRACING_DATA] = "TRACING_DATA",
	[FEAT_BUILD_ID] = "BUILD_ID",
	[FEAT_HOSTNAME] = "HOSTNAME",
	[FEAT_OSRELEASE] = "OSRELEASE",
	[FEAT_VERSION] = "VERSION",
	[FEAT_ARCH] = "ARCH",
	[FEAT_NRCPUS] = "NRCPUS",
	[FEAT_CPUDESC] = "CPUDESC",
	[FEAT_CPUID] = "CPUID",
	[FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[FEAT_CMDLINE] = "CMDLINE",
	[FEAT_EVENT_DESC] = "EVENT_DESC",
	[FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[FEAT_GROUP_DESC] = "GROUP_DESC",
	[FEAT_AUXTRACE] = "AUXTRACE",
	[FEAT_STAT] = "STAT",
	[FEAT_CACHE] = "CACHE",
	[FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[FEAT_CLOCKID] = "CLOCKID",
	[FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[FEAT_BPF_BTF] = "BPF_BTF",
	[FEAT_COMPRESSED] = "COMPRESSED",
	[FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *perf_feature__name(unsigned int feat)
{
	return feat < FEAT_LAST ? feature_names[feat] : NULL;
}

struct fcur {
	const uint8_t *base, *p, *end;
	bool swap;
	const char *why;
};

static size_t left(const struct fcur *c)
{
	return (size_t)(c->end - c->p);
}

static bool fail(struct fcur *c, const char *why)
{
	if (!c->why)
		c->why = why;
	return false;
}

static bool rd_u32(struct fcur *c, uint32_t *v)
{
	if (left(c) < 4)
		return fail(c, "feature section too short for a u32");
	*v = ld32(c->p, c->swap);
	c->p += 4;
	return true;
}

static bool rd_u64(struct fcur *c, uint64_t *v)
{
	if (left(c) < 8)
		return fail(c, "feature section too short for a u64");
	*v = ld64(c->p, c->swap);
	c->p += 8;
	return true;
}

/* perf's do_write_string: u32 length (padded), then the NUL-padded bytes. */
static bool rd_str(struct fcur *c, char **out)
{
	uint32_t len;

	if (!rd_u32(c, &len))
		return false;
	if (len > left(c))
		return fail(c, "string length runs past the end of the feature section");
	*out = xstrndup((const char *)c->p, len);
	c->p += len;
	return true;
}

/*
 * A count of elements each at least @min bytes long must fit in what is left; and no real
 * recording has a million CPUs, nodes, caches or command-line words, so more is refused
 * before it can cost memory.
 */
#define MAX_FEATURE_ELEMS (1u << 20)

static bool check_count(struct fcur *c, uint64_t nr, size_t min)
{
	if (nr > left(c) / min)
		return fail(c, "element count larger than the feature section");
	if (nr > MAX_FEATURE_ELEMS)
		return fail(c, "element count over a million");
	return true;
}

static bool rd_strings(struct fcur *c, char ***out, uint32_t *nr_out)
{
	uint32_t nr;

	if (!rd_u32(c, &nr) || !check_count(c, nr, 4))
		return false;
	*out = xcalloc(nr, sizeof(char *));
	*nr_out = nr;
	for (uint32_t i = 0; i < nr; i++)
		if (!rd_str(c, &(*out)[i]))
			return false;
	return true;
}

static void free_strings(char **v, uint32_t nr)
{
	for (uint32_t i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

struct perf_evsel *perf_header_info__add_evsel(struct perf_header_info *h,
					       const struct perf_attr *attr)
{
	char name[160];
	struct perf_evsel *ev;

	h->evsels = xgrow(h->evsels, &h->evsels_cap, h->nr_evsels + 1, sizeof(*h->evsels));
	ev = &h->evsels[h->nr_evsels];
	memset(ev, 0, sizeof(*ev));
	ev->idx = h->nr_evsels++;
	ev->attr = *attr;
	ev->scale = 1.0;
	perf_attr__default_name(attr, name, sizeof(name));
	ev->name = xstrdup(name);
	return ev;
}

struct id_lookup {
	perf_id_lookup_fn fn;
	const void *ctx;
};

static bool parse_event_desc(struct perf_header_info *h, struct fcur *c, bool pipe,
			     const struct id_lookup *lk)
{
	uint32_t nre, sz;

	if (!rd_u32(c, &nre) || !rd_u32(c, &sz))
		return false;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > 4096)
		return fail(c, "EVENT_DESC attr size out of range");
	if (!check_count(c, nre, sz + 8))
		return false;
	for (uint32_t i = 0; i < nre; i++) {
		struct perf_attr attr;
		uint32_t nr;
		char *name;
		int idx;

		if (left(c) < sz)
			return fail(c, "EVENT_DESC attr runs past the end of the section");
		perf_attr__decode(c->p, sz, c->swap, &attr);
		c->p += sz;
		if (!rd_u32(c, &nr) || !rd_str(c, &name))
			return false;
		if (!check_count(c, nr, 8)) {
			free(name);
			return false;
		}
		/*
		 * The attrs (file header or HEADER_ATTR) are the authority on events and ids;
		 * EVENT_DESC names the event that owns its first id (perf's
		 * evlist__set_event_name), or by position when it lists no id.  perf does not
		 * apply the names in pipe mode.
		 */
		if (nr && h->nr_evsels == 1)
			idx = 0;
		else if (nr && lk->fn)
			idx = lk->fn(lk->ctx, ld64(c->p, c->swap));
		else
			idx = (int)i;
		c->p += (size_t)nr * 8;
		if (!pipe && idx >= 0 && (uint32_t)idx < h->nr_evsels && name[0]) {
			free(h->evsels[idx].name);
			h->evsels[idx].name = name;
		} else {
			free(name);
		}
	}
	return true;
}

static bool parse_cpu_topology(struct perf_header_info *h, struct fcur *c)
{
	if (!rd_strings(c, &h->core_siblings, &h->nr_core_siblings) ||
	    !rd_strings(c, &h->thread_siblings, &h->nr_thread_siblings))
		return false;
	/*
	 * Per-CPU core and socket ids came later (perf 4.x); then dies (5.x).  A pipe pads the
	 * section to 8 bytes (perf 6.12), so fewer bytes than the next part needs is padding.
	 */
	if (left(c) < (size_t)h->nr_cpus_avail * 8 || !h->nr_cpus_avail)
		return true;
	if (!check_count(c, h->nr_cpus_avail, 8))
		return false;
	h->nr_cpu_topo = h->nr_cpus_avail;
	h->cpu_topo = xcalloc(h->nr_cpu_topo ? h->nr_cpu_topo : 1, sizeof(*h->cpu_topo));
	for (uint32_t i = 0; i < h->nr_cpu_topo; i++) {
		uint32_t core, socket;

		if (!rd_u32(c, &core) || !rd_u32(c, &socket))
			return false;
		h->cpu_topo[i].core_id = (int32_t)core;
		h->cpu_topo[i].socket_id = (int32_t)socket;
		h->cpu_topo[i].die_id = -1;
	}
	if (left(c) < 4 + (size_t)h->nr_cpu_topo * 4)
		return true;
	if (!rd_strings(c, &h->die_siblings, &h->nr_die_siblings))
		return false;
	if (!check_count(c, h->nr_cpu_topo, 4))
		return false;
	for (uint32_t i = 0; i < h->nr_cpu_topo; i++) {
		uint32_t die;

		if (!rd_u32(c, &die))
			return false;
		h->cpu_topo[i].die_id = (int32_t)die;
	}
	return true;
}

static bool parse_numa(struct perf_header_info *h, struct fcur *c)
{
	uint32_t nr;

	if (!rd_u32(c, &nr) || !check_count(c, nr, 24))
		return false;
	h->numa_nodes = xcalloc(nr, sizeof(*h->numa_nodes));
	h->nr_numa_nodes = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct perf_numa_node *n = &h->numa_nodes[i];

		if (!rd_u32(c, &n->node) || !rd_u64(c, &n->mem_total) ||
		    !rd_u64(c, &n->mem_free) || !rd_str(c, &n->cpus))
			return false;
	}
	return true;
}

static bool parse_cache(struct perf_header_info *h, struct fcur *c)
{
	uint32_t nr;

	if (!rd_u32(c, &h->cache_version) || !rd_u32(c, &nr))
		return false;
	if (h->cache_version != 1)
		return fail(c, "CACHE version is not 1");
	if (!check_count(c, nr, 28))
		return false;
	h->caches = xcalloc(nr, sizeof(*h->caches));
	h->nr_caches = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct perf_cache_level *l = &h->caches[i];

		if (!rd_u32(c, &l->level) || !rd_u32(c, &l->line_size) || !rd_u32(c, &l->sets) ||
		    !rd_u32(c, &l->ways) || !rd_str(c, &l->type) || !rd_str(c, &l->size) ||
		    !rd_str(c, &l->map))
			return false;
		/* The coherency line size of the level-1 data cache is what c2c groups by. */
		if (l->level == 1 && (!strcmp(l->type, "Data") || !strcmp(l->type, "Unified")) &&
		    !h->cache_line_size)
			h->cache_line_size = l->line_size;
	}
	return true;
}

static bool parse_mem_topology(struct perf_header_info *h, struct fcur *c)
{
	uint64_t nr;

	if (!rd_u64(c, &h->mem_version) || !rd_u64(c, &h->mem_block_size) || !rd_u64(c, &nr))
		return false;
	if (h->mem_version != 1)
		return fail(c, "MEM_TOPOLOGY version is not 1");
	if (!check_count(c, nr, 24))
		return false;
	h->mem_nodes = xcalloc(nr, sizeof(*h->mem_nodes));
	h->nr_mem_nodes = (uint32_t)nr;
	for (uint64_t i = 0; i < nr; i++) {
		struct perf_mem_node *n = &h->mem_nodes[i];
		uint64_t words;

		if (!rd_u64(c, &n->node) || !rd_u64(c, &n->size) || !rd_u64(c, &n->nr_bits))
			return false;
		words = n->nr_bits / 64 + !!(n->nr_bits % 64);
		if (!check_count(c, words, 8))
			return false;
		n->bitmap = xcalloc(words ? words : 1, 8);
		for (uint64_t w = 0; w < words; w++)
			rd_u64(c, &n->bitmap[w]);
	}
	return true;
}

static bool parse_build_ids(struct perf_header_info *h, struct fcur *c)
{
	/* A sequence of build_id records: {u32 type, u16 misc, u16 size, s32 pid, u8 id[24], name}. */
	bool old_abi = false;
	size_t cap = h->nr_build_ids;

	while (left(c) >= 8) {
		const uint8_t *rec = c->p;
		uint16_t misc = ld16(rec + 4, c->swap), size = ld16(rec + 6, c->swap);
		size_t hdr = old_abi ? 8 + 24 : 8 + 4 + 24;
		struct perf_build_id *b;

		if (size < hdr || size > left(c))
			return fail(c, "BUILD_ID record size out of range");
		if (h->nr_build_ids >= MAX_FEATURE_ELEMS)
			return fail(c, "more than a million build-ids");
		/* perf before 2.6.35 wrote no pid: the name then starts 4 bytes early. */
		if (!old_abi && h->nr_build_ids == 0 && size >= 8 + 4 + 24 + 13 &&
		    !memcmp(rec + 8 + 4 + 24, "nel.kallsyms]", 13)) {
			old_abi = true;
			hdr = 8 + 24;
		}
		h->build_ids = xgrow(h->build_ids, &cap, h->nr_build_ids + 1, sizeof(*b));
		b = &h->build_ids[h->nr_build_ids++];
		memset(b, 0, sizeof(*b));
		b->misc = misc;
		b->pid = old_abi ? -1 : (int32_t)ld32(rec + 8, c->swap);
		memcpy(b->build_id, rec + hdr - 24, 20);
		/* PERF_RECORD_MISC_BUILD_ID_SIZE: the size byte follows the 20 id bytes */
		b->size = (misc & (1u << 15)) && rec[hdr - 4] <= 20 ? rec[hdr - 4] : 20;
		b->filename = xstrndup((const char *)rec + hdr, size - hdr);
		c->p += size;
	}
	return true;
}

static bool parse_pmu_caps_list(struct fcur *c, struct perf_pmu_caps *pc)
{
	uint32_t nr;

	if (!rd_u32(c, &nr) || !check_count(c, nr, 8))
		return false;
	pc->caps = xcalloc(nr, sizeof(char *));
	pc->nr_caps = nr;
	for (uint32_t i = 0; i < nr; i++) {
		char *name, *value;

		if (!rd_str(c, &name))
			return false;
		if (!rd_str(c, &value)) {
			free(name);
			return false;
		}
		pc->caps[i] = xasprintf("%s=%s", name, value);
		free(name);
		free(value);
	}
	return true;
}

static bool parse_feature(struct perf_header_info *h, unsigned int feat, struct fcur *c,
			  bool pipe, const struct id_lookup *lk)
{
	uint32_t nr;

	switch (feat) {
	case FEAT_TRACING_DATA:
		free(h->tracing_data);
		h->tracing_data_size = left(c);
		h->tracing_data = xmalloc(left(c));
		memcpy(h->tracing_data, c->p, left(c));
		return true;
	case FEAT_BUILD_ID:
		return parse_build_ids(h, c);
	case FEAT_HOSTNAME:
		return rd_str(c, &h->hostname);
	case FEAT_OSRELEASE:
		return rd_str(c, &h->osrelease);
	case FEAT_VERSION:
		return rd_str(c, &h->version);
	case FEAT_ARCH:
		return rd_str(c, &h->arch);
	case FEAT_CPUDESC:
		return rd_str(c, &h->cpudesc);
	case FEAT_CPUID:
		return rd_str(c, &h->cpuid);
	case FEAT_NRCPUS:
		return rd_u32(c, &h->nr_cpus_avail) && rd_u32(c, &h->nr_cpus_online);
	case FEAT_TOTAL_MEM:
		return rd_u64(c, &h->total_mem);
	case FEAT_CMDLINE:
		return rd_strings(c, &h->cmdline, &h->nr_cmdline);
	case FEAT_EVENT_DESC:
		return parse_event_desc(h, c, pipe, lk);
	case FEAT_CPU_TOPOLOGY:
		return parse_cpu_topology(h, c);
	case FEAT_NUMA_TOPOLOGY:
		return parse_numa(h, c);
	case FEAT_PMU_MAPPINGS:
		if (!rd_u32(c, &nr) || !check_count(c, nr, 8))
			return false;
		h->pmu_mappings = xcalloc(nr, sizeof(*h->pmu_mappings));
		h->nr_pmu_mappings = nr;
		for (uint32_t i = 0; i < nr; i++)
			if (!rd_u32(c, &h->pmu_mappings[i].type) ||
			    !rd_str(c, &h->pmu_mappings[i].name))
				return false;
		return true;
	case FEAT_GROUP_DESC:
		if (!rd_u32(c, &nr) || !check_count(c, nr, 12))
			return false;
		h->groups = xcalloc(nr, sizeof(*h->groups));
		h->nr_groups = nr;
		for (uint32_t i = 0; i < nr; i++)
			if (!rd_str(c, &h->groups[i].name) || !rd_u32(c, &h->groups[i].leader_idx) ||
			    !rd_u32(c, &h->groups[i].nr_members))
				return false;
		return true;
	case FEAT_CACHE:
		return parse_cache(h, c);
	case FEAT_SAMPLE_TIME:
		return rd_u64(c, &h->sample_time_first) && rd_u64(c, &h->sample_time_last);
	case FEAT_MEM_TOPOLOGY:
		return parse_mem_topology(h, c);
	case FEAT_CLOCKID:
		return rd_u64(c, &h->clockid);
	case FEAT_DIR_FORMAT:
		return rd_u64(c, &h->dir_version);
	case FEAT_COMPRESSED:
		h->has_compressed = true;
		return rd_u32(c, &h->comp_version) && rd_u32(c, &h->comp_type) &&
		       rd_u32(c, &h->comp_level) && rd_u32(c, &h->comp_ratio) &&
		       rd_u32(c, &h->comp_mmap_len);
	case FEAT_HYBRID_TOPOLOGY:
		if (!rd_u32(c, &nr) || !check_count(c, nr, 8))
			return false;
		h->hybrid_nodes = xcalloc(nr, sizeof(*h->hybrid_nodes));
		h->nr_hybrid_nodes = nr;
		for (uint32_t i = 0; i < nr; i++)
			if (!rd_str(c, &h->hybrid_nodes[i].pmu_name) ||
			    !rd_str(c, &h->hybrid_nodes[i].cpus))
				return false;
		return true;
	case FEAT_CPU_PMU_CAPS:
		h->cpu_pmu_caps.pmu_name = xstrdup("cpu");
		return parse_pmu_caps_list(c, &h->cpu_pmu_caps);
	case FEAT_PMU_CAPS:
		if (!rd_u32(c, &nr) || !check_count(c, nr, 8))
			return false;
		h->pmu_caps = xcalloc(nr, sizeof(*h->pmu_caps));
		h->nr_pmu_caps = nr;
		for (uint32_t i = 0; i < nr; i++)
			if (!parse_pmu_caps_list(c, &h->pmu_caps[i]) ||
			    !rd_str(c, &h->pmu_caps[i].pmu_name))
				return false;
		return true;
	default:
		/* BRANCH_STACK, AUXTRACE, STAT, DIR_FORMAT, BPF_*, CLOCK_DATA...: skipped by size. */
		return true;
	}
}

/* Free what an earlier copy of a feature left (a pipe may repeat a HEADER_FEATURE). */
static void release_feature(struct perf_header_info *h, unsigned int feat)
{
	switch (feat) {
	case FEAT_BUILD_ID:
		for (uint32_t i = 0; i < h->nr_build_ids; i++)
			free(h->build_ids[i].filename);
		zfree(&h->build_ids);
		h->nr_build_ids = 0;
		break;
	case FEAT_HOSTNAME:
		zfree(&h->hostname);
		break;
	case FEAT_OSRELEASE:
		zfree(&h->osrelease);
		break;
	case FEAT_VERSION:
		zfree(&h->version);
		break;
	case FEAT_ARCH:
		zfree(&h->arch);
		break;
	case FEAT_CPUDESC:
		zfree(&h->cpudesc);
		break;
	case FEAT_CPUID:
		zfree(&h->cpuid);
		break;
	case FEAT_CMDLINE:
		free_strings(h->cmdline, h->nr_cmdline);
		h->cmdline = NULL;
		h->nr_cmdline = 0;
		break;
	case FEAT_CPU_TOPOLOGY:
		free_strings(h->core_siblings, h->nr_core_siblings);
		free_strings(h->thread_siblings, h->nr_thread_siblings);
		free_strings(h->die_siblings, h->nr_die_siblings);
		h->core_siblings = h->thread_siblings = h->die_siblings = NULL;
		h->nr_core_siblings = h->nr_thread_siblings = h->nr_die_siblings = 0;
		zfree(&h->cpu_topo);
		h->nr_cpu_topo = 0;
		break;
	case FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_numa_nodes; i++)
			free(h->numa_nodes[i].cpus);
		zfree(&h->numa_nodes);
		h->nr_numa_nodes = 0;
		break;
	case FEAT_CACHE:
		for (uint32_t i = 0; i < h->nr_caches; i++) {
			free(h->caches[i].type);
			free(h->caches[i].size);
			free(h->caches[i].map);
		}
		zfree(&h->caches);
		h->nr_caches = 0;
		h->cache_line_size = 0;
		break;
	case FEAT_MEM_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_mem_nodes; i++)
			free(h->mem_nodes[i].bitmap);
		zfree(&h->mem_nodes);
		h->nr_mem_nodes = 0;
		break;
	case FEAT_GROUP_DESC:
		for (uint32_t i = 0; i < h->nr_groups; i++)
			free(h->groups[i].name);
		zfree(&h->groups);
		h->nr_groups = 0;
		break;
	case FEAT_HYBRID_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++) {
			free(h->hybrid_nodes[i].pmu_name);
			free(h->hybrid_nodes[i].cpus);
		}
		zfree(&h->hybrid_nodes);
		h->nr_hybrid_nodes = 0;
		break;
	case FEAT_PMU_MAPPINGS:
		for (uint32_t i = 0; i < h->nr_pmu_mappings; i++)
			free(h->pmu_mappings[i].name);
		zfree(&h->pmu_mappings);
		h->nr_pmu_mappings = 0;
		break;
	case FEAT_CPU_PMU_CAPS:
		free(h->cpu_pmu_caps.pmu_name);
		free_strings(h->cpu_pmu_caps.caps, h->cpu_pmu_caps.nr_caps);
		memset(&h->cpu_pmu_caps, 0, sizeof(h->cpu_pmu_caps));
		break;
	case FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < h->nr_pmu_caps; i++) {
			free(h->pmu_caps[i].pmu_name);
			free_strings(h->pmu_caps[i].caps, h->pmu_caps[i].nr_caps);
		}
		zfree(&h->pmu_caps);
		h->nr_pmu_caps = 0;
		break;
	case FEAT_TRACING_DATA:
		zfree(&h->tracing_data);
		h->tracing_data_size = 0;
		break;
	default:
		break;
	}
}

int perf_feature__parse(struct perf_header_info *h, unsigned int feat, const void *data,
			size_t size, bool swap, bool pipe, perf_id_lookup_fn lookup,
			const void *ctx, const char **why, size_t *at)
{
	struct fcur c = { data, data, (const uint8_t *)data + size, swap, NULL };
	struct id_lookup lk = { lookup, ctx };

	release_feature(h, feat);
	if (feat < FEAT_BITS)
		h->features[feat / 64] |= 1ULL << (feat % 64);
	if (parse_feature(h, feat, &c, pipe, &lk))
		return 0;
	*why = c.why ? c.why : "bad feature section";
	*at = (size_t)(c.p - c.base);
	/* nothing half-read stays: the feature is absent */
	release_feature(h, feat);
	if (feat < FEAT_BITS)
		h->features[feat / 64] &= ~(1ULL << (feat % 64));
	return -EINVAL;
}

int perf_build_ids__append(struct perf_header_info *h, const void *data, size_t size, bool swap,
			   const char **why)
{
	struct fcur c = { data, data, (const uint8_t *)data + size, swap, NULL };

	if (parse_build_ids(h, &c))
		return 0;
	*why = c.why ? c.why : "bad build-id record";
	return -EINVAL;
}

void perf_header_info__release(struct perf_header_info *h)
{
	for (unsigned int f = 0; f < FEAT_LAST; f++)
		release_feature(h, f);
	for (uint32_t i = 0; i < h->nr_evsels; i++) {
		free(h->evsels[i].name);
		free(h->evsels[i].ids);
		free(h->evsels[i].unit);
		free(h->evsels[i].name_before_update);
		free(h->evsels[i].cpus);
	}
	free(h->evsels);
	memset(h, 0, sizeof(*h));
}
