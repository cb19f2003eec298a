// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

static char tracefs_path[PATH_MAX + 16];

/* The mount point of the first filesystem of type @fstype in /proc/mounts, or 0. */
static int find_mount(const char *fstype, char *out, size_t outlen)
{
	char line[4096], dev[256], dir[PATH_MAX], type[64];
	FILE *fp = fopen("/proc/mounts", "r");
	int found = 0;

	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) != 3)
			continue;
		if (!strcmp(type, fstype) && strlen(dir) < outlen) {
			strcpy(out, dir);
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

const char *tracefs__dir(int *mounted, char *err, size_t errlen)
{
	char dir[PATH_MAX];

	if (mounted)
		*mounted = 0;
	if (tracefs_path[0])
		return tracefs_path;
	if (find_mount("tracefs", dir, sizeof(dir))) {
		snprintf(tracefs_path, sizeof(tracefs_path), "%s", dir);
		return tracefs_path;
	}
	/* Old kernels: tracefs lives under debugfs. */
	if (find_mount("debugfs", dir, sizeof(dir))) {
		char events[PATH_MAX + 16];

		snprintf(events, sizeof(events), "%s/tracing/events", dir);
		if (access(events, F_OK) == 0) {
			snprintf(tracefs_path, sizeof(tracefs_path), "%s/tracing", dir);
			return tracefs_path;
		}
	}
	if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) < 0) {
		snprintf(err, errlen,
			 "tracefs is not mounted and mounting it on %s failed: %s%s", TRACEFS_DEFAULT,
			 strerror(errno), errno == EPERM ? " (needs root)" : "");
		return NULL;
	}
	if (mounted)
		*mounted = 1;
	snprintf(tracefs_path, sizeof(tracefs_path), "%s", TRACEFS_DEFAULT);
	return tracefs_path;
}

int tracefs__read(const char *rel, char **buf, size_t *len, char *err, size_t errlen)
{
	const char *dir = tracefs__dir(NULL, err, errlen);
	char path[PATH_MAX];
	size_t cap = 4096, n = 0;
	char *b;
	int fd;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	b = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap)
			b = xrealloc(b, cap *= 2);
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			snprintf(err, errlen, "%s: read: %s", path, strerror(e));
			free(b);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

static int event_path(char *out, size_t outlen, const char *sys, const char *name,
		      const char *file)
{
	/* Names come from the command line: keep them inside events/. */
	if (strchr(sys, '/') || strchr(name, '/') || !strcmp(sys, "..") || !strcmp(name, ".."))
		return -EINVAL;
	snprintf(out, outlen, "events/%s/%s/%s", sys, name, file);
	return 0;
}

long long tracefs__event_id(const char *sys, const char *name, char *err, size_t errlen)
{
	char rel[512], *buf, *end;
	long long id;
	size_t len;
	int rc;

	if (event_path(rel, sizeof(rel), sys, name, "id") < 0) {
		snprintf(err, errlen, "bad tracepoint name %s:%s", sys, name);
		return -EINVAL;
	}
	rc = tracefs__read(rel, &buf, &len, err, errlen);
	if (rc == -ENOENT)
		snprintf(err, errlen, "no tracepoint %s:%s in this kernel (%s/%s missing)", sys, name,
			 tracefs_path, rel);
	if (rc < 0)
		return rc;
	id = strtoll(buf, &end, 10);
	if (end == buf || id < 0) {
		snprintf(err, errlen, "%s/%s: not a number: '%.20s'", tracefs_path, rel, buf);
		free(buf);
		return -EINVAL;
	}
	free(buf);
	return id;
}

int tracefs__event_format(const char *sys, const char *name, char **buf, size_t *len,
			  char *err, size_t errlen)
{
	char rel[512];
	int rc;

	if (event_path(rel, sizeof(rel), sys, name, "format") < 0) {
		snprintf(err, errlen, "bad tracepoint name %s:%s", sys, name);
		return -EINVAL;
	}
	rc = tracefs__read(rel, buf, len, err, errlen);
	if (rc == -ENOENT)
		snprintf(err, errlen, "no tracepoint %s:%s in this kernel (%s/%s missing)", sys, name,
			 tracefs_path, rel);
	return rc;
}

int tracefs__option_get(const char *name, char *err, size_t errlen)
{
	char rel[256], *buf;
	size_t len;
	int rc;

	if (strchr(name, '/'))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "options/%s", name);
	rc = tracefs__read(rel, &buf, &len, err, errlen);
	if (rc < 0)
		return rc;
	rc = buf[0] == '1';
	free(buf);
	return rc;
}

int tracefs__option_set(const char *name, int on, char *err, size_t errlen)
{
	const char *dir = tracefs__dir(NULL, err, errlen);
	char path[PATH_MAX];
	int fd, e;

	if (!dir)
		return -ENOENT;
	if (strchr(name, '/'))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/options/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (write(fd, on ? "1" : "0", 1) != 1) {
		e = errno;
		close(fd);
		errno = e;
		goto fail;
	}
	close(fd);
	return 0;
fail:
	e = errno;
	snprintf(err, errlen, "%s: %s", path, strerror(e));
	return -e;
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf__add(sb, (const char *)&v, 4);
}

static void put_u64(struct strbuf *sb, uint64_t v)
{
	strbuf__add(sb, (const char *)&v, 8);
}

int tracefs__tracing_data(const char *const *events, unsigned int n, void **out, size_t *len,
			  char *err, size_t errlen)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct strbuf sb = STRBUF_INIT;
	const char *sys0 = NULL;
	char *buf;
	size_t blen;
	int rc;

	strbuf__add(&sb, magic, sizeof(magic));
	strbuf__add(&sb, "0.6", 4);		/* with its NUL */
	strbuf__add(&sb, (const char[]){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	strbuf__add(&sb, (const char[]){ sizeof(long) }, 1);
	put_u32(&sb, (uint32_t)sysconf(_SC_PAGESIZE));
	rc = tracefs__read("events/header_page", &buf, &blen, err, errlen);
	if (rc < 0)
		goto fail;
	strbuf__add(&sb, "header_page", 12);
	put_u64(&sb, blen);
	strbuf__add(&sb, buf, blen);
	free(buf);
	rc = tracefs__read("events/header_event", &buf, &blen, err, errlen);
	if (rc < 0)
		goto fail;
	strbuf__add(&sb, "header_event", 13);
	put_u64(&sb, blen);
	strbuf__add(&sb, buf, blen);
	free(buf);
	put_u32(&sb, 0);			/* ftrace formats */
	/* One system (all events must share it: lineup only writes kmem's). */
	for (unsigned int i = 0; i < n; i++) {
		const char *colon = strchr(events[i], ':');

		if (!colon || (sys0 && (strncmp(sys0, events[i], colon - events[i]) ||
					sys0[colon - events[i]] != ':'))) {
			snprintf(err, errlen, "tracing data: events must be of one system: %s",
				 events[i]);
			rc = -EINVAL;
			goto fail;
		}
		sys0 = events[i];
	}
	put_u32(&sb, n ? 1 : 0);
	if (n) {
		size_t syslen = strchr(sys0, ':') - sys0;

		strbuf__add(&sb, sys0, syslen);
		strbuf__add(&sb, "", 1);
		put_u32(&sb, n);
		for (unsigned int i = 0; i < n; i++) {
			char sys[64], *name;

			snprintf(sys, sizeof(sys), "%.*s", (int)syslen, events[i]);
			name = strchr(events[i], ':') + 1;
			rc = tracefs__event_format(sys, name, &buf, &blen, err, errlen);
			if (rc < 0)
				goto fail;
			put_u64(&sb, blen);
			strbuf__add(&sb, buf, blen);
			free(buf);
		}
	}
	put_u32(&sb, 0);			/* kallsyms */
	put_u32(&sb, 0);			/* printk formats */
	put_u64(&sb, 0);			/* saved cmdlines */
	*out = sb.buf;
	*len = sb.len;
	return 0;
fail:
	strbuf__release(&sb);
	return rc;
}
