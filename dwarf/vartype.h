/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_VARTYPE_H
#define LINEUP_DWARF_VARTYPE_H

/*
 * What DWARF says about the data a sample touched, for field attribution:
 *
 *  - vartype__global: the global or static variable an address falls in (found by the ELF
 *    symbol covering it, then the DW_TAG_variable at its address: a function's static, or a
 *    piece of a struct the compiler split into a global per member), with its type;
 *  - vartype__operand: the type of the memory operand of the instruction at a code address,
 *    the way perf's data-type profiling finds it: capstone decodes the instruction, and the
 *    variable or parameter whose location at that PC is the operand's base register
 *    (DW_OP_regN, or DW_OP_bregN K; DW_OP_stack_value) gives a pointer type; its pointee, and
 *    the displacement, are the answer.  Of several candidates (an inlined helper's
 *    `atomic_long_t *v` and the caller's `struct file *f` in the same register) the one with
 *    the largest struct that holds the offset wins.  Where no variable is found, the
 *    instructions before say how the register got its value (a copy, a member's address, a
 *    load from a typed pointer or a spilled one); where none says, and the access lies in
 *    inlined member functions whose `this` has no location (clang -O2 on a pointer into raw
 *    memory), the innermost one's `this` is the pointer, placed in the enclosing ones'
 *    structs (Slot::lock's locked, whose atomic's exchange is inlined in it);
 *  - vartype__alloc_site: the type of a heap block allocated at a call site: the result is
 *    followed from rax through the instructions after the call (register copies, calls that
 *    keep callee-saved registers, as an instrumented program makes) to the variable it is
 *    stored to, a global by a RIP-relative store or a local by its location list; that
 *    pointer's pointee is the type (a struct, or a scalar array named after the variable).
 *
 * Addresses are given as ELF symbol + offset, so the same code serves executables, shared
 * libraries, vmlinux and relocatable .ko files (libdwfl applies a .ko's relocations and gives
 * its sections addresses of its own).  Where one name has several symbols (a static of that
 * name in each of two files), @start tells them apart: where the caller's symbolizer puts
 * the one meant (perf's layout: its file offset); 0 takes the first.
 *
 * Ownership: struct vartype owns every object it opens (one libdwfl session per file, kept
 * until vartype__delete) and every string it returns.  Not thread-safe.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarf/code.h"

struct vartype;

/* Why there is no answer (mapped by the caller onto analyzer/attribution.h's reasons). */
enum vartype_reason {
	VT_OK = 0,
	VT_NO_FILE,		/* the object could not be opened */
	VT_NO_DEBUGINFO,	/* no DWARF for it */
	VT_NO_SYMBOL,		/* no ELF symbol covers the address */
	VT_UNDECODABLE,		/* no instruction, or none with a memory operand */
	VT_NO_VARIABLE,		/* no variable lives in the base register at that PC */
	VT_NOT_STRUCT,		/* the variable is no pointer to a named struct/union */
};

/**
 * struct vartype_answer - one finding.
 * @type:	"struct file"; for a scalar global the C type ("long", "long[8]")
 * @scalar:	@type is no struct/union: the caller names the variable itself
 * @var:	the variable's (or parameter's) name
 * @offset:	how far into the instance the address lies (global: from the variable, or
 *		from the array element for an array of structs; operand: into the pointee);
 *		alloc_site: how far into the block the variable points (new T[n]'s array
 *		after the element count it stores first)
 * @size:	sizeof the instance (an array element for an array of structs)
 * @elem_size:	for a scalar array global, the element size (0 otherwise)
 * @index_scale: operand: the instruction adds an index register times this scale to the
 *		offset (in_flight[rw]), so @offset is where the indexed array starts; 0 otherwise
 * @origin:	"var counters", "var stats[3]", "rdi (f) in lineup_file_get"
 */
struct vartype_answer {
	const char *type;
	bool scalar;
	const char *var;
	int64_t offset;
	uint64_t size;
	uint64_t elem_size;
	uint32_t index_scale;
	const char *origin;
};

struct vartype *vartype__new(void);
void vartype__delete(struct vartype *vt);

/*
 * The variable at @sym+@off of @path (an ELF with DWARF, or whose DWARF libdwfl finds): the
 * one DWARF places at the symbol's address, a function's static too.  Returns 0 with *out,
 * or a positive enum vartype_reason.
 */
int vartype__global(struct vartype *vt, const char *path, const char *sym, uint64_t start,
		    uint64_t off, struct vartype_answer *out);

/* The memory operand's type at the instruction @sym+@off of @path.  0 or a reason. */
int vartype__operand(struct vartype *vt, const char *path, const char *sym, uint64_t start,
		     uint64_t off, struct vartype_answer *out);

/*
 * The function symbol covering offset @off of section @section (".text") of @path: for a
 * kernel module, whose map perf lays out from its .text.  0 with *name and *sym_off, or a
 * reason.
 */
int vartype__section_sym(struct vartype *vt, const char *path, const char *section, uint64_t off,
			 const char **name, uint64_t *sym_off);

/*
 * The instruction of @path that ends at @sym+@off (where a data breakpoint traps, after the
 * access), decoded from @sym's start: 0 with *@start (its offset into @sym) and *@kind (the
 * access its memory operand makes), or a reason (VT_UNDECODABLE: no instruction ends there).
 */
int vartype__insn_ending(struct vartype *vt, const char *path, const char *sym,
			 uint64_t sym_start, uint64_t off, uint64_t *start, enum access_kind *kind);

/*
 * Where @addr, in no mapping the recording has (perf record without -d records none of data),
 * lies in @path's image, mapped with its segment of file offset @pgoff at @map_start: in
 * one of its PT_LOAD segments, as an address of the space dwarf/symbols.h gives the file's
 * symbols in (perf's: the file offset).  0 with *@rel, or VT_NO_SYMBOL.
 */
int vartype__image_rel(struct vartype *vt, const char *path, uint64_t map_start, uint64_t pgoff,
		       uint64_t addr, uint64_t *rel);

/* "file.c:42" for @sym+@off of @path into @buf (the line table's first row); 0 or a reason. */
int vartype__srcline(struct vartype *vt, const char *path, const char *sym, uint64_t start,
		     uint64_t off, char *buf, size_t size);

/*
 * The type of @size bytes allocated by the call at @sym+@off of @path.  0 or a reason; 0 with
 * a NULL type when the variable it is stored to is a void * (@var still names it).
 */
int vartype__alloc_site(struct vartype *vt, const char *path, const char *sym, uint64_t start,
			uint64_t off, uint64_t size, struct vartype_answer *out);

#endif
