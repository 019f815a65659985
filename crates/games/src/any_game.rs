//! A position of any game, and a move of any game.

use crate::{GameError, GameKind};
use cannonade_banqi as banqi;
use cannonade_battle as battle;
use cannonade_commander as commander;
use cannonade_core::{MoveBuf, Next, Rules, Side, Weighted};
use cannonade_xiangqi as xiangqi;

/// A valid position of one of the games.
// Positions live here only at the edges (a handful per request), never in search, so the
// size of the largest one (Commander's) costs nothing worth a box and its allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Xiangqi.
    Xiangqi(xiangqi::Position),
    /// Banqi as everybody sees it: face-down identities do not exist here; flips are chance.
    Banqi(banqi::Position),
    /// Banqi with the deal (tests, local games, archives): never sent to a client.
    BanqiDealt(banqi::FullPosition),
    /// Chess-Battle.
    ChessBattle(battle::Position),
    /// Commander Chess.
    Commander(commander::Position),
}

/// A checked move of one of the games. It belongs to the position it was checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A Xiangqi move.
    Xiangqi(xiangqi::Move),
    /// A Banqi move (public or dealt).
    Banqi(banqi::Move),
    /// A Chess-Battle move.
    ChessBattle(battle::Move),
    /// A Commander Chess turn (a deploy of several steps is one turn).
    Commander(commander::Move),
}

/// Runs the same expression on whichever position the enum holds.
macro_rules! each {
    ($game:expr, $p:ident => $body:expr) => {
        match $game {
            AnyGame::Xiangqi($p) => $body,
            AnyGame::Banqi($p) => $body,
            AnyGame::BanqiDealt($p) => $body,
            AnyGame::ChessBattle($p) => $body,
            AnyGame::Commander($p) => $body,
        }
    };
}

/// Lists a position's legal moves as `AnyMove`s.
fn listed<G: Rules>(p: &G, wrap: impl Fn(G::Move) -> AnyMove) -> Vec<AnyMove> {
    let mut buf = MoveBuf::new();
    p.legal_moves(&mut buf);
    buf.iter().map(|&m| wrap(m)).collect()
}

fn position_error(e: impl std::fmt::Display) -> GameError {
    GameError::Position(e.to_string())
}

fn move_error(e: impl std::fmt::Display) -> GameError {
    GameError::Move(e.to_string())
}

impl AnyGame {
    /// The standard starting position of a game. Banqi starts all face down, so its public
    /// start holds no deal.
    pub fn start(kind: GameKind) -> Result<AnyGame, GameError> {
        match kind {
            GameKind::Xiangqi => Ok(AnyGame::Xiangqi(xiangqi::Position::startpos())),
            GameKind::Banqi => Ok(AnyGame::Banqi(banqi::Position::startpos())),
            GameKind::ChessBattle => Ok(AnyGame::ChessBattle(battle::Position::startpos())),
            GameKind::Commander => Ok(AnyGame::Commander(commander::Position::startpos())),
        }
    }

    /// Reads a position in the game's notation: FEN for Xiangqi, public or full BFEN for
    /// Banqi, BFEN for Chess-Battle.
    pub fn from_fen(kind: GameKind, text: &str) -> Result<AnyGame, GameError> {
        match kind {
            GameKind::Xiangqi => {
                xiangqi::Position::from_fen(text).map(AnyGame::Xiangqi).map_err(position_error)
            }
            GameKind::Banqi => {
                match banqi::AnyPosition::from_fen_with(text, banqi::Options::default())
                    .map_err(position_error)?
                {
                    banqi::AnyPosition::Public(p) => Ok(AnyGame::Banqi(p)),
                    banqi::AnyPosition::Full(f) => Ok(AnyGame::BanqiDealt(f)),
                }
            }
            GameKind::ChessBattle => {
                battle::Position::from_fen(text).map(AnyGame::ChessBattle).map_err(position_error)
            }
            GameKind::Commander => {
                commander::Position::from_fen(text).map(AnyGame::Commander).map_err(position_error)
            }
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Xiangqi(_) => GameKind::Xiangqi,
            AnyGame::Banqi(_) | AnyGame::BanqiDealt(_) => GameKind::Banqi,
            AnyGame::ChessBattle(_) => GameKind::ChessBattle,
            AnyGame::Commander(_) => GameKind::Commander,
        }
    }

    /// What everybody may see: the same position, with a Banqi deal removed.
    pub fn public(&self) -> AnyGame {
        match self {
            AnyGame::BanqiDealt(f) => AnyGame::Banqi(f.redact()),
            other => other.clone(),
        }
    }

    /// The position in the game's notation (a dealt Banqi position writes its full BFEN).
    pub fn fen(&self) -> String {
        each!(self, p => p.fen())
    }

    /// Applies rule options written `key=value,key=value` (Xiangqi: `repetition=seed|asian`;
    /// Banqi: the options of its rules §10). Unknown options and values are errors, never
    /// ignored.
    pub fn apply_options(&mut self, spec: &str) -> Result<(), GameError> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Ok(());
        }
        match self {
            AnyGame::Xiangqi(p) => {
                let mut options = p.options();
                for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match item.split_once('=') {
                        Some(("repetition", value)) => {
                            options.repetition = xiangqi::RepetitionRule::parse(value.trim())
                                .ok_or_else(|| {
                                    position_error(format!(
                                        "repetition must be seed or asian, not '{value}'"
                                    ))
                                })?;
                        }
                        _ => {
                            return Err(position_error(format!(
                                "Xiangqi has no option '{item}' (it has repetition=seed|asian)"
                            )));
                        }
                    }
                }
                *p = p.clone().with_options(options);
            }
            AnyGame::Banqi(p) => {
                let options: banqi::Options = spec.parse().map_err(position_error)?;
                *p = p.clone().with_options(options);
            }
            AnyGame::BanqiDealt(p) => {
                let options: banqi::Options = spec.parse().map_err(position_error)?;
                *p = p.clone().with_options(options);
            }
            AnyGame::ChessBattle(_) | AnyGame::Commander(_) => {
                return Err(position_error(format!(
                    "{} has no rule options ('{spec}')",
                    self.kind().title()
                )));
            }
        }
        Ok(())
    }

    /// The rule options as `key=value,…` (empty when the game has none).
    pub fn options(&self) -> String {
        match self {
            AnyGame::Xiangqi(p) => format!("repetition={}", p.options().repetition.as_str()),
            AnyGame::Banqi(p) => p.options().to_string(),
            AnyGame::BanqiDealt(p) => p.options().to_string(),
            AnyGame::ChessBattle(_) | AnyGame::Commander(_) => String::new(),
        }
    }

    /// Who acts next, by the position alone.
    pub fn next(&self) -> Next {
        each!(self, p => p.next())
    }

    /// The seat to move (or to move after a pending chance event).
    pub fn mover(&self) -> Side {
        each!(self, p => p.mover())
    }

    /// Whether the side to move is in check (false in games without check).
    pub fn in_check(&self) -> bool {
        match self {
            AnyGame::Xiangqi(p) => p.in_check(),
            AnyGame::ChessBattle(p) => p.in_check(),
            AnyGame::Commander(p) => p.in_check(),
            AnyGame::Banqi(_) | AnyGame::BanqiDealt(_) => false,
        }
    }

    /// The square of the side to move's royal piece (general, headquarter, Commander) while
    /// it is in check, named as the game names squares; `None` when not in check.
    pub fn check_square(&self) -> Option<String> {
        if !self.in_check() {
            return None;
        }
        match self {
            AnyGame::Xiangqi(p) => Some(p.general(p.side_to_move()).to_string()),
            AnyGame::ChessBattle(p) => Some(p.headquarter(p.side_to_move()).to_string()),
            AnyGame::Commander(p) => p.commander(p.turn()).map(commander::board::name),
            AnyGame::Banqi(_) | AnyGame::BanqiDealt(_) => None,
        }
    }

    /// The colour of each seat's pieces (first seat first): fixed in every game but Banqi,
    /// where the first flip decides them (`None` until then).
    pub fn seat_colours(&self) -> Option<[&'static str; 2]> {
        let banqi = |p: &banqi::Position| match p.colour_of(Side::First)? {
            banqi::Colour::Red => Some(["red", "black"]),
            banqi::Colour::Black => Some(["black", "red"]),
        };
        match self {
            AnyGame::Xiangqi(_) => Some(["red", "black"]),
            AnyGame::Banqi(p) => banqi(p),
            AnyGame::BanqiDealt(p) => banqi(p.public()),
            AnyGame::ChessBattle(_) => Some(["red", "white"]),
            AnyGame::Commander(_) => Some(["red", "blue"]),
        }
    }

    /// Commander Chess: the points under each seat's air defence (first seat first, section
    /// 8 of its rules), as its move generation sees them. `None` in the other games.
    pub fn air_defence(&self) -> Option<[Vec<String>; 2]> {
        let AnyGame::Commander(p) = self else {
            return None;
        };
        Some([0, 1].map(|c| p.air_defence(c).iter().map(commander::board::name).collect()))
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Xiangqi(p) => listed(p, AnyMove::Xiangqi),
            AnyGame::Banqi(p) => listed(p, AnyMove::Banqi),
            AnyGame::BanqiDealt(p) => listed(p, AnyMove::Banqi),
            AnyGame::ChessBattle(p) => listed(p, AnyMove::ChessBattle),
            AnyGame::Commander(p) => listed(p, AnyMove::Commander),
        }
    }

    /// Reads a move in any of the game's notations and checks it.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, GameError> {
        match self {
            AnyGame::Xiangqi(p) => p.parse_move(text).map(AnyMove::Xiangqi).map_err(move_error),
            AnyGame::Banqi(p) => p.parse_move(text).map(AnyMove::Banqi).map_err(move_error),
            AnyGame::BanqiDealt(p) => p.parse_move(text).map(AnyMove::Banqi).map_err(move_error),
            AnyGame::ChessBattle(p) => {
                p.parse_move(text).map(AnyMove::ChessBattle).map_err(move_error)
            }
            AnyGame::Commander(p) => p.parse_move(text).map(AnyMove::Commander).map_err(move_error),
        }
    }

    /// The canonical text of a move of this position.
    pub fn move_text(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Xiangqi(p), AnyMove::Xiangqi(m)) => p.move_to_string(m),
            (AnyGame::Banqi(p), AnyMove::Banqi(m)) => p.move_to_string(m),
            (AnyGame::BanqiDealt(p), AnyMove::Banqi(m)) => p.move_to_string(m),
            (AnyGame::ChessBattle(p), AnyMove::ChessBattle(m)) => p.move_to_string(m),
            (AnyGame::Commander(p), AnyMove::Commander(m)) => p.move_to_string(m),
            _ => String::from("?"),
        }
    }

    /// The move as the engine protocol writes it: Banqi's compact form (`d2d2` for a flip),
    /// the canonical text elsewhere.
    pub fn engine_move_text(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Banqi(p), AnyMove::Banqi(m)) => p.move_to_compact(m),
            (AnyGame::BanqiDealt(p), AnyMove::Banqi(m)) => p.move_to_compact(m),
            _ => self.move_text(mv),
        }
    }

    /// The move as people read it (WXF for Xiangqi).
    pub fn display_move(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Xiangqi(p), AnyMove::Xiangqi(m)) => p.wxf(m),
            _ => self.move_text(mv),
        }
    }

    /// Plays a move checked against this position.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), GameError> {
        match (self, mv) {
            (AnyGame::Xiangqi(p), AnyMove::Xiangqi(m)) => p.play(m),
            (AnyGame::Banqi(p), AnyMove::Banqi(m)) => p.play(m),
            (AnyGame::BanqiDealt(p), AnyMove::Banqi(m)) => p.play(m),
            (AnyGame::ChessBattle(p), AnyMove::ChessBattle(m)) => p.play(m),
            (AnyGame::Commander(p), AnyMove::Commander(m)) => p.play(m),
            _ => return Err(GameError::WrongGame),
        }
        Ok(())
    }

    /// The outcomes of a pending chance event as text (a Banqi piece letter) with weights.
    pub fn chance_outcomes(&self) -> Vec<(String, u32)> {
        match self {
            AnyGame::Banqi(p) => {
                let mut out: Vec<Weighted<banqi::Piece>> = Vec::new();
                p.chance_outcomes(&mut out);
                out.iter().map(|w| (w.outcome.letter().to_string(), w.weight)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Resolves a pending chance event with an outcome named as by
    /// [`AnyGame::chance_outcomes`].
    pub fn resolve_text(&mut self, text: &str) -> Result<(), GameError> {
        let AnyGame::Banqi(p) = self else {
            return Err(move_error("no chance event is pending"));
        };
        let mut out = Vec::new();
        p.chance_outcomes(&mut out);
        let piece = text
            .chars()
            .next()
            .filter(|_| text.chars().count() == 1)
            .and_then(banqi::Piece::from_letter)
            .filter(|piece| out.iter().any(|w| w.outcome == *piece))
            .ok_or_else(|| move_error(format!("'{text}' is not a possible flip result here")))?;
        p.resolve(piece);
        Ok(())
    }

    /// Perft: leaves of the legal-move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        each!(self, p => cannonade_core::perft(p, depth))
    }

    /// Perft split by first move, as `(engine move text, leaves)`; `progress` sees each root
    /// move.
    pub fn divide(&self, depth: u32, mut progress: impl FnMut(&str, u64)) -> Vec<(String, u64)> {
        let (moves, counts): (Vec<AnyMove>, Vec<u64>) = match self {
            AnyGame::Xiangqi(p) => {
                split(cannonade_core::divide(p, depth, |_, _| {}), AnyMove::Xiangqi)
            }
            AnyGame::Banqi(p) => split(cannonade_core::divide(p, depth, |_, _| {}), AnyMove::Banqi),
            AnyGame::BanqiDealt(p) => {
                split(cannonade_core::divide(p, depth, |_, _| {}), AnyMove::Banqi)
            }
            AnyGame::ChessBattle(p) => {
                split(cannonade_core::divide(p, depth, |_, _| {}), AnyMove::ChessBattle)
            }
            AnyGame::Commander(p) => {
                split(cannonade_core::divide(p, depth, |_, _| {}), AnyMove::Commander)
            }
        };
        moves
            .into_iter()
            .zip(counts)
            .map(|(m, n)| {
                let text = self.engine_move_text(m);
                progress(&text, n);
                (text, n)
            })
            .collect()
    }

    /// Number of legal moves.
    pub fn count_legal(&self) -> u64 {
        each!(self, p => p.count_legal())
    }

    /// A readable board diagram.
    pub fn pretty(&self) -> String {
        each!(self, p => p.pretty())
    }

    /// The position's hash.
    pub fn hash(&self) -> u64 {
        each!(self, p => Rules::hash(p))
    }
}

fn split<M>(parts: Vec<(M, u64)>, wrap: impl Fn(M) -> AnyMove) -> (Vec<AnyMove>, Vec<u64>) {
    parts.into_iter().map(|(m, n)| (wrap(m), n)).unzip()
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

impl From<xiangqi::Position> for AnyGame {
    fn from(p: xiangqi::Position) -> AnyGame {
        AnyGame::Xiangqi(p)
    }
}

impl From<banqi::Position> for AnyGame {
    fn from(p: banqi::Position) -> AnyGame {
        AnyGame::Banqi(p)
    }
}

impl From<banqi::FullPosition> for AnyGame {
    fn from(p: banqi::FullPosition) -> AnyGame {
        AnyGame::BanqiDealt(p)
    }
}

impl From<battle::Position> for AnyGame {
    fn from(p: battle::Position) -> AnyGame {
        AnyGame::ChessBattle(p)
    }
}

impl From<commander::Position> for AnyGame {
    fn from(p: commander::Position) -> AnyGame {
        AnyGame::Commander(p)
    }
}
