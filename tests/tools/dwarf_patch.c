// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hand-edit one type reference of an object's DWARF, as a hostile or broken compiler could
 * write it: make a DIE's DW_AT_type point at another DIE (or at itself), to test the loaders'
 * handling of type cycles; or its DW_AT_decl_file, as debug info that lost the file.
 *
 *   dwarf_patch IN OUT SPEC=TARGET...
 *   dwarf_patch IN OUT SPEC@decl_file=N...
 * SPEC names a DIE: STRUCT.MEMBER is that member's DIE (of the first struct or union named
 * STRUCT directly under a CU), each '>' after it follows DW_AT_type once; STRUCT alone is the
 * struct's DIE.  TARGET is a DIE named the same way, or '.' for SPEC's DIE itself.  Only a
 * DW_FORM_ref4 reference (gcc's and clang's) in an uncompressed .debug_info is rewritten, and
 * a DW_FORM_data1 file index (0 before DWARF 5: no file).
 * Prints each patched DIE's offset.  Exit 0 done, 1 a DIE or reference not found, 2 bad use.
 */
#include <config.h>

#include <dwarf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <gelf.h>

static Dwarf *dw;

/* The struct/union @name directly under a CU. */
static bool find_struct(const char *name, size_t len, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				const char *n = dwarf_diename(&child);
				int tag = dwarf_tag(&child);

				if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type) && n &&
				    strlen(n) == len && !strncmp(n, name, len)) {
					*out = child;
					return true;
				}
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	return false;
}

static bool resolve(const char *spec, Dwarf_Die *out)
{
	const char *dot = strchr(spec, '.'), *end = spec + strcspn(spec, ">");
	Dwarf_Die s, child;

	if (!find_struct(spec, (size_t)((dot && dot < end ? dot : end) - spec), &s))
		return false;
	*out = s;
	if (dot && dot < end) {
		size_t len = (size_t)(end - dot - 1);
		bool found = false;

		if (dwarf_child(&s, &child) == 0) {
			do {
				const char *n = dwarf_diename(&child);

				if (dwarf_tag(&child) == DW_TAG_member && n && strlen(n) == len &&
				    !strncmp(n, dot + 1, len)) {
					*out = child;
					found = true;
					break;
				}
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		if (!found)
			return false;
	}
	for (const char *p = end; *p == '>'; p++) {
		Dwarf_Attribute a;

		if (!dwarf_attr(out, DW_AT_type, &a) || !dwarf_formref_die(&a, out))
			return false;
	}
	return true;
}

/* @d's DW_AT_decl_file rewritten to @val in @out: 0, or 1 (no DW_FORM_data1 one). */
static int patch_file(Dwarf_Die *d, Elf_Data *info, const GElf_Shdr *info_sh, int out,
		      unsigned char val)
{
	Dwarf_Attribute a;

	if (!dwarf_attr(d, DW_AT_decl_file, &a) || dwarf_whatform(&a) != DW_FORM_data1 || !info ||
	    (const char *)a.valp < (const char *)info->d_buf ||
	    (const char *)a.valp + 1 > (const char *)info->d_buf + info->d_size) {
		fprintf(stderr, "dwarf_patch: no DW_FORM_data1 decl_file in .debug_info\n");
		return 1;
	}
	off_t at = (off_t)(info_sh->sh_offset +
			   (uint64_t)((const char *)a.valp - (const char *)info->d_buf));

	if (pwrite(out, &val, 1, at) != 1) {
		perror("dwarf_patch: write");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	Elf_Scn *scn = NULL;
	Elf_Data *info = NULL;
	GElf_Shdr info_sh = { 0 };
	size_t shstrndx;
	int fd, out;

	if (argc < 4) {
		fprintf(stderr, "usage: dwarf_patch IN OUT SPEC=TARGET...\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	out = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0 && out >= 0) {
		char buf[65536];
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				return 2;
	}
	elf_version(EV_CURRENT);
	dw = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
	if (!dw || out < 0) {
		fprintf(stderr, "dwarf_patch: cannot read %s or write %s\n", argv[1], argv[2]);
		return 2;
	}
	/* the section libdw reads, to turn a pointer into its data into a file offset */
	Elf *elf = dwarf_getelf(dw);

	elf_getshdrstrndx(elf, &shstrndx);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(elf_strptr(elf, shstrndx, sh.sh_name) ?: "", ".debug_info")) {
			info = elf_getdata(scn, NULL);
			info_sh = sh;
		}
	}
	for (int i = 3; i < argc; i++) {
		char *spec = strdup(argv[i]), *eq = strchr(spec, '=');
		Dwarf_Die d, t;
		Dwarf_Attribute a;

		if (!eq) {
			fprintf(stderr, "dwarf_patch: %s: no '='\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		char *at_sign = strstr(spec, "@decl_file");

		if (at_sign) {
			*at_sign = '\0';
			if (!resolve(spec, &d)) {
				fprintf(stderr, "dwarf_patch: %s: no such DIE\n", argv[i]);
				return 1;
			}
			if (patch_file(&d, info, &info_sh, out, (unsigned char)atoi(eq + 1)))
				return 1;
			printf("%s: DIE %#llx decl_file %s\n", argv[i],
			       (unsigned long long)dwarf_dieoffset(&d), eq + 1);
			free(spec);
			continue;
		}
		if (!resolve(spec, &d) || (strcmp(eq + 1, ".") ? !resolve(eq + 1, &t) : !(t = d, 1))) {
			fprintf(stderr, "dwarf_patch: %s: no such DIE\n", argv[i]);
			return 1;
		}
		if (!dwarf_attr(&d, DW_AT_type, &a) || dwarf_whatform(&a) != DW_FORM_ref4 || !info ||
		    (const char *)a.valp < (const char *)info->d_buf ||
		    (const char *)a.valp + 4 > (const char *)info->d_buf + info->d_size) {
			fprintf(stderr, "dwarf_patch: %s: no DW_FORM_ref4 type in .debug_info\n",
				argv[i]);
			return 1;
		}
		uint32_t ref = (uint32_t)(dwarf_dieoffset(&t) -
					  (dwarf_dieoffset(&d) - dwarf_cuoffset(&d)));
		off_t at = (off_t)(info_sh.sh_offset +
				   (uint64_t)((const char *)a.valp - (const char *)info->d_buf));
		unsigned char le[4] = { ref, ref >> 8, ref >> 16, ref >> 24 };

		if (pwrite(out, le, 4, at) != 4) {
			perror("dwarf_patch: write");
			return 2;
		}
		printf("%s: DIE %#llx -> %#llx\n", argv[i], (unsigned long long)dwarf_dieoffset(&d),
		       (unsigned long long)dwarf_dieoffset(&t));
		free(spec);
	}
	dwarf_end(dw);
	close(out);
	close(fd);
	return 0;
}
