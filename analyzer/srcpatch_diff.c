// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unified diff of srcpatch: Myers' O(ND) line diff (the one diff(1) and git use), hunks
 * with three lines of context.  A change too large for the diff's memory bound is written as
 * one block removed and added: still a correct patch.
 */
#include <config.h>

#include "analyzer/srcpatch.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define CONTEXT 3
/* Edit distances beyond this are not searched for (the trace grows with its square). */
#define MAX_D 6000

struct line {
	const char *s;
	size_t len; /* with its '\n' when it has one */
};

struct op {
	char kind; /* ' ', '-', '+' */
	uint32_t a, b; /* line index in old / new */
};

static struct line *split_lines(const char *t, size_t *nr)
{
	size_t n = 0, cap = 0;
	/* never NULL: an empty text's lines are still indexed as a + 0 (UB on NULL) */
	struct line *v = xgrow(NULL, &cap, 1, sizeof(*v));

	while (*t) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) + 1 : strlen(t);

		v = xgrow(v, &cap, n + 1, sizeof(*v));
		v[n++] = (struct line){ t, len };
		t += len;
	}
	*nr = n;
	return v;
}

static bool line_eq(const struct line *x, const struct line *y)
{
	return x->len == y->len && !memcmp(x->s, y->s, x->len);
}

static void push(struct op **ops, size_t *nr, size_t *cap, char kind, size_t a, size_t b)
{
	*ops = xgrow(*ops, cap, *nr + 1, sizeof(**ops));
	(*ops)[(*nr)++] = (struct op){ kind, a, b };
}

/*
 * The shortest edit script of a[0..n) into b[0..m), appended to @ops in reverse (the caller
 * reverses): false when it is longer than MAX_D.
 */
static bool myers(const struct line *a, size_t n, const struct line *b, size_t m, size_t a0,
		  size_t b0, struct op **ops, size_t *nr, size_t *cap)
{
	long max = (long)(n + m), D = -1, off;
	long lim = max < MAX_D ? max : MAX_D;
	long *v = xcalloc(2 * lim + 3, sizeof(*v));
	long **trace = xcalloc(lim + 1, sizeof(*trace));
	long x, y;

	off = lim + 1;
	for (long d = 0; d <= lim && D < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			y = x - k;
			while (x < (long)n && y < (long)m && line_eq(&a[x], &b[y]))
				x++, y++;
			v[off + k] = x;
			if (x >= (long)n && y >= (long)m) {
				D = d;
				break;
			}
		}
		trace[d] = xmalloc((2 * d + 1) * sizeof(long));
		memcpy(trace[d], v + off - d, (2 * d + 1) * sizeof(long));
	}
	if (D >= 0) {
		x = n;
		y = m;
		for (long d = D; d > 0; d--) {
			const long *p = trace[d - 1] + (d - 1); /* p[k] for k in [-(d-1), d-1] */
			long k = x - y, pk, px, py;

			if (k == -d || (k != d && p[k - 1] < p[k + 1]))
				pk = k + 1;
			else
				pk = k - 1;
			px = p[pk];
			py = px - pk;
			while (x > px && y > py) {
				x--, y--;
				push(ops, nr, cap, ' ', a0 + x, b0 + y);
			}
			if (pk == k + 1)
				push(ops, nr, cap, '+', a0 + x, b0 + --y);
			else
				push(ops, nr, cap, '-', a0 + --x, b0 + y);
		}
		while (x > 0 && y > 0) {
			x--, y--;
			push(ops, nr, cap, ' ', a0 + x, b0 + y);
		}
	}
	for (long d = 0; d <= lim; d++)
		free(trace[d]);
	free(trace);
	free(v);
	return D >= 0;
}

static void emit_line(struct strbuf *out, char kind, const struct line *l)
{
	strbuf__add(out, &kind, 1);
	strbuf__add(out, l->s, l->len);
	if (!l->len || l->s[l->len - 1] != '\n')
		strbuf__add(out, "\n\\ No newline at end of file\n", 29);
}

static void emit_hunk(struct strbuf *out, const struct op *ops, size_t from, size_t to,
		      const struct line *a, const struct line *b)
{
	size_t na = 0, nb = 0, sa = ops[from].a, sb = ops[from].b;

	for (size_t i = from; i < to; i++) {
		na += ops[i].kind != '+';
		nb += ops[i].kind != '-';
	}
	strbuf__addf(out, "@@ -%zu,%zu +%zu,%zu @@\n", na ? sa + 1 : sa, na, nb ? sb + 1 : sb, nb);
	for (size_t i = from; i < to; i++)
		emit_line(out, ops[i].kind, ops[i].kind == '+' ? &b[ops[i].b] : &a[ops[i].a]);
}

void srcpatch__diff(struct strbuf *out, const char *path, const char *old, const char *new)
{
	size_t n, m, pre = 0, suf = 0, nr = 0, cap = 0;
	struct line *a, *b;
	struct op *ops = NULL;

	if (!strcmp(old, new))
		return;
	a = split_lines(old, &n);
	b = split_lines(new, &m);
	while (pre < n && pre < m && line_eq(&a[pre], &b[pre]))
		pre++;
	while (suf < n - pre && suf < m - pre && line_eq(&a[n - 1 - suf], &b[m - 1 - suf]))
		suf++;
	/* ops in reverse: the common tail, the middle, the common head */
	for (size_t k = 0; k < suf; k++)
		push(&ops, &nr, &cap, ' ', n - 1 - k, m - 1 - k);
	if (!myers(a + pre, n - pre - suf, b + pre, m - pre - suf, pre, pre, &ops, &nr, &cap)) {
		for (size_t k = m - suf; k-- > pre;)
			push(&ops, &nr, &cap, '+', n - suf, k);
		for (size_t k = n - suf; k-- > pre;)
			push(&ops, &nr, &cap, '-', k, pre);
	}
	for (size_t k = pre; k-- > 0;)
		push(&ops, &nr, &cap, ' ', k, k);
	for (size_t i = 0, j = nr - 1; nr && i < j; i++, j--) {
		struct op t = ops[i];

		ops[i] = ops[j];
		ops[j] = t;
	}
	/* every op's a and b: the old and new line at that point (for '+', a is the next old) */
	{
		size_t ia = 0, ib = 0;

		for (size_t i = 0; i < nr; i++) {
			ops[i].a = ia;
			ops[i].b = ib;
			ia += ops[i].kind != '+';
			ib += ops[i].kind != '-';
		}
	}
	strbuf__addf(out, "--- a/%s\n+++ b/%s\n", path, path);
	for (size_t i = 0; i < nr;) {
		size_t from, last, j;

		while (i < nr && ops[i].kind == ' ')
			i++;
		if (i == nr)
			break;
		from = i > CONTEXT ? i - CONTEXT : 0;
		last = i;
		for (j = i; j < nr; j++) {
			if (ops[j].kind != ' ')
				last = j;
			else if (j - last > 2 * CONTEXT)
				break;
		}
		j = last + 1 + CONTEXT < nr ? last + 1 + CONTEXT : nr;
		emit_hunk(out, ops, from, j, a, b);
		i = j;
	}
	free(ops);
	free(a);
	free(b);
}
