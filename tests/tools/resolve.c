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
 * Samples come through sampling/session.h (opened by pipeline/recording.h, with its
 * symbolizer), in time order and resolved as perf resolves them.
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
#include "sampling/session.h"
#include "pipeline/recording.h"

struct ctx {
	int c2c;
	int no_srcline;
	int count; /* --count: resolve only, print how many resolved (for timing) */
	struct recording *rec;
	uint64_t nr, nr_sym;
};

static int deliver(void *arg, struct session *s, const struct session_sample *ss)
{
	struct ctx *cx = arg;
	struct addr_loc al = ss->al;
	const struct sample *smp = ss->sample;
	struct symbols_loc loc;
	char sym[512];
	const char *obj, *name;

	(void)s;
	recording__lookup(cx->rec, al.map, al.addr, &loc);
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
		printf("%#" PRIx64 "\t%s\t%s\t%s\n", smp->ip, sym, obj, loc.srcline);
		return 0;
	}
	/* perf script prints dso->name: the path, but "[name]" for a module */
	name = loc.object			 ? loc.object
	       : !al.dso			 ? "[unknown]"
	       : al.dso->kind == DSO_KIND_MODULE ? al.dso->short_name
						 : al.dso->long_name;
	printf(" %16" PRIx64 " %s (%s)\n", smp->ip, loc.sym ? loc.sym : "[unknown]", name);
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
	struct recording_opts o = {0};
	struct ctx cx = {0};
	struct session_tool tool = {.ctx = &cx, .sample = deliver};
	char err[PERF_FILE_ERRMAX];
	struct session *s;
	struct recording *r;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			o.symbols.symfs = argv[++i];
		else if (!strcmp(argv[i], "-k") && i + 1 < argc)
			o.symbols.vmlinux = argv[++i];
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			o.symbols.kallsyms = argv[++i];
		else if (!strcmp(argv[i], "--c2c"))
			cx.c2c = 1;
		else if (!strcmp(argv[i], "--no-srcline"))
			cx.no_srcline = 1;
		else if (!strcmp(argv[i], "--count"))
			cx.count = 1;
		else
			o.path = argv[i];
	}
	if (!o.path) {
		fprintf(stderr, "usage: resolve [--symfs DIR] [-k VMLINUX] [--c2c] FILE\n");
		return 2;
	}
	if (recording__open(&r, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "resolve: %s\n", err);
		return 2;
	}
	cx.rec = r;
	s = r->session;
	rc = session__run(s, &tool);
	if (rc < 0)
		fprintf(stderr, "resolve: %s\n", session__errmsg(s));
	else if (cx.count)
		printf("%" PRIu64 " samples, %" PRIu64 " with a symbol\n", cx.nr, cx.nr_sym);
	recording__close(r);
	return rc < 0 ? 2 : 0;
}
