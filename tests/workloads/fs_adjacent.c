// SPDX-License-Identifier: GPL-2.0-or-later
/* (a) false sharing: two threads increment adjacent counters of one global. */
#define PAD 0
#include "counters.h"
