// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/privdir: names from untrusted input never reach outside the directory (a ".."
 * component, a link planted in the tree), a file is never written over, and removal takes
 * only what was created (issue 19, item 1).
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
#include "util/privdir.h"
#include "util/xalloc.h"

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

int main(void)
{
	char outside[] = "/tmp/lineup-privdir-test.XXXXXX", err[512], *p;
	struct privdir d;

	CHECK(mkdtemp(outside) != NULL);
	CHECK(privdir__create(&d, "lineup-privdir", err, sizeof(err)) == 0);

	/* ".." anywhere is refused, however deep; empty names too */
	CHECK(privdir__check_name("../x", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "climb out") != NULL);
	CHECK(privdir__check_name("a/b/../../../x", err, sizeof(err)) == -EINVAL);
	CHECK(privdir__check_name("a/..", err, sizeof(err)) == -EINVAL);
	CHECK(privdir__check_name("", err, sizeof(err)) == -EINVAL);
	CHECK(privdir__check_name("/", err, sizeof(err)) == -EINVAL);
	CHECK(privdir__check_name("a/..b/c..", err, sizeof(err)) == 0);
	CHECK(privdir__write(&d, "a/../../x", "x", 1, err, sizeof(err)) == -EINVAL);

	/* an absolute name is taken inside; ancestors are made */
	p = xasprintf("%s/%s/f.h", outside, "sub");
	CHECK(privdir__write(&d, p, "text", 4, err, sizeof(err)) == 0);
	CHECK(!exists(p));
	free(p);
	p = xasprintf("%s%s/sub/f.h", d.path, outside);
	CHECK(exists(p));
	free(p);

	/* an existing file is not written over */
	CHECK(privdir__write(&d, "./one.c", "1", 1, err, sizeof(err)) == 0);
	CHECK(privdir__write(&d, "one.c", "2", 1, err, sizeof(err)) == -EEXIST);

	/* a link planted in the tree is not followed, neither as a directory nor as the file */
	p = privdir__path(&d, "link");
	CHECK(symlink(outside, p) == 0);
	free(p);
	CHECK(privdir__write(&d, "link/escaped.h", "x", 1, err, sizeof(err)) < 0);
	p = xasprintf("%s/escaped.h", outside);
	CHECK(!exists(p));
	free(p);
	p = privdir__path(&d, "flink");
	CHECK(symlink("/tmp/lineup-privdir-test-nonexistent", p) == 0);
	free(p);
	CHECK(privdir__write(&d, "flink", "x", 1, err, sizeof(err)) < 0);
	CHECK(!exists("/tmp/lineup-privdir-test-nonexistent"));

	/* removal takes what it made; what it did not make stays, and is said */
	privdir__expect(&d, "never-made.o");
	char *dir = xstrdup(d.path);

	CHECK(privdir__remove(&d, err, sizeof(err)) == -ENOTEMPTY);
	CHECK(strstr(err, dir) != NULL);
	CHECK(exists(dir));
	p = xasprintf("%s/one.c", dir);
	CHECK(!exists(p));
	free(p);
	p = xasprintf("%s/link", dir);
	CHECK(exists(p));	/* not lineup's: left */
	unlink(p);
	free(p);
	p = xasprintf("%s/flink", dir);
	unlink(p);
	free(p);
	CHECK(rmdir(dir) == 0);
	CHECK(exists(outside));
	CHECK(rmdir(outside) == 0);
	free(dir);

	/* a clean removal */
	CHECK(privdir__create(&d, "lineup-privdir", err, sizeof(err)) == 0);
	dir = xstrdup(d.path);
	CHECK(privdir__write(&d, "x/y/z.c", "z", 1, err, sizeof(err)) == 0);
	CHECK(privdir__remove(&d, err, sizeof(err)) == 0);
	CHECK(!exists(dir));
	free(dir);
	/* remove_all: what others made there too, links removed and not followed */
	char outside2[] = "/tmp/lineup-privdir-test.XXXXXX";

	CHECK(mkdtemp(outside2) != NULL);
	p = xasprintf("%s/keep", outside2);
	CHECK(close(open(p, O_WRONLY | O_CREAT | O_EXCL, 0600)) == 0);
	CHECK(privdir__create(&d, "lineup-privdir", err, sizeof(err)) == 0);
	dir = xstrdup(d.path);
	char *a = xasprintf("%s/a", dir), *ab = xasprintf("%s/a/b", dir);
	char *lnk = xasprintf("%s/a/out", dir);

	CHECK(mkdir(a, 0700) == 0 && mkdir(ab, 0700) == 0);
	CHECK(symlink(outside2, lnk) == 0);
	CHECK(privdir__remove_all(&d, err, sizeof(err)) == 0);
	CHECK(!exists(dir));
	CHECK(exists(p));
	unlink(p);
	CHECK(rmdir(outside2) == 0);
	free(p);
	free(a);
	free(ab);
	free(lnk);
	free(dir);
	return failures != 0;
}
