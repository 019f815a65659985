//! A position of any game, and a move of any game.

use crate::{GameError, GameKind};
use cannonade_core::{MoveBuf, Next, Rules, Side};
use cannonade_xiangqi as xiangqi;

/// A valid position of one of the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Xiangqi.
    Xiangqi(xiangqi::Position),
}

/// A checked move of one of the games. It belongs to the position it was checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A Xiangqi move.
    Xiangqi(xiangqi::Move),
}

impl AnyGame {
    /// The standard starting position of a game.
    pub fn start(kind: GameKind) -> Result<AnyGame, GameError> {
        match kind {
            GameKind::Xiangqi => Ok(AnyGame::Xiangqi(xiangqi::Position::startpos())),
            other => Err(GameError::NotAvailable(other)),
        }
    }

    /// Reads a position in the game's notation (FEN for Xiangqi).
    pub fn from_fen(kind: GameKind, text: &str) -> Result<AnyGame, GameError> {
        match kind {
            GameKind::Xiangqi => xiangqi::Position::from_fen(text)
                .map(AnyGame::Xiangqi)
                .map_err(|e| GameError::Position(e.to_string())),
            other => Err(GameError::NotAvailable(other)),
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Xiangqi(_) => GameKind::Xiangqi,
        }
    }

    /// The position in the game's notation.
    pub fn fen(&self) -> String {
        match self {
            AnyGame::Xiangqi(p) => p.fen(),
        }
    }

    /// Applies rule options written `key=value,key=value` (Xiangqi: `repetition=seed|asian`).
    /// Unknown options and values are errors, never ignored.
    pub fn apply_options(&mut self, spec: &str) -> Result<(), GameError> {
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| GameError::Position(format!("option '{item}' is not key=value")))?;
            match (self as &mut AnyGame, key.trim()) {
                (AnyGame::Xiangqi(p), "repetition") => {
                    let rule = xiangqi::RepetitionRule::parse(value.trim()).ok_or_else(|| {
                        GameError::Position(format!(
                            "repetition must be seed or asian, not '{value}'"
                        ))
                    })?;
                    *p = p.clone().with_options(xiangqi::Options { repetition: rule });
                }
                (_, key) => {
                    return Err(GameError::Position(format!(
                        "{} has no option '{key}'",
                        self.kind().title()
                    )));
                }
            }
        }
        Ok(())
    }

    /// The rule options as `key=value,…`.
    pub fn options(&self) -> String {
        match self {
            AnyGame::Xiangqi(p) => format!("repetition={}", p.options().repetition.as_str()),
        }
    }

    /// Who acts next, by the position alone.
    pub fn next(&self) -> Next {
        match self {
            AnyGame::Xiangqi(p) => p.next(),
        }
    }

    /// The seat to move.
    pub fn mover(&self) -> Side {
        match self {
            AnyGame::Xiangqi(p) => p.mover(),
        }
    }

    /// Whether the side to move is in check (games with check).
    pub fn in_check(&self) -> bool {
        match self {
            AnyGame::Xiangqi(p) => p.in_check(),
        }
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Xiangqi(p) => {
                let mut buf = MoveBuf::new();
                Rules::legal_moves(p, &mut buf);
                buf.iter().map(|&m| AnyMove::Xiangqi(m)).collect()
            }
        }
    }

    /// Reads a move in the game's canonical notation and checks it.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, GameError> {
        match self {
            AnyGame::Xiangqi(p) => {
                p.parse_move(text).map(AnyMove::Xiangqi).map_err(|e| GameError::Move(e.to_string()))
            }
        }
    }

    /// The canonical text of a move of this position.
    pub fn move_text(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Xiangqi(p), AnyMove::Xiangqi(m)) => p.move_to_string(m),
        }
    }

    /// The move as people read it (WXF for Xiangqi).
    pub fn display_move(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Xiangqi(p), AnyMove::Xiangqi(m)) => p.wxf(m),
        }
    }

    /// Plays a move checked against this position.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), GameError> {
        match (self, mv) {
            (AnyGame::Xiangqi(p), AnyMove::Xiangqi(m)) => p.play(m),
        }
        Ok(())
    }

    /// Perft: leaves of the legal-move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            AnyGame::Xiangqi(p) => cannonade_core::perft(p, depth),
        }
    }

    /// Perft split by first move, as `(move text, leaves)`; `progress` sees each root move.
    pub fn divide(&self, depth: u32, mut progress: impl FnMut(&str, u64)) -> Vec<(String, u64)> {
        match self {
            AnyGame::Xiangqi(p) => cannonade_core::divide(p, depth, |m, n| {
                progress(&p.move_to_string(m), n);
            })
            .into_iter()
            .map(|(m, n)| (p.move_to_string(m), n))
            .collect(),
        }
    }

    /// Number of legal moves.
    pub fn count_legal(&self) -> u64 {
        match self {
            AnyGame::Xiangqi(p) => p.count_legal(),
        }
    }

    /// A readable board diagram.
    pub fn pretty(&self) -> String {
        match self {
            AnyGame::Xiangqi(p) => p.pretty(),
        }
    }

    /// The position's hash.
    pub fn hash(&self) -> u64 {
        match self {
            AnyGame::Xiangqi(p) => p.hash(),
        }
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    game: GameKind,
    fen: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    options: String,
}

impl serde::Serialize for AnyGame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Stored { game: self.kind(), fen: self.fen(), options: self.options() }.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for AnyGame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(d)?;
        let mut game =
            AnyGame::from_fen(stored.game, &stored.fen).map_err(serde::de::Error::custom)?;
        game.apply_options(&stored.options).map_err(serde::de::Error::custom)?;
        Ok(game)
    }
}
