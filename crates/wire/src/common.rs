//! Small types shared by several messages.

use cannonade_core::Side;
use cannonade_games::{AnyGame, AnyMove, GameKind};
use serde::{Deserialize, Serialize};

/// A seat at the table: `first` moves first (Xiangqi's and Chess-Battle's Red; Banqi's colours
/// are decided by the first flip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The seat that moves first.
    First,
    /// The other seat.
    Second,
}

impl From<Side> for Seat {
    fn from(side: Side) -> Seat {
        match side {
            Side::First => Seat::First,
            Side::Second => Seat::Second,
        }
    }
}

impl From<Seat> for Side {
    fn from(seat: Seat) -> Side {
        match seat {
            Seat::First => Side::First,
            Seat::Second => Side::Second,
        }
    }
}

/// What a socket is in a game: one seat, both seats (hot-seat), or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The player of the first seat.
    First,
    /// The player of the second seat.
    Second,
    /// One client holding both seats (hot-seat).
    Both,
    /// Watching.
    Spectator,
}

impl Role {
    /// Whether this role may act for `seat`.
    pub fn holds(self, seat: Seat) -> bool {
        matches!(
            (self, seat),
            (Role::Both, _) | (Role::First, Seat::First) | (Role::Second, Seat::Second)
        )
    }

    /// Whether this role is a player's (not a spectator's).
    pub fn is_player(self) -> bool {
        self != Role::Spectator
    }
}

/// A clock setting. `initial_ms = 0` means no clock (untimed).
///
/// A correspondence clock (`days_per_move`, 1–14) gives each move that many days: the
/// mover's time is set back to the whole period after each of their moves, with no
/// increment. It is sent as `initial_ms` = the days in milliseconds and `increment_ms` = 0
/// as well, so a reader that knows only those two fields sees a clock of the right length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time each seat starts with, in milliseconds.
    pub initial_ms: u64,
    /// Time added after each of the seat's moves, in milliseconds.
    pub increment_ms: u64,
    /// Correspondence: days per move (absent for a clock of minutes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
}

/// A day in milliseconds.
pub const DAY_MS: u64 = 24 * 3600 * 1000;

impl TimeControl {
    /// A clock of `initial_ms` and `increment_ms` a move.
    pub const fn fischer(initial_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl { initial_ms, increment_ms, days_per_move: None }
    }

    /// A correspondence clock of `days` per move.
    pub const fn correspondence(days: u32) -> TimeControl {
        TimeControl { initial_ms: days as u64 * DAY_MS, increment_ms: 0, days_per_move: Some(days) }
    }

    /// Whether the game is played without a clock.
    pub fn untimed(self) -> bool {
        self.initial_ms == 0
    }

    /// Whether this is a correspondence clock (days per move).
    pub fn is_correspondence(self) -> bool {
        self.days_per_move.is_some()
    }
}

/// A rating range as a seeker asks for it: within `around` points of the seeker's own
/// rating (in the seek's game and speed), and/or between `min` and `max`. The server turns
/// it into a [`RatingRange`] when the seek is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeRequest {
    /// At most this many points from the seeker's rating, either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub around: Option<u32>,
    /// The lowest rating that may take the seek.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// The highest rating that may take the seek.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// The ratings that may see and take a seek, both ends included, as the server settled it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingRange {
    /// The lowest rating.
    pub min: u32,
    /// The highest rating.
    pub max: u32,
}

impl RatingRange {
    /// Whether `rating` lies in the range.
    pub fn admits(self, rating: i64) -> bool {
        i64::from(self.min) <= rating && rating <= i64::from(self.max)
    }
}

/// The clocks as the server measures them at the moment the message is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Time left per seat (`[first, second]`), in milliseconds.
    pub remaining_ms: [u64; 2],
    /// The seat whose clock is running, if any: the client counts it down locally.
    pub running: Option<Seat>,
    /// Commander Chess's scored formats: the game timer, time left for the whole game in
    /// milliseconds. It runs whenever a seat's clock runs; when it reaches zero the game is
    /// decided on points. Absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_ms: Option<u64>,
}

/// Kinds of offers a player can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    /// End the game as a draw.
    Draw,
    /// Take back the last move (casual games only).
    Takeback,
    /// Play again with seats swapped, after the end.
    Rematch,
}

/// Chat rooms of a game: players talk in one, spectators in the other; players never see the
/// spectators' room while the game runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The players' room (spectators read it too).
    Players,
    /// The spectators' room.
    Spectators,
}

/// Who a socket belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    /// Stable user id.
    pub id: String,
    /// Display name (anonymous users get `anon-` and their id).
    pub name: String,
    /// Whether this is an account with a password (only accounts play rated games).
    pub account: bool,
}

/// A seated player as everybody sees them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name (`AI level 3` for the engine).
    pub name: String,
    /// Rating in this game's game and speed at its start, for accounts in rated games (1500
    /// for one not yet rated there).
    pub rating: Option<i32>,
    /// The rating is provisional (deviation above 110): shown with `?`. Left out when not.
    #[serde(default, skip_serializing_if = "is_false")]
    pub provisional: bool,
    /// Whether the engine plays this seat.
    pub ai: bool,
    /// Whether at least one socket of this player is connected.
    pub online: bool,
}

/// For `skip_serializing_if`: a `false` flag is left out of the JSON.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// A legal move: its text to send back in [`crate::ClientMsg::Move`], the squares it names
/// in order (from first, destination last; a Banqi flip names one square, a chain every
/// landing), so a client can offer it by clicks without knowing any rule, and how people
/// read it (to tell apart moves on the same squares).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// The move text.
    pub mv: String,
    /// The squares the move names, in order.
    pub squares: Vec<String>,
    /// The move in the game's notation as people read it (WXF for Xiangqi).
    pub display: String,
    /// What moves at each step, when a square may hold several pieces (Commander Chess's
    /// stacks): the unit text (`T`, `(FT)`, `+I`) that goes from the first square to
    /// `squares[i + 1]` at step `i`. A client lets the player pick these pieces, then their
    /// square, one step at a time. Empty (and not sent) in the other games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
}

impl LegalMove {
    /// The legal move `m` of `game`.
    pub fn of(game: &AnyGame, m: AnyMove) -> LegalMove {
        let mv = game.move_text(m);
        let units = step_units(game, &mv).map(str::to_string).collect();
        LegalMove { display: game.display_move(m), units, ..LegalMove::from_text(mv) }
    }

    /// The legal move for a move text (displayed as itself), with the squares read from it:
    /// every square name is one file letter followed by the rank's digits (`x` in `a1xa3` is
    /// not a file: it is followed by a letter).
    pub fn from_text(mv: String) -> LegalMove {
        let squares = square_names(&mv).map(str::to_string).collect();
        LegalMove { display: mv.clone(), mv, squares, units: Vec::new() }
    }

    /// The legal moves `moves` of `game` as a JSON list: the text that serialising their
    /// `LegalMove`s gives, written without building them (the server sends a list with every
    /// move, and building the structs cost more than writing the text).
    ///
    /// ```
    /// use cannonade_games::{AnyGame, GameKind};
    /// use cannonade_wire::LegalMove;
    /// let game = AnyGame::start(GameKind::Xiangqi).unwrap();
    /// let moves = game.legal_moves();
    /// let built: Vec<LegalMove> = moves.iter().map(|&m| LegalMove::of(&game, m)).collect();
    /// assert_eq!(LegalMove::list_json(&game, &moves), serde_json::to_string(&built).unwrap());
    /// ```
    pub fn list_json(game: &AnyGame, moves: &[AnyMove]) -> String {
        let texts: Vec<(String, String)> =
            moves.iter().map(|&m| (game.move_text(m), game.display_move(m))).collect();
        let list: Vec<LegalRef<'_>> = texts
            .iter()
            .map(|(mv, display)| LegalRef {
                mv,
                squares: Squares(mv),
                display,
                units: Units(game, mv),
            })
            .collect();
        serde_json::to_string(&list).unwrap_or_else(|_| "[]".into())
    }
}

/// The squares a move text names, in order, as slices of it (see [`LegalMove::from_text`]).
fn square_names(mv: &str) -> impl Iterator<Item = &str> {
    let bytes = mv.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if bytes[i].is_ascii_lowercase() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                return Some(&mv[start..i]);
            }
            i += 1;
        }
        None
    })
}

/// The unit texts a Commander Chess turn moves, step by step (see [`LegalMove::units`]),
/// read from the form of its text (section 14.3): `<unit><from><op><to>` moves one unit,
/// `<from>:<stay>:<unit>><op><to>,…` one unit per step. Nothing in the other games.
fn step_units<'a>(game: &AnyGame, mv: &'a str) -> impl Iterator<Item = &'a str> {
    let commander = game.kind() == GameKind::Commander;
    let deploy = mv.splitn(3, ':').nth(2).filter(|_| commander);
    let whole = (commander && deploy.is_none())
        .then(|| mv.find(|c: char| c.is_ascii_digit()).map(|d| &mv[..d.saturating_sub(1)]))
        .flatten();
    deploy
        .into_iter()
        .flat_map(|steps| steps.split(',').filter_map(|s| s.split('>').next()))
        .chain(whole)
}

/// A [`LegalMove`] borrowing its texts, serialised the same way.
#[derive(Serialize)]
struct LegalRef<'a> {
    mv: &'a str,
    squares: Squares<'a>,
    display: &'a str,
    #[serde(skip_serializing_if = "Units::is_empty")]
    units: Units<'a>,
}

/// The step units of a move text, serialised as their list.
struct Units<'a>(&'a AnyGame, &'a str);

impl Units<'_> {
    fn is_empty(&self) -> bool {
        step_units(self.0, self.1).next().is_none()
    }
}

impl Serialize for Units<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(step_units(self.0, self.1))
    }
}

/// The squares of a move text, serialised as the list of their names.
struct Squares<'a>(&'a str);

impl Serialize for Squares<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(square_names(self.0))
    }
}

/// A move of the game as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// The move in the game's recorded notation (a Banqi flip with its result: `d2=C`).
    pub mv: String,
    /// The move as people read it (WXF for Xiangqi).
    pub display: String,
    /// Who played it.
    pub seat: Seat,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winning seat, `None` for a draw or an aborted game.
    pub winner: Option<Seat>,
    /// Why (`checkmate`, `time`, `resignation`, … as `cannonade_core::Reason::as_str`).
    pub reason: String,
    /// Commander Chess's scored formats: each seat's total (`[first, second]`, objective bonus
    /// included) at the end, whatever the reason. Absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<[u32; 2]>,
}

/// The crowd's record for one seat: on how many of that seat's moves the spectators' most
/// proposed move was the move played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdSide {
    /// Moves where the crowd's favourite was played.
    pub agreed: u32,
    /// Moves that had at least one proposal.
    pub of: u32,
}

/// The crowd's record for a whole game ("the crowd agreed with Red on 31 of 48 moves").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdRecord {
    /// For the first seat's moves.
    pub first: CrowdSide,
    /// For the second seat's moves.
    pub second: CrowdSide,
}

/// Why a message was refused. Every refused message gets an [`crate::ServerMsg::Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol (the text says which field).
    BadMessage,
    /// The frame is larger than [`crate::MAX_CLIENT_MESSAGE`].
    TooLarge,
    /// Too many messages: this one was dropped.
    RateLimited,
    /// No such game, seek or invite.
    NotFound,
    /// The socket may not do this (not its seat, not a player, not an account…).
    Forbidden,
    /// It is the other seat's move.
    NotYourTurn,
    /// The move is not legal here (the text says why).
    IllegalMove,
    /// The `ply` sent is not the current one (a move crossed another event).
    StalePly,
    /// The game is over.
    GameOver,
    /// The request is well-formed but not valid now (no offer to accept, abort too late…).
    Invalid,
    /// The store failed: nothing was changed.
    Storage,
    /// The user holds as many live games, seeks or sockets as one may: finish or cancel
    /// one first (the text says which limit).
    LimitReached,
    /// The server failed; the text carries an error id to quote (the log has the rest).
    Internal,
    /// The socket's anonymous session was replaced by a login or registration from the
    /// same browser, and the socket closes: the page connects again with its new session.
    SessionReplaced,
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    /// The list the server writes is the list the structs serialise to, in every game and
    /// after a few moves (captures, shots and flips name their squares differently).
    #[test]
    fn the_written_legal_list_is_the_serialised_one() {
        for kind in GameKind::available_games() {
            let mut game = AnyGame::start(kind).unwrap();
            for ply in 0..12 {
                let moves = game.legal_moves();
                let built: Vec<LegalMove> =
                    moves.iter().map(|&m| LegalMove::of(&game, m)).collect();
                let written = LegalMove::list_json(&game, &moves);
                assert_eq!(written, serde_json::to_string(&built).unwrap(), "{kind:?} ply {ply}");
                let Some(&m) = moves.get(ply * 7 % moves.len().max(1)) else { break };
                game.play(m).unwrap();
                if !game.chance_outcomes().is_empty() {
                    let (piece, _) = game.chance_outcomes()[0].clone();
                    game.resolve_text(&piece).unwrap();
                }
            }
        }
    }

    /// Each step of a Commander turn names the unit that goes to the step's square; whole
    /// moves name the unit standing on the first square; other games name none.
    #[test]
    fn commander_steps_name_their_units() {
        let game = AnyGame::from_fen(
            GameKind::Commander,
            "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1",
        )
        .unwrap();
        let mut deploys = 0;
        for m in game.legal_moves() {
            let legal = LegalMove::of(&game, m);
            assert_eq!(legal.units.len(), legal.squares.len() - 1, "{}", legal.mv);
            if legal.squares[0] == "b3" {
                let stack = ["(NFT)", "N", "F", "T", "(FT)", "(NT)", "(NF)"];
                assert!(legal.units.iter().all(|u| stack.contains(&u.as_str())), "{}", legal.mv);
                deploys += usize::from(legal.mv.contains(':'));
            }
        }
        assert!(deploys > 0);
        let xiangqi = AnyGame::start(GameKind::Xiangqi).unwrap();
        let m = xiangqi.legal_moves()[0];
        assert!(LegalMove::of(&xiangqi, m).units.is_empty());
    }

    #[test]
    fn square_names_skip_letters_that_are_not_files() {
        let names: Vec<&str> = square_names("a1xa3").collect();
        assert_eq!(names, ["a1", "a3"]);
        assert_eq!(square_names("d2?").collect::<Vec<_>>(), ["d2"]);
        assert_eq!(square_names("k11-k12").collect::<Vec<_>>(), ["k11", "k12"]);
    }
}
