#!/bin/sh
# lineup fields --tui: the struct list, a struct's member table, its layout as a heat map
# (pahole's format, members marked by their share of the HITMs or of the writes, the cache-line
# boundary and each line's verdict), and the keys between them.
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
LINEUP=$(cd "$(dirname "$LINEUP")" && pwd)/$(basename "$LINEUP")
MKPERF=$(cd "$top_builddir" && pwd)/tests/tools/mkperf
grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h" || skip "built without ncursesw"

cat >"$T/prog.c" <<'EOF'
/* A struct over two cache lines: a hot counter beside read-mostly fields. */
struct stats {
	long hits;
	long misses;
	char name[48];
	long limit;
	long flags;
};

struct pair {
	long a;
	long b;
};

struct stats st __attribute__((aligned(64)));
struct pair pr __attribute__((aligned(64)));

long reader(void)
{
	return st.hits + st.limit + st.flags + pr.a;
}

void writer(void)
{
	st.hits++;
	st.misses++;
}

int main(void)
{
	writer();
	return (int)reader();
}
EOF
${CC:-cc} -g -O0 -o "$T/prog" "$T/prog.c" || fail "the test program does not build"
cat >"$T/s.txt" <<EOF
cpus 4 sockets=2
event load
event store
comm 10 10 prog
fork 10 10 11 10
mmap 10 auto $T/prog
sample load tid=10 cpu=0 time=1000000000 ip=reader+4 addr=st src=LCL_HITM weight=100 repeat=4
sample store tid=11 cpu=2 time=2000000000 ip=writer+4 addr=st src=ST_L1HIT weight=10 repeat=3
sample store tid=11 cpu=2 time=2100000000 ip=writer+4 addr=st+8 src=ST_L1HIT weight=10 repeat=2
sample load tid=10 cpu=1 time=4000000000 ip=reader+20 addr=st+64 src=L1 weight=5 repeat=5
sample load tid=10 cpu=1 time=4100000000 ip=reader+20 addr=st+72 src=L1 weight=5 repeat=5
sample load tid=10 cpu=1 time=4200000000 ip=reader+30 addr=pr src=L1 weight=5
EOF
"$MKPERF" -o "$T/s.data" "$T/s.txt" || fail "mkperf"
cd "$T" || exit 99

tui_start 80 24 "$LINEUP" fields --tui -i s.data
tui_screen "the structs" <<EOF
2 structs - s.data (Enter: the members)
struct stats                                    4 HITM       14 loads        5 s
struct pair                                     0 HITM        1 loads        0 s
[20 empty]
                                                              1/2  ?:help q:quit
EOF
tui_keys Enter
tui_screen "struct stats: its member table" <<EOF
struct stats: 4 HITM, 14 loads, 5 stores - s.data
Offset   Size   CL  Member                    Use            Loads   Stores  Loc
     0      8    0  hits                      read-write         4        3
     8      8    0  misses                    write-only         0        2
    16     48    0  name                      -                  0        0
    64      8    1  limit                     read-mostly        5        0
    72      8    1  flags                     read-mostly        5        0
[16 empty]
                                                              1/5  ?:help q:back
EOF
tui_keys '>' '>' '>' '>' '>' '>' '>'
tui_screen "the member table scrolled right" <<EOF
struct stats: 4 HITM, 14 loads, 5 stores - s.data
     Loads   Stores  Locked  LclHITM  RmtHITM   Cycles  CPUr  CPUw  Thr r  Thr w
         4        3       0        4        0       61     1     1      1      1
         0        2       0        0        0       10     0     1      0      1
         0        0       0        0        0        0     0     0      0      0
y        5        0       0        0        0        5     1     0      1      0
y        5        0       0        0        0        5     1     0      1      0
[16 empty]
                                                              1/5  ?:help q:back
EOF
tui_keys '<' '<' '<' '<' '<' '<' '<' j j j Enter
tui_screen "Enter on limit: the heat map at its line" <<EOF
struct stats: heat by HITMs (#: a share, ###: a quarter or more)
line 0 (bytes 0-63): true sharing (one writer, other readers)
line 1 (bytes 64-127): not contended

    struct stats {
###     long int                   hits;                 /*     0     8 */  HITM
        long int                   misses;               /*     8     8 */  HITM
        char                       name[48];             /*    16    48 */
        /* --- cacheline 1 boundary (64 bytes) --- */  <- line 1: not contended
        long int                   limit;                /*    64     8 */  HITM
        long int                   flags;                /*    72     8 */  HITM

        /* size: 80, cachelines: 2, members: 5 */
        /* last cacheline: 16 bytes */
    };
[8 empty]
                                                             9/14  ?:help q:back
EOF
tui_keys w
tui_screen "w: heat by writes" <<EOF
struct stats: heat by writes (#: a share, ###: a quarter or more)
line 0 (bytes 0-63): true sharing (one writer, other readers)
line 1 (bytes 64-127): not contended

    struct stats {
###     long int                   hits;                 /*     0     8 */  HITM
###     long int                   misses;               /*     8     8 */  HITM
        char                       name[48];             /*    16    48 */
        /* --- cacheline 1 boundary (64 bytes) --- */  <- line 1: not contended
        long int                   limit;                /*    64     8 */  HITM
        long int                   flags;                /*    72     8 */  HITM

        /* size: 80, cachelines: 2, members: 5 */
        /* last cacheline: 16 bytes */
    };
[8 empty]
                                                             1/14  ?:help q:back
EOF
tui_keys g w
tui_screen "w again: by HITMs" <<EOF
struct stats: heat by HITMs (#: a share, ###: a quarter or more)
line 0 (bytes 0-63): true sharing (one writer, other readers)
line 1 (bytes 64-127): not contended

    struct stats {
###     long int                   hits;                 /*     0     8 */  HITM
        long int                   misses;               /*     8     8 */  HITM
        char                       name[48];             /*    16    48 */
        /* --- cacheline 1 boundary (64 bytes) --- */  <- line 1: not contended
        long int                   limit;                /*    64     8 */  HITM
        long int                   flags;                /*    72     8 */  HITM

        /* size: 80, cachelines: 2, members: 5 */
        /* last cacheline: 16 bytes */
    };
[8 empty]
                                                             1/14  ?:help q:back
EOF
tui_keys q l
tui_screen "l: the heat map from the member table" <<EOF
struct stats: heat by HITMs (#: a share, ###: a quarter or more)
line 0 (bytes 0-63): true sharing (one writer, other readers)
line 1 (bytes 64-127): not contended

    struct stats {
###     long int                   hits;                 /*     0     8 */  HITM
        long int                   misses;               /*     8     8 */  HITM
        char                       name[48];             /*    16    48 */
        /* --- cacheline 1 boundary (64 bytes) --- */  <- line 1: not contended
        long int                   limit;                /*    64     8 */  HITM
        long int                   flags;                /*    72     8 */  HITM

        /* size: 80, cachelines: 2, members: 5 */
        /* last cacheline: 16 bytes */
    };
[8 empty]
                                                             1/14  ?:help q:back
EOF
tui_keys q q j Enter
tui_screen "struct pair: its member table" <<EOF
struct pair: 0 HITM, 1 loads, 0 stores - s.data
Offset   Size   CL  Member                    Use            Loads   Stores  Loc
     0      8    0  a                         read-mostly        1        0
     8      8    0  b                         -                  0        0
[19 empty]
                                                              1/2  ?:help q:back
EOF
tui_keys q q
tui_rc 0
tui_restored

# one struct asked for: its member table at once; --tui needs a terminal
tui_start 80 24 "$LINEUP" fields --tui --struct pair -i s.data
tui_screen "--struct pair" <<EOF
struct pair: 0 HITM, 1 loads, 0 stores - s.data
Offset   Size   CL  Member                    Use            Loads   Stores  Loc
     0      8    0  a                         read-mostly        1        0
     8      8    0  b                         -                  0        0
[19 empty]
                                                              1/2  ?:help q:quit
EOF
tui_keys q
tui_rc 0
expect_rc 2 "$LINEUP" fields --tui -i s.data >"$T/out" 2>"$T/err"
grep -q "needs a terminal" "$T/err" || fail "fields --tui into a file: $(cat "$T/err")"
