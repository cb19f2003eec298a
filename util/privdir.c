// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/privdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

int privdir__create(struct privdir *d, const char *prefix, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char *tmpl;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	tmpl = xasprintf("%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
	if (!mkdtemp(tmpl)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", tmpl, strerror(e));
		free(tmpl);
		return -e;
	}
	d->fd = open(tmpl, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", tmpl, strerror(e));
		rmdir(tmpl);
		free(tmpl);
		return -e;
	}
	d->path = tmpl;
	return 0;
}

/* @name's components joined again without empty or "." ones; NULL when one is "..". */
static char *canonical(const char *name)
{
	size_t n = strlen(name), k = 0;
	char *out = xmalloc(n + 1);

	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			free(out);
			return NULL;
		}
		if (len && !(len == 1 && *p == '.')) {
			if (k)
				out[k++] = '/';
			memcpy(out + k, p, len);
			k += len;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	out[k] = '\0';
	if (!k) {
		free(out);
		return NULL;
	}
	return out;
}

int privdir__check_name(const char *name, char *err, size_t errlen)
{
	char *c = canonical(name);

	if (!c) {
		snprintf(err, errlen, "'%s': %s", name, *name ? "a '..' component would climb out "
			 "of the directory" : "an empty name");
		return -EINVAL;
	}
	free(c);
	return 0;
}

static void record(struct privdir *d, const char *name, size_t len, bool dir)
{
	d->v = xgrow(d->v, &d->cap, d->nr + 1, sizeof(*d->v));
	d->v[d->nr].name = xstrndup(name, len);
	d->v[d->nr++].dir = dir;
}

/*
 * The directory that holds the last component of canonical name @c, opened without following
 * a link; missing ones created (and recorded) when @create.  Its fd, or -errno.
 */
static int open_parent(struct privdir *d, const char *c, bool create)
{
	int fd = dup(d->fd);

	if (fd < 0)
		return -errno;
	for (const char *p = c, *s; (s = strchr(p, '/')); p = s + 1) {
		char comp[NAME_MAX + 1];
		size_t len = (size_t)(s - p);
		int next;

		if (len > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, 0700) < 0) {
				int e = errno;

				close(fd);
				return -e;
			}
			record(d, c, (size_t)(s - c), true);
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		close(fd);
		fd = next;
	}
	return fd;
}

int privdir__create_file(struct privdir *d, const char *name, char *err, size_t errlen)
{
	char *c = canonical(name);
	const char *last;
	int dfd, fd;

	if (!c)
		return privdir__check_name(name, err, errlen);
	dfd = open_parent(d, c, true);
	if (dfd < 0) {
		snprintf(err, errlen, "%s/%s: %s", d->path, c, strerror(-dfd));
		free(c);
		return dfd;
	}
	last = strrchr(c, '/') ? strrchr(c, '/') + 1 : c;
	fd = openat(dfd, last, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		fd = -errno;
		snprintf(err, errlen, "%s/%s: %s", d->path, c, strerror(errno));
	} else {
		record(d, c, strlen(c), false);
	}
	close(dfd);
	free(c);
	return fd;
}

int privdir__write(struct privdir *d, const char *name, const char *text, size_t len, char *err,
		   size_t errlen)
{
	int fd = privdir__create_file(d, name, err, errlen);
	size_t off = 0;

	if (fd < 0)
		return fd;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;

			snprintf(err, errlen, "%s/%s: %s", d->path, name, strerror(e));
			close(fd);
			return -e;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		snprintf(err, errlen, "%s/%s: %s", d->path, name, strerror(errno));
		return -errno;
	}
	return 0;
}

void privdir__expect(struct privdir *d, const char *name)
{
	char *c = canonical(name);

	if (!c)
		return;
	record(d, c, strlen(c), false);
	free(c);
}

char *privdir__path(const struct privdir *d, const char *name)
{
	return xasprintf("%s/%s", d->path, name);
}

int privdir__remove(struct privdir *d, char *err, size_t errlen)
{
	int rc = 0;

	if (!d->path)
		return 0;
	for (size_t i = d->nr; i-- > 0;) {
		const char *c = d->v[i].name;
		const char *last = strrchr(c, '/') ? strrchr(c, '/') + 1 : c;
		int dfd = open_parent(d, c, false);

		if (dfd >= 0) {
			unlinkat(dfd, last, d->v[i].dir ? AT_REMOVEDIR : 0);
			close(dfd);
		}
		free(d->v[i].name);
	}
	free(d->v);
	d->v = NULL;
	d->nr = d->cap = 0;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (rmdir(d->path) < 0 && errno != ENOENT) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s: left there (what lineup did not create is not "
			 "removed)", d->path, strerror(errno));
	}
	free(d->path);
	d->path = NULL;
	return rc;
}

/* Everything in directory @fd (closed here), depth first, without following a link. */
static int remove_tree(int fd)
{
	DIR *dir = fdopendir(fd);
	struct dirent *e;
	int rc = 0;

	if (!dir) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(dir))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(dir), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0 && remove_tree(sub) < 0 && !rc)
				rc = -errno;
			if (unlinkat(dirfd(dir), e->d_name, AT_REMOVEDIR) < 0 && !rc)
				rc = -errno;
		} else if (unlinkat(dirfd(dir), e->d_name, 0) < 0 && !rc) {
			rc = -errno;
		}
	}
	closedir(dir);
	return rc;
}

int privdir__remove_all(struct privdir *d, char *err, size_t errlen)
{
	int rc;

	if (!d->path)
		return 0;
	rc = d->fd >= 0 ? remove_tree(dup(d->fd)) : 0;
	for (size_t i = 0; i < d->nr; i++)
		free(d->v[i].name);
	d->nr = 0;
	if (!rc)
		return privdir__remove(d, err, errlen);
	snprintf(err, errlen, "%s: %s", d->path, strerror(-rc));
	privdir__remove(d, err + strlen(err), errlen - strlen(err));
	return rc;
}
