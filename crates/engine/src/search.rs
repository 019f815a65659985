//! The search: iterative deepening over principal-variation alpha-beta with aspiration
//! windows, a transposition table, quiescence over tactical moves, check extensions,
//! null-move pruning, reverse futility pruning and late-move reductions, and expectimax with
//! Star1 pruning at chance nodes. It is generic over [`Evaluate`] and monomorphised per game.
//!
//! Scores are from the view of the seat to move at each node; a child's score is negated only
//! when the child's mover differs from the parent's (a Commander Chess deploy keeps the turn).
//! Repetitions are judged on the path (and the game's history before the root) under each
//! game's [`Repetition`] rule.

use crate::params::{
    ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW, CHANCE_EXPAND_DEPTH, CHANCE_EXPAND_MOVES,
    CHANCE_EXPAND_PLY, DRAW_CONTEMPT, EXTENSION_PLY_FACTOR, FUTILITY_BASE, FUTILITY_DEPTH,
    FUTILITY_MARGIN, HISTORY_MAX, LMP_BASE, LMP_DEPTH, LMP_FACTOR, LMR_DIVISOR_CENTI,
    LMR_FULL_MOVES, LMR_MIN_DEPTH, MAX_PLY, NULL_MOVE_BASE_REDUCTION, NULL_MOVE_DEPTH_DIVISOR,
    NULL_MOVE_MIN_DEPTH, QS_EVASION_PLIES, REVERSE_FUTILITY_DEPTH, REVERSE_FUTILITY_MARGIN,
};
use crate::tt::{Bound, Table};
use crate::{Evaluate, Limits, Repetition};
use cannonade_core::{MoveBuf, Outcome, Side, Weighted};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of a mate delivered now; a win in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at least this large in magnitude are wins or losses found by the search.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// Best move, `None` when there is no legal move.
    pub best: Option<M>,
    /// Its score for the side to move.
    pub score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<M>,
}

/// Reported after each completed depth.
#[derive(Clone, Debug)]
pub struct Progress<M> {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub millis: u64,
    /// Principal variation.
    pub pv: Vec<M>,
}

/// How a search plays beyond its limits: evaluation noise for weaker levels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Evaluation noise, ± centipawns (0 for full strength).
    pub noise: i32,
    /// Seed of the noise, so one search is consistent with itself.
    pub seed: u64,
}

/// One position on the path (or in the game before the root), for repetition checks.
#[derive(Clone, Copy, Debug)]
struct Frame {
    hash: u64,
    /// The side to move here is in check (the move into it gave check).
    in_check: bool,
}

/// The win or loss score of an outcome for `mover`, `ply` plies from the root.
fn outcome_score(o: Outcome, mover: Side, ply: usize) -> i32 {
    match o.winner {
        None => 0,
        Some(w) if w == mover => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

/// A 64-bit mix (splitmix64's finaliser), for evaluation noise.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

struct Searcher<'a, G: Evaluate> {
    limits: &'a Limits,
    stop: &'a AtomicBool,
    start: Instant,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    tt: &'a mut Table<G::Move>,
    style: Style,
    bufs: Vec<MoveBuf<G::Move>>,
    scores: Vec<Vec<i32>>,
    outcomes: Vec<Vec<Weighted<G::Chance>>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    stack: Vec<Frame>,
    root_frame: usize,
    root_depth: i32,
    /// The seat the search plays for.
    root_mover: Side,
    lmr: Vec<[i32; 64]>,
}

impl<'a, G: Evaluate> Searcher<'a, G> {
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted
            && (self.limits.nodes.is_some_and(|n| self.nodes >= n)
                || (self.nodes.is_multiple_of(1024)
                    && (self.stop.load(Ordering::Relaxed)
                        || self.limits.time.is_some_and(|t| self.start.elapsed() >= t))))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn eval(&self, pos: &G) -> i32 {
        let v = pos.evaluate();
        if self.style.noise == 0 {
            return v;
        }
        let span = 2 * self.style.noise as u64 + 1;
        v + (mix(pos.hash() ^ self.style.seed) % span) as i32 - self.style.noise
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.bufs.len() <= ply + 1 {
            self.bufs.push(MoveBuf::with_capacity(128));
            self.scores.push(Vec::with_capacity(128));
            self.outcomes.push(Vec::with_capacity(16));
            self.killers.push([None, None]);
            self.pv.push(Vec::with_capacity(32));
        }
    }

    /// This ply's move and score buffers, filled with `pos`'s legal moves (give them back
    /// with [`Self::give_back`]); `Err` with the score of the position when it has none.
    fn take_moves(&mut self, pos: &G, ply: usize) -> Result<(MoveBuf<G::Move>, Vec<i32>), i32> {
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        let scores = std::mem::take(&mut self.scores[ply]);
        pos.legal_moves(&mut buf);
        if buf.is_empty() {
            self.give_back(ply, buf, scores);
            return Err(outcome_score(pos.stuck_outcome(), pos.mover(), ply));
        }
        Ok((buf, scores))
    }

    /// Returns the buffers [`Self::take_moves`] lent, so the next node at this ply reuses
    /// their allocations.
    fn give_back(&mut self, ply: usize, buf: MoveBuf<G::Move>, scores: Vec<i32>) {
        self.bufs[ply] = buf;
        self.scores[ply] = scores;
    }

    /// Sets `pv[ply]` to `mv` followed by the child's line.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The score of a repetition of the node on top of the stack, if its game's rule ends the
    /// game (or the search's view of it) here.
    fn repetition_score(&self, pos: &G, ply: usize) -> Option<i32> {
        let rule = pos.repetition();
        if rule == Repetition::Off {
            return None;
        }
        let n = self.stack.len() - 1;
        let hash = self.stack[n].hash;
        let reach = pos.reversible_plies().min(n);
        let mut count = 0u32;
        let mut latest = None;
        for i in (n - reach..n).rev() {
            if self.stack[i].hash == hash {
                count += 1;
                latest.get_or_insert(i);
            }
        }
        let latest = latest?;
        let in_path = latest >= self.root_frame;
        let win = MATE - ply as i32;
        match rule {
            Repetition::Off => None,
            Repetition::Draw { occurrence } => {
                (count + 1 >= occurrence || in_path).then(|| self.draw_score(pos))
            }
            // The ply that made the third occurrence loses: the side to move here wins,
            // unless it is mated (mate is judged first).
            Repetition::ThirdLoses => (count >= 2).then(|| self.unless_stuck(pos, win, ply)),
            Repetition::PerpetualCheckLoses => {
                if count < 2 && !in_path {
                    return None;
                }
                // Moves into frames n, n-2, … were the opponent's; n-1, n-3, … ours.
                let mut theirs_all = true;
                let mut ours_all = true;
                for k in latest + 1..=n {
                    let check = self.stack[k].in_check;
                    if (n - k).is_multiple_of(2) { theirs_all &= check } else { ours_all &= check }
                }
                Some(match (theirs_all, ours_all) {
                    (true, false) => self.unless_stuck(pos, win, ply),
                    (false, true) => -win,
                    _ => self.draw_score(pos),
                })
            }
        }
    }

    /// A drawn repetition for the side to move at `pos`: slightly worse than even for the
    /// side the search plays for (contempt), so it keeps playing a game it can win rather
    /// than shuffle into a draw, and slightly better for the opponent.
    fn draw_score(&self, pos: &G) -> i32 {
        if pos.mover() == self.root_mover { -DRAW_CONTEMPT } else { DRAW_CONTEMPT }
    }

    /// `score`, or the loss of the side to move when it has no legal move.
    fn unless_stuck(&self, pos: &G, score: i32, ply: usize) -> i32 {
        if pos.count_legal() == 0 {
            outcome_score(pos.stuck_outcome(), pos.mover(), ply)
        } else {
            score
        }
    }

    /// Searches a child position; the score is from the parent's mover's view.
    /// `expand` allows a chance child to be expanded outcome by outcome.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        parent: Side,
        child: &G,
        gives_check: bool,
        expand: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let flip = child.mover() != parent;
        let (a, b) = if flip { (-beta, -alpha) } else { (alpha, beta) };
        let v = if child.chance_pending() {
            self.chance(child, expand, depth, ply + 1, a, b)
        } else {
            self.stack.push(Frame { hash: child.hash(), in_check: gives_check });
            let v = self.negamax(child, depth, ply + 1, a, b, true);
            self.stack.pop();
            v
        };
        if flip { -v } else { v }
    }

    fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        null_ok: bool,
    ) -> i32 {
        self.ensure_ply(ply);
        self.pv[ply].clear();
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if let Some(o) = pos.quick_outcome() {
                self.nodes += 1;
                return outcome_score(o, pos.mover(), ply);
            }
            if let Some(s) = self.repetition_score(pos, ply) {
                self.nodes += 1;
                return s;
            }
            // Mate distance pruning.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.eval(pos);
        }
        let in_check = pos.in_check();
        if in_check && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta, 0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return 0;
        }
        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && ply > 0
            && e.depth as i32 >= depth
        {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return e.score;
            }
        }
        let static_eval = if in_check { -INF } else { self.eval(pos) };
        if !pv_node && !in_check && ply > 0 && beta.abs() < MATE_BOUND {
            if depth <= REVERSE_FUTILITY_DEPTH
                && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
            {
                return static_eval;
            }
            if null_ok
                && depth >= NULL_MOVE_MIN_DEPTH
                && static_eval >= beta
                && let Some(passed) = pos.null_move()
            {
                let r = NULL_MOVE_BASE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR;
                let flip = passed.mover() != pos.mover();
                self.stack.push(Frame { hash: passed.hash(), in_check: false });
                let v = if flip {
                    -self.negamax(&passed, depth - 1 - r, ply + 1, -beta, -beta + 1, false)
                } else {
                    self.negamax(&passed, depth - 1 - r, ply + 1, beta - 1, beta, false)
                };
                self.stack.pop();
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        let (mut buf, mut scores) = match self.take_moves(pos, ply) {
            Ok(lists) => lists,
            Err(stuck) => return stuck,
        };
        let killers = self.killers[ply];
        scores.clear();
        for &mv in buf.iter() {
            let s = if Some(mv) == tt_move {
                1 << 30
            } else if let Some(t) = pos.tactical_value(mv) {
                // Losing captures go after the killers, still before the other quiet moves.
                if pos.losing_capture(mv) { (1 << 22) + t } else { (1 << 24) + t }
            } else if Some(mv) == killers[0] {
                (1 << 23) + 1
            } else if Some(mv) == killers[1] {
                1 << 23
            } else {
                self.history[pos.move_index(mv)]
            };
            scores.push(s);
        }

        let mover = pos.mover();
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets: Vec<G::Move> = Vec::new();
        let mut chance_moves = 0;
        let mut quiet_count = 0usize;
        // Shallow non-PV nodes far below alpha search only their tactical moves and checks
        // (futility), and only the first quiet moves in order (late-move pruning).
        let prune_quiets =
            !pv_node && !in_check && ply > 0 && depth <= FUTILITY_DEPTH.max(LMP_DEPTH);
        let futile = prune_quiets
            && depth <= FUTILITY_DEPTH
            && alpha.abs() < MATE_BOUND
            && static_eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha;
        let lmp_limit = if depth <= LMP_DEPTH {
            LMP_BASE + LMP_FACTOR * (depth * depth) as usize
        } else {
            usize::MAX
        };
        let moves = buf.as_mut_slice();
        for i in 0..moves.len() {
            // Selection sort step: bring the best-scored remaining move to i.
            let mut j = i;
            for k in i + 1..moves.len() {
                if scores[k] > scores[j] {
                    j = k;
                }
            }
            moves.swap(i, j);
            scores.swap(i, j);
            let mv = moves[i];
            let tactical = pos.tactical_value(mv).is_some();
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = !child.chance_pending() && child.in_check();
            if !tactical && !child.chance_pending() {
                quiet_count += 1;
                if prune_quiets
                    && !gives_check
                    && best > -MATE_BOUND
                    && scores[i] < 1 << 23
                    && (futile || quiet_count > lmp_limit)
                {
                    continue;
                }
            }
            let expand = child.chance_pending() && {
                chance_moves += 1;
                chance_moves <= CHANCE_EXPAND_MOVES
            };
            let new_depth = depth - 1;
            let mut score;
            if i == 0 {
                score = self.child(mover, &child, gives_check, expand, new_depth, ply, alpha, beta);
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && i >= LMR_FULL_MOVES + pv_node as usize
                    && !tactical
                    && !in_check
                    && !gives_check
                    && scores[i] < 1 << 23
                {
                    r = self.lmr[depth.min(63) as usize][i.min(63)] - pv_node as i32;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = self.child(
                    mover,
                    &child,
                    gives_check,
                    expand,
                    new_depth - r,
                    ply,
                    alpha,
                    alpha + 1,
                );
                if score > alpha && r > 0 && !self.aborted {
                    score = self.child(
                        mover,
                        &child,
                        gives_check,
                        expand,
                        new_depth,
                        ply,
                        alpha,
                        alpha + 1,
                    );
                }
                if score > alpha && score < beta && !self.aborted {
                    score =
                        self.child(mover, &child, gives_check, expand, new_depth, ply, alpha, beta);
                }
            }
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if !tactical {
                            self.reward(pos, ply, mv, &quiets, depth);
                        }
                        break;
                    }
                }
            }
            if !tactical {
                quiets.push(mv);
            }
        }
        self.give_back(ply, buf, scores);
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, best_move, best, depth, bound);
        best
    }

    /// A quiet move caused a cut-off: make it a killer and raise its history; lower the
    /// history of the quiet moves tried before it.
    fn reward(&mut self, pos: &G, ply: usize, mv: G::Move, tried: &[G::Move], depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let mut bump = |i: usize, b: i32| {
            let h = &mut self.history[i];
            *h += b - *h * b.abs() / HISTORY_MAX;
        };
        bump(pos.move_index(mv), bonus);
        for &q in tried {
            bump(pos.move_index(q), -bonus);
        }
    }

    /// Quiescence: stand pat, then tactical moves (and every evasion for a few plies when in
    /// check).
    fn qsearch(&mut self, pos: &G, ply: usize, mut alpha: i32, beta: i32, qply: usize) -> i32 {
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if qply > 0
            && let Some(o) = pos.quick_outcome()
        {
            return outcome_score(o, pos.mover(), ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.eval(pos);
        }
        if self.out_of_budget() {
            return 0;
        }
        let evading = qply < QS_EVASION_PLIES && pos.in_check();
        let mut best = -INF;
        if !evading {
            let stand = self.eval(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let (mut buf, mut scores) = match self.take_moves(pos, ply) {
            Ok(lists) => lists,
            Err(stuck) => return stuck,
        };
        scores.clear();
        let mut n = 0;
        let moves = buf.as_mut_slice();
        for i in 0..moves.len() {
            let t = pos.tactical_value(moves[i]);
            if t.is_some() && !evading && pos.losing_capture(moves[i]) {
                continue;
            }
            if t.is_some() || evading {
                moves.swap(n, i);
                scores.push(t.map_or(0, |t| t + (1 << 24)));
                n += 1;
            }
        }
        let mover = pos.mover();
        for i in 0..n {
            let mut j = i;
            for k in i + 1..n {
                if scores[k] > scores[j] {
                    j = k;
                }
            }
            moves.swap(i, j);
            scores.swap(i, j);
            let mv = moves[i];
            let mut child = pos.clone();
            child.play(mv);
            if child.chance_pending() {
                continue;
            }
            let flip = child.mover() != mover;
            let score = if flip {
                -self.qsearch(&child, ply + 1, -beta, -alpha, qply + 1)
            } else {
                self.qsearch(&child, ply + 1, alpha, beta, qply + 1)
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.give_back(ply, buf, scores);
        if best == -INF { self.eval(pos) } else { best }
    }

    /// A chance node, valued for its mover: the weighted mean over the outcomes, with Star1
    /// cut-offs; shallow or far from the root, the weighted static value of the outcomes.
    fn chance(
        &mut self,
        pos: &G,
        expand: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.nodes += 1;
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        pos.chance_outcomes(&mut outcomes);
        let total: i64 = outcomes.iter().map(|w| w.weight as i64).sum();
        if total == 0 {
            self.outcomes[ply] = outcomes;
            return self.eval(pos);
        }
        let expand = expand && depth >= CHANCE_EXPAND_DEPTH && ply <= CHANCE_EXPAND_PLY;
        let (lo_bound, hi_bound) = (-(MATE as i64), MATE as i64);
        let (alpha_w, beta_w) = (alpha as i64 * total, beta as i64 * total);
        let mut sum = 0i64;
        let mut rest = total;
        let mut result = None;
        for w in &outcomes {
            let weight = w.weight as i64;
            rest -= weight;
            let mut child = pos.clone();
            child.resolve(w.outcome);
            let v = if expand {
                // Star1: the window in which this outcome's value still matters.
                let a = (alpha_w - sum - hi_bound * rest).div_euclid(weight);
                let b = (beta_w - sum - lo_bound * rest + weight - 1).div_euclid(weight);
                let (ca, cb) = (a.max(-INF as i64) as i32, b.min(INF as i64) as i32);
                self.stack.push(Frame { hash: child.hash(), in_check: child.in_check() });
                let v = if child.mover() == pos.mover() {
                    self.negamax(&child, depth, ply + 1, ca, cb, true)
                } else {
                    -self.negamax(&child, depth, ply + 1, -cb, -ca, true)
                };
                self.stack.pop();
                if self.aborted {
                    result = Some(0);
                    break;
                }
                if (v as i64) <= a {
                    result = Some(alpha);
                    break;
                }
                if (v as i64) >= b {
                    result = Some(beta);
                    break;
                }
                v
            } else {
                let v = match child.quick_outcome() {
                    Some(o) => outcome_score(o, child.mover(), ply + 1),
                    None => self.eval(&child),
                };
                if child.mover() == pos.mover() { v } else { -v }
            };
            sum += weight * v as i64;
        }
        self.outcomes[ply] = outcomes;
        result.unwrap_or((sum / total) as i32)
    }
}

/// Searches `pos` by iterative deepening until a limit is reached or `stop` is set, calling
/// `on_progress` after each completed depth. `history` holds the game's positions before
/// `pos`, oldest first, for the repetition rules. Always returns a legal move when there is
/// one.
pub fn search<G: Evaluate>(
    pos: &G,
    history: &[G],
    limits: &Limits,
    stop: &AtomicBool,
    on_progress: impl FnMut(&Progress<G::Move>),
) -> SearchResult<G::Move> {
    let mut tt = Table::new(16);
    search_with(pos, history, limits, stop, &mut tt, Style::default(), on_progress)
}

/// [`search`] with a transposition table that outlives the search and a playing style.
pub(crate) fn search_with<G: Evaluate>(
    pos: &G,
    history: &[G],
    limits: &Limits,
    stop: &AtomicBool,
    tt: &mut Table<G::Move>,
    style: Style,
    mut on_progress: impl FnMut(&Progress<G::Move>),
) -> SearchResult<G::Move> {
    tt.new_search();
    let mut lmr = vec![[0i32; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((d as f64).ln() * (m as f64).ln() * 100.0 / LMR_DIVISOR_CENTI) as i32;
        }
    }
    let mut stack: Vec<Frame> = history
        .iter()
        .filter(|p| !p.chance_pending())
        .map(|p| Frame { hash: p.hash(), in_check: p.in_check() })
        .collect();
    let root_frame = stack.len();
    stack.push(Frame { hash: pos.hash(), in_check: pos.in_check() });
    let mut s = Searcher {
        limits,
        stop,
        start: Instant::now(),
        nodes: 0,
        seldepth: 0,
        aborted: false,
        tt,
        style,
        bufs: Vec::new(),
        scores: Vec::new(),
        outcomes: Vec::new(),
        killers: Vec::new(),
        history: vec![0; G::MOVE_INDEXES],
        pv: Vec::new(),
        stack,
        root_frame,
        root_depth: 1,
        root_mover: pos.mover(),
        lmr,
    };
    let mut root = MoveBuf::new();
    pos.legal_moves(&mut root);
    let mut result =
        SearchResult { best: root.first().copied(), score: 0, depth: 0, nodes: 0, pv: Vec::new() };
    if root.is_empty() {
        return result;
    }
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
    let mut prev: i32 = 0;
    for depth in 1..=max_depth {
        s.root_depth = depth as i32;
        s.seldepth = 0;
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) =
            if depth as i32 >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                (prev - window, prev + window)
            } else {
                (-INF, INF)
            };
        let score = loop {
            let v = s.negamax(pos, depth as i32, 0, alpha, beta, true);
            if s.aborted {
                break v;
            }
            if v <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (alpha - window).max(-INF);
            } else if v >= beta && beta < INF {
                beta = (beta + window).min(INF);
            } else {
                break v;
            }
            window *= 2;
        };
        let pv = s.pv[0].clone();
        if s.aborted {
            let _ = score;
            // A root move that finished searching inside the window is better than the
            // previous iteration's choice.
            if depth > 1 && !pv.is_empty() {
                result.best = pv.first().copied();
                result.pv = pv;
            }
            result.nodes = s.nodes;
            break;
        }
        prev = score;
        if let Some(&best) = pv.first() {
            result =
                SearchResult { best: Some(best), score, depth, nodes: s.nodes, pv: pv.clone() };
        }
        result.nodes = s.nodes;
        on_progress(&Progress {
            depth,
            seldepth: s.seldepth as u32,
            score,
            nodes: s.nodes,
            millis: s.start.elapsed().as_millis() as u64,
            pv,
        });
        let mate_plies = MATE - score.abs();
        if score.abs() >= MATE_BOUND && depth as i32 > mate_plies + 2 {
            break;
        }
        if limits.soft_time.is_some_and(|t| s.start.elapsed() >= t) {
            break;
        }
        if root.len() == 1 && limits.time.is_some() {
            break;
        }
    }
    result
}
