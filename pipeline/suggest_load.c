// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A recording read into the suggesters, and the patch of what they decide (suggest_load.h):
 * what `lineup suggest` and the browser's suggestion view share.  Moved here from cli/ so that
 * both front ends run the same pipeline; the words the user reads come out through opts->say.
 */
#include <config.h>

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyzer/array_align.h"
#include "analyzer/fields.h"
#include "analyzer/layout.h"
#include "analyzer/srcpatch.h"
#include "analyzer/suggest.h"
#include "analyzer/suggest_layout.h"
#include "analyzer/suggest_text.h"
#include "pipeline/suggest_load.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A message for the user, through opts->say. */
static void say(struct suggest_load *sl, bool warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct suggest_load *sl, bool warning, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!sl->o->say)
		return;
	va_start(ap, fmt);
	strbuf__vaddf(&sb, fmt, ap);
	va_end(ap);
	sl->o->say(sl->o->say_ctx, warning, sb.buf ? sb.buf : "");
	strbuf__release(&sb);
}

/* The evidence sources' warnings, said. */
static void say_attr_warnings(struct suggest_load *sl)
{
	const char *w;

	while (sl->ld.fa && (w = fields_attr__next_warning(sl->ld.fa)))
		say(sl, false, "%s", w);
}

/* ---- reading the recording ---- */

/* The suggesters' settings, once the recording has said its line size. */
static void targets_init(struct suggest_load *sl)
{
	const struct suggest_load_opts *o = sl->o;
	struct suggest_targets_config cfg = { 0 };

	if (o->pins) {
		cfg.pins = (const char *const *)o->pins->v;
		cfg.nr_pins = (unsigned int)o->pins->nr;
	}
	sl->line_size = sl->ld.fields->line_size;
	sl->max_growth = o->max_growth;
	if (o->max_growth_lines)
		sl->max_growth = o->max_growth_lines * sl->line_size;
	cfg.line_size = sl->line_size;
	cfg.max_growth = sl->max_growth;
	suggest_targets__init(&sl->ts, &cfg);
}

/* Each attributed access, in time order, to its struct's suggester. */
static void on_access(void *ctx, const struct attr_result *res, const struct fields_access *a)
{
	struct suggest_load *sl = ctx;

	if (!sl->line_size)
		targets_init(sl);
	suggest_targets__add(&sl->ts, res, a);
}

int suggest_load__run(struct suggest_load *sl, const struct suggest_load_opts *o, char *err,
		      size_t errlen)
{
	const struct fields_rmw *rmw;
	int rc;

	memset(sl, 0, sizeof(*sl));
	sl->o = o;
	sl->ld.access = on_access;
	sl->ld.ctx = sl;
	rc = fields_load__run(&sl->ld, o->input, o->attr, o->filter, o->line_size, o->double_cl,
			      err, errlen);
	say_attr_warnings(sl);
	if (rc)
		return rc;
	struct align_objects objs = { fields_attr__object_at, sl->ld.fa };

	sl->align = array_align__find(sl->ld.fields, &objs);
	if (!sl->line_size)	/* nothing attributed: the line size all the same */
		targets_init(sl);
	suggest_targets__add_rmw(&sl->ts, rmw, fields_attr__rmw(sl->ld.fa, &rmw));
	return 0;
}

void suggest_load__release(struct suggest_load *sl)
{
	suggest_targets__release(&sl->ts);
	array_align__delete(sl->align);
	fields_load__release(&sl->ld);
	arena__release(&sl->arena);
	sl->align = NULL;
}

static const char *unit_code(void *ctx, unsigned int unit, int write)
{
	struct suggest_load_names *n = ctx;
	uint64_t ip;

	if (!suggest_target__top_ip(n->t, unit, write, &ip))
		return NULL;
	strbuf__reset(&n->sb);
	fields_attr__name_ip(n->sl->ld.fa, ip, &n->sb);
	return n->sb.buf;
}

void suggest_load__names(struct suggest_load *sl, struct suggest_target *t, const char *recording,
			 struct suggest_names *n, struct suggest_load_names *nc)
{
	memset(nc, 0, sizeof(*nc));
	nc->sl = sl;
	nc->t = t;
	*n = (struct suggest_names){
		.code = unit_code, .ctx = nc, .units = t->plan.units, .type = t->flat->name,
		.recording = recording, .line_size = sl->line_size,
	};
}

void suggest_load__print_layout(struct suggest_load *sl, struct suggest_target *t, bool after,
				struct strbuf *out)
{
	struct layout_print_opts popts = { .line_size = sl->line_size, .addr_size = 8 };
	struct suggest_print_ctx pc = {
		.plan = &t->plan, .res = &t->res, .printed = after ? t->built : t->flat->type,
		.after = after, .line_size = sl->line_size,
	};
	struct layout_annotate ann;

	suggest_plan__annotate(&pc, &ann);
	popts.annotate = &ann;
	layout__print(pc.printed, &popts, out);
}

/* ---- the source ---- */

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * Where the debug info's @decl_file is here: as it is, else under --source-root with its
 * leading directories dropped one by one (a tree built in /build/linux-6.1 read in
 * /usr/src/linux).  Returns a new string, or NULL.
 */
static char *find_source(const char *decl_file, const char *root)
{
	if (!decl_file)
		return NULL;
	if (!root && is_file(decl_file))
		return xstrdup(decl_file);
	if (!root)
		return NULL;
	for (const char *p = decl_file; p; p = strchr(p + 1, '/')) {
		const char *rel = *p == '/' ? p + 1 : p;
		char *path = xasprintf("%s/%s", root, rel);

		if (*rel && is_file(path))
			return path;
		free(path);
	}
	return is_file(decl_file) ? xstrdup(decl_file) : NULL;
}

/*
 * @path relative to @root (or the current directory), for the patch's a/ and b/ names; a file
 * outside it by its real path (no "..", no link) without the leading '/'.
 */
static char *patch_name(const char *path, const char *root)
{
	char rbuf[PATH_MAX], pbuf[PATH_MAX];

	if (realpath(path, pbuf)) {
		size_t n = realpath(root ? root : ".", rbuf) ? strlen(rbuf) : 0;

		if (n && !strncmp(pbuf, rbuf, n) && pbuf[n] == '/')
			return xstrdup(pbuf + n + 1);
		path = pbuf;
	}
	while (*path == '/')
		path++;
	return xstrdup(path);
}

/*
 * find_source, and a word when what the debug info names lies outside the tree the user
 * named (--source-root, else the current directory): paths in debug info are untrusted.
 */
static char *find_source_said(struct suggest_load *sl, const char *decl_file)
{
	const char *root = sl->o->source_root;
	char *path = find_source(decl_file, root);
	char rbuf[PATH_MAX], pbuf[PATH_MAX];

	if (!path || !realpath(path, pbuf))
		return path;
	size_t n = realpath(root ? root : ".", rbuf) ? strlen(rbuf) : 0;

	if (!n || strncmp(pbuf, rbuf, n) || (pbuf[n] != '/' && !(n == 1 && *rbuf == '/')))
		say(sl, true, "reading %s outside %s%s%s, from the binary's debug info (%s)", pbuf,
		    root ? "--source-root (" : "the current directory", root ? root : "",
		    root ? ")" : "", decl_file);
	return path;
}

/*
 * A layout without a declaration file (BTF's, or debug info that lost it): look for "struct
 * NAME {" (a typedef's "} NAME;") at the start of a line in the tree's headers (include/
 * first, then everything), as a reader with grep would.
 */
static const char *search_want;	/* "\nstruct NAME {" */
static char *search_found;

static int search_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);
	char err[64], *text;

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 3 || (strcmp(path + n - 2, ".h") && strcmp(path + n - 2, ".c")))
		return 0;
	if (!(text = file__read_text(path, FILE_SOURCE, err, sizeof(err))))
		return 0;
	if (strstr(text, search_want) || !strncmp(text, search_want + 1, strlen(search_want + 1)))
		search_found = xstrdup(path);
	free(text);
	return search_found != NULL;
}

/* The declaration a reader would grep for: "struct NAME {", or "} NAME;" for a typedef's. */
static char *decl_pattern(const struct layout_type *ty)
{
	if (ty->name)
		return xasprintf("%s %s {", layout_kind__name(ty->kind), ty->name);
	return ty->typedef_name ? xasprintf("} %s;", ty->typedef_name) : NULL;
}

static char *find_source_by_name(const char *root, const struct layout_type *ty)
{
	char *decl = decl_pattern(ty), *inc, *want;

	if (!decl)
		return NULL;
	inc = xasprintf("%s/include", root);
	want = xasprintf("\n%s", decl);
	search_want = want;
	search_found = NULL;
	if (nftw(inc, search_one, 32, FTW_PHYS) <= 0 && !search_found)
		nftw(root, search_one, 32, FTW_PHYS);
	free(inc);
	free(want);
	free(decl);
	return search_found;
}

/*
 * Why @t has no source file to patch, with the advice that can find one: a declaration file
 * not here is looked for under --source-root; with none at all, --source-root is searched
 * for the declaration's text.
 */
static void say_no_source(struct suggest_load *sl, const struct suggest_target *t,
			  const struct layout_type *ty)
{
	const char *root = sl->o->source_root;
	const char *obj = fields_attr__type_object(sl->ld.fa, t->flat);
	char *decl = decl_pattern(ty);

	if (ty->decl_file && root)
		say(sl, false, "%s: no source file for the patch: the debug info says %s, not "
		    "found under %s", t->flat->name, ty->decl_file, root);
	else if (ty->decl_file)
		say(sl, false, "%s: no source file for the patch: the debug info says %s, not "
		    "here (--source-root DIR: where that tree is now)", t->flat->name, ty->decl_file);
	else if (root)
		say(sl, false, "%s: no source file for the patch: the debug info of %s names no "
		    "file for it, and no .c or .h file under %s has \"%s\" at the start of a line",
		    t->flat->name, obj ? obj : "its object", root, decl ? decl : "?");
	else
		say(sl, false, "%s: no source file for the patch: the debug info of %s names no "
		    "file for it; --source-root DIR looks for \"%s\" in DIR's .c and .h files",
		    t->flat->name, obj ? obj : "its object", decl ? decl : "?");
	free(decl);
}

/* The tree's convention: cacheline groups where include/linux/cache.h has them (6.8+), the
 * kernel's alignment macro in other kernel sources, GNU C's attribute in user space. */
static enum srcpatch_style tree_style(const char *root, const char *text)
{
	char *cache = root ? xasprintf("%s/include/linux/cache.h", root) : NULL;
	enum srcpatch_style style = SRCPATCH_ATTR_ALIGNED;
	char err[64];
	char *ct = cache && is_file(cache) ? file__read_text(cache, FILE_SOURCE, err, sizeof(err)) :
					     NULL;

	if (ct)
		style = strstr(ct, "__cacheline_group_begin") ? SRCPATCH_KERNEL_GROUPS :
								SRCPATCH_KERNEL_ALIGNED;
	else if (strstr(text, "#include <linux/"))
		style = SRCPATCH_KERNEL_ALIGNED;
	free(ct);
	free(cache);
	return style;
}

static unsigned int patch_file(struct suggest_patch *p, const char *path, const char *root,
			       const char *text)
{
	char *name = patch_name(path, root);

	for (unsigned int i = 0; i < p->nr_files; i++)
		if (!strcmp(p->files[i].path, name)) {
			free(name);
			free((char *)text);
			return i;
		}
	p->files = xrealloc(p->files, (p->nr_files + 1) * sizeof(*p->files));
	p->paths = xrealloc(p->paths, (p->nr_files + 1) * sizeof(*p->paths));
	p->orig = xrealloc(p->orig, (p->nr_files + 1) * sizeof(*p->orig));
	p->files[p->nr_files] = (struct srcpatch_file){ .path = name, .text = text };
	p->paths[p->nr_files] = xstrdup(path);
	p->orig[p->nr_files] = xstrdup(text);
	return p->nr_files++;
}

void suggest_patch__release(struct suggest_patch *p)
{
	for (unsigned int i = 0; i < p->nr_files; i++) {
		free((char *)p->files[i].path);
		free((char *)p->files[i].text);
		free(p->paths[i]);
		free(p->orig[i]);
	}
	for (unsigned int i = 0; i < p->nr_allocs; i++) {
		free(p->allocs[i].where);
		free(p->allocs[i].message);
	}
	free(p->allocs);
	free(p->orig);
	free(p->diff);
	for (unsigned int i = 0; i < p->nr_reqs; i++) {
		free((void *)p->reqs[i].slots);
		free((void *)p->reqs[i].expected);
		free(p->comments[i]);
	}
	free(p->files);
	free(p->paths);
	free(p->reqs);
	free(p->req_target);
	free(p->comments);
	for (unsigned int i = 0; i < p->nr_names; i++)
		free(p->names[i]);
	free(p->names);
	srcpatch__delete(p->sp);
	memset(p, 0, sizeof(*p));
}

/* Whether '|'-joined @names holds @name. */
static bool names_have(const char *names, const char *name)
{
	size_t len = strlen(name);

	for (const char *x = names; x; x = strchr(x, '|') ? strchr(x, '|') + 1 : NULL)
		if (!strncmp(x, name, len) && (x[len] == '\0' || x[len] == '|'))
			return true;
	return false;
}

/*
 * A layout from BTF (the running kernel) and a source tree of another version: the members
 * are matched by name, unit by unit as the source has them (an anonymous union's names
 * differ between versions: it goes where the first of its names that the kernel has went).
 * Units only the kernel has are left out of the order, those only the source has keep their
 * place after the unit they follow there; both are said.  The offsets predicted are the
 * recorded kernel's, not the source's.
 */
static void match_by_name(struct suggest_load *sl, struct suggest_patch *p, struct srcpatch_request *rq, const char *type,
			  struct srcpatch_slot **slots, const char ***expected)
{
	struct srcpatch_scan *sc;
	struct srcpatch_slot *in = *slots, *out;
	unsigned int n = rq->nr_slots, k = 0, nu = 0;
	struct strbuf only_kernel = STRBUF_INIT, only_source = STRBUF_INIT;

	if (srcpatch__scan(&p->files[rq->file], rq->name, rq->decl_line, &sc) != 0) {
		srcpatch_scan__delete(sc);
		return;	/* srcpatch__make says why */
	}
	/* the source's units: their names joined, in declaration order */
	char **unit = xcalloc(sc->nr_members + 1, sizeof(*unit));
	bool *used = xcalloc(sc->nr_members + 1, sizeof(*used));

	for (unsigned int j = 0; j < sc->nr_members; j++) {
		if (j && sc->members[j - 1].unit == sc->members[j].unit) {
			char *joined = xasprintf("%s|%s", unit[nu - 1], sc->members[j].name);

			free(unit[nu - 1]);
			unit[nu - 1] = joined;
			continue;
		}
		unit[nu++] = xstrdup(sc->members[j].name);
	}
	out = xcalloc(n + nu + 1, sizeof(*out));
	for (unsigned int i = 0; i < n; i++) {
		unsigned int u = nu;
		char *names = xstrdup(in[i].member), *save = NULL;

		for (char *x = strtok_r(names, "|", &save); x && u == nu; x = strtok_r(NULL, "|", &save))
			for (u = 0; u < nu && (used[u] || !names_have(unit[u], x)); u++)
				;
		free(names);
		if (u < nu) {
			used[u] = true;
			out[k] = in[i];
			out[k++].member = unit[u];
			continue;
		}
		strbuf__addf(&only_kernel, "%s%s", only_kernel.len ? ", " : "", in[i].member);
		/* a group start moves to the next member kept */
		if (in[i].group && i + 1 < n && !in[i + 1].group) {
			in[i + 1].group = in[i].group;
			in[i + 1].new_line |= in[i].new_line;
		}
	}
	/* the source's own units, after the unit that precedes them in the source */
	for (unsigned int u = 0; u < nu; u++) {
		unsigned int at = 0;

		if (used[u])
			continue;
		strbuf__addf(&only_source, "%s%s", only_source.len ? ", " : "", unit[u]);
		for (int q = (int)u - 1; q >= 0 && !at; q--)
			for (unsigned int w = 0; w < k; w++)
				if (out[w].member == unit[q])
					at = w + 1;
		memmove(out + at + 1, out + at, (k - at) * sizeof(*out));
		out[at] = (struct srcpatch_slot){ .member = unit[u] };
		used[u] = true;
		k++;
	}
	const char **exp = xcalloc(k + 1, sizeof(*exp));

	for (unsigned int i = 0; i < k; i++)
		exp[i] = out[i].member;
	if (only_kernel.len || only_source.len)
		say(sl, true, "%s: the source's members differ from the recorded kernel's (BTF): "
		    "matched by name%s%s%s%s; the offsets above are the recorded kernel's", type,
		    only_kernel.len ? "; only in the kernel: " : "",
		    only_kernel.len ? only_kernel.buf : "",
		    only_source.len ? "; only in the source (kept where they are): " : "",
		    only_source.len ? only_source.buf : "");
	strbuf__release(&only_kernel);
	strbuf__release(&only_source);
	srcpatch_scan__delete(sc);
	free(used);
	free(in);
	free(*expected);
	*slots = out;
	*expected = exp;
	rq->nr_slots = rq->nr_expected = k;
	/* the joined names are the slots' until the patch is made */
	p->names = xrealloc(p->names, (p->nr_names + nu) * sizeof(*p->names));
	memcpy(p->names + p->nr_names, unit, nu * sizeof(*unit));
	p->nr_names += nu;
	free(unit);
}

bool suggest_load__align_selected(const struct suggest_load *sl, const struct align_finding *af)
{
	if (!sl->o->by_name)
		return true;
	for (size_t k = 0; k < sl->ts.nr; k++)
		if (sl->ts.v[k].selected &&
		    (sl->ts.v[k].flat == af->elem ||
		     (af->name && !strcmp(sl->ts.v[k].flat->name, af->name))))
			return true;
	return false;
}

bool suggest_load__align_fixable(const struct align_finding *af)
{
	return !(af->causes & (ALIGN_BLOCKS | ALIGN_INTERLEAVED)) && af->causes;
}

/* The structs whose instances are a misaligned array's elements: padded, or left alone. */
static void array_targets(struct suggest_load *sl)
{
	for (size_t i = 0; i < sl->align->nr_findings; i++) {
		const struct align_finding *af = &sl->align->findings[i];

		if (!af->elem || !suggest_load__align_fixable(af))
			continue;
		for (size_t k = 0; k < sl->ts.nr; k++)
			if (sl->ts.v[k].flat == af->elem && sl->ts.v[k].sg)
				suggest__set_array_causes(sl->ts.v[k].sg, af->causes);
	}
}

static void alloc_fix_add(struct suggest_patch *p, const struct align_finding *af, char *where,
			  char *message)
{
	p->allocs = xrealloc(p->allocs, (p->nr_allocs + 1) * sizeof(*p->allocs));
	p->allocs[p->nr_allocs++] = (struct suggest_alloc_fix){ af, where, message, -1 };
}

/*
 * The allocating calls of the misaligned arrays rewritten to return line-aligned memory,
 * before the structs are laid out (a struct rewrite of the same file starts from that text;
 * the diff of both is made from the file as read).  1 when one could not be.
 */
static int make_alloc_fixes(struct suggest_load *sl, struct suggest_patch *p)
{
	int rc = 0;

	for (size_t i = 0; i < sl->align->nr_findings; i++) {
		const struct align_finding *af = &sl->align->findings[i];
		const char *file;
		unsigned int line;
		char err[PATH_MAX + 128], *path, *text, *fixed;

		if (!(af->causes & ALIGN_BASE) || !suggest_load__align_fixable(af) || !suggest_load__align_selected(sl, af))
			continue;
		rc = 1;	/* until it is done */
		if (!af->obj.site || fields_attr__source_line(sl->ld.fa, af->obj.site, &file, &line)) {
			alloc_fix_add(p, af, NULL, xstrdup("the debug info gives no source line for "
							   "the allocating call"));
			continue;
		}
		char *where = xasprintf("%s:%u", file, line);

		if (af->first) {
			alloc_fix_add(p, af, where, xasprintf("the array starts %" PRIu64 " bytes "
							      "into its allocation: align it by hand",
							      af->first));
			continue;
		}
		if (!(path = find_source_said(sl, file))) {
			alloc_fix_add(p, af, where, xasprintf("%s not found%s%s", file,
							      sl->o->source_root ? " under " : "",
							      sl->o->source_root ? sl->o->source_root : ""));
			continue;
		}
		if (!(text = file__read_text(path, FILE_SOURCE, err, sizeof(err)))) {
			alloc_fix_add(p, af, where, xstrdup(err));
			free(path);
			continue;
		}
		unsigned int f = patch_file(p, path, sl->o->source_root, text);

		free(path);
		fixed = srcpatch__align_alloc(&p->files[f], line, sl->line_size, err, sizeof(err));
		if (!fixed) {
			alloc_fix_add(p, af, where, xstrdup(err));
			continue;
		}
		free((char *)p->files[f].text);
		p->files[f].text = fixed;
		alloc_fix_add(p, af, where, NULL);
		p->allocs[p->nr_allocs - 1].file = (int)f;
		rc = 0;
	}
	return rc;
}

const char *suggest_patch__text(const struct suggest_patch *p, unsigned int f)
{
	return p->sp && f < p->sp->nr_texts ? p->sp->texts[f] : p->files[f].text;
}

/* The one diff: each file as read against its final text. */
static void patch_diff(struct suggest_patch *p)
{
	struct strbuf sb = STRBUF_INIT;

	for (unsigned int i = 0; i < p->nr_files; i++)
		srcpatch__diff(&sb, p->files[i].path, p->orig[i], suggest_patch__text(p, i));
	p->diff = sb.buf ? sb.buf : xstrdup("");
}

/* One request per suggested struct whose source is found; the others are said. */
static int make_patch(struct suggest_load *sl, struct suggest_patch *p, const char *recording)
{
	const struct suggest_load_opts *o = sl->o;
	int rc = 0;

	for (size_t k = 0; k < sl->ts.nr; k++) {
		struct suggest_target *t = &sl->ts.v[k];
		const struct layout_type *ty = t->planned ? t->flat->type : NULL;
		char err[PATH_MAX + 64];

		if (!t->selected || !ty || t->res.status != SUGGEST_OK)
			continue;
		char *path = find_source_said(sl, ty->decl_file);

		if (!path && !ty->decl_file && o->source_root)
			path = find_source_by_name(o->source_root, ty);
		if (!path) {
			say_no_source(sl, t, ty);
			rc = 1;
			continue;
		}
		char *text = file__read_text(path, FILE_SOURCE, err, sizeof(err));

		if (!text) {
			say(sl, false, "%s", err);
			free(path);
			rc = 1;
			continue;
		}
		struct srcpatch_request rq = {
			.file = patch_file(p, path, o->source_root, text),
			.name = ty->name ? ty->name : ty->typedef_name,
			.decl_line = ty->decl_line,
			.style = o->style >= 0 ? (enum srcpatch_style)o->style :
						 tree_style(o->source_root, text),
			.line_size = sl->line_size,
		};
		struct srcpatch_slot *slots;
		const char **expected;
		struct suggest_names n;
		struct suggest_load_names nc;
		struct strbuf cm = STRBUF_INIT;

		free(path);
		suggest_plan__slots(&t->plan, &t->res, &slots, &rq.nr_slots, &expected,
				    &rq.nr_expected);
		if (!ty->decl_file)
			match_by_name(sl, p, &rq, t->flat->name, &slots, &expected);
		rq.slots = slots;
		rq.expected = expected;
		suggest_load__names(sl, t, recording, &n, &nc);
		suggest__comment(&t->res, &n, &cm);
		strbuf__release(&nc.sb);
		p->reqs = xrealloc(p->reqs, (p->nr_reqs + 1) * sizeof(*p->reqs));
		p->req_target = xrealloc(p->req_target, (p->nr_reqs + 1) * sizeof(*p->req_target));
		p->comments = xrealloc(p->comments, (p->nr_reqs + 1) * sizeof(*p->comments));
		p->comments[p->nr_reqs] = cm.buf;
		rq.comment = cm.buf;
		p->req_target[p->nr_reqs] = t;
		p->reqs[p->nr_reqs++] = rq;
	}
	if (!p->nr_reqs)
		return rc ? rc : 1;
	if (srcpatch__make(p->files, p->nr_files, p->reqs, p->nr_reqs, &p->sp) < 0 || !p->sp) {
		say(sl, false, "internal error: a malformed patch request");
		return 1;
	}
	for (unsigned int i = 0; i < p->sp->nr_outcomes; i++) {
		const struct srcpatch_outcome *oc = &p->sp->outcomes[i];

		for (unsigned int w = 0; w < oc->nr_warnings; w++)
			say(sl, true, "%s", oc->warnings[w]);
		if (oc->error) {
			say(sl, false, "%s: no patch: %s", p->req_target[i]->flat->name,
			    oc->message ? oc->message : "refused");
			rc = 1;
		}
	}
	return rc;
}

bool suggest_load__decide(struct suggest_load *sl)
{
	bool any_ok = false;

	array_targets(sl);
	/* what sharing it is, lineup fields' verdict: suggest says of a line what fields does */
	suggest_targets__set_verdicts(&sl->ts, sl->ld.fields);
	for (size_t k = 0; k < sl->ts.nr; k++)
		if (sl->ts.v[k].selected) {
			suggest_target__decide(&sl->ts.v[k], &sl->arena);
			any_ok |= sl->ts.v[k].res.status == SUGGEST_OK && sl->ts.v[k].planned;
		}
	return any_ok;
}

int suggest_load__patch(struct suggest_load *sl, struct suggest_patch *p, const char *recording)
{
	bool any_ok = false;
	int arc, prc;

	for (size_t k = 0; k < sl->ts.nr; k++)
		any_ok |= sl->ts.v[k].selected && sl->ts.v[k].planned &&
			  sl->ts.v[k].res.status == SUGGEST_OK;
	arc = make_alloc_fixes(sl, p);
	prc = any_ok ? make_patch(sl, p, recording) : 0;
	patch_diff(p);
	return prc ? prc : arc;
}
