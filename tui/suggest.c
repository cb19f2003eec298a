// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lineup suggest --tui`: the proposed layout and the current one, the layout comment and the
 * patch in one view (Tab goes from part to part); w writes the patch to a file, asking its
 * name, and asking again before it writes over a file that exists.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tui/browser.h"
#include "tui/screen.h"
#include "tui/tui.h"
#include "util/xalloc.h"

#define MAX_PARTS 4

struct suggest_ctx {
	const struct tui_suggestion *s;
	size_t part[MAX_PARTS];	/* first line of each part */
	int nr_parts;
};

static void add_part(struct view *v, struct suggest_ctx *sc, const char *heading,
		     const char *text, bool diff)
{
	const char *p = text;

	if (!text)
		return;
	if (sc->nr_parts)
		text_view__add(v, SA_NORMAL, "%s", "");
	sc->part[sc->nr_parts++] = text_view__rows(v);
	text_view__add(v, SA_HEADER, "%s", heading);
	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		int attr = SA_NORMAL;

		if (diff && len && (p[0] == '+' || p[0] == '-') &&
		    strncmp(p, "+++", 3) && strncmp(p, "---", 3))
			attr = p[0] == '+' ? SA_ADD : SA_DEL;
		else if (diff && !strncmp(p, "@@", 2))
			attr = SA_BOUNDARY;
		text_view__add(v, attr, "%.*s", len, p);
		p += nl ? len + 1 : len;
	}
}

/* Write @text to @name; @replace: the user said a file there may go.  0 or -errno. */
static int write_file(const char *name, const char *text, bool replace)
{
	size_t len = strlen(text), done = 0;
	int fd = open(name, O_WRONLY | O_CREAT | O_CLOEXEC | (replace ? O_TRUNC : O_EXCL), 0644);
	int err = 0;

	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static void write_patch(struct browser *b, const struct tui_suggestion *s)
{
	struct strbuf name = STRBUF_INIT, yes = STRBUF_INIT, q = STRBUF_INIT;
	struct stat st;
	bool replace = false;
	int rc;

	if (!s->patch || !*s->patch) {
		browser__message(b, "there is no patch to write");
		return;
	}
	if (s->patch_name)
		strbuf__add(&name, s->patch_name, strlen(s->patch_name));
	if (!browser__prompt(b, "write the patch to: ", &name) || !name.len) {
		browser__message(b, "not written");
		goto out;
	}
	if (!stat(name.buf, &st)) {
		if (S_ISDIR(st.st_mode)) {
			browser__message(b, "%s is a directory: not written", name.buf);
			goto out;
		}
		strbuf__addf(&q, "%s exists: write over it? (y/N) ", name.buf);
		if (!browser__prompt(b, q.buf, &yes) || strcmp(yes.buf ? yes.buf : "", "y")) {
			browser__message(b, "%s left as it was", name.buf);
			goto out;
		}
		replace = true;
	}
	rc = write_file(name.buf, s->patch, replace);
	if (rc == -EEXIST)
		browser__message(b, "%s appeared meanwhile: not written", name.buf);
	else if (rc)
		browser__message(b, "cannot write %s: %s", name.buf, strerror(-rc));
	else
		browser__message(b, "the patch is in %s", name.buf);
out:
	strbuf__release(&name);
	strbuf__release(&yes);
	strbuf__release(&q);
}

static enum view_key suggest_key(void *ctx, struct browser *b, struct view *v, int key)
{
	struct suggest_ctx *sc = ctx;

	switch (key) {
	case 'w':
		write_patch(b, sc->s);
		return VIEW_KEY_DONE;
	case '\t':
		for (int i = 0; i < sc->nr_parts; i++)
			if (sc->part[i] > v->cur || i + 1 == sc->nr_parts) {
				size_t to = sc->part[i] > v->cur ? sc->part[i] : sc->part[0];

				v->cur = v->top = to;
				break;
			}
		return VIEW_KEY_DONE;
	}
	return VIEW_KEY_UNUSED;
}

int tui__suggest(const struct tui_suggestion *s, char *err, size_t errlen)
{
	struct suggest_ctx sc = { .s = s };
	struct view *v = text_view__new(s->title ? s->title : "suggestion");

	add_part(v, &sc, "Proposed layout", s->proposed, false);
	add_part(v, &sc, "Current layout", s->current, false);
	add_part(v, &sc, "Layout comment", s->comment, false);
	add_part(v, &sc, "Patch", s->patch, true);
	text_view__set_keys(v, suggest_key,
			    "Tab               the next part (proposed, current, comment, patch)\n"
			    "w                 write the patch to a file (asks its name; never\n"
			    "                  writes over a file without asking)\n",
			    &sc, NULL);
	return browser__browse(v, err, errlen);
}
