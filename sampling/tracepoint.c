// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/tracepoint.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "sampling/tracefs.h"
#include "util/file.h"
#include "util/ksym.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct tp_decoder {
	struct tep_handle *tep;
	struct tp_field *fields;	/* scratch for the last decode */
	size_t fields_cap;
	uint8_t *copy;			/* the payload being printed, NUL-padded */
	size_t copy_cap;
};

struct tp_decoder *tp_decoder__new(void)
{
	struct tp_decoder *d = xcalloc(1, sizeof(*d));

	d->tep = tep_alloc();
	if (!d->tep)
		abort();
	tep_set_flag(d->tep, TEP_NSEC_OUTPUT);
	/* Defaults for the running kernel; a TRACING_DATA section overrides them. */
	tep_set_long_size(d->tep, sizeof(long));
	tep_set_page_size(d->tep, 4096);
	return d;
}

void tp_decoder__delete(struct tp_decoder *d)
{
	if (!d)
		return;
	tep_free(d->tep);
	free(d->fields);
	free(d->copy);
	free(d);
}

int tp_decoder__add_format(struct tp_decoder *d, const char *sys, const char *fmt, size_t len,
			   char *err, size_t errlen)
{
	struct tep_event *ev = NULL;
	enum tep_errno e = tep_parse_format(d->tep, &ev, fmt, len, sys);

	if (e != TEP_ERRNO__SUCCESS || !ev) {
		char msg[128];

		tep_strerror(d->tep, e, msg, sizeof(msg));
		snprintf(err, errlen, "cannot parse the format of a %s event: %s", sys, msg);
		return -EINVAL;
	}
	return ev->id;
}

int tp_decoder__add_tracefs(struct tp_decoder *d, const char *sys, const char *name, char *err,
			    size_t errlen)
{
	size_t len;
	char *buf;
	int rc = tracefs__event_format(sys, name, &buf, &len, err, errlen);

	if (rc < 0)
		return rc;
	rc = tp_decoder__add_format(d, sys, buf, len, err, errlen);
	free(buf);
	return rc;
}

int tp_decoder__find(const struct tp_decoder *d, const char *sys, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(d->tep, sys, name);

	return ev ? ev->id : -ENOENT;
}

/* A bounds-checked cursor over the TRACING_DATA bytes. */
struct cursor {
	const unsigned char *p;
	size_t len, off;
	bool swap;
	char *err;
	size_t errlen;
};

static int cur_need(struct cursor *c, size_t n, const char *what)
{
	if (n > c->len - c->off) {
		snprintf(c->err, c->errlen,
			 "tracing data: byte offset %zu: %s needs %zu bytes, only %zu left", c->off,
			 what, n, c->len - c->off);
		return -EINVAL;
	}
	return 0;
}

static int cur_u32(struct cursor *c, uint32_t *v, const char *what)
{
	if (cur_need(c, 4, what))
		return -EINVAL;
	memcpy(v, c->p + c->off, 4);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	c->off += 4;
	return 0;
}

static int cur_u64(struct cursor *c, uint64_t *v, const char *what)
{
	if (cur_need(c, 8, what))
		return -EINVAL;
	memcpy(v, c->p + c->off, 8);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	c->off += 8;
	return 0;
}

static const char *cur_string(struct cursor *c, const char *what)
{
	const unsigned char *nul = memchr(c->p + c->off, 0, c->len - c->off);
	const char *s = (const char *)c->p + c->off;

	if (!nul) {
		snprintf(c->err, c->errlen, "tracing data: byte offset %zu: %s is not terminated",
			 c->off, what);
		return NULL;
	}
	c->off = nul - c->p + 1;
	return s;
}

/* A size-prefixed blob: its start, after checking that it fits. */
static const char *cur_blob(struct cursor *c, uint64_t size, const char *what)
{
	const char *s = (const char *)c->p + c->off;

	if (size > c->len - c->off) {
		snprintf(c->err, c->errlen,
			 "tracing data: byte offset %zu: %s of %llu bytes runs past the end (%zu left)",
			 c->off, what, (unsigned long long)size, c->len - c->off);
		return NULL;
	}
	c->off += size;
	return s;
}

/* kallsyms text: "ADDR TYPE NAME [MODULE]" per line; register text symbols. */
struct kallsyms_reg {
	struct tep_handle *tep;
	int n;
};

static int register_one(const struct ksym *k, void *arg)
{
	struct kallsyms_reg *r = arg;

	if (ksym__is_text(k)) {
		tep_register_function(r->tep, (char *)k->name, k->addr, (char *)k->module);
		r->n++;
	}
	return 0;
}

/* The text symbols of a kallsyms text, for libtraceevent's %pS: how many. */
static int register_kallsyms(struct tep_handle *tep, const char *text, size_t len)
{
	struct kallsyms_reg r = { tep, 0 };

	ksym__for_each_text(text, len, register_one, &r);
	return r.n;
}

/* printk formats: lines of "ADDR : \"FORMAT\"" (perf's parse_ftrace_printk). */
static void register_printk(struct tep_handle *tep, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sep = strstr(line, " : ");
		unsigned long long addr;
		char *fmt;

		if (!sep)
			continue;
		*sep = 0;
		addr = strtoull(line, NULL, 16);
		fmt = sep + 3;
		/* As perf passes it: quoted.  libtraceevent strips the quotes and a trailing "\n"
		 * by looking back from the end, so it needs the quotes (and reads before a
		 * shorter string). */
		if (strlen(fmt) < 4 || fmt[0] != '"')
			continue;
		tep_register_print_string(tep, fmt, addr);
	}
}

static void register_cmdlines(struct tep_handle *tep, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t ll = (nl ? nl : end) - p;
		char line[256], comm[64];
		int pid;

		if (ll < sizeof(line)) {
			memcpy(line, p, ll);
			line[ll] = 0;
			if (sscanf(line, "%d %63s", &pid, comm) == 2)
				tep_register_comm(tep, comm, pid);
		}
		p += ll + 1;
	}
}

/* Before each libtraceevent parse: tell the watching parent where we are (see below). */
static void progress(int fd, size_t off)
{
	uint64_t v = off;

	if (fd >= 0 && write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(3);
}

static int load_tracing_data(struct tp_decoder *d, const void *data, size_t len, char *err,
			     size_t errlen, int progress_fd)
{
	static const unsigned char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor c = { .p = data, .len = len, .err = err, .errlen = errlen };
	const char *version, *s;
	uint32_t page_size, count, nsys;
	uint64_t size;
	int file_be, long_size;

	if (cur_need(&c, sizeof(magic), "the magic") || memcmp(c.p, magic, sizeof(magic))) {
		snprintf(err, errlen, "tracing data: byte offset 0: no \\027\\010Dtracing magic");
		return -EINVAL;
	}
	c.off = sizeof(magic);
	version = cur_string(&c, "the version string");
	if (!version)
		return -EINVAL;
	if (cur_need(&c, 2, "endianness and long size"))
		return -EINVAL;
	file_be = c.p[c.off];
	long_size = c.p[c.off + 1];
	c.off += 2;
	c.swap = file_be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (long_size != 4 && long_size != 8) {
		snprintf(err, errlen, "tracing data: byte offset %zu: long size %d (expected 4 or 8)",
			 c.off - 1, long_size);
		return -EINVAL;
	}
	if (cur_u32(&c, &page_size, "the page size"))
		return -EINVAL;
	tep_set_file_bigendian(d->tep, file_be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(d->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
										  TEP_LITTLE_ENDIAN);
	tep_set_long_size(d->tep, long_size);
	tep_set_page_size(d->tep, page_size);

	/* header_page, header_event */
	if (cur_need(&c, 12, "header_page") || memcmp(c.p + c.off, "header_page", 12)) {
		snprintf(err, errlen, "tracing data: byte offset %zu: expected \"header_page\"", c.off);
		return -EINVAL;
	}
	c.off += 12;
	if (cur_u64(&c, &size, "header_page size") || !(s = cur_blob(&c, size, "header_page")))
		return -EINVAL;
	progress(progress_fd, s - (const char *)data);
	if (!tep_parse_header_page(d->tep, (char *)s, size, long_size))
		tep_set_long_size(d->tep, tep_get_header_page_size(d->tep));
	if (cur_need(&c, 13, "header_event") || memcmp(c.p + c.off, "header_event", 13)) {
		snprintf(err, errlen, "tracing data: byte offset %zu: expected \"header_event\"",
			 c.off);
		return -EINVAL;
	}
	c.off += 13;
	if (cur_u64(&c, &size, "header_event size") || !cur_blob(&c, size, "header_event"))
		return -EINVAL;

	/* ftrace's own events */
	if (cur_u32(&c, &count, "the ftrace format count"))
		return -EINVAL;
	for (uint32_t i = 0; i < count; i++) {
		size_t at = c.off;

		if (cur_u64(&c, &size, "an ftrace format size") ||
		    !(s = cur_blob(&c, size, "an ftrace format")))
			return -EINVAL;
		progress(progress_fd, at);
		/* perf ignores ftrace formats it cannot parse too. */
		(void)tep_parse_event(d->tep, s, size, "ftrace");
	}

	/* event systems */
	if (cur_u32(&c, &nsys, "the system count"))
		return -EINVAL;
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = cur_string(&c, "a system name");

		if (!sys || cur_u32(&c, &count, "an event count"))
			return -EINVAL;
		for (uint32_t k = 0; k < count; k++) {
			size_t at;

			if (cur_u64(&c, &size, "an event format size"))
				return -EINVAL;
			at = c.off;
			if (!(s = cur_blob(&c, size, "an event format")))
				return -EINVAL;
			progress(progress_fd, at);
			if (tep_parse_event(d->tep, s, size, sys) != TEP_ERRNO__SUCCESS) {
				snprintf(err, errlen,
					 "tracing data: byte offset %zu: cannot parse a %s event format",
					 at, sys);
				return -EINVAL;
			}
		}
	}

	/* kallsyms (empty in perf >= 5.x, which resolves symbols itself) */
	if (cur_u32(&c, &count, "the kallsyms size") || !(s = cur_blob(&c, count, "kallsyms")))
		return -EINVAL;
	if (count)
		register_kallsyms(d->tep, s, count);

	/* printk formats */
	if (cur_u32(&c, &count, "the printk formats size") ||
	    !(s = cur_blob(&c, count, "printk formats")))
		return -EINVAL;
	if (count) {
		char *copy = xstrndup(s, count);

		register_printk(d->tep, copy);
		free(copy);
	}

	/* saved cmdlines, since version 0.6 */
	if (strtod(version, NULL) >= 0.6 && c.off < c.len) {
		if (cur_u64(&c, &size, "the saved cmdlines size") ||
		    !(s = cur_blob(&c, size, "saved cmdlines")))
			return -EINVAL;
		register_cmdlines(d->tep, s, size);
	}
	return 0;
}

/*
 * libtraceevent crashes on some malformed formats (found by tests/fuzz/tracepoint_fuzz.c: a
 * "signed:0\\n" in place of "signed:0;" is enough), and a perf.data is untrusted input.  So
 * the formats are first parsed by a checker, a child process that reports the byte offset of
 * each one before parsing it; only when the checker survives does this process parse them.
 *
 * The checker is started once and kept for the next tracing data (a fork per check held the
 * fuzzer to 8 inputs a second): it reads a request (u64 length, the bytes), answers with the
 * offsets and one of the two ends below, and waits for the next.  It is started again after
 * a crash, and after CHECKER_USES checks, so that what libtraceevent leaks on malformed
 * formats stays bounded.  It belongs to the process that started it (a forked child of that
 * process starts its own), so its state is process-wide, not a decoder's.
 */
#define CHECK_PARSED UINT64_MAX
#define CHECK_REFUSED (UINT64_MAX - 1)
#define CHECKER_USES 1000

static struct {
	pid_t pid, owner;
	int fd;
	unsigned int uses;
} checker = { .fd = -1 };

/*
 * All @n bytes through the checker's socket, received (@out false) or sent; false at its end
 * or on an error.  MSG_NOSIGNAL: a checker that died is an answer, not a SIGPIPE.
 */
static bool sock_all(int fd, void *buf, size_t n, bool out)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t k = out ? send(fd, p, n, MSG_NOSIGNAL) : recv(fd, p, n, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

static void checker_serve(int fd)
{
	int devnull = open("/dev/null", O_RDWR);

	/* Nothing of ours but the socket: a sanitizer's report of a crash is the parent's to
	 * give, and a pipe on stdout must not wait for the checker to close it. */
	for (int k = 0; k < 3 && devnull >= 0; k++)
		dup2(devnull, k);
	/* Die by the signal itself, not through a sanitizer's or fuzzer's handler. */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	for (;;) {
		struct tp_decoder *d;
		uint64_t len, end;
		void *data;
		char e[64];

		if (!sock_all(fd, &len, sizeof(len), false) || len > SIZE_MAX)
			_exit(0);
		data = malloc(len ? len : 1);
		if (!data || !sock_all(fd, data, len, false))
			_exit(0);
		d = tp_decoder__new();
		end = load_tracing_data(d, data, len, e, sizeof(e), fd) < 0 ? CHECK_REFUSED
									    : CHECK_PARSED;
		tp_decoder__delete(d);
		free(data);
		if (!sock_all(fd, &end, sizeof(end), true))
			_exit(0);
	}
}

/* End the checker (closing its socket ends its loop) and reap it; @status: how it ended. */
static void checker_stop(int *status)
{
	int st = 0;

	if (checker.fd >= 0)
		close(checker.fd);
	if (checker.pid > 0)
		while (waitpid(checker.pid, &st, 0) < 0 && errno == EINTR)
			;
	if (status)
		*status = st;
	checker.fd = -1;
	checker.pid = 0;
	checker.uses = 0;
}

static bool checker_start(void)
{
	int sv[2];
	pid_t pid;

	if (checker.pid && checker.owner != getpid()) {
		/* a fork of the process that started it: not ours to use or to end */
		close(checker.fd);
		checker.fd = -1;
		checker.pid = 0;
	}
	if (checker.pid)
		return true;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	if (pid == 0) {
		close(sv[0]);
		checker_serve(sv[1]);
	}
	close(sv[1]);
	checker.pid = pid;
	checker.owner = getpid();
	checker.fd = sv[0];
	checker.uses = 0;
	return true;
}

/* Hand the checker (started if need be) @len bytes to parse; false when it cannot be. */
static bool checker_request(const void *data, size_t len)
{
	uint64_t n = len;

	return checker_start() && sock_all(checker.fd, &n, sizeof(n), true) &&
	       sock_all(checker.fd, (void *)data, len, true);
}

static int formats_survive(const void *data, size_t len, char *err, size_t errlen)
{
	uint64_t last = 0, v;
	int status;

	if (!checker_request(data, len)) {
		/* it died since the last check (killed from outside): once more, anew */
		checker_stop(NULL);
		if (!checker_request(data, len)) {
			checker_stop(NULL);
			return 0;	/* cannot check: go on */
		}
	}
	while (sock_all(checker.fd, &v, sizeof(v), false)) {
		if (v == CHECK_PARSED || v == CHECK_REFUSED) {
			/* refused: the real parse below gives the message */
			if (++checker.uses >= CHECKER_USES)
				checker_stop(NULL);
			return 0;
		}
		last = v;
	}
	/* no end: the checker crashed (a signal, or a sanitizer's exit after catching one) */
	checker_stop(&status);
	snprintf(err, errlen,
		 "tracing data: byte offset %llu: this event format makes libtraceevent crash "
		 "(%s %d); refusing the tracing data", (unsigned long long)last,
		 WIFSIGNALED(status) ? "signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) :
		 WEXITSTATUS(status));
	return -EINVAL;
}

int tp_decoder__load_tracing_data(struct tp_decoder *d, const void *data, size_t len, char *err,
				  size_t errlen)
{
	int rc = formats_survive(data, len, err, errlen);

	return rc < 0 ? rc : load_tracing_data(d, data, len, err, errlen, -1);
}

int tp_decoder__load_kallsyms(struct tp_decoder *d, const char *path)
{
	char err[64];
	char *text = file__read_text(path, FILE_PROC, err, sizeof(err));
	size_t len;
	int rc;

	if (!text)
		return -errno;
	len = strlen(text);
	rc = len ? register_kallsyms(d->tep, text, len) : 0;
	free(text);
	return rc;
}

static struct tep_event *event_of(struct tp_decoder *d, const void *raw, size_t size)
{
	struct tep_record rec = { .data = (void *)raw, .size = size };
	struct tep_event *first = tep_get_event(d->tep, 0);
	struct tep_format_field *type;

	/* libtraceevent reads common_type where its first event's format says, without
	 * looking at the payload's size: check that first (the format may be hostile). */
	type = first ? tep_find_common_field(first, "common_type") : NULL;
	if (!type || type->offset < 0 || type->size <= 0 || type->size > 8 ||
	    (size_t)type->offset + type->size > size)
		return NULL;
	return tep_find_event(d->tep, tep_data_type(d->tep, &rec));
}

int tp_decoder__decode(struct tp_decoder *d, const void *raw, size_t size, struct tp_event *out,
		       char *err, size_t errlen)
{
	struct tep_event *ev = event_of(d, raw, size);
	struct tep_format_field *lists[2], *f;
	unsigned int n = 0;

	if (!ev) {
		snprintf(err, errlen, "tracepoint payload of %zu bytes: unknown event type", size);
		return -ENOENT;
	}
	lists[0] = ev->format.common_fields;
	lists[1] = ev->format.fields;
	for (int l = 0; l < 2; l++)
		for (f = lists[l]; f; f = f->next) {
			struct tp_field *tf;
			unsigned int off = f->offset, flen = f->size;

			d->fields = xgrow(d->fields, &d->fields_cap, n + 1, sizeof(*d->fields));
			tf = &d->fields[n];
			memset(tf, 0, sizeof(*tf));
			tf->name = f->name;
			tf->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
			if ((size_t)off + flen > size) {
				snprintf(err, errlen,
					 "%s:%s payload of %zu bytes: field %s at %u+%u runs past it",
					 ev->system, ev->name, size, f->name, off, flen);
				return -EINVAL;
			}
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				/* __data_loc: u32 with length << 16 | offset; __rel_loc: offset
				 * counted from the end of the field. */
				unsigned long long v = tep_read_number(d->tep, (const char *)raw + off,
								       flen);

				off = v & 0xffff;
				flen = (v >> 16) & 0xffff;
				if (f->flags & TEP_FIELD_IS_RELATIVE)
					off += f->offset + f->size;
				if ((size_t)off + flen > size) {
					snprintf(err, errlen,
						 "%s:%s payload of %zu bytes: dynamic field %s at %u+%u "
						 "runs past it",
						 ev->system, ev->name, size, f->name, off, flen);
					return -EINVAL;
				}
			}
			if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY)) {
				tf->kind = (f->flags & TEP_FIELD_IS_STRING) ? TP_STR : TP_BYTES;
				tf->str = (const char *)raw + off;
				tf->len = flen;
				if (tf->kind == TP_STR) {
					const char *nul = memchr(tf->str, 0, flen);

					if (nul)
						tf->len = nul - tf->str;
				}
			} else {
				tf->kind = TP_NUM;
				tf->num = tep_read_number(d->tep, (const char *)raw + off, flen);
				if (tf->is_signed && flen < 8 && flen > 0 &&
				    (tf->num >> (flen * 8 - 1)) & 1)
					tf->num |= ~0ULL << (flen * 8);
			}
			n++;
		}
	out->id = ev->id;
	out->sys = ev->system;
	out->name = ev->name;
	out->nr_fields = n;
	out->fields = d->fields;
	return 0;
}

const struct tp_field *tp_event__field(const struct tp_event *ev, const char *name)
{
	for (unsigned int i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

/* Zeros after a payload being printed: a string field without its NUL ends there. */
#define PRINT_PAD 64

int tp_decoder__print(struct tp_decoder *d, const void *raw, size_t size, int cpu,
		      struct strbuf *sb)
{
	struct tep_record rec = { .size = size, .cpu = cpu };
	struct trace_seq s;
	struct tp_event ev;
	char err[8];
	int rc;

	/* Only a payload whose fields lie inside it (the decode checks them), and from a copy
	 * with zeros after it: libtraceevent prints a char[] field with %s, and one that ends
	 * the payload without a NUL was read past its end (found by the tracepoint fuzzer). */
	rc = tp_decoder__decode(d, raw, size, &ev, err, sizeof(err));
	if (rc < 0)
		return rc;
	d->copy = xgrow(d->copy, &d->copy_cap, size + PRINT_PAD, 1);
	memcpy(d->copy, raw, size);
	memset(d->copy + size, 0, PRINT_PAD);
	rec.data = d->copy;
	trace_seq_init(&s);
	tep_print_event(d->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	strbuf__add(sb, s.buffer, s.len);
	trace_seq_destroy(&s);
	return 0;
}
