// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/debuginfo.h"

#include <errno.h>
#include <inttypes.h>
#include <dlfcn.h>
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

/* The CRC-32 that .gnu_debuglink carries (the zlib/IEEE one) of the whole file @fd. */
static int file_crc32(int fd, uint32_t *out)
{
	static uint32_t table[256];
	unsigned char buf[65536];
	uint32_t crc = 0xffffffffu;
	off_t at = 0;
	ssize_t n;

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	while ((n = pread(fd, buf, sizeof(buf), at)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		for (ssize_t i = 0; i < n; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		at += n;
	}
	*out = crc ^ 0xffffffffu;
	return 0;
}

/* The build-id of the ELF file @fd into @id (at most @max bytes): its length, or 0. */
static size_t elf_build_id(int fd, unsigned char *id, size_t max)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits = NULL;
	ssize_t len = elf ? dwelf_elf_gnu_build_id(elf, &bits) : -1;
	size_t n = len > 0 && (size_t)len <= max ? (size_t)len : 0;

	if (n)
		memcpy(id, bits, n);
	elf_end(elf);
	return n;
}

/*
 * The build-id a .gnu_debugaltlink section of @path names (the dwz file its DWARF shares:
 * a file name, NUL, the build-id): its length, or 0.
 */
static size_t altlink_build_id(const char *path, unsigned char *id, size_t max)
{
	int fd = file__open_regular(path);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0;

	while (elf && !n && !elf_getshdrstrndx(elf, &shstrndx) && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".gnu_debugaltlink") || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		const char *b = d->d_buf, *nul = memchr(b, 0, d->d_size);

		if (nul && (size_t)(b + d->d_size - nul - 1) <= max) {
			n = (size_t)(b + d->d_size - nul - 1);
			memcpy(id, nul + 1, n);
		}
		break;
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return n;
}

/* What a candidate debug file must match (libdwfl's validate). */
struct debug_want {
	unsigned char id[64];	/* the build-id it must have, when id_len */
	size_t id_len;
	bool check_crc;		/* else: its CRC, when the debuglink gave one */
	GElf_Word crc;
	struct stat self;	/* the main file: never taken as its own debuginfo */
	bool have_self;
};

static bool debug_file_matches(int fd, const struct debug_want *w)
{
	unsigned char id[64];
	struct stat st;
	uint32_t crc;

	if (w->have_self && !fstat(fd, &st) && st.st_dev == w->self.st_dev &&
	    st.st_ino == w->self.st_ino)
		return false;
	if (w->id_len)
		return elf_build_id(fd, id, sizeof(id)) == w->id_len && !memcmp(id, w->id, w->id_len);
	return !w->check_crc || (!file_crc32(fd, &crc) && crc == w->crc);
}

/* Open @dir/@sub/@file (parts may be NULL) if it is a regular file that matches @w. */
static int try_debug_file(const char *dir, const char *sub, const char *file,
			  const struct debug_want *w, char **name)
{
	char *p = xasprintf("%s%s%s%s%s", dir ? dir : "", dir ? "/" : "", sub ? sub : "",
			    sub ? "/" : "", file);
	int fd = file__open_regular(p);

	if (fd >= 0 && !debug_file_matches(fd, w)) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		*name = p;
	else
		free(p);
	return fd;
}

/*
 * The path search of libdwfl's dwfl_standard_find_debuginfo for its default path
 * ":.debug:/usr/lib/debug", with lineup's own open: the names come from inside the binary (its
 * .gnu_debuglink, its debug file's .gnu_debugaltlink), and a FIFO planted at one must not hold a
 * plain open() forever.  For the debug file: DIR/LINK, DIR/.debug/LINK (or FILE there without a
 * link), /usr/lib/debug/DIR/LINK and its parents' tails; for a dwz alt file (@alt): DIR/LINK,
 * DIR/.dwz/, DIR/.debug/, /usr/lib/debug/ and its .dwz/.  Validated as libdwfl does.
 */
static int find_in_path(const char *file_name, const char *link, bool alt,
			const struct debug_want *w, char **name)
{
	const char *slash = file_name ? strrchr(file_name, '/') : NULL;
	const char *base = slash ? slash + 1 : file_name;
	char *dir = slash ? xstrndup(file_name, (size_t)(slash - file_name)) : NULL;
	char *own = NULL;
	int fd = -1;

	if (!link) {
		if (!base || alt)
			goto out;
		link = own = xasprintf("%s.debug", base);
	}
	/*
	 * A .gnu_debuglink is a file name (gdb's rule); one with a '/' comes from a crafted
	 * binary that would have us read elsewhere.  (An alt link may be a path: dwz writes
	 * "../../.dwz/NAME"; it must match the build-id it is given.)
	 */
	if (!alt && strchr(link, '/'))
		goto out;
	fd = try_debug_file(dir, NULL, link, w, name);
	if (fd < 0 && alt)
		fd = try_debug_file(dir, ".dwz", strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
				    w, name);
	if (fd < 0)
		fd = try_debug_file(dir, ".debug", link, w, name);
	if (fd < 0 && own)
		fd = try_debug_file(dir, ".debug", base, w, name);
	if (fd < 0 && alt) {
		const char *lb = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;

		fd = try_debug_file("/usr/lib/debug", NULL, lb, w, name);
		if (fd < 0)
			fd = try_debug_file("/usr/lib/debug", ".dwz", lb, w, name);
	}
	/* /usr/lib/debug + the file's absolute directory, then + each tail of it */
	for (const char *sub = dir && dir[0] == '/' && !alt ? dir : NULL; fd < 0 && sub;) {
		sub = strchr(sub, '/');
		if (!sub || !*++sub)
			break;
		fd = try_debug_file("/usr/lib/debug", sub, link, w, name);
		if (fd < 0 && own)
			fd = try_debug_file("/usr/lib/debug", sub, base, w, name);
	}
out:
	free(own);
	free(dir);
	return fd;
}

/*
 * debuginfod, where DEBUGINFOD_URLS is set: its client library loaded as libdwfl loads it
 * (dlopen, so that it is no build dependency), asked for the file of build-id @id.
 */
static int find_by_debuginfod(const unsigned char *id, size_t len, char **name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	void *(*begin)(void);
	int (*find)(void *client, const unsigned char *id, int len, char **path);
	void (*end)(void *client);
	void *lib, *client;
	char *path = NULL;
	int fd = -1;

	if (!urls || !*urls || !len || !(lib = dlopen("libdebuginfod.so.1", RTLD_LAZY)))
		return -1;
	*(void **)&begin = dlsym(lib, "debuginfod_begin");
	*(void **)&find = dlsym(lib, "debuginfod_find_debuginfo");
	*(void **)&end = dlsym(lib, "debuginfod_end");
	if (begin && find && end && (client = begin())) {
		fd = find(client, id, (int)len, &path);
		end(client);
	}
	/* the library stays loaded, as libdwfl keeps it */
	if (fd >= 0) {
		*name = path;
		return fd;
	}
	return -1;
}

/* The .gnu_debuglink name of @mod's main file, or NULL. */
static const char *main_debuglink(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Word crc;

	return elf ? dwelf_elf_gnu_debuglink(elf, &crc) : NULL;
}

/*
 * The search by name, for the debug file or, once that is found, for its dwz alt file (libdwfl
 * asks with the alt link's name then), with the symbolic link's target as a second try.
 */
static int find_by_name(Dwfl_Module *mod, const char *file_name, const char *link, GElf_Word crc,
			char **name)
{
	const char *mlink = main_debuglink(mod), *mainfile = NULL, *debugfile = NULL;
	bool alt = link && (!mlink || strcmp(mlink, link));
	struct debug_want w = { .crc = crc };
	const unsigned char *bits;
	GElf_Addr vaddr;
	int fd, n;

	w.have_self = file_name && !stat(file_name, &w.self);
	if (alt) {
		dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
		w.id_len = altlink_build_id(debugfile ? debugfile : mainfile ? mainfile : "",
					    w.id, sizeof(w.id));
		if (!w.id_len)
			return -1;	/* nothing to check an alt file against: libdwfl takes none */
	} else if ((n = dwfl_module_build_id(mod, &bits, &vaddr)) > 0 &&
		   (size_t)n <= sizeof(w.id)) {
		memcpy(w.id, bits, (size_t)n);
		w.id_len = (size_t)n;
	} else {
		w.check_crc = link && crc;
	}
	fd = find_in_path(file_name, link, alt, &w, name);
	if (fd < 0 && file_name) {
		char *canon = realpath(file_name, NULL);

		if (canon && strcmp(canon, file_name))
			fd = find_in_path(canon, link, alt, &w, name);
		free(canon);
	}
	if (fd < 0 && !alt)
		fd = find_in_home_cache(mod, name);
	if (fd < 0)
		fd = find_by_debuginfod(w.id, w.id_len, name);
	return fd;
}

/*
 * libdwfl's standard search with the search by name done by find_by_name: by build-id first
 * (libdwfl's own, under /usr/lib/debug/.build-id: directories only root writes to), then by
 * name, perf's ~/.debug build-id cache, and debuginfod.
 */
int debuginfo__find(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		    char **debuginfo_file_name)
{
	int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);

	if (fd < 0)
		fd = find_by_name(mod, file_name, debuglink_file, debuglink_crc,
				  debuginfo_file_name);
	return fd;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = debuginfo__find,
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
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *abs;

	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	/*
	 * "./prog" was searched as /usr/lib/debug/CWD/: the places named as absolute paths, the
	 * root as "" (so that no "//" or "/./" appears).
	 */
	abs = *dir ? realpath(dir, NULL) : NULL;
	if (abs) {
		free(dir);
		dir = abs;
	}
	if (!strcmp(dir, "/"))
		*dir = '\0';
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
	if (link && strchr(link, '/'))
		strbuf__addf(sb, "; .gnu_debuglink '%s': a path, not a file name: not followed (debug "
			     "info names no place to read)", link);
	else if (link)
		strbuf__addf(sb, "; .gnu_debuglink '%s': not in %s/, %s/.debug/ nor /usr/lib/debug%s%s/",
			     link, dir, dir, dir[0] == '/' || !*dir ? "" : "/", dir);
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
