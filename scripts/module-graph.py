#!/usr/bin/env python3
"""The server crate's module graph (issue 24: "the module cycle gone, show the import graph").

Reads crates/server/src (or the crate given), counts an edge from a top-level module A to B
whenever a file of A names `crate::B` outside its `#[cfg(test)]` part (a `use`, a path in code
or in a doc link: each is a dependency a reader follows), and prints every module with the
modules it depends on, then the cycles: the strongly connected components of more than one
module. Exits 1 when there is a cycle, so that a check can hold the line once it is gone.

    python3 scripts/module-graph.py [crates/server/src] [--dot FILE]
"""

import argparse
import os
import re
import sys
from collections import defaultdict


def modules(src):
    """Top-level module name -> its files (a directory module is all files under it)."""
    out = defaultdict(list)
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".rs"):
                rel = os.path.relpath(os.path.join(root, f), src)
                top = rel.split(os.sep)[0].removesuffix(".rs")
                if top not in ("lib", "main"):
                    out[top].append(os.path.join(src, rel))
    return out


def edges(mods):
    graph = {m: set() for m in mods}
    for m, files in mods.items():
        for path in files:
            with open(path, encoding="utf-8") as f:
                text = f.read().split("#[cfg(test)]")[0]
            for dep in re.findall(r"crate::(\w+)", text):
                if dep != m and dep in mods:
                    graph[m].add(dep)
    return graph


def cycles(graph):
    """Tarjan's strongly connected components with more than one member."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", nargs="?", default="crates/server/src")
    ap.add_argument("--dot", help="also write the graph in Graphviz's dot language")
    args = ap.parse_args()
    graph = edges(modules(args.src))
    for m in sorted(graph):
        print(f"{m} -> {', '.join(sorted(graph[m])) or '(none)'}")
    found = cycles(graph)
    for comp in found:
        print(f"cycle ({len(comp)} modules): {' '.join(comp)}")
    if not found:
        print("no cycle")
    if args.dot:
        with open(args.dot, "w", encoding="utf-8") as f:
            f.write("digraph server {\n")
            for m in sorted(graph):
                for d in sorted(graph[m]):
                    f.write(f'  "{m}" -> "{d}";\n')
            f.write("}\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
