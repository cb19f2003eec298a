/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TESTS_STATICS_H
#define LINEUP_TESTS_STATICS_H

void net_count(int tx);
void disk_count(int write);

#endif
