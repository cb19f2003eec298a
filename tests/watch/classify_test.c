// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access kind of the instruction that ends at a breakpoint's trap address
 * (code__classify_bytes), for the x86-64 instructions that touch memory in the kernel's and
 * compilers' hot paths.  Bytes are what gcc/gas emit (checked with objdump -d).
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "dwarf/code.h"

static const struct {
	const char *what;
	unsigned char bytes[16];
	unsigned int len;
	enum access_kind want;
} cases[] = {
	{ "mov rax, [rdi+0xb0]", { 0x48, 0x8b, 0x87, 0xb0, 0, 0, 0 }, 7, ACCESS_LOAD },
	{ "mov [rip+0x2ecb], rax", { 0x48, 0x89, 0x05, 0xcb, 0x2e, 0, 0 }, 7, ACCESS_STORE },
	{ "lock xadd [rdi+0xb0], rsi", { 0xf0, 0x48, 0x0f, 0xc1, 0xb7, 0xb0, 0, 0, 0 }, 9,
	  ACCESS_LOCKED_RMW },
	{ "lock add qword [rax+0xb0], 1", { 0xf0, 0x48, 0x83, 0x80, 0xb0, 0, 0, 0, 1 }, 9,
	  ACCESS_LOCKED_RMW },
	{ "lock cmpxchg [rbx], rdx", { 0xf0, 0x48, 0x0f, 0xb1, 0x13 }, 5, ACCESS_LOCKED_RMW },
	{ "xchg [rdi], rax", { 0x48, 0x87, 0x07 }, 3, ACCESS_LOCKED_RMW },
	{ "add qword [rdi], 1", { 0x48, 0x83, 0x07, 0x01 }, 4, ACCESS_RMW },
	{ "inc dword [rdi+8]", { 0xff, 0x47, 0x08 }, 3, ACCESS_RMW },
	{ "test byte [rdi+5], 0x40", { 0xf6, 0x47, 0x05, 0x40 }, 4, ACCESS_LOAD },
	{ "cmp rsi, [rdi+0x70]", { 0x48, 0x3b, 0x77, 0x70 }, 4, ACCESS_LOAD },
	{ "bt dword [rdi], 3", { 0x0f, 0xba, 0x27, 0x03 }, 4, ACCESS_LOAD },
	{ "lock bts qword [rdi], 3", { 0xf0, 0x48, 0x0f, 0xba, 0x2f, 0x03 }, 6, ACCESS_LOCKED_RMW },
	{ "movzx eax, byte [rdi]", { 0x0f, 0xb6, 0x07 }, 3, ACCESS_LOAD },
	{ "sete byte [rdi]", { 0x0f, 0x94, 0x07 }, 3, ACCESS_STORE },
	{ "mov dword [rdi], 0", { 0xc7, 0x07, 0, 0, 0, 0 }, 6, ACCESS_STORE },
	{ "add eax, [rdi]", { 0x03, 0x07 }, 2, ACCESS_LOAD },
	{ "add rax, 1 (no memory)", { 0x48, 0x83, 0xc0, 0x01 }, 4, ACCESS_UNKNOWN },
};

int main(void)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* Two instructions before it (nop; mov ecx, ecx) so the decoder walks from a
		 * function start, as it does for real hits. */
		unsigned char code[32] = { 0x90, 0x89, 0xc9 };
		struct access_info a;
		uint64_t start = 0xffffffff81000000ULL;

		memcpy(code + 3, cases[i].bytes, cases[i].len);
		code__classify_bytes(code, 3 + cases[i].len, start, start + 3 + cases[i].len, &a);
		if (a.kind != cases[i].want || (a.kind != ACCESS_UNKNOWN && a.insn_addr != start + 3)) {
			printf("FAIL %s: got %s (%s) at +%llu, want %s\n", cases[i].what,
			       access_kind__name(a.kind), a.text,
			       (unsigned long long)(a.insn_addr - start), access_kind__name(cases[i].want));
			failed++;
		} else {
			printf("ok   %-32s %-10s %s\n", cases[i].what, access_kind__name(a.kind), a.text);
		}
	}
	/* A trap address inside an instruction: nothing ends there. */
	{
		unsigned char code[] = { 0x48, 0x8b, 0x87, 0xb0, 0, 0, 0 };
		struct access_info a;

		code__classify_bytes(code, sizeof(code), 0x1000, 0x1003, &a);
		if (a.kind != ACCESS_UNKNOWN || !a.why) {
			printf("FAIL mid-instruction address classified %s\n", access_kind__name(a.kind));
			failed++;
		}
	}
	return failed ? 1 : 0;
}
