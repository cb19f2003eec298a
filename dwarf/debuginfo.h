/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_DEBUGINFO_H
#define LINEUP_DWARF_DEBUGINFO_H

/*
 * Finding the DWARF for an object: in the object itself, or separately by build-id
 * (/usr/lib/debug/.build-id/xx/yyyy.debug, perf's ~/.debug/.build-id/xx/yyyy/debug),
 * .gnu_debuglink (beside the file, in .debug/, under /usr/lib/debug), and debuginfod when
 * DEBUGINFOD_URLS is set (elfutils' standard search does that).  Internal to dwarf/.
 *
 * Ownership: debuginfo__open returns a Dwfl the caller ends with dwfl_end.
 */
#include <elfutils/libdwfl.h>

struct strbuf;

/*
 * Open @path offline with libdwfl (which applies relocations for ET_REL objects such as .ko),
 * and find its DWARF.  Returns 0 with *dwflp, *modp, *dwp set; -ENOENT (no such file),
 * -EINVAL (not an ELF file, or a corrupt one), -ENODATA (no DWARF anywhere: @err then lists
 * every place looked), or another -errno.  *dwflp is set (to be ended) on -ENODATA too, NULL
 * otherwise.
 */
int debuginfo__open(const char *path, Dwfl **dwflp, Dwfl_Module **modp, Dwarf **dwp,
		    char *err, size_t errlen);

/*
 * The find_debuginfo callback of every Dwfl in lineup: libdwfl's standard search (build-id,
 * .gnu_debuglink, debuginfod) with the files a binary names opened only if they are regular
 * files (a FIFO planted at a debuglink's name would hold a plain open() forever), then perf's
 * ~/.debug build-id cache.
 */
int debuginfo__find(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		    char **debuginfo_file_name);

/* Hex build-id of @mod into @sb (empty when it has none); returns its length in bytes. */
int debuginfo__build_id(Dwfl_Module *mod, struct strbuf *sb);

#endif
