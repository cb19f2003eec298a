// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resolve: every sample of a perf.data through sampling/machine.h and dwarf/symbols.h, printed
 * the way `perf script -F ip,sym,dso,srcline` prints it, so tests/symbols/machine.sh can diff
 * the two:
 *
 *	    555555555210 work (/tmp/prog)
 *	  prog.c:12
 *
 *   resolve [--symfs DIR] [-k VMLINUX] [--kallsyms FILE] [--c2c] FILE
 *
 * --c2c prints perf c2c's Symbol, Shared Object and Source:Line cells instead, tab-separated.
 * Records are taken in file order (the files the tests write are in time order).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/symbols.h"
#include "sampling/event.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"

static struct symbols_dso *dso_handle(struct symbols *syms, struct dso *d)
{
	if (!d->priv)
		d->priv = symbols__dso(syms, d->long_name, d->short_name,
				       (enum symbols_dso_kind)d->kind, d->build_id,
				       d->build_id_size);
	return d->priv;
}

int main(int argc, char **argv)
{
	struct symbols_options o = { 0 };
	const char *path = NULL;
	int c2c = 0, rc;
	struct perf_file *pf;
	char err[PERF_FILE_ERRMAX];
	struct record rec;
	struct machine *m;
	struct symbols *syms;
	const struct perf_header_info *h;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			o.symfs = argv[++i];
		else if (!strcmp(argv[i], "-k") && i + 1 < argc)
			o.vmlinux = argv[++i];
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			o.kallsyms = argv[++i];
		else if (!strcmp(argv[i], "--c2c"))
			c2c = 1;
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: resolve [--symfs DIR] [-k VMLINUX] [--c2c] FILE\n");
		return 2;
	}
	if (perf_file__open(&pf, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "resolve: %s\n", err);
		return 2;
	}
	m = machine__new();
	syms = symbols__new(&o);
	h = perf_file__header(pf);
	for (uint32_t i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id *b = &h->build_ids[i];

		machine__set_build_id(m, b->filename, (b->misc & CPUMODE_MASK) == CPUMODE_KERNEL,
				      b->build_id, b->size);
	}
	while ((rc = perf_file__next_record(pf, &rec)) > 0) {
		struct addr_loc al;
		struct symbols_loc loc;
		struct symbols_map sm;
		char sym[512];

		if (rec.type != REC_SAMPLE) {
			machine__process_record(m, &rec);
			continue;
		}
		machine__resolve(m, &rec.sample, &al);
		if (al.map) {
			sm.start = al.map->start;
			sm.pgoff = al.map->pgoff;
			sm.identity = al.map->identity;
			sm.ref_reloc = al.map->ref_reloc;
			sm.ref_reloc_name = al.map->ref_reloc_name;
			symbols__lookup(syms, dso_handle(syms, al.dso), &sm, al.addr, &loc);
		} else {
			symbols__lookup(syms, NULL, NULL, al.addr, &loc);
		}
		if (c2c) {
			symbols__format_sym(sym, sizeof(sym), al.level, &loc, al.addr);
			printf("%s\t%s\t%s\n", sym, al.dso ? al.dso->short_name : "[unknown]",
			       loc.srcline);
			continue;
		}
		printf(" %16" PRIx64 " %s (%s)\n", rec.sample.ip, loc.sym ? loc.sym : "[unknown]",
		       al.dso ? al.dso->long_name : "[unknown]");
		/*
		 * perf script asks for the srcline without the symbol (map__fprintf_srcline), so
		 * where addr2line knows nothing it prints "SHORTNAME[ADDR]", never "SYM+OFF".
		 */
		if (al.map && !loc.nr_frames)
			printf("  %s[%" PRIx64 "]\n", al.dso->short_name, loc.objdump_addr);
		else if (al.map && strcmp(loc.srcline, "??:0"))
			printf("  %s\n", loc.srcline);
	}
	if (rc < 0)
		fprintf(stderr, "resolve: %s\n", perf_file__errmsg(pf));
	perf_file__close(pf);
	symbols__delete(syms);
	machine__delete(m);
	return rc < 0 ? 2 : 0;
}
