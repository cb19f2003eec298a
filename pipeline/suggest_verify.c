// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --verify (suggest_verify.h).  The names in a patch come from debug info, which is untrusted:
 * the copies are made through util/privdir.h, the compiler runs in that directory with an
 * environment of three variables, and every file it is told to write is there.
 */
#include <config.h>

#include "pipeline/suggest_verify.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/layout.h"
#include "analyzer/srcpatch.h"
#include "dwarf/layout.h"
#include "pipeline/suggest_load.h"
#include "sampling/workload.h"
#include "util/file.h"
#include "util/privdir.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The copies live under src/, beside the probe, the objects and the log. */
#define COPY_DIR "src/"

struct verify_run {
	const struct suggest_patch *p;
	const struct suggest_verify_opts *o;
	struct privdir dir;
	const char *cc;
	char **env;
	unsigned int nr_units;
};

static const char *compiler(const struct suggest_verify_opts *o)
{
	const char *cc = getenv("CC");

	return o->cc ? o->cc : cc && *cc ? cc : "cc";
}

/* The compiler's whole environment: the user's PATH, the C locale, our directory for its temps. */
static char **clean_env(const char *dir)
{
	const char *path = getenv("PATH");
	char **env = xcalloc(4, sizeof(*env));

	env[0] = xasprintf("PATH=%s", path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	env[1] = xstrdup("LC_ALL=C");
	env[2] = xasprintf("TMPDIR=%s", dir);
	return env;
}

/* Run @argv in the directory, its output into @log there: 0 it exited 0, 1 not, -errno. */
static int run_compiler(struct verify_run *vr, char *const *argv, const char *log)
{
	struct workload w = WORKLOAD_INIT;
	struct workload_opts wo;
	char err[PATH_MAX + 64];
	int fd = privdir__create_file(&vr->dir, log, err, sizeof(err)), rc;

	if (fd < 0)
		return fd;
	workload_opts__init(&wo, argv);
	wo.stdio[0] = -1;
	wo.stdio[1] = wo.stdio[2] = fd;
	wo.dir = vr->dir.path;
	wo.env = (const char *const *)vr->env;
	wo.env_only = true;
	rc = workload__prepare(&w, &wo);
	if (rc < 0 && w.err) {
		/* said in the log, which the caller shows */
		dprintf(fd, "%s\n", workload__strerror(&w, err, sizeof(err)));
		rc = 1;
	} else if (!rc) {
		rc = workload__wait(&w, true, NULL);
		rc = rc < 0 ? rc : WIFEXITED(w.status) && !WEXITSTATUS(w.status) ? 0 : 1;
	}
	workload__end(&w);
	close(fd);
	return rc;
}

/* The first difference between the built layout and the compiled one, into @why. */
static bool same_layout(const struct layout_type *want, const struct layout_type *got, char *why,
			size_t len)
{
	if (want->size != got->size) {
		snprintf(why, len, "size %" PRIu64 " predicted, %" PRIu64 " compiled", want->size,
			 got->size);
		return false;
	}
	for (uint32_t i = 0; i < want->nr_members; i++) {
		const struct layout_member *w = &want->members[i];
		const struct layout_member *g = w->name ? layout__find_member(got, w->name) :
				       i < got->nr_members ? &got->members[i] : NULL;

		if (!g) {
			snprintf(why, len, "member %s missing from the compiled struct",
				 w->name ? w->name : "(anonymous)");
			return false;
		}
		if (g->offset != w->offset || g->size != w->size || g->bit_offset != w->bit_offset ||
		    g->bit_size != w->bit_size) {
			snprintf(why, len, "%s at offset %" PRIu64 " (bit %u) size %" PRIu64
				 " predicted, at %" PRIu64 " (bit %u) size %" PRIu64 " compiled",
				 w->name ? w->name : "(anonymous)", w->offset, w->bit_offset, w->size,
				 g->offset, g->bit_offset, g->size);
			return false;
		}
	}
	return true;
}

/* Every patched file copied under src/ at its name in the patch: 0, or -errno said in @why. */
static int copy_files(struct verify_run *vr, char *why, size_t len)
{
	for (unsigned int f = 0; f < vr->p->nr_files; f++) {
		const char *name = vr->p->files[f].path, *text = suggest_patch__text(vr->p, f);
		char err[PATH_MAX + 128];
		char *rel;
		int rc;

		if (privdir__check_name(name, err, sizeof(err)) < 0) {
			snprintf(why, len, "not checked: the patch names %.400s", err);
			return -EINVAL;
		}
		rel = xasprintf(COPY_DIR "%s", name);
		rc = privdir__write(&vr->dir, rel, text, strlen(text), err, sizeof(err));
		free(rel);
		if (rc < 0) {
			snprintf(why, len, "not checked: could not copy the patched %.200s: %.250s", name, err);
			return rc;
		}
	}
	return 0;
}

static bool is_c_file(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && !strcmp(name + n - 2, ".c");
}

/*
 * Compile file @f of the patch (a header through a probe that defines @type) into a new object
 * in the directory: its name there, or NULL with @why said.
 */
static char *compile_unit(struct verify_run *vr, unsigned int f, const char *type, char *why,
			  size_t len)
{
	const char *name = vr->p->files[f].path;
	unsigned int u = vr->nr_units++;
	char *obj = xasprintf("verify-%u.o", u), *log = xasprintf("cc-%u.log", u);
	char *unit, *inc, *cflags = NULL, *argv[72], err[PATH_MAX + 64];
	char *orig_dir = xstrdup(vr->p->paths[f]);
	int argc = 0, rc;

	if (strrchr(orig_dir, '/'))
		*strrchr(orig_dir, '/') = '\0';
	else
		strcpy(orig_dir, ".");
	if (is_c_file(name)) {
		unit = xasprintf(COPY_DIR "%s", name);
	} else {
		/* a unit that uses the struct, including the patched header */
		char *text = xasprintf("#include \"" COPY_DIR "%s\"\n%s lineup_verify_probe;\n", name,
				       type);

		unit = xasprintf("probe-%u.c", u);
		rc = privdir__write(&vr->dir, unit, text, strlen(text), err, sizeof(err));
		free(text);
		if (rc < 0) {
			snprintf(why, len, "not checked: %.400s", err);
			goto fail;
		}
	}
	inc = xasprintf("-I%s", orig_dir);
	argv[argc++] = (char *)vr->cc;
	argv[argc++] = "-g";
	argv[argc++] = "-c";
	argv[argc++] = "-o";
	argv[argc++] = obj;
	argv[argc++] = unit;
	argv[argc++] = inc;
	if (vr->o->cflags) {
		cflags = xstrdup(vr->o->cflags);
		for (char *s = strtok(cflags, " \t"); s && argc < 70; s = strtok(NULL, " \t"))
			argv[argc++] = s;
	}
	argv[argc] = NULL;
	privdir__expect(&vr->dir, obj);
	rc = run_compiler(vr, argv, log);
	free(inc);
	free(cflags);
	if (rc != 0) {
		char *path = privdir__path(&vr->dir, log);
		char *msg = rc > 0 ? file__read_text(path, FILE_LOG, err, sizeof(err)) : NULL;

		/* a log that cannot be read is said instead of it */
		snprintf(why, len, "%s could not compile the patched %s%s%.300s", vr->cc, name,
			 msg ? ":\n" : ": ", msg ? msg : rc < 0 ? strerror(-rc) : err);
		free(msg);
		free(path);
		goto fail;
	}
	free(unit);
	free(log);
	free(orig_dir);
	return obj;
fail:
	free(unit);
	free(log);
	free(orig_dir);
	free(obj);
	return NULL;
}

static void verify_request(struct verify_run *vr, unsigned int i, struct suggest_verify *out)
{
	const struct suggest_patch *p = vr->p;
	const struct srcpatch_request *rq = &p->reqs[i];
	const struct suggest_target *t = p->req_target[i];
	const struct layout_type *ty = t->flat->type, *got;
	const char *name = p->files[rq->file].path;
	struct layout_source *ls;
	char err[512], *type, *obj, *path;

	out->done = true;
	if (rq->style == SRCPATCH_KERNEL_GROUPS || rq->style == SRCPATCH_KERNEL_ALIGNED) {
		/* a kernel header compiles only inside Kbuild, with the tree's config */
		snprintf(out->detail, sizeof(out->detail), "not checked: %s is a kernel source, "
			 "which compiles only inside Kbuild: apply the patch to a copy of the tree "
			 "(or of the installed linux-headers), build a module that uses the struct "
			 "against it, and compare `lineup layout -C %s MODULE.ko` with the offsets "
			 "above", name, rq->name);
		out->skipped = true;
		return;
	}
	type = xasprintf("%s%s", ty->name ? "struct " : "", ty->name ? ty->name : ty->typedef_name);
	obj = compile_unit(vr, rq->file, type, out->detail, sizeof(out->detail));
	free(type);
	if (!obj)
		return;
	path = privdir__path(&vr->dir, obj);
	if (layout_source__open(&ls, path, 0, err, sizeof(err)) < 0) {
		snprintf(out->detail, sizeof(out->detail), "%s", err);
	} else {
		if (layout_source__find(ls, rq->name, &got, err, sizeof(err)) != 0) {
			snprintf(out->detail, sizeof(out->detail), "the compiled unit has no %s",
				 rq->name);
		} else {
			out->ok = same_layout(t->built, got, out->detail, sizeof(out->detail));
			if (out->ok)
				snprintf(out->detail, sizeof(out->detail),
					 "%s compiled the patched %s: every member at its predicted "
					 "offset, size %" PRIu64, vr->cc, name, got->size);
		}
		layout_source__delete(ls);
	}
	free(path);
	free(obj);
}

/* A rewritten allocation: its patched unit compiles (there is no layout to compare). */
static void verify_alloc(struct verify_run *vr, unsigned int k, struct suggest_verify *out)
{
	const struct suggest_alloc_fix *x = &vr->p->allocs[k];
	const char *name = vr->p->files[x->file].path;
	char *obj;

	out->done = true;
	if (!is_c_file(name)) {
		snprintf(out->detail, sizeof(out->detail), "not checked: the allocation at %s is in "
			 "a header, which compiles only as part of its units", x->where);
		return;
	}
	obj = compile_unit(vr, (unsigned int)x->file, NULL, out->detail, sizeof(out->detail));
	if (!obj)
		return;
	out->ok = true;
	snprintf(out->detail, sizeof(out->detail), "%s compiled the patched %s (the allocation at "
		 "%s made line-aligned); the layout of its memory is the allocator's, not "
		 "compared", vr->cc, name, x->where);
	free(obj);
}

int suggest_verify__run(const struct suggest_patch *p, const struct suggest_verify_opts *o,
			struct suggest_verify *reqs, struct suggest_verify *allocs, char *warn,
			size_t warnlen)
{
	struct verify_run vr = { .p = p, .o = o, .cc = compiler(o) };
	char err[PATH_MAX + 128], why[512] = "";
	int rc = privdir__create(&vr.dir, "lineup-verify", err, sizeof(err));

	if (rc < 0) {
		if (p->nr_reqs)
			snprintf(reqs[0].detail, sizeof(reqs[0].detail), "not checked: %.400s", err);
		return rc;
	}
	vr.env = clean_env(vr.dir.path);
	rc = copy_files(&vr, why, sizeof(why));
	for (unsigned int i = 0; i < p->nr_reqs; i++) {
		if (p->sp && p->sp->outcomes[i].error)
			continue;
		if (rc < 0) {
			reqs[i].done = true;
			snprintf(reqs[i].detail, sizeof(reqs[i].detail), "%s", why);
			continue;
		}
		verify_request(&vr, i, &reqs[i]);
	}
	for (unsigned int k = 0; k < p->nr_allocs; k++) {
		if (p->allocs[k].message || p->allocs[k].file < 0)
			continue;
		if (rc < 0) {
			allocs[k].done = true;
			snprintf(allocs[k].detail, sizeof(allocs[k].detail), "%s", why);
			continue;
		}
		verify_alloc(&vr, k, &allocs[k]);
	}
	*warn = '\0';
	privdir__remove(&vr.dir, warn, warnlen);
	for (int i = 0; i < 3; i++)
		free(vr.env[i]);
	free(vr.env);
	return 0;
}
