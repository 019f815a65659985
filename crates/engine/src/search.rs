//! The search: iterative deepening over principal-variation alpha-beta with aspiration
//! windows, a transposition table, quiescence over tactical moves, check extensions,
//! null-move pruning, reverse futility and futility pruning, late-move pruning and
//! reductions (scaled by whether the mover's static value is improving and by history; a
//! flip counts as a quiet move),
//! internal iterative reductions, and expectimax with Star1 and Star2 pruning at chance
//! nodes. It is generic over [`Evaluate`] and monomorphised
//! per game.
//!
//! Scores are from the view of the seat to move at each node; a child's score is negated only
//! when the child's mover differs from the parent's (a Commander Chess deploy keeps the turn).
//! Repetitions are judged on the path (and the game's history before the root) under each
//! game's own [`RepetitionRule`], the one its records are judged by.

use crate::history::{MoveHistory, QuietKey};
use crate::params::{
    ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW, CHANCE_EXPAND_DEPTH, CHANCE_EXPAND_MOVES,
    CHANCE_EXPAND_PLY, EXTENSION_PLY_FACTOR, FUTILITY_BASE, FUTILITY_DEPTH, FUTILITY_MARGIN,
    HISTORY_PRUNE_DEPTH, HISTORY_PRUNE_MARGIN, IIR_MIN_DEPTH, LMP_BASE, LMP_DEPTH,
    LMR_DIVISOR_CENTI, LMR_FULL_MOVES, LMR_HISTORY_DIVISOR, LMR_MIN_DEPTH, MAX_PLY,
    NULL_MOVE_BASE_REDUCTION, NULL_MOVE_DEPTH_DIVISOR, NULL_MOVE_EVAL_DIVISOR, NULL_MOVE_EVAL_MAX,
    NULL_MOVE_MIN_DEPTH, QS_EVASION_PLIES, REVERSE_FUTILITY_DEPTH, REVERSE_FUTILITY_MARGIN,
    SINGULAR_MARGIN, SINGULAR_MIN_DEPTH, SINGULAR_TT_DEPTH_SLACK, STAR2_MIN_DEPTH,
};
use crate::tt::{Bound, Table, code};
use crate::{Evaluate, Limits};
use cannonade_core::RepetitionRule;
use cannonade_core::{MoveBuf, Outcome, Reason, Side, Weighted};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    /// Which of the best lines this is, 1 for the best (MultiPV): with several lines, each
    /// completed depth reports them all, best first.
    pub line: u32,
}

/// How a search plays beyond its limits: evaluation noise for weaker levels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Evaluation noise, ± centipawns (0 for full strength).
    pub noise: i32,
    /// Seed of the noise, so one search is consistent with itself.
    pub seed: u64,
    /// The hand-written evaluations rather than the networks (the levels below 10, whose
    /// ladders were measured with them).
    pub classical: bool,
    /// How many best lines to search and report (MultiPV); 0 and 1 both mean one. The
    /// second line is the best with the first's move excluded at the root, and so on.
    pub lines: u32,
}

/// One position on the path (or in the game before the root), for repetition checks.
#[derive(Clone, Copy, Debug)]
struct Frame {
    hash: u64,
    /// The side to move here is in check (the move into it gave check).
    in_check: bool,
}

/// What the game's repetition rule makes of the last of `frames` (`pos`; `path` holds the
/// frames' positions when the rule judges cycles): the outcome the rules give once the
/// position reaches the rule's occurrence (as [`cannonade_core::repetition::verdict`]
/// judges a record), and a first repetition inside the search (at or after `root_frame`)
/// judged as if the cycle went on. `None` when the rule ends nothing here.
fn repeated<G: Evaluate>(
    frames: &[Frame],
    path: &[G],
    pos: &G,
    root_frame: usize,
) -> Option<Outcome> {
    let rule = pos.repetition();
    let needed = rule.occurrence()?;
    let n = frames.len() - 1;
    let hash = frames[n].hash;
    let reach = pos.reversible_plies().min(n);
    let mut count = 1u32;
    let (mut latest, mut earliest) = (None, n);
    for i in (n - reach..n).rev() {
        if frames[i].hash == hash {
            count += 1;
            latest.get_or_insert(i);
            earliest = i;
        }
    }
    let latest = latest?;
    let reached = count >= needed;
    if !reached && latest < root_frame {
        return None;
    }
    let mover = pos.mover();
    Some(match rule {
        RepetitionRule::Off => return None,
        RepetitionRule::Draw { .. } => Outcome::draw(Reason::Repetition),
        // The move that made the losing occurrence loses: the side to move here wins.
        RepetitionRule::Loses { .. } if reached => Outcome::loss(!mover, Reason::Repetition),
        RepetitionRule::Loses { .. } => return None,
        // The rules judge the cycle from its first occurrence; a first repetition inside the
        // search is judged from the latest, as if the cycle went on.
        RepetitionRule::Judged { .. } => {
            let from = if reached { earliest } else { latest };
            match path.get(from..=n) {
                Some(cycle) => G::judge_cycle(cycle),
                None => checks_only(&frames[from..=n], mover),
            }
        }
    })
}

/// A cycle judged by its checks alone (when the positions were not kept): the side that
/// checked with every move loses, anything else draws.
fn checks_only(cycle: &[Frame], mover: Side) -> Outcome {
    let n = cycle.len() - 1;
    // Moves into frames n, n-2, … were the opponent's; n-1, n-3, … the mover's.
    let (mut theirs_all, mut ours_all) = (true, true);
    for (k, f) in cycle.iter().enumerate().skip(1) {
        if (n - k).is_multiple_of(2) { theirs_all &= f.in_check } else { ours_all &= f.in_check }
    }
    match (theirs_all, ours_all) {
        (true, false) => Outcome::loss(!mover, Reason::PerpetualCheck),
        (false, true) => Outcome::loss(mover, Reason::PerpetualCheck),
        _ => Outcome::draw(Reason::Repetition),
    }
}

/// The search's view of a game's repetition at its last position, with no search path:
/// what the search's repetition check says at a root whose history is `history` (oldest first, the current
/// position last). For the property test that the search and the rules agree.
pub fn repetition_at_root<G: Evaluate>(history: &[G]) -> Option<Outcome> {
    let (pos, before) = history.split_last()?;
    if pos.chance_pending() {
        return None;
    }
    let kept: Vec<G> = before.iter().filter(|p| !p.chance_pending()).cloned().collect();
    let frames: Vec<Frame> = kept
        .iter()
        .chain([pos])
        .map(|p| Frame { hash: p.hash(), in_check: p.in_check() })
        .collect();
    let path: Vec<G> = kept.into_iter().chain([pos.clone()]).collect();
    repeated(&frames, &path, pos, frames.len())
}

/// The first of `moves` (a node's legal moves) with the stored move code `stored`: a move
/// read from the shared table is used only once it is found among the legal moves.
fn legal_move<G: Evaluate>(moves: &MoveBuf<G::Move>, stored: Option<u32>) -> Option<G::Move> {
    let stored = stored?;
    moves.iter().copied().find(|&m| code::<G>(m) == stored)
}

/// A 64-bit mix (splitmix64's finaliser), for evaluation noise.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// An expanded chance node: the position, its outcomes, the position after each (resolved
/// once, for the probes and the full search alike) and their total weight, the depth its
/// outcomes are searched to and its ply.
struct ChanceNode<'a, G: Evaluate> {
    pos: &'a G,
    outcomes: &'a [Weighted<G::Chance>],
    children: &'a [G],
    total: i64,
    depth: i32,
    ply: usize,
    /// Whether the node lies on a principal variation (see [`Searcher::negamax`]).
    pv: bool,
}

impl<G: Evaluate> Clone for ChanceNode<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Evaluate> Copy for ChanceNode<'_, G> {}

/// The position after the chance event of `pos` comes out as `outcome`.
fn resolved<G: Evaluate>(pos: &G, outcome: G::Chance) -> G {
    let mut child = pos.clone();
    child.resolve(outcome);
    child
}

impl<G: Evaluate> ChanceNode<'_, G> {
    /// Whether the seat to move after every outcome is the chance node's mover
    /// (`Some(false)`) or its opponent after every outcome (`Some(true)`); `None` when it
    /// depends on the outcome. Star2 needs the outcomes' values bounded from the same side,
    /// so only a uniform successor seat allows probing.
    fn same_next_mover(&self) -> Option<bool> {
        let mut turned = None;
        for child in self.children {
            let t = child.mover() != self.pos.mover();
            if *turned.get_or_insert(t) != t {
                return None;
            }
        }
        turned
    }
}

/// What the threads of one search share besides the table and the caller's stop flag.
#[derive(Debug, Default)]
struct Shared {
    /// Set when the main thread has finished: the helpers stop.
    done: AtomicBool,
    /// The nodes of every thread, each adding its own every 1024 or so (a counter written at
    /// every node by every thread would bounce its cache line between the cores).
    nodes: AtomicU64,
}

struct Searcher<'a, G: Evaluate> {
    limits: &'a Limits,
    stop: &'a AtomicBool,
    shared: &'a Shared,
    start: Instant,
    /// This thread's nodes.
    nodes: u64,
    /// How many of `nodes` are already added to [`Shared::nodes`].
    flushed: u64,
    seldepth: usize,
    aborted: bool,
    tt: &'a Table<G::Move>,
    style: Style,
    bufs: Vec<MoveBuf<G::Move>>,
    scores: Vec<Vec<i32>>,
    outcomes: Vec<Vec<Weighted<G::Chance>>>,
    /// By ply: the evaluation's accumulator of the position searched there.
    accs: Vec<G::Acc>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// By ply: the move a singular-extension search leaves out there (the hash move whose
    /// lead over the others it measures).
    skipped: Vec<Option<G::Move>>,
    /// By ply: the mover and its static value there (`None` in check or not evaluated), to
    /// tell whether the mover's position is improving over its previous turn.
    evals: Vec<Option<(Side, i32)>>,
    /// By ply: the [`Evaluate::move_index`] of the move being searched there (`None` for a
    /// null move), so the reply can look up its counter-move.
    played: Vec<Option<usize>>,
    /// By ply: the [`Evaluate::piece_to`] of the move being searched there (`None` for a
    /// null move, or where the game keeps no continuation history).
    played_pt: Vec<Option<usize>>,
    /// What cut-offs taught about quiet moves (kept between a game's searches).
    history: MoveHistory<G>,
    pv: Vec<Vec<G::Move>>,
    /// Root moves left out of this iteration's search: the first moves of the better lines
    /// already found at this depth (MultiPV).
    excluded: Vec<G::Move>,
    stack: Vec<Frame>,
    /// The positions of `stack`, kept only when the game's rule judges cycles (Xiangqi's
    /// `asian` rule): judging a chase needs the positions, not only their hashes.
    path: Vec<G>,
    root_frame: usize,
    root_depth: i32,
    /// The seat the search plays for.
    root_mover: Side,
    lmr: Vec<[i32; 64]>,
    /// [`STAR2_MIN_DEPTH`], or beyond any depth for Star1 alone (tests compare the two).
    star2_min_depth: i32,
    /// Forward pruning (reductions of nodes without a hash move and of late moves, reverse
    /// futility, null move, futility, history and late-move pruning, singular extensions,
    /// and the table's answers in quiescence) is on; tests that compare with exact
    /// fixed-depth values turn it off.
    prune: bool,
    /// 0 for the thread that decides the move, from 1 for the helpers of a Lazy SMP search.
    helper: usize,
    /// Decision nodes searched as principal-variation nodes (tests count them).
    #[cfg(test)]
    pv_nodes: u64,
    /// Chance nodes reached (tests count them).
    #[cfg(test)]
    chance_nodes: u64,
}

impl<'a, G: Evaluate> Searcher<'a, G> {
    fn out_of_budget(&mut self) -> bool {
        // The first iteration always finishes within the time: a node budget too small for
        // it would leave the move to generation order.
        if !self.aborted
            && ((self.root_depth > 1 && self.limits.nodes.is_some_and(|n| self.total_nodes() >= n))
                || (self.nodes.is_multiple_of(1024) && self.polled_stop()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Adds this thread's new nodes to the shared count and tells whether the search must
    /// stop: asked to, its main thread done, or out of time.
    fn polled_stop(&mut self) -> bool {
        self.flush_nodes();
        self.stop.load(Ordering::Relaxed)
            || self.shared.done.load(Ordering::Relaxed)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The nodes of all threads as far as this one knows (exact with one thread).
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    /// The static value of `pos`, the position at `ply` (whose accumulator is up to date).
    fn eval(&self, pos: &G, ply: usize) -> i32 {
        let v = pos.evaluate_with(&self.accs[ply]);
        // Tests run with debug assertions: every search there checks the accumulators.
        debug_assert_eq!(v, pos.evaluate(), "a stale accumulator at ply {ply}");
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
            self.accs.push(G::Acc::default());
            self.killers.push([None, None]);
            self.skipped.push(None);
            self.evals.push(None);
            self.played.push(None);
            self.played_pt.push(None);
            self.pv.push(Vec::with_capacity(32));
        }
    }

    /// This ply's move and score buffers, filled with `pos`'s legal moves (give them back
    /// with [`Self::give_back`]); `Err` with the score of the position when it has none.
    fn take_moves(&mut self, pos: &G, ply: usize) -> Result<(MoveBuf<G::Move>, Vec<i32>), i32> {
        let (mut buf, scores) = self.lend(ply);
        pos.legal_moves(&mut buf);
        if buf.is_empty() {
            self.give_back(ply, buf, scores);
            return Err(self.outcome_score(pos.stuck_outcome(), pos.mover(), ply));
        }
        Ok((buf, scores))
    }

    /// This ply's move and score buffers as they are (give them back with
    /// [`Self::give_back`]).
    fn lend(&mut self, ply: usize) -> (MoveBuf<G::Move>, Vec<i32>) {
        (std::mem::take(&mut self.bufs[ply]), std::mem::take(&mut self.scores[ply]))
    }

    /// Returns the buffers [`Self::take_moves`] lent, so the next node at this ply reuses
    /// their allocations.
    fn give_back(&mut self, ply: usize, buf: MoveBuf<G::Move>, scores: Vec<i32>) {
        self.bufs[ply] = buf;
        self.scores[ply] = scores;
    }

    /// Brings the accumulator at `ply + 1` up to date for `child`, reached from `pos` (at
    /// `ply`) by `mv`.
    fn update_acc(&mut self, pos: &G, child: &G, mv: G::Move, ply: usize) {
        let (parent, next) = self.accs.split_at_mut(ply + 1);
        pos.update(child, mv, &parent[ply], &mut next[0]);
    }

    /// Sets `pv[ply]` to `mv` followed by the child's line.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Puts `pos` on the path (`in_check`: the move into it gave check).
    fn enter(&mut self, pos: &G, in_check: bool) {
        self.stack.push(Frame { hash: pos.hash(), in_check });
        if self.judges_cycles() {
            self.path.push(pos.clone());
        }
    }

    /// Takes the last position off the path.
    fn leave(&mut self) {
        self.stack.pop();
        self.path.truncate(self.stack.len());
    }

    /// Whether the positions of the path are kept (see [`Searcher::path`]).
    fn judges_cycles(&self) -> bool {
        !self.path.is_empty()
    }

    /// The score of a repetition of the node on top of the stack, if its game's rule ends the
    /// game (or the search's view of it) here.
    fn repetition_score(&self, pos: &G, ply: usize) -> Option<i32> {
        let o = repeated(&self.stack, &self.path, pos, self.root_frame)?;
        Some(match o.winner {
            // The repetition's winner still loses when it is mated (mate is judged first).
            Some(w) if w == pos.mover() => self.unless_stuck(pos, MATE - ply as i32, ply),
            _ => self.outcome_score(o, pos.mover(), ply),
        })
    }

    /// A draw for `mover`: worse than even for the side the search plays for (the game's
    /// contempt), so it keeps playing a game it can win rather than shuffle into a draw, and
    /// as much better for the opponent.
    fn draw_for(&self, mover: Side) -> i32 {
        if mover == self.root_mover { -G::CONTEMPT } else { G::CONTEMPT }
    }

    /// The score of a finished game for `mover`, `ply` plies from the root: a win or loss
    /// by its distance, a draw with contempt.
    fn outcome_score(&self, o: Outcome, mover: Side, ply: usize) -> i32 {
        match o.winner {
            None => self.draw_for(mover),
            Some(w) if w == mover => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        }
    }

    /// `score`, or the loss of the side to move when it has no legal move.
    fn unless_stuck(&self, pos: &G, score: i32, ply: usize) -> i32 {
        if pos.count_legal() == 0 {
            self.outcome_score(pos.stuck_outcome(), pos.mover(), ply)
        } else {
            score
        }
    }

    /// Searches a child position; the score is from the parent's mover's view.
    /// `expand` allows a chance child to be expanded outcome by outcome; `pv` says whether
    /// the child lies on a principal variation (see [`Self::negamax`]).
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
        pv: bool,
    ) -> i32 {
        let flip = child.mover() != parent;
        let (a, b) = if flip { (-beta, -alpha) } else { (alpha, beta) };
        let v = if child.chance_pending() {
            self.chance(child, expand, depth, ply + 1, a, b, pv)
        } else {
            self.enter(child, gives_check);
            let v = self.negamax(child, depth, ply + 1, a, b, true, pv);
            self.leave();
            v
        };
        if flip { -v } else { v }
    }

    /// A decision node. `pv` is false below a node searched with a null window: a chance
    /// node's outcomes are searched with the wide windows Star1 derives from its bounds, and
    /// those windows do not make them principal-variation nodes (treated as such, everything
    /// below a flip was searched without hash cut-offs or forward pruning).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        null_ok: bool,
        pv: bool,
    ) -> i32 {
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.evals[ply] = None;
        let pv_node = pv && beta - alpha > 1;
        #[cfg(test)]
        {
            self.pv_nodes += pv_node as u64;
        }
        if ply > 0 {
            if let Some(o) = pos.quick_outcome() {
                self.nodes += 1;
                return self.outcome_score(o, pos.mover(), ply);
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
            return self.eval(pos, ply);
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
        let tt_code = entry.and_then(|e| e.mv);
        // A singular-extension search of this node leaves its hash move out, so neither the
        // table's value of the node nor a null move's answers it.
        let skipped = self.skipped[ply];
        if let Some(e) = entry
            && !pv_node
            && ply > 0
            && skipped.is_none()
            && e.depth as i32 >= depth
            && e.settles(alpha, beta)
        {
            return e.score;
        }
        let mover = pos.mover();
        let static_eval = if in_check { -INF } else { self.eval(pos, ply) };
        if !in_check {
            self.evals[ply] = Some((mover, static_eval));
        }
        // Improving: better than at the mover's previous turn (or that is unknown).
        let improving = !in_check
            && match ply.checked_sub(2).and_then(|p| self.evals[p]) {
                Some((side, before)) if side == mover => static_eval > before,
                _ => true,
            };
        // The hash score bounds the value more tightly than the static value where it can.
        let eval = match entry {
            Some(e)
                if !in_check
                    && e.score.abs() < MATE_BOUND
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score > static_eval,
                        Bound::Upper => e.score < static_eval,
                    } =>
            {
                e.score
            }
            _ => static_eval,
        };
        if self.prune && ply > 0 && tt_code.is_none() && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }
        if self.prune && !pv_node && !in_check && ply > 0 && beta.abs() < MATE_BOUND {
            if depth <= REVERSE_FUTILITY_DEPTH
                && eval.abs() < MATE_BOUND
                && eval - REVERSE_FUTILITY_MARGIN * (depth - improving as i32) >= beta
            {
                return eval;
            }
            if null_ok
                && skipped.is_none()
                && depth >= NULL_MOVE_MIN_DEPTH
                && eval >= beta
                && static_eval >= beta
                && let Some(passed) = pos.null_move()
            {
                let r = NULL_MOVE_BASE_REDUCTION
                    + depth / NULL_MOVE_DEPTH_DIVISOR
                    + ((eval - beta) / NULL_MOVE_EVAL_DIVISOR).min(NULL_MOVE_EVAL_MAX);
                let flip = passed.mover() != pos.mover();
                self.played[ply] = None;
                self.played_pt[ply] = None;
                self.accs[ply + 1] = self.accs[ply].clone();
                self.enter(&passed, false);
                let v = if flip {
                    -self.negamax(&passed, depth - 1 - r, ply + 1, -beta, -beta + 1, false, false)
                } else {
                    self.negamax(&passed, depth - 1 - r, ply + 1, beta - 1, beta, false, false)
                };
                self.leave();
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
        let tt_move = legal_move::<G>(&buf, tt_code);
        scores.clear();
        for &mv in buf.iter() {
            scores.push(self.order_score(pos, ply, mv, tt_move));
        }

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets: Vec<QuietKey> = Vec::new();
        let mut chance_moves = 0;
        let mut quiet_count = 0usize;
        // At non-PV nodes, quiet moves that would be searched shallow far below alpha are
        // skipped (futility), and at shallow ones all but the first quiet moves in order
        // (late-move pruning).
        let prune_quiets = self.prune && !pv_node && !in_check && ply > 0;
        let lmp_limit = if depth <= LMP_DEPTH {
            (LMP_BASE + (depth * depth) as usize) * (1 + improving as usize) / 2
        } else {
            usize::MAX
        };
        let moves = buf.as_mut_slice();
        // Moves searched so far: the first gets the full window (at the root of a later
        // MultiPV line the first in order may be excluded).
        let mut searched = 0usize;
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
            if (ply == 0 && self.excluded.contains(&mv)) || Some(mv) == skipped {
                continue;
            }
            let tactical = pos.tactical_value(mv).is_some();
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = !child.chance_pending() && child.in_check();
            let new_depth = depth - 1;
            // The late-move reduction this move would get.
            let mut r = 0;
            if self.prune
                && depth >= LMR_MIN_DEPTH
                && i >= LMR_FULL_MOVES + pv_node as usize
                && !tactical
                && !in_check
                && !gives_check
                && scores[i] < 1 << 23
            {
                r = self.lmr[depth.min(63) as usize][i.min(63)] - pv_node as i32
                    + (!pv_node && !improving) as i32
                    - scores[i] / LMR_HISTORY_DIVISOR;
                r = r.clamp(0, (new_depth - 1).max(0));
            }
            // The depth this move would be searched to.
            let lmr_depth = new_depth - r;
            // A flip counts as a quiet move: its expected value is near the position's,
            // and valuing one costs a quiescence search per outcome.
            if !tactical {
                quiet_count += 1;
                if prune_quiets
                    && !gives_check
                    && best > -MATE_BOUND
                    && scores[i] < 1 << 23
                    && (quiet_count > lmp_limit
                        || (lmr_depth <= HISTORY_PRUNE_DEPTH
                            && scores[i] < -HISTORY_PRUNE_MARGIN * depth)
                        || (lmr_depth <= FUTILITY_DEPTH
                            && alpha.abs() < MATE_BOUND
                            && static_eval + FUTILITY_BASE + FUTILITY_MARGIN * lmr_depth.max(0)
                                <= alpha))
                {
                    continue;
                }
            }
            let expand = child.chance_pending() && {
                chance_moves += 1;
                chance_moves <= CHANCE_EXPAND_MOVES
            };
            // Singular extension: a hash move that beats every other move by a margin, at
            // a reduced depth, is searched a ply deeper; when another move also reaches
            // beta there, the node fails high at once (multi-cut).
            let mut new_depth = new_depth;
            if let Some(e) = entry
                && Some(mv) == tt_move
                && ply > 0
                && skipped.is_none()
                && self.prune
                && depth >= SINGULAR_MIN_DEPTH
                && e.depth as i32 >= depth - SINGULAR_TT_DEPTH_SLACK
                && e.bound != Bound::Upper
                && e.score.abs() < MATE_BOUND
                && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth
            {
                let singular_beta = e.score - SINGULAR_MARGIN * depth;
                self.skipped[ply] = Some(mv);
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    false,
                    false,
                );
                self.skipped[ply] = None;
                if self.aborted {
                    break;
                }
                if v < singular_beta {
                    new_depth += 1;
                } else if singular_beta >= beta {
                    self.give_back(ply, buf, scores);
                    return singular_beta;
                } else if e.score >= beta {
                    // Not singular, and expected to fail high anyway: a ply less.
                    new_depth -= 1;
                }
            }
            self.played[ply] = Some(pos.move_index(mv));
            self.played_pt[ply] = self.history.keeps_continuation().then(|| pos.piece_to(mv));
            self.update_acc(pos, &child, mv, ply);
            // The child searched to `depth` with the window (`a`, `b`), on a PV or not.
            let search = |s: &mut Self, depth: i32, a: i32, b: i32, pv: bool| {
                s.child(mover, &child, gives_check, expand, depth, ply, a, b, pv)
            };
            let mut score;
            searched += 1;
            if searched == 1 {
                score = search(self, new_depth, alpha, beta, pv_node);
            } else {
                score = search(self, new_depth - r, alpha, alpha + 1, false);
                if score > alpha && r > 0 && !self.aborted {
                    score = search(self, new_depth, alpha, alpha + 1, false);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = search(self, new_depth, alpha, beta, pv_node);
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
                quiets.push(self.quiet_key(pos, ply, mv));
            }
        }
        self.give_back(ply, buf, scores);
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, orig_alpha, beta);
        // A root searched without its best moves (a later MultiPV line) is not the
        // position's value.
        if skipped.is_none() && (ply > 0 || self.excluded.is_empty()) {
            self.tt.store(key, ply, best_move.map(code::<G>), best, depth, bound);
        }
        best
    }

    /// The quiet move that last refuted the move searched at the ply before `ply`.
    fn counter(&self, ply: usize) -> Option<G::Move> {
        self.history.counter(self.played[ply.checked_sub(1)?]?)
    }

    /// Where quiet `mv` at `ply` stands in the history tables.
    fn quiet_key(&self, pos: &G, ply: usize, mv: G::Move) -> QuietKey {
        let before = |back: usize| self.played_pt[ply.checked_sub(back)?];
        self.history.key(pos, mv, [before(1), before(2)])
    }

    /// A move's rank in move order, highest first: the hash move, then tactical moves by
    /// MVV-LVA, the killers, the counter-move, losing captures, and quiet moves by history.
    /// Scores of `1 << 23` and more mark the moves that late-move pruning and reductions
    /// leave alone.
    fn order_score(&self, pos: &G, ply: usize, mv: G::Move, tt_move: Option<G::Move>) -> i32 {
        let killers = self.killers[ply];
        if Some(mv) == tt_move {
            1 << 30
        } else if let Some(t) = pos.tactical_value(mv) {
            // Losing captures go after the killers, still before the other quiet moves.
            if pos.losing_capture(mv) { (1 << 22) + t } else { (1 << 24) + t }
        } else if Some(mv) == killers[0] {
            (1 << 23) + 2
        } else if Some(mv) == killers[1] {
            (1 << 23) + 1
        } else if Some(mv) == self.counter(ply) {
            1 << 23
        } else {
            self.history.score(self.quiet_key(pos, ply, mv))
        }
    }

    /// A quiet move caused a cut-off: make it a killer and the counter-move of the move
    /// before it, and raise its history; lower the history of the quiet moves tried before it.
    fn reward(&mut self, pos: &G, ply: usize, mv: G::Move, tried: &[QuietKey], depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let previous = ply.checked_sub(1).and_then(|p| self.played[p]);
        let key = self.quiet_key(pos, ply, mv);
        self.history.reward((mv, key), tried.iter().copied(), previous, depth);
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
            return self.outcome_score(o, pos.mover(), ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.eval(pos, ply);
        }
        if self.out_of_budget() {
            return 0;
        }
        // Outside principal variations the table answers what it can: any stored result is
        // at least as deep as a quiescence search (not in the tests of exact fixed-depth
        // values, which turn pruning off).
        let key = pos.hash();
        if self.prune
            && beta - alpha == 1
            && let Some(e) = self.tt.probe(key, ply)
            && e.settles(alpha, beta)
        {
            return e.score;
        }
        let orig_alpha = alpha;
        let evading = qply < QS_EVASION_PLIES && pos.in_check();
        let mut best = -INF;
        if !evading {
            let stand = self.eval(pos, ply);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let (mut buf, mut scores) = if evading {
            match self.take_moves(pos, ply) {
                Ok(lists) => lists,
                Err(stuck) => return stuck,
            }
        } else {
            // Standing pat covers the quiet moves, so only the tactical ones are listed (a
            // position without any legal move is then valued by its stand-pat score).
            let (mut buf, scores) = self.lend(ply);
            pos.tactical_moves(&mut buf);
            (buf, scores)
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
            self.update_acc(pos, &child, mv, ply);
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
        if best == -INF {
            return self.eval(pos, ply);
        }
        if self.prune && !self.aborted {
            let bound = Bound::of(best, orig_alpha, beta);
            let mv = self.pv[ply].first().map(|&m| code::<G>(m));
            self.tt.store(key, ply, mv, best, 0, bound);
        }
        best
    }

    /// A chance node, valued for its mover: the weighted mean over the outcomes, searched
    /// with Star2 probes and Star1 cut-offs; shallow or far from the root, the weighted static
    /// value of the outcomes. `pv`: whether it lies on a principal variation.
    #[allow(clippy::too_many_arguments)]
    fn chance(
        &mut self,
        pos: &G,
        expand: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv: bool,
    ) -> i32 {
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.nodes += 1;
        #[cfg(test)]
        {
            self.chance_nodes += 1;
        }
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        pos.chance_outcomes(&mut outcomes);
        let total: i64 = outcomes.iter().map(|w| w.weight as i64).sum();
        let v = if total == 0 {
            self.eval(pos, ply)
        } else if expand && depth >= CHANCE_EXPAND_DEPTH && ply <= CHANCE_EXPAND_PLY {
            let children: Vec<G> = outcomes.iter().map(|w| resolved(pos, w.outcome)).collect();
            let node = ChanceNode {
                pos,
                outcomes: &outcomes,
                children: &children,
                total,
                depth,
                ply,
                pv: pv && beta - alpha > 1,
            };
            self.expectimax(&node, alpha, beta)
        } else {
            self.chance_static(pos, &outcomes, total, ply)
        };
        self.outcomes[ply] = outcomes;
        v
    }

    /// An unexpanded chance node: the weighted mean of the outcomes' quiescence values, so
    /// that an outcome left where the next mover can take it is valued after the capture.
    fn chance_static(
        &mut self,
        pos: &G,
        outcomes: &[Weighted<G::Chance>],
        total: i64,
        ply: usize,
    ) -> i32 {
        let mut sum = 0i64;
        for w in outcomes {
            let child = resolved(pos, w.outcome);
            let v = match child.quick_outcome() {
                Some(o) => self.outcome_score(o, child.mover(), ply + 1),
                None => {
                    child.refresh(&mut self.accs[ply + 1]);
                    self.qsearch(&child, ply + 1, -INF, INF, 0)
                }
            };
            sum += w.weight as i64 * if child.mover() == pos.mover() { v } else { -v } as i64;
        }
        (sum / total) as i32
    }

    /// An expanded chance node (`alpha`, `beta` and the result for its mover): when every
    /// outcome leaves the same seat to move, Star2 probes first (in that seat's view, where a
    /// probe is a lower bound), then every outcome is searched in turn with Star1 windows
    /// narrowed by the probes' bounds.
    fn expectimax(&mut self, node: &ChanceNode<G>, alpha: i32, beta: i32) -> i32 {
        // Each outcome's value lies in [lo, hi] (the search's own view: ±MATE bound it).
        let mut bounds = vec![(-MATE, MATE); node.outcomes.len()];
        if node.depth >= self.star2_min_depth
            && let Some(turned) = node.same_next_mover()
        {
            // In the view of the seat that moves after the chance event, a probe proves a
            // lower bound, so Star2 can prove only a fail high there: a fail low for the node's
            // mover when that seat is the other one.
            let probe_beta = if turned { -alpha } else { beta };
            let mut lower = vec![-MATE; node.outcomes.len()];
            let proven = self.star2_probes(node, probe_beta, &mut lower);
            if self.aborted {
                return 0;
            }
            if proven {
                return if turned { alpha } else { beta };
            }
            for (b, &l) in bounds.iter_mut().zip(&lower) {
                *b = if turned { (b.0, -l) } else { (l, b.1) };
            }
        }
        self.star1(node, &bounds, alpha, beta)
    }

    /// Star2's probing phase, in the view of the seat that moves after the chance event: probes
    /// the outcomes in turn and writes the probes' lower bounds into `lower`. True when the
    /// weighted lower bounds reach `beta`, a proven fail high. Each probe aims at the value
    /// its outcome needs if every later outcome just reaches `beta` (higher after a poor
    /// outcome, lower after a good one); below the least value that keeps a fail high possible
    /// at all, it bounds nothing, and the probing stops.
    fn star2_probes(&mut self, node: &ChanceNode<G>, beta: i32, lower: &mut [i32]) -> bool {
        if beta >= MATE_BOUND {
            return false;
        }
        let (beta_w, mate) = (beta as i64 * node.total, MATE as i64);
        let mut proven = 0i64;
        let mut rest = node.total;
        for (i, w) in node.outcomes.iter().enumerate() {
            let weight = w.weight as i64;
            rest -= weight;
            // Ceiling divisions: with the later outcomes at beta, and at MATE.
            let target = (beta_w - proven - beta as i64 * rest + weight - 1).div_euclid(weight);
            let floor = (beta_w - proven - mate * rest + weight - 1).div_euclid(weight);
            if floor > mate {
                return false;
            }
            let bound = if target <= -mate {
                // Earlier outcomes already carry the node: any value will do.
                Some(-MATE)
            } else {
                let (floor, target) = (floor.max(-mate) as i32, target.min(mate) as i32);
                self.probe(&node.children[i], node.depth, node.ply + 1, floor, target)
            };
            if self.aborted {
                return false;
            }
            match bound {
                Some(b) if b as i64 >= floor => {
                    lower[i] = b;
                    proven += weight * b as i64;
                }
                _ => return false,
            }
        }
        proven >= beta_w
    }

    /// Star2's probe of one outcome `child` (at `ply`, with `depth` to go): a lower bound on
    /// its value for its mover, from the hash table or from searching only its first move in
    /// move order with the window [`floor`, `target`). `None` when the probe falls below
    /// `floor` (then it bounds nothing: other moves might do better).
    fn probe(&mut self, child: &G, depth: i32, ply: usize, floor: i32, target: i32) -> Option<i32> {
        self.ensure_ply(ply);
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(o) = child.quick_outcome() {
            return Some(self.outcome_score(o, child.mover(), ply));
        }
        child.refresh(&mut self.accs[ply]);
        self.enter(child, child.in_check());
        let bound = self.probe_first_move(child, depth, ply, floor, target);
        self.leave();
        bound
    }

    /// [`Self::probe`] once `child` is on the stack. A probe's bound is stored as a lower
    /// bound with its move, so the full search of the outcome starts with that move (and cuts
    /// at once when its window allows).
    fn probe_first_move(
        &mut self,
        child: &G,
        depth: i32,
        ply: usize,
        floor: i32,
        target: i32,
    ) -> Option<i32> {
        if let Some(s) = self.repetition_score(child, ply) {
            return Some(s);
        }
        let key = child.hash();
        let entry = self.tt.probe(key, ply);
        if let Some(e) = entry
            && e.depth as i32 >= depth
        {
            match e.bound {
                Bound::Exact => return Some(e.score),
                Bound::Lower if e.score >= target => return Some(e.score),
                Bound::Upper if e.score < floor => return None,
                _ => {}
            }
        }
        let (buf, scores) = match self.take_moves(child, ply) {
            Ok(lists) => lists,
            Err(stuck) => return Some(stuck),
        };
        let tt_move = legal_move::<G>(&buf, entry.and_then(|e| e.mv));
        let mv = buf
            .iter()
            .copied()
            .max_by_key(|&mv| self.order_score(child, ply, mv, tt_move))
            .unwrap_or_else(|| unreachable!("take_moves returned at least one move"));
        self.give_back(ply, buf, scores);
        let mut next = child.clone();
        next.play(mv);
        self.update_acc(child, &next, mv, ply);
        let gives_check = !next.chance_pending() && next.in_check();
        let v = self.child(
            child.mover(),
            &next,
            gives_check,
            true,
            depth - 1,
            ply,
            floor - 1,
            target,
            false,
        );
        if self.aborted || v < floor {
            return None;
        }
        self.tt.store(key, ply, Some(code::<G>(mv)), v, depth, Bound::Lower);
        Some(v)
    }

    /// Star1 over the outcomes, for the node's mover: each outcome is searched with the window
    /// in which its value can still move the mean across `alpha` or `beta`, given the values
    /// found so far and the bounds of the outcomes still to come; a value outside its window
    /// proves the node fails low or high, and the node returns that bound.
    fn star1(&mut self, node: &ChanceNode<G>, bounds: &[(i32, i32)], alpha: i32, beta: i32) -> i32 {
        let ChanceNode { pos, outcomes, children, total, depth, ply, pv } = *node;
        let (alpha_w, beta_w) = (alpha as i64 * total, beta as i64 * total);
        let mut lo_rest: i64 =
            outcomes.iter().zip(bounds).map(|(w, b)| w.weight as i64 * b.0 as i64).sum();
        let mut hi_rest: i64 =
            outcomes.iter().zip(bounds).map(|(w, b)| w.weight as i64 * b.1 as i64).sum();
        let mut sum = 0i64;
        for (i, (w, &(lo, hi))) in outcomes.iter().zip(bounds).enumerate() {
            let weight = w.weight as i64;
            lo_rest -= weight * lo as i64;
            hi_rest -= weight * hi as i64;
            let child = &children[i];
            self.ensure_ply(ply + 1);
            child.refresh(&mut self.accs[ply + 1]);
            let a = (alpha_w - sum - hi_rest).div_euclid(weight);
            let b = (beta_w - sum - lo_rest + weight - 1).div_euclid(weight);
            let (ca, cb) = (a.max(-INF as i64) as i32, b.min(INF as i64) as i32);
            self.enter(child, child.in_check());
            let v = if child.mover() == pos.mover() {
                self.negamax(child, depth, ply + 1, ca, cb, true, pv)
            } else {
                -self.negamax(child, depth, ply + 1, -cb, -ca, true, pv)
            };
            self.leave();
            if self.aborted {
                return 0;
            }
            if (v as i64) <= a {
                return alpha;
            }
            if (v as i64) >= b {
                return beta;
            }
            sum += weight * v as i64;
        }
        (sum / total) as i32
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
    let mut moves = MoveHistory::default();
    search_with(pos, history, limits, stop, &mut tt, &mut moves, Style::default(), 1, on_progress)
}

/// [`search`] with a transposition table and move history that outlive the search (the
/// calling thread's history is updated; helpers learn on copies), a playing style and
/// `threads` threads (Lazy SMP: helpers search the same root into the shared table, the
/// calling thread decides the move and when to stop; at most 1 is exactly the
/// single-threaded search). The nodes reported are all threads'.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_with<G: Evaluate>(
    pos: &G,
    history: &[G],
    limits: &Limits,
    stop: &AtomicBool,
    tt: &mut Table<G::Move>,
    moves: &mut MoveHistory<G>,
    style: Style,
    threads: usize,
    on_progress: impl FnMut(&Progress<G::Move>),
) -> SearchResult<G::Move> {
    tt.new_search();
    let mine = std::mem::take(moves);
    let tt = &*tt;
    let shared = Shared::default();
    // Helpers go as deep as they can: the main thread's limits end them through `done`.
    let helper_limits = Limits { depth: None, soft_time: None, ..limits.clone() };
    let helper_style = Style { lines: 1, ..style };
    let mut main_moves = None;
    let mut result = std::thread::scope(|scope| {
        for helper in 1..threads {
            let (shared, helper_limits) = (&shared, &helper_limits);
            let copy = mine.clone();
            let run = move || {
                crate::eval::with_classical(style.classical, || {
                    let mut s =
                        searcher(pos, history, helper_limits, stop, shared, tt, copy, helper_style);
                    s.helper = helper;
                    s.iterate(pos, |_| {});
                })
            };
            // A thread the system refuses leaves the search with fewer helpers.
            let _ = std::thread::Builder::new()
                .name(format!("search helper {helper}"))
                .spawn_scoped(scope, run);
        }
        let result = crate::eval::with_classical(style.classical, || {
            let mut s = searcher(pos, history, limits, stop, &shared, tt, mine, style);
            let result = s.iterate(pos, on_progress);
            main_moves = Some(s.history);
            result
        });
        shared.done.store(true, Ordering::Relaxed);
        result
    });
    // Every thread has added its last nodes by now (the scope joined them).
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    if let Some(learnt) = main_moves {
        *moves = learnt;
    }
    result
}

/// A searcher for `pos`, ready to [`Searcher::iterate`].
#[allow(clippy::too_many_arguments)]
fn searcher<'a, G: Evaluate>(
    pos: &G,
    history: &[G],
    limits: &'a Limits,
    stop: &'a AtomicBool,
    shared: &'a Shared,
    tt: &'a Table<G::Move>,
    moves: MoveHistory<G>,
    style: Style,
) -> Searcher<'a, G> {
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
    let path = if matches!(pos.repetition(), RepetitionRule::Judged { .. }) {
        history.iter().filter(|p| !p.chance_pending()).cloned().chain([pos.clone()]).collect()
    } else {
        Vec::new()
    };
    Searcher {
        limits,
        stop,
        shared,
        start: Instant::now(),
        nodes: 0,
        flushed: 0,
        seldepth: 0,
        aborted: false,
        tt,
        style,
        bufs: Vec::new(),
        scores: Vec::new(),
        outcomes: Vec::new(),
        accs: Vec::new(),
        killers: Vec::new(),
        skipped: Vec::new(),
        evals: Vec::new(),
        played: Vec::new(),
        history: moves,
        played_pt: Vec::new(),
        pv: Vec::new(),
        excluded: Vec::new(),
        stack,
        path,
        root_frame,
        root_depth: 1,
        root_mover: pos.mover(),
        lmr,
        star2_min_depth: STAR2_MIN_DEPTH,
        prune: true,
        helper: 0,
        #[cfg(test)]
        pv_nodes: 0,
        #[cfg(test)]
        chance_nodes: 0,
    }
}

impl<G: Evaluate> Searcher<'_, G> {
    /// Iterative deepening from the root `pos` (see [`search`]).
    fn iterate(
        &mut self,
        pos: &G,
        mut on_progress: impl FnMut(&Progress<G::Move>),
    ) -> SearchResult<G::Move> {
        let s = self;
        let limits = s.limits;
        let mut root = MoveBuf::new();
        pos.legal_moves(&mut root);
        let mut result = SearchResult {
            best: root.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root.is_empty() {
            return result;
        }
        s.ensure_ply(0);
        pos.refresh(&mut s.accs[0]);
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let lines = (s.style.lines.max(1) as usize).min(root.len());
        // Each line's score at the previous depth, for its aspiration window.
        let mut prev: Vec<i32> = vec![0; lines];
        // Odd helpers start a ply deeper, so that the threads are not all at one depth.
        let first_depth = 1 + (s.helper % 2) as u32;
        'deepening: for depth in first_depth..=max_depth {
            s.root_depth = depth as i32;
            s.seldepth = 0;
            s.excluded.clear();
            // This depth's lines: score and principal variation.
            let mut found: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines);
            for (line, prev) in prev.iter_mut().enumerate() {
                let score = s.aspirate(pos, depth, *prev);
                let pv = s.pv[0].clone();
                if s.aborted {
                    // A root move that finished searching inside the window is better than
                    // the previous iteration's choice.
                    if line == 0 && depth > 1 && !pv.is_empty() {
                        result.best = pv.first().copied();
                        result.pv = pv;
                    }
                    result.nodes = s.total_nodes();
                    break 'deepening;
                }
                let Some(&first) = pv.first() else { break };
                s.excluded.push(first);
                *prev = score;
                found.push((score, pv));
            }
            // A later line may come out better than an earlier one (the windows differ).
            found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            result.nodes = s.total_nodes();
            if let Some((score, pv)) = found.first() {
                result = SearchResult {
                    best: pv.first().copied(),
                    score: *score,
                    depth,
                    nodes: result.nodes,
                    pv: pv.clone(),
                };
            }
            // Every line ends in a mate found with room to spare: deeper finds nothing new.
            let decided = !found.is_empty()
                && found.iter().all(|(score, _)| {
                    score.abs() >= MATE_BOUND && depth as i32 > MATE - score.abs() + 2
                });
            for (i, (score, pv)) in found.into_iter().enumerate() {
                on_progress(&Progress {
                    depth,
                    seldepth: s.seldepth as u32,
                    score,
                    nodes: s.total_nodes(),
                    millis: s.start.elapsed().as_millis() as u64,
                    pv,
                    line: i as u32 + 1,
                });
            }
            if decided {
                break;
            }
            if limits.soft_time.is_some_and(|t| s.start.elapsed() >= t) {
                break;
            }
            if root.len() == 1 && limits.time.is_some() {
                break;
            }
        }
        s.excluded.clear();
        s.flush_nodes();
        result
    }

    /// The root's value at `depth` by aspiration windows around `prev`, the value of the
    /// previous depth, widened until the value falls inside (or the search is aborted).
    fn aspirate(&mut self, pos: &G, depth: u32, prev: i32) -> i32 {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) =
            if depth as i32 >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                (prev - window, prev + window)
            } else {
                (-INF, INF)
            };
        loop {
            let v = self.negamax(pos, depth as i32, 0, alpha, beta, true, true);
            if self.aborted {
                return v;
            }
            if v <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (alpha - window).max(-INF);
            } else if v >= beta && beta < INF {
                beta = (beta + window).min(INF);
            } else {
                return v;
            }
            window *= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::{Next, Rules};

    /// A toy game of dice: each turn the mover takes a small step or rolls one of three dice;
    /// either passes the turn, as a Banqi flip does. A roll (a chance event of six weighted
    /// faces) moves the roller's lead by the die's bias (±20) and its face (±8), so some rolls
    /// are clearly good and others clearly refuted, as flips are.
    /// Positions are named by their path, so the tree has no transpositions and its values
    /// (the lead, a little noise, within ±50) can be computed by plain expectimax.
    /// `roller_view` makes a pending roll belong to the roller rather than to the seat that
    /// moves after it, so the outcomes' values are negated at the chance node.
    #[derive(Clone, Debug)]
    struct Dice {
        path: u64,
        lead: i32,
        to_move: Side,
        pending: bool,
        roller_view: bool,
    }

    impl Dice {
        fn new(seed: u64, roller_view: bool) -> Self {
            Dice { path: mix(seed), lead: 0, to_move: Side::First, pending: false, roller_view }
        }
    }

    impl Rules for Dice {
        type Move = u8;
        type Chance = u8;
        fn next(&self) -> Next {
            if self.pending { Next::Chance } else { Next::Player(self.to_move) }
        }
        fn mover(&self) -> Side {
            if self.pending && self.roller_view { !self.to_move } else { self.to_move }
        }
        fn chance_pending(&self) -> bool {
            self.pending
        }
        fn legal_moves(&self, buf: &mut MoveBuf<u8>) {
            buf.clear();
            if !self.pending {
                buf.extend([0, 1, 2, 3]);
            }
        }
        fn play(&mut self, mv: u8) {
            self.path = mix(self.path ^ (mv as u64 + 1));
            self.to_move = !self.to_move;
            // Die 0 is a plain step that nudges the lead; the others are rolled.
            if mv == 0 {
                self.lead += (self.path % 7) as i32 - 3;
            } else {
                self.pending = true;
            }
        }
        fn chance_outcomes(&self, out: &mut Vec<Weighted<u8>>) {
            out.clear();
            if self.pending {
                out.extend((0..6).map(|f| Weighted {
                    outcome: f,
                    weight: 1 + (mix(self.path + f as u64) % 5) as u32,
                }));
            }
        }
        fn resolve(&mut self, face: u8) {
            // The die's bias for the roller (the seat not to move next), then the face.
            let bias = (mix(self.path ^ 0xB1A5) % 41) as i32 - 20;
            self.path = mix(self.path ^ (face as u64 + 11));
            let gain = bias + (self.path % 17) as i32 - 8;
            self.lead += if self.to_move == Side::First { -gain } else { gain };
            self.pending = false;
        }
        fn hash(&self) -> u64 {
            self.path ^ self.pending as u64
        }
    }

    impl Evaluate for Dice {
        type Acc = ();
        const MOVE_INDEXES: usize = 4;
        fn evaluate(&self) -> i32 {
            let noise = (mix(self.path ^ 0xD1CE) % 7) as i32 - 3;
            let lead = if self.to_move == Side::First { self.lead } else { -self.lead };
            (lead + noise).clamp(-50, 50)
        }
        fn move_index(&self, mv: u8) -> usize {
            mv as usize
        }
        fn tactical_value(&self, mv: u8) -> Option<i32> {
            (mv > 0).then_some(0)
        }
    }

    /// `v` for the mover of `parent`, given for the mover of `child`.
    fn seen_from(parent: &Dice, child: &Dice, v: i32) -> i32 {
        if child.mover() == parent.mover() { v } else { -v }
    }

    /// Plain expectimax with the search's expansion rules (every roll is expanded where
    /// depth and ply allow, as there are never more than `CHANCE_EXPAND_MOVES` of them).
    fn expectimax(pos: &Dice, depth: i32, ply: usize) -> i32 {
        if pos.pending {
            let mut outcomes = Vec::new();
            pos.chance_outcomes(&mut outcomes);
            let expand = depth >= CHANCE_EXPAND_DEPTH && ply <= CHANCE_EXPAND_PLY;
            let mut sum = 0i64;
            let mut total = 0i64;
            for w in outcomes {
                let mut child = pos.clone();
                child.resolve(w.outcome);
                let v = if expand { expectimax(&child, depth, ply + 1) } else { child.evaluate() };
                sum += w.weight as i64 * seen_from(pos, &child, v) as i64;
                total += w.weight as i64;
            }
            return (sum / total) as i32;
        }
        if depth <= 0 {
            return pos.evaluate();
        }
        let mut buf = MoveBuf::new();
        pos.legal_moves(&mut buf);
        buf.iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                seen_from(pos, &child, expectimax(&child, depth - 1, ply + 1))
            })
            .max()
            .unwrap()
    }

    /// `f` given a one-thread searcher rooted at `root`, to `depth`, with a fresh table, in
    /// `style`, with forward pruning on or off (`prune`).
    fn with_searcher<G: Evaluate, R>(
        root: &G,
        depth: u32,
        style: Style,
        prune: bool,
        f: impl FnOnce(Searcher<'_, G>) -> R,
    ) -> R {
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let (tt, stop, shared) = (Table::new(1), AtomicBool::new(false), Shared::default());
        let moves = MoveHistory::default();
        let mut s = searcher(root, &[], &limits, &stop, &shared, &tt, moves, style);
        s.prune = prune;
        s.root_depth = depth as i32;
        f(s)
    }

    fn run(pos: &Dice, depth: u32, star2_min_depth: i32) -> SearchResult<u8> {
        // The reference searches every node to its full depth.
        with_searcher(pos, depth, Style::default(), false, |mut s| {
            s.star2_min_depth = star2_min_depth;
            s.iterate(pos, |_| {})
        })
    }

    /// A node searched without its hash move (the search that tests whether the hash move is
    /// singular) is valued by the other moves alone, and leaves the table's entry for the
    /// node as it was: its value is not the node's.
    #[test]
    fn a_singular_search_leaves_the_hash_move_out() {
        use cannonade_xiangqi::Position;
        // Only a4a5 wins Black's chariot.
        let pos = Position::from_fen("4k4/9/9/9/r8/R8/9/9/9/3K5 w").unwrap();
        with_searcher(&pos, 4, Style::default(), true, |mut s| {
            s.ensure_ply(0);
            pos.refresh(&mut s.accs[0]);
            let full = s.negamax(&pos, 4, 0, -INF, INF, true, true);
            let best = s.pv[0][0];
            assert_eq!(best.to_string(), "a4a5");
            let stored = format!("{:?}", s.tt.probe(pos.hash(), 0));
            s.skipped[0] = Some(best);
            let without = s.negamax(&pos, 4, 0, -INF, INF, true, true);
            assert!(without < full - 500, "{without} without the capture, {full} with it");
            assert_ne!(s.pv[0].first(), Some(&best));
            assert_eq!(format!("{:?}", s.tt.probe(pos.hash(), 0)), stored);
        });
    }

    /// MultiPV: the k-th line is the k-th best root move with its exact value (each later
    /// line searched with the better lines' moves left out), best first, and the search's
    /// move is the first line's.
    #[test]
    fn multipv_lines_are_the_best_root_moves_in_order() {
        for seed in 0..30 {
            let pos = Dice::new(seed, false);
            for depth in 2..=5u32 {
                let mut values: Vec<(i32, u8)> = (0..4u8)
                    .map(|mv| {
                        let mut child = pos.clone();
                        child.play(mv);
                        (seen_from(&pos, &child, expectimax(&child, depth as i32 - 1, 1)), mv)
                    })
                    .collect();
                values.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
                let style = Style { lines: 3, ..Style::default() };
                let mut last = Vec::new();
                let result = with_searcher(&pos, depth, style, false, |mut s| {
                    s.iterate(&pos, |p| {
                        if p.depth == depth {
                            last.push((p.line, p.score, p.pv[0]));
                        }
                    })
                });
                assert_eq!(last.len(), 3, "seed {seed} depth {depth}");
                for (i, &(line, score, mv)) in last.iter().enumerate() {
                    assert_eq!(line, i as u32 + 1);
                    assert_eq!(score, values[i].0, "seed {seed} depth {depth} line {line}");
                    let own = values.iter().find(|(_, m)| *m == mv).unwrap().0;
                    assert_eq!(own, score, "line {line}'s move is worth its score");
                }
                let mut moves: Vec<u8> = last.iter().map(|l| l.2).collect();
                moves.sort_unstable();
                moves.dedup();
                assert_eq!(moves.len(), 3, "three different moves");
                assert_eq!((result.best, result.score), (Some(last[0].2), last[0].1));
            }
        }
    }

    /// The outcomes of a roll are searched as principal-variation nodes only when the roll
    /// itself is on one: Star1 hands them wide windows, but below a null-window search they
    /// are not PV nodes, and as PV nodes they would get neither hash cut-offs nor pruning.
    /// Counted over toy trees searched to depth 6 without pruning, PV nodes are 0.9 % of the
    /// nodes; with every outcome of a roll searched as a PV node they were 2.8 %.
    #[test]
    fn rolls_below_a_null_window_are_not_principal_variation_nodes() {
        for roller_view in [false, true] {
            let (mut pv_nodes, mut nodes) = (0, 0);
            for seed in 0..40 {
                let pos = Dice::new(seed, roller_view);
                let (pv, all) = with_searcher(&pos, 6, Style::default(), false, |mut s| {
                    s.negamax(&pos, 6, 0, -INF, INF, true, true);
                    (s.pv_nodes, s.nodes)
                });
                pv_nodes += pv;
                nodes += all;
            }
            assert!(pv_nodes * 60 < nodes, "{pv_nodes} PV nodes of {nodes}");
        }
    }

    /// A Banqi flip counts as a quiet move for futility and late-move pruning: at a
    /// null-window node one ply from the horizon whose static value is far below alpha, only
    /// the first move is searched, flips included (each valued flip costs a quiescence search
    /// per face it may show; unpruned, all of them were).
    #[test]
    fn a_flip_far_below_alpha_is_pruned_like_a_quiet_move() {
        use cannonade_banqi::Position as Banqi;
        let root = Banqi::from_fen(
            "XXXXXXXX/XXXNXXXX/XXXXXXXX/XXXXXXXX b K1A2B2R2N1C2P5k1a2b2r2n2c2p5 0 1",
        )
        .unwrap();
        let node = Banqi::from_fen(
            "XXXXXXXX/XXXNXXXX/XXXXXXXX/XXXXnXXX r K1A2B2R2N1C2P5k1a2b2r2n1c2p5 0 2",
        )
        .unwrap();
        let flips = with_searcher(&root, 4, Style::default(), true, |mut s| {
            s.ensure_ply(1);
            node.refresh(&mut s.accs[1]);
            s.enter(&node, false);
            s.negamax(&node, 1, 1, 2000, 2001, true, false);
            s.chance_nodes
        });
        assert!(flips <= 1, "{flips} flips searched");
    }

    const STAR1_ONLY: i32 = i32::MAX;
    // The reference expands every roll: a node never offers more rolls than are expanded.
    const _: () = assert!(CHANCE_EXPAND_MOVES >= 3);

    /// Star2's cut-offs and the bounds its probes give Star1 return bounds only where they are
    /// proven, so the root score is the exact expectimax value, with the roll's value seen
    /// from either seat.
    #[test]
    fn star2_root_score_is_plain_expectimax() {
        for roller_view in [false, true] {
            for seed in 0..40 {
                let pos = Dice::new(seed, roller_view);
                for depth in 2..=6 {
                    let want = expectimax(&pos, depth, 0);
                    // Probing from the tuned depth, and at every expanded roll.
                    for from in [STAR2_MIN_DEPTH, CHANCE_EXPAND_DEPTH] {
                        assert_eq!(
                            run(&pos, depth as u32, from).score,
                            want,
                            "seed {seed} depth {depth} roller_view {roller_view} from {from}"
                        );
                    }
                    assert_eq!(
                        run(&pos, depth as u32, STAR1_ONLY).score,
                        want,
                        "Star1, seed {seed}"
                    );
                }
            }
        }
    }

    /// Probing each outcome's first move proves many refuted rolls at a fraction of a full
    /// search: over many toy trees, at the same depth, Star2 (from the tuned depth) visits
    /// fewer nodes than Star1 alone (about 11 %) and finds the same scores and moves.
    #[test]
    fn star2_visits_fewer_nodes_than_star1() {
        for roller_view in [false, true] {
            let (mut star1, mut star2) = (0, 0);
            for seed in 0..40 {
                let pos = Dice::new(seed, roller_view);
                let a = run(&pos, 6, STAR1_ONLY);
                let b = run(&pos, 6, STAR2_MIN_DEPTH);
                assert_eq!((a.score, a.best), (b.score, b.best), "seed {seed}");
                star1 += a.nodes;
                star2 += b.nodes;
            }
            assert!(star2 * 20 < star1 * 19, "Star2 {star2} nodes, Star1 {star1}");
        }
    }
}
