// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (b) the fix: the same counters 128 bytes apart (a line and its adjacent-line prefetch pair).
 * Build with -DPAD=64 for the half-fix that only a 128-byte view of the lines catches.
 */
#ifndef PAD
#define PAD 128
#endif
#include "counters.h"
