// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfswap: rewrite a little-endian perf.data as the big-endian machine that recorded it would
 * have written it (what perf itself reads back by swapping), to test lineup's byte swapping on
 * real recordings.
 *
 *	perfswap IN OUT		file mode
 *	perfswap -p IN OUT	pipe mode (HEADER_ATTR records, HEADER_FEATURE records)
 *	perfswap -P IN OUT	pipe mode without HEADER_FEATURE records: perf 6.1 does not swap
 *				a HEADER_FEATURE's feature id ("wrong feature ID") and stops
 *
 * Kept: the attrs and their ids, and the kernel records (SAMPLE, MMAP, MMAP2, COMM, FORK,
 * EXIT, LOST, LOST_SAMPLES, THROTTLE, UNTHROTTLE, SWITCH, SWITCH_CPU_WIDE, NAMESPACES, AUX,
 * ITRACE_START) and FINISHED_ROUND; records from COMPRESSED ones are written out plain; the
 * header features lineup parses (as feature sections, or HEADER_FEATURE records in a pipe).
 * Other user records are dropped (the output is a smaller recording, read by perf and lineup
 * alike).  RAW and STACK_USER payloads are copied as bytes.  Exit 2 on input lineup's reader
 * refuses.
 */
#include <config.h>

#include <byteswap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/perf_file.h"
#include "util/xalloc.h"

struct out {
	uint8_t *b;
	size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (!n)
		return;
	o->b = xgrow(o->b, &o->cap, o->len + n, 1);
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

static void be16(struct out *o, uint16_t v) { v = bswap_16(v); put(o, &v, 2); }
static void be32(struct out *o, uint32_t v) { v = bswap_32(v); put(o, &v, 4); }
static void be64(struct out *o, uint64_t v) { v = bswap_64(v); put(o, &v, 8); }

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Copy @n u64 words from *p, swapped. */
static void words(struct out *o, const uint8_t **p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++, *p += 8)
		be64(o, rd64(*p));
}

/* A u64 slot holding two u32s (pid/tid, cpu/res): each u32 swapped in place. */
static void pair(struct out *o, const uint8_t **p)
{
	be32(o, rd32(*p));
	be32(o, rd32(*p + 4));
	*p += 8;
}

static void attr_be(struct out *o, const struct perf_attr *a)
{
	uint8_t flags[8];
	size_t start = o->len;

	be32(o, a->type), be32(o, a->size), be64(o, a->config), be64(o, a->sample_period);
	be64(o, a->sample_type), be64(o, a->read_format);
	/* A big-endian compiler allocates bitfields from the top bit of each byte. */
	for (int i = 0; i < 8; i++) {
		uint8_t b = (uint8_t)(a->flags >> (8 * i)), r = 0;

		for (int k = 0; k < 8; k++)
			if (b & (1u << k))
				r |= (uint8_t)(0x80u >> k);
		flags[i] = r;
	}
	put(o, flags, 8);
	be32(o, a->wakeup_events), be32(o, a->bp_type), be64(o, a->config1), be64(o, a->config2);
	be64(o, a->branch_sample_type), be64(o, a->sample_regs_user);
	be32(o, a->sample_stack_user), be32(o, (uint32_t)a->clockid);
	be64(o, a->sample_regs_intr), be32(o, a->aux_watermark), be16(o, a->sample_max_stack);
	be16(o, 0), be32(o, a->aux_sample_size), be32(o, 0), be64(o, a->sig_data);
	be64(o, a->config3);
	o->len = start + a->size;	/* the file's own attr size */
}

static void sample_be(struct out *o, const struct perf_attr *a, const uint8_t *p,
		      const uint8_t *end)
{
	uint64_t t = a->sample_type, n;

	if (t & SF_IDENTIFIER)
		words(o, &p, 1);
	if (t & SF_IP)
		words(o, &p, 1);
	if (t & SF_TID)
		pair(o, &p);
	if (t & SF_TIME)
		words(o, &p, 1);
	if (t & SF_ADDR)
		words(o, &p, 1);
	if (t & SF_ID)
		words(o, &p, 1);
	if (t & SF_STREAM_ID)
		words(o, &p, 1);
	if (t & SF_CPU)
		pair(o, &p);
	if (t & SF_PERIOD)
		words(o, &p, 1);
	if (t & SF_READ) {
		uint64_t rf = a->read_format, per = 1 + !!(rf & READ_FORMAT_ID) +
						  !!(rf & READ_FORMAT_LOST);
		uint64_t hdr = !!(rf & READ_FORMAT_TOTAL_TIME_ENABLED) +
			       !!(rf & READ_FORMAT_TOTAL_TIME_RUNNING);

		n = rf & READ_FORMAT_GROUP ? 1 + hdr + per * rd64(p) : hdr + per;
		words(o, &p, n);
	}
	if (t & SF_CALLCHAIN) {
		n = rd64(p);
		words(o, &p, 1 + n);
	}
	if (t & SF_RAW) {
		uint32_t sz = rd32(p);

		be32(o, sz);
		put(o, p + 4, sz);
		p += 4 + sz;
	}
	if (t & SF_BRANCH_STACK) {
		n = rd64(p);
		words(o, &p, 1 + !!(a->branch_sample_type & BRANCH_SAMPLE_HW_INDEX) + 3 * n);
	}
	if (t & SF_REGS_USER) {
		n = rd64(p);
		words(o, &p, 1 + (n ? __builtin_popcountll(a->sample_regs_user) : 0));
	}
	if (t & SF_STACK_USER) {
		n = rd64(p);
		words(o, &p, 1);
		if (n) {
			put(o, p, n);
			p += n;
			words(o, &p, 1);
		}
	}
	while (p < end)		/* WEIGHT ... CODE_PAGE_SIZE: all u64 */
		words(o, &p, 1);
}

/* The sample_id_all trailer: u64s with TID and CPU as u32 pairs. */
static void trailer_be(struct out *o, uint64_t t, const uint8_t *p)
{
	if (t & SF_TID)
		pair(o, &p);
	if (t & SF_TIME)
		words(o, &p, 1);
	if (t & SF_ID)
		words(o, &p, 1);
	if (t & SF_STREAM_ID)
		words(o, &p, 1);
	if (t & SF_CPU)
		pair(o, &p);
	if (t & SF_IDENTIFIER)
		words(o, &p, 1);
}

/* perf's do_write_string: u32 length padded to 64, the string, NUL padding. */
static void wstr(struct out *o, const char *s)
{
	size_t n = strlen(s ? s : "") + 1, len = (n + 63) & ~(size_t)63;

	be32(o, (uint32_t)len);
	put(o, s ? s : "", n);
	while (n++ < len)
		put(o, "", 1);
}

static void wcaps(struct out *o, const struct perf_pmu_caps *pc)
{
	be32(o, pc->nr_caps);
	for (uint32_t i = 0; i < pc->nr_caps; i++) {
		char *eq = strchr(pc->caps[i], '=');
		char *name = strndup(pc->caps[i], eq ? (size_t)(eq - pc->caps[i]) : strlen(pc->caps[i]));

		wstr(o, name);
		wstr(o, eq ? eq + 1 : "");
		free(name);
	}
}

/* Feature @f of @h, big-endian, onto @o; false when the input has no such feature. */
static bool feature_be(struct out *o, const struct perf_header_info *h, unsigned int f, bool pipe)
{
	if (!perf_header__has_feat(h, f))
		return false;
	switch (f) {
	case FEAT_BUILD_ID:
		for (uint32_t i = 0; i < h->nr_build_ids; i++) {
			const struct perf_build_id *b = &h->build_ids[i];
			size_t n = strlen(b->filename) + 1, len = (n + 63) & ~(size_t)63;

			be32(o, REC_HEADER_BUILD_ID), be16(o, b->misc);
			be16(o, (uint16_t)(8 + 4 + 24 + len));
			be32(o, (uint32_t)b->pid);
			put(o, b->build_id, 20);
			put(o, &b->size, 1);
			put(o, "\0\0\0", 3);
			put(o, b->filename, n);
			while (n++ < len)
				put(o, "", 1);
		}
		return true;
	case FEAT_HOSTNAME:
		wstr(o, h->hostname);
		return true;
	case FEAT_OSRELEASE:
		wstr(o, h->osrelease);
		return true;
	case FEAT_VERSION:
		wstr(o, h->version);
		return true;
	case FEAT_ARCH:
		wstr(o, h->arch);
		return true;
	case FEAT_CPUDESC:
		wstr(o, h->cpudesc);
		return true;
	case FEAT_CPUID:
		wstr(o, h->cpuid);
		return true;
	case FEAT_NRCPUS:
		be32(o, h->nr_cpus_avail), be32(o, h->nr_cpus_online);
		return true;
	case FEAT_TOTAL_MEM:
		be64(o, h->total_mem);
		return true;
	case FEAT_CMDLINE:
		be32(o, h->nr_cmdline);
		for (uint32_t i = 0; i < h->nr_cmdline; i++)
			wstr(o, h->cmdline[i]);
		return true;
	case FEAT_EVENT_DESC: {
		uint32_t sz = h->nr_evsels ? h->evsels[0].attr.size : 64;

		if (pipe)
			return false;
		be32(o, h->nr_evsels), be32(o, sz);
		for (uint32_t i = 0; i < h->nr_evsels; i++) {
			struct perf_attr a = h->evsels[i].attr;

			a.size = sz;
			attr_be(o, &a);
			be32(o, h->evsels[i].nr_ids);
			wstr(o, h->evsels[i].name);
			for (uint32_t k = 0; k < h->evsels[i].nr_ids; k++)
				be64(o, h->evsels[i].ids[k]);
		}
		return true;
	}
	case FEAT_CPU_TOPOLOGY:
		be32(o, h->nr_core_siblings);
		for (uint32_t i = 0; i < h->nr_core_siblings; i++)
			wstr(o, h->core_siblings[i]);
		be32(o, h->nr_thread_siblings);
		for (uint32_t i = 0; i < h->nr_thread_siblings; i++)
			wstr(o, h->thread_siblings[i]);
		if (!h->cpu_topo)
			return true;
		for (uint32_t i = 0; i < h->nr_cpu_topo; i++)
			be32(o, (uint32_t)h->cpu_topo[i].core_id),
				be32(o, (uint32_t)h->cpu_topo[i].socket_id);
		if (!h->die_siblings)
			return true;
		be32(o, h->nr_die_siblings);
		for (uint32_t i = 0; i < h->nr_die_siblings; i++)
			wstr(o, h->die_siblings[i]);
		for (uint32_t i = 0; i < h->nr_cpu_topo; i++)
			be32(o, (uint32_t)h->cpu_topo[i].die_id);
		return true;
	case FEAT_NUMA_TOPOLOGY:
		be32(o, h->nr_numa_nodes);
		for (uint32_t i = 0; i < h->nr_numa_nodes; i++) {
			be32(o, h->numa_nodes[i].node);
			be64(o, h->numa_nodes[i].mem_total), be64(o, h->numa_nodes[i].mem_free);
			wstr(o, h->numa_nodes[i].cpus);
		}
		return true;
	case FEAT_BRANCH_STACK:
		return true;
	case FEAT_AUXTRACE:
		be64(o, 0);	/* an empty AUX area index: the AUXTRACE records are dropped */
		return true;
	case FEAT_PMU_MAPPINGS:
		be32(o, h->nr_pmu_mappings);
		for (uint32_t i = 0; i < h->nr_pmu_mappings; i++) {
			be32(o, h->pmu_mappings[i].type);
			wstr(o, h->pmu_mappings[i].name);
		}
		return true;
	case FEAT_GROUP_DESC:
		be32(o, h->nr_groups);
		for (uint32_t i = 0; i < h->nr_groups; i++) {
			wstr(o, h->groups[i].name);
			be32(o, h->groups[i].leader_idx), be32(o, h->groups[i].nr_members);
		}
		return true;
	case FEAT_CACHE:
		be32(o, 1), be32(o, h->nr_caches);
		for (uint32_t i = 0; i < h->nr_caches; i++) {
			const struct perf_cache_level *c = &h->caches[i];

			be32(o, c->level), be32(o, c->line_size), be32(o, c->sets), be32(o, c->ways);
			wstr(o, c->type), wstr(o, c->size), wstr(o, c->map);
		}
		return true;
	case FEAT_SAMPLE_TIME:
		be64(o, h->sample_time_first), be64(o, h->sample_time_last);
		return true;
	case FEAT_MEM_TOPOLOGY:
		be64(o, 1), be64(o, h->mem_block_size), be64(o, h->nr_mem_nodes);
		for (uint32_t i = 0; i < h->nr_mem_nodes; i++) {
			const struct perf_mem_node *n = &h->mem_nodes[i];

			be64(o, n->node), be64(o, n->size), be64(o, n->nr_bits);
			for (uint64_t w = 0; w < (n->nr_bits + 63) / 64; w++)
				be64(o, n->bitmap[w]);
		}
		return true;
	case FEAT_CLOCKID:
		be64(o, h->clockid);
		return true;
	case FEAT_HYBRID_TOPOLOGY:
		be32(o, h->nr_hybrid_nodes);
		for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++)
			wstr(o, h->hybrid_nodes[i].pmu_name), wstr(o, h->hybrid_nodes[i].cpus);
		return true;
	case FEAT_CPU_PMU_CAPS:
		wcaps(o, &h->cpu_pmu_caps);
		return true;
	case FEAT_PMU_CAPS:
		be32(o, h->nr_pmu_caps);
		for (uint32_t i = 0; i < h->nr_pmu_caps; i++) {
			wcaps(o, &h->pmu_caps[i]);
			wstr(o, h->pmu_caps[i].pmu_name);
		}
		return true;
	default:
		return false;
	}
}

static bool record_be(struct out *o, const struct perf_header_info *h, const struct record *r)
{
	const uint8_t *p = r->payload, *end = p + r->size - 8, *body_end = end;
	uint64_t t = 0;
	size_t start = o->len;

	switch (r->type) {
	case REC_SAMPLE: case REC_MMAP: case REC_MMAP2: case REC_COMM: case REC_FORK:
	case REC_EXIT: case REC_LOST: case REC_LOST_SAMPLES: case REC_THROTTLE:
	case REC_UNTHROTTLE: case REC_SWITCH: case REC_SWITCH_CPU_WIDE: case REC_NAMESPACES:
	case REC_AUX: case REC_ITRACE_START: case REC_FINISHED_ROUND:
		break;
	default:
		return false;
	}
	be32(o, r->type), be16(o, r->misc), be16(o, r->size);
	if (r->type == REC_SAMPLE) {
		sample_be(o, &h->evsels[r->sample.evsel].attr, p, end);
		return true;
	}
	if (r->has_sample_id) {
		t = r->sample.present;
		body_end = end - 8 * __builtin_popcountll(t);
	}
	switch (r->type) {
	case REC_MMAP:
	case REC_MMAP2:
		pair(o, &p);
		words(o, &p, 3);
		if (r->type == REC_MMAP2) {
			if (r->misc & (1u << 14)) {
				put(o, p, 24);
				p += 24;
			} else {
				pair(o, &p);
				words(o, &p, 2);
			}
			pair(o, &p);
		}
		put(o, p, body_end - p);
		break;
	case REC_COMM:
		pair(o, &p);
		put(o, p, body_end - p);
		break;
	case REC_FORK:
	case REC_EXIT:
		pair(o, &p);
		pair(o, &p);
		words(o, &p, 1);
		break;
	case REC_SWITCH_CPU_WIDE:
	case REC_ITRACE_START:
		pair(o, &p);
		break;
	case REC_NAMESPACES:
		pair(o, &p);
		words(o, &p, (body_end - p) / 8);
		break;
	default:	/* all u64 */
		words(o, &p, (body_end - p) / 8);
		break;
	}
	if (r->has_sample_id)
		trailer_be(o, t, body_end);
	if (o->len - start != r->size) {
		fprintf(stderr, "perfswap: record type %u at %llu: wrote %zu of %u bytes\n", r->type,
			(unsigned long long)r->offset, o->len - start, r->size);
		exit(2);
	}
	return true;
}

int main(int argc, char **argv)
{
	bool pipe = argc > 1 && (!strcmp(argv[1], "-p") || !strcmp(argv[1], "-P"));
	bool pipe_features = pipe && !strcmp(argv[1], "-p");
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	const struct perf_header_info *h;
	struct out o = { 0 }, data = { 0 };
	struct record r;
	FILE *f;
	int rc;

	if (argc != 3 + pipe) {
		fprintf(stderr, "usage: perfswap [-p|-P] IN OUT\n");
		return 2;
	}
	if (perf_file__open(&pf, argv[1 + pipe], err, sizeof(err)) < 0) {
		fprintf(stderr, "perfswap: %s\n", err);
		return 2;
	}
	h = perf_file__header(pf);
	if (h->pipe || h->big_endian) {
		fprintf(stderr, "perfswap: %s: need a little-endian file-mode perf.data\n", argv[1]);
		return 2;
	}
	while ((rc = perf_file__next_record(pf, &r)) > 0)
		record_be(&data, h, &r);
	if (rc < 0) {
		fprintf(stderr, "perfswap: %s\n", perf_file__errmsg(pf));
		return 2;
	}

	be64(&o, 0x32454c4946524550ULL);
	if (pipe) {
		be64(&o, 16);
		for (uint32_t i = 0; i < h->nr_evsels; i++) {
			const struct perf_evsel *e = &h->evsels[i];
			struct perf_attr a = e->attr;

			/*
			 * perf 6.1 swaps a HEADER_ATTR's ids from its own sizeof(attr), 128, not
			 * from attr.size (as a perf of the recording's version would write it).
			 */
			a.size = 128;
			be32(&o, REC_HEADER_ATTR), be16(&o, 0);
			be16(&o, (uint16_t)(8 + a.size + 8 * e->nr_ids));
			attr_be(&o, &a);
			for (uint32_t k = 0; k < e->nr_ids; k++)
				be64(&o, e->ids[k]);
		}
		for (unsigned int ft = 1; pipe_features && ft < FEAT_LAST; ft++) {
			struct out fd = { 0 };

			if (ft == FEAT_BUILD_ID || !feature_be(&fd, h, ft, true))
				continue;
			while (fd.len % 8)
				put(&fd, "", 1);
			if (fd.len + 16 > 65535) {
				free(fd.b);
				continue;
			}
			be32(&o, REC_HEADER_FEATURE), be16(&o, 0), be16(&o, (uint16_t)(16 + fd.len));
			be64(&o, ft);
			put(&o, fd.b, fd.len);
			free(fd.b);
		}
		put(&o, data.b, data.len);
	} else {
		uint64_t attr_size = h->nr_evsels ? h->evsels[0].attr.size + 16 : 80;
		uint64_t attrs_off = 104, ids_off = attrs_off + attr_size * h->nr_evsels;
		uint64_t data_off = ids_off;

		for (uint32_t i = 0; i < h->nr_evsels; i++)
			data_off += 8 * h->evsels[i].nr_ids;
		be64(&o, 104), be64(&o, attr_size);
		be64(&o, attrs_off), be64(&o, attr_size * h->nr_evsels);
		struct out secs[FEAT_LAST];
		uint64_t bits = 0, nfeat = 0, at;

		for (unsigned int ft = 1; ft < FEAT_LAST; ft++) {
			memset(&secs[ft], 0, sizeof(secs[ft]));
			if (feature_be(&secs[ft], h, ft, false)) {
				bits |= 1ULL << ft;
				nfeat++;
			}
		}
		be64(&o, data_off), be64(&o, data.len);
		be64(&o, 0), be64(&o, 0);
		be64(&o, bits), be64(&o, 0), be64(&o, 0), be64(&o, 0);
		for (uint32_t i = 0; i < h->nr_evsels; i++) {
			const struct perf_evsel *e = &h->evsels[i];
			struct perf_attr a = e->attr;

			a.size = (uint32_t)attr_size - 16;	/* one size for all, as perf writes */
			attr_be(&o, &a);
			be64(&o, ids_off), be64(&o, 8 * e->nr_ids);
			ids_off += 8 * e->nr_ids;
		}
		for (uint32_t i = 0; i < h->nr_evsels; i++)
			for (uint32_t k = 0; k < h->evsels[i].nr_ids; k++)
				be64(&o, h->evsels[i].ids[k]);
		put(&o, data.b, data.len);
		/* the feature table, then the sections */
		at = o.len + 16 * nfeat;
		for (unsigned int ft = 1; ft < FEAT_LAST; ft++)
			if (bits & (1ULL << ft)) {
				be64(&o, at), be64(&o, secs[ft].len);
				at += secs[ft].len;
			}
		for (unsigned int ft = 1; ft < FEAT_LAST; ft++) {
			if (bits & (1ULL << ft))
				put(&o, secs[ft].b, secs[ft].len);
			free(secs[ft].b);
		}
	}
	f = fopen(argv[2 + pipe], "w");
	if (!f || fwrite(o.b, 1, o.len, f) != o.len || fclose(f)) {
		perror(argv[2 + pipe]);
		return 2;
	}
	perf_file__close(pf);
	free(o.b);
	free(data.b);
	return 0;
}
