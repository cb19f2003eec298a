# The browser's tests, in the manner of tig's: the real lineup in a terminal of a fixed size
# (a tmux pane on a private server, nothing of the terminal the suite runs in), keys sent as
# a script, the screen captured and compared with the screen written in the test.
#
#	tui_start COLS ROWS COMMAND...	run COMMAND (sh -c) in a new pane; TERM, LANG, LINES,
#					COLUMNS, NO_COLOR pinned (TUI_TERM, TUI_LANG override)
#	tui_keys KEY...			tmux send-keys (Enter, Escape, Up, C-c, "/text" ...)
#	tui_screen <<EOF ... EOF	wait until the screen is this (trailing blanks ignored)
#	tui_settled TEXT >FILE		wait until the screen shows TEXT and stops changing; the
#					screen (as tui_capture gives it) on stdout
#	tui_mouse BUTTON COL ROW	a mouse report as xterm sends it (X10: 0 press, 3 release,
#					64 wheel up, 65 down; COL, ROW from 0)
#	tui_resize COLS ROWS		the window to a new size (ncurses sees a SIGWINCH)
#	tui_restored			wait for the command's end; the terminal must be as before
#	tui_rc N			... and its exit status N
#	tui_stop
#	tui_stats_recording [EXTRA]	$T/prog (one thread writing two members of a struct
#					stats beside two another thread reads) compiled, and
#					$T/s.data recording them; EXTRA: more mkperf lines
#
# The waits poll the pane until the screen is the expected one: a slow machine makes a test
# slower, never a failure; only a screen that never comes fails (after TUI_WAIT seconds).
. "$top_srcdir/tests/lib.sh"
need tmux

: "${TUI_WAIT:=120}"
unset TMUX TMUX_PANE

TUI_N=0

tmux_() {
	tmux -S "$T/tmux.$TUI_N.sock" "$@"
}

# The pane's command: the terminal's state before and after, and the exit status, recorded.
tui_start() {
	local cols=$1 rows=$2
	shift 2
	# a server of its own each time: a new one on a socket being torn down can fail to start
	tui_stop
	TUI_N=$((TUI_N + 1))
	cat >"$T/tmux.conf" <<'EOF'
set -g status off
set -g remain-on-exit on
set -g default-terminal screen
set -g history-limit 0
EOF
	cat >"$T/pane.sh" <<EOF
trap : INT
stty -g >"$T/stty.before"
$*
echo "\$?" >"$T/rc"
stty -g >"$T/stty.after"
EOF
	rm -f "$T/stty.before" "$T/stty.after" "$T/rc"
	tmux_ -f "$T/tmux.conf" new-session -d -x "$cols" -y "$rows" \
		env -i PATH="$PATH" HOME="$T" TERM="${TUI_TERM:-screen}" LANG="${TUI_LANG:-C.UTF-8}" \
		LC_ALL= LINES="${TUI_LINES-$rows}" COLUMNS="${TUI_COLUMNS-$cols}" \
		${TUI_NO_COLOR:+NO_COLOR=1} sh "$T/pane.sh" || fail "tmux did not start"
}

tui_keys() {
	tmux_ send-keys "$@" || fail "send-keys $*"
}

# The screen as text: trailing blanks cut, a run of empty lines as one "[N empty]" line (the
# expected screens stay short and still say where the status line is).
tui_capture() {
	tmux_ capture-pane -p "$@" | sed 's/[[:space:]]*$//' | awk '
		{ lines[NR] = $0; if ($0 != "") last = NR }
		END {
			for (i = 1; i <= last; i++) {
				if (lines[i] != "") { print lines[i]; continue }
				for (n = 0; i <= last && lines[i] == ""; i++) n++
				i--
				print (n > 1 ? "[" n " empty]" : "")
			}
		}'
}

# Wait for the screen given on stdin; on a timeout, fail showing both.  TUI_PRINT=1 prints
# each screen instead (after a second), through the sed script TUI_SUBST: how a new test's
# screens are written.
tui_screen() {
	local i=0
	sed 's/[[:space:]]*$//' >"$T/want"
	if [ -n "${TUI_PRINT:-}" ]; then
		sleep "${TUI_PRINT_WAIT:-1}"
		echo "tui_screen \"${1:-}\" <<EOF" >&2
		tui_capture | sed -e "${TUI_SUBST:-}" >&2
		echo "EOF" >&2
		return 0
	fi
	while :; do
		tui_capture >"$T/got"
		cmp -s "$T/want" "$T/got" && return 0
		i=$((i + 1))
		if [ $i -gt $((TUI_WAIT * 10)) ]; then
			echo "--- expected screen" >&2
			cat "$T/want" >&2
			echo "--- screen" >&2
			cat "$T/got" >&2
			diff "$T/want" "$T/got" >&2
			fail "${1:-the screen} is not the expected one"
		fi
		sleep 0.1
	done
}

# Wait until the screen holds TEXT and two captures a tenth of a second apart are the same: for a
# screen not known in advance (one the test compares with another run's).
tui_settled() {
	local i=0
	tui_capture >"$T/prev"
	while :; do
		sleep 0.1
		tui_capture >"$T/got"
		if grep -qF -- "$1" "$T/got" && cmp -s "$T/prev" "$T/got"; then
			cat "$T/got"
			return 0
		fi
		mv "$T/got" "$T/prev"
		i=$((i + 1))
		[ $i -le $((TUI_WAIT * 10)) ] || { cat "$T/prev" >&2; fail "no settled screen with '$1'"; }
	done
}

# Wait until the command in the pane has ended (its "rc=N" line is printed).
tui_wait_exit() {
	local i=0
	while ! [ -s "$T/stty.after" ]; do
		i=$((i + 1))
		[ $i -le $((TUI_WAIT * 10)) ] || { tui_capture >&2; fail "the browser did not end"; }
		sleep 0.1
	done
}

# The terminal is as it was before the browser: the same stty settings.
tui_restored() {
	tui_wait_exit
	cmp -s "$T/stty.before" "$T/stty.after" ||
		fail "the terminal was not restored: $(cat "$T/stty.before") -> $(cat "$T/stty.after")"
}

tui_rc() {
	tui_wait_exit
	[ "$(cat "$T/rc")" = "$1" ] || fail "the browser's exit status: $(cat "$T/rc"), not $1"
}

tui_mouse() {
	tmux_ send-keys -H 1b 5b 4d "$(printf %x $((32 + $1)))" "$(printf %x $((33 + $2)))" \
		"$(printf %x $((33 + $3)))" || fail "tui_mouse $*"
}

tui_resize() {
	tmux_ resize-window -x "$1" -y "$2" || fail "resize-window $1 $2"
}

tui_stop() {
	[ $TUI_N -eq 0 ] || tmux_ kill-server 2>/dev/null
	return 0
}

# The false-sharing program of the suggestion tests and its recording (tui_stats_recording).
tui_stats_recording() {
	cat >"$T/prog.c" <<'EOF'
/* Counters written by one thread beside fields another thread only reads. */
struct stats {
	long hits;
	long limit;
	long flags;
	long misses;
};

struct stats st __attribute__((aligned(64)));

long reader(void)
{
	return st.limit + st.flags;
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
sample load tid=10 cpu=0 time=1000000000 ip=reader+4 addr=st+8 src=LCL_HITM weight=100 repeat=40
sample store tid=11 cpu=2 time=2000000000 ip=writer+4 addr=st src=ST_L1HIT weight=10 repeat=30
sample load tid=10 cpu=1 time=4000000000 ip=reader+20 addr=st+16 src=LCL_HITM weight=5 repeat=20
sample store tid=11 cpu=2 time=2100000000 ip=writer+20 addr=st+24 src=ST_L1HIT weight=10 repeat=20
${1:-}
EOF
	"$top_builddir/tests/tools/mkperf" -o "$T/s.data" "$T/s.txt" || fail "mkperf"
}
