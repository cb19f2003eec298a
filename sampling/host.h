/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_HOST_H
#define LINEUP_SAMPLING_HOST_H

/*
 * Facts about the running machine that a recording needs and perf record synthesizes: the
 * kernel's symbols (/proc/kallsyms), its text range and the kernel map, the modules' maps, a
 * process's maps (/proc/PID/maps) and its threads' names.  One parser each, so `record`,
 * `watch` and dwarf/'s kernel code reader see the same kernel and the same maps.  libc only.
 *
 * The parsers of one line (ksym__parse, proc_maps__parse) take text, not a file, so tests feed
 * them lines a machine may or may not have (paths with spaces, deleted files, module symbols).
 *
 * Ownership: the structs handed to callbacks point into a line buffer that lives for the call
 * only; copy what you keep.
 */

#include <stdint.h>
#include <sys/types.h>

#include "sampling/event.h"
#include "util/ksym.h"

#define HOST_KALLSYMS "/proc/kallsyms"

/*
 * Call @fn for each symbol of @path (NULL: /proc/kallsyms) until it returns non-zero.
 * Returns that value, 0 after the last symbol, or -errno when the file cannot be read.
 */
int kallsyms__for_each(const char *path, int (*fn)(const struct ksym *sym, void *arg), void *arg);

/*
 * The kernel's text as perf takes it (machine__get_running_kernel_start): from _text (else
 * _stext) to _etext, or to the top of the address space when _etext is not listed.  0, or
 * -ENOENT when the file lists no such symbol or hides the addresses (kptr_restrict: zeros).
 */
int kallsyms__kernel_text(const char *path, uint64_t *start, uint64_t *end);

/*
 * The kernel map as perf record synthesizes it: pid -1, "[kernel.kallsyms]_text" over the
 * text, pgoff = _text (perf's reference symbol, so perf relocates with the running kernel's
 * symbols); and one map per loaded module, "[NAME]" over its core (perf then finds its .ko by
 * name).  Calls @fn with each map and its cpumode until @fn returns non-zero; returns that, or
 * 0.  Nothing is delivered where kallsyms hides the addresses.  @kallsyms, @modules: NULL
 * for /proc/kallsyms and /proc/modules.
 */
int host__kernel_maps(const char *kallsyms, const char *modules,
		      int (*fn)(const struct rec_mmap *m, uint16_t misc, void *arg), void *arg);

/*
 * Parse one line of /proc/PID/maps into @m (pid and tid left alone); the file name keeps its
 * spaces and is "//anon" for an anonymous mapping.  @line is modified in place (the name points
 * into it).  0, or -1 when the line is malformed.
 */
int proc_maps__parse(char *line, struct rec_mmap *m);

/* The record misc perf gives a process's map: user mode, MMAP_DATA unless executable. */
uint16_t proc_maps__misc(const struct rec_mmap *m);

/*
 * Call @fn with each mapping of process @pid (pid and tid set to @pid) and its misc, until @fn
 * returns non-zero; returns that, 0 at the end, or -errno when the maps cannot be read (the
 * process is gone).  @root: a directory to read instead of /proc (tests), or NULL.
 */
int proc_maps__for_each(const char *root, pid_t pid,
			int (*fn)(const struct rec_mmap *m, uint16_t misc, void *arg), void *arg);

/*
 * The cache-line size of this machine (the L1 data cache's coherency line, from sysfs, else
 * libc's), 64 when neither says or what they say is no power of two.
 */
unsigned int host__cache_line_size(void);

/* The path of the running lineup binary (/proc/self/exe), to free(); NULL with errno set. */
char *host__self_exe(void);

/*
 * The memory this process can still take: the smaller of MemAvailable (/proc/meminfo) and
 * what RLIMIT_AS leaves above its present address space; 0 when neither is known.  @which
 * says which one bounds it ("MemAvailable", "RLIMIT_AS").
 */
uint64_t host__memory_available(const char **which);

/* The name of thread @tid of @pid (/proc/PID/task/TID/comm) in @buf: 0, or -errno. */
int host__thread_comm(pid_t pid, pid_t tid, char *buf, size_t size);

#endif
