//! Cannonade's websocket protocol (`docs/protocol-wire.md` is its reference with an example of
//! every message).
//!
//! One JSON text frame per message, one websocket per browser tab. Messages are typed by
//! direction: [`ClientMsg`] (browser → server) and [`ServerMsg`] (server → browser). Every
//! game event carries a version `v` (1, 2, 3 … per game) so a reconnecting client can say what
//! it already has and get the missing events or a fresh [`Snapshot`].
//!
//! Boards are described, never computed, on the client: [`Geometry`] says where the points or
//! cells are, and every position travels as a [`PublicPosition`] with its pieces listed by
//! square. A `PublicPosition` can only be made from an [`AnyGame`](cannonade_games::AnyGame)
//! through [`PublicPosition::of`], which removes a Banqi deal first: no message type can hold a
//! face-down identity.
//!
//! ```
//! use cannonade_wire::{ClientMsg, ServerMsg};
//! let msg: ClientMsg = serde_json::from_str(r#"{"t":"move","game":"g1","ply":0,"mv":"h2e2"}"#).unwrap();
//! assert!(matches!(msg, ClientMsg::Move { ply: 0, .. }));
//! let out = ServerMsg::Pong { n: 7 }.to_json();
//! assert_eq!(out, r#"{"t":"pong","n":7}"#);
//! ```
#![forbid(unsafe_code)]

mod analysis;
mod client;
mod common;
mod event;
mod geometry;
mod position;
mod server;
mod session_cookie;

pub use analysis::{
    AnalysedPosition, AnalysisStatus, CrowdPly, EngineLine, LineMove, LineValue,
    MAX_ANALYSIS_MOVES, PositionRequest,
};
pub use client::ClientMsg;
pub use common::{
    ClockState, CrowdRecord, CrowdSide, DAY_MS, ErrorCode, GameResult, LegalMove, MoveInfo,
    OfferKind, PlayerInfo, RangeRequest, RatingRange, Role, Room, Seat, TimeControl, UserInfo,
};
pub use event::GameEvent;
pub use geometry::{Geometry, Layout, LegendPiece, PieceInfo, Region, River};
pub use position::{AirDefence, PieceColour, PublicPosition};
pub use server::{
    ChatLine, GameSummary, PastGame, Positions, RatingChange, RatingChanges, Reveal, Score,
    SeekInfo, ServerMsg, Snapshot, TallyEntry,
};
pub use session_cookie::{
    SESSION_COOKIE, session_cookie_header, session_from_set_cookie, session_from_set_cookies,
};

/// The protocol version announced in [`ServerMsg::Welcome`]; it changes when a message changes
/// incompatibly.
pub const PROTOCOL_VERSION: u32 = 4;

/// The largest text frame a client may send, in bytes. Larger frames get an
/// [`ErrorCode::TooLarge`] error and are not read.
pub const MAX_CLIENT_MESSAGE: usize = 4096;

/// The most best lines an analysis shows (MultiPV).
pub const MAX_ANALYSIS_LINES: u32 = 5;

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 280;
