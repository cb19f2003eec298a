// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup layout: struct layouts from DWARF or BTF, in pahole's format (so the two can be diffed
 * line by line) or as JSON.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/output.h"
#include "dwarf/layout.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_CLASS = 'C',
	OPT_BTF = 1000,
	OPT_LINE_SIZE,
	OPT_DOUBLE_CL,
	OPT_EXPAND,
	OPT_STDIO,
	OPT_JSON,
};

static const struct cli_option layout_options[] = {
	{ OPT_CLASS, 'C', "class", "NAME[,NAME...]",
	  "show only these structs/unions, 'file' or 'struct file' (repeatable); default: every "
	  "struct" },
	{ OPT_BTF, 0, "btf", "[=FILE]",
	  "read BTF instead of DWARF: FILE, or /sys/kernel/btf/vmlinux of the running kernel" },
	{ OPT_LINE_SIZE, 0, "line-size", "N", "cache-line size in bytes (default 64)" },
	{ OPT_DOUBLE_CL, 0, "double-cl", NULL,
	  "treat adjacent cache-line pairs as one 2*N-byte line (perf c2c --double-cl)" },
	{ OPT_EXPAND, 0, "expand", NULL, "show named nested structs inline too" },
	{ OPT_STDIO, 0, "stdio", NULL, "pahole's text format (the default)" },
	{ OPT_JSON, 0, "json", NULL, "one JSON array of layouts" },
	CLI_OPTION_END
};

struct layout_opts {
	const struct command *cmd;
	char **names;
	int nr_names;
	bool btf;
	const char *btf_file;
	unsigned long long line_size;
	bool double_cl;
	bool expand;
	bool json;
};

/* "struct file" names the struct file as "file" does (as in fields --struct and C). */
static const char *bare_name(const char *name)
{
	static const char *const kw[] = { "struct", "union", "class" };

	while (*name == ' ')
		name++;
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t n = strlen(kw[i]);

		if (!strncmp(name, kw[i], n) && name[n] == ' ') {
			name += n;
			while (*name == ' ')
				name++;
			break;
		}
	}
	return name;
}

static void add_names(struct layout_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		o->names = xrealloc(o->names, (o->nr_names + 1) * sizeof(*o->names));
		o->names[o->nr_names++] = xstrdup(bare_name(tok));
	}
	free(copy);
}

static int layout_option(void *ctx, int id, const char *arg)
{
	struct layout_opts *o = ctx;

	switch (id) {
	case OPT_CLASS:
		add_names(o, arg);
		break;
	case OPT_BTF:
		o->btf = true;
		o->btf_file = arg;
		break;
	case OPT_LINE_SIZE:
		return cli__parse_line_size(o->cmd, arg, &o->line_size);
	case OPT_DOUBLE_CL:
		o->double_cl = true;
		break;
	case OPT_EXPAND:
		o->expand = true;
		break;
	case OPT_STDIO:
		o->json = false;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	}
	return 0;
}

struct printer {
	struct layout_print_opts popts;
	bool json;
	int count;
	struct strbuf sb;
};

static int print_one(const struct layout_type *type, void *arg)
{
	struct printer *p = arg;

	strbuf__reset(&p->sb);
	if (p->json) {
		strbuf__add(&p->sb, p->count ? ",\n" : "\n", p->count ? 2 : 1);
		layout__print_json(type, &p->popts, &p->sb);
	} else {
		layout__print(type, &p->popts, &p->sb);
	}
	fwrite(p->sb.buf, 1, p->sb.len, stdout);
	p->count++;
	return 0;
}

static int report_missing(struct layout_source *src, const char *file, const char *name)
{
	const char *close[5];
	int n = layout_source__closest(src, name, close, 5);

	fprintf(stderr, "lineup layout: no struct or union '%s' in %s", name, file);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "; closest: ", close[i]);
	fputc('\n', stderr);
	return EXIT_NOTHING;
}

static int layout_file(struct layout_opts *o, const char *file, struct printer *p)
{
	struct layout_source *src;
	char err[1024] = "";
	unsigned int flags = (o->btf ? LAYOUT_BTF : 0) | (o->expand ? LAYOUT_EXPAND : 0);
	int ret = layout_source__open(&src, file, flags, err, sizeof(err));
	int rc = EXIT_OK;

	if (ret) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	p->popts.addr_size = layout_source__addr_size(src);
	p->popts.no_forced_align = o->btf || layout_source__is_btf(src);
	if (o->nr_names) {
		for (int i = 0; i < o->nr_names; i++) {
			const struct layout_type *t;

			ret = layout_source__find(src, o->names[i], &t, err, sizeof(err));
			if (ret < 0) {
				cli__error("%s", err);
				rc = EXIT_USAGE;
				break;
			}
			if (ret == 1) {
				const char *where = file ? file : "/sys/kernel/btf/vmlinux";

				if (rc == EXIT_OK)
					rc = report_missing(src, where, o->names[i]);
				else
					report_missing(src, where, o->names[i]);
				continue;
			}
			print_one(t, p);
		}
	} else {
		ret = layout_source__for_each(src, true, print_one, p, err, sizeof(err));
		if (ret < 0) {
			cli__error("%s", err);
			rc = EXIT_USAGE;
		}
	}
	layout_source__delete(src);
	return rc;
}

static int layout_run(const struct command *cmd, int argc, char **argv)
{
	struct layout_opts o = { .cmd = cmd, .line_size = 64 };
	int rc, i = cli__parse(cmd, argc, argv, layout_option, &o, &rc);
	struct printer p = { 0 };

	if (i < 0)
		goto out;
	if (i == argc && !o.btf) {
		rc = cli__usage_error(cmd, "no FILE given (or --btf for the running kernel)");
		goto out;
	}
	if (o.btf && o.btf_file && i < argc) {
		rc = cli__usage_error(cmd, "--btf=FILE and FILE operands are exclusive");
		goto out;
	}
	/* a full dump of a kernel is megabytes of small writes */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	p.json = o.json;
	p.popts.line_size = (unsigned int)o.line_size;
	p.popts.double_cl = o.double_cl;
	p.popts.expand = o.expand;
	if (p.json)
		fputc('[', stdout);
	rc = EXIT_OK;
	if (i == argc) {
		rc = layout_file(&o, o.btf_file, &p);
	} else {
		for (; i < argc; i++) {
			int r = layout_file(&o, argv[i], &p);

			if (r > rc)
				rc = r;
		}
	}
	if (p.json)
		fputs("\n]\n", stdout);
	rc = cli__close_output(stdout, "standard output", rc);
out:
	strbuf__release(&p.sb);
	for (int k = 0; k < o.nr_names; k++)
		free(o.names[k]);
	free(o.names);
	return rc;
}

const struct command cmd_layout = {
	.name = "layout",
	.summary = "show struct layouts with holes and cache lines, as pahole does",
	.usage = "[-C NAME[,NAME...]] [--btf[=FILE] | FILE...] [--line-size N] [--double-cl] "
		 "[--expand] [--stdio | --json]",
	.description = "Print the layout of structs and unions from the DWARF of an ELF file "
		       "(executable, shared library, object, kernel module, vmlinux, or its separate "
		       "debuginfo found by build-id, .gnu_debuglink or debuginfod) or from BTF: "
		       "every member's offset and size, bitfields, holes, padding and cache-line "
		       "boundaries. The text is pahole's format, line for line. Exit status 1 when "
		       "a struct asked for with -C is not there (the closest names are listed), 2 "
		       "when the file has no debug info, is not a valid ELF file, or has a type "
		       "that refers back to itself (named by its DIE offset or BTF type id).",
	.options = layout_options,
	.run = layout_run,
};
