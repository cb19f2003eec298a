/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_ABSTAT_H
#define LINEUP_ANALYZER_ABSTAT_H

/*
 * Statistics of an A/B timing (`lineup ab`): the summary of each side's run times, and the
 * ratio A/B (how many times faster B ran) with a distribution-free confidence interval.
 *
 * The ratio is the Hodges-Lehmann estimate of the shift between log(A) and log(B) (the median
 * of all m*n differences log a_i - log b_j), and its interval is Moses' interval from the exact
 * null distribution of the Mann-Whitney statistic (normal approximation past 100 runs in all):
 * valid for any distribution of run times with the same shape on both sides, no seed, no
 * assumption of normality, and one slow outlier moves it by one rank at most.
 *
 * Pure: no I/O, no globals.  Ownership: callers own every array they pass in; the functions
 * allocate scratch memory and free it before they return.
 */

#include <stdbool.h>

/**
 * struct abstat_summary - one side's run times.
 * @n:		runs
 * @median:	median run time
 * @mad:	median absolute deviation from the median, scaled by 1.4826 (a standard deviation
 *		for normal data, unmoved by outliers)
 * @mean, @sd:	mean and standard deviation
 * @min, @max:	extremes
 * @q1, @q3:	quartiles
 * @outliers:	runs outside Tukey's far fences (q1 - 3 IQR, q3 + 3 IQR)
 */
struct abstat_summary {
	unsigned n;
	double median, mad, mean, sd, min, max, q1, q3;
	unsigned outliers;
};

enum abstat_verdict {
	ABSTAT_NOT_SIGNIFICANT, /* the interval contains 1 */
	ABSTAT_BETTER,		/* B faster: the whole interval above 1 */
	ABSTAT_WORSE,		/* B slower: the whole interval below 1 */
};

/**
 * struct abstat_compare - B against A.
 * @ratio:	A/B: > 1 when B ran faster ("B is @ratio times faster")
 * @lo, @hi:	the confidence interval of @ratio
 * @level:	its confidence level (0.95)
 * @exact:	the interval comes from the exact null distribution (else a normal approximation)
 * @too_few:	too few runs for any interval at @level (fewer than 4 on a side at 95%): @lo and
 *		@hi are the extreme ratios
 * @verdict:	enum abstat_verdict
 * @more_runs:	when not significant, about how many more runs on each side would likely settle
 *		it if the difference is the one estimated; 0 when the estimate is too close to 1
 *		for that (the interval is centred on no difference)
 */
struct abstat_compare {
	double ratio, lo, hi, level;
	bool exact, too_few;
	enum abstat_verdict verdict;
	unsigned more_runs;
};

/* Summarize @x[0..n-1] (n >= 1) into @s.  Returns 0, or -EINVAL when n is 0 or a value is not
 * finite. */
int abstat__summarize(const double *x, unsigned n, struct abstat_summary *s);

/*
 * Compare run times @a[0..m-1] (A) and @b[0..n-1] (B), all > 0, at confidence @level (0 <
 * level < 1).  Returns 0, or -EINVAL (fewer than 2 runs on a side, a time <= 0 or not finite, a
 * bad level), or -ENOMEM.
 */
int abstat__compare(const double *a, unsigned m, const double *b, unsigned n, double level,
		    struct abstat_compare *c);

/*
 * The probability that the Mann-Whitney statistic U (pairs with a_i > b_j) is at most @u when
 * both samples come from one continuous distribution; exact.  -1.0 when m + n > 100 (where the
 * normal approximation serves) or out of memory.
 */
double abstat__mann_whitney_cdf(unsigned m, unsigned n, unsigned long u);

#endif
