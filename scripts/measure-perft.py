#!/usr/bin/env python3
"""Xiangqi perft speed: ours against Debian's fairy-stockfish, timed in the same run.

Usage: scripts/measure-perft.py [DEPTH] [RUNS]   (defaults 5 and 3; needs a release build of
cannonade and `apt-get install fairy-stockfish`). Prints each run, the medians and the ratio.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

DEPTH = int(sys.argv[1]) if len(sys.argv) > 1 else 5
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.path.join(ROOT, "target", "release", "cannonade")
FSF = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


def time_ours():
    start = time.perf_counter()
    out = subprocess.run([OURS, "perft", "xiangqi", str(DEPTH)], capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    nodes = int(out.stdout.split("Nodes searched:")[1].split()[0])
    return nodes, elapsed


def time_fsf():
    p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write("uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\nisready\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.strip() == "readyok":
            break
    start = time.perf_counter()
    p.stdin.write(f"go perft {DEPTH}\n")
    p.stdin.flush()
    nodes = None
    for line in p.stdout:
        if line.startswith("Nodes searched:"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return nodes, elapsed


def main():
    ours, fsf = [], []
    for run in range(RUNS):
        n1, t1 = time_ours()
        n2, t2 = time_fsf()
        assert n1 == n2, f"node counts differ: ours {n1}, fairy-stockfish {n2}"
        ours.append(t1)
        fsf.append(t2)
        print(f"run {run + 1}: cannonade {t1:.3f} s, fairy-stockfish {t2:.3f} s, {n1} leaves")
    mo, mf = statistics.median(ours), statistics.median(fsf)
    print(f"median: cannonade {mo:.3f} s ({n1 / mo / 1e6:.1f} M leaves/s), "
          f"fairy-stockfish {mf:.3f} s ({n1 / mf / 1e6:.1f} M leaves/s), ratio {mf / mo:.2f}x")


if __name__ == "__main__":
    main()
