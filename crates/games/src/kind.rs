//! The registry of game names, generated from [`crate::registry!`].

use crate::GameError;
use cannonade_core::{Board, Game};

macro_rules! define_kind {
    (() $($kind:ident => $ty:ty $(, $dealt:ident => $dty:ty)?;)*) => {
        /// Every game of Cannonade, named the same way everywhere (CLI, `UCI_Variant`, wire,
        /// store): `xiangqi`, `banqi`, `chessbattle`, `commander`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $(
                #[doc = concat!("The game registered as `", stringify!($kind), "`.")]
                $kind,
            )*
        }

        impl GameKind {
            /// All games, in registry order.
            pub const ALL: [GameKind; [$(GameKind::$kind),*].len()] = [$(GameKind::$kind),*];

            /// The registry name: `xiangqi`, `banqi`, `chessbattle`, `commander`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(GameKind::$kind => <$ty as Game>::NAME,)*
                }
            }

            /// The name people read.
            pub const fn title(self) -> &'static str {
                match self {
                    $(GameKind::$kind => <$ty as Game>::TITLE,)*
                }
            }

            /// The game's board, as clients draw it.
            pub fn board(self) -> Board {
                match self {
                    $(GameKind::$kind => <$ty as Game>::board(),)*
                }
            }
        }
    };
}

crate::registry!(define_kind);

impl GameKind {
    /// Whether this build plays the game (every registered game).
    pub fn available(self) -> bool {
        true
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

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        GameKind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            serde::de::Error::custom(GameError::UnknownGame(name.chars().take(32).collect()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_serde() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), kind);
        }
        assert_eq!("Chess-Battle".parse::<GameKind>(), Ok(GameKind::ChessBattle));
        assert!("chess".parse::<GameKind>().is_err());
        assert!(serde_json::from_str::<GameKind>("\"chess\"").is_err());
    }
}
