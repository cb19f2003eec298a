#!/bin/sh
# lineup suggest --tui on a recording: the browser's suggestion view with what lineup measured
# and predicts (each cache line's HITMs and transfers beside the layouts, side by side on a wide
# terminal, one above the other on a narrow one), and w writes the patch --patch writes, but
# not through a link planted where it goes.
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
LINEUP=$(cd "$(dirname "$LINEUP")" && pwd)/$(basename "$LINEUP")
grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h" || skip "built without ncursesw"

tui_stats_recording
cd "$T" || exit 99
"$LINEUP" suggest -i s.data --patch want.patch >/dev/null 2>&1 || fail "suggest --patch"
[ -s want.patch ] || fail "suggest --patch wrote no patch"

TUI_LINES= TUI_COLUMNS= tui_start 200 60 "$LINEUP" suggest --tui -i s.data
tui_settled "Layout comment" >wide
grep -q '^Current layout (measured)  *| Proposed layout (predicted)$' wide ||
	{ cat wide; fail "200x60: the layouts are not side by side"; }
grep -q '/\* line 0 (+0): 60 HITM measured, 2 transfers \*/  *|  */\* line 0 (+0): 0 HITM predicted, 0 transfers \*/$' wide ||
	{ cat wide; fail "200x60: no line 0 figures beside each other"; }
grep -q ' | .*/\* line 1 (+64): 0 HITM predicted, 0 transfers \*/$' wide ||
	{ cat wide; fail "200x60: no line 1 figures in the proposed layout"; }
grep -q '^What it does$' wide && grep -q 'predicted 2 -> 0 modeled line transfers' wide ||
	{ cat wide; fail "200x60: no summary"; }
tui_resize 80 24
tui_settled "Current layout (measured)" >narrow
grep -q '|' narrow && { cat narrow; fail "80x24: still side by side"; }
grep -q '^        /\* line 0 (+0): 60 HITM measured, 2 transfers \*/$' narrow ||
	{ cat narrow; fail "80x24: no line 0 figures"; }
tui_keys Tab Tab Tab Tab w Enter
tui_settled "the patch is in layout.patch" >/dev/null
cmp -s want.patch layout.patch || fail "w wrote another patch than suggest --patch"
# A link planted where the patch goes is refused, not followed (not even after a "y").
echo precious >victim
rm layout.patch && ln -s victim layout.patch
tui_keys w Enter
i=0
until tui_capture >link.screen && grep -q "not written\|write over it" link.screen; do
	i=$((i + 1))
	[ $i -le $((TUI_WAIT * 10)) ] || { cat link.screen; fail "w on a link: no answer"; }
	sleep 0.1
done
if grep -q "write over it" link.screen; then
	tui_keys y Enter
	tui_settled "layout.patch" >/dev/null
fi
[ "$(cat victim)" = precious ] || fail "w wrote through a link planted at layout.patch"
[ -L layout.patch ] || fail "w replaced the link at layout.patch"
grep -q "layout.patch is a symbolic link: not written" link.screen ||
	{ cat link.screen; fail "w on a link: not said"; }
tui_keys q
tui_rc 0
tui_restored
