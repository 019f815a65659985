//! Messages from the server to a client.

use crate::analysis::{AnalysisStatus, CrowdPly, EngineLine};
use crate::common::{
    ClockState, CrowdRecord, ErrorCode, GameResult, LegalMove, MoveInfo, OfferKind, PlayerInfo,
    RatingRange, Role, Room, Seat, TimeControl, UserInfo,
};
use crate::event::GameEvent;
use crate::geometry::Geometry;
use crate::position::PublicPosition;
use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};

/// A seek in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekInfo {
    /// Its id (for `accept_seek`).
    pub id: String,
    /// Who seeks.
    pub by: String,
    /// The game.
    pub game: GameKind,
    /// Rule options.
    pub options: String,
    /// The clock.
    pub clock: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The seeker's rating in this game and speed (1500 for an account not yet rated
    /// there); absent for an anonymous seeker or an untimed seek.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// The seeker's rating is provisional (shown with `?`). Left out when not.
    #[serde(default, skip_serializing_if = "crate::common::is_false")]
    pub provisional: bool,
    /// Only players rated in this range (in the seek's game and speed) see and may take
    /// the seek; absent for a seek open to all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RatingRange>,
}

/// How a rated game moved its players' ratings, sent with its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChanges {
    /// The speed category the game counted in (`bullet`, `blitz`, `rapid`, `classical`).
    pub speed: String,
    /// Each seat's change, first seat first.
    pub seats: [RatingChange; 2],
}

/// One player's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The rating before, rounded.
    pub before: i64,
    /// The rating after, rounded.
    pub after: i64,
    /// `after - before`.
    pub diff: i64,
    /// The new rating is still provisional (deviation above 110: shown with `?`).
    pub provisional: bool,
}

/// A live game in the lobby's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Its id (for `watch`).
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The players' names, first seat first.
    pub players: [String; 2],
    /// Moves played.
    pub moves: u32,
    /// Spectators watching.
    pub spectators: u32,
}

/// A chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The room.
    pub room: Room,
    /// The writer's name.
    pub from: String,
    /// The text.
    pub text: String,
}

/// A proposed move and how many spectators propose it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyEntry {
    /// The move text.
    pub mv: String,
    /// The number of spectators proposing it.
    pub n: u32,
}

/// Everything about a game at version `v`, for a client that joins or lost track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The game id.
    pub game: String,
    /// The version of the last event included.
    pub v: u64,
    /// Which game.
    pub kind: GameKind,
    /// Rule options.
    pub options: String,
    /// Rated or casual.
    pub rated: bool,
    /// How to draw the board.
    pub geometry: Geometry,
    /// The start position.
    pub start: PublicPosition,
    /// The current position.
    pub position: PublicPosition,
    /// The moves played.
    pub moves: Vec<MoveInfo>,
    /// The players, first seat first.
    pub players: [PlayerInfo; 2],
    /// What this socket is in the game.
    pub you: Role,
    /// The clock setting.
    pub time_control: TimeControl,
    /// The clocks now.
    pub clock: ClockState,
    /// The legal moves of the seat to move; sent to that seat's player and to spectators
    /// (for proposals), `null` for the waiting player.
    pub legal: Option<Vec<LegalMove>>,
    /// Open offers.
    pub offers: Vec<(OfferKind, Seat)>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// Banqi: SHA-256 commitment to the deal's seed, published at the start.
    pub commitment: Option<String>,
    /// Banqi: the seed, revealed at the end.
    pub seed: Option<String>,
    /// Spectators watching.
    pub spectators: u32,
    /// Recent chat of the rooms this socket may read.
    pub chat: Vec<ChatLine>,
    /// The crowd's record: for spectators always, for players after the end.
    pub crowd: Option<CrowdRecord>,
    /// Spectators only: the plies already played whose crowd favourite the engine has
    /// judged so far (see [`ServerMsg::CrowdJudged`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crowd_judged: Vec<CrowdPly>,
    /// The rematch game, once agreed.
    pub rematch: Option<String>,
}

/// A game of the session's, as `GET /api/my-games` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PastGame {
    /// Its id (for `watch` and the game page).
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The players' names, first seat first.
    pub players: [String; 2],
    /// The session's seat in it (`both` for hot-seat).
    pub you: Role,
    /// The result, `None` while it is played.
    pub result: Option<GameResult>,
    /// When it started, in milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// The positions of a game for replay, as `GET /api/game/{id}/positions` sends them:
/// `positions[0]` is the start, `positions[k]` the position after `k` moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Positions {
    /// The game id.
    pub game: String,
    /// The event version they were taken at.
    pub v: u64,
    /// The start and the position after each move.
    pub positions: Vec<PublicPosition>,
}

/// A message from the server. JSON objects tagged by `t`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The first message on every socket: the protocol version and who the session is. The
    /// session comes with the upgrade request (cookie `cannonade_session`); a client without
    /// one gets a new anonymous session in the upgrade's answer (`Set-Cookie`). The token is
    /// never in a message.
    Welcome {
        /// [`crate::PROTOCOL_VERSION`].
        protocol: u32,
        /// Who this session is.
        user: UserInfo,
        /// The games this server plays (a seek for another is refused).
        games: Vec<GameKind>,
    },
    /// Answer to `ping`.
    Pong {
        /// The `n` of the ping.
        n: u64,
    },
    /// A message was refused; nothing changed.
    Error {
        /// Why, as a code.
        code: ErrorCode,
        /// Why, for people.
        message: String,
        /// The game concerned, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
    },
    /// The whole lobby (on subscribing, then every few seconds while it changes).
    Lobby {
        /// Open public seeks.
        seeks: Vec<SeekInfo>,
        /// Live games, most watched first (at most 100).
        games: Vec<GameSummary>,
        /// Number of live games in all.
        live: u32,
    },
    /// A seek was added to the lobby.
    SeekAdded {
        /// The seek.
        seek: SeekInfo,
    },
    /// A seek left the lobby (accepted or cancelled).
    SeekRemoved {
        /// Its id.
        id: String,
    },
    /// This socket's invite was created: share `/invite/CODE`.
    InviteCreated {
        /// The code (also usable as a seek id).
        code: String,
        /// The link path.
        path: String,
    },
    /// A game this session plays has started: `watch` it to get its snapshot.
    GameStarted {
        /// The game id.
        game: String,
        /// This session's role.
        role: Role,
    },
    /// A game's full state.
    Snapshot(Box<Snapshot>),
    /// A versioned game event.
    Event {
        /// The game id.
        game: String,
        /// The event's version: one more than the previous event of this game.
        v: u64,
        /// The event.
        event: GameEvent,
        /// After a move: the legal moves of the seat to move, for that seat's player and for
        /// spectators.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        legal: Option<Vec<LegalMove>>,
        /// Spectators only, with a move that ended a ply on which they proposed: how the
        /// ply's proposals went (never in a replay: it is not part of the game's history).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reveal: Option<Box<Reveal>>,
        /// Spectators only, with a reveal: this spectator's score after it, if they ever
        /// proposed in this game.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<Score>,
        /// With the end of a rated game, as it happens: how each player's rating moved.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ratings: Option<Box<RatingChanges>>,
    },
    /// The clocks now (after a replay of missed events, whose clocks are those of their
    /// moments).
    Clock {
        /// The game id.
        game: String,
        /// The clocks.
        clock: ClockState,
    },
    /// How many spectators watch (batched: at most about once a second).
    Spectators {
        /// The game id.
        game: String,
        /// The count.
        count: u32,
    },
    /// A player connected or disconnected. `claim_in_ms` counts down the grace period
    /// after which the opponent may `claim` the win.
    Presence {
        /// The game id.
        game: String,
        /// The seat.
        seat: Seat,
        /// Whether a socket of that player is connected.
        online: bool,
        /// Milliseconds until the win can be claimed, while offline.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim_in_ms: Option<u64>,
    },
    /// A chat line.
    Chat {
        /// The game id.
        game: String,
        /// The line.
        #[serde(flatten)]
        line: ChatLine,
    },
    /// Spectators only: a proposal was recorded.
    ProposalOk {
        /// The game id.
        game: String,
        /// The ply.
        ply: u32,
        /// The move proposed.
        mv: String,
    },
    /// Spectators only: the proposals so far for the current ply (throttled).
    Tally {
        /// The game id.
        game: String,
        /// The ply.
        ply: u32,
        /// Proposed moves, most proposed first.
        counts: Vec<TallyEntry>,
    },
    /// Players: the game is on hold (`held: true`, both clocks stopped, moves refused)
    /// because the server cannot save moves, or goes on again (`held: false`). `message`
    /// says so in plain words.
    Held {
        /// The game id.
        game: String,
        /// Whether the game is on hold.
        held: bool,
        /// What happened, for people.
        message: String,
    },
    /// Spectators only, while the game goes on: the crowd's favourite of a ply already
    /// played, valued by the engine against the move played (the open ply never).
    CrowdJudged {
        /// The game id.
        game: String,
        /// The judgement.
        judged: CrowdPly,
    },
    /// The analysis board: where the analysis `id` of this socket stands and, once an
    /// engine runs, its best lines at the depth reached (best first). Sent when the analysis
    /// is queued, after each completed depth and when it is done.
    Analysis {
        /// The id the client gave with `analyse`.
        id: u32,
        /// Queued, running or done.
        status: AnalysisStatus,
        /// Searches ahead of this one on the node while queued.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        place: Option<u32>,
        /// Depth completed (0 before the first).
        depth: u32,
        /// Positions searched so far.
        nodes: u64,
        /// The best lines, best first (empty before the first depth and when the position
        /// has no move).
        lines: Vec<EngineLine>,
    },
    /// Spectators only: this spectator's own score of proposals, when they join a game in
    /// which they proposed (after each move it comes with the move's reveal).
    Score {
        /// The game id.
        game: String,
        /// The score.
        #[serde(flatten)]
        score: Score,
    },
}

/// Spectators only: the proposals of a ply, revealed with the move that ended it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reveal {
    /// The ply.
    pub ply: u32,
    /// The move played.
    pub played: String,
    /// Every proposed move, most proposed first.
    pub counts: Vec<TallyEntry>,
    /// How many spectators proposed the played move.
    pub matched: u32,
    /// The crowd's record so far.
    pub crowd: CrowdRecord,
}

/// A spectator's score of proposals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Proposals that matched the move played.
    pub hits: u32,
    /// Proposals made (one per ply at most).
    pub total: u32,
}

impl ServerMsg {
    /// The message as one JSON text frame.
    pub fn to_json(&self) -> String {
        // Serialising these types cannot fail: no maps with non-string keys, no foreign
        // Serialize impls that can error.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"t":"error","code":"storage","message":"serialisation failed: {e}"}}"#)
        })
    }

    /// An error message.
    pub fn error(code: ErrorCode, message: impl Into<String>, game: Option<&str>) -> ServerMsg {
        ServerMsg::Error { code, message: message.into(), game: game.map(str::to_string) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ClientMsg;

    #[test]
    fn unknown_fields_and_types_are_refused_with_a_reason() {
        let e = ClientMsg::parse(r#"{"t":"move","game":"g","ply":0,"mv":"a","extra":1}"#);
        assert!(e.unwrap_err().contains("extra"));
        assert!(ClientMsg::parse(r#"{"t":"fly"}"#).is_err());
        assert!(ClientMsg::parse("not json").is_err());
    }

    #[test]
    fn events_round_trip() {
        let msg = ServerMsg::Event {
            game: "g".into(),
            v: 3,
            event: GameEvent::Offered { kind: OfferKind::Draw, seat: Seat::Second },
            legal: None,
            reveal: None,
            score: None,
            ratings: None,
        };
        let text = msg.to_json();
        assert_eq!(
            text,
            r#"{"t":"event","game":"g","v":3,"event":{"e":"offered","kind":"draw","seat":"second"}}"#
        );
        assert_eq!(serde_json::from_str::<ServerMsg>(&text).unwrap(), msg);
    }

    #[test]
    fn legal_moves_name_their_squares() {
        assert_eq!(LegalMove::from_text("h2e2".into()).squares, ["h2", "e2"]);
        assert_eq!(LegalMove::from_text("d2?".into()).squares, ["d2"]);
        assert_eq!(LegalMove::from_text("a1xa3xc3".into()).squares, ["a1", "a3", "c3"]);
        assert_eq!(LegalMove::from_text("l10-k12".into()).squares, ["l10", "k12"]);
    }

    #[test]
    fn legal_moves_carry_their_display_in_the_games_notation() {
        let game = cannonade_games::AnyGame::start(GameKind::Xiangqi).unwrap();
        let mv = game.parse_move("h2e2").unwrap();
        let legal = LegalMove::of(&game, mv);
        assert_eq!((legal.mv.as_str(), legal.display.as_str()), ("h2e2", "C2=5"));
        assert_eq!(legal.squares, ["h2", "e2"]);
    }
}
