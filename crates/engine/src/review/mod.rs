//! Game review: every position of a finished (or imported) game searched once by one
//! [`Engine`], forwards, so the transposition table carries from ply to ply; per ply the
//! mover's value before the move, the best move and its line, the value of the move played
//! (from the search of the position after it), the loss and its [`Judgement`]; per player an
//! accuracy. The judging itself is pure and lives in [`judge`].
//!
//! Banqi's face-down pieces: the review walks the game's public view (a dealt game is
//! replayed from its public start with each flip's revealed piece), so no search ever sees
//! a deal. A flip is valued by what it may reveal, never by what it happened to reveal: the
//! position after the flip is a chance node, and its value is the weighted mean over every
//! piece that may come up of the search of the position with that piece revealed (the
//! expectimax the search itself does at chance nodes, docs/analysis.md).

pub mod annotate;
pub mod judge;

use crate::search::MATE_BOUND;
use crate::{AnyResult, Engine, Level, Limits, MATE};
use cannonade_core::{Next, Side};
use cannonade_games::{AnyRecord, GameError, GameKind};
use judge::{Eval, Judgement, Scale, move_accuracy, player_accuracy};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a review could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewError {
    /// The record does not replay from its public view (move index and why).
    Replay(usize, GameError),
    /// The stop flag was set.
    Stopped,
    /// The record has no move of this index.
    NoSuchMove(usize),
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewError::Replay(ply, e) => write!(f, "move {} does not replay: {e}", ply + 1),
            ReviewError::Stopped => write!(f, "the review was stopped"),
            ReviewError::NoSuchMove(i) => write!(f, "the game has no move {}", i + 1),
        }
    }
}

impl std::error::Error for ReviewError {}

/// Another move of a ply valued as the played one is (a spectators' proposal).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// The move as given.
    pub text: String,
    /// Its value for the mover, from the search of the position after it.
    pub value: Eval,
    /// The move as people read it (WXF in Xiangqi). Absent from reviews stored before it
    /// existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyReview {
    /// Index of the move in the game (0 is the first move).
    pub ply: usize,
    /// The seat that played it: 0 first, 1 second.
    pub seat: usize,
    /// The move as recorded (a Banqi flip with its piece: `d2=C`).
    pub played: String,
    /// The move as people read it (WXF in Xiangqi).
    pub display: String,
    /// The mover's value of the position before the move, best play.
    pub before: Eval,
    /// The engine's best move (engine notation), `None` when the search gave none.
    pub best: Option<String>,
    /// The best move as people read it.
    pub best_display: Option<String>,
    /// The engine's line from the position before the move, first move first.
    pub line: Vec<String>,
    /// The line as people read it, move for move (WXF in Xiangqi); shorter than `line`
    /// where a move of it does not replay. Absent from reviews stored before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line_display: Vec<String>,
    /// The mover's value of the move played.
    pub played_value: Eval,
    /// Centipawns lost by the move (0 when the move was as good as the best).
    pub loss: i32,
    /// The mover's win chance before the move, 0 to 1.
    pub win_before: f64,
    /// The mover's win chance after the move played, 0 to 1.
    pub win_after: f64,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f64,
    /// The judgement, `None` for a good move.
    pub judgement: Option<Judgement>,
    /// Other moves of this ply asked to be valued, each once, in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
}

/// A game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// Which game.
    pub kind: GameKind,
    /// The depth of every search.
    pub depth: Option<u32>,
    /// One entry per move.
    pub plies: Vec<PlyReview>,
    /// Accuracy per seat (first seat first), `None` for a seat without moves.
    pub accuracy: [Option<f64>; 2],
    /// Whether values are expectations over hidden pieces (Banqi).
    pub expectation: bool,
}

impl Review {
    /// How many moves of `seat` carry `judgement`.
    pub fn count(&self, seat: usize, judgement: Judgement) -> usize {
        self.plies.iter().filter(|p| p.seat == seat && p.judgement == Some(judgement)).count()
    }
}

/// What a review searches with and what else it values.
#[derive(Clone, Debug, Default)]
pub struct ReviewOptions {
    /// Limits of every search (a depth makes the review reproducible).
    pub limits: Limits,
    /// Moves to value besides the played one, by move index (texts in any of the game's
    /// notations; a text that is not a legal move there is left out).
    pub alternatives: BTreeMap<usize, Vec<String>>,
}

/// The depth a review searches at by default, per game: a 100-ply game reviews in well
/// under a minute on one core (docs/analysis.md has the measurements).
pub fn default_depth(kind: GameKind) -> u32 {
    match kind {
        // Depth 14 agrees with fairy-stockfish's depth-14 judgements as well as 16 does, and
        // clearly better than 12, for 2.5 times 12's time (docs/analysis.md, "Quality").
        GameKind::Xiangqi => 14,
        // Every flip is a search per piece that may come up: depth 4 took over 100 s.
        GameKind::Banqi => 3,
        GameKind::ChessBattle => 8,
        // Depth 6 took over 2 minutes: Commander positions have the most moves.
        GameKind::Commander => 4,
    }
}

/// The game's public view: the same moves from the public start, a dealt Banqi flip
/// resolved by the piece it revealed.
fn public_view(record: &AnyRecord) -> Result<AnyRecord, ReviewError> {
    let mut public = AnyRecord::with_start(record.spec(), record.start().public())
        .map_err(|e| ReviewError::Replay(0, e))?;
    for (i, mv) in record.moves().iter().enumerate() {
        public.play_text_past_end(&mv.text).map_err(|e| ReviewError::Replay(i, e))?;
    }
    Ok(public)
}

/// A value of a position searched for its own mover, brought to `mover`'s view one ply
/// up: negated when the seat changed, and a mate one ply further away.
fn for_mover(score: i32, child_mover: Side, mover: Side) -> i32 {
    let v = if child_mover == mover { score } else { -score };
    if v >= MATE_BOUND {
        v - 1
    } else if v <= -MATE_BOUND {
        v + 1
    } else {
        v
    }
}

/// The walk's state: the engine, its limits and the stop flag.
struct Walk<'a> {
    engine: &'a mut Engine,
    limits: &'a Limits,
    stop: &'a AtomicBool,
}

impl Walk<'_> {
    /// The value of `record`'s position for its mover, with the search when there was one
    /// (a finished game is valued by its outcome).
    fn position(&mut self, record: &AnyRecord) -> Result<(i32, Option<AnyResult>), ReviewError> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(ReviewError::Stopped);
        }
        let mover = record.position().mover();
        if let Next::Over(outcome) = record.next() {
            let score = match outcome.winner {
                None => 0,
                Some(w) if w == mover => MATE,
                Some(_) => -MATE,
            };
            return Ok((score, None));
        }
        let r = self.engine.search(record, self.limits, self.stop, |_| {});
        if self.stop.load(Ordering::Relaxed) {
            return Err(ReviewError::Stopped);
        }
        Ok((r.score, Some(r)))
    }

    /// The value for `mover` of a record just after a move: at a chance node the weighted
    /// mean over its outcomes, each searched.
    fn after(&mut self, record: &AnyRecord, mover: Side) -> Result<i32, ReviewError> {
        if record.next() != Next::Chance {
            let (score, _) = self.position(record)?;
            return Ok(for_mover(score, record.position().mover(), mover));
        }
        let mut sum = 0i64;
        let mut total = 0i64;
        for (outcome, weight) in record.position().chance_outcomes() {
            let mut child = record.clone();
            child.resolve_text(&outcome).map_err(|e| ReviewError::Replay(record.len(), e))?;
            let (score, _) = self.position(&child)?;
            sum += weight as i64 * for_mover(score, child.position().mover(), mover) as i64;
            total += weight as i64;
        }
        Ok(if total == 0 { 0 } else { (sum / total) as i32 })
    }

    /// The value for the mover of `at` of the move `text`, valued before any chance event
    /// it starts resolves.
    fn value_of(&mut self, at: &AnyRecord, text: &str) -> Result<Option<i32>, ReviewError> {
        let mover = at.position().mover();
        let mut played = at.clone();
        if played.play_text_past_end(text).is_err() {
            return Ok(None);
        }
        // A recorded flip (`d2=C`) played and resolved: take the piece back, keep the flip.
        if played.len() > at.len() + 1 {
            played.undo();
        }
        self.after(&played, mover).map(Some)
    }
}

/// The moves of `line` (engine texts) as people read them, each in the position it is
/// played from, up to the first that does not replay.
fn display_line(at: &AnyRecord, line: &[String]) -> Vec<String> {
    let mut record = at.clone();
    let mut out = Vec::with_capacity(line.len());
    for text in line {
        let position = record.position();
        match record.play_text_past_end(text) {
            Ok(mv) => out.push(position.display_move(mv)),
            Err(_) => break,
        }
    }
    out
}

/// A review under way, one move at a time: a server runs each [`Reviewer::step`] as a
/// job of its own, so the searches of players waiting for an engine's move go between them.
#[derive(Clone, Debug)]
pub struct Reviewer {
    kind: GameKind,
    scale: Scale,
    options: ReviewOptions,
    moves: Vec<cannonade_games::PlayedMove>,
    /// The index of the first move reviewed (those before are replayed, not searched).
    first: usize,
    at: AnyRecord,
    here: Option<(i32, Option<AnyResult>)>,
    plies: Vec<PlyReview>,
}

impl Reviewer {
    /// A review of `record` (its public view: a dealt Banqi game's deal is never searched).
    pub fn new(record: &AnyRecord, options: ReviewOptions) -> Result<Reviewer, ReviewError> {
        let public = public_view(record)?;
        let at = AnyRecord::with_start(public.spec(), public.start())
            .map_err(|e| ReviewError::Replay(0, e))?;
        let kind = record.kind();
        Ok(Reviewer {
            kind,
            scale: Scale::of(kind),
            options,
            moves: public.moves(),
            first: 0,
            at,
            here: None,
            plies: Vec::new(),
        })
    }

    /// Moves reviewed and moves in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.first + self.plies.len(), self.moves.len())
    }

    /// Whether every move is reviewed.
    pub fn done(&self) -> bool {
        self.first + self.plies.len() >= self.moves.len()
    }

    /// Reviews the next move with `engine` at full strength (its level is restored after).
    pub fn step(&mut self, engine: &mut Engine, stop: &AtomicBool) -> Result<(), ReviewError> {
        if self.done() {
            return Ok(());
        }
        let saved_level = engine.level();
        engine.set_level(Level::MAX);
        let limits = self.options.limits.clone();
        let mut walk = Walk { engine, limits: &limits, stop };
        let result = self.next_ply(&mut walk);
        walk.engine.set_level(saved_level);
        result
    }

    fn next_ply(&mut self, walk: &mut Walk<'_>) -> Result<(), ReviewError> {
        let i = self.first + self.plies.len();
        let Some(mv) = self.moves.get(i) else { return Ok(()) };
        let (score, result) = match self.here.take() {
            Some(here) => here,
            None => walk.position(&self.at)?,
        };
        let at = &self.at;
        let position = at.position();
        let mover = position.mover();
        let mut next = at.clone();
        let played_move =
            next.play_text_past_end(&mv.text).map_err(|e| ReviewError::Replay(i, e))?;
        // A flip is valued before the position it revealed is searched, so that nothing of
        // the piece that came up is in the table when the chance node is valued.
        let flip = next.len() > at.len() + 1;
        let flip_value = if flip { walk.value_of(at, &mv.text)? } else { None };
        // The played move named as an alternative takes the played move's value: searched
        // again with the table the other searches left, it could come out a little apart.
        // `None` marks it until that value is known.
        let mut named = Vec::new();
        for text in self.options.alternatives.get(&i).into_iter().flatten() {
            if at.clone().play_text_past_end(text).ok() == Some(played_move) {
                named.push((text, None));
            } else if let Some(v) = walk.value_of(at, text)? {
                named.push((text, Some(v)));
            }
        }
        let there = walk.position(&next)?;
        let played = match flip_value {
            Some(v) => v,
            None => for_mover(there.0, next.position().mover(), mover),
        };
        let scale = self.scale;
        let before = Eval::from_score(score);
        let played_value = Eval::from_score(played);
        let alternatives = named
            .into_iter()
            .map(|(text, value)| Alternative {
                text: text.clone(),
                value: value.map_or(played_value, Eval::from_score),
                display: display_line(at, std::slice::from_ref(text)).pop(),
            })
            .collect();
        let (win_before, win_after) = (scale.win_chance(before), scale.win_chance(played_value));
        let best = result.as_ref().and_then(|r| r.best);
        let line = result.as_ref().map(|r| r.pv.clone()).unwrap_or_default();
        let line_display = display_line(at, &line);
        self.plies.push(PlyReview {
            ply: i,
            seat: mover.index(),
            played: mv.text.clone(),
            display: mv.display.clone(),
            before,
            best: result.as_ref().and_then(|r| r.best_text.clone()),
            best_display: best.map(|b| position.display_move(b)),
            line,
            line_display,
            played_value,
            loss: (before.cp() - played_value.cp()).max(0),
            win_before,
            win_after,
            accuracy: move_accuracy(win_before, win_after),
            judgement: scale.judge(before, played_value),
            alternatives,
        });
        self.at = next;
        self.here = Some(there);
        Ok(())
    }

    /// The review of the moves reviewed so far (all of them once [`Reviewer::done`]).
    pub fn finish(self) -> Review {
        let plies = self.plies;
        let accuracy = [0, 1].map(|seat| {
            let of: Vec<f64> =
                plies.iter().filter(|p| p.seat == seat).map(|p| p.accuracy).collect();
            player_accuracy(&of)
        });
        Review {
            kind: self.kind,
            depth: self.options.limits.depth,
            plies,
            accuracy,
            expectation: self.kind == GameKind::Banqi,
        }
    }
}

/// Reviews `record` with `engine` at full strength (see the module's documentation).
pub fn review(
    record: &AnyRecord,
    options: &ReviewOptions,
    engine: &mut Engine,
    stop: &AtomicBool,
) -> Result<Review, ReviewError> {
    let mut reviewer = Reviewer::new(record, options.clone())?;
    while !reviewer.done() {
        reviewer.step(engine, stop)?;
    }
    Ok(reviewer.finish())
}

/// The review of move `i` of `record` alone, as [`review`] would write it: the moves before
/// are replayed, not searched. The crowd's judgement of a ply while the game goes on
/// (docs/analysis.md) reviews the ply just played this way.
pub fn review_move(
    record: &AnyRecord,
    options: &ReviewOptions,
    i: usize,
    engine: &mut Engine,
    stop: &AtomicBool,
) -> Result<PlyReview, ReviewError> {
    let mut reviewer = Reviewer::new(record, options.clone())?;
    if i >= reviewer.moves.len() {
        return Err(ReviewError::NoSuchMove(i));
    }
    for (k, mv) in reviewer.moves[..i].iter().enumerate() {
        reviewer.at.play_text_past_end(&mv.text).map_err(|e| ReviewError::Replay(k, e))?;
    }
    reviewer.first = i;
    reviewer.step(engine, stop)?;
    reviewer.plies.pop().ok_or(ReviewError::NoSuchMove(i))
}

#[cfg(test)]
mod tests;
