// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * array_align__find on hand-made samples: an array of 64-byte elements that starts 16 bytes
 * into a line (align the allocation), an array of 96-byte elements on a line-aligned block
 * (pad the element), a scalar array dealt out in 512-byte blocks and shifted by 16 bytes (one
 * finding for all its boundary lines), a scalar array whose elements the threads take in turn
 * (interleaved, one element or a block of two at a time), and what is no finding: an aligned array, a scalar
 * array's single line, two objects that merely touch.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/array_align.h"
#include "analyzer/fields.h"
#include "util/strbuf.h"
#include "tests/unit/check.h"

#define M(name, off) { name, "long", off, 8, 0, 0, 0, 0, 0, NULL }
static const struct flat_member st64_m[] = {
	M("ops", 0), M("bytes", 8), M("errors", 16), M("retries", 24),
	M("sum", 32), M("min", 40), M("max", 48), M("last", 56),
};
static const struct flat_layout st64 = { "struct st64", 64, 8, st64_m, NULL };
static const struct flat_member st96_m[] = {
	M("a", 0), M("b", 8), M("c", 80), M("d", 88),
};
static const struct flat_layout st96 = { "struct st96", 96, 4, st96_m, NULL };
static const struct flat_member mat_m[] = { { "m", "double[512]", 0, 4096, 8, 0, 0, 0, 0, NULL } };
static const struct flat_layout mat = { "heap m", 4096, 1, mat_m, NULL };

static struct align_object objects[8];
static unsigned int nr_objects;

static int object_at(void *ctx, uint64_t addr, uint64_t time, struct align_object *out)
{
	(void)ctx;
	(void)time;
	for (unsigned int i = 0; i < nr_objects; i++)
		if (addr >= objects[i].base && addr < objects[i].base + objects[i].size) {
			*out = objects[i];
			return 0;
		}
	return 1;
}

static uint64_t now;

/* A store and a HITM load by @cpu at @off into @l's instance at @base (member @m). */
static void touch(struct fields *f, const struct flat_layout *l, uint64_t base, int m,
		  uint64_t off, uint32_t cpu)
{
	struct attr_result r = { .kind = ATTR_ALLOC, .layout = l, .base = base, .member = m };
	struct fields_access a = { .ip = 0x400000 + cpu, .addr = base + off, .cpu = cpu,
				   .tid = 100 + cpu };

	r.offset = off;
	if (l->members[m].elem_size)
		snprintf(r.path, sizeof(r.path), "%s[%" PRIu64 "]", l->members[m].path,
			 (off - l->members[m].offset) / l->members[m].elem_size);
	else
		snprintf(r.path, sizeof(r.path), "%s", l->members[m].path);
	for (int k = 0; k < 3; k++) {
		a.time = ++now;
		a.store = true;
		a.load = a.lcl_hitm = false;
		fields__add(f, &r, &a);
		a.time = ++now;
		a.store = false;
		a.load = a.lcl_hitm = true;
		fields__add(f, &r, &a);
	}
}

static struct array_align *find(struct fields *f)
{
	struct align_objects objs = { object_at, NULL };

	fields__finish(f);
	return array_align__find(f, &objs);
}

static void explain(const struct array_align *a, const struct align_finding *af, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	align_finding__explain(a, af, NULL, NULL, &sb);
	if (!strstr(sb.buf, want)) {
		fprintf(stderr, "no '%s' in:\n%s", want, sb.buf);
		failures++;
	}
	strbuf__release(&sb);
}

/* Four 64-byte elements from 0x10010, each written by its own CPU: 3 lines, 1 finding. */
static void misaligned_base(void)
{
	struct fields *f = fields__new(64);
	struct array_align *a;

	nr_objects = 0;
	objects[nr_objects++] = (struct align_object){ 0x10010, 256, 0x401234, 1 };
	for (uint32_t e = 0; e < 4; e++) {
		touch(f, &st64, 0x10010 + 64 * e, 0, 0, e);		/* head */
		touch(f, &st64, 0x10010 + 64 * e, 7, 56, e);		/* tail */
	}
	a = find(f);
	CHECK(a->nr_findings == 1);
	if (a->nr_findings == 1) {
		const struct align_finding *af = &a->findings[0];

		CHECK(af->elem == &st64 && af->stride == 64 && af->nr_elems == 4);
		CHECK(af->causes == ALIGN_BASE && af->misalign == 16);
		CHECK(af->new_size == 256 && af->nr_lines == 3 && af->obj.site == 0x401234);
		CHECK(array_align__of_line(a, 0x10040) == af);
		CHECK(!array_align__of_line(a, 0x10000));	/* element 0's head: its own */
		explain(a, af, "cause: the array starts 16 bytes into a cache line");
		explain(a, af, "fix: allocate it line-aligned: aligned_alloc(64, 256)");
	}
	array_align__delete(a);
	fields__delete(f);
}

/* Two 96-byte elements on a line-aligned block: pad each to 128 bytes. */
static void small_element(void)
{
	struct fields *f = fields__new(64);
	struct array_align *a;

	nr_objects = 0;
	objects[nr_objects++] = (struct align_object){ 0x20000, 192, 0x401300, 1 };
	touch(f, &st96, 0x20000, 3, 88, 0);
	touch(f, &st96, 0x20060, 0, 0, 1);
	a = find(f);
	CHECK(a->nr_findings == 1);
	if (a->nr_findings == 1) {
		const struct align_finding *af = &a->findings[0];

		CHECK(af->causes == ALIGN_PAD && af->new_stride == 128 && af->new_size == 256);
		explain(a, af, "struct st96 is 96 bytes, no multiple of the 64-byte line");
		explain(a, af, "__attribute__((aligned(64))) on struct st96");
	}
	array_align__delete(a);
	fields__delete(f);
}

/* A scalar array of 8 blocks of 512 bytes from 0x30010, block b written by CPU b % 2. */
static void shifted_blocks(void)
{
	struct fields *f = fields__new(64);
	struct array_align *a;

	nr_objects = 0;
	objects[nr_objects++] = (struct align_object){ 0x30010, 4096, 0x401400, 1 };
	for (uint32_t b = 1; b < 8; b++) {
		touch(f, &mat, 0x30010, 0, 512 * b - 8, (b - 1) % 2);	/* the last of b - 1 */
		touch(f, &mat, 0x30010, 0, 512 * b, b % 2);		/* the first of b */
	}
	a = find(f);
	CHECK(a->nr_findings == 1);
	if (a->nr_findings == 1) {
		const struct align_finding *af = &a->findings[0];

		CHECK(!af->elem && af->causes == ALIGN_BASE && af->nr_lines == 7);
		CHECK(af->nr_boundaries == 7 && af->new_size == 4096);
		explain(a, af, "heap m (4096 bytes at 0x30010): 7 lines");
		explain(a, af, "every boundary between two threads' parts of it falls 16 bytes");
	}
	array_align__delete(a);
	fields__delete(f);
}

/*
 * A scalar array whose elements the threads take in turn: 8-byte element i by CPU i % 4, then
 * blocks of two elements by CPU (i / 2) % 2.  Every line is every thread's: interleaved, never
 * an aligned allocation or whole-line parts, whatever the misalignment.
 */
static void interleaved(void)
{
	for (int blocks = 0; blocks < 2; blocks++) {
		struct fields *f = fields__new(64);
		struct array_align *a;

		nr_objects = 0;
		objects[nr_objects++] = (struct align_object){ 0x70030, 4096, 0x401800, 1 };
		for (uint32_t i = 0; i < 64; i++)
			touch(f, &mat, 0x70030, 0, 8 * i, blocks ? (i / 2) % 2 : i % 4);
		a = find(f);
		CHECK(a->nr_findings == 1);
		if (a->nr_findings == 1) {
			const struct align_finding *af = &a->findings[0];

			CHECK(af->causes == ALIGN_INTERLEAVED && af->stride == 8 && af->nr_elems == 512);
			CHECK(af->threads == (blocks ? 2u : 4u) && af->block == (blocks ? 2u : 1u));
			CHECK(af->nr_lines == 9);
			if (!blocks) {
				CHECK(af->new_stride == 64 && af->new_size == 512 * 64);
				explain(a, af, "each of the 4 threads writes every 4th 8-byte element "
					"(thread t: elements t, t+4, t+8, ...)");
				explain(a, af, "thread t takes the contiguous elements [t*128, "
					"(t+1)*128) of the 512");
				explain(a, af, "pad each element to a line of its own: 64 bytes "
					"instead of 8 (32768 bytes instead of 4096, 8x the memory)");
			} else {
				CHECK(af->new_stride == 64 && af->new_size == 256 * 64);
				explain(a, af, "each of the 2 threads writes every 2nd block of 2 "
					"8-byte elements");
			}
		}
		array_align__delete(a);
		fields__delete(f);
	}
}

/* No finding: an aligned array of 64-byte elements, one line of a scalar array, two objects. */
static void none(void)
{
	struct fields *f = fields__new(64);
	struct array_align *a;

	nr_objects = 0;
	objects[nr_objects++] = (struct align_object){ 0x40000, 128, 0x401500, 1 };
	objects[nr_objects++] = (struct align_object){ 0x50010, 4096, 0x401600, 1 };
	objects[nr_objects++] = (struct align_object){ 0x60000, 32, 0x401700, 1 };
	objects[nr_objects++] = (struct align_object){ 0x60020, 32, 0x401700, 1 };
	touch(f, &st64, 0x40000, 7, 56, 0);
	touch(f, &st64, 0x40040, 0, 0, 1);
	touch(f, &mat, 0x50010, 0, 0, 0);
	touch(f, &mat, 0x50010, 0, 8, 1);
	touch(f, &st64, 0x60000, 1, 8, 0);
	touch(f, &st64, 0x60020, 1, 8, 1);
	a = find(f);
	CHECK(a->nr_findings == 0);
	array_align__delete(a);
	fields__delete(f);
}

int main(void)
{
	misaligned_base();
	interleaved();
	small_element();
	shifted_blocks();
	none();
	return failures != 0;
}
