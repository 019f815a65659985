#!/usr/bin/env python3
"""Cross-check of our Xiangqi rules against Fairy-Stockfish through pyffish, its Python binding.

Random games are played from many seeds; after every ply our FEN and our set of legal moves
must equal pyffish's for variant `xiangqi`. Our side is the real `cannonade uci` binary (so the
protocol is exercised too): `d` gives the FEN and `go perft 1` the legal moves. Half of the
games run with UCI_RanksFromOne, so Fairy-Stockfish's 1-based moves are compared directly.

Usage: scripts/crosscheck_pyffish.py [--games N] [--plies N] [--binary PATH]
Exit status 0 when everything agreed, 1 with a report of the first difference otherwise.
"""
import argparse
import os
import random
import re
import subprocess
import sys

import pyffish as sf

VARIANT = "xiangqi"


def to_one_based(move):
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def to_zero_based(move):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class Engine:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.read_until(lambda l: l == "uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("cannonade exited; last lines: " + repr(lines[-5:]))
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("info string error"):
                raise RuntimeError(line)
            if done(line):
                return lines

    def state(self, moves):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send("d")
        fen = next(l for l in self.read_until(lambda l: l.startswith("Fen: "))
                   if l.startswith("Fen: "))[5:]
        self.send("go perft 1")
        lines = self.read_until(lambda l: l.startswith("Nodes searched"))
        legal = sorted(l.split(":")[0] for l in lines if re.fullmatch(r"[a-i]\d+[a-i]\d+: 1", l))
        return fen, legal

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def play(engine, seed, plies, one_based):
    rng = random.Random(seed)
    engine.send(f"setoption name UCI_RanksFromOne value {'true' if one_based else 'false'}")
    start = sf.start_fen(VARIANT)
    ours_moves, fsf_moves = [], []
    for ply in range(plies):
        fen, legal = engine.state(ours_moves)
        fsf_fen = sf.get_fen(VARIANT, start, fsf_moves)
        fsf_legal = sorted(sf.legal_moves(VARIANT, start, fsf_moves))
        if not one_based:
            fsf_legal = sorted(to_zero_based(m) for m in fsf_legal)
        if fen != fsf_fen or legal != fsf_legal:
            print(f"seed {seed}, ply {ply}, moves {' '.join(fsf_moves)}")
            print(f"  ours FEN {fen}\n  FSF  FEN {fsf_fen}")
            print(f"  only ours: {sorted(set(legal) - set(fsf_legal))}")
            print(f"  only FSF:  {sorted(set(fsf_legal) - set(legal))}")
            return False, ply
        if not legal:
            return True, ply
        move = rng.choice(legal)
        ours_moves.append(move)
        fsf_moves.append(move if one_based else to_one_based(move))
    return True, plies


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--plies", type=int, default=150)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--binary", default=os.path.join(root, "target", "debug", "cannonade"))
    args = ap.parse_args()
    engine = Engine(args.binary)
    positions = 0
    try:
        for seed in range(args.games):
            ok, n = play(engine, seed, args.plies, one_based=seed % 2 == 1)
            positions += n + 1
            if not ok:
                print(f"crosscheck: FAILED after {seed} agreeing games")
                return 1
    finally:
        engine.close()
    print(f"crosscheck: {args.games} games, {positions} positions: FEN and legal moves agree "
          f"with Fairy-Stockfish (pyffish {'.'.join(map(str, sf.version()))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
