// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A service's counters in an object from `new`, reached through a typed global pointer, as C++
 * programs keep them: `svc::Stats *g_stats = new svc::Stats;`, std::atomic counters, one
 * thread counting the requests and another the bytes served.  The two counters share a line:
 * false sharing between members.  operator new's block has no type of its own: the accesses
 * through svc::Stats (std::atomic's methods, inlined or not) and the global pointer it is
 * stored to say what it is.  The fix (cxx_new_fixed.cc): a line for each counter.
 *   usage: cxx_new ITERATIONS
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

namespace svc {

struct Stats {
	std::atomic<long> requests{0};
	std::atomic<long> bytes{0};
};

} // namespace svc

svc::Stats *g_stats = new svc::Stats;

static void *count_requests(void *arg)
{
	long n = reinterpret_cast<long>(arg);

	for (long i = 0; i < n; i++)
		g_stats->requests.fetch_add(1, std::memory_order_relaxed);
	return nullptr;
}

static void *count_bytes(void *arg)
{
	long n = reinterpret_cast<long>(arg);

	for (long i = 0; i < n; i++)
		g_stats->bytes += 64 + (i & 7);	/* the request's size */
	return nullptr;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 100000;
	pthread_t a, b;

	if (n < 1)
		return 2;
	pthread_create(&a, nullptr, count_requests, reinterpret_cast<void *>(n));
	pthread_create(&b, nullptr, count_bytes, reinterpret_cast<void *>(n));
	pthread_join(a, nullptr);
	pthread_join(b, nullptr);
	std::printf("%ld requests, %ld bytes\n", g_stats->requests.load(), g_stats->bytes.load());
	delete g_stats;
	return 0;
}
