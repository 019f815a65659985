//! A position of any game, and a move of any game: enums generated from the registry, with
//! every method written once over [`cannonade_core::Game`].

use crate::{AnyHistory, GameError, GameKind};
use cannonade_core::{Game, Hidden, MoveBuf, Next, Read, Record, Rules, Side, Weighted, Zone};

/// A game type in the registry: how its values enter the enums over all games. Implemented
/// for every registered type by the registry itself.
pub trait Registered: Game {
    /// The game it is a position of.
    const KIND: GameKind;
    /// Its move as a move of any game.
    fn wrap_move(mv: Self::Move) -> AnyMove;
    /// A move of any game as its move, `None` when the move belongs to another game.
    fn unwrap_move(mv: AnyMove) -> Option<Self::Move>;
    /// The position as a position of any game.
    fn into_game(self) -> AnyGame;
    /// A history of this game as a history of any game.
    fn into_history(record: Record<Self>) -> AnyHistory;
}

macro_rules! define_any_game {
    (() $($kind:ident => $ty:ty $(, $dealt:ident => $dty:ty)?;)*) => {
        /// A valid position of one of the games. A game that can hold secrets has a second
        /// variant for positions that hold them (`BanqiDealt`: Banqi with its deal, for the
        /// server's private state, tests and archives — never sent to a client).
        // Positions live here only at the edges (a handful per request), never in search, so
        // the size of the largest one (Commander's) costs nothing worth a box.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyGame {
            $(
                #[doc = concat!("A position of `", stringify!($kind), "`.")]
                $kind($ty),
                $(
                    #[doc = concat!("A position of `", stringify!($kind), "` with its secrets.")]
                    $dealt($dty),
                )?
            )*
        }

        /// A checked move of one of the games. It belongs to the position it was checked
        /// against (a move of a game with secrets serves both of its position types).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AnyMove {
            $(
                #[doc = concat!("A move of `", stringify!($kind), "`.")]
                $kind(<$ty as Rules>::Move),
            )*
        }

        $(
            define_any_game!(@registered $kind, $kind, $ty);
            $(define_any_game!(@registered $kind, $dealt, $dty);)?
        )*

        impl AnyGame {
            /// The standard starting position of a game, as everybody sees it (Banqi starts
            /// all face down, so its public start holds no deal).
            pub fn start(kind: GameKind) -> Result<AnyGame, GameError> {
                match kind {
                    $(GameKind::$kind => Ok(AnyGame::$kind(<$ty as Game>::start())),)*
                }
            }

            /// Reads and validates a position in the game's notation: FEN for Xiangqi and
            /// Commander Chess, public or full BFEN for Banqi, BFEN for Chess-Battle.
            pub fn from_fen(kind: GameKind, text: &str) -> Result<AnyGame, GameError> {
                match kind {
                    $(GameKind::$kind => define_any_game!(@read text, $kind, $ty $(, $dealt, $dty)?),)*
                }
            }

            /// Which game this is.
            pub fn kind(&self) -> GameKind {
                match self {
                    $(
                        AnyGame::$kind(_) => GameKind::$kind,
                        $(AnyGame::$dealt(_) => GameKind::$kind,)?
                    )*
                }
            }

            /// What everybody may see: the same position, with any secrets removed.
            pub fn public(&self) -> AnyGame {
                match self {
                    $(
                        AnyGame::$kind(p) => AnyGame::$kind(Game::public(p)),
                        $(AnyGame::$dealt(p) => AnyGame::$kind(Game::public(p)),)?
                    )*
                }
            }
        }
    };
    // A registered type: `$variant` of `AnyGame`, moves of `$kind`.
    (@registered $kind:ident, $variant:ident, $ty:ty) => {
        impl Registered for $ty {
            const KIND: GameKind = GameKind::$kind;
            fn wrap_move(mv: Self::Move) -> AnyMove {
                AnyMove::$kind(mv)
            }
            #[allow(unreachable_patterns)]
            fn unwrap_move(mv: AnyMove) -> Option<Self::Move> {
                match mv {
                    AnyMove::$kind(m) => Some(m),
                    _ => None,
                }
            }
            fn into_game(self) -> AnyGame {
                AnyGame::$variant(self)
            }
            fn into_history(record: Record<Self>) -> AnyHistory {
                AnyHistory::$variant(record)
            }
        }

        impl From<$ty> for AnyGame {
            fn from(p: $ty) -> AnyGame {
                AnyGame::$variant(p)
            }
        }
    };
    (@read $text:ident, $kind:ident, $ty:ty) => {
        <$ty as Game>::from_fen($text).map(AnyGame::$kind).map_err(position_error)
    };
    (@read $text:ident, $kind:ident, $ty:ty, $dealt:ident, $dty:ty) => {
        match <$dty as Hidden>::read($text).map_err(position_error)? {
            Read::Full(p) => Ok(AnyGame::$dealt(p)),
            Read::Public(p) => Ok(AnyGame::$kind(p)),
        }
    };
}

crate::registry!(define_any_game);

fn position_error(e: impl std::fmt::Display) -> GameError {
    GameError::Position(e.to_string())
}

fn move_error(e: impl std::fmt::Display) -> GameError {
    GameError::Move(e.to_string())
}

/// Lists a position's legal moves as `AnyMove`s.
fn listed<G: Registered>(p: &G) -> Vec<AnyMove> {
    let mut buf = MoveBuf::new();
    p.legal_moves(&mut buf);
    buf.iter().map(|&m| G::wrap_move(m)).collect()
}

/// `write` of a move of this position, `None` when the move belongs to another game.
fn with_move<G: Registered, T>(
    p: &G,
    mv: AnyMove,
    write: impl FnOnce(&G, G::Move) -> T,
) -> Option<T> {
    G::unwrap_move(mv).map(|m| write(p, m))
}

/// Reads a move of `p` as a move of any game.
fn parsed<G: Registered>(p: &G, text: &str) -> Result<AnyMove, GameError> {
    p.parse_move(text).map(G::wrap_move).map_err(move_error)
}

/// Plays `mv` in `p`, `None` when the move belongs to another game.
fn played<G: Registered>(p: &mut G, mv: AnyMove) -> Option<()> {
    G::unwrap_move(mv).map(|m| p.play(m))
}

/// The outcomes of a pending chance event as text with their weights.
fn chances<G: Registered>(p: &G) -> Vec<(String, u32)> {
    let mut out: Vec<Weighted<G::Chance>> = Vec::new();
    p.chance_outcomes(&mut out);
    out.iter().map(|w| (p.chance_text(w.outcome), w.weight)).collect()
}

/// `mv` recorded with each outcome of the chance event it starts, with the outcomes'
/// weights; empty when it starts none (or is not a move of this game).
fn resolutions<G: Registered>(p: &G, mv: AnyMove) -> Vec<(String, u32)> {
    let Some(m) = G::unwrap_move(mv) else { return Vec::new() };
    let mut after = p.clone();
    after.play(m);
    let mut out: Vec<Weighted<G::Chance>> = Vec::new();
    after.chance_outcomes(&mut out);
    out.iter().map(|w| (p.resolved_move(m, w.outcome), w.weight)).collect()
}

/// Perft split by first move, as `(engine move text, leaves)`.
fn divided<G: Registered>(
    p: &G,
    depth: u32,
    progress: &mut dyn FnMut(&str, u64),
) -> Vec<(String, u64)> {
    cannonade_core::divide(p, depth, |_, _| {})
        .into_iter()
        .map(|(m, n)| {
            let text = p.engine_move(m);
            progress(&text, n);
            (text, n)
        })
        .collect()
}

impl AnyGame {
    /// The position in the game's notation (a dealt Banqi position writes its full BFEN).
    pub fn fen(&self) -> String {
        crate::each_game!(self, p => Game::fen(p))
    }

    /// Applies rule options written `key=value,key=value` (Xiangqi: `repetition=seed|asian`;
    /// Banqi: the options of its rules §10). Options not named take their defaults; unknown
    /// options and values are errors, never ignored.
    pub fn apply_options(&mut self, spec: &str) -> Result<(), GameError> {
        *self = crate::each_game!(&*self, p => {
            Game::with_options(p, spec).map(Registered::into_game).map_err(position_error)?
        });
        Ok(())
    }

    /// The rule options as `key=value,…` (empty when the game has none).
    pub fn options(&self) -> String {
        crate::each_game!(self, p => Game::options(p))
    }

    /// Who acts next, by the position alone.
    pub fn next(&self) -> Next {
        crate::each_game!(self, p => Rules::next(p))
    }

    /// The seat to move (or to move after a pending chance event).
    pub fn mover(&self) -> Side {
        crate::each_game!(self, p => Rules::mover(p))
    }

    /// Whether the side to move is in check (false in games without check).
    pub fn in_check(&self) -> bool {
        crate::each_game!(self, p => Game::in_check(p))
    }

    /// The square of the side to move's royal piece (general, headquarter, Commander) while
    /// it is in check, named as the game names squares; `None` when not in check.
    pub fn check_square(&self) -> Option<String> {
        crate::each_game!(self, p => Game::check_square(p))
    }

    /// The colour of each seat's pieces (first seat first): fixed in every game but Banqi,
    /// where the first flip decides them (`None` until then).
    pub fn seat_colours(&self) -> Option<[&'static str; 2]> {
        crate::each_game!(self, p => Game::seat_colours(p))
    }

    /// The units on the board as `(square, unit text)`, as everybody sees them (a face-down
    /// Banqi piece is `X` even in a dealt position).
    pub fn placement(&self) -> Vec<(String, String)> {
        crate::each_game!(self, p => Game::placement(p))
    }

    /// Zones drawn over the position (Commander Chess's air defence per seat).
    pub fn zones(&self) -> Vec<Zone> {
        crate::each_game!(self, p => Game::zones(p))
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        crate::each_game!(self, p => listed(p))
    }

    /// Reads a move in any of the game's notations and checks it.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, GameError> {
        crate::each_game!(self, p => parsed(p, text).map_err(move_error))
    }

    /// The canonical text of a move of this position (`?` for a move of another game).
    pub fn move_text(&self, mv: AnyMove) -> String {
        crate::each_game!(self, p => with_move(p, mv, Game::move_text))
            .unwrap_or_else(|| "?".into())
    }

    /// The move as the engine protocol writes it: Banqi's compact form (`d2d2` for a flip),
    /// the canonical text elsewhere.
    pub fn engine_move_text(&self, mv: AnyMove) -> String {
        crate::each_game!(self, p => with_move(p, mv, Game::engine_move))
            .unwrap_or_else(|| "?".into())
    }

    /// The move as people read it (WXF for Xiangqi).
    pub fn display_move(&self, mv: AnyMove) -> String {
        crate::each_game!(self, p => with_move(p, mv, Game::display_move))
            .unwrap_or_else(|| "?".into())
    }

    /// Plays a move checked against this position.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), GameError> {
        crate::each_game!(self, p => played(p, mv)).ok_or(GameError::WrongGame)
    }

    /// The outcomes of a pending chance event as text (a Banqi piece letter) with weights.
    pub fn chance_outcomes(&self) -> Vec<(String, u32)> {
        crate::each_game!(self, p => chances(p))
    }

    /// The move `mv` recorded with each outcome of the chance event it starts (a Banqi flip
    /// as `d2=C`, `d2=p`, …, each with its weight), for a board where a person decides what
    /// comes up; empty for a move that starts none.
    pub fn resolutions(&self, mv: AnyMove) -> Vec<(String, u32)> {
        crate::each_game!(self, p => resolutions(p, mv))
    }

    /// Resolves a pending chance event with an outcome named as by
    /// [`AnyGame::chance_outcomes`].
    pub fn resolve_text(&mut self, text: &str) -> Result<(), GameError> {
        crate::each_game!(self, p => match Game::parse_chance(p, text) {
            Some(c) => {
                Rules::resolve(p, c);
                Ok(())
            }
            None if !Rules::chance_pending(p) => Err(move_error("no chance event is pending")),
            None => Err(move_error(format!(
                "'{}' is not a possible outcome here",
                text.chars().take(16).collect::<String>()
            ))),
        })
    }

    /// Perft: leaves of the legal-move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        crate::each_game!(self, p => cannonade_core::perft(p, depth))
    }

    /// Perft split by first move, as `(engine move text, leaves)`; `progress` sees each root
    /// move.
    pub fn divide(&self, depth: u32, mut progress: impl FnMut(&str, u64)) -> Vec<(String, u64)> {
        crate::each_game!(self, p => divided(p, depth, &mut progress))
    }

    /// Number of legal moves.
    pub fn count_legal(&self) -> u64 {
        crate::each_game!(self, p => Rules::count_legal(p))
    }

    /// A readable board diagram.
    pub fn pretty(&self) -> String {
        crate::each_game!(self, p => Game::pretty(p))
    }

    /// The position's hash.
    pub fn hash(&self) -> u64 {
        crate::each_game!(self, p => Rules::hash(p))
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
