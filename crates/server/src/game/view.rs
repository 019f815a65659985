//! What each audience of a game sees: the frames of game events, snapshots, notices, and who
//! receives what ([`Audience`]). Pure: built from a [`GameRoom`], sent by the shell.
//!
//! Frames are serialised once and shared by every socket they go to; the parts that differ
//! by audience (the legal moves for the seat to move and spectators, a move's reveal and each
//! spectator's score) are added to the shared text as fields, so thousands of spectators cost
//! one serialisation, not one each.

use super::clock::Ms;
use super::room::GameRoom;
use crate::archive::stored::StoredEvent;
use crate::conn::Frame;
use cannonade_wire::{
    LegalMove, PlayerInfo, PublicPosition, Role, Room, Score, Seat, ServerMsg, Snapshot,
};

/// Who receives a broadcast of a game. A serialisable filter on the role, so that the owner
/// of a game sends a frame once to another node and that node applies the same filter to
/// its own sockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone following the game.
    All,
    /// Spectators only (proposal data, their chat room).
    Spectators,
    /// The players only.
    Players,
    /// The seat to move and spectators: the frame with the legal moves.
    WithLegal(Seat),
    /// Everyone else: the frame without them.
    WithoutLegal(Seat),
    /// The player of the seat to move, without the spectators (who get their own frame).
    Mover(Seat),
}

impl Audience {
    /// Whether a socket in `role` receives the frame.
    pub fn admits(self, role: Role) -> bool {
        let legal = |mover: Seat| role == Role::Spectator || role.holds(mover);
        match self {
            Audience::All => true,
            Audience::Spectators => role == Role::Spectator,
            Audience::Players => role != Role::Spectator,
            Audience::WithLegal(mover) => legal(mover),
            Audience::WithoutLegal(mover) => !legal(mover),
            Audience::Mover(mover) => role != Role::Spectator && role.holds(mover),
        }
    }
}

/// A spectator socket's score to add to a frame: its connection id, hits and total.
pub type SocketScore = (u64, u32, u32);

/// A JSON object (a frame) with one more field, `name`, whose value is the JSON `value`
/// (serde writes an object with its closing brace last).
pub fn with_field(object: &str, name: &str, value: &str) -> String {
    let body = object.strip_suffix('}').unwrap_or(object);
    let mut out = String::with_capacity(body.len() + name.len() + value.len() + 5);
    out.push_str(body);
    out.push_str(",\"");
    out.push_str(name);
    out.push_str("\":");
    out.push_str(value);
    out.push('}');
    out
}

/// An event frame with the legal moves added (a `legal` field).
pub fn with_legal(plain: &str, legal: &str) -> String {
    with_field(plain, "legal", legal)
}

/// A frame with a spectator's score added (a `score` field), as each spectator gets a move's
/// reveal.
pub fn with_score(frame: &str, hits: u32, total: u32) -> Frame {
    let score = serde_json::to_string(&Score { hits, total }).unwrap_or_else(|_| "null".into());
    Frame::from(with_field(frame, "score", &score))
}

/// The frame of game event `event`, just applied to `room` (its version and the position
/// after it are the room's), as every audience gets it before the per-audience fields.
pub fn event_frame(room: &GameRoom, event: &StoredEvent) -> Frame {
    let msg = ServerMsg::Event {
        game: room.id().to_string(),
        v: room.version(),
        event: event.clone().into_event(|| PublicPosition::of(&room.record().position())),
        legal: None,
        reveal: None,
        score: None,
        ratings: None,
    };
    Frame::from(msg.to_json())
}

/// The whole game as `role` may see it at `now`: chat of the rooms it may read, the crowd's
/// record for spectators (and for players once the game is over).
pub fn snapshot(
    room: &GameRoom,
    role: Role,
    now: Ms,
    spectators: u32,
    players: [PlayerInfo; 2],
    legal: Option<Vec<LegalMove>>,
    judged: &[cannonade_wire::CrowdPly],
) -> Snapshot {
    let setup = room.setup();
    let spectator = role == Role::Spectator;
    let over = room.result().is_some();
    Snapshot {
        game: room.id().to_string(),
        v: room.version(),
        kind: setup.spec.kind(),
        options: setup.spec.options_text(),
        rated: setup.rated,
        geometry: cannonade_wire::Geometry::of(setup.spec.kind()),
        start: PublicPosition::of(&setup.start),
        position: PublicPosition::of(&room.record().position()),
        moves: room.moves().to_vec(),
        players,
        you: role,
        time_control: setup.tc,
        clock: room.clock().state(now),
        legal,
        offers: room.offers().to_vec(),
        result: room.result().cloned(),
        commitment: setup.commitment.clone(),
        seed: room.revealed_seed().map(str::to_string),
        spectators,
        chat: room.chat().filter(|l| spectator || l.room == Room::Players).cloned().collect(),
        // Players see the crowd only once the game is over.
        crowd: (spectator || over).then(|| room.proposals().crowd()),
        // Never to players while the game runs; after it, the review has every ply.
        crowd_judged: if spectator { judged.to_vec() } else { Vec::new() },
        rematch: room.rematch().map(str::to_string),
    }
}

/// The players' notice that the game is on hold: the store cannot take moves.
pub fn store_down_notice(game: &str) -> ServerMsg {
    ServerMsg::Held {
        game: game.to_string(),
        held: true,
        message: "The server cannot save moves right now. The game is on hold and both clocks \
                  are stopped; it goes on by itself as soon as saving works again."
            .into(),
    }
}

/// The players' notice that the game goes on.
pub fn store_up_notice(game: &str) -> ServerMsg {
    ServerMsg::Held {
        game: game.to_string(),
        held: false,
        message: "Saving works again: the game goes on and the clock runs.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audiences_admit_the_right_roles() {
        use Role::*;
        let first = Seat::First;
        assert!(Audience::WithLegal(first).admits(First));
        assert!(Audience::WithLegal(first).admits(Spectator));
        assert!(Audience::WithLegal(first).admits(Both));
        assert!(!Audience::WithLegal(first).admits(Second));
        assert!(Audience::WithoutLegal(first).admits(Second));
        assert!(!Audience::WithoutLegal(first).admits(Spectator));
        assert!(Audience::Mover(first).admits(First) && !Audience::Mover(first).admits(Spectator));
        assert!(!Audience::Spectators.admits(First) && !Audience::Spectators.admits(Both));
        assert!(!Audience::Players.admits(Spectator));
    }

    #[test]
    fn a_field_is_added_to_a_frame() {
        assert_eq!(with_field(r#"{"a":1}"#, "b", "[2]"), r#"{"a":1,"b":[2]}"#);
        assert_eq!(
            with_score(r#"{"a":1}"#, 1, 2).as_str(),
            r#"{"a":1,"score":{"hits":1,"total":2}}"#
        );
    }
}
