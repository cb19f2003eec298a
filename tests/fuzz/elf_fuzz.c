// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the layout loaders: the input is written to a memfd and opened as an
 * ELF object with DWARF (and as BTF), then every struct is built and printed, and a name is
 * looked up.  Any crash, sanitizer report or hang is a bug.  Built by tests/fuzz/elf_run.sh
 * (clang -fsanitize=fuzzer,address,undefined) with small objects as seeds, the type cycles
 * of issue 15 among them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* memfd_create */
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "dwarf/layout.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int print(const struct layout_type *t, void *arg)
{
	struct layout_print_opts o = { .line_size = 64, .addr_size = 8 };
	const struct layout_member *path[8];
	struct strbuf sb = STRBUF_INIT;

	layout__print(t, &o, &sb);
	layout__print_json(t, &o, &sb);
	strbuf__release(&sb);
	for (uint64_t off = 0; off < t->size && off < 4096; off += 8)
		layout__member_at(t, off, path, 8);
	return 0;
}

static void try(const char *path, unsigned int flags)
{
	struct layout_source *src;
	const struct layout_type *t;
	const char *close[3];
	char err[512];

	if (layout_source__open(&src, path, flags, err, sizeof(err)))
		return;
	layout_source__for_each(src, true, print, NULL, err, sizeof(err));
	if (layout_source__find(src, "bits", &t, err, sizeof(err)) == 0)
		print(t, NULL);
	layout_source__closest(src, "bitz", close, 3);
	layout_source__delete(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("elf_fuzz", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		try(path, 0);
		try(path, LAYOUT_BTF);
	}
	close(fd);
	return 0;
}

/*
 * Structure-aware mutations: random bytes almost never make a well-formed type reference
 * point somewhere else, which is what found issue 15's cycles (an array whose element type
 * is itself) by hand.  So a quarter of the mutations rewrite one DWARF reference
 * (DW_FORM_ref1..8, ref_addr: each found through libdw in the input itself) and a quarter one
 * BTF type id (a .BTF section, or raw BTF), to the DIE/type itself, its parent, another
 * referring DIE/type (both then point at each other), or any other; the rest are libFuzzer's
 * byte mutations.
 */
#define MAX_REFS 8192

struct ref {
	size_t at;		/* the value's offset in the input */
	unsigned int width;	/* bytes */
	uint64_t base;		/* what the value is relative to (the CU, 0 for ref_addr) */
	uint64_t die, parent;	/* the referring DIE and its parent (BTF: type ids) */
};

struct refs {
	struct ref r[MAX_REFS];
	size_t n;
	const uint8_t *data;
	size_t size;
	uint64_t cu, die, parent;
	unsigned int addr_width;
};

static int note_ref(Dwarf_Attribute *a, void *arg)
{
	struct refs *rs = arg;
	unsigned int w;

	switch (dwarf_whatform(a)) {
	case DW_FORM_ref1: w = 1; break;
	case DW_FORM_ref2: w = 2; break;
	case DW_FORM_ref4: w = 4; break;
	case DW_FORM_ref8: w = 8; break;
	case DW_FORM_ref_addr: w = rs->addr_width; break;
	default: return DWARF_CB_OK;
	}
	if (rs->n < MAX_REFS && a->valp >= rs->data && a->valp + w <= rs->data + rs->size)
		rs->r[rs->n++] = (struct ref){ .at = (size_t)(a->valp - rs->data), .width = w,
			.base = dwarf_whatform(a) == DW_FORM_ref_addr ? 0 : rs->cu, .die = rs->die,
			.parent = rs->parent };
	return DWARF_CB_OK;
}

/* Every reference of every DIE, depth first (a budget of DIEs: inputs are small). */
static void collect_dwarf_refs(Dwarf *dw, struct refs *rs)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint8_t offsize;
	Dwarf_Half version;
	unsigned int budget = 100000;

	while (dwarf_next_unit(dw, off, &next, &hsize, &version, NULL, NULL, &offsize, NULL,
			       NULL) == 0) {
		Dwarf_Die stack[64], die;
		int depth = 0;

		rs->cu = off;
		rs->addr_width = version < 3 ? 8 : offsize;
		if (!dwarf_offdie(dw, off + hsize, &die))
			break;
		stack[0] = die;
		while (depth >= 0 && budget--) {
			Dwarf_Die child;

			rs->die = dwarf_dieoffset(&stack[depth]);
			rs->parent = depth ? dwarf_dieoffset(&stack[depth - 1]) : rs->die;
			dwarf_getattrs(&stack[depth], note_ref, rs, 0);
			if (depth + 1 < 64 && dwarf_child(&stack[depth], &child) == 0) {
				stack[++depth] = child;
				continue;
			}
			while (depth >= 0 && dwarf_siblingof(&stack[depth], &stack[depth]) != 0)
				depth--;
		}
		off = next;
	}
}

static void put_value(uint8_t *p, unsigned int width, uint64_t v, bool big)
{
	for (unsigned int i = 0; i < width; i++)
		p[big ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Point reference @i at a new target; for a pair, @j at @i's DIE. */
static void retarget(uint8_t *data, const struct refs *rs, unsigned int *seed, bool big)
{
	const struct ref *a = &rs->r[rand_r(seed) % rs->n], *b = &rs->r[rand_r(seed) % rs->n];
	uint64_t target;

	switch (rand_r(seed) % 4) {
	case 0: target = a->die; break;			/* itself */
	case 1: target = a->parent; break;		/* its container */
	case 2:						/* two pointing at each other */
		if (b->die >= b->base)
			put_value(data + b->at, b->width, a->die - b->base, big);
		target = b->die;
		break;
	default: target = b->die; break;		/* anywhere */
	}
	if (target >= a->base)
		put_value(data + a->at, a->width, target - a->base, big);
}

static bool mutate_dwarf(uint8_t *data, size_t size, unsigned int *seed)
{
	static struct refs rs;
	Elf *elf = elf_memory((char *)data, size);
	Dwarf *dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	bool done = false;

	rs.n = 0;
	rs.data = data;
	rs.size = size;
	if (dw) {
		collect_dwarf_refs(dw, &rs);
		dwarf_end(dw);
	}
	if (rs.n) {
		retarget(data, &rs, seed, data[EI_DATA] == ELFDATA2MSB);
		done = true;
	}
	if (elf)
		elf_end(elf);
	return done;
}

/* The .BTF bytes of an ELF input, or the input itself when it is raw BTF. */
static uint8_t *find_btf(uint8_t *data, size_t size, size_t *len)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	uint8_t *found = NULL;

	if (size >= 24 && data[0] == 0x9f && data[1] == 0xeb) {
		*len = size;
		return data;
	}
	elf = elf_memory((char *)data, size);
	if (!elf)
		return NULL;
	if (!elf_getshdrstrndx(elf, &shstrndx))
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
			    sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
				continue;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			if (name && !strcmp(name, ".BTF")) {
				found = data + sh.sh_offset;
				*len = sh.sh_size;
			}
		}
	elf_end(elf);
	return found;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Every type-id field of the BTF types (little-endian BTF, as this machine writes it). */
static void collect_btf_refs(const uint8_t *btf, size_t len, struct refs *rs)
{
	uint32_t hdr_len, type_off, type_len;
	size_t p, end;
	uint64_t id = 1;

	if (len < 24)
		return;
	hdr_len = get32(btf + 4);
	type_off = get32(btf + 8);
	type_len = get32(btf + 12);
	if (hdr_len > len || type_off > len - hdr_len || type_len > len - hdr_len - type_off)
		return;
	p = hdr_len + type_off;
	end = p + type_len;
	while (p + 12 <= end && rs->n + 64 < MAX_REFS) {
		uint32_t info = get32(btf + p + 4), vlen = info & 0xffff, kind = (info >> 24) & 0x1f;
		size_t extra = 0, nfields = 0, stride = 0, field = 0;

		switch (kind) {
		case 1: extra = 4; break;					/* INT */
		case 2: case 8: case 9: case 10: case 11: case 12: case 18:	/* PTR, TYPEDEF,
			VOLATILE, CONST, RESTRICT, FUNC, TYPE_TAG: the type in size_type */
			rs->r[rs->n++] = (struct ref){ .at = p + 8, .width = 4, .die = id };
			break;
		case 3:								/* ARRAY */
			extra = 12;
			rs->r[rs->n++] = (struct ref){ .at = p + 12, .width = 4, .die = id };
			rs->r[rs->n++] = (struct ref){ .at = p + 16, .width = 4, .die = id };
			break;
		case 4: case 5: stride = 12; nfields = vlen; field = 4; break;	/* STRUCT, UNION */
		case 6: stride = 8; nfields = vlen; break;			/* ENUM */
		case 13:							/* FUNC_PROTO */
			rs->r[rs->n++] = (struct ref){ .at = p + 8, .width = 4, .die = id };
			stride = 8; nfields = vlen; field = 4;
			break;
		case 14:							/* VAR */
			extra = 4;
			rs->r[rs->n++] = (struct ref){ .at = p + 8, .width = 4, .die = id };
			break;
		case 15: stride = 12; nfields = vlen; field = 0; break;	/* DATASEC */
		case 17:							/* DECL_TAG */
			extra = 4;
			rs->r[rs->n++] = (struct ref){ .at = p + 8, .width = 4, .die = id };
			break;
		case 19: stride = 12; nfields = vlen; break;			/* ENUM64 */
		default: break;
		}
		extra += stride * nfields;
		if (p + 12 + extra > end)
			break;
		if (stride && (kind == 4 || kind == 5 || kind == 13 || kind == 15))
			for (size_t k = 0; k < nfields && rs->n + 1 < MAX_REFS; k++)
				rs->r[rs->n++] = (struct ref){ .at = p + 12 + k * stride + field,
							       .width = 4, .die = id };
		p += 12 + extra;
		id++;
	}
	for (size_t k = 0; k < rs->n; k++)
		rs->r[k].parent = id;	/* (no parent in BTF: one past the last type) */
}

static bool mutate_btf(uint8_t *data, size_t size, unsigned int *seed)
{
	static struct refs rs;
	size_t len;
	uint8_t *btf = find_btf(data, size, &len);

	rs.n = 0;
	if (!btf)
		return false;
	collect_btf_refs(btf, len, &rs);
	if (!rs.n)
		return false;
	for (size_t k = 0; k < rs.n; k++)
		rs.r[k].at += (size_t)(btf - data);
	retarget(data, &rs, seed, false);
	return true;
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	unsigned int r = seed;

	elf_version(EV_CURRENT);
	switch (rand_r(&r) % 4) {
	case 0:
		if (mutate_dwarf(data, size, &r))
			return size;
		break;
	case 1:
		if (mutate_btf(data, size, &r))
			return size;
		break;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
