#!/bin/sh
# The suggestion view (what `lineup suggest --tui` opens): what the suggestion does, the current
# layout and the proposed one with each line's HITMs (side by side on a wide terminal, each
# cache line's rows level on both sides; one above the other on a narrow one, v to choose;
# through resizes), the layout comment and the patch,
# Tab from part to part; w writes the patch to a file after asking its name, and never over a
# file without asking (n keeps it, y replaces it).
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h" || skip "built without ncursesw"
VIEW=$(cd "$top_builddir" && pwd)/tests/tui/suggest_view
[ -x "$VIEW" ] || fail "suggest_view was not built"
cd "$T" || exit 99

cat >current <<'EOF'
struct stats {
	long int                   hits;                 /*     0     8 */
	long int                   limit;                /*     8     8 */

	/* size: 16, cachelines: 1, members: 2 */
};
EOF
cat >proposed <<'EOF'
struct stats {
	long int                   limit;                /*     0     8 */

	/* XXX 56 bytes hole, try to pack */

	/* --- cacheline 1 boundary (64 bytes) --- */
	long int                   hits __attribute__((__aligned__(64))); /*    64     8 */

	/* size: 128, cachelines: 2, members: 2 */
};
EOF
cat >comment <<'EOF'
/* hits is written on every lookup: apart from the read-mostly limit. */
EOF
cat >patch <<'EOF'
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-	long hits;
 	long limit;
+	long hits ____cacheline_aligned;
 };
EOF
echo "struct stats: new layout, predicted 2 -> 0 modeled line transfers" >summary
echo "keep me" >taken.patch
FIG=b0:6:2,a0:0:0,a64:0:1

TUI_LINES= TUI_COLUMNS= tui_start 80 24 "$VIEW" "'struct stats (stats.h)'" current proposed comment patch \
	stats.patch \
	summary $FIG
tui_screen "the suggestion" <<EOF
struct stats (stats.h)
What it does
struct stats: new layout, predicted 2 -> 0 modeled line transfers

Current layout (measured)
struct stats {
        /* line 0 (+0): 6 HITM measured, 2 transfers */
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
};

Proposed layout (predicted)
struct stats {
        /* line 0 (+0): 0 HITM predicted, 0 transfers */
        long int                   limit;                /*     0     8 */

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*
                                                             1/38  ?:help q:quit
EOF
tui_keys Tab Tab Tab Tab
tui_screen "Tab: the patch" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
                                                            30/38  ?:help q:quit
EOF
tui_keys w
tui_screen "w: the name asked, the default offered" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
write the patch to: stats.patch
EOF
tui_keys Enter
tui_screen "written" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
the patch is in stats.patch                                 30/38  ?:help q:quit
EOF
cmp -s patch stats.patch || fail "the written patch differs"
tui_keys w
tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tui_keys t a k e n . p a t c h Enter
tui_screen "a file there: asked before writing over it" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
taken.patch exists: write over it? (y/N)
EOF
tui_keys n Enter
tui_screen "n: left as it was" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
taken.patch left as it was                                  30/38  ?:help q:quit
EOF
[ "$(cat taken.patch)" = "keep me" ] || fail "taken.patch was written over without a yes"
tui_keys w
tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tui_keys t a k e n . p a t c h Enter y Enter
tui_screen "y: replaced" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
the patch is in taken.patch                                 30/38  ?:help q:quit
EOF
cmp -s patch taken.patch || fail "taken.patch was not replaced after y"
tui_keys w Escape
tui_screen "Esc: not written" <<EOF
struct stats (stats.h)

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
not written                                                 30/38  ?:help q:quit
EOF
tui_keys Home
tui_resize 200 60
tui_screen "200x60: the layouts side by side" <<EOF
struct stats (stats.h)
What it does
struct stats: new layout, predicted 2 -> 0 modeled line transfers

Current layout (measured)                                                  | Proposed layout (predicted)
struct stats {                                                             | struct stats {
        /* line 0 (+0): 6 HITM measured, 2 transfers */                    |         /* line 0 (+0): 0 HITM predicted, 0 transfers */
        long int                   hits;                 /*     0     8 */ |         long int                   limit;                /*     0     8 */
        long int                   limit;                /*     8     8 */ |
                                                                           |         /* XXX 56 bytes hole, try to pack */
                                                                           |
                                                                           |         /* --- cacheline 1 boundary (64 bytes) --- */
                                                                           |         /* line 1 (+64): 0 HITM predicted, 1 transfers */
                                                                           |         long int                   hits __attribute__((__aligned__(64))); /*    64     8 */
                                                                           |
        /* size: 16, cachelines: 1, members: 2 */                          |         /* size: 128, cachelines: 2, members: 2 */
};                                                                         | };

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
[29 empty]
                                                                                                                                                                                     1/29  ?:help q:quit
EOF
tui_keys v
tui_screen "v: one above the other" <<EOF
struct stats (stats.h)
What it does
struct stats: new layout, predicted 2 -> 0 modeled line transfers

Current layout (measured)
struct stats {
        /* line 0 (+0): 6 HITM measured, 2 transfers */
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
};

Proposed layout (predicted)
struct stats {
        /* line 0 (+0): 0 HITM predicted, 0 transfers */
        long int                   limit;                /*     0     8 */

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        /* line 1 (+64): 0 HITM predicted, 1 transfers */
        long int                   hits __attribute__((__aligned__(64))); /*    64     8 */

        /* size: 128, cachelines: 2, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
[20 empty]
the layouts one above the other                                                                                                                                                      1/38  ?:help q:quit
EOF
tui_keys v
tui_resize 40 10
tui_screen "40x10: one above the other" <<EOF
struct stats (stats.h)
What it does
struct stats: new layout, predicted 2 ->

Current layout (measured)
struct stats {
        /* line 0 (+0): 6 HITM measured,
        long int                   hits;
        long int                   limit
                     1/38  ?:help q:quit
EOF
tui_resize 200 60
tui_keys Tab
tui_screen "Tab: the layouts, side by side again" <<EOF
struct stats (stats.h)
What it does
struct stats: new layout, predicted 2 -> 0 modeled line transfers

Current layout (measured)                                                  | Proposed layout (predicted)
struct stats {                                                             | struct stats {
        /* line 0 (+0): 6 HITM measured, 2 transfers */                    |         /* line 0 (+0): 0 HITM predicted, 0 transfers */
        long int                   hits;                 /*     0     8 */ |         long int                   limit;                /*     0     8 */
        long int                   limit;                /*     8     8 */ |
                                                                           |         /* XXX 56 bytes hole, try to pack */
                                                                           |
                                                                           |         /* --- cacheline 1 boundary (64 bytes) --- */
                                                                           |         /* line 1 (+64): 0 HITM predicted, 1 transfers */
                                                                           |         long int                   hits __attribute__((__aligned__(64))); /*    64     8 */
                                                                           |
        /* size: 16, cachelines: 1, members: 2 */                          |         /* size: 128, cachelines: 2, members: 2 */
};                                                                         | };

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */

Patch
--- a/stats.h
+++ b/stats.h
@@ -1,4 +1,4 @@
 struct stats {
-       long hits;
        long limit;
+       long hits ____cacheline_aligned;
 };
[29 empty]
                                                                                                                                                                                     4/29  ?:help q:quit
EOF
tui_keys q
tui_rc 0
tui_restored
