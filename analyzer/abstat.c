// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A/B timing statistics (see abstat.h): summaries, the Hodges-Lehmann ratio and Moses'
 * distribution-free interval.  Reference: Hollander and Wolfe, Nonparametric Statistical
 * Methods, ch. 4 (the two-sample location problem).
 */
#include "analyzer/abstat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Past this many runs in all, the exact distribution of U gives way to the normal one. */
#define EXACT_MAX 100

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The @p quantile of sorted @v[0..n-1], interpolated between ranks (as R's type 7). */
static double quantile(const double *v, unsigned n, double p)
{
	double h = (n - 1) * p;
	unsigned i = (unsigned)h;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - i) * (v[i + 1] - v[i]);
}

int abstat__summarize(const double *x, unsigned n, struct abstat_summary *s)
{
	double *v, sum = 0, ss = 0, iqr;

	if (!n)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	*s = (struct abstat_summary){ .n = n, .min = v[0], .max = v[n - 1] };
	s->median = quantile(v, n, 0.5);
	s->q1 = quantile(v, n, 0.25);
	s->q3 = quantile(v, n, 0.75);
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	iqr = s->q3 - s->q1;
	for (unsigned i = 0; i < n; i++)
		s->outliers += v[i] < s->q1 - 3 * iqr || v[i] > s->q3 + 3 * iqr;
	for (unsigned i = 0; i < n; i++)
		v[i] = fabs(v[i] - s->median);
	qsort(v, n, sizeof(*v), cmp_double);
	s->mad = 1.4826 * quantile(v, n, 0.5);
	free(v);
	return 0;
}

/*
 * The null distribution of U counts, for each u, the arrangements of m A's and n B's with u
 * (A, B) pairs in order: the coefficients of the Gaussian binomial [m+n choose m](q), built by
 * its Pascal rule [a, b] = [a-1, b-1] + q^b [a-1, b], additions only (exact while the counts fit
 * in a double's 53 bits, and within rounding past that), and only up to degree @top: an
 * interval needs the lower tail alone.  Returns P(U = u) for u = 0..top (the caller frees it),
 * or NULL.
 */
static double *mann_whitney_pmf(unsigned m, unsigned n, unsigned long top)
{
	unsigned long w = top + 1;
	double *p, all;

	if (m > n) {
		unsigned t = m;

		m = n;
		n = t;
	}
	if (m + n > EXACT_MAX)
		return NULL;
	p = calloc((m + 1) * w, sizeof(*p)); /* p[b * w + u]: [a, b]'s coefficient of q^u */
	if (!p)
		return NULL;
	p[0] = 1;
	for (unsigned a = 1; a <= m + n; a++)
		for (unsigned b = a < m ? a : m; b >= 1; b--)
			for (unsigned long u = top + 1; u-- > 0;)
				p[b * w + u] = p[(b - 1) * w + u] + (u >= b ? p[b * w + u - b] : 0);
	all = exp(lgamma(m + n + 1.0) - lgamma(m + 1.0) - lgamma(n + 1.0));
	memmove(p, p + (unsigned long)m * w, w * sizeof(*p));
	for (unsigned long u = 0; u < w; u++)
		p[u] /= all;
	return p;
}

double abstat__mann_whitney_cdf(unsigned m, unsigned n, unsigned long u)
{
	unsigned long mn = (unsigned long)m * n;
	bool upper = u >= mn / 2 + 1;
	double *p, below = 0;

	if (m + n > EXACT_MAX)
		return -1.0;
	if (u >= mn)
		return 1.0;
	/* The upper half by symmetry: P(U <= u) = 1 - P(U <= mn - u - 1). */
	if (upper)
		u = mn - u - 1;
	p = mann_whitney_pmf(m, n, u);
	if (!p)
		return -1.0;
	for (unsigned long d = 0; d <= u; d++)
		below += p[d];
	free(p);
	return upper ? 1 - below : below;
}

/* The standard normal quantile of @p (0 < p < 1), by bisection on erfc: a few dozen steps,
 * once per comparison. */
static double normal_quantile(double p)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / sqrt(2)) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The 0-based rank of the interval's lower end among the m*n sorted differences: the largest c
 * with P(U <= c) <= (1 - level) / 2, so that [d(c), d(mn-1-c)] covers the true shift with
 * probability at least @level.  -1 when even c = 0 is too likely (too few runs).
 */
static long lower_rank(unsigned m, unsigned n, double level, bool *exact)
{
	double tail = (1 - level) / 2;
	unsigned long mn = (unsigned long)m * n;

	*exact = false;
	if (m + n <= EXACT_MAX) {
		double *p = mann_whitney_pmf(m, n, mn / 2), below = 0;
		long c = -1;

		if (p) {
			*exact = true;
			while ((unsigned long)(c + 1) < mn / 2 && (below += p[c + 1]) <= tail)
				c++;
			free(p);
			return c;
		}
	}
	{
		double sd = sqrt((double)mn * (m + n + 1) / 12.0);
		double c = floor(mn / 2.0 - 0.5 + normal_quantile(tail) * sd);

		return c < 0 ? -1 : (long)c;
	}
}

static bool all_positive(const double *x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!isfinite(x[i]) || x[i] <= 0)
			return false;
	return true;
}

int abstat__compare(const double *a, unsigned m, const double *b, unsigned n, double level,
		    struct abstat_compare *c)
{
	unsigned long mn = (unsigned long)m * n, k = 0;
	double *d, est, half;
	long lo;

	if (m < 2 || n < 2 || !(level > 0 && level < 1) || !all_positive(a, m) ||
	    !all_positive(b, n))
		return -EINVAL;
	d = malloc(mn * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (unsigned i = 0; i < m; i++)
		for (unsigned j = 0; j < n; j++)
			d[k++] = log(a[i]) - log(b[j]);
	qsort(d, mn, sizeof(*d), cmp_double);
	est = mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
	*c = (struct abstat_compare){ .ratio = exp(est), .level = level };
	lo = lower_rank(m, n, level, &c->exact);
	c->too_few = lo < 0;
	if (lo < 0)
		lo = 0;
	c->lo = exp(d[lo]);
	c->hi = exp(d[mn - 1 - lo]);
	free(d);

	if (!c->too_few && c->lo > 1)
		c->verdict = ABSTAT_BETTER;
	else if (!c->too_few && c->hi < 1)
		c->verdict = ABSTAT_WORSE;
	else
		c->verdict = ABSTAT_NOT_SIGNIFICANT;
	if (c->verdict != ABSTAT_NOT_SIGNIFICANT)
		return 0;
	/*
	 * The interval's width shrinks as 1/sqrt(runs): it would exclude 1 with the estimate
	 * where it is once its half-width is below |estimate| (plus a tenth, for the estimate's
	 * own wobble).  An estimate well inside the interval's middle settles nothing.
	 */
	half = (log(c->hi) - log(c->lo)) / 2;
	if (fabs(est) >= half / 4 && half > 0) {
		double runs = (m > n ? m : n) * pow(1.1 * half / fabs(est), 2);
		double more = ceil(runs) - (m > n ? m : n);

		c->more_runs = more < 1 ? 1 : more > 1e6 ? 1000000 : (unsigned)more;
	}
	if (c->too_few && c->more_runs < 4 - (m < n ? m : n))
		c->more_runs = 4 - (m < n ? m : n);
	return 0;
}
