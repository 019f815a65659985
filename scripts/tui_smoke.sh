#!/usr/bin/env bash
# Smoke test of the terminal board: runs the real `cannonade play` under tmux, plays with
# send-keys (cursor, typed moves, a flip against the engine, undo, save, a bad record) and reads
# the screen with capture-pane. Usage: scripts/tui_smoke.sh [path/to/cannonade]
set -euo pipefail
BIN=$(realpath "${1:-target/debug/cannonade}")
WORK=$(mktemp -d)
SESSION="cannonade-smoke-$$"
# A tmux server of our own (its socket in $WORK), kept alive by an idle session for the whole
# run: killing the last session makes a tmux server exit, and a `new-session` that reaches the
# exiting server fails with "server exited unexpectedly" (2 runs in 15 did, and one CI run).
tm() { tmux -S "$WORK/tmux.sock" "$@"; }
trap 'tm kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
tm -u new-session -d -s keeper "sleep 100000"

screen() { tm capture-pane -p -t "$SESSION"; }

fail() {
    echo "FAIL: $*" >&2
    echo "---- screen ----" >&2
    screen >&2 || true
    exit 1
}

# Waits until the screen shows a text (fixed string), at most 20 s.
wait_for() {
    for _ in $(seq 200); do
        if screen | grep -qF -- "$1"; then return 0; fi
        sleep 0.1
    done
    fail "the screen never showed: $1"
}

keys() { tm send-keys -t "$SESSION" "$@"; }
# Sends a text literally (no key names).
type_text() { tm send-keys -t "$SESSION" -l "$1"; }

start() {
    tm kill-session -t "$SESSION" 2>/dev/null || true
    # -u: UTF-8 even where no locale says so (CI); after the board quits, the shell reports
    # its exit status and whether the terminal is back in cooked (canonical) mode.
    tm -u new-session -d -s "$SESSION" -x 100 -y 32 -c "$WORK" \
        "$BIN play $*; echo EXITED \$?; stty -a | tr ' ;' '\n\n' | grep -qx icanon && echo COOKED; sleep 30"
}

# A Xiangqi board with one move played (h2e2, typed).
start_after_h2e2() {
    start xiangqi
    wait_for "Red to move"
    keys :
    type_text "h2e2"
    keys Enter
    wait_for "Black to move"
}

passed=0
check() { passed=$((passed + 1)); echo "ok: $*"; }

# --- Xiangqi, hot-seat: a move by cursor, one typed in WXF, undo, a bad move, save.
start xiangqi
wait_for "Red to move"
screen | grep -qF "楚 河" || fail "no river"
check "xiangqi board drawn"
# The cursor starts on the general (e0): three left and two up is the cannon on b2.
keys Left Left Left Up Up Enter
wait_for "b2 selected"
keys Right Right Right Enter
wait_for "C8=5"
wait_for "Black to move"
check "cursor move b2e2 played"
keys :
type_text "H8+7"
keys Enter
wait_for "H8+7"
wait_for "Moves (2)"
check "typed WXF move played"
keys u
wait_for "Moves (1)"
check "undo"
keys :
type_text "zz9"
keys Enter
wait_for "zz9: invalid move"
check "bad move reported"
keys s C-u
type_text "$WORK/game.pgn"
keys Enter
wait_for "Saved 1 moves"
grep -qx "1. C8=5 \*" "$WORK/game.pgn" || fail "record file lacks the move"
grep -qx '\[Variant "xiangqi"\]' "$WORK/game.pgn" || fail "record file lacks the game"
check "saved record"
printf '[Variant "xiangqi"]\n\n1. b2e2\nb2e2 *\n' > "$WORK/bad.pgn"
keys o C-u
type_text "$WORK/bad.pgn"
keys Enter
wait_for "line 4"
check "bad record reported"
keys q
wait_for "EXITED 0"
wait_for "COOKED"
check "quit restores the terminal and exits 0"

# --- Banqi against the engine: flip with one Enter, the engine answers.
start banqi --ai 1
wait_for "First to move"
keys Enter
wait_for "Moves (2)"
[ "$(screen | grep -E '^│ +[0-9]+ ' | grep -o '▓▓' | wc -l)" -eq 30 ] || fail "expected 30 face-down pieces"
check "banqi flip and engine reply"
keys q
wait_for "EXITED 0"

# --- Chess-Battle: a typed move.
start chessbattle
wait_for "Red to move"
keys :
type_text "e3-e4"
keys Enter
wait_for "White to move"
check "chess-battle typed move"
keys q
wait_for "EXITED 0"

# --- Commander Chess: terrain and a stack (the air force lands on the navy).
start commander
wait_for "Red to move"
screen | grep -qF "▒▒▒▒▒" || fail "no fords on the river"
keys :
type_text "Fe2&b2"
keys Enter
wait_for "Fe2&b2"
screen | grep -qF "NF" || fail "the stack is not drawn"
check "commander stack"
keys q
wait_for "EXITED 0"

# --- SIGTERM: the terminal comes back and the game is kept beside the save path.
start_after_h2e2
pkill -TERM -f "^$BIN play xiangqi\$" || fail "no board process to signal"
wait_for "EXITED 0"
wait_for "COOKED"
grep -qx "1. C2=5 \*" "$WORK/cannonade-xiangqi-interrupted.pgn" || fail "the game was not saved on SIGTERM"
check "SIGTERM restores the terminal and saves the game"

# --- The terminal goes away (its window closed, tmux killed): the board stops and keeps the
# game instead of spinning on the dead terminal (crossterm's read loop did, at full CPU).
start_after_h2e2
rm -f "$WORK"/cannonade-xiangqi-interrupted.*
tm kill-session -t "$SESSION"
for _ in $(seq 50); do
    pgrep -f "^$BIN play xiangqi\$" >/dev/null || break
    sleep 0.1
done
if pgrep -f "^$BIN play xiangqi\$" >/dev/null; then
    pkill -KILL -f "^$BIN play xiangqi\$" || true
    fail "the board kept running after its terminal closed"
fi
grep -qx "1. C2=5 \*" "$WORK/cannonade-xiangqi-interrupted.pgn" || fail "the game was not kept on hang-up"
check "a closed terminal stops the board and keeps the game"

# --- Loading from the command line, and a bad game name (no terminal taken over).
start --load "$WORK/game.pgn"
wait_for "Moves (1)"
check "--load"
keys q
wait_for "EXITED 0"
if "$BIN" play chess >/dev/null 2>&1; then fail "an unknown game must fail"; fi
check "unknown game refused"

echo "$passed passed, 0 failed"
