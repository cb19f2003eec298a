// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the source patcher (analyzer/srcpatch*.c).  The input's first 8 bytes
 * choose the request, the rest is the C text:
 *   [0] bits 0-1 the style, 2-3 how the order is made (units shuffled, members shuffled,
 *       kept, reversed), 4 the expected members differ from the source's, 5 a layout
 *       comment, 6 check_fn "check", 7 a second request (the next struct, or the same again)
 *   [1] bits 0-2 the line size, 3-7 which struct named in the text
 *   [2..3] the decl_line (little-endian; most seeds have 0)
 *   [4..7] the seed of the order, of the groups and cache-line starts, of the edited text
 * The struct's members come from srcpatch__scan(), so most inputs reach the writing side.
 * Any crash, sanitizer report or leak is a bug, and so is an outcome that breaks the
 * header's promises: the diff must turn the old text into the new one, a refused request
 * must leave its file as it was, a CRLF file must stay CRLF.  srcpatch__diff() is also run
 * on the text against a copy with lines dropped, doubled and swapped, and
 * srcpatch__align_alloc() on line [5] % 64 + 1, aligning to 1 << ([4] & 7).  Built by tests/fuzz/srcpatch_run.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/srcpatch.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR 8
#define MAX_NAMES 32
#define MAX_SLOTS 256

static const char path[] = "include/fuzz.h";

static uint32_t rnd(uint32_t *s)
{
	/* xorshift32: any state but 0 */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The names a struct request could take: the word after "struct", the one after a '}'. */
static unsigned int struct_names(const char *t, char names[][64], unsigned int max)
{
	unsigned int nr = 0;

	for (const char *p = t; *p && nr < max; p++) {
		const char *q;
		size_t n = 0;

		if (!strncmp(p, "struct", 6) && !ident_char(p[6]) && (p == t || !ident_char(p[-1])))
			q = p + 6;
		else if (*p == '}')
			q = p + 1;
		else
			continue;
		while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
			q++;
		while (ident_char(q[n]) && n < 63)
			n++;
		if (!n || (q[0] >= '0' && q[0] <= '9'))
			continue;
		memcpy(names[nr], q, n);
		names[nr][n] = '\0';
		nr++;
	}
	return nr;
}

/* Lines of @t (with their '\n'): starts in @at, @max at most. */
static size_t split(const char *t, const char **at, size_t *len, size_t max)
{
	size_t n = 0;

	while (*t && n < max) {
		const char *nl = strchr(t, '\n');

		at[n] = t;
		len[n] = nl ? (size_t)(nl - t) + 1 : strlen(t);
		t += len[n++];
	}
	return n;
}

/*
 * @old with the unified diff @diff applied as patch -p1 reads it (hunks in order, context
 * and removed lines checked); NULL when the diff does not apply.
 */
static char *apply(const char *old, const char *diff)
{
	struct strbuf out = STRBUF_INIT;
	const char *o = old, *d = diff;
	unsigned long line = 1; /* of old, the next to copy */

	while (*d) {
		const char *e = strchr(d, '\n');
		unsigned long a, b, c, n;

		if (!e)
			goto bad;
		if (!strncmp(d, "--- ", 4) || !strncmp(d, "+++ ", 4)) {
			d = e + 1;
			continue;
		}
		if (sscanf(d, "@@ -%lu,%lu +%lu,%lu @@", &a, &b, &c, &n) != 4)
			goto bad;
		d = e + 1;
		/* copy the old lines before the hunk */
		for (unsigned long to = b ? a : a + 1; line < to; line++) {
			const char *nl = strchr(o, '\n');
			size_t len = nl ? (size_t)(nl - o) + 1 : strlen(o);

			if (!len)
				goto bad;
			strbuf__add(&out, o, len);
			o += len;
		}
		while (*d == ' ' || *d == '-' || *d == '+') {
			char kind = *d;
			const char *s = d + 1, *nl = strchr(s, '\n');
			size_t len;
			bool last;

			if (!nl)
				goto bad;
			len = (size_t)(nl - s) + 1;
			d = nl + 1;
			last = !strncmp(d, "\\ No newline at end of file\n", 28);
			if (last) {
				len--;
				d += 28;
			}
			if (kind != '+') {
				/* the old line as the diff has it, and the file's end where it says */
				if (strncmp(o, s, len) || (last && o[len]))
					goto bad;
				o += len;
				line++;
			}
			if (kind != '-')
				strbuf__add(&out, s, len);
		}
	}
	strbuf__add(&out, o, strlen(o));
	return out.buf;
bad:
	strbuf__release(&out);
	return NULL;
}

static void check_diff(const char *old, const char *new, const char *diff)
{
	char *got = apply(old, diff);

	if (!got || strcmp(got, new)) {
		fprintf(stderr, "the diff does not turn the old text into the new one:\n%s\n", diff);
		abort();
	}
	free(got);
}

/* Every '\n' after a '\r' in @old: so in @new. */
static void check_crlf(const char *old, const char *new)
{
	const char *nl = strchr(old, '\n');

	for (const char *p = nl; p; p = strchr(p + 1, '\n'))
		if (p == old || p[-1] != '\r')
			return;
	if (!nl)
		return;
	for (const char *p = strchr(new, '\n'); p; p = strchr(p + 1, '\n'))
		if (p == new || p[-1] != '\r') {
			fprintf(stderr, "a CRLF file got an LF line:\n%s\n", new);
			abort();
		}
}

static void shuffle(unsigned int *v, unsigned int n, uint32_t *s)
{
	for (unsigned int i = n; i > 1; i--) {
		unsigned int j = rnd(s) % i, t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Member @i starts another unit (or block) than member i - 1's: they may move apart. */
static bool starts_unit(const struct srcpatch_scan *sc, unsigned int i)
{
	const struct srcpatch_member *m = &sc->members[i], *p = m - 1;

	return !i || (m->block ? m->block != p->block : m->unit != p->unit);
}

/* The slots of scan @sc by mode: units (blocks whole) shuffled, members shuffled, as they
 * are, reversed; groups and new lines at random. */
static unsigned int make_slots(const struct srcpatch_scan *sc, unsigned int mode, uint32_t *s,
			       struct srcpatch_slot *slots, char gnames[][8])
{
	unsigned int n = sc->nr_members < MAX_SLOTS ? sc->nr_members : MAX_SLOTS;
	unsigned int order[MAX_SLOTS], keys[MAX_SLOTS], nk = 0, k = 0;

	for (unsigned int i = 0; i < n; i++)
		order[i] = i;
	if (mode == 1) {
		shuffle(order, n, s);
	} else if (mode == 3) {
		for (unsigned int i = 0; i < n; i++)
			order[i] = n - 1 - i;
	} else if (mode == 0) {
		/* a run of members with one unit (or one block) moves as one key */
		for (unsigned int i = 0; i < n; i++)
			if (starts_unit(sc, i))
				keys[nk++] = i;
		shuffle(keys, nk, s);
		for (unsigned int j = 0; j < nk; j++)
			for (unsigned int i = keys[j]; i < n && (i == keys[j] || !starts_unit(sc, i)); i++)
				order[k++] = i;
	}
	for (unsigned int i = 0; i < n; i++) {
		uint32_t r = rnd(s);

		slots[i].member = sc->members[order[i]].name;
		slots[i].group = NULL;
		slots[i].new_line = !(r & 3);
		if (!((r >> 2) & 3)) {
			snprintf(gnames[i], 8, "g%u", i);
			slots[i].group = gnames[i];
		} else if (!((r >> 4) & 15)) {
			slots[i].group = "";
		}
	}
	return n;
}

/* Lines of @t dropped, doubled and swapped at random: a new text to diff against. */
static char *edit_text(const char *t, uint32_t *s)
{
	static const char *at[512];
	static size_t len[512];
	size_t n = split(t, at, len, 512);
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		uint32_t r = rnd(s) & 15;

		if (r == 0)
			continue;
		strbuf__add(&sb, at[i], len[i]);
		if (r == 1)
			strbuf__add(&sb, at[i], len[i]);
		else if (r == 2 && i + 1 < n)
			strbuf__add(&sb, at[i + 1], len[i + 1]);
		else if (r == 3)
			strbuf__add(&sb, "\tint added;\n", 12);
	}
	strbuf__add(&sb, "", 0);
	return sb.buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int line_sizes[8] = { 0, 64, 128, 32, 16, 256, 1, 48 };
	static struct srcpatch_slot slots[2][MAX_SLOTS];
	static char gnames[2][MAX_SLOTS][8];
	static const char *expected[2][MAX_SLOTS + 1];
	char names[MAX_NAMES][64], err[256], *text, *other, *aligned;
	struct srcpatch_request reqs[2] = { { 0 } };
	struct srcpatch_scan *scans[2] = { NULL, NULL };
	struct srcpatch_file file;
	struct srcpatch *sp;
	unsigned int nr_names, nr_reqs, ret;
	uint32_t seed;
	uint8_t b0, b1;

	if (size < HDR)
		return 0;
	err[0] = '\0';
	b0 = data[0];
	b1 = data[1];
	seed = (uint32_t)data[4] | (uint32_t)data[5] << 8 | (uint32_t)data[6] << 16 |
	       (uint32_t)data[7] << 24;
	seed = seed ? seed : 1;
	text = malloc(size - HDR + 1);
	memcpy(text, data + HDR, size - HDR);
	text[size - HDR] = '\0';
	file = (struct srcpatch_file){ path, text };

	nr_names = struct_names(text, names, MAX_NAMES);
	if (!nr_names) {
		strcpy(names[0], "s");
		nr_names = 1;
	}
	nr_reqs = b0 >> 7 ? 2 : 1;
	for (unsigned int r = 0; r < nr_reqs; r++) {
		struct srcpatch_request *q = &reqs[r];
		const char *name = names[((b1 >> 3) + (r && (seed & 1))) % nr_names];
		unsigned int n, ne = 0;

		q->file = 0;
		q->name = name;
		q->decl_line = data[2] | data[3] << 8;
		q->style = (enum srcpatch_style)(b0 & 3);
		q->line_size = line_sizes[b1 & 7];
		q->comment = b0 & 0x20 ? "Layout by lineup\n\nsecond line" : NULL;
		q->check_fn = b0 & 0x40 ? "check" : NULL;
		srcpatch__scan(&file, name, q->decl_line, &scans[r]);
		for (unsigned int m = 0; m < scans[r]->nr_members; m++)
			if (!scans[r]->members[m].name)
				abort();
		n = make_slots(scans[r], (b0 >> 2) & 3, &seed, slots[r], gnames[r]);
		for (unsigned int m = 0; m < n; m++)
			expected[r][ne++] = scans[r]->members[m].name;
		if (b0 & 0x10) {
			/* one member lost, one gained since the binary was built */
			if (ne)
				expected[r][rnd(&seed) % ne] = "fuzz_extra";
			else
				expected[r][ne++] = "fuzz_extra";
		}
		q->expected = expected[r];
		q->nr_expected = ne;
		q->slots = slots[r];
		q->nr_slots = n;
	}
	ret = srcpatch__make(&file, 1, reqs, nr_reqs, &sp);
	if (ret > 1 || !sp || sp->nr_texts != 1 || sp->nr_outcomes != nr_reqs)
		abort();
	for (unsigned int r = 0; r < nr_reqs; r++)
		if (!sp->outcomes[r].error != !sp->outcomes[r].message)
			abort();
	if (ret == 1 && (nr_reqs == 1 || (sp->outcomes[0].error && sp->outcomes[1].error)) &&
	    strcmp(sp->texts[0], text)) {
		fprintf(stderr, "refused, and the text changed:\n%s\n", sp->diff);
		abort();
	}
	check_diff(text, sp->texts[0], sp->diff);
	check_crlf(text, sp->texts[0]);
	srcpatch__delete(sp);
	for (unsigned int r = 0; r < nr_reqs; r++)
		srcpatch_scan__delete(scans[r]);

	/* the diff on its own, against an edited copy */
	{
		struct strbuf diff = STRBUF_INIT;

		other = edit_text(text, &seed);
		srcpatch__diff(&diff, path, text, other);
		check_diff(text, other, diff.buf ? diff.buf : "");
		strbuf__release(&diff);
		free(other);
	}
	/* the allocation rewrite on one line */
	aligned = srcpatch__align_alloc(&file, data[5] % 64 + 1, 1u << (data[4] & 7), err,
					sizeof(err));
	if (!aligned && !err[0])
		abort();
	free(aligned);
	free(text);
	return 0;
}
