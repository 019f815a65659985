//! A game's history: the positions it went through and the steps between them.

use crate::{Next, Rules};
use std::sync::OnceLock;

/// One step of a game: a player's move or the resolution of a chance event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step<M, C> {
    /// A move chosen by a player.
    Move(M),
    /// The outcome of a chance event.
    Chance(C),
}

/// A game from its starting position: every position reached and every step taken. Its
/// [`Record::next`] applies the game's whole rule set, history-dependent rules included, via
/// the per-game hook [`Rules::adjudicate`].
#[derive(Clone, Debug)]
pub struct Record<G: Rules> {
    positions: Vec<G>,
    steps: Vec<Step<G::Move, G::Chance>>,
    /// What [`Record::next`] judged, kept until the record changes: judging can generate
    /// moves (mate) and scan the history (repetition), and a server asks many times a move.
    judged: OnceLock<Next>,
}

impl<G: Rules> Record<G> {
    /// A record that starts at `start`.
    pub fn new(start: G) -> Self {
        Record { positions: vec![start], steps: Vec::new(), judged: OnceLock::new() }
    }

    /// The starting position.
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &G {
        self.positions.last().unwrap_or_else(|| unreachable!("a record always has a start"))
    }

    /// Every position, the start first; `positions()[i]` is the position after `i` steps.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// Every step taken.
    pub fn steps(&self) -> &[Step<G::Move, G::Chance>] {
        &self.steps
    }

    /// Number of steps taken.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether no step has been taken.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The state of the game under all its rules.
    pub fn next(&self) -> Next {
        *self.judged.get_or_init(|| G::adjudicate(self))
    }

    /// Plays a legal move in the current position.
    pub fn play(&mut self, mv: G::Move) {
        let mut pos = self.position().clone();
        pos.play(mv);
        self.positions.push(pos);
        self.steps.push(Step::Move(mv));
        self.judged = OnceLock::new();
    }

    /// Resolves the pending chance event of the current position.
    pub fn resolve(&mut self, outcome: G::Chance) {
        let mut pos = self.position().clone();
        pos.resolve(outcome);
        self.positions.push(pos);
        self.steps.push(Step::Chance(outcome));
        self.judged = OnceLock::new();
    }

    /// Takes back the last step; `None` at the start.
    pub fn undo(&mut self) -> Option<Step<G::Move, G::Chance>> {
        let step = self.steps.pop()?;
        self.positions.pop();
        self.judged = OnceLock::new();
        Some(step)
    }
}
