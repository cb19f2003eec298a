// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * srcpatch_run: drive analyzer/srcpatch from the shell tests (the suggest command is its real
 * user).  Usage:
 *   srcpatch_run [-C COMMENT] [-k CHECK_FN] [-l LINE_SIZE] [-e MEMBERS] -f PATH=FILE [-f ...]
 *                REQUEST...
 * REQUEST is FILE_INDEX:NAME:DECL_LINE:STYLE:SLOTS, STYLE one of groups, kaligned, attr,
 * alignas; SLOTS comma-separated "member", "member@group" (a group starts), "member@" (the
 * group ends), a trailing '!' for a new cache line.  -e gives the members the binary has
 * (comma-separated; default: those of the slots and of the units they name, per scan).
 * The diff goes to stdout, each outcome's messages to stderr; exit 0 all applied, 1 some
 * refused, 2 bad usage.  "srcpatch_run -s -f PATH=FILE NAME:LINE" prints the scan.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/srcpatch.h"
#include "util/xalloc.h"

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		buf = xgrow(buf, &cap, len + 65536 + 1, 1);
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static char **split(char *s, char sep, unsigned int *nr)
{
	char **v = NULL;

	*nr = 0;
	for (char *p = s; p;) {
		char *e = strchr(p, sep);

		if (e)
			*e = '\0';
		if (*p) {
			v = xrealloc(v, (*nr + 1) * sizeof(*v));
			v[(*nr)++] = p;
		}
		p = e ? e + 1 : NULL;
	}
	return v;
}

static int print_scan(const struct srcpatch_file *f, char *req)
{
	char *colon = strchr(req, ':');
	struct srcpatch_scan *sc;
	int ret;

	if (colon)
		*colon = '\0';
	ret = srcpatch__scan(f, req, colon ? atoi(colon + 1) : 0, &sc);
	if (ret)
		fprintf(stderr, "%s\n", sc->outcome.message);
	else
		printf("lines %u-%u%s\n", sc->outcome.line, sc->outcome.end_line,
		       sc->outcome.randomized ? " randomized" : "");
	for (unsigned int w = 0; w < sc->outcome.nr_warnings; w++)
		fprintf(stderr, "warning: %s\n", sc->outcome.warnings[w]);
	for (unsigned int m = 0; m < sc->nr_members; m++)
		printf("%s line %u unit %u block %u%s%s%s\n", sc->members[m].name,
		       sc->members[m].line, sc->members[m].unit, sc->members[m].block,
		       sc->members[m].cond ? " " : "", sc->members[m].cond ? sc->members[m].cond : "",
		       sc->members[m].bitfield ? " bitfield" : "");
	srcpatch_scan__delete(sc);
	return ret;
}

/* The members of the units the slots name (a scan of the source). */
static void default_expected(struct srcpatch_request *r, const struct srcpatch_file *f)
{
	struct srcpatch_scan *sc;
	const char **v = NULL;
	unsigned int n = 0;

	if (srcpatch__scan(f, r->name, r->decl_line, &sc)) {
		srcpatch_scan__delete(sc);
		return;
	}
	for (unsigned int s = 0; s < r->nr_slots; s++)
		for (unsigned int m = 0; m < sc->nr_members; m++) {
			unsigned int u = sc->members[m].unit;
			bool dup = false;

			if (strcmp(sc->members[m].name, r->slots[s].member))
				continue;
			for (unsigned int k = 0; k < sc->nr_members; k++) {
				if (sc->members[k].unit != u || sc->members[k].block != sc->members[m].block)
					continue;
				dup = false;
				for (unsigned int j = 0; j < n && !dup; j++)
					dup = !strcmp(v[j], sc->members[k].name);
				if (!dup) {
					v = xrealloc(v, (n + 1) * sizeof(*v));
					v[n++] = xstrdup(sc->members[k].name);
				}
			}
			break;
		}
	srcpatch_scan__delete(sc);
	r->expected = v;
	r->nr_expected = n;
}

static int parse_request(char *arg, struct srcpatch_request *r)
{
	unsigned int nf;
	char **f = split(arg, ':', &nf);
	char **slots;
	unsigned int ns;
	struct srcpatch_slot *sl;

	if (nf != 5)
		return -1;
	r->file = atoi(f[0]);
	r->name = f[1];
	r->decl_line = atoi(f[2]);
	if (!strcmp(f[3], "groups"))
		r->style = SRCPATCH_KERNEL_GROUPS;
	else if (!strcmp(f[3], "kaligned"))
		r->style = SRCPATCH_KERNEL_ALIGNED;
	else if (!strcmp(f[3], "attr"))
		r->style = SRCPATCH_ATTR_ALIGNED;
	else if (!strcmp(f[3], "alignas"))
		r->style = SRCPATCH_ALIGNAS;
	else
		return -1;
	slots = split(f[4], ',', &ns);
	sl = xcalloc(ns + 1, sizeof(*sl));
	for (unsigned int s = 0; s < ns; s++) {
		char *m = slots[s], *at = strchr(m, '@');
		size_t len = strlen(m);

		if (len && m[len - 1] == '!') {
			sl[s].new_line = true;
			m[len - 1] = '\0';
		}
		if (at) {
			*at = '\0';
			sl[s].group = at + 1;
		}
		sl[s].member = m;
	}
	r->slots = sl;
	r->nr_slots = ns;
	free(slots);
	free(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct srcpatch_file files[8];
	struct srcpatch_request reqs[8];
	unsigned int nf = 0, nr = 0, ns = 0, line_size = 0;
	const char *comment = NULL, *check_fn = NULL;
	char *expected = NULL, *keep[8] = { NULL };
	bool scan = false;
	struct srcpatch *sp;
	int opt, ret;

	while ((opt = getopt(argc, argv, "C:k:l:e:f:s")) != -1) {
		char *eq;

		switch (opt) {
		case 'C':
			comment = optarg;
			break;
		case 'k':
			check_fn = optarg;
			break;
		case 'l':
			line_size = atoi(optarg);
			break;
		case 'e':
			expected = optarg;
			break;
		case 's':
			scan = true;
			break;
		case 'f':
			eq = strchr(optarg, '=');
			if (!eq || nf == 8)
				return 2;
			*eq = '\0';
			files[nf].path = optarg;
			files[nf++].text = read_file(eq + 1);
			break;
		default:
			return 2;
		}
	}
	if (!nf || optind >= argc)
		return 2;
	if (scan) {
		ret = print_scan(&files[0], argv[optind]);
		for (unsigned int f = 0; f < nf; f++)
			free((void *)files[f].text);
		return ret;
	}
	for (; optind < argc && nr < 8; optind++) {
		memset(&reqs[nr], 0, sizeof(reqs[nr]));
		if (parse_request(argv[optind], &reqs[nr]) || reqs[nr].file >= nf) {
			fprintf(stderr, "bad request %s\n", argv[optind]);
			return 2;
		}
		reqs[nr].comment = comment;
		reqs[nr].check_fn = check_fn;
		reqs[nr].line_size = line_size;
		if (expected) {
			keep[nr] = xstrdup(expected);
			reqs[nr].expected = (const char *const *)split(keep[nr], ',', &ns);
			reqs[nr].nr_expected = ns;
		} else {
			default_expected(&reqs[nr], &files[reqs[nr].file]);
		}
		nr++;
	}
	ret = srcpatch__make(files, nf, reqs, nr, &sp);
	if (ret < 0) {
		fprintf(stderr, "srcpatch__make: %d\n", ret);
		return 2;
	}
	for (unsigned int r = 0; r < sp->nr_outcomes; r++) {
		const struct srcpatch_outcome *oc = &sp->outcomes[r];

		if (oc->error)
			fprintf(stderr, "error: %s\n", oc->message);
		for (unsigned int w = 0; w < oc->nr_warnings; w++)
			fprintf(stderr, "warning: %s\n", oc->warnings[w]);
		if (oc->randomized)
			fprintf(stderr, "randomized: %s\n", reqs[r].name);
	}
	fputs(sp->diff, stdout);
	srcpatch__delete(sp);
	for (unsigned int r = 0; r < nr; r++) {
		if (!expected)
			for (unsigned int e = 0; e < reqs[r].nr_expected; e++)
				free((void *)reqs[r].expected[e]);
		free((void *)reqs[r].expected);
		free((void *)reqs[r].slots);
		free(keep[r]);
	}
	for (unsigned int f = 0; f < nf; f++)
		free((void *)files[f].text);
	return ret;
}
