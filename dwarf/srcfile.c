// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/srcfile.h"

#include <dwarf.h>

#include "util/strbuf.h"

int srcfile__index(Dwarf_Die *die, unsigned int attr, Dwarf_Die *cudie, Dwarf_Word *idx)
{
	Dwarf_Attribute at;

	if (dwarf_formudata(dwarf_attr_integrate(die, attr, &at), idx) != 0)
		return 1;
	/* dwarf_attr_integrate leaves @at.cu at the unit it found the attribute in */
	if (!dwarf_cu_die(at.cu, cudie, NULL, NULL, NULL, NULL, NULL, NULL))
		return 1;
	return 0;
}

const char *srcfile__name(Dwarf_Die *cudie, Dwarf_Word idx, struct strbuf *sb)
{
	Dwarf_Half version = 0;
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_cu_info(cudie->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0)
		return NULL;
	/* before DWARF 5, libdw's entry 0 is a placeholder ("???") for "no file" */
	if (idx == 0 && version < 5)
		return NULL;
	if (dwarf_getsrcfiles(cudie, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	return srcfile__join(cudie, dwarf_filesrc(files, idx, NULL, NULL), sb);
}

const char *srcfile__of(Dwarf_Die *die, unsigned int attr, struct strbuf *sb)
{
	Dwarf_Die cudie;
	Dwarf_Word idx;

	if (srcfile__index(die, attr, &cudie, &idx))
		return NULL;
	return srcfile__name(&cudie, idx, sb);
}

const char *srcfile__join(Dwarf_Die *cudie, const char *name, struct strbuf *sb)
{
	Dwarf_Attribute at;
	const char *dir;

	if (!name || name[0] == '/')
		return name;
	/*
	 * libdw has joined the file's include directory already; binutils' concat_filename
	 * puts the compilation directory before a relative one ("/src/./x.h", kept as it is).
	 */
	dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &at));
	if (!dir || !*dir)
		return name;
	strbuf__reset(sb);
	strbuf__addf(sb, "%s/%s", dir, name);
	return sb->buf;
}
