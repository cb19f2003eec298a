// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/dwarf_types.h"

#include <errno.h>
#include <stdio.h>

int btf_source__open(struct layout_source **out, const char *path, unsigned int flags,
		     char *err, size_t errlen)
{
	*out = NULL;
	snprintf(err, errlen, "%s: BTF not supported yet", path ? path : "/sys/kernel/btf/vmlinux");
	return -ENOTSUP;
}
