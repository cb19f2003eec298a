/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_PRIVDIR_H
#define LINEUP_UTIL_PRIVDIR_H

/*
 * A directory of lineup's own (mkdtemp, mode 0700) and a tree of files under it, made from
 * names that come from untrusted input (a patch, debug info): every component is created and
 * opened relative to the directory's fd, never followed through a link, and a name with a
 * ".." component is refused, so nothing is ever written outside it.  Removal takes away only
 * what was recorded as created, innermost first.
 *
 * Ownership: the privdir owns its path, its fd and its record; privdir__remove frees them.
 */
#include <stdbool.h>
#include <stddef.h>

struct privdir_entry {
	char *name;		/* relative to the directory */
	bool dir;
};

struct privdir {
	int fd;
	char *path;
	struct privdir_entry *v;
	size_t nr, cap;
};

/*
 * Make "$TMPDIR/@prefix.XXXXXX" (TMPDIR unset: /tmp): 0, or -errno with @err said.
 */
int privdir__create(struct privdir *d, const char *prefix, char *err, size_t errlen);

/*
 * Whether @name may name a file in the tree: relative (a leading '/' is taken as relative
 * to the directory), no ".." component, not empty.  0, or -EINVAL with @err said.
 */
int privdir__check_name(const char *name, char *err, size_t errlen);

/*
 * Create @name (and every missing directory above it) with @len bytes of @text; the file
 * must not exist.  0, or -errno with @err said.
 */
int privdir__write(struct privdir *d, const char *name, const char *text, size_t len, char *err,
		   size_t errlen);

/* Create @name for writing (O_EXCL), recorded: its fd, or -errno with @err said. */
int privdir__create_file(struct privdir *d, const char *name, char *err, size_t errlen);

/* Record @name, which another program will create there, for removal. */
void privdir__expect(struct privdir *d, const char *name);

/* "@d->path/@name", to free(). */
char *privdir__path(const struct privdir *d, const char *name);

/*
 * Remove what was recorded, then the directory: 0, or -errno (-ENOTEMPTY: something not
 * recorded is there) with @err saying which directory is left.
 */
int privdir__remove(struct privdir *d, char *err, size_t errlen);

/*
 * Remove the directory and everything in it, recorded or not: for a directory whose every
 * file lineup's own commands made (a demo's build).  Links are removed, never followed.
 * 0, or -errno with @err said.
 */
int privdir__remove_all(struct privdir *d, char *err, size_t errlen);

#endif
