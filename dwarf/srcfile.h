/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_SRCFILE_H
#define LINEUP_DWARF_SRCFILE_H

/*
 * Source file names from a unit's line table, as binutils (addr2line, so perf) names them.
 * Two things libdw leaves to its caller: a relative name ("./x.h": clang's include directory
 * "." of the compiler's working directory) is joined to the unit's DW_AT_comp_dir, not left to
 * be read from wherever lineup runs; and file 0 is the unit's primary source file from DWARF 5
 * on, where clang's DW_AT_decl_file names the main .c file so (dwarf_decl_file refuses 0,
 * which meant "no file" before DWARF 5).  Internal to dwarf/.
 *
 * Names are libdw's strings (valid while its Dwarf is open) or @sb's buffer, which the caller
 * owns and releases.
 */
#include <elfutils/libdw.h>

struct strbuf;

/*
 * The unit holding @die's @attr (DW_AT_decl_file, DW_AT_call_file: through DW_AT_abstract_origin
 * and DW_AT_specification, whose index counts in the unit they are in) and the index.
 * Returns 0, or 1 when @die has no such attribute.
 */
int srcfile__index(Dwarf_Die *die, unsigned int attr, Dwarf_Die *cudie, Dwarf_Word *idx);

/* File @idx of @cudie's line table, or NULL: none (0 before DWARF 5), or out of range. */
const char *srcfile__name(Dwarf_Die *cudie, Dwarf_Word idx, struct strbuf *sb);

/* The file of @die's @attr: srcfile__index, then srcfile__name; NULL if none. */
const char *srcfile__of(Dwarf_Die *die, unsigned int attr, struct strbuf *sb);

/* @name (a file of @cudie's line table, as libdw gives it) joined to DW_AT_comp_dir. */
const char *srcfile__join(Dwarf_Die *cudie, const char *name, struct strbuf *sb);

#endif
