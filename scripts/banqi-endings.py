#!/usr/bin/env python3
"""Who was ahead in material when each Banqi game of a `cannonade match` record file ended.

Usage: scripts/banqi-endings.py RECORDS.pgn REPLAY.txt PLAYER [--list | --first-loss]

REPLAY.txt is `cannonade pgn replay RECORDS.pgn`. Material is counted at the last position
with the engine's base values (crates/engine/src/params.rs, BANQI_VALUES): face-up pieces
and the face-down pool alike. PLAYER is the name (the PGN's White or Black) whose side is
counted. Prints one line per (result, termination, ahead/level/behind) with its count;
"ahead" and "behind" mean by 100 cp or more. `--list` also prints each drawn game's margin
and last board. `--first-loss` instead tallies, over the games that ended with PLAYER
behind, the capture that put it behind for good (from then on never level again): which
piece took which, and what PLAYER's move before it was: a quiet move, a capture, or a flip
that showed the taker, showed the piece lost, or was made elsewhere while the capture
already stood on the board.
"""
import collections
import os
import re
import sys


def engine_values():
    """BANQI_VALUES read from the engine's parameters, so the script follows the engine."""
    params = os.path.join(os.path.dirname(__file__), "..", "crates", "engine", "src", "params.rs")
    m = re.search(r"BANQI_VALUES: \[i32; 7\] = \[([^\]]*)\]", open(params, encoding="utf-8").read())
    if not m:
        sys.exit("banqi-endings: BANQI_VALUES not found in " + params)
    return dict(zip("KABRNCP", (int(v) for v in m.group(1).split(","))))


VALUES = engine_values()


def read_tags(path):
    text = open(path, encoding="utf-8").read()
    return [dict(re.findall(r'\[(\w+) "([^"]*)"\]', "[Event " + b)) for b in text.split("[Event ")[1:]]


def read_replay(path):
    """Per game: the first flip's piece letter, the last position's fields and every ply as
    (move text, fields after it)."""
    games, cur = [], None
    for line in open(path, encoding="utf-8"):
        if line.startswith("game "):
            cur = {"first": None, "last": None, "plies": []}
            games.append(cur)
        elif cur is not None and re.match(r"\d+\. ", line):
            fields = line.split()
            if cur["first"] is None and "=" in fields[1]:
                cur["first"] = fields[1].split("=")[1][0]
            cur["last"] = fields[2:]
            cur["plies"].append((fields[1], fields[2:]))
    return games


def board_cells(board):
    """The 32 cells of a FEN board, rank 4 first: a letter, `X` face down, `.` empty."""
    cells = []
    for row in board.split("/"):
        for ch in row:
            cells.extend("." * int(ch) if ch.isdigit() else ch)
    return cells


def cell_index(square):
    """Index into `board_cells` of a square such as `d3`."""
    return (4 - int(square[1])) * 8 + "abcdefgh".index(square[0])


def move_kind(text):
    return "flip" if "=" in text else "capture" if "x" in text else "quiet"


def first_loss(game, red):
    """(their capture, our move before it) of the capture after which the game stayed behind
    by 100 cp or more to its end; None if there was no such capture."""
    margins = []
    for _, fields in game["plies"]:
        r, b = material(fields)
        margins.append(r - b if red else b - r)
    if not margins or margins[-1] > -100:
        return None
    i = len(margins) - 1
    while i > 0 and margins[i - 1] <= -100:
        i -= 1
    # Walk back to the capture that dropped the margin (a flip can move it too).
    while i > 0 and "x" not in game["plies"][i][0]:
        i -= 1
    text, _ = game["plies"][i]
    if "x" not in text:
        return None
    before = board_cells(game["plies"][i - 1][1][0]) if i >= 1 else None
    frm, to = text.split("x")
    taker = before[cell_index(frm)].upper() if before else "?"
    victim = before[cell_index(to)].upper() if before else "?"
    ours = move_kind(game["plies"][i - 1][0]) if i >= 1 else "none"
    if ours == "flip":
        flipped = game["plies"][i - 1][0].split("=")[0]
        if flipped == frm:
            ours = "flip showing the taker"
        elif flipped == to:
            ours = "flip showing the piece lost"
        elif i >= 2:
            earlier = board_cells(game["plies"][i - 2][1][0])
            stood = all(earlier[cell_index(sq)] == before[cell_index(sq)] for sq in (frm, to))
            ours = "flip elsewhere, " + ("the capture stood" if stood else "a new capture")
    return f"{taker}x{victim}", ours


def material(fields):
    """(red, black): upper-case letters are red, `X` a face-down piece on the board."""
    board, pool = fields[0], fields[2]
    red = black = 0
    for ch in board:
        if ch.isalpha() and ch not in "Xx":
            if ch.isupper():
                red += VALUES[ch]
            else:
                black += VALUES[ch.upper()]
    for ch, n in re.findall(r"([A-Za-z])(\d+)", pool):
        if ch.isupper():
            red += VALUES[ch] * int(n)
        else:
            black += VALUES[ch.upper()] * int(n)
    return red, black


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tags, games = read_tags(sys.argv[1]), read_replay(sys.argv[2])
    player, listing = sys.argv[3], "--list" in sys.argv[4:]
    losses = "--first-loss" in sys.argv[4:]
    if len(tags) != len(games):
        sys.exit(f"{len(tags)} games in the records but {len(games)} in the replay")
    tally = collections.Counter()
    for tag, game in zip(tags, games):
        if player not in (tag["White"], tag["Black"]) or game["first"] is None:
            continue
        first = tag["White"] == player
        # The first flip gives the first seat its colour.
        red = game["first"].isupper() == first
        if losses:
            found = first_loss(game, red)
            if found:
                capture, ours = found
                tally[("capture", capture)] += 1
                tally[("our move before", ours)] += 1
            continue
        r, b = material(game["last"])
        margin = r - b if red else b - r
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[tag["Result"]]
        if not first:
            score = 1 - score
        result = {1.0: "win", 0.0: "loss", 0.5: "draw"}[score]
        lead = "ahead" if margin >= 100 else "behind" if margin <= -100 else "level"
        tally[(result, tag.get("Termination", "?"), lead)] += 1
        if listing and result == "draw":
            print("draw", tag.get("Termination", "?"), margin, game["last"][0])
    for key in sorted(tally):
        print(*key, tally[key])


if __name__ == "__main__":
    main()
