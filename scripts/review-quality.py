#!/usr/bin/env python3
"""How well does our game review find mistakes? Measured against Debian's fairy-stockfish (issue 25).

The goal (issue 25, "Measured"): on at least 30 Xiangqi games from an outside match runner, the
plies `cannonade review` calls mistakes or blunders against the plies where fairy-stockfish
(`go depth 14`) sees a swing of the same size; agreement >= 80 %, with the confusion table.

Stages (all by default, each writing a file under --dir, so a stage can be rerun alone):

  play     N Xiangqi games between two fairy-stockfish processes driven over UCI by this
           script (not `cannonade match`), pyffish as referee (legal moves, mates, stalemates,
           repetition claims, bare kings), a draw adjudicated at --max-plies. Each game starts
           with 2-4 random legal plies from a seeded RNG, then Red plays at a random
           `Skill Level` 0..10 and Black at 0..10 in odd-numbered games and at full strength (20)
           in even-numbered ones, --movetime ms a move. Written as PGN our reader takes
           (Variant "xiangqi", moves in our 0-based coordinates, `h2e2`): games.pgn.
           The games depend on timing (movetime, and Skill Level's own random pick), so they are
           kept in the repository; the other stages on the kept file repeat exactly.
  review   `cannonade review games.pgn -o reviewed.pgn` at our default depth, split over --jobs
           processes (each game is reviewed from an empty table, so splitting changes nothing).
  analyse  fairy-stockfish `go depth 14` (UCI_Variant xiangqi, Threads 1, Hash 64, Contempt 0)
           on every position of every game, forwards through the game with the hash kept
           within a game: fsf-depth14.json (the value for the side to move of each position,
           `[cp, bestmove]` or `["#n", bestmove]`; an ended position is valued by its outcome,
           as our review does).
  report   the confusion tables and agreement figures (printed; also report.txt).
  calibrate (only when asked) fairy-stockfish's depth-14 value of the start position with one
           horse or cannon taken away, to check the minor-piece value m below.

The win-chance scale (docs/analysis.md): win(cp) = 1 / (1 + exp(-k cp)), k = ln 3 / m, m the value
of a minor piece (horse or cannon), mates counted as +-10000 cp. A move's loss is
max(0, win(before) - win(played)), `before` the value of the position for the mover and `played`
the value of the position after the move, negated (both from a search of the same depth, as our
review does). Judgements at Xiangqi's thresholds: inaccuracy >= 0.05, mistake >= 0.10,
blunder >= 0.15.

fairy-stockfish's m: its UCI centipawns are internal values * 100 / PawnValueEg, with
PawnValueEg = 213 (Stockfish 11's chess pawn, checked: a chess rook's material in `eval` comes out
as 5.85 / 6.44 = (1276 - 31) / 213, 1380 / 213 less a small square bonus). Its Xiangqi horse is
520 (middlegame) / 800 (endgame) and cannon 800 / 700 internally; the mean of the four,
705, is 331 cp: m = 331 (k = 0.00332). Our engine's m is 440 (horse 420, cannon 460). `calibrate`
measures it from searches; see docs/analysis.md for the figures.

Usage (needs `apt-get install fairy-stockfish`, `pip install pyffish`, a release build):

  nice -n 5 scripts/review-quality.py [--games 30] [--seed 1] [--movetime 60] [--jobs 2]
                                      [--stages play,review,analyse,report] [--dir DIR]
                                      [--binary PATH] [--depth 14] [--m 331] [--show 8]
                                      [--review-depth N] [--ours review|fsf-depthD]

--review-depth N reviews (and reports) at our depth N (reviewed-dN.pgn, report-reviewed-dN.txt)
instead of the game's default. --ours fsf-depthD reports fairy-stockfish at depth D (from
`--stages analyse --depth D`, fsf-depthD.json) judged as our review is, against the reference
at --depth: how far the reference agrees with itself, the ceiling a reviewer can be held to.
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pyffish as sf

# The coordinate conversions (fairy-stockfish's 1-based ranks, ours 0-based) of the rules
# cross-check, which sits beside this script.
from crosscheck_pyffish import to_one_based, to_zero_based

VARIANT = "xiangqi"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FSF = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
MATE_CP = 10_000
# Xiangqi's judgement thresholds (docs/analysis.md): inaccuracy, mistake, blunder.
THRESHOLDS = (0.05, 0.10, 0.15)
OUR_M = 440.0
NAG_CLASS = {"$6": 1, "$2": 2, "$4": 3}
CLASS_NAME = ["none", "inaccuracy", "mistake", "blunder"]


# ---------------------------------------------------------------- fairy-stockfish over UCI

class Uci:
    """One fairy-stockfish process."""

    def __init__(self, options):
        self.p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda line: line == "uciok")
        self.send(f"setoption name UCI_Variant value {VARIANT}")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        for raw in self.p.stdout:
            line = raw.strip()
            lines.append(line)
            if done(line):
                return lines
        raise RuntimeError("fairy-stockfish closed its output")

    def ready(self):
        self.send("isready")
        self.until(lambda line: line == "readyok")

    def new_game(self):
        self.send("ucinewgame")
        self.ready()

    def go(self, moves, limit, fen=None):
        """Searches the position after `moves` (1-based UCI) from the start (or from `fen`):
        (score, bestmove), score as ("cp", n) or ("mate", n) for the side to move, from the
        last info line that is not a bound."""
        where = f"fen {fen}" if fen else "startpos"
        self.send(f"position {where}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go {limit}")
        lines = self.until(lambda line: line.startswith("bestmove"))
        score = None
        for line in lines:
            m = re.search(r"\bscore (cp|mate) (-?\d+)( lowerbound| upperbound)?", line)
            if m and (score is None or not m[3]):
                score = (m[1], int(m[2]))
        best = lines[-1].split()[1] if len(lines[-1].split()) > 1 else None
        return score, best

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


# ---------------------------------------------------------------- the referee

def outcome(moves):
    """None while the game goes on, else its value for the side to move: > 0 won, < 0 lost,
    0 drawn (pyffish's rules: no legal move, immediate ends, claimable repetitions, bare
    material on both sides)."""
    start = sf.start_fen(VARIANT)
    if not sf.legal_moves(VARIANT, start, moves):
        return sf.game_result(VARIANT, start, moves)
    ended, value = sf.is_immediate_game_end(VARIANT, start, moves)
    if ended:
        return value
    ended, value = sf.is_optional_game_end(VARIANT, start, moves)
    if ended:
        return value
    if all(sf.has_insufficient_material(VARIANT, start, moves)):
        return 0
    return None


# ---------------------------------------------------------------- play

def play_game(number, seed, movetime, max_plies):
    rng = random.Random(seed * 100_003 + number)
    start = sf.start_fen(VARIANT)
    moves = []
    random_plies = rng.randint(2, 4)
    for _ in range(random_plies):
        moves.append(rng.choice(sorted(sf.legal_moves(VARIANT, start, moves))))
    skills = [rng.randint(0, 10), rng.randint(0, 10) if number % 2 else 20]
    engines = [Uci({"Skill Level": s, "Threads": 1, "Hash": 16}) for s in skills]
    for e in engines:
        e.new_game()
    started = time.monotonic()
    try:
        result = outcome(moves)
        while result is None and len(moves) < max_plies:
            _, best = engines[len(moves) % 2].go(moves, f"movetime {movetime}")
            if best is None or best not in sf.legal_moves(VARIANT, start, moves):
                raise RuntimeError(f"game {number}: engine answered {best!r} after {moves}")
            moves.append(best)
            result = outcome(moves)
    finally:
        for e in engines:
            e.close()
    red_to_move = len(moves) % 2 == 0
    if result is None:
        tag, termination = "1/2-1/2", "adjudication"
    elif result == 0:
        tag, termination = "1/2-1/2", "normal"
    else:
        red_won = (result > 0) == red_to_move
        tag, termination = ("1-0" if red_won else "0-1"), "normal"
    return {
        "number": number, "moves": moves, "result": tag, "termination": termination,
        "skills": skills, "random_plies": random_plies, "movetime": movetime,
        "seconds": time.monotonic() - started,
    }


def pgn_of(game, seed):
    name = "Fairy-Stockfish 11.1 skill {}"
    tags = [
        ("Event", "review-quality"), ("Site", "scripts/review-quality.py"),
        ("Date", time.strftime("%Y.%m.%d", time.gmtime())), ("Round", str(game["number"])),
        ("White", name.format(game["skills"][0])), ("Black", name.format(game["skills"][1])),
        ("Result", game["result"]), ("Termination", game["termination"]),
        # The referee (pyffish) judges repetitions by the Asian rule (a perpetual checker or
        # chaser loses), so the record says so: our review values the games under the rules
        # they were played under.
        ("Variant", "xiangqi"), ("Options", "repetition=asian"),
        ("TimeControl", f"movetime={game['movetime'] / 1000}"),
        ("RandomPlies", str(game["random_plies"])), ("MatchSeed", str(seed)),
    ]
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    words = []
    for i, mv in enumerate(game["moves"]):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(to_zero_based(mv))
    words.append(game["result"])
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return head + "\n" + "\n".join(lines) + "\n\n"


def stage_play(args):
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        games = list(pool.map(lambda n: play_game(n, args.seed, args.movetime, args.max_plies),
                              range(1, args.games + 1)))
    with open(path(args, "games.pgn"), "w") as f:
        for g in games:
            f.write(pgn_of(g, args.seed))
    plies = [len(g["moves"]) for g in games]
    results = {r: sum(g["result"] == r for g in games) for r in ("1-0", "0-1", "1/2-1/2")}
    print(f"play: {len(games)} games, {sum(plies)} plies (mean {sum(plies) / len(plies):.0f}), "
          f"results {results}, {time.monotonic() - started:.0f} s")


# ---------------------------------------------------------------- reading PGN

def read_pgn(text):
    """Games of a PGN file as (tags, [(move, nag_class, eval_comment)]); enough for our own
    writer's output and for games.pgn."""
    games = []
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        head, _, body = block.partition("\n\n")
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', head, re.M))
        plies = []
        for token in re.findall(r"\{[^}]*\}|\S+", body):
            if token.startswith("{"):
                if plies:
                    plies[-1][2] = token[1:-1]
            elif token.startswith("$"):
                if plies:
                    plies[-1][1] = NAG_CLASS.get(token, plies[-1][1])
            elif re.fullmatch(r"\d+\.(\.\.)?", token) or token in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            else:
                plies.append([token, 0, None])
        games.append((tags, plies))
    return games


def eval_cp(comment):
    """The [%eval …] of our comment as centipawns for the first seat (mate as +-10000)."""
    m = re.search(r"\[%eval (#?)(-?[\d.]+)\]", comment or "")
    if not m:
        return None
    if m[1]:
        return MATE_CP if float(m[2]) > 0 else -MATE_CP
    return max(-MATE_CP, min(MATE_CP, round(float(m[2]) * 100)))


# ---------------------------------------------------------------- review (ours)

def stage_review(args):
    with open(path(args, "games.pgn")) as f:
        blocks = re.split(r"\n\s*\n(?=\[)", f.read().strip())
    jobs = min(args.jobs, len(blocks))
    chunks = [blocks[i::jobs] for i in range(jobs)]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for j, chunk in enumerate(chunks):
            src = os.path.join(tmp, f"in{j}.pgn")
            with open(src, "w") as f:
                f.write("\n\n".join(chunk) + "\n")
            out = os.path.join(tmp, f"out{j}.pgn")
            cmd = [args.binary, "review", src, "-o", out]
            if args.review_depth:
                cmd += ["--depth", str(args.review_depth)]
            procs.append((subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True), out))
        outs, seconds = [], []
        for proc, out in procs:
            _, err = proc.communicate()
            if proc.returncode != 0:
                sys.exit(f"cannonade review failed:\n{err}")
            seconds += [float(s) for s in re.findall(r"in ([\d.]+) s;", err)]
            with open(out) as f:
                outs.append(re.split(r"\n\s*\n(?=\[)", f.read().strip()))
    # Back into the file's order (chunk j holds games j, j + jobs, …).
    ordered = [None] * len(blocks)
    for j, out in enumerate(outs):
        for i, block in enumerate(out):
            ordered[j + i * jobs] = block
    with open(path(args, reviewed_name(args)), "w") as f:
        f.write("\n\n".join(ordered) + "\n")
    print(f"review: {len(blocks)} games in {time.monotonic() - started:.0f} s wall over {jobs} "
          f"processes; {sum(seconds):.0f} s of review in all (the games' own times)")


# ---------------------------------------------------------------- analyse (fairy-stockfish)

def analyse_game(moves, depth):
    engine = Uci({"Threads": 1, "Hash": 64, "Contempt": 0})
    engine.new_game()
    values = []
    started = time.monotonic()
    try:
        for j in range(len(moves) + 1):
            end = outcome(moves[:j])
            if end is not None:
                values.append(["#0" if end != 0 else 0, None, "end", end])
                continue
            (kind, n), best = engine.go(moves[:j], f"depth {depth}")
            values.append([n if kind == "cp" else f"#{n}", best])
    finally:
        engine.close()
    return values, time.monotonic() - started


def stage_analyse(args):
    games = read_pgn(open(path(args, "games.pgn")).read())
    move_lists = [[to_one_based(p[0]) for p in plies] for _, plies in games]
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda ms: analyse_game(ms, args.depth), move_lists))
    data = {
        "engine": "Debian fairy-stockfish 11.1 (Threads 1, Hash 64, Contempt 0)",
        "depth": args.depth,
        "note": "per game, per position (the start, then after each ply): the value for the "
                "side to move, centipawns or '#n' (mate in n moves, '#0' mated), and the best "
                "move; ended positions carry 'end' and pyffish's result for the side to move",
        "games": [{"round": int(tags.get("Round", i + 1)), "seconds": round(sec, 1),
                   "positions": vals}
                  for i, ((tags, _), (vals, sec)) in enumerate(zip(games, done))],
    }
    with open(path(args, f"fsf-depth{args.depth}.json"), "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"analyse: {sum(len(v) for v, _ in done)} positions at depth {args.depth} in "
          f"{time.monotonic() - started:.0f} s wall over {args.jobs} processes; "
          f"{sum(s for _, s in done):.0f} s of search in all")


# ---------------------------------------------------------------- report

def win(cp, m):
    return 1.0 / (1.0 + math.exp(-math.log(3) / m * cp))


def fsf_cp(value, end=None):
    """A stored value as centipawns for the side to move."""
    if isinstance(value, str):
        n = int(value[1:])
        if value == "#0":  # mated, or an ended position valued by its outcome
            return 0 if end == 0 else (MATE_CP if (end or -1) > 0 else -MATE_CP)
        return MATE_CP if n > 0 else -MATE_CP
    return max(-MATE_CP, min(MATE_CP, value))


def values(positions):
    """The stored values of a game's positions as centipawns for the side to move."""
    return [fsf_cp(p[0], p[3] if len(p) > 3 else None) for p in positions]


def loss(before, played, m):
    """The mover's win chance lost: `before` the position's value for the mover, `played` the
    value after the move for the same side."""
    return max(0.0, win(before, m) - win(played, m))


def classify(lost):
    return sum(lost >= t for t in THRESHOLDS)


def reviewed_name(args):
    """Our review's file: reviewed.pgn at the default depth, reviewed-dN.pgn at depth N."""
    return f"reviewed-d{args.review_depth}.pgn" if args.review_depth else "reviewed.pgn"


def fsf_as_review(args, depth):
    """fairy-stockfish at another depth in the place of our review (the `--ours fsf-depthD`
    baseline: how far the reference agrees with itself a few plies shallower), as our reader's
    (tags, plies) with the class of each ply from its own loss at the reference's m."""
    games = read_pgn(open(path(args, "games.pgn")).read())
    data = json.load(open(path(args, f"fsf-depth{depth}.json")))
    out = []
    for (tags, plies), fg in zip(games, data["games"]):
        pos = fg["positions"]
        vals = values(pos)
        marked = []
        for i, (move, _, _) in enumerate(plies):
            lost = loss(vals[i], -vals[i + 1], args.m)
            # The value after the ply for the first seat, as our review's [%eval] comment is.
            after = -vals[i + 1] if i % 2 == 0 else vals[i + 1]
            marked.append([move, classify(lost), f"[%eval {after / 100:.2f}]"])
        out.append((tags, marked))
    return out, args.m


def stage_report(args):
    if args.ours.startswith("fsf-depth"):
        reviewed, ours_m = fsf_as_review(args, int(args.ours[len("fsf-depth"):]))
        ours_name = f"fairy-stockfish depth {args.ours[len('fsf-depth'):]}"
    else:
        reviewed, ours_m = read_pgn(open(path(args, reviewed_name(args))).read()), OUR_M
        ours_name = f"our review ({reviewed_name(args)})"
    data = json.load(open(path(args, f"fsf-depth{args.depth}.json")))
    rows = []  # per ply
    for g, ((tags, plies), fg) in enumerate(zip(reviewed, data["games"])):
        pos = fg["positions"]
        if len(pos) != len(plies) + 1:
            sys.exit(f"game {g + 1}: {len(plies)} plies reviewed, {len(pos)} positions analysed")
        vals = values(pos)
        first = [eval_cp(p[2]) for p in plies]  # ours, first seat's view, after each ply
        for i, (move, ours, _) in enumerate(plies):
            before, played = vals[i], -vals[i + 1]
            fsf_loss = loss(before, played, args.m)
            sign = 1 if i % 2 == 0 else -1
            our_loss = None
            if i > 0 and first[i - 1] is not None and first[i] is not None:
                our_loss = loss(sign * first[i - 1], sign * first[i], ours_m)
            rows.append({
                "game": g + 1, "ply": i + 1, "move": move, "ours": ours,
                "opening": i < int(tags.get("RandomPlies", 0)), "fsf": classify(fsf_loss), "fsf_loss": fsf_loss,
                "our_loss": our_loss, "fsf_before": before, "fsf_played": played,
                "fsf_best": pos[i][1],
                "ours_before": None if i == 0 or first[i - 1] is None else sign * first[i - 1],
                "ours_played": None if first[i] is None else sign * first[i],
                "comment": plies[i][2],
            })
    out = []
    say = out.append
    n = len(rows)
    say(f"{len(reviewed)} games, {n} plies; fairy-stockfish depth {data['depth']}, m = {args.m:g} "
        f"(k = {math.log(3) / args.m:.5f}); ours: {ours_name}, m = {ours_m:g} "
        f"(k = {math.log(3) / ours_m:.5f})")
    say("thresholds (win chance lost): inaccuracy >= 0.05, mistake >= 0.10, blunder >= 0.15")
    say("")
    # 2 x 2
    ours_flag = [r["ours"] >= 2 for r in rows]
    fsf_flag = [r["fsf"] >= 2 for r in rows]
    a = sum(o and f for o, f in zip(ours_flag, fsf_flag))
    b = sum(o and not f for o, f in zip(ours_flag, fsf_flag))
    c = sum(f and not o for o, f in zip(ours_flag, fsf_flag))
    d = n - a - b - c
    say("2x2 (rows: our review; columns: fairy-stockfish's loss)")
    say(f"{'':28}{'FSF < 0.10':>12}{'FSF >= 0.10':>13}{'total':>8}")
    say(f"{'ours none/inaccuracy':28}{d:>12}{c:>13}{c + d:>8}")
    say(f"{'ours mistake/blunder':28}{b:>12}{a:>13}{a + b:>8}")
    say(f"{'total':28}{b + d:>12}{a + c:>13}{n:>8}")
    say("")
    # 3 x 3
    def band(k):
        return 0 if k <= 1 else k - 1
    m3 = [[0] * 3 for _ in range(3)]
    for r in rows:
        m3[band(r["ours"])][band(r["fsf"])] += 1
    names = ["none/inaccuracy", "mistake", "blunder"]
    say("3x3 (rows: ours; columns: fairy-stockfish: < 0.10, 0.10-0.15, >= 0.15)")
    say(f"{'':22}{'FSF < 0.10':>12}{'FSF mistake':>13}{'FSF blunder':>13}")
    for i in range(3):
        say(f"{'ours ' + names[i]:22}" + "".join(f"{m3[i][j]:>{w}}" for j, w in
                                                  zip(range(3), (12, 13, 13))))
    diag3 = sum(m3[i][i] for i in range(3))
    say("")
    # 4 x 4 with inaccuracies apart, for the curious
    m4 = [[0] * 4 for _ in range(4)]
    for r in rows:
        m4[r["ours"]][r["fsf"]] += 1
    say("4x4 (rows: ours none, ?!, ?, ??; columns: fairy-stockfish's class at the same thresholds)")
    for i in range(4):
        say(f"  ours {CLASS_NAME[i]:<11}" + "".join(f"{m4[i][j]:>8}" for j in range(4)))
    say("")
    pct = lambda x, y: f"{100 * x / y:.1f} % ({x}/{y})" if y else "-"
    po = (a + d) / n
    pe = ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n)
    kappa = (po - pe) / (1 - pe) if pe < 1 else float("nan")
    say(f"agreement over all plies (2x2):          {pct(a + d, n)}")
    say(f"agreement over all plies (3x3):          {pct(diag3, n)}")
    say(f"agreement on plies either side flags:    {pct(a, a + b + c)}")
    say(f"precision (ours flagged, FSF >= 0.10):   {pct(a, a + b)}")
    say(f"recall (FSF >= 0.10, ours flagged):      {pct(a, a + c)}")
    say(f"Cohen's kappa (2x2):                     {kappa:.3f}")
    later = [r for r in rows if not r["opening"]]
    la = sum(r["ours"] >= 2 and r["fsf"] >= 2 for r in later)
    lb = sum(r["ours"] >= 2 and r["fsf"] < 2 for r in later)
    lc = sum(r["ours"] < 2 and r["fsf"] >= 2 for r in later)
    say(f"without the random opening plies ({len(later)} plies): all {pct(len(later) - lb - lc, len(later))},"
        f" flagged {pct(la, la + lb + lc)}, precision {pct(la, la + lb)}, recall {pct(la, la + lc)}")
    # near misses: of the disagreements, how many are within 0.05 on the other scale
    fp = [r for r, o, f in zip(rows, ours_flag, fsf_flag) if o and not f]
    fn = [r for r, o, f in zip(rows, ours_flag, fsf_flag) if f and not o]
    say(f"ours flag, FSF < 0.10: FSF sees >= 0.05 in {sum(r['fsf_loss'] >= 0.05 for r in fp)} "
        f"of {len(fp)}")
    say(f"FSF >= 0.10, ours not: ours marked ?! in {sum(r['ours'] == 1 for r in fn)} of "
        f"{len(fn)}")
    for title, group in (("ours flag, fairy-stockfish does not", fp),
                         ("fairy-stockfish flags, ours does not", fn)):
        say("")
        say(f"{title} ({len(group)}; the {min(args.show, len(group))} widest apart):")
        key = (lambda r: -(r["our_loss"] or 0) + r["fsf_loss"]) if group is fp else \
            (lambda r: -r["fsf_loss"] + (r["our_loss"] or 0))
        for r in sorted(group, key=key)[:args.show]:
            ours_txt = "-" if r["our_loss"] is None else f"{r['our_loss']:.3f}"
            say(f"  game {r['game']:>2} ply {r['ply']:>3} {r['move']:<7} ours {CLASS_NAME[r['ours']]:<10}"
                f" loss {ours_txt} ({r['ours_before']} -> {r['ours_played']} cp);"
                f" FSF loss {r['fsf_loss']:.3f} ({r['fsf_before']} -> {r['fsf_played']} cp,"
                f" best {r['fsf_best']})")
    text = "\n".join(out)
    print(text)
    name = "report.txt" if args.ours == "review" and not args.review_depth else \
        f"report-{args.ours if args.ours != 'review' else reviewed_name(args)[:-4]}.txt"
    with open(path(args, name), "w") as f:
        f.write(text + "\n")


# ---------------------------------------------------------------- calibrate

def stage_calibrate(args):
    """fairy-stockfish's depth-N value of the start position with one horse or cannon taken
    away, less its value of the full start position (Red to move in every case)."""
    rows = sf.start_fen(VARIANT).split()[0].split("/")
    engine = Uci({"Threads": 1, "Hash": 64, "Contempt": 0})

    def value(board):
        engine.new_game()
        (kind, n), _ = engine.go([], f"depth {args.depth}", fen=board + " w - - 0 1")
        return n if kind == "cp" else (MATE_CP if n > 0 else -MATE_CP)

    base = value("/".join(rows))
    print(f"calibrate: start position, Red to move: {base} cp")
    ups = {"horse": [], "cannon": []}
    for piece, label, black_row in (("n", "horse", 0), ("c", "cannon", 2)):
        for side, r, p in (("Black", black_row, piece), ("Red", 9 - black_row, piece.upper())):
            for which in (0, 1):
                expanded = re.sub(r"\d", lambda m: "1" * int(m[0]), rows[r])
                at = [i for i, ch in enumerate(expanded) if ch == p][which]
                expanded = expanded[:at] + "1" + expanded[at + 1:]
                squashed = re.sub(r"1+", lambda m: str(len(m[0])), expanded)
                v = value("/".join(rows[:r] + [squashed] + rows[r + 1:]))
                up = v - base if side == "Black" else base - v
                ups[label].append(up)
                print(f"calibrate: {side} without its {'left' if which == 0 else 'right'} "
                      f"{label}: {v} cp for Red; the piece is worth {up} cp")
    engine.close()
    h, c = ups["horse"], ups["cannon"]
    print(f"calibrate: mean horse {sum(h) / len(h):.0f} cp, mean cannon {sum(c) / len(c):.0f} cp,"
          f" both {sum(h + c) / len(h + c):.0f} cp (depth {args.depth})")


def path(args, name):
    return os.path.join(args.dir, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=int, default=60, help="ms a move in play")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--depth", type=int, default=14, help="fairy-stockfish's analysis depth")
    parser.add_argument("--review-depth", type=int, default=None,
                        help="our review's depth (default: the game's; writes reviewed-dN.pgn)")
    parser.add_argument("--ours", default="review",
                        help="what report compares with the reference: `review` (our review) or "
                             "`fsf-depthD` (fairy-stockfish at depth D, from `analyse --depth D`)")
    parser.add_argument("--m", type=float, default=331.0,
                        help="fairy-stockfish's minor piece in its UCI centipawns")
    parser.add_argument("--show", type=int, default=8, help="disagreements listed per kind")
    parser.add_argument("--stages", default="play,review,analyse,report")
    parser.add_argument("--dir", default=os.path.join(ROOT, "testdata", "review-quality"))
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "cannonade"))
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    stages = {"play": stage_play, "review": stage_review, "analyse": stage_analyse,
              "report": stage_report, "calibrate": stage_calibrate}
    for name in args.stages.split(","):
        if name not in stages:
            sys.exit(f"unknown stage {name!r}; stages: {', '.join(stages)}")
        started = time.monotonic()
        stages[name](args)
        print(f"[{name}: {time.monotonic() - started:.0f} s]", file=sys.stderr)


if __name__ == "__main__":
    main()
