/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The structs whose type references tests/layout/cycles.sh edits into cycles (an array of
 * itself, a typedef of itself, const <-> volatile, a struct containing itself); struct fine
 * is on none.  tests/fuzz/elf_run.sh makes the same cycles into fuzzing seeds.
 */
typedef int myint;
struct arr_self { int a; int arr[4]; char c; };
struct td_self { char c; myint t; long l; };
struct cv_loop { char c; const volatile int cv; long l; };
struct inner { int x; };
struct self_member { char c; struct inner in; long l; };
struct fine { int a; long b; };
struct arr_self v1; struct td_self v2; struct cv_loop v3; struct self_member v4; struct fine v5;
