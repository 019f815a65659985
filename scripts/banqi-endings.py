#!/usr/bin/env python3
"""Who was ahead in material when each Banqi game of a `cannonade match` record file ended.

Usage: scripts/banqi-endings.py RECORDS.pgn REPLAY.txt PLAYER [--list]

REPLAY.txt is `cannonade pgn replay RECORDS.pgn`. Material is counted at the last position
with the engine's base values (crates/engine/src/params.rs, BANQI_VALUES): face-up pieces
and the face-down pool alike. PLAYER is the name (the PGN's White or Black) whose side is
counted. Prints one line per (result, termination, ahead/level/behind) with its count;
"ahead" and "behind" mean by 100 cp or more. `--list` also prints each drawn game's margin
and last board.
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
    """Per game: the first flip's piece letter and the last position's fields."""
    games, cur = [], None
    for line in open(path, encoding="utf-8"):
        if line.startswith("game "):
            cur = {"first": None, "last": None}
            games.append(cur)
        elif cur is not None and re.match(r"\d+\. ", line):
            fields = line.split()
            if cur["first"] is None and "=" in fields[1]:
                cur["first"] = fields[1].split("=")[1][0]
            cur["last"] = fields[2:]
    return games


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
    if len(tags) != len(games):
        sys.exit(f"{len(tags)} games in the records but {len(games)} in the replay")
    tally = collections.Counter()
    for tag, game in zip(tags, games):
        if player not in (tag["White"], tag["Black"]) or game["first"] is None:
            continue
        first = tag["White"] == player
        # The first flip gives the first seat its colour.
        red = game["first"].isupper() == first
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
