// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/code.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <linux/bpf.h>

#include "util/file.h"
#include "util/xalloc.h"

struct sym {
	uint64_t start, end;
	char *name;
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
};

/* One ELF file mapped in the watched process. */
struct umap {
	uint64_t start, end, pgoff;
	char *path;
	int fd;
	struct symtab funcs;		/* by file-relative vaddr */
	uint64_t *seg_vaddr, *seg_off, *seg_size;	/* PT_LOAD segments */
	size_t nr_segs;
	bool loaded;
};

struct cached {
	uint64_t key;			/* ip | kernel flag in bit 0 of a separate field */
	bool kernel, used;
	struct access_info info;
};

#define CACHE_SIZE 8192

struct code_reader {
	struct symtab ksyms;
	bool ksyms_nonzero;	/* kallsyms showed addresses (not kptr_restrict's zeros) */
	const char *ksource;
	int kcore_fd;
	Elf *kcore;
	int bpf_map, bpf_prog;
	struct umap *maps;
	size_t nr_maps, maps_cap;
	csh cs;
	bool cs_open;
	struct cached *cache;
};

#define BPF_CHUNK 4096

const char *access_kind__name(enum access_kind k)
{
	switch (k) {
	case ACCESS_LOAD:
		return "load";
	case ACCESS_STORE:
		return "store";
	case ACCESS_RMW:
		return "rmw";
	case ACCESS_LOCKED_RMW:
		return "locked-rmw";
	default:
		return "unknown";
	}
}

int code_reader__new(struct code_reader **out)
{
	struct code_reader *r = xcalloc(1, sizeof(*r));

	r->kcore_fd = r->bpf_map = r->bpf_prog = -1;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &r->cs) == CS_ERR_OK) {
		cs_option(r->cs, CS_OPT_DETAIL, CS_OPT_ON);
		r->cs_open = true;
	}
	r->cache = xcalloc(CACHE_SIZE, sizeof(*r->cache));
	*out = r;
	return 0;
}

static void symtab__free(struct symtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->syms[i].name);
	free(t->syms);
	memset(t, 0, sizeof(*t));
}

void code_reader__delete(struct code_reader *r)
{
	if (!r)
		return;
	symtab__free(&r->ksyms);
	if (r->kcore)
		elf_end(r->kcore);
	if (r->kcore_fd >= 0)
		close(r->kcore_fd);
	if (r->bpf_prog >= 0)
		close(r->bpf_prog);
	if (r->bpf_map >= 0)
		close(r->bpf_map);
	for (size_t i = 0; i < r->nr_maps; i++) {
		struct umap *m = &r->maps[i];

		free(m->path);
		if (m->fd >= 0)
			close(m->fd);
		symtab__free(&m->funcs);
		free(m->seg_vaddr);
		free(m->seg_off);
		free(m->seg_size);
	}
	free(r->maps);
	if (r->cs_open)
		cs_close(&r->cs);
	free(r->cache);
	free(r);
}

static void symtab__add(struct symtab *t, uint64_t start, uint64_t end, const char *name)
{
	t->syms = xgrow(t->syms, &t->cap, t->nr + 1, sizeof(*t->syms));
	t->syms[t->nr].start = start;
	t->syms[t->nr].end = end;
	t->syms[t->nr].name = xstrdup(name);
	t->nr++;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort; a symbol without a size ends where the next one starts. */
static void symtab__finish(struct symtab *t)
{
	/* an empty table has no array: qsort(NULL, 0) is undefined */
	if (t->nr > 1)
		qsort(t->syms, t->nr, sizeof(*t->syms), sym_cmp);
	for (size_t i = 0; i < t->nr; i++) {
		if (t->syms[i].end > t->syms[i].start)
			continue;
		t->syms[i].end = t->syms[i].start + 4096;
		for (size_t k = i + 1; k < t->nr; k++)
			if (t->syms[k].start > t->syms[i].start) {
				t->syms[i].end = t->syms[k].start;
				break;
			}
	}
}

static const struct sym *symtab__find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: first symbol starting after addr; look back for one covering it. */
	while (lo > 0) {
		const struct sym *s = &t->syms[--lo];

		if (addr < s->end)
			return s;
		if (s->start + (1 << 20) < addr)
			break;
	}
	return NULL;
}

/* The BPF program: r1 = ctx (u64 args[2]: address, length <= BPF_CHUNK); copies the bytes
 * into the single array map value and returns bpf_probe_read_kernel's result. */
static int load_bpf_reader(struct code_reader *r, char *err, size_t errlen)
{
	int mfd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lineup_ktext", 4, BPF_CHUNK, 1, NULL);

	if (mfd < 0) {
		snprintf(err, errlen, "cannot create a BPF map to read kernel code: %s",
			 strerror(errno));
		return -errno;
	}
	struct bpf_insn insn[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1 },
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = 10, .off = -4, .imm = 0 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = mfd },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -4 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 0, .off = 6, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 0 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 2, .src_reg = 6, .off = 8 },
		{ .code = BPF_JMP | BPF_JGT | BPF_K, .dst_reg = 2, .off = 3, .imm = BPF_CHUNK },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 3, .src_reg = 6, .off = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_probe_read_kernel },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = -1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int pfd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "lineup_ktext", "GPL", insn,
				sizeof(insn) / sizeof(insn[0]), NULL);

	if (pfd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot load the BPF kernel-code reader: %s", strerror(e));
		close(mfd);
		return -e;
	}
	r->bpf_map = mfd;
	r->bpf_prog = pfd;
	return 0;
}

static int bpf_read(struct code_reader *r, uint64_t addr, size_t len, uint8_t *buf)
{
	uint64_t args[2] = { addr, len };
	uint32_t key = 0;
	LIBBPF_OPTS(bpf_test_run_opts, t, .ctx_in = args, .ctx_size_in = sizeof(args));

	if (bpf_prog_test_run_opts(r->bpf_prog, &t) < 0 || t.retval != 0)
		return -EFAULT;
	return bpf_map_lookup_elem(r->bpf_map, &key, buf) < 0 ? -errno : 0;
}

static int kcore_read(struct code_reader *r, uint64_t addr, uint8_t *buf, size_t len)
{
	size_t n;

	if (elf_getphdrnum(r->kcore, &n))
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(r->kcore, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr + len <= ph.p_vaddr + ph.p_memsz)
			return pread(r->kcore_fd, buf, len, ph.p_offset + addr - ph.p_vaddr) ==
					       (ssize_t)len ? 0 : -EIO;
	}
	return -EFAULT;
}

/* Read [addr, addr + len) of kernel text into buf. */
static int kernel_read(struct code_reader *r, uint64_t addr, uint8_t *buf, size_t len)
{
	if (r->kcore)
		return kcore_read(r, addr, buf, len);
	if (r->bpf_prog < 0)
		return -ENODATA;
	while (len) {
		uint8_t chunk[BPF_CHUNK];
		size_t n = len < BPF_CHUNK ? len : BPF_CHUNK;
		int rc = bpf_read(r, addr, n, chunk);

		if (rc < 0)
			return rc;
		memcpy(buf, chunk, n);
		buf += n;
		addr += n;
		len -= n;
	}
	return 0;
}

int code_reader__read_kernel(struct code_reader *r, uint64_t addr, void *buf, size_t len)
{
	if (!r->ksource)
		return -ENODATA;
	return kernel_read(r, addr, buf, len);
}

void code_reader__add_kernel_symbol(struct code_reader *r, uint64_t addr, const char *name)
{
	if (addr)
		r->ksyms_nonzero = true;
	symtab__add(&r->ksyms, addr, 0, name);
}

int code_reader__add_kernel(struct code_reader *r, char *err, size_t errlen)
{
	if (r->ksource)
		return 0;
	if (!r->ksyms_nonzero) {
		snprintf(err, errlen, "/proc/kallsyms shows no addresses (kernel.kptr_restrict, or "
			 "not root)");
		symtab__free(&r->ksyms);
		return -EACCES;
	}
	symtab__finish(&r->ksyms);

	elf_version(EV_CURRENT);
	r->kcore_fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (r->kcore_fd >= 0) {
		r->kcore = elf_begin(r->kcore_fd, ELF_C_READ, NULL);
		if (r->kcore) {
			r->ksource = "/proc/kcore";
			return 0;
		}
		close(r->kcore_fd);
		r->kcore_fd = -1;
	}
	if (load_bpf_reader(r, err, errlen) == 0) {
		uint8_t probe[BPF_CHUNK];

		/* Prove it works on a known function before trusting it. */
		if (r->ksyms.nr && bpf_read(r, r->ksyms.syms[r->ksyms.nr / 2].start, 16, probe) == 0) {
			r->ksource = "bpf_probe_read_kernel";
			return 0;
		}
		snprintf(err, errlen, "the BPF kernel-code reader cannot read kernel text");
	}
	return -ENODATA;
}

const char *code_reader__kernel_source(const struct code_reader *r)
{
	return r->ksource;
}

int code_reader__add_map(struct code_reader *r, const char *path, uint64_t start, uint64_t end,
			 uint64_t pgoff, char *err, size_t errlen)
{
	struct umap *m;

	r->maps = xgrow(r->maps, &r->maps_cap, r->nr_maps + 1, sizeof(*r->maps));
	m = &r->maps[r->nr_maps++];
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->path = xstrdup(path);
	m->fd = -1;
	return 0;
}

/* Open a mapped ELF once: its function symbols and PT_LOAD segments. */
static int umap__load(struct umap *m)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t nph;

	if (m->loaded)
		return m->fd >= 0 ? 0 : -ENOENT;
	m->loaded = true;
	elf_version(EV_CURRENT);
	m->fd = file__open_regular(m->path);
	if (m->fd < 0)
		return m->fd;
	elf = elf_begin(m->fd, ELF_C_READ, NULL);
	if (!elf)
		return -EINVAL;
	if (!elf_getphdrnum(elf, &nph))
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
				continue;
			m->seg_vaddr = xrealloc(m->seg_vaddr, (m->nr_segs + 1) * 8);
			m->seg_off = xrealloc(m->seg_off, (m->nr_segs + 1) * 8);
			m->seg_size = xrealloc(m->seg_size, (m->nr_segs + 1) * 8);
			m->seg_vaddr[m->nr_segs] = ph.p_vaddr;
			m->seg_off[m->nr_segs] = ph.p_offset;
			m->seg_size[m->nr_segs] = ph.p_filesz;
			m->nr_segs++;
		}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && *name)
				symtab__add(&m->funcs, s.st_value, s.st_value + s.st_size, name);
		}
	}
	elf_end(elf);
	symtab__finish(&m->funcs);
	return 0;
}

static struct umap *find_map(struct code_reader *r, uint64_t ip)
{
	for (size_t i = r->nr_maps; i-- > 0;)
		if (ip >= r->maps[i].start && ip < r->maps[i].end)
			return &r->maps[i];
	return NULL;
}

/* File offset <-> ELF vaddr through the PT_LOAD segments. */
static bool umap__off_to_vaddr(const struct umap *m, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < m->nr_segs; i++)
		if (off >= m->seg_off[i] && off < m->seg_off[i] + m->seg_size[i]) {
			*vaddr = off - m->seg_off[i] + m->seg_vaddr[i];
			return true;
		}
	return false;
}

static bool umap__vaddr_to_off(const struct umap *m, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < m->nr_segs; i++)
		if (vaddr >= m->seg_vaddr[i] && vaddr < m->seg_vaddr[i] + m->seg_size[i]) {
			*off = vaddr - m->seg_vaddr[i] + m->seg_off[i];
			return true;
		}
	return false;
}

/* The function symbol covering a user @ip, with its runtime start. */
static const struct sym *user_func(struct code_reader *r, uint64_t ip, struct umap **mp,
				   uint64_t *rt_start)
{
	struct umap *m = find_map(r, ip);
	uint64_t vaddr;
	const struct sym *s;

	if (!m || umap__load(m) < 0)
		return NULL;
	if (!umap__off_to_vaddr(m, ip - m->start + m->pgoff, &vaddr))
		return NULL;
	s = symtab__find(&m->funcs, vaddr);
	if (!s)
		return NULL;
	*mp = m;
	*rt_start = ip - (vaddr - s->start);
	return s;
}

const char *code_reader__function(struct code_reader *r, uint64_t ip, bool kernel,
				  uint64_t *start)
{
	const struct sym *s;

	if (kernel) {
		s = symtab__find(&r->ksyms, ip);
		if (s && start)
			*start = s->start;
		return s ? s->name : NULL;
	}
	struct umap *m;
	uint64_t rt;

	s = user_func(r, ip, &m, &rt);
	if (s && start)
		*start = rt;
	return s ? s->name : NULL;
}

void code__classify_bytes(const uint8_t *code, size_t len, uint64_t addr, uint64_t ip,
			  struct access_info *out)
{
	csh cs;
	cs_insn *insn;
	const uint8_t *p = code;
	size_t left = len;
	uint64_t a = addr;

	out->kind = ACCESS_UNKNOWN;
	out->why = "no instruction of the function ends at the hit's address";
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		out->why = "capstone cannot decode x86-64";
		return;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	insn = cs_malloc(cs);
	while (a < ip && cs_disasm_iter(cs, &p, &left, &a, insn)) {
		if (insn->address + insn->size != ip)
			continue;
		const cs_x86 *x = &insn->detail->x86;
		bool lock = x->prefix[0] == X86_PREFIX_LOCK, rd = false, wr = false;
		int nmem = 0;

		out->insn_addr = insn->address;
		out->insn_len = insn->size;
		snprintf(out->text, sizeof(out->text), "%s %s", insn->mnemonic, insn->op_str);
		for (int i = 0; i < x->op_count; i++) {
			if (x->operands[i].type != X86_OP_MEM)
				continue;
			nmem++;
			rd |= x->operands[i].access & CS_AC_READ;
			wr |= x->operands[i].access & CS_AC_WRITE;
		}
		/* xchg with memory is locked without the prefix. */
		if (insn->id == X86_INS_XCHG && nmem)
			lock = true;
		/* capstone 4 marks some compares' memory operand written: they only read it. */
		switch (insn->id) {
		case X86_INS_TEST:
		case X86_INS_CMP:
		case X86_INS_BT:
		case X86_INS_PUSH:
		case X86_INS_PREFETCH:
		case X86_INS_PREFETCHT0:
		case X86_INS_PREFETCHT1:
		case X86_INS_PREFETCHT2:
		case X86_INS_PREFETCHNTA:
		case X86_INS_PREFETCHW:
			wr = false;
			rd = nmem > 0;
			break;
		case X86_INS_XADD:
		case X86_INS_CMPXCHG:
		case X86_INS_CMPXCHG8B:
		case X86_INS_CMPXCHG16B:
		case X86_INS_BTS:
		case X86_INS_BTR:
		case X86_INS_BTC:
			if (nmem)
				rd = wr = true;
			break;
		default:
			break;
		}
		if (nmem != 1) {
			out->why = nmem ? "several memory operands (string or stack instruction)" :
					  "the instruction has no memory operand";
			break;
		}
		/* A lock prefix is only valid on read-modify-write instructions (capstone marks
		 * some, like cmpxchg, read-only). */
		if (lock)
			rd = wr = true;
		if (rd && wr)
			out->kind = lock ? ACCESS_LOCKED_RMW : ACCESS_RMW;
		else if (wr)
			out->kind = ACCESS_STORE;
		else if (rd)
			out->kind = ACCESS_LOAD;
		else
			out->why = "capstone gives no access type for the operand";
		if (out->kind != ACCESS_UNKNOWN)
			out->why = NULL;
		break;
	}
	cs_free(insn, 1);
	cs_close(&cs);
}

void code_reader__classify(struct code_reader *r, uint64_t ip, bool kernel,
			   struct access_info *out)
{
	size_t h = (ip * 0x9e3779b97f4a7c15ULL >> 51) % CACHE_SIZE;
	struct cached *c = &r->cache[h];
	uint64_t start = 0, fend;
	const struct sym *s;
	uint8_t *buf;
	size_t len;
	int rc;

	if (c->used && c->key == ip && c->kernel == kernel) {
		*out = c->info;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->kind = ACCESS_UNKNOWN;
	if (kernel) {
		s = symtab__find(&r->ksyms, ip - 1);
		if (!s) {
			out->why = "no kernel symbol covers the address";
			goto done;
		}
		start = s->start;
		fend = s->end;
	} else {
		struct umap *m;

		s = user_func(r, ip - 1, &m, &start);
		if (!s) {
			out->why = "no function symbol in the mapped file covers the address";
			goto done;
		}
		fend = start + (s->end - s->start);
	}
	out->func = s->name;
	if (ip <= start || ip > fend || ip - start > (1 << 20)) {
		out->why = "the address is outside its function";
		goto done;
	}
	/* Decode from the function start up to the hit (plus slack for the last instruction). */
	len = ip - start;
	buf = xmalloc(len + 16);
	if (kernel) {
		rc = kernel_read(r, start, buf, len);
	} else {
		struct umap *m = find_map(r, ip - 1);
		uint64_t vaddr, off;

		rc = -EIO;
		if (m && umap__off_to_vaddr(m, start - m->start + m->pgoff, &vaddr) &&
		    umap__vaddr_to_off(m, vaddr, &off))
			rc = pread(m->fd, buf, len, off) == (ssize_t)len ? 0 : -EIO;
	}
	if (rc < 0) {
		out->why = kernel && !r->ksource ? "no kernel code bytes (no /proc/kcore, no BPF)" :
						   "cannot read the function's code bytes";
		free(buf);
		goto done;
	}
	code__classify_bytes(buf, len, start, ip, out);
	out->func = s->name;
	free(buf);
done:
	if (out->func)
		out->func_off = (out->insn_addr ? out->insn_addr : ip) - start;
	c->used = true;
	c->key = ip;
	c->kernel = kernel;
	c->info = *out;
}

/* The struct/union a variable DIE's type names, through typedefs and qualifiers. */
static void var_type_name(Dwarf_Die *var, char *out, size_t outlen)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;

	out[0] = 0;
	if (!dwarf_attr_integrate(var, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type))
		return;
	for (int depth = 0; depth < 16; depth++) {
		int tag = dwarf_tag(&type);
		const char *name = dwarf_diename(&type);

		if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
		    tag == DW_TAG_class_type) {
			if (name)
				snprintf(out, outlen, "%s %s",
					 tag == DW_TAG_union_type ? "union" : "struct", name);
			return;
		}
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_atomic_type &&
		    tag != DW_TAG_restrict_type)
			return;
		if (!dwarf_attr_integrate(&type, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, &type))
			return;
	}
}

int code__needs_library(const char *path, const char *prefix, char *name, size_t size)
{
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd, found = 0;

	elf_version(EV_CURRENT);
	fd = file__open_regular(path);
	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Shdr sh;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize && !found; i++) {
			const char *n;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
				continue;
			n = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			if (n && !strncmp(n, prefix, strlen(prefix))) {
				snprintf(name, size, "%s", n);
				found = 1;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

int code__find_global(const char *path, const char *name, struct global_var *out, char *err,
		      size_t errlen)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	Elf *elf;
	int fd, found = 0;

	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	fd = file__open_regular(path);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 fd == -EINVAL ? "not a regular file" : strerror(-fd));
		return fd;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh)) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		if (elf)
			elf_end(elf);
		close(fd);
		return -EINVAL;
	}
	out->pie = eh.e_type == ET_DYN;
	while (!found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(data, i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT)
				continue;
			n = elf_strptr(elf, sh.sh_link, s.st_name);
			if (n && !strcmp(n, name)) {
				out->vaddr = s.st_value;
				out->size = s.st_size;
				found = 1;
				break;
			}
		}
	}
	elf_end(elf);
	if (found) {
		Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
		Dwarf_Off off = 0, next;
		size_t hsize;

		while (dw && !out->type[0] &&
		       dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu, child;

			if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
				do {
					const char *n = dwarf_diename(&child);

					if (dwarf_tag(&child) == DW_TAG_variable && n &&
					    !strcmp(n, name)) {
						var_type_name(&child, out->type, sizeof(out->type));
						if (out->type[0])
							break;
					}
				} while (dwarf_siblingof(&child, &child) == 0);
			}
			off = next;
		}
		if (dw)
			dwarf_end(dw);
	}
	close(fd);
	return found ? 0 : 1;
}
