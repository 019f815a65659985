//! The registry of game names.

use crate::GameError;

/// Every game of Cannonade, named the same way everywhere (CLI, `UCI_Variant`, wire, store).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Xiangqi, Chinese chess.
    Xiangqi,
    /// Banqi, dark chess.
    Banqi,
    /// Chess-Battle (Yurgelevich, 1933).
    #[serde(rename = "chessbattle")]
    ChessBattle,
    /// Commander Chess (Cờ Tư Lệnh).
    Commander,
}

impl GameKind {
    /// All games, in registry order.
    pub const ALL: [GameKind; 4] =
        [GameKind::Xiangqi, GameKind::Banqi, GameKind::ChessBattle, GameKind::Commander];

    /// The registry name: `xiangqi`, `banqi`, `chessbattle`, `commander`.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "xiangqi",
            GameKind::Banqi => "banqi",
            GameKind::ChessBattle => "chessbattle",
            GameKind::Commander => "commander",
        }
    }

    /// The name people read.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "Xiangqi",
            GameKind::Banqi => "Banqi",
            GameKind::ChessBattle => "Chess-Battle",
            GameKind::Commander => "Commander Chess",
        }
    }

    /// Whether this build plays the game.
    pub fn available(self) -> bool {
        matches!(
            self,
            GameKind::Xiangqi | GameKind::Banqi | GameKind::ChessBattle | GameKind::Commander
        )
    }

    /// The games this build plays.
    pub fn available_games() -> impl Iterator<Item = GameKind> {
        GameKind::ALL.into_iter().filter(|k| k.available())
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = GameError;

    /// Reads a registry name, case-insensitively; `chess-battle` is accepted too.
    fn from_str(s: &str) -> Result<GameKind, GameError> {
        let lower = s.trim().to_ascii_lowercase();
        let name = if lower == "chess-battle" { "chessbattle" } else { lower.as_str() };
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| GameError::UnknownGame(s.chars().take(32).collect()))
    }
}
