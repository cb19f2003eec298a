// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The C++ seed of tests/fuzz/debuginfo_fuzz.c: mangled names (a namespace, a template, an
 * operator), a base class, and member functions inlined on a pointer into raw memory, whose
 * `this` clang -O2 keeps no location for (dwarf/vartype.c's inlined_type).
 *
 *	clang++ -O2 -gdwarf-5 -c debuginfo_seed.cc -o seed-clang++-O2-5.o
 */
#include <atomic>
#include <cstdlib>

namespace seed {

struct flag {
	std::atomic<int> locked{ 0 };
	void set() { locked.exchange(1, std::memory_order_acquire); }
};

struct base {
	long refs;
};

struct slot : base {
	long pad[3];
	flag f;
	void lock() { f.set(); }
	long operator()(long n) const { return refs + n; }
};

template <typename T> __attribute__((noinline)) long touch(T *t, long n)
{
	t->lock();
	t->refs += n;
	return (*t)(n);
}

} // namespace seed

int main(int argc, char **)
{
	void *raw = std::malloc(sizeof(seed::slot) * 4);
	seed::slot *s = static_cast<seed::slot *>(raw) + (argc & 3);
	long r;

	if (!raw)
		return 1;
	s->refs = 0;
	r = seed::touch(s, argc);
	std::free(raw);
	return (int)(r & 1);
}
