// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/debuginfo.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>

#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char *debuginfo_path;

int debuginfo__build_id(Dwfl_Module *mod, struct strbuf *sb)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr);

	for (int i = 0; i < n; i++)
		strbuf__addf(sb, "%02x", bits[i]);
	return n > 0 ? n : 0;
}

/* perf's build-id cache: ~/.debug/.build-id/xx/yyyy/debug (and .../elf as a last resort). */
static int find_in_home_cache(Dwfl_Module *mod, char **name)
{
	const char *home = getenv("HOME");
	struct strbuf id = STRBUF_INIT;
	static const char *const leaf[] = { "debug", "elf" };
	int fd = -1;

	if (!home || debuginfo__build_id(mod, &id) < 2)
		goto out;
	for (size_t i = 0; i < sizeof(leaf) / sizeof(leaf[0]) && fd < 0; i++) {
		char *p = xasprintf("%s/.debug/.build-id/%.2s/%s/%s", home, id.buf, id.buf + 2,
				    leaf[i]);

		fd = file__open_regular(p);
		if (fd >= 0)
			*name = p;
		else
			free(p);
	}
out:
	strbuf__release(&id);
	return fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);

	if (fd < 0)
		fd = find_in_home_cache(mod, debuginfo_file_name);
	return fd;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* Every place a separate debuginfo was looked for, for the "no debug info" message. */
static void describe_search(Dwfl_Module *mod, const char *path, struct strbuf *sb)
{
	struct strbuf id = STRBUF_INIT;
	const char *home = getenv("HOME"), *urls = getenv("DEBUGINFOD_URLS");
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Word crc;
	const char *link = elf ? dwelf_elf_gnu_debuglink(elf, &crc) : NULL;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	strbuf__addf(sb, "no DWARF in the file itself (no .debug_info section)");
	if (debuginfo__build_id(mod, &id) > 1) {
		strbuf__addf(sb, "; build-id %s: not in /usr/lib/debug/.build-id/%.2s/%s.debug",
			     id.buf, id.buf, id.buf + 2);
		if (home)
			strbuf__addf(sb, " nor %s/.debug/.build-id/%.2s/%s/debug", home, id.buf,
				     id.buf + 2);
	} else {
		strbuf__addf(sb, "; no build-id note");
	}
	if (link)
		strbuf__addf(sb, "; .gnu_debuglink '%s': not in %s/, %s/.debug/ nor /usr/lib/debug%s%s/",
			     link, dir, dir, dir[0] == '/' ? "" : "/", dir);
	else
		strbuf__addf(sb, "; no .gnu_debuglink");
	if (urls && *urls)
		strbuf__addf(sb, "; debuginfod (DEBUGINFOD_URLS=%s) had nothing", urls);
	else
		strbuf__addf(sb, "; debuginfod not configured (DEBUGINFOD_URLS unset)");
	strbuf__addf(sb, ". Install the -dbg/-dbgsym package, or rebuild with -g");
	free(dir);
	strbuf__release(&id);
}

/* Whether the file itself carries a .debug_info section (then a failure is corruption). */
static bool has_debug_info(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")) &&
		    sh.sh_type != SHT_NOBITS)
			return true;
	}
	return false;
}

int debuginfo__open(const char *path, Dwfl **dwflp, Dwfl_Module **modp, Dwarf **dwp,
		    char *err, size_t errlen)
{
	unsigned char ident[EI_NIDENT];
	Dwarf_Addr bias;
	int fd;

	*dwflp = NULL;
	*modp = NULL;
	*dwp = NULL;
	fd = file__open_regular(path);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 fd == -EINVAL ? "not a regular file" : strerror(-fd));
		return fd;
	}
	ssize_t n = pread(fd, ident, sizeof(ident), 0);

	if (n != (ssize_t)sizeof(ident) || memcmp(ident, ELFMAG, SELFMAG)) {
		close(fd);
		snprintf(err, errlen, "%s: not an ELF file (offset 0: no ELF magic%s)", path,
			 n >= 0 && n < (ssize_t)sizeof(ident) ? ", file shorter than an ELF ident" : "");
		return -EINVAL;
	}
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) {
		close(fd);
		snprintf(err, errlen, "%s: offset %d: bad ELF class %u", path, EI_CLASS,
			 ident[EI_CLASS]);
		return -EINVAL;
	}

	Dwfl *dwfl = dwfl_begin(&offline_callbacks);

	if (!dwfl) {
		close(fd);
		snprintf(err, errlen, "%s: %s", path, dwfl_errmsg(-1));
		return -ENOMEM;
	}
	/* The file checked above, not the name again: libdwfl takes the fd on success. */
	Dwfl_Module *mod = dwfl_report_offline(dwfl, path, path, fd);

	if (!mod) {
		close(fd);
		snprintf(err, errlen, "%s: not a valid ELF file: %s", path, dwfl_errmsg(-1));
		dwfl_end(dwfl);
		return -EINVAL;
	}
	dwfl_report_end(dwfl, NULL, NULL);
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);

	if (!dw) {
		int e = dwfl_errno();
		struct strbuf sb = STRBUF_INIT;

		if (!has_debug_info(mod)) {
			describe_search(mod, path, &sb);
			snprintf(err, errlen, "%s: %s", path, sb.buf);
			strbuf__release(&sb);
			*dwflp = dwfl;
			return -ENODATA;
		}
		snprintf(err, errlen, "%s: cannot read DWARF: %s", path, dwfl_errmsg(e));
		dwfl_end(dwfl);
		return -EINVAL;
	}
	*dwflp = dwfl;
	*modp = mod;
	*dwp = dw;
	return 0;
}
