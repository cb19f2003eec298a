// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "pipeline/kobject.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/layout.h"
#include "dwarf/code.h"
#include "dwarf/layout.h"
#include "sampling/host.h"
#include "util/xalloc.h"

/* The perf callchain's context markers (PERF_CONTEXT_*: the top 4095 values). */
#define CONTEXT_USER ((uint64_t)-512)
#define CONTEXT_MAX ((uint64_t)-4095)

/* Kernel addresses start here on x86-64 (the canonical upper half). */
#define KERNEL_START 0xffff800000000000ULL

/* Levels of a dentry walk; deeper is taken for garbage (freed and reused memory). */
#define MAX_DEPTH 64

/* Where the words a path is made from are, from the kernel's BTF. */
struct file_offsets {
	uint64_t f_mnt, f_dentry, f_inode;	/* struct file: f_path.mnt, f_path.dentry, f_inode */
	uint64_t i_ino, i_sb;			/* struct inode */
	uint64_t s_dev;				/* struct super_block */
	uint64_t d_parent, d_name, d_len;	/* struct dentry: d_parent, d_name.name, d_name.len */
	uint64_t m_mnt, m_id;			/* struct mount: mnt (the vfsmount), mnt_id */
};

struct kobject_namer {
	struct code_reader *code;
	bool tried;			/* the offsets were looked up (once) */
	bool have;			/* ... and found */
	char why[400];			/* why not */
	struct file_offsets off;
};

static bool load_offsets(struct kobject_namer *n);

int kobject_namer__new(struct kobject_namer **out, struct code_reader *code, bool files)
{
	struct kobject_namer *n = xcalloc(1, sizeof(*n));

	n->code = code;
	if (files)
		load_offsets(n);
	*out = n;
	return 0;
}

void kobject_namer__delete(struct kobject_namer *n)
{
	free(n);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The offset of @path in struct @type; false (and why) when the BTF has no such member. */
static bool offset_of(struct kobject_namer *n, struct layout_source *src, const char *type,
		      const char *path, uint64_t *off)
{
	const struct layout_type *t;
	char err[256];

	if (layout_source__find(src, type, &t, err, sizeof(err))) {
		snprintf(n->why, sizeof(n->why), "the kernel's BTF has no struct %s", type);
		return false;
	}
	if (!layout__find_path(t, path, off)) {
		snprintf(n->why, sizeof(n->why), "the kernel's struct %s has no member %s", type,
			 path);
		return false;
	}
	return true;
}

/* The offsets of the words a file's path is made from, looked up once. */
static bool load_offsets(struct kobject_namer *n)
{
	struct file_offsets *o = &n->off;
	struct layout_source *src;
	char err[512];

	if (n->tried)
		return n->have;
	n->tried = true;
	if (layout_source__open(&src, NULL, LAYOUT_BTF | LAYOUT_EXPAND, err, sizeof(err)) < 0) {
		snprintf(n->why, sizeof(n->why), "%.*s", (int)sizeof(n->why) - 1, err);
		return false;
	}
	n->have = offset_of(n, src, "file", "f_path.mnt", &o->f_mnt) &&
		  offset_of(n, src, "file", "f_path.dentry", &o->f_dentry) &&
		  offset_of(n, src, "file", "f_inode", &o->f_inode) &&
		  offset_of(n, src, "inode", "i_ino", &o->i_ino) &&
		  offset_of(n, src, "inode", "i_sb", &o->i_sb) &&
		  offset_of(n, src, "super_block", "s_dev", &o->s_dev) &&
		  offset_of(n, src, "dentry", "d_parent", &o->d_parent) &&
		  offset_of(n, src, "dentry", "d_name.name", &o->d_name) &&
		  offset_of(n, src, "dentry", "d_name.len", &o->d_len) &&
		  offset_of(n, src, "mount", "mnt", &o->m_mnt) &&
		  offset_of(n, src, "mount", "mnt_id", &o->m_id);
	layout_source__delete(src);
	return n->have;
}

static int read_u64(struct kobject_namer *n, uint64_t addr, uint64_t *v)
{
	return code_reader__read_kernel(n->code, addr, v, sizeof(*v));
}

static int read_u32(struct kobject_namer *n, uint64_t addr, uint32_t *v)
{
	return code_reader__read_kernel(n->code, addr, v, sizeof(*v));
}

/* What identifies the file: its mount, dentry, inode number and device (the kernel's dev_t). */
struct file_id {
	uint64_t mnt, dentry;
	uint64_t ino;
	uint32_t dev;
	int mnt_id;
};

static int read_file_id(struct kobject_namer *n, uint64_t addr, struct file_id *id, char *why,
			size_t whylen)
{
	const struct file_offsets *o = &n->off;
	uint64_t inode = 0, sb = 0;
	uint32_t mnt_id = 0;

	if (read_u64(n, addr + o->f_mnt, &id->mnt) || read_u64(n, addr + o->f_dentry, &id->dentry) ||
	    read_u64(n, addr + o->f_inode, &inode)) {
		snprintf(why, whylen, "its memory could not be read");
		return -1;
	}
	if (id->mnt < KERNEL_START || id->dentry < KERNEL_START || inode < KERNEL_START) {
		snprintf(why, whylen, "it was not open (yet) when read: no path, dentry or inode");
		return -1;
	}
	if (read_u64(n, inode + n->off.i_ino, &id->ino) || read_u64(n, inode + o->i_sb, &sb) ||
	    sb < KERNEL_START || read_u32(n, sb + o->s_dev, &id->dev) ||
	    read_u32(n, id->mnt - o->m_mnt + o->m_id, &mnt_id)) {
		snprintf(why, whylen, "its inode or mount could not be read");
		return -1;
	}
	id->mnt_id = (int)mnt_id;
	return 0;
}

/* One fdinfo file's "mnt_id:" and "ino:" lines. */
static bool fdinfo_matches(const char *path, const struct file_id *id)
{
	FILE *f = fopen(path, "re");
	char line[256];
	long long mnt_id = -1;
	unsigned long long ino = 0;
	bool have_ino = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "mnt_id: %lld", &mnt_id) == 1)
			continue;
		if (sscanf(line, "ino: %llu", &ino) == 1)
			have_ino = true;
	}
	fclose(f);
	return have_ino && mnt_id == id->mnt_id && ino == id->ino;
}

/* The fd of task @tid that is this file (its mount and inode), its path as the kernel says. */
static bool from_fd_table(pid_t tid, const struct file_id *id, struct kobject_what *out)
{
	char dir[64], path[96];
	struct dirent *de;
	DIR *d;
	bool found = false;

	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", (int)tid);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		ssize_t len;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		fd = atoi(de->d_name);
		snprintf(path, sizeof(path), "%s/%d", dir, fd);
		if (!fdinfo_matches(path, id))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)tid, fd);
		len = readlink(path, out->path, sizeof(out->path) - 1);
		if (len <= 0)
			continue;
		out->path[len] = '\0';
		snprintf(out->how, sizeof(out->how), "fd %d of pid %d", fd, (int)tid);
		found = true;
	}
	closedir(d);
	return found;
}

struct map_match {
	const struct file_id *id;
	struct kobject_what *out;
};

/* The kernel's dev_t: 12 bits of major above 20 bits of minor (MAJOR/MINOR in kdev_t.h). */
static int map_is_file(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	struct map_match *mm = arg;

	if (m->ino != mm->id->ino || m->maj != mm->id->dev >> 20 ||
	    m->min != (mm->id->dev & 0xfffff) || m->filename[0] != '/')
		return 0;
	snprintf(mm->out->path, sizeof(mm->out->path), "%s", m->filename);
	return 1;
}

/* A mapping of this file (its device and inode) in task @tid. */
static bool from_maps(pid_t tid, const struct file_id *id, struct kobject_what *out)
{
	struct map_match mm = { id, out };

	if (proc_maps__for_each(NULL, tid, map_is_file, &mm) != 1)
		return false;
	snprintf(out->how, sizeof(out->how), "mapped by pid %d", (int)tid);
	return true;
}

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/*
 * Mount @mnt_id as the mount table @path lists it (the task's own, so that a containerized
 * task's file is named as the task sees it): its root in its filesystem and its mount point.
 */
static bool mount_in(const char *path, int mnt_id, char *root, char *point, size_t size)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *save = NULL, *fields[5];
		int i = 0;

		for (char *t = strtok_r(line, " ", &save); t && i < 5; t = strtok_r(NULL, " ", &save))
			fields[i++] = t;
		if (i < 5 || atoi(fields[0]) != mnt_id)
			continue;
		unescape(fields[3]);
		unescape(fields[4]);
		snprintf(root, size, "%s", fields[3]);
		snprintf(point, size, "%s", fields[4]);
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* Mount @mnt_id in task @tid's mount namespace, else in ours. */
static bool mount_of(pid_t tid, int mnt_id, char *root, char *point, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)tid);
	return (tid > 0 && mount_in(path, mnt_id, root, point, size)) ||
	       mount_in("/proc/self/mountinfo", mnt_id, root, point, size);
}

/* The dentry's path in its filesystem ("/etc/ld.so.cache"), walking d_parent to the root. */
static int dentry_path(struct kobject_namer *n, uint64_t dentry, char *buf, size_t size)
{
	char tmp[PATH_MAX];
	size_t at = sizeof(tmp) - 1;

	tmp[at] = '\0';
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		uint64_t parent, name;
		uint32_t len;
		char comp[256];

		if (read_u64(n, dentry + n->off.d_parent, &parent) ||
		    read_u64(n, dentry + n->off.d_name, &name) ||
		    read_u32(n, dentry + n->off.d_len, &len) || parent < KERNEL_START)
			return -1;
		if (parent == dentry)
			break;	/* the filesystem's root */
		if (!len || len >= sizeof(comp) || len + 1 > at ||
		    code_reader__read_kernel(n->code, name, comp, len))
			return -1;
		if (memchr(comp, '/', len) || memchr(comp, '\0', len))
			return -1;	/* no name of a live dentry: the memory was reused */
		at -= len;
		memcpy(tmp + at, comp, len);
		tmp[--at] = '/';
		dentry = parent;
		if (depth == MAX_DEPTH - 1)
			return -1;
	}
	snprintf(buf, size, "%s", tmp[at] ? tmp + at : "/");
	return 0;
}

/* The path from the kernel's dentries, placed under its mount's mount point (as @tid sees it). */
static bool from_dentries(struct kobject_namer *n, pid_t tid, const struct file_id *id,
			  struct kobject_what *out)
{
	char fs_path[PATH_MAX], root[PATH_MAX], point[PATH_MAX];
	size_t rl;

	if (dentry_path(n, id->dentry, fs_path, sizeof(fs_path)) < 0)
		return false;
	if (!mount_of(tid, id->mnt_id, root, point, sizeof(root))) {
		snprintf(out->why, sizeof(out->why), "a file of a kernel-internal filesystem "
			 "(mount %d, inode %" PRIu64 ") no longer in the task's fd table", id->mnt_id,
			 id->ino);
		return false;
	}
	rl = strcmp(root, "/") ? strlen(root) : 0;
	if (strncmp(fs_path, root, rl) || (fs_path[rl] != '/' && fs_path[rl] != '\0')) {
		snprintf(out->why, sizeof(out->why), "%.200s is outside its mount's root %.200s",
			 fs_path, root);
		return false;
	}
	snprintf(out->path, sizeof(out->path), "%s%s", strcmp(point, "/") || !fs_path[rl] ? point :
		 "", fs_path + rl);
	snprintf(out->how, sizeof(out->how), "from its dentries");
	return true;
}

void kobject_namer__file(struct kobject_namer *n, uint64_t addr, pid_t pid, pid_t tid,
			 struct kobject_what *out)
{
	struct file_id id;

	out->path[0] = out->how[0] = out->why[0] = '\0';
	if (!code_reader__kernel_source(n->code)) {
		snprintf(out->why, sizeof(out->why), "no path: kernel memory cannot be read (no "
			 "/proc/kcore, no BPF)");
		return;
	}
	if (!load_offsets(n)) {
		snprintf(out->why, sizeof(out->why), "no path: %.400s", n->why);
		return;
	}
	out->read_at = now_ns();
	if (read_file_id(n, addr, &id, out->why, sizeof(out->why)) < 0)
		return;
	if (from_fd_table(tid, &id, out) || (tid != pid && from_fd_table(pid, &id, out)) ||
	    from_maps(tid, &id, out) || from_dentries(n, tid, &id, out))
		return;
	if (!out->why[0])
		snprintf(out->why, sizeof(out->why), "no path: inode %" PRIu64 " of mount %d is in "
			 "no fd or mapping of pid %d and its dentries could not be read", id.ino,
			 id.mnt_id, (int)tid);
}

/* "name+0xoff" of a kernel address, or its hex. */
static void kernel_frame(struct kobject_namer *n, uint64_t ip, char *buf, size_t size)
{
	uint64_t start = 0;
	/* a return address may be one past a call that ends its function */
	const char *f = code_reader__function(n->code, ip - 1, true, &start);

	if (f)
		snprintf(buf, size, "%s+%#" PRIx64, f, ip - start);
	else
		snprintf(buf, size, "%#" PRIx64, ip);
}

struct user_map {
	uint64_t ip;
	uint64_t file_off;	/* @ip's offset in the mapped file */
	struct code_reader *code;
	const char *file;	/* the mapping's file, or NULL */
	char name[PATH_MAX];
};

static int add_user_map(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	struct user_map *um = arg;
	char err[128];

	if (um->ip < m->start || um->ip >= m->start + m->len || m->filename[0] != '/')
		return 0;
	code_reader__add_map(um->code, m->filename, m->start, m->start + m->len, m->pgoff, err,
			     sizeof(err));
	snprintf(um->name, sizeof(um->name), "%s", m->filename);
	um->file = um->name;
	um->file_off = um->ip - m->start + m->pgoff;
	return 1;
}

/* "pipe2+0x1b (libc.so.6)": the user frame @ip of process @pid, from the file mapped there. */
static void user_frame(uint64_t ip, pid_t pid, char *buf, size_t size)
{
	struct user_map um = { .ip = ip };
	const char *f = NULL, *base;
	uint64_t start = 0;

	buf[0] = '\0';
	if (code_reader__new(&um.code) < 0)
		return;
	if (proc_maps__for_each(NULL, pid, add_user_map, &um) == 1)
		f = code_reader__function(um.code, ip - 1, false, &start);
	base = um.file ? strrchr(um.file, '/') + 1 : NULL;
	if (f)
		snprintf(buf, size, "%s+%#" PRIx64 " (%s)", f, ip - start, base);
	else if (base)	/* a stripped library: where in the file, as addr2line takes it */
		snprintf(buf, size, "%s+%#" PRIx64, base, um.file_off);
	else
		snprintf(buf, size, "%#" PRIx64, ip);
	code_reader__delete(um.code);
}

void kobject_namer__chain(struct kobject_namer *n, const uint64_t *ips, size_t nr,
			  uint64_t call_site, pid_t pid, unsigned int max_frames,
			  struct kobject_what *out)
{
	size_t first = 0, len = 0;
	unsigned int shown = 0;
	bool user = false, found = false;
	char frame[256];

	out->chain[0] = out->user[0] = '\0';
	/* The allocator's own frames end where its caller, the call site, begins. */
	for (size_t i = 0; i < nr && call_site; i++)
		if (ips[i] == call_site) {
			first = i;
			found = true;
			break;
		}
	if (!found && call_site) {
		kernel_frame(n, call_site, frame, sizeof(frame));
		len += snprintf(out->chain + len, sizeof(out->chain) - len, "%s", frame);
		shown++;
		first = nr;	/* the chain does not pass the call site: it alone is sure */
	}
	for (size_t i = first; i < nr; i++) {
		if (ips[i] >= CONTEXT_MAX) {
			user = ips[i] == CONTEXT_USER;
			continue;
		}
		if (!user && shown < max_frames && len < sizeof(out->chain) - 1) {
			kernel_frame(n, ips[i], frame, sizeof(frame));
			len += snprintf(out->chain + len, sizeof(out->chain) - len, "%s%s",
					shown ? " <- " : "", frame);
			shown++;
		}
	}
	/* The first user frame: where the task entered the kernel (the frame-pointer walk beyond
	 * it is unreliable in code built without frame pointers, as most libraries are). */
	user = false;
	for (size_t i = 0; i < nr; i++) {
		if (ips[i] >= CONTEXT_MAX) {
			user = ips[i] == CONTEXT_USER;
			continue;
		}
		if (user && ips[i] && ips[i] < KERNEL_START) {
			user_frame(ips[i], pid, out->user, sizeof(out->user));
			break;
		}
	}
}
