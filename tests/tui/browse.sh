#!/bin/sh
# One browser from the cache lines down to the struct and its suggestion: report -> a line's
# Pareto rows (each offset's struct, member, readers and writers, read when first gone into)
# -> l: the struct's layout as a heat map -> Enter: its suggestion (the layouts side by side,
# each cache line's rows level on both sides, the predicted HITMs) -> back with Esc, Left and
# q to the lines.  A line with no attributed struct says so; w never writes over a file
# without asking.
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
LINEUP=$(cd "$(dirname "$LINEUP")" && pwd)/$(basename "$LINEUP")
grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h" || skip "built without ncursesw"

# Two members one thread writes beside two another thread only reads: a line of false
# sharing, which the suggestion splits over two lines; and a heap line that no debug info
# describes.
tui_stats_recording "anon 10 0x7f0000000000 0x10000
sample load tid=10 cpu=1 time=5000000000 ip=reader+4 addr=0x7f0000000040 src=LCL_HITM weight=9 repeat=3
sample store tid=11 cpu=3 time=5100000000 ip=writer+4 addr=0x7f0000000048 src=ST_L1HIT weight=9 repeat=2"
cd "$T" || exit 99
"$LINEUP" suggest -i s.data --patch want.patch >/dev/null 2>&1 || fail "suggest --patch"
BASE=0x555555554000
sym() { nm "$T/prog" | awk -v s="$1" '$3 == s { print $1 }'; }
ST=$(printf '0x%x' $((BASE + 0x$(sym st))))
TUI_SUBST="s|$ST|\$ST|g; s|$T|\$T|g"

# -- report -> a line -> its struct's heat map -> its suggestion -> back, at 80x24 -----------
tui_start 80 24 "$LINEUP" report -i s.data
tui_screen "the cache lines" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - s.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $ST   N/A       0   95.24%       60       60        0
    1      0x7f0000000040   N/A       0    4.76%        3        3        0
[18 empty]
                                                              1/2  ?:help q:quit
EOF
tui_capture >lines.screen
tui_keys Enter
tui_screen "the line's Pareto rows, read for its structs" <<EOF
Cacheline $ST (Index 0): HITM rmt 0 lcl 60, stores 50
----- HITM -----  ------- Store Refs ------  --------- Data address ---------
RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node  Struct
  0.00%    0.00%   60.00%    0.00%    0.00%                 0x0   N/A  struct st
  0.00%   66.67%    0.00%    0.00%    0.00%                 0x8   N/A  struct st
  0.00%   33.33%    0.00%    0.00%    0.00%                0x10   N/A  struct st
  0.00%    0.00%   40.00%    0.00%    0.00%                0x18   N/A  struct st
[16 empty]
                                                              1/4  ?:help q:back
EOF
tui_capture >pareto.screen
tui_keys '>' '>' '>'
tui_screen "each offset's struct, member, readers and writers" <<EOF
Cacheline $ST (Index 0): HITM rmt 0 lcl 60, stores 50
- Store Refs ------  --------- Data address ---------          Readers  Writers
t  L1 Miss      N/A              Offset  Node  Struct        Member  cpu/tid  cp
%    0.00%    0.00%                 0x0   N/A  struct stats  hits    -/-      2/
%    0.00%    0.00%                 0x8   N/A  struct stats  limit   0/10     -/
%    0.00%    0.00%                0x10   N/A  struct stats  flags   1/10     -/
%    0.00%    0.00%                0x18   N/A  struct stats  misses  -/-      2/
[16 empty]
                                                              1/4  ?:help q:back
EOF
tui_keys '<' '<' '<' l
tui_screen "the struct's layout as a heat map" <<EOF
struct stats: heat by HITMs (#: a share, ###: a quarter or more)
line 0 (bytes 0-63): false sharing
Enter: the suggested layout beside this one

    struct stats {
        long int                   hits;                 /*     0     8 */  HITM
###     long int                   limit;                /*     8     8 */  HITM
###     long int                   flags;                /*    16     8 */  HITM
        long int                   misses;               /*    24     8 */  HITM

        /* size: 32, cachelines: 1, members: 4 */
        /* last cacheline: 32 bytes */
    };
[10 empty]
                                                             5/12  ?:help q:back
EOF
tui_capture >heat.screen
tui_keys Enter Tab
tui_screen "its suggestion, one above the other at 80 columns (Tab: at the layouts)" <<EOF
struct stats ($T/prog.c)
Current layout (measured)
struct stats {
        /* line 0 (+0): 60 HITM measured, 2 transfers */
        long int                   hits;                 /*     0     8 */ stats
        long int                   limit;                /*     8     8 */ stats
        long int                   flags;                /*    16     8 */ stats
        long int                   misses;               /*    24     8 */ stats

        /* size: 32, cachelines: 1, members: 4 */
        /* last cacheline: 32 bytes */
};

Proposed layout (predicted)
struct stats {
        /* line 0 (+0): 0 HITM predicted, 0 transfers */
        long int                   hits;                 /*     0     8 */ stats
        long int                   misses;               /*     8     8 */ stats

        /* XXX 48 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */ predicted: 0 transfers
        /* line 1 (+64): 0 HITM predicted, 0 transfers */
                                                            19/99  ?:help q:back
EOF
tui_keys Escape
tui_screen "Esc: back to the heat map" <heat.screen
tui_keys Left
tui_screen "Left: back to the Pareto rows" <pareto.screen
tui_keys q
tui_screen "q: back to the lines" <lines.screen
tui_keys j l
tui_screen "a line with no attributed struct" <<EOF
Cacheline 0x7f0000000040: no attributed struct
No struct member is attributed on line 0x7f0000000040.
Its 5 samples (3 HITM) fall in no struct that the debug info at hand describes.

Why samples of s.data stay unattributed (all lines):
           5  operand not decodable

Debug info for the program (built with -g; --debug-file, -k for the kernel) name
[15 empty]
                                                              1/7  ?:help q:back
EOF
tui_keys q Enter
tui_screen "its Pareto rows say so" <<EOF
Cacheline 0x7f0000000040 (Index 1): HITM rmt 0 lcl 3, stores 2
----- HITM -----  ------- Store Refs ------  --------- Data address ---------
RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node  Struct  M
  0.00%  100.00%    0.00%    0.00%    0.00%                 0x0   N/A  -       (
  0.00%    0.00%  100.00%    0.00%    0.00%                 0x8   N/A  -       (
[18 empty]
no struct is attributed on this line (l says why)             1/2  ?:help q:back
EOF
tui_keys q q
tui_rc 0
tui_restored

# -- at 200x60: the layouts side by side, each cache line level on both sides; w -------------
TUI_LINES= TUI_COLUMNS= tui_start 200 60 "$LINEUP" report -i s.data
tui_keys Enter l Enter Tab
tui_screen "the layouts side by side, aligned on the cache lines (Tab: at them)" <<EOF
struct stats ($T/prog.c)
Current layout (measured)                                                                          | Proposed layout (predicted)
struct stats {                                                                                     | struct stats {
        /* line 0 (+0): 60 HITM measured, 2 transfers */                                           |         /* line 0 (+0): 0 HITM predicted, 0 transfers */
        long int                   hits;                 /*     0     8 */ stats_write L:0 S:30 W: |         long int                   hits;                 /*     0     8 */ stats_write L:0 S:30 W:1
        long int                   limit;                /*     8     8 */ stats_read_mostly L:40  |         long int                   misses;               /*     8     8 */ stats_write L:0 S:20 W:1
        long int                   flags;                /*    16     8 */ stats_read_mostly L:20  |
        long int                   misses;               /*    24     8 */ stats_write L:0 S:20 W: |         /* XXX 48 bytes hole, try to pack */
                                                                                                   |
                                                                                                   |         /* --- cacheline 1 boundary (64 bytes) --- */ predicted: 0 transfers
                                                                                                   |         /* line 1 (+64): 0 HITM predicted, 0 transfers */
                                                                                                   |         long int                   limit __attribute__((__aligned__(64))); /*    64     8 */ stats_
                                                                                                   |         long int                   flags;                /*    72     8 */ stats_read_mostly L:20 S
                                                                                                   |
                                                                                                   |         /* Force padding: */
                                                                                                   |         long int                   :64;
                                                                                                   |         long int                   :64;
                                                                                                   |         long int                   :64;
                                                                                                   |         long int                   :64;
                                                                                                   |         long int                   :64;
                                                                                                   |         long int                   :64;
                                                                                                   |
        /* size: 32, cachelines: 1, members: 4 */                                                  |         /* size: 128, cachelines: 2, members: 4 */
        /* last cacheline: 32 bytes */                                                             |         /* sum members: 32, holes: 1, sum holes: 48 */
};                                                                                                 |         /* padding: 48 */
                                                                                                   |         /* forced alignments: 1, forced holes: 1, sum forced holes: 48 */
                                                                                                   | };

Layout comment
Cache-line layout (lineup suggest, from s.data (115 samples, 110 attributed)):
members written by the same threads share a line; members that are only
read sit on a line that no write invalidates.
  stats_write: hits, misses -- written by 1 thread; hot writer writer+0x4 prog.c:18
  stats_read_mostly: limit, flags -- read by 1 thread, never written
Add a member to the group whose threads use it the same way.

Patch
--- a/prog.c
+++ b/prog.c
@@ -1,10 +1,28 @@
 /* Counters written by one thread beside fields another thread only reads. */
+/*
+ * Cache-line layout (lineup suggest, from s.data (115 samples, 110 attributed)):
+ * members written by the same threads share a line; members that are only
+ * read sit on a line that no write invalidates.
+ *   stats_write: hits, misses -- written by 1 thread; hot writer writer+0x4 prog.c:18
+ *   stats_read_mostly: limit, flags -- read by 1 thread, never written
+ * Add a member to the group whose threads use it the same way.
+ */
 struct stats {
        long hits;
-       long limit;
-       long flags;
        long misses;
+       long limit __attribute__((aligned(64)));
+       long flags;
 };
+
+/* Keep the cache-line groups of struct stats (see the comment above it). */
                                                                                                                                                                                    19/87  ?:help q:back
EOF
echo "not a patch" >layout.patch
tui_keys w Enter
tui_settled "layout.patch exists: write over it? (y/N)" >/dev/null
tui_keys n Enter
tui_settled "layout.patch left as it was" >/dev/null
[ "$(cat layout.patch)" = "not a patch" ] || fail "w wrote over layout.patch without a yes"
tui_keys w Enter y Enter
tui_settled "the patch is in layout.patch" >/dev/null
cmp -s want.patch layout.patch || fail "w wrote another patch than suggest --patch"
tui_keys q q q q
tui_rc 0
tui_restored
