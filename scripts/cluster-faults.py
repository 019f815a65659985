#!/usr/bin/env python3
"""The cluster fault runs of docs/server.md: two nodes on PostgreSQL + Redis under the load
tool, one fault in the middle of the run, then every move a player was told of looked up in
the store.

    python3 scripts/cluster-faults.py FAULT [--games N] [--spectators M] [--duration S] [--at S]

FAULT is `redis` (Redis shut down, started again 3 s later), `postgres` (PostgreSQL restarted,
fast mode) or `kill` (kill -9 of the second node, started again 5 s later). The load tool runs
with `--reconnect` (a bot or spectator whose socket fails connects again, to its node or the
other) and `--told FILE` (the moves its players were told of). After the run the nodes stop
and the script counts, per game, the told moves the store lacks or holds differently (goal:
0), and prints the load tool's own count of games that did not continue.

Needs a release build (`cargo build --release -p cannonade-cli`), PostgreSQL on
127.0.0.1:5432 (trust auth) and Redis on 127.0.0.1:6379, and root (to restart them). It drops
and recreates the database `cannonade_faults` and flushes Redis.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

PG = "postgres://postgres@127.0.0.1:5432/cannonade_faults"
PORTS = (8091, 8092)


def psql(sql, db="test"):
    return subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-At", "-F", "\t", "-c", sql],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def wait_port(port, timeout=60):
    import socket

    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"nothing answers on {port}")


def start_node(binary, port, log):
    node = subprocess.Popen(
        [binary, "serve", "--addr", f"127.0.0.1:{port}", "--db", PG,
         "--redis", "redis://127.0.0.1:6379"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    wait_port(port)
    return node


def redis_up():
    subprocess.run(["redis-server", "/etc/redis/redis.conf", "--save", "", "--daemonize", "yes"],
                   check=True, capture_output=True)
    for _ in range(50):
        if subprocess.run(["redis-cli", "ping"], capture_output=True, text=True).stdout.strip() == "PONG":
            return
        time.sleep(0.1)
    sys.exit("Redis did not come back")


def fault(kind, nodes, binary, log):
    """Does the fault; returns when it is over (the service or node is back)."""
    if kind == "redis":
        subprocess.run(["redis-cli", "shutdown", "nosave"], capture_output=True)
        time.sleep(3)
        redis_up()
    elif kind == "postgres":
        subprocess.run(["pg_ctlcluster", "15", "main", "restart", "-m", "fast"], check=True)
    elif kind == "kill":
        nodes[1].send_signal(signal.SIGKILL)
        nodes[1].wait()
        time.sleep(5)
        nodes[1] = start_node(binary, PORTS[1], log)


def stored_moves():
    """Game id → the stored moves' texts by ply, takebacks applied."""
    games = {}
    rows = psql("SELECT game_id, v, body FROM game_events ORDER BY game_id, v", "cannonade_faults")
    for line in rows.splitlines():
        game, _, body = line.split("\t", 2)
        event = json.loads(body)
        moves = games.setdefault(game, [])
        if event.get("e") == "moved":
            del moves[event["ply"]:]
            moves.append(event["mv"])
        elif event.get("e") == "taken_back":
            del moves[len(moves) - event["moves"]:]
    return games


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fault", choices=["redis", "postgres", "kill", "none"])
    ap.add_argument("--binary", default="target/release/cannonade")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--spectators", type=int, default=2000)
    ap.add_argument("--duration", type=int, default=60)
    ap.add_argument("--at", type=int, default=20, help="seconds into the run for the fault")
    ap.add_argument("--think-ms", type=int, default=1000)
    a = ap.parse_args()

    psql("DROP DATABASE IF EXISTS cannonade_faults")
    psql("CREATE DATABASE cannonade_faults")
    subprocess.run(["redis-cli", "flushall"], check=True, capture_output=True)
    work = tempfile.mkdtemp(prefix="faults-")
    log = open(os.path.join(work, "nodes.log"), "w")
    told_file = os.path.join(work, "told.json")
    nodes = [start_node(a.binary, p, log) for p in PORTS]
    load = subprocess.Popen(
        [a.binary, "loadtest", *sum((["--url", f"ws://127.0.0.1:{p}"] for p in PORTS), []),
         "--procs", "2", "--games", str(a.games), "--spectators", str(a.spectators),
         "--duration", str(a.duration), "--think-ms", str(a.think_ms), "--proposals",
         "--reconnect", "--told", told_file],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # The parent says on stderr when all its processes are connected: the run starts after
    # the warm-up (5 s).
    for line in load.stderr:
        if "load processes connected" in line:
            break
    time.sleep(5 + a.at)
    started = time.time()
    if a.fault != "none":
        fault(a.fault, nodes, a.binary, log)
    print(f"fault `{a.fault}` at {a.at} s into the run, over in {time.time() - started:.1f} s")
    out, err = load.communicate()
    print(out)
    for node in nodes:
        node.send_signal(signal.SIGTERM)
    for node in nodes:
        try:
            node.wait(30)
        except subprocess.TimeoutExpired:
            node.kill()

    told = json.load(open(told_file))
    stored = stored_moves()
    lost = 0
    games_losing = 0
    for game, moves in told.items():
        have = stored.get(game, [])
        missing = sum(1 for i, m in enumerate(moves) if i >= len(have) or have[i] != m)
        lost += missing
        games_losing += missing > 0
    told_count = sum(len(m) for m in told.values())
    print(f"told moves: {told_count} in {len(told)} games; stored: {sum(map(len, stored.values()))}")
    print(f"told moves missing or different in the store: {lost} (in {games_losing} games)")
    print(f"logs in {work}")
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
