// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test tool over dwarf/symbols.h, for the oracle tests (tests/symbols/ scripts):
 *
 *   symbolize [--symfs DIR] [-k VMLINUX] [--kallsyms FILE] [--perf] -e FILE [ADDR...]
 *
 * Addresses are in the object's own terms (as objdump and addr2line take them), one per
 * argument or one per line of stdin.  The default output is `addr2line -f -i`'s: for each
 * address, function and FILE:LINE per inline level, innermost first ("??" and "??:0" when
 * there is no line; binutils then prints the ELF symbol's name, and so does this tool).
 * With --perf: "SYMBOL<TAB>SRCLINE" as perf's Symbol and Source:Line columns would show it
 * for a user-space map whose file offsets equal its addresses.  With -k VMLINUX --percpu:
 * "OFFSET NAME VAROFFSET SIZE" (or "OFFSET ?") for each per-CPU offset given.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/symbols.h"

static void one(struct symbols *s, struct symbols_dso *d, uint64_t addr, int perf)
{
	struct symbols_loc loc;
	char buf[512];

	symbols__lookup_objdump(s, d, addr, &loc);
	if (perf) {
		/* perf prints map-relative addresses; the tool's map starts at file offset 0 */
		symbols__format_sym(buf, sizeof(buf), '.', &loc, loc.sym ? loc.sym_start : addr);
		printf("%s\t%s\n", buf, loc.srcline);
		return;
	}
	if (!loc.nr_frames) {
		printf("??\n??:0\n");
		return;
	}
	for (unsigned int i = 0; i < loc.nr_frames; i++) {
		/* addr2line prints the line row's discriminator on every level (it keeps the
		 * variable across bfd_find_inliner_info calls) */
		unsigned int disc = loc.frames[0].discriminator;

		if (loc.frames[i].line && disc)
			printf("%s\n%s:%u (discriminator %u)\n", loc.frames[i].function,
			       loc.frames[i].file, loc.frames[i].line, disc);
		else if (loc.frames[i].line)
			printf("%s\n%s:%u\n", loc.frames[i].function, loc.frames[i].file,
			       loc.frames[i].line);
		else
			printf("%s\n%s:?\n", loc.frames[i].function, loc.frames[i].file);
	}
}

int main(int argc, char **argv)
{
	struct symbols_options o = {0};
	const char *file = NULL;
	int perf = 0, percpu = 0, i;
	struct symbols *s;
	struct symbols_dso *d;
	enum symbols_dso_kind kind = SYMBOLS_DSO_USER;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-e") && i + 1 < argc)
			file = argv[++i];
		else if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			o.symfs = argv[++i];
		else if (!strcmp(argv[i], "-k") && i + 1 < argc)
			o.vmlinux = argv[++i], kind = SYMBOLS_DSO_KERNEL;
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			o.kallsyms = argv[++i], kind = SYMBOLS_DSO_KERNEL;
		else if (!strcmp(argv[i], "--perf"))
			perf = 1;
		else if (!strcmp(argv[i], "--full"))
			o.full_srcline = true;
		else if (!strcmp(argv[i], "--percpu"))
			percpu = 1;
		else
			break;
	}
	if (!file && kind != SYMBOLS_DSO_KERNEL) {
		fprintf(stderr, "usage: symbolize [--symfs DIR] [--perf] -e FILE [ADDR...]\n");
		return 2;
	}
	if (file) {
		/* perf's names are absolute: so are the paths lineup looks under */
		char *abs = realpath(file, NULL);

		if (!abs) {
			perror(file);
			return 2;
		}
		file = abs;
	}
	s = symbols__new(&o);
	d = symbols__dso(s, kind == SYMBOLS_DSO_KERNEL ? "[kernel.kallsyms]" : file, NULL, kind,
			 NULL, 0);
	if (symbols_dso__error(d))
		fprintf(stderr, "symbolize: %s\n", symbols_dso__error(d));
	if (percpu) {
		/* --percpu OFFSET...: the kernel image's per-CPU variable at each offset */
		for (; i < argc; i++) {
			const char *name;
			uint64_t off, size;

			if (symbols__percpu_var(s, d, strtoull(argv[i], NULL, 16), &name, &off,
						&size))
				printf("%s ?\n", argv[i]);
			else
				printf("%s %s %" PRIx64 " %" PRIu64 "\n", argv[i], name, off, size);
		}
	} else if (i < argc) {
		for (; i < argc; i++)
			one(s, d, strtoull(argv[i], NULL, 16), perf);
	} else {
		char line[256];

		while (fgets(line, sizeof(line), stdin))
			one(s, d, strtoull(line, NULL, 16), perf);
	}
	fflush(stdout);
	symbols__delete(s);
	free((char *)file);
	return 0;
}
