#!/bin/sh
# Set up lineup on Debian 12: install what is missing, build libperf into .local/libperf from
# Debian's linux-source, configure and build.  Idempotent: a second run only checks.
#
#   ./setup.sh                      build (./lineup)
#   LINEUP_SANITIZERS=1 ./setup.sh  build with ASan+UBSan (CI does this)
#   LINEUP_WERROR=1 ./setup.sh      warnings are errors
set -eu
cd "$(dirname "$0")"
top=$(pwd)

say() { printf 'setup: %s\n' "$*"; }

# Build dependencies, and what the tests use as oracles (perf, pahole, compilers, headers).
PKGS="build-essential pkg-config autoconf automake libtool make xz-utils
libdw-dev libelf-dev libtraceevent-dev libzstd-dev libcapstone-dev libbpf-dev libdebuginfod-dev
libncurses-dev linux-source bison flex
linux-perf dwarves dwz libc6-dbg clang llvm libclang-rt-dev gdb binutils elfutils python3 time
patch git tmux hyperfine bc procps linux-headers-$(dpkg --print-architecture)"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing:$missing"
	SUDO=
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null 2>&1 ||
			{ say "not root and no sudo: run ./setup.sh as root"; exit 1; }
		SUDO=sudo
	fi
	$SUDO apt-get update -q
	# through env: sudo drops DEBIAN_FRONTEND from the environment (env_reset)
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

# libperf: not packaged by Debian.  Built once from linux-source's tools/ into .local/libperf,
# static only (libapi.a beside it), with prefix= and libdir_relative=lib so libperf.pc is right.
prefix=$top/.local/libperf
if [ ! -f "$prefix/lib/libperf.a" ] || [ ! -f "$prefix/lib/libapi.a" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	[ -n "$tarball" ] || { say "no /usr/src/linux-source-*.tar.xz (package linux-source)"; exit 1; }
	src=$top/.local/src
	rm -rf "$src" && mkdir -p "$src"
	say "building libperf from $tarball"
	name=$(basename "$tarball" .tar.xz)
	tar -C "$src" -xJf "$tarball" "$name/tools" "$name/include/uapi" "$name/scripts"
	make -s -C "$src/$name/tools/lib/perf" prefix="$prefix" libdir_relative=lib \
		install_lib install_headers install_pkgconfig >"$top/.local/libperf-build.log" 2>&1 ||
		{ say "libperf build failed; see .local/libperf-build.log"; exit 1; }
	cp "$src/$name/tools/lib/api/libapi.a" "$prefix/lib/"
	rm -f "$prefix"/lib/libperf.so*
	# Relocatable: the checkout may move (CI clones it elsewhere).
	sed -i 's|^prefix=.*|prefix=${pcfiledir}/../..|; s|^libdir=.*|libdir=${prefix}/lib|' \
		"$prefix/lib/pkgconfig/libperf.pc"
	rm -rf "$src"
fi
PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export PKG_CONFIG_PATH

flags=
[ "${LINEUP_SANITIZERS:-}" = 1 ] && flags="$flags --enable-sanitizers"
[ "${LINEUP_WERROR:-}" = 1 ] && flags="$flags --enable-werror"
want="$flags PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
if [ ! -x configure ] || [ configure.ac -nt configure ]; then
	say "autoreconf"
	mkdir -p m4    # AC_CONFIG_MACRO_DIRS; ignored by git, so a clone lacks it
	autoreconf -fi >/dev/null
fi
if [ ! -f config.status ] || [ "$(cat .local/configured 2>/dev/null)" != "$want" ] ||
   [ configure -nt config.status ]; then
	say "configure$flags"
	# shellcheck disable=SC2086
	./configure -q $flags PKG_CONFIG_PATH="$PKG_CONFIG_PATH"
	# Objects do not depend on the flags: built with others, they would be kept as they are
	# (LINEUP_SANITIZERS=1 after a plain build gave a plain ./lineup).  Rebuild them all.
	[ -f .local/configured ] && [ "$(cat .local/configured)" != "$want" ] && make -s clean
	echo "$want" >.local/configured
fi
make -s -j"$(nproc)"
say "ok: $top/lineup"
