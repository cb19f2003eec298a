// SPDX-License-Identifier: GPL-2.0-or-later
/* (b) the fix: the same counters 128 bytes apart (a line and its prefetch pair). */
#define PAD 128
#include "counters.h"
