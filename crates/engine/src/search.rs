//! Iterative-deepening alpha-beta over any game.

use crate::{Evaluate, Limits};
use cannonade_core::{MoveBuf, Next};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of a mate delivered now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;

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
    /// Score for the side to move.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub millis: u64,
    /// Principal variation.
    pub pv: Vec<M>,
}

struct Searcher<'a, G: Evaluate> {
    limits: &'a Limits,
    stop: &'a AtomicBool,
    start: Instant,
    nodes: u64,
    aborted: bool,
    bufs: Vec<MoveBuf<G::Move>>,
}

impl<G: Evaluate> Searcher<'_, G> {
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || (self.nodes.is_multiple_of(1024)
                && (self.stop.load(Ordering::Relaxed)
                    || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Negamax alpha-beta; fills `pv` with the line found.
    fn negamax(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<G::Move>,
    ) -> i32 {
        self.nodes += 1;
        pv.clear();
        match pos.next() {
            Next::Over(o) => {
                return match o.winner {
                    None => 0,
                    Some(w) if w == pos.mover() => MATE - ply as i32,
                    Some(_) => -(MATE - ply as i32),
                };
            }
            Next::Chance => return pos.evaluate(),
            Next::Player(_) => {}
        }
        if depth == 0 || self.out_of_budget() {
            return pos.evaluate();
        }
        if self.bufs.len() <= ply {
            self.bufs.push(MoveBuf::with_capacity(128));
        }
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        pos.legal_moves(&mut buf);
        let mut child_pv = Vec::new();
        let mut best = -MATE - 1;
        for &mv in buf.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let same_side = child.mover() == pos.mover() && !child.chance_pending();
            let score = if same_side {
                self.negamax(&child, depth - 1, ply + 1, alpha, beta, &mut child_pv)
            } else {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, &mut child_pv)
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(mv);
                    pv.extend_from_slice(&child_pv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.bufs[ply] = buf;
        best
    }
}

/// Searches `pos` by iterative deepening until a limit is reached or `stop` is set, calling
/// `on_progress` after each completed depth. Always returns a legal move when there is one.
pub fn search<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&Progress<G::Move>),
) -> SearchResult<G::Move> {
    let mut s = Searcher {
        limits,
        stop,
        start: Instant::now(),
        nodes: 0,
        aborted: false,
        bufs: Vec::new(),
    };
    let mut root = MoveBuf::new();
    pos.legal_moves(&mut root);
    let mut result =
        SearchResult { best: root.first().copied(), score: 0, depth: 0, nodes: 0, pv: Vec::new() };
    if root.is_empty() {
        return result;
    }
    let max_depth = limits.depth.unwrap_or(64).max(1);
    for depth in 1..=max_depth {
        let mut pv = Vec::new();
        let score = s.negamax(pos, depth, 0, -MATE - 1, MATE + 1, &mut pv);
        if s.aborted && depth > 1 {
            break;
        }
        if let Some(&best) = pv.first() {
            result =
                SearchResult { best: Some(best), score, depth, nodes: s.nodes, pv: pv.clone() };
        }
        result.nodes = s.nodes;
        on_progress(&Progress {
            depth,
            score,
            nodes: s.nodes,
            millis: s.start.elapsed().as_millis() as u64,
            pv,
        });
        if s.aborted || score.abs() >= MATE - 64 {
            break;
        }
    }
    result
}
