// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/ on hostile files, as lineup meets them running as root on trees from elsewhere: a
 * text file is read to its kind's limit and its first NUL byte (a sparse 50 GB file, pagemap
 * behind a link), a file is written in place of a planted link and never through it, and
 * another program's bytes are shown without its escape sequences.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "util/file.h"
#include "util/strbuf.h"

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

/* The file's text ("" when unreadable), for comparing; static. */
static const char *text_of(const char *name)
{
	static char buf[256];
	int fd = open(at(name), O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : 0;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
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

/* No ".lineup-" file left in the scratch directory: a temporary file is never left behind. */
static int temp_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, ".lineup-", 8);
	if (d)
		closedir(d);
	return n;
}

static void test_write_atomic(void)
{
	char err[256];
	struct stat st;
	mode_t mask = umask(022);

	CHECK(file__write_atomic(at("new.patch"), "one\n", 4, false, err, sizeof(err)) == 0);
	CHECK(!strcmp(text_of("new.patch"), "one\n"));
	CHECK(!stat(at("new.patch"), &st) && (st.st_mode & 0777) == 0644);

	/* an existing file: kept unless the caller was told it may go */
	CHECK(file__write_atomic(at("new.patch"), "two\n", 4, false, err, sizeof(err)) == -EEXIST);
	CHECK(!strcmp(text_of("new.patch"), "one\n"));
	CHECK(chmod(at("new.patch"), 0600) == 0);
	CHECK(file__write_atomic(at("new.patch"), "two\n", 4, true, err, sizeof(err)) == 0);
	CHECK(!strcmp(text_of("new.patch"), "two\n"));
	CHECK(!stat(at("new.patch"), &st) && (st.st_mode & 0777) == 0600);

	/* a planted link is refused, even when replacing: its target stays as it was */
	put("victim", "precious\n", 9);
	CHECK(symlink("victim", at("link.patch")) == 0);
	CHECK(file__write_atomic(at("link.patch"), "evil\n", 5, true, err, sizeof(err)) == -ELOOP);
	CHECK(strstr(err, "link.patch: a symbolic link: not followed") != NULL);
	CHECK(!strcmp(text_of("victim"), "precious\n"));
	CHECK(!lstat(at("link.patch"), &st) && S_ISLNK(st.st_mode));
	/* a dangling one: its target is not created */
	CHECK(symlink("created", at("dangling.patch")) == 0);
	CHECK(file__write_atomic(at("dangling.patch"), "evil\n", 5, false, err, sizeof(err)) ==
	      -ELOOP);
	CHECK(access(at("created"), F_OK) != 0);

	/* something other than a regular file is not replaced by one */
	CHECK(mkdir(at("sub"), 0755) == 0);
	CHECK(file__write_atomic(at("sub"), "x", 1, true, err, sizeof(err)) == -EINVAL);
	CHECK(file__write_atomic(at("nodir/x.patch"), "x", 1, false, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "nodir/x.patch: ") != NULL);
	CHECK(temp_files() == 0);
	umask(mask);
}

static void test_printable(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "\033]0;pwned\007\033[2J", "?]0;pwned??[2J" },
		{ "line\n\ttab\r\n", "line\n\ttab?\n" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },	/* UTF-8 kept */
		{ "\xc2\x9b" "31m", "??31m" },	/* C1 CSI as UTF-8 */
		{ "\xff\xc0\xaf\x7f", "????" },	/* invalid, overlong, DEL */
		{ "end\xe2\x82", "end??" },	/* cut short */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf__add_printable(&sb, cases[i].in, strlen(cases[i].in));
		CHECK(sb.buf && !strcmp(sb.buf, cases[i].out));
		if (!sb.buf || strcmp(sb.buf, cases[i].out)) {
			/* what came out, in hex: the log is read on a terminal too */
			fprintf(stderr, "  case %zu:", i);
			for (size_t k = 0; sb.buf && sb.buf[k]; k++)
				fprintf(stderr, " %02x", (unsigned char)sb.buf[k]);
			fputc('\n', stderr);
		}
		strbuf__release(&sb);
	}
}

static int remove_all(void)
{
	static const char *const names[] = { "plain.c", "sparse.c", "at_limit.c", "past_limit.c",
					     "nul.patch", "pagemap.patch", "new.patch", "victim",
					     "link.patch", "dangling.patch" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(at(names[i]));
	rmdir(at("sub"));
	return rmdir(dir);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_read_text();
	test_write_atomic();
	test_printable();
	if (remove_all())
		fprintf(stderr, "%s: left behind: %s\n", dir, strerror(errno));
	return failures != 0;
}
