#!/usr/bin/env python3
"""Perft of Xiangqi positions computed by Fairy-Stockfish's Python binding (pyffish), used to
source the reference numbers of testdata/perft/xiangqi.perft for our own positions.

Usage: scripts/pyffish_perft.py DEPTH FEN...   (prints perft lines in the testdata format)
"""
import sys

import pyffish as sf


def perft(fen, depth):
    if depth == 0:
        return 1
    moves = sf.legal_moves("xiangqi", fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(sf.get_fen("xiangqi", fen, [m]), depth - 1) for m in moves)


def main():
    depth = int(sys.argv[1])
    for fen in sys.argv[2:]:
        full = sf.get_fen("xiangqi", fen, [])
        counts = " ; ".join(f"D{d} {perft(full, d)}" for d in range(1, depth + 1))
        print(f"{fen} ; {counts}")


if __name__ == "__main__":
    main()
