//! A game of any kind with its history.

use crate::{AnyGame, AnyMove, GameError, GameKind};
use cannonade_banqi as banqi;
use cannonade_battle as battle;
use cannonade_commander as commander;
use cannonade_core::{Next, Record, Step};
use cannonade_xiangqi as xiangqi;

/// A game in progress or finished: its start, every position and step, and the full rule set
/// (history rules included) through [`AnyRecord::next`].
#[derive(Clone, Debug)]
pub enum AnyRecord {
    /// A Xiangqi game.
    Xiangqi(Record<xiangqi::Position>),
    /// A Banqi game as everybody sees it (flips resolved as chance steps).
    Banqi(Record<banqi::Position>),
    /// A Banqi game with its deal.
    BanqiDealt(Record<banqi::FullPosition>),
    /// A Chess-Battle game.
    ChessBattle(Record<battle::Position>),
    /// A Commander Chess game.
    Commander(Record<commander::Position>),
}

macro_rules! each {
    ($record:expr, $r:ident => $body:expr) => {
        match $record {
            AnyRecord::Xiangqi($r) => $body,
            AnyRecord::Banqi($r) => $body,
            AnyRecord::BanqiDealt($r) => $body,
            AnyRecord::ChessBattle($r) => $body,
            AnyRecord::Commander($r) => $body,
        }
    };
}

impl AnyRecord {
    /// A record starting at `start`.
    pub fn new(start: AnyGame) -> AnyRecord {
        match start {
            AnyGame::Xiangqi(p) => AnyRecord::Xiangqi(Record::new(p)),
            AnyGame::Banqi(p) => AnyRecord::Banqi(Record::new(p)),
            AnyGame::BanqiDealt(p) => AnyRecord::BanqiDealt(Record::new(p)),
            AnyGame::ChessBattle(p) => AnyRecord::ChessBattle(Record::new(p)),
            AnyGame::Commander(p) => AnyRecord::Commander(Record::new(p)),
        }
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        self.position().kind()
    }

    /// The current position.
    pub fn position(&self) -> AnyGame {
        match self {
            AnyRecord::Xiangqi(r) => AnyGame::Xiangqi(r.position().clone()),
            AnyRecord::Banqi(r) => AnyGame::Banqi(r.position().clone()),
            AnyRecord::BanqiDealt(r) => AnyGame::BanqiDealt(r.position().clone()),
            AnyRecord::ChessBattle(r) => AnyGame::ChessBattle(r.position().clone()),
            AnyRecord::Commander(r) => AnyGame::Commander(r.position().clone()),
        }
    }

    /// The starting position.
    pub fn start(&self) -> AnyGame {
        match self {
            AnyRecord::Xiangqi(r) => AnyGame::Xiangqi(r.start().clone()),
            AnyRecord::Banqi(r) => AnyGame::Banqi(r.start().clone()),
            AnyRecord::BanqiDealt(r) => AnyGame::BanqiDealt(r.start().clone()),
            AnyRecord::ChessBattle(r) => AnyGame::ChessBattle(r.start().clone()),
            AnyRecord::Commander(r) => AnyGame::Commander(r.start().clone()),
        }
    }

    /// The state of the game under all its rules.
    pub fn next(&self) -> Next {
        each!(self, r => r.next())
    }

    /// Number of steps played (a Banqi flip and its result are two steps).
    pub fn len(&self) -> usize {
        each!(self, r => r.len())
    }

    /// Whether no step has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a move in the current position's notation, checks it and plays it. A recorded
    /// Banqi flip (`d2=C`) in a public game plays the flip and resolves it. Refused once the
    /// game is over.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, GameError> {
        if matches!(self.next(), Next::Over(_)) {
            return Err(GameError::GameOver);
        }
        self.play_text_past_end(text)
    }

    /// Like [`AnyRecord::play_text`], but also after the rules have ended the game (a move
    /// must still be legal). For analysis and engine protocols, where the GUI is the referee.
    pub fn play_text_past_end(&mut self, text: &str) -> Result<AnyMove, GameError> {
        if let (AnyRecord::Banqi(_), Some((flip, revealed))) = (&*self, text.split_once('=')) {
            let mv = self.position().parse_move(&format!("{flip}?"))?;
            let mut after = self.position();
            after.play(mv)?;
            // Check the result before touching the record, so a bad one changes nothing.
            after.resolve_text(revealed)?;
            self.play(mv)?;
            self.resolve_text(revealed)?;
            return Ok(mv);
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move checked against the current position.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), GameError> {
        match (self, mv) {
            (AnyRecord::Xiangqi(r), AnyMove::Xiangqi(m)) => r.play(m),
            (AnyRecord::Banqi(r), AnyMove::Banqi(m)) => r.play(m),
            (AnyRecord::BanqiDealt(r), AnyMove::Banqi(m)) => r.play(m),
            (AnyRecord::ChessBattle(r), AnyMove::ChessBattle(m)) => r.play(m),
            (AnyRecord::Commander(r), AnyMove::Commander(m)) => r.play(m),
            _ => return Err(GameError::WrongGame),
        }
        Ok(())
    }

    /// Resolves a pending chance event (a Banqi flip's piece letter).
    pub fn resolve_text(&mut self, text: &str) -> Result<(), GameError> {
        let AnyRecord::Banqi(r) = self else {
            return Err(GameError::Move("no chance event is pending".into()));
        };
        let mut check = AnyGame::Banqi(r.position().clone());
        check.resolve_text(text)?;
        let piece = text.chars().next().and_then(banqi::Piece::from_letter);
        match piece {
            Some(p) => {
                r.resolve(p);
                Ok(())
            }
            None => Err(GameError::Move(format!("'{text}' is not a piece letter"))),
        }
    }

    /// The moves played, in recorded text (Banqi flips as `d2=C`).
    pub fn moves_text(&self) -> Vec<String> {
        match self {
            AnyRecord::Xiangqi(r) => texts(r, |p, m| p.move_to_string(m)),
            AnyRecord::ChessBattle(r) => texts(r, |p, m| p.move_to_string(m)),
            AnyRecord::Commander(r) => texts(r, |p, m| p.move_to_string(m)),
            AnyRecord::BanqiDealt(r) => texts(r, |p, m| p.recorded_move(m)),
            AnyRecord::Banqi(r) => {
                let mut out: Vec<String> = Vec::new();
                for (i, step) in r.steps().iter().enumerate() {
                    match step {
                        Step::Move(m) => out.push(r.positions()[i].move_to_string(*m)),
                        Step::Chance(piece) => {
                            if let Some(last) = out.last_mut()
                                && let Some(square) = last.strip_suffix('?')
                            {
                                *last = format!("{square}={}", piece.letter());
                            }
                        }
                    }
                }
                out
            }
        }
    }

    /// Takes back the last step (for a resolved Banqi flip, the result only).
    pub fn undo(&mut self) -> bool {
        each!(self, r => r.undo().is_some())
    }
}

/// Texts of a record's moves (for games without chance).
fn texts<G: cannonade_core::Rules>(
    r: &Record<G>,
    write: impl Fn(&G, G::Move) -> String,
) -> Vec<String> {
    r.steps()
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Step::Move(m) => Some(write(&r.positions()[i], *m)),
            Step::Chance(_) => None,
        })
        .collect()
}
