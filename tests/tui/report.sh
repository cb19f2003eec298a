#!/bin/sh
# lineup report in the browser: every view (cache lines with their members, a line's Pareto
# rows, a row's code address and source, help), search, sort, the -d modes, resize, a 1-line
# and an empty recording, colour and NO_COLOR, ^C and a crash signal (the terminal restored),
# and the choice between browser and text (a terminal or not, --tui, --stdio).
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
LINEUP=$(cd "$(dirname "$LINEUP")" && pwd)/$(basename "$LINEUP")
MKPERF=$(cd "$top_builddir" && pwd)/tests/tools/mkperf
[ -x "$MKPERF" ] || fail "mkperf was not built"
"$LINEUP" report --help | grep -q -- --tui || fail "report --help does not list --tui"
if ! grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h"; then
	# a build without ncursesw: text as before, and every --tui says why it cannot, before
	# reading anything
	for c in report fields suggest; do
		expect_rc 2 "$LINEUP" $c --tui -i /dev/null >"$T/out" 2>"$T/err"
		grep -q "built without ncursesw" "$T/err" ||
			fail "$c --tui without ncursesw: $(cat "$T/err")"
	done
	exit 0
fi

# The program whose two counters share lines; compiled here, its addresses read back with nm.
cat >"$T/prog.c" <<'EOF'
/* Two threads' counters on one line: a naïve layout. */
struct counters {
	long reads;
	long writes;
};

struct counters hot __attribute__((aligned(64)));
struct counters cold __attribute__((aligned(64)));

long reader(void)
{
	return hot.reads + cold.reads;
}

void writer(void)
{
	hot.writes++;
	cold.writes++;
}

int main(void)
{
	writer();
	return (int)reader();
}
EOF
${CC:-cc} -g -O0 -o "$T/prog" "$T/prog.c" || fail "the test program does not build"
BASE=0x555555554000
sym() { nm "$T/prog" | awk -v s="$1" '$3 == s { print $1 }'; }
addr() { printf '0x%x' $((BASE + 0x$(sym "$1") + $2)); }
HOT=$(addr hot 0)
COLD=$(addr cold 0)
CODE=$(addr reader 4)

TUI_SUBST="s|$HOT|\$HOT|g; s|$COLD|\$COLD|g; s|$CODE|\$CODE|g; s|$T|\$T|g"

header() {
	cat <<EOF
cpus 4 sockets=2
event load
event store
comm 10 10 prog
fork 10 10 11 10
mmap 10 auto $T/prog
EOF
}
{
	header
	cat <<'EOF'
sample load tid=10 cpu=0 time=1000000000 ip=reader+4 addr=hot src=LCL_HITM weight=100 repeat=4
sample store tid=11 cpu=2 time=2000000000 ip=writer+4 addr=hot+8 src=ST_L1HIT weight=10 repeat=3
sample load tid=11 cpu=3 time=3000000000 ip=reader+4 addr=hot src=RMT_HITM weight=300 repeat=2
EOF
} >"$T/one.txt"
{
	cat "$T/one.txt"
	cat <<'EOF'
sample load tid=10 cpu=1 time=4000000000 ip=reader+20 addr=cold src=LCL_HITM weight=50
sample store tid=11 cpu=2 time=5000000000 ip=writer+20 addr=cold+8 src=ST_L1HIT weight=10
EOF
} >"$T/two.txt"
header >"$T/empty.txt"
for s in one two empty; do
	"$MKPERF" -o "$T/$s.data" "$T/$s.txt" || fail "mkperf $s"
done
cd "$T" || exit 99

# -- cache lines (the members of each line beside its address), sort, search, -d ---------------
tui_start 80 24 "$LINEUP" report --fields -i two.data
tui_screen "the cache-line table" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
                                                              1/2  ?:help q:quit
EOF
tui_keys End
tui_screen "End" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
                                                              2/2  ?:help q:quit
EOF
tui_keys s
tui_screen "s: sorted on the first column" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    1      $COLD   N/A       0  reads, writes   14.29%        1
    0      $HOT   N/A       0  reads, writes   85.71%        6
[18 empty]
sort: Index (desc)                                            1/2  ?:help q:quit
EOF
tui_keys S
tui_screen "S: the other way" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
sort: Index (asc)                                             2/2  ?:help q:quit
EOF
tui_keys / r e a d s Enter
tui_screen "/reads" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
sort: Index (asc)  /reads                                     1/2  ?:help q:quit
EOF
tui_keys n
tui_screen "n" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
sort: Index (asc)  /reads                                     2/2  ?:help q:quit
EOF
tui_keys N
tui_screen "N" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
sort: Index (asc)  /reads                                     1/2  ?:help q:quit
EOF
tui_keys / n o - s u c h Enter
tui_screen "a search that finds nothing" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
not found: no-such                                            1/2  ?:help q:quit
EOF
tui_keys d
tui_screen "d: Local HITMs" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Local HITMs) - two.data
       ----------- Cacheline ----------                     Lcl  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   80.00%        6
    1      $COLD   N/A       0  reads, writes   20.00%        1
[18 empty]
lines sorted and filtered on Local HITMs                      1/2  ?:help q:quit
EOF
tui_keys d d d
tui_screen "d d d: back to Total HITMs" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
lines sorted and filtered on Total HITMs                      1/2  ?:help q:quit
EOF
# -- a line's Pareto rows, a row's code address and source, help --------------------------
tui_keys Home Enter
tui_screen "the Pareto rows of line 0" <<EOF
Cacheline $HOT (Index 0): HITM rmt 2 lcl 4, stores 3
----- HITM -----  ------- Store Refs ------  --------- Data address ---------
RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node
100.00%  100.00%    0.00%    0.00%    0.00%                 0x0   N/A  struct co
  0.00%    0.00%  100.00%    0.00%    0.00%                 0x8   N/A  struct co
[18 empty]
/no-such                                                      1/2  ?:help q:back
EOF
tui_keys '>'
tui_screen "> scrolls right to Type and Member" <<EOF
Cacheline $HOT (Index 0): HITM rmt 2 lcl 4, stores 3
TM -----  ------- Store Refs ------  --------- Data address ---------          R
 LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node             Type
 100.00%    0.00%    0.00%    0.00%                 0x0   N/A  struct counters
   0.00%  100.00%    0.00%    0.00%                 0x8   N/A  struct counters
[18 empty]
/no-such                                                      1/2  ?:help q:back
EOF
tui_keys '<' Enter
tui_screen "the code address: its source, the line marked" <<EOF
Code address $CODE at offset 0x0 of line $HOT
     4          long writes;
     5  };
     6
     7  struct counters hot __attribute__((aligned(64)));
     8  struct counters cold __attribute__((aligned(64)));
     9
    10  long reader(void)
    11  {
    12>         return hot.reads + cold.reads;
    13  }
    14
    15  void writer(void)
    16  {
    17          hot.writes++;
    18          cold.writes++;
    19  }
    20
    21  int main(void)
    22  {
    23          writer();
    24          return (int)reader();
    25  }
/no-such                                                    36/49  ?:help q:back
EOF
tui_keys Home
tui_screen "the code address: the row's cells" <<EOF
Code address $CODE at offset 0x0 of line $HOT
RmtHitm          100.00%
LclHitm          100.00%
L1 Hit           0.00%
L1 Miss          0.00%
N/A              0.00%
Offset           0x0
Node             N/A
Type             struct counters
Member           reads
Readers cpu/tid  0,3/10,11
Writers cpu/tid  -/-
PA cnt           0
Code address     $CODE
rmt hitm         300
lcl hitm         100
load             0
Total records    6
cpu cnt          2
Symbol           [.] reader
Shared Object    prog
Source:Line      prog.c:12
Node             0  1
/no-such                                                     1/49  ?:help q:back
EOF
tui_keys q Left Escape
tui_screen "q, Left, Esc: back to the lines" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
q quits                                                       1/2  ?:help q:quit
EOF
tui_keys Escape
tui_screen "Esc at the top stays" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------                     Tot  ------- Load Hi
Index             Address  Node  PA cnt  Members           Hitm    Total  LclHit
    0      $HOT   N/A       0  reads, writes   85.71%        6
    1      $COLD   N/A       0  reads, writes   14.29%        1
[18 empty]
q quits                                                       1/2  ?:help q:quit
EOF
tui_keys '?'
tui_screen "help: every view's keys, and the lines' own" <<EOF
Help: the keys
Every view
k, Up             previous row
j, Down           next row
PgUp, ^B          a page up
PgDn, ^F, Space   a page down
g, Home           first row
G, End            last row
<, >              scroll left, right
/                 search (n: the next match, N: the one before)
Enter, Right      go in: the row's details
q, Esc, Left      back (q at the first view: quit)
?, h, F1          this help
^L                redraw
mouse             a click selects a row, the wheel moves

This view
s                 sort on the next column (S: the other way)
d                 the next display mode, as report -d: the lines sorted and
                  filtered on Total, Local or Remote HITMs or Peer snoops
Enter             the line's Pareto rows, with each offset's struct, member,
                  readers and writers (the first time: the recording is read
                  again for its structs); Enter on a row there: its code
/no-such                                                     1/26  ?:help q:back
EOF
tui_keys q q
tui_rc 0
tui_restored

# -- resize: 80x24 -> 200x60 -> 40x10, the size from the terminal (no LINES, COLUMNS) ---------
TUI_LINES= TUI_COLUMNS= tui_start 80 24 "$LINEUP" report -i two.data
tui_screen "80x24" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $HOT   N/A       0   85.71%        6        4        2
    1      $COLD   N/A       0   14.29%        1        1        0
[18 empty]
                                                              1/2  ?:help q:quit
EOF
tui_keys Enter
tui_resize 200 60
tui_screen "200x60" <<EOF
Cacheline $HOT (Index 0): HITM rmt 2 lcl 4, stores 3
----- HITM -----  ------- Store Refs ------  --------- Data address ---------          Readers    Writers                              ---------- cycles ----------    Total       cpu              Shar
RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node  Struct           Member  cpu/tid    cpu/tid  PA cnt        Code address  rmt hitm  lcl hitm      load  records       cnt      Sym
100.00%  100.00%    0.00%    0.00%    0.00%                 0x0   N/A  struct counters  reads   0,3/10,11  -/-           0      $CODE       300       100         0        6         2  [.] rea
  0.00%    0.00%  100.00%    0.00%    0.00%                 0x8   N/A  struct counters  writes  -/-        2/11          0      0x555555555144         0         0         0        3         1  [.] wri
[54 empty]
                                                                                                                                                                                      1/2  ?:help q:back
EOF
tui_resize 40 10
tui_screen "40x10" <<EOF
Cacheline $HOT (Index 0): HITM
----- HITM -----  ------- Store Refs ---
RmtHitm  LclHitm   L1 Hit  L1 Miss
100.00%  100.00%    0.00%    0.00%    0.
  0.00%    0.00%  100.00%    0.00%    0.
[4 empty]
                      1/2  ?:help q:back
EOF
tui_keys Enter
tui_screen "40x10: the code address" <<EOF
Code address $CODE at offset 0x
     5  };
     6
     7  struct counters hot __attribute_
     8  struct counters cold __attribute
     9
    10  long reader(void)
    11  {
    12>         return hot.reads + cold.
                    36/49  ?:help q:back
EOF
tui_keys q q q
tui_rc 0
tui_restored

# -- a 1-line recording, an empty one ------------------------------------------------------
tui_start 80 24 "$LINEUP" report -i one.data
tui_screen "one line" <<EOF
Shared Data Cache Line Table (1 entries, sorted on Total HITMs) - one.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $HOT   N/A       0  100.00%        6        4        2
[19 empty]
                                                              1/1  ?:help q:quit
EOF
tui_keys q
tui_rc 0
tui_start 80 24 "$LINEUP" report -i empty.data
tui_screen "no lines" <<EOF
Shared Data Cache Line Table (0 entries, sorted on Total HITMs) - empty.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
[20 empty]
                                                              0/0  ?:help q:quit
EOF
tui_keys Enter j G / x Enter s d
tui_screen "no lines: every key answered" <<EOF
Shared Data Cache Line Table (0 entries, sorted on Local HITMs) - empty.data
       ----------- Cacheline ----------      Lcl  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
[20 empty]
lines sorted and filtered on Local HITMs                      0/0  ?:help q:quit
EOF
tui_keys q
tui_rc 0
tui_restored

# -- colour, NO_COLOR, a monochrome terminal: attributes only, no colour -------------------
colours() { tmux_ capture-pane -p -e | grep -c "$(printf '\033')\\[[0-9;]*3[0-7]m"; }
tui_start 80 24 "$LINEUP" report -i one.data
tui_screen "colour" <<EOF
Shared Data Cache Line Table (1 entries, sorted on Total HITMs) - one.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $HOT   N/A       0  100.00%        6        4        2
[19 empty]
                                                              1/1  ?:help q:quit
EOF
[ "$(colours)" -gt 0 ] || fail "no colour on a colour terminal"
TUI_NO_COLOR=1 tui_start 80 24 "$LINEUP" report -i one.data
tui_screen "NO_COLOR" <<EOF
Shared Data Cache Line Table (1 entries, sorted on Total HITMs) - one.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $HOT   N/A       0  100.00%        6        4        2
[19 empty]
                                                              1/1  ?:help q:quit
EOF
[ "$(colours)" -eq 0 ] || fail "colour with NO_COLOR set"
tmux_ capture-pane -p -e | grep -q "$(printf '\033')\\[7m" || fail "NO_COLOR: no reverse video"
TUI_TERM=vt100 tui_start 80 24 "$LINEUP" report -i one.data
tui_screen "vt100" <<EOF
Shared Data Cache Line Table (1 entries, sorted on Total HITMs) - one.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $HOT   N/A       0  100.00%        6        4        2
[19 empty]
                                                              1/1  ?:help q:quit
EOF
[ "$(colours)" -eq 0 ] || fail "colour on a vt100"

# -- UTF-8 shown as it is; in a C locale what is not ASCII shows as '?' ---------------------
tui_start 80 24 "$LINEUP" report -i one.data
tui_keys Enter Enter / l a y o u t Enter
tui_screen "UTF-8: the source's first line" <<EOF
Code address $CODE at offset 0x0 of line $HOT
     1  /* Two threads' counters on one line: a naïve layout. */
     2  struct counters {
     3          long reads;
     4          long writes;
     5  };
     6
     7  struct counters hot __attribute__((aligned(64)));
     8  struct counters cold __attribute__((aligned(64)));
     9
    10  long reader(void)
    11  {
    12>         return hot.reads + cold.reads;
    13  }
    14
    15  void writer(void)
    16  {
    17          hot.writes++;
    18          cold.writes++;
    19  }
    20
    21  int main(void)
    22  {
/layout                                                     25/49  ?:help q:back
EOF
tui_keys q q q
tui_rc 0
TUI_LANG=C tui_start 80 24 "$LINEUP" report -i one.data
tui_keys Enter Enter / l a y o u t Enter
tui_screen "C locale: the source's first line" <<EOF
Code address $CODE at offset 0x0 of line $HOT
     1  /* Two threads' counters on one line: a na??ve layout. */
     2  struct counters {
     3          long reads;
     4          long writes;
     5  };
     6
     7  struct counters hot __attribute__((aligned(64)));
     8  struct counters cold __attribute__((aligned(64)));
     9
    10  long reader(void)
    11  {
    12>         return hot.reads + cold.reads;
    13  }
    14
    15  void writer(void)
    16  {
    17          hot.writes++;
    18          cold.writes++;
    19  }
    20
    21  int main(void)
    22  {
/layout                                                     25/49  ?:help q:back
EOF
tui_keys q q q
tui_rc 0

# -- ^C in the middle, a crash signal: the terminal restored, the signal's exit status -----
tui_start 80 24 "$LINEUP" report -i two.data
tui_keys Enter
tui_screen "before ^C" <<EOF
Cacheline $HOT (Index 0): HITM rmt 2 lcl 4, stores 3
----- HITM -----  ------- Store Refs ------  --------- Data address ---------
RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node  Struct
100.00%  100.00%    0.00%    0.00%    0.00%                 0x0   N/A  struct co
  0.00%    0.00%  100.00%    0.00%    0.00%                 0x8   N/A  struct co
[18 empty]
                                                              1/2  ?:help q:back
EOF
tui_keys C-c
tui_rc 130
tui_restored
tui_start 80 24 sh -c "'echo \$\$ >$T/pid; exec $LINEUP report -i two.data'"
tui_screen "before SIGSEGV" <<EOF
Shared Data Cache Line Table (2 entries, sorted on Total HITMs) - two.data
       ----------- Cacheline ----------      Tot  ------- Load Hitm -------    T
Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  rec
    0      $HOT   N/A       0   85.71%        6        4        2
    1      $COLD   N/A       0   14.29%        1        1        0
[18 empty]
                                                              1/2  ?:help q:quit
EOF
kill -SEGV "$(cat "$T/pid")"
tui_rc 139
tui_restored

# -- / finds a line by its code's symbols too ------------------------------------------------
tui_start 80 24 "$LINEUP" report -i two.data
tui_keys / w r i t e r Enter
tui_settled "writer" | tail -1 | grep -q '^/writer .* 2/2  ' ||
	fail "/writer in the lines: $(tui_capture | tail -1)"
tui_keys q
tui_rc 0

# -- the mouse: a click selects a row, the wheel moves the cursor -----------------------------
tui_start 80 24 "$LINEUP" report -i two.data
tui_settled "Shared Data Cache Line Table" >/dev/null
tui_mouse 0 10 4
tui_mouse 3 10 4
tui_settled " 2/2  " >/dev/null
tui_mouse 0 10 12
tui_mouse 3 10 12
tui_mouse 0 10 3
tui_mouse 3 10 3
tui_settled " 1/2  " >/dev/null
tui_keys Enter Enter
tui_settled "36/49" >/dev/null
tui_mouse 65 10 10
tui_settled "39/49" >/dev/null
tui_mouse 64 10 10
tui_mouse 64 10 10
tui_settled "33/49" >/dev/null
tui_keys q q q
tui_rc 0
tui_restored

# -- an error while loading: said on the terminal, which is left as it was --------------------
head -c 2000 two.data >cut.data
# (a line first: the progress line lineup keeps on a terminal goes back over the line above it)
tui_start 80 24 "echo;" "$LINEUP" report --tui -i cut.data
tui_rc 2
tui_restored
tui_capture | grep -q "cut.data: at byte" || fail "no message for a cut recording: $(tui_capture)"

# -- text when standard output is no terminal; --stdio on one; --tui without one ---------------
"$LINEUP" report -i two.data >"$T/pipe" || fail "report into a pipe"
grep -q "Shared Data Cache Line Table" "$T/pipe" || fail "report into a pipe: no text tables"
"$LINEUP" report --stdio -i two.data | cmp -s - "$T/pipe" || fail "--stdio differs from a pipe"
tui_start 80 24 "$LINEUP" report --stdio -i one.data "| tail -3"
tui_rc 0
expect_rc 2 "$LINEUP" report --tui -i two.data >"$T/out" 2>"$T/err"
grep -q "needs a terminal" "$T/err" || fail "--tui into a pipe: $(cat "$T/err")"
expect_rc 2 "$LINEUP" report --tui --stdio -i two.data >"$T/out" 2>"$T/err"
grep -q "exclude each other" "$T/err" || fail "--tui --stdio: $(cat "$T/err")"
