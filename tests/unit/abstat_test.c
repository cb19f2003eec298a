// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/abstat: the Mann-Whitney null distribution against known values, the summaries, and
 * the verdict on synthetic run times drawn from a seeded generator: identical commands are never
 * called better (10 seeds) and wrongly significant at about the 5% the level promises (2000
 * seeds), a 20% difference is found with its sign, an interval covers the true ratio.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "analyzer/abstat.h"
#include "tests/unit/check.h"

static uint64_t rng;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

/* A run time: @base with 3% lognormal noise and, one run in twenty, a slow outlier (a
 * neighbour's job), as measured times on a shared machine look. */
static double run_time(double base)
{
	double g = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
	double t = base * exp(0.03 * g);

	if (uniform() < 0.05)
		t += base * 0.5 * uniform();
	return t;
}

static void draw(double *x, unsigned n, double base)
{
	for (unsigned i = 0; i < n; i++)
		x[i] = run_time(base);
}

static bool near(double a, double b, double eps)
{
	return fabs(a - b) <= eps;
}

static void test_null_distribution(void)
{
	/* m = n = 5: 252 arrangements, 1, 1, 2, 3, 5 of them with U = 0..4. */
	CHECK(near(abstat__mann_whitney_cdf(5, 5, 0), 1 / 252.0, 1e-12));
	CHECK(near(abstat__mann_whitney_cdf(5, 5, 2), 4 / 252.0, 1e-12));
	CHECK(near(abstat__mann_whitney_cdf(5, 5, 4), 12 / 252.0, 1e-12));
	CHECK(near(abstat__mann_whitney_cdf(5, 5, 25), 1.0, 1e-12));
	/* Symmetric: P(U <= u) = P(U >= mn - u). */
	CHECK(near(abstat__mann_whitney_cdf(3, 7, 5), 1 - abstat__mann_whitney_cdf(3, 7, 15), 1e-12));
	/* m = 1: U is uniform on 0..n. */
	CHECK(near(abstat__mann_whitney_cdf(1, 9, 3), 0.4, 1e-12));
	/* Large: the tails stay right (m = n = 50: C(100, 50) > 2^53). */
	CHECK(near(abstat__mann_whitney_cdf(50, 50, 0) * 1.00891344545564e29, 1.0, 1e-9));
	CHECK(abstat__mann_whitney_cdf(50, 50, 1250) > 0.5 &&
	      abstat__mann_whitney_cdf(50, 50, 1249) < 0.5);
	CHECK(near(abstat__mann_whitney_cdf(50, 50, 1249), 1 - abstat__mann_whitney_cdf(50, 50, 1250),
		   1e-12));
	CHECK(abstat__mann_whitney_cdf(60, 60, 10) == -1.0);
}

static void test_summary(void)
{
	const double x[] = { 5, 1, 4, 2, 3, 100 };
	struct abstat_summary s;

	CHECK(!abstat__summarize(x, 6, &s));
	CHECK(s.n == 6 && s.min == 1 && s.max == 100);
	CHECK(near(s.median, 3.5, 1e-12));
	CHECK(near(s.q1, 2.25, 1e-12) && near(s.q3, 4.75, 1e-12));
	CHECK(s.outliers == 1);
	CHECK(near(s.mad, 1.4826 * 1.5, 1e-9));
	CHECK(abstat__summarize(x, 0, &s) == -EINVAL);
}

static void test_identical(void)
{
	double a[10], b[10];
	struct abstat_compare c;
	int wrong = 0, better = 0;

	/* The acceptance case: 10 seeds, never a false "better". */
	for (uint64_t seed = 1; seed <= 10; seed++) {
		rng = seed * 0x9e3779b97f4a7c15ULL;
		draw(a, 10, 0.05);
		draw(b, 10, 0.05);
		CHECK(!abstat__compare(a, 10, b, 10, 0.95, &c));
		CHECK(c.verdict != ABSTAT_BETTER);
		CHECK(c.lo <= c.ratio && c.ratio <= c.hi);
		CHECK(c.exact && !c.too_few);
	}
	/* Calibration: wrongly significant about 5% of the time at 95%, no more. */
	for (uint64_t seed = 1; seed <= 2000; seed++) {
		rng = seed * 0x2545f4914f6cdd1dULL;
		draw(a, 10, 0.05);
		draw(b, 10, 0.05);
		CHECK(!abstat__compare(a, 10, b, 10, 0.95, &c));
		wrong += c.verdict != ABSTAT_NOT_SIGNIFICANT;
		better += c.verdict == ABSTAT_BETTER;
	}
	CHECK(wrong <= 2000 * 0.06);
	CHECK(better <= 2000 * 0.035);
}

static void test_twenty_percent(void)
{
	double a[10], b[12];	/* the coverage loop draws 12 of B */
	struct abstat_compare c;
	int covered = 0;

	/* sleep 0.12 (A) against sleep 0.10 (B): B is 1.2 times faster. */
	rng = 42;
	draw(a, 10, 0.12);
	draw(b, 10, 0.10);
	CHECK(!abstat__compare(a, 10, b, 10, 0.95, &c));
	CHECK(c.verdict == ABSTAT_BETTER);
	CHECK(c.ratio > 1.15 && c.ratio < 1.25);
	CHECK(c.lo > 1 && c.lo < 1.2 && c.hi > 1.2);
	/* The other way round: worse, ratio below 1. */
	CHECK(!abstat__compare(b, 10, a, 10, 0.95, &c));
	CHECK(c.verdict == ABSTAT_WORSE && c.ratio < 0.87 && c.hi < 1);
	/* The interval covers the true ratio at least about 95% of the time. */
	for (uint64_t seed = 1; seed <= 1000; seed++) {
		rng = seed * 0x9e3779b97f4a7c15ULL + 7;
		draw(a, 8, 0.11);
		draw(b, 12, 0.10);
		CHECK(!abstat__compare(a, 8, b, 12, 0.95, &c));
		covered += c.lo <= 1.1 && 1.1 <= c.hi;
	}
	CHECK(covered >= 1000 * 0.93);
}

static void test_few_and_bad(void)
{
	const double a[] = { 1.0, 1.1, 1.2 }, b[] = { 2.0, 2.1, 2.2 }, bad[] = { 1.0, -1.0 };
	struct abstat_compare c;
	double big_a[300], big_b[300];

	/* 3 runs each: no 95% interval exists (P(U = 0) = 1/20); said, and not significant. */
	CHECK(!abstat__compare(a, 3, b, 3, 0.95, &c));
	CHECK(c.too_few && c.verdict == ABSTAT_NOT_SIGNIFICANT && c.more_runs >= 1);
	CHECK(abstat__compare(a, 1, b, 3, 0.95, &c) == -EINVAL);
	CHECK(abstat__compare(a, 3, bad, 2, 0.95, &c) == -EINVAL);
	CHECK(abstat__compare(a, 3, b, 3, 1.0, &c) == -EINVAL);
	/* 600 runs: the normal approximation, the same answer as the exact distribution. */
	rng = 99;
	draw(big_a, 300, 0.102);
	draw(big_b, 300, 0.100);
	CHECK(!abstat__compare(big_a, 300, big_b, 300, 0.95, &c));
	CHECK(!c.exact && c.lo < 1.02 && c.hi > 1.02);
	/* A small difference with few runs: not significant, and a count of runs to settle it. */
	rng = 5;
	draw(big_a, 5, 0.104);
	draw(big_b, 5, 0.100);
	CHECK(!abstat__compare(big_a, 5, big_b, 5, 0.95, &c));
	if (c.verdict == ABSTAT_NOT_SIGNIFICANT && fabs(log(c.ratio)) > 0.01)
		CHECK(c.more_runs > 0);
}

int main(void)
{
	test_null_distribution();
	test_summary();
	test_identical();
	test_twenty_percent();
	test_few_and_bad();
	return failures != 0;
}
