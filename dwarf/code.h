/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_CODE_H
#define LINEUP_DWARF_CODE_H

/*
 * Which instruction made a data access, and what kind of access it was, from the address of
 * the instruction *after* it (where an x86 data breakpoint traps): the function containing
 * that address is decoded from its start with capstone until an instruction ends exactly there.
 *
 * Code bytes come from:
 *  - user programs: the mapped ELF file (path, start, end and file offset of the mapping as
 *    /proc/PID/maps shows them), function starts from its .symtab/.dynsym;
 *  - the kernel: /proc/kcore when it exists, otherwise the running kernel's own text read
 *    through a tiny BPF program (bpf_probe_read_kernel run with BPF_PROG_TEST_RUN, root only):
 *    the bytes that actually execute, alternatives and static keys already patched in;
 *    function starts from /proc/kallsyms.
 *
 * Ownership: a code_reader owns every string it returns (valid until code_reader__delete).
 * Errors: 0 or -errno with a message in the caller's buffer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum access_kind {
	ACCESS_UNKNOWN,
	ACCESS_LOAD,
	ACCESS_STORE,
	ACCESS_RMW,		/* read-modify-write, not locked (add [mem], reg) */
	ACCESS_LOCKED_RMW,	/* lock-prefixed or xchg: an atomic */
};

const char *access_kind__name(enum access_kind k);

/**
 * struct access_info - the instruction behind one breakpoint hit.
 * @kind:	the access its memory operand makes (ACCESS_UNKNOWN with @why when not known)
 * @insn_addr:	address of the instruction (the hit's ip minus its length)
 * @text:	"lock xadd qword ptr [rdi + 0xb0], rsi"
 * @func:	the function's name, @func_off the instruction's offset in it
 * @why:	for ACCESS_UNKNOWN, why ("no code bytes", "no instruction ends at ip", ...)
 */
struct access_info {
	enum access_kind kind;
	uint64_t insn_addr;
	uint8_t insn_len;
	char text[200];
	const char *func;
	uint64_t func_off;
	const char *why;
};

struct code_reader;

int code_reader__new(struct code_reader **out);
void code_reader__delete(struct code_reader *r);

/* A kernel function symbol (from sampling/host.h's kallsyms__for_each), before _add_kernel. */
void code_reader__add_kernel_symbol(struct code_reader *r, uint64_t addr, const char *name);
/*
 * Make kernel addresses decodable with the symbols added: find a source of kernel code bytes.
 * Returns 0, or -errno with the reason (no symbol addresses, no kcore and no BPF).
 */
int code_reader__add_kernel(struct code_reader *r, char *err, size_t errlen);
/*
 * Read @len bytes of kernel memory at @addr (code, or data such as a slab object's words)
 * through the source _add_kernel found: 0, -ENODATA without one, -EFAULT (or -EIO) where
 * nothing is mapped.
 */
int code_reader__read_kernel(struct code_reader *r, uint64_t addr, void *buf, size_t len);
/* How kernel code bytes are read: "/proc/kcore", "bpf_probe_read_kernel", or NULL (none). */
const char *code_reader__kernel_source(const struct code_reader *r);

/* A user mapping of the ELF file @path at [@start, @end) with file offset @pgoff. */
int code_reader__add_map(struct code_reader *r, const char *path, uint64_t start, uint64_t end,
			 uint64_t pgoff, char *err, size_t errlen);

/* Classify the access that trapped with @ip (kernel or user address).  Always fills @out. */
void code_reader__classify(struct code_reader *r, uint64_t ip, bool kernel,
			   struct access_info *out);

/* The function containing @ip ("fput"), its start in *start; NULL when unknown. */
const char *code_reader__function(struct code_reader *r, uint64_t ip, bool kernel,
				  uint64_t *start);

/*
 * Pure: classify the instruction of @code (decoded at address @addr) that ends at @ip, by
 * decoding from the start.  Exposed for tests.
 */
void code__classify_bytes(const uint8_t *code, size_t len, uint64_t addr, uint64_t ip,
			  struct access_info *out);

/**
 * struct global_var - a global variable of an ELF file.
 * @vaddr, @size: from the symbol table (link-time address: add the load bias for a PIE)
 * @pie:	the file is ET_DYN (its addresses move with the load base)
 * @type:	its struct/union type as "struct NAME" (typedefs and qualifiers stripped) from
 *		the DWARF, or "" when there is no debug info or it is not a struct/union
 */
struct global_var {
	uint64_t vaddr, size;
	bool pie;
	char type[128];
};

/*
 * Whether the ELF file @path needs (DT_NEEDED) a library whose name starts with @prefix: 1 (its
 * name in @name), 0 (not, or @path is no ELF file with a dynamic section), -errno.
 */
int code__needs_library(const char *path, const char *prefix, char *name, size_t size);

/* Find global @name in the ELF file @path: 0 found, 1 not found, -errno (message in @err). */
int code__find_global(const char *path, const char *name, struct global_var *out, char *err,
		      size_t errlen);

#endif
