/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_KOBJECT_H
#define LINEUP_PIPELINE_KOBJECT_H

/*
 * What a kernel object that `lineup watch` follows is, said as its user knows it:
 *  - a struct file (the filp cache): its path.  Its f_path and f_inode are read from kernel
 *    memory (dwarf/code.h's reader: /proc/kcore or bpf_probe_read_kernel) at the offsets the
 *    running kernel's BTF gives, then matched, by mount id and inode number, against the
 *    allocating task's fd table (/proc/TID/fdinfo/N; the path as readlink(/proc/TID/fd/N)
 *    gives it, which is the kernel's own d_path), else by device and inode against its mapped
 *    files (/proc/TID/maps).  A file in neither (closed and unmapped by then) is named from its
 *    dentries up to its mount's root and that mount's place in the task's mount table
 *    (/proc/TID/mountinfo, else ours).  The fd table is preferred: the kernel made that name,
 *    and the fd number says which of the task's files it is.
 *  - any object: its allocating call chain, from the kmem tracepoint sample's
 *    PERF_SAMPLE_CALLCHAIN (kernel frames from the allocation's call site on, symbolized from
 *    kallsyms; the first user frame symbolized from the mapped ELF file it falls in).
 *
 * The memory is read when the allocation record is handled, soon after it: an object freed
 * before that may already be another one (kobject_what.read_at says when, for the caller to
 * compare with the free).
 *
 * Ownership: the namer borrows the code reader (which must hold the kernel's symbols and a
 * source of kernel bytes) and owns its offsets; a kobject_what is plain data.
 * Errors: the functions always fill @out; what could not be told is said in @out->why.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct code_reader;

#define KOBJECT_TEXT 512
#define KOBJECT_PATH 4096

/**
 * struct kobject_what - what one object is.
 * @path:	a struct file's path ("" when not a file, or not found)
 * @how:	how @path was found: "fd 3 of pid 1234", "mapped by pid 1234", "from its dentries"
 * @chain:	the allocating kernel call chain, innermost first:
 *		"alloc_pipe_info+0x3b <- create_pipe_files+0x4a <- ..." ("" when none was sampled)
 * @user:	the user-space caller: "pipe2+0x1b (libc.so.6)" ("" when none)
 * @why:	what could not be told, and why ("" when everything asked for was found)
 * @read_at:	CLOCK_MONOTONIC ns when the object's memory was read (0: it was not)
 */
struct kobject_what {
	char path[KOBJECT_PATH];
	char how[64];
	char chain[KOBJECT_TEXT];
	char user[256];
	char why[KOBJECT_TEXT];
	uint64_t read_at;
};

struct kobject_namer;

/*
 * @files: struct files will be named: their offsets are looked up now (the BTF read takes a
 * while, better spent before the first object than between its allocation and its reading).
 */
int kobject_namer__new(struct kobject_namer **out, struct code_reader *code, bool files);
void kobject_namer__delete(struct kobject_namer *n);

/*
 * The path of the struct file at @addr, allocated by task @tid of process @pid, into @out
 * (path, how, why, read_at).
 */
void kobject_namer__file(struct kobject_namer *n, uint64_t addr, pid_t pid, pid_t tid,
			 struct kobject_what *out);

/*
 * The call chain of an allocation into @out (chain, user): @ips is the sample's
 * PERF_SAMPLE_CALLCHAIN as the kernel wrote it (context markers included), @call_site the
 * tracepoint's call_site (the allocator's caller: frames inside the allocator are left out),
 * @pid the process whose maps the user frames are in.  At most @max_frames kernel frames.
 */
void kobject_namer__chain(struct kobject_namer *n, const uint64_t *ips, size_t nr,
			  uint64_t call_site, pid_t pid, unsigned int max_frames,
			  struct kobject_what *out);

#endif
