// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/debuginfo.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* A field of @n bytes at @off of the ELF header @eh, in the file's byte order. */
static uint64_t eh_field(const unsigned char *eh, unsigned int off, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)eh[off + i] << (8 * (eh[EI_DATA] == ELFDATA2MSB ? n - 1 - i : i));
	return v;
}

/*
 * A file cut short: the header tables, or a section's bytes, past its end.  libelf then sees
 * no sections at all and the file would seem to have "no .debug_info"; say "truncated" and
 * where.  0, or -EINVAL with the message in @err.
 */
static int check_truncated(int fd, const char *path, const unsigned char *ident, char *err,
			   size_t errlen)
{
	bool is64 = ident[EI_CLASS] == ELFCLASS64;
	unsigned char eh[64];
	uint64_t size, shoff, phoff, shend, phend;
	unsigned int shnum, shentsize, phnum, phentsize;
	unsigned int shstrndx;
	struct stat st;

	if (fstat(fd, &st))
		return 0;
	size = (uint64_t)st.st_size;
	if (pread(fd, eh, is64 ? 64 : 52, 0) != (is64 ? 64 : 52)) {
		snprintf(err, errlen, "%s: truncated: %" PRIu64 " bytes, shorter than the ELF header "
			 "(%d bytes)", path, size, is64 ? 64 : 52);
		return -EINVAL;
	}
	phoff = eh_field(eh, is64 ? 32 : 28, is64 ? 8 : 4);
	shoff = eh_field(eh, is64 ? 40 : 32, is64 ? 8 : 4);
	phentsize = (unsigned int)eh_field(eh, is64 ? 54 : 42, 2);
	phnum = (unsigned int)eh_field(eh, is64 ? 56 : 44, 2);
	shentsize = (unsigned int)eh_field(eh, is64 ? 58 : 46, 2);
	shnum = (unsigned int)eh_field(eh, is64 ? 60 : 48, 2);
	phend = phoff + (uint64_t)phnum * phentsize;
	shend = shoff + (uint64_t)shnum * shentsize;
	if (phnum && (phoff > size || phend > size)) {
		snprintf(err, errlen, "%s: truncated: the program headers (bytes %" PRIu64 " to %"
			 PRIu64 ", e_phoff at byte %d) end past the end of the file (%" PRIu64
			 " bytes)", path, phoff, phend, is64 ? 32 : 28, size);
		return -EINVAL;
	}
	if (shnum && (shoff > size || shend > size)) {
		snprintf(err, errlen, "%s: truncated: the section headers (bytes %" PRIu64 " to %"
			 PRIu64 ", e_shoff at byte %d) end past the end of the file (%" PRIu64
			 " bytes)", path, shoff, shend, is64 ? 40 : 32, size);
		return -EINVAL;
	}
	/* Each section's bytes (libelf refuses the whole file then, without saying which). */
	if (shentsize < (is64 ? 64u : 40u))
		return 0;
	shstrndx = (unsigned int)eh_field(eh, is64 ? 62 : 50, 2);
	for (unsigned int i = 0; i < shnum; i++) {
		unsigned char sh[64];
		uint64_t off, len, str_off = 0, at = shoff + (uint64_t)i * shentsize;
		char name[64] = "?";

		if (pread(fd, sh, is64 ? 64 : 40, (off_t)at) != (is64 ? 64 : 40))
			return 0;
		off = eh_field(sh, is64 ? 24 : 16, is64 ? 8 : 4);
		len = eh_field(sh, is64 ? 32 : 20, is64 ? 8 : 4);
		if (eh_field(sh, 4, 4) == SHT_NOBITS || (off <= size && len <= size - off))
			continue;
		if (shstrndx < shnum) {
			unsigned char str[64];

			if (pread(fd, str, is64 ? 64 : 40,
				  (off_t)(shoff + (uint64_t)shstrndx * shentsize)) == (is64 ? 64 : 40))
				str_off = eh_field(str, is64 ? 24 : 16, is64 ? 8 : 4) +
					  eh_field(sh, 0, 4);
			if (str_off && str_off < size &&
			    pread(fd, name, sizeof(name) - 1, (off_t)str_off) > 0)
				name[strnlen(name, sizeof(name) - 1)] = 0;
		}
		snprintf(err, errlen, "%s: truncated: section %s (bytes %" PRIu64 " to %" PRIu64
			 ", its header at byte %" PRIu64 ") runs past the end of the file (%"
			 PRIu64 " bytes)", path, *name ? name : "?", off, off + len, at, size);
		return -EINVAL;
	}
	return 0;
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
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB) {
		close(fd);
		snprintf(err, errlen, "%s: offset %d: bad ELF data encoding %u", path, EI_DATA,
			 ident[EI_DATA]);
		return -EINVAL;
	}
	if (check_truncated(fd, path, ident, err, errlen)) {
		close(fd);
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
		snprintf(err, errlen, "%s: not a valid ELF file (its header, at byte 0): %s", path,
			 dwfl_errmsg(-1));
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
