// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/pmu.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampling/small_file.h"

#define DEVICES "bus/event_source/devices"

const char *pmu__sysfs_root(void)
{
	const char *s = getenv("LINEUP_SYSFS");

	return s && *s ? s : "/sys";
}

static bool exists(const char *sysfs, const char *pmu, const char *file)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/" DEVICES "/%s%s%s", sysfs, pmu, file ? "/" : "",
		 file ? file : "");
	return !access(path, F_OK);
}

int pmu__type(const char *sysfs, const char *pmu, uint32_t *type)
{
	char path[4096], buf[64], *end;
	unsigned long v;
	int rc;

	snprintf(path, sizeof(path), "%s/" DEVICES "/%s/type", sysfs, pmu);
	rc = small_file__read(path, buf, sizeof(buf));
	if (rc)
		return rc;
	v = strtoul(buf, &end, 10);
	if (end == buf || *end || v > UINT32_MAX)
		return -EINVAL;
	*type = v;
	return 0;
}

/*
 * Place @value into the bits a format file names: "config:0-7", "config1:0-15",
 * "config:0-7,32-35" (the value's low bits fill the ranges in order), "config:33".
 */
static int place(const char *fmt, uint64_t value, struct pmu_event *ev, const char **why)
{
	uint64_t *word;
	const char *p;
	unsigned int used = 0;

	if (!strncmp(fmt, "config2:", 8)) {
		word = &ev->config2;
		p = fmt + 8;
	} else if (!strncmp(fmt, "config1:", 8)) {
		word = &ev->config1;
		p = fmt + 8;
	} else if (!strncmp(fmt, "config:", 7)) {
		word = &ev->config;
		p = fmt + 7;
	} else {
		*why = "format names no config word";
		return -EINVAL;
	}
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p) {
			*why = "bad bit range";
			return -EINVAL;
		}
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1) {
				*why = "bad bit range";
				return -EINVAL;
			}
			p = end;
		}
		if (hi < lo || hi > 63) {
			*why = "bit range outside 0-63";
			return -EINVAL;
		}
		for (unsigned long b = lo; b <= hi; b++, used++)
			if (used < 64 && (value >> used) & 1)
				*word |= 1ULL << b;
			else if (used < 64)
				*word &= ~(1ULL << b);
		if (*p == ',')
			p++;
		else if (*p) {
			*why = "bad bit range";
			return -EINVAL;
		}
	}
	if (used < 64 && value >> used) {
		*why = "value does not fit the field";
		return -ERANGE;
	}
	return 0;
}

int pmu__encode_terms(const char *sysfs, const char *pmu, const char *terms,
		      struct pmu_event *ev, char *err, size_t errlen)
{
	struct {
		char name[64];
		uint64_t value;
	} t[32];
	unsigned int nr = 0;
	char buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned int k;
		uint64_t v = 1;

		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, &end, 0);
			if (end == eq + 1 || *end) {
				snprintf(err, errlen, "%s: term %s=%s: not a number", pmu, tok, eq + 1);
				return -EINVAL;
			}
		}
		for (k = 0; k < nr && strcmp(t[k].name, tok); k++)
			;
		if (k == nr) {
			if (nr == 32) {
				snprintf(err, errlen, "%s: too many event terms", pmu);
				return -E2BIG;
			}
			snprintf(t[nr].name, sizeof(t[nr].name), "%s", tok);
			nr++;
		}
		t[k].value = v;
	}
	for (unsigned int k = 0; k < nr; k++) {
		char path[4096], fmt[128];
		const char *why = NULL;
		int rc;

		snprintf(path, sizeof(path), "%s/" DEVICES "/%s/format/%s", sysfs, pmu, t[k].name);
		rc = small_file__read(path, fmt, sizeof(fmt));
		if (rc) {
			snprintf(err, errlen, "%s: event term '%s' has no format file (%s): %s", pmu,
				 t[k].name, path, strerror(-rc));
			return rc;
		}
		rc = place(fmt, t[k].value, ev, &why);
		if (rc) {
			snprintf(err, errlen, "%s: '%s' for term %s=%#llx: %s", path, fmt, t[k].name,
				 (unsigned long long)t[k].value, why);
			return rc;
		}
	}
	return 0;
}

/* The event's terms from PMU/events/NAME; -errno when missing. */
static int event_terms(const char *sysfs, const char *pmu, const char *name, char *buf,
		       size_t size)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/" DEVICES "/%s/events/%s", sysfs, pmu, name);
	return small_file__read(path, buf, size);
}

static int find_intel(const char *sysfs, const char *pmu, unsigned int ldlat, struct pmu_mem *out,
		      char *err, size_t errlen)
{
	char terms[512];
	uint32_t type;
	int rc;

	rc = pmu__type(sysfs, pmu, &type);
	if (rc) {
		snprintf(err, errlen, "%s/" DEVICES "/%s/type: %s", sysfs, pmu, strerror(-rc));
		return rc;
	}
	out->kind = PMU_KIND_INTEL;
	snprintf(out->pmu, sizeof(out->pmu), "%s", pmu);
	if (!event_terms(sysfs, pmu, "mem-loads-aux", terms, sizeof(terms))) {
		struct pmu_event *ev = &out->events[out->nr_events];

		memset(ev, 0, sizeof(*ev));
		ev->type = type;
		ev->precise_ip = 3;
		ev->group_leader = true;
		snprintf(ev->name, sizeof(ev->name), "%s/mem-loads-aux/P", pmu);
		rc = pmu__encode_terms(sysfs, pmu, terms, ev, err, errlen);
		if (rc)
			return rc;
		out->nr_events++;
	}
	for (int st = 0; st < 2; st++) {
		struct pmu_event *ev = &out->events[out->nr_events];
		char t2[600];

		rc = event_terms(sysfs, pmu, st ? "mem-stores" : "mem-loads", terms, sizeof(terms));
		if (rc) {
			if (!st && out->nr_events) {
				snprintf(err, errlen, "%s/" DEVICES "/%s/events: mem-loads-aux without "
					 "mem-loads", sysfs, pmu);
				return -EINVAL;
			}
			continue;	/* some parts have loads only */
		}
		memset(ev, 0, sizeof(*ev));
		ev->type = type;
		ev->precise_ip = 3;
		if (st) {
			ev->stores = true;
			snprintf(ev->name, sizeof(ev->name), "%s/mem-stores/P", pmu);
		} else {
			ev->loads = true;
			snprintf(ev->name, sizeof(ev->name), "%s/mem-loads,ldlat=%u/P", pmu, ldlat);
		}
		/* the user's ldlat replaces the default one of the events file */
		snprintf(t2, sizeof(t2), st ? "%s" : "%s,ldlat=%u", terms, ldlat);
		rc = pmu__encode_terms(sysfs, pmu, t2, ev, err, errlen);
		if (rc)
			return rc;
		out->nr_events++;
	}
	return 0;
}

int pmu__find_mem_events(const char *sysfs, unsigned int ldlat, struct pmu_mem *out, char *err,
			 size_t errlen)
{
	char dir[4096];
	DIR *d;
	struct dirent *de;
	char spe[64] = "";
	int rc;

	if (!sysfs)
		sysfs = pmu__sysfs_root();
	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = 0;

	/* Intel: hybrids put the big cores' events on cpu_core, as perf mem does. */
	if (exists(sysfs, "cpu_core", "events/mem-loads"))
		return find_intel(sysfs, "cpu_core", ldlat, out, err, errlen);
	if (exists(sysfs, "cpu", "events/mem-loads"))
		return find_intel(sysfs, "cpu", ldlat, out, err, errlen);

	/* AMD IBS op sampling: loads and stores in one event. */
	if (exists(sysfs, "ibs_op", NULL)) {
		struct pmu_event *ev = &out->events[0];

		rc = pmu__type(sysfs, "ibs_op", &ev->type);
		if (rc) {
			snprintf(err, errlen, "%s/" DEVICES "/ibs_op/type: %s", sysfs, strerror(-rc));
			return rc;
		}
		out->kind = PMU_KIND_AMD_IBS;
		snprintf(out->pmu, sizeof(out->pmu), "ibs_op");
		snprintf(ev->name, sizeof(ev->name), "ibs_op//");
		ev->loads = ev->stores = true;
		out->nr_events = 1;
		return 0;
	}

	/* Arm SPE: the first arm_spe_N. */
	snprintf(dir, sizeof(dir), "%s/" DEVICES, sysfs);
	d = opendir(dir);
	if (d) {
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "arm_spe_", 8) &&
			    (!spe[0] || strcmp(de->d_name, spe) < 0))
				snprintf(spe, sizeof(spe), "%.60s", de->d_name);
		closedir(d);
	}
	if (spe[0]) {
		struct pmu_event *ev = &out->events[0];
		char terms[256];

		rc = pmu__type(sysfs, spe, &ev->type);
		if (rc) {
			snprintf(err, errlen, "%s/%s/type: %s", dir, spe, strerror(-rc));
			return rc;
		}
		out->kind = PMU_KIND_ARM_SPE;
		snprintf(out->pmu, sizeof(out->pmu), "%s", spe);
		snprintf(terms, sizeof(terms),
			 "ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=%u", ldlat);
		snprintf(ev->name, sizeof(ev->name), "%.60s/%.90s/", spe, terms);
		ev->loads = ev->stores = ev->aux = true;
		rc = pmu__encode_terms(sysfs, spe, terms, ev, err, errlen);
		if (rc)
			return rc;
		out->nr_events = 1;
		return 0;
	}

	snprintf(out->looked_for, sizeof(out->looked_for),
		 "%s/" DEVICES "/{cpu,cpu_core}/events/mem-loads (Intel), "
		 "%s/" DEVICES "/ibs_op (AMD IBS), %s/" DEVICES "/arm_spe_* (Arm SPE)",
		 sysfs, sysfs, sysfs);
	return 1;
}
