#!/bin/sh
# The suggestion view (what `lineup suggest --tui` opens): the proposed layout, the current one,
# the layout comment and the patch, Tab from part to part; w writes the patch to a file after
# asking its name, and never over a file without asking (n keeps it, y replaces it).
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
echo "keep me" >taken.patch

tui_start 80 24 "$VIEW" "'struct stats (stats.h)'" current proposed comment patch stats.patch
tui_screen "the suggestion" <<EOF
struct stats (stats.h)
Proposed layout
struct stats {
        long int                   limit;                /*     0     8 */

        /* XXX 56 bytes hole, try to pack */

        /* --- cacheline 1 boundary (64 bytes) --- */
        long int                   hits __attribute__((__aligned__(64))); /*

        /* size: 128, cachelines: 2, members: 2 */
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
};

Layout comment
/* hits is written on every lookup: apart from the read-mostly limit. */
                                                             1/32  ?:help q:quit
EOF
tui_keys Tab Tab Tab
tui_screen "Tab: the patch" <<EOF
struct stats (stats.h)
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
                                                            24/32  ?:help q:quit
EOF
tui_keys w
tui_screen "w: the name asked, the default offered" <<EOF
struct stats (stats.h)
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
the patch is in stats.patch                                 24/32  ?:help q:quit
EOF
cmp -s patch stats.patch || fail "the written patch differs"
tui_keys w
tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tui_keys t a k e n . p a t c h Enter
tui_screen "a file there: asked before writing over it" <<EOF
struct stats (stats.h)
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
taken.patch left as it was                                  24/32  ?:help q:quit
EOF
[ "$(cat taken.patch)" = "keep me" ] || fail "taken.patch was written over without a yes"
tui_keys w
tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tui_keys t a k e n . p a t c h Enter y Enter
tui_screen "y: replaced" <<EOF
struct stats (stats.h)
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
the patch is in taken.patch                                 24/32  ?:help q:quit
EOF
cmp -s patch taken.patch || fail "taken.patch was not replaced after y"
tui_keys w Escape
tui_screen "Esc: not written" <<EOF
struct stats (stats.h)
};

Current layout
struct stats {
        long int                   hits;                 /*     0     8 */
        long int                   limit;                /*     8     8 */

        /* size: 16, cachelines: 1, members: 2 */
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
not written                                                 24/32  ?:help q:quit
EOF
tui_keys q
tui_rc 0
tui_restored
