// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resolve: every sample of a perf.data through sampling/machine.h and dwarf/symbols.h, printed
 * the way `perf script -F ip,sym,dso,srcline` prints it, so tests/symbols/machine.sh can diff
 * the two:
 *
 *	    555555555210 work (/tmp/prog)
 *	  prog.c:12
 *
 *   resolve [--symfs DIR] [-k VMLINUX] [--kallsyms FILE] [--c2c] [--no-srcline] [--count] FILE
 *
 * --c2c prints the ip and perf c2c's Symbol, Shared Object and Source:Line cells instead,
 * tab-separated.
 * Records are delivered in time order, as perf's ordered events deliver them.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/symbols.h"
#include "sampling/event.h"
#include "sampling/machine.h"
#include "sampling/ordered.h"
#include "sampling/perf_file.h"

static struct symbols_dso *dso_handle(struct symbols *syms, struct dso *d)
{
	if (!d->priv)
		d->priv =
		    symbols__dso(syms, d->long_name, d->short_name, (enum symbols_dso_kind)d->kind,
				 d->build_id, d->build_id_size);
	return d->priv;
}

struct ctx {
	struct machine *m;
	struct symbols *syms;
	int c2c;
	int no_srcline;
	int count; /* --count: resolve only, print how many resolved (for timing) */
	uint64_t nr, nr_sym;
};

static int deliver(void *arg, const struct record *rec)
{
	struct ctx *cx = arg;
	struct addr_loc al;
	struct symbols_loc loc;
	struct symbols_map sm;
	char sym[512];
	const char *obj, *name;

	if (rec->type != REC_SAMPLE) {
		machine__process_record(cx->m, rec);
		return 0;
	}
	machine__resolve(cx->m, &rec->sample, &al);
	if (al.map) {
		sm.start = al.map->start;
		sm.pgoff = al.map->pgoff;
		sm.identity = al.map->identity;
		sm.ref_reloc = al.map->ref_reloc;
		sm.ref_reloc_name = al.map->ref_reloc_name;
		symbols__lookup(cx->syms, dso_handle(cx->syms, al.dso), &sm, al.addr, &loc);
	} else {
		symbols__lookup(cx->syms, NULL, NULL, al.addr, &loc);
	}
	if (loc.no_map) {
		/* perf moved its kernel map onto a vmlinux's .text: this address has none */
		al.map = NULL;
		al.dso = NULL;
	}
	if (cx->count) {
		cx->nr++;
		cx->nr_sym += loc.sym != NULL;
		return 0;
	}
	/* a vmlinux section other than .text is an object of its own in perf */
	obj = loc.object ? loc.object : !al.dso ? "[unknown]" : al.dso->short_name;
	if (cx->c2c) {
		symbols__format_sym(sym, sizeof(sym), al.level, &loc, al.addr);
		printf("%#" PRIx64 "\t%s\t%s\t%s\n", rec->sample.ip, sym, obj, loc.srcline);
		return 0;
	}
	/* perf script prints dso->name: the path, but "[name]" for a module */
	name = loc.object			 ? loc.object
	       : !al.dso			 ? "[unknown]"
	       : al.dso->kind == DSO_KIND_MODULE ? al.dso->short_name
						 : al.dso->long_name;
	printf(" %16" PRIx64 " %s (%s)\n", rec->sample.ip, loc.sym ? loc.sym : "[unknown]", name);
	/*
	 * perf script asks for the srcline without the symbol (map__fprintf_srcline), so
	 * where addr2line knows nothing it prints "SHORTNAME[ADDR]", never "SYM+OFF".
	 */
	if (cx->no_srcline)
		return 0;
	if (al.map && !loc.nr_frames)
		printf("  %s[%" PRIx64 "]\n", obj, loc.objdump_addr);
	else if (al.map && strcmp(loc.srcline, "??:0"))
		printf("  %s\n", loc.srcline);
	return 0;
}

int main(int argc, char **argv)
{
	struct symbols_options o = {0};
	const char *path = NULL;
	int c2c = 0, no_srcline = 0, count = 0, rc;
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
		else if (!strcmp(argv[i], "--no-srcline"))
			no_srcline = 1;
		else if (!strcmp(argv[i], "--count"))
			count = 1;
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
	h = perf_file__header(pf);
	o.osrelease = h->osrelease; /* where perf looks for the kernel image */
	syms = symbols__new(&o);
	for (uint32_t i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id *b = &h->build_ids[i];

		machine__set_build_id(m, b->filename, (b->misc & CPUMODE_MASK) == CPUMODE_KERNEL,
				      b->build_id, b->size);
	}
	{
		struct ctx cx = {m, syms, c2c, no_srcline, count, 0, 0};
		struct ordered *q = ordered__new(deliver, &cx);

		while ((rc = perf_file__next_record(pf, &rec)) > 0)
			ordered__push(q, &rec);
		if (rc == 0)
			ordered__flush(q);
		ordered__delete(q);
		if (count)
			printf("%" PRIu64 " samples, %" PRIu64 " with a symbol\n", cx.nr,
			       cx.nr_sym);
	}
	if (rc < 0)
		fprintf(stderr, "resolve: %s\n", perf_file__errmsg(pf));
	perf_file__close(pf);
	symbols__delete(syms);
	machine__delete(m);
	return rc < 0 ? 2 : 0;
}
