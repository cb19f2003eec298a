# Struct layouts from DWARF and BTF against pahole (role: layout).
TESTS += tests/layout/user.sh tests/layout/kmod.sh tests/layout/btf.sh tests/layout/errors.sh \
	tests/layout/libc.sh tests/layout/dwz.sh
dist_check_SCRIPTS += tests/layout/user.sh tests/layout/kmod.sh tests/layout/btf.sh \
	tests/layout/errors.sh tests/layout/libc.sh tests/layout/dwz.sh
EXTRA_DIST += tests/layout/structs.c tests/layout/hd_struct.h tests/kmod/lineup_kmod.c \
	tests/kmod/Kbuild tests/fuzz/elf_fuzz.c tests/fuzz/elf_run.sh tests/fuzz/seeds/elf-btf-outside.bin \
	bench/layout.sh
