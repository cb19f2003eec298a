// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/ on hostile files, as lineup meets them running as root on trees from elsewhere: a
 * text file is read to its kind's limit and its first NUL byte (a sparse 50 GB file, pagemap
 * behind a link).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "util/file.h"

static char dir[] = "/tmp/lineup-util.XXXXXX";

/* @name in the scratch directory (one static buffer per call site is enough here) */
static const char *at(const char *name)
{
	static char path[4][sizeof(dir) + 64];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

static void put(const char *name, const char *text, size_t len)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0 && write(fd, text, len) == (ssize_t)len);
	close(fd);
}

static void test_read_text(void)
{
	char err[256], want[256];
	char *text;
	int fd;

	put("plain.c", "struct s { int a; };\n", 21);
	text = file__read_text(at("plain.c"), FILE_SOURCE, err, sizeof(err));
	CHECK(text && !strcmp(text, "struct s { int a; };\n"));
	free(text);

	/* a sparse file past the limit: refused at once, not read (50 GB of zeros) */
	fd = open(at("sparse.c"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (ftruncate(fd, 50LL << 30))
		CHECK(!ftruncate(fd, (16 << 20) + 1));
	close(fd);
	errno = 0;
	text = file__read_text(at("sparse.c"), FILE_SOURCE, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: larger than 16 MiB, the most a source file may be",
		 at("sparse.c"));
	CHECK(!text && errno == EFBIG && !strcmp(err, want));

	/* exactly at the limit is read; a byte more is not */
	char *big = malloc((16 << 20) + 2);

	memset(big, 'x', (16 << 20) + 1);
	big[(16 << 20) + 1] = '\0';
	put("at_limit.c", big, 16 << 20);
	text = file__read_text(at("at_limit.c"), FILE_SOURCE, err, sizeof(err));
	CHECK(text && strlen(text) == 16 << 20);
	free(text);
	put("past_limit.c", big, (16 << 20) + 1);
	text = file__read_text(at("past_limit.c"), FILE_SOURCE, err, sizeof(err));
	CHECK(!text && errno == EFBIG && strstr(err, "larger than 16 MiB"));
	free(big);

	/* the offset of the first NUL */
	put("nul.patch", "--- a\n\0+++ b\n", 13);
	errno = 0;
	text = file__read_text(at("nul.patch"), FILE_PATCH, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: a NUL byte at offset 6: not a text file",
		 at("nul.patch"));
	CHECK(!text && errno == EILSEQ && !strcmp(err, want));

	/* pagemap says it is 0 bytes and is the size of the address space: the read stops at its
	 * first NUL (or at the limit), it does not grow until memory runs out */
	if (!symlink("/proc/self/pagemap", at("pagemap.patch"))) {
		errno = 0;
		text = file__read_text(at("pagemap.patch"), FILE_PATCH, err, sizeof(err));
		CHECK(!text && (errno == EILSEQ || errno == EFBIG || errno == EACCES));
		CHECK(errno != EILSEQ || strstr(err, ": a NUL byte at offset "));
	}

	/* a /proc file's size of 0 is not believed either way: its text is read */
	text = file__read_text("/proc/self/status", FILE_PROC, err, sizeof(err));
	CHECK(text && strstr(text, "Pid:"));
	free(text);

	text = file__read_text(dir, FILE_SOURCE, err, sizeof(err));
	CHECK(!text && errno == EINVAL && strstr(err, ": not a regular file"));
}

static int remove_all(void)
{
	static const char *const names[] = { "plain.c", "sparse.c", "at_limit.c", "past_limit.c",
					     "nul.patch", "pagemap.patch" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(at(names[i]));
	return rmdir(dir);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_read_text();
	if (remove_all())
		fprintf(stderr, "%s: left behind: %s\n", dir, strerror(errno));
	return failures != 0;
}
