//! A game of any kind with its history.

use crate::{AnyGame, AnyMove, GameError, GameKind};
use cannonade_core::{Next, Record};
use cannonade_xiangqi as xiangqi;

/// A game in progress or finished: its start, every position and step, and the full rule set
/// (history rules included) through [`AnyRecord::next`].
#[derive(Clone, Debug)]
pub enum AnyRecord {
    /// A Xiangqi game.
    Xiangqi(Record<xiangqi::Position>),
}

impl AnyRecord {
    /// A record starting at `start`.
    pub fn new(start: AnyGame) -> AnyRecord {
        match start {
            AnyGame::Xiangqi(p) => AnyRecord::Xiangqi(Record::new(p)),
        }
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyRecord::Xiangqi(_) => GameKind::Xiangqi,
        }
    }

    /// The current position.
    pub fn position(&self) -> AnyGame {
        match self {
            AnyRecord::Xiangqi(r) => AnyGame::Xiangqi(r.position().clone()),
        }
    }

    /// The starting position.
    pub fn start(&self) -> AnyGame {
        match self {
            AnyRecord::Xiangqi(r) => AnyGame::Xiangqi(r.start().clone()),
        }
    }

    /// The state of the game under all its rules.
    pub fn next(&self) -> Next {
        match self {
            AnyRecord::Xiangqi(r) => r.next(),
        }
    }

    /// Number of steps played.
    pub fn len(&self) -> usize {
        match self {
            AnyRecord::Xiangqi(r) => r.len(),
        }
    }

    /// Whether no step has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a move in the current position's notation, checks it and plays it. Refused once
    /// the game is over.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, GameError> {
        if matches!(self.next(), Next::Over(_)) {
            return Err(GameError::GameOver);
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move checked against the current position.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), GameError> {
        match (self, mv) {
            (AnyRecord::Xiangqi(r), AnyMove::Xiangqi(m)) => r.play(m),
        }
        Ok(())
    }

    /// The moves played, in canonical text.
    pub fn moves_text(&self) -> Vec<String> {
        match self {
            AnyRecord::Xiangqi(r) => r
                .steps()
                .iter()
                .map(|s| match s {
                    cannonade_core::Step::Move(m) => m.to_string(),
                    cannonade_core::Step::Chance(c) => match *c {},
                })
                .collect(),
        }
    }

    /// Takes back the last step.
    pub fn undo(&mut self) -> bool {
        match self {
            AnyRecord::Xiangqi(r) => r.undo().is_some(),
        }
    }
}
