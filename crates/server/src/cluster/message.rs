//! What nodes tell each other: a JSON header, a newline, then the body as is (a frame for
//! sockets, or a client's request), so a frame crosses the bus without being escaped.

use crate::game::{Audience, SocketScore};
use cannonade_wire::{GameSummary, SeekInfo, UserInfo};
use serde::{Deserialize, Serialize};

/// The header of a bus message: `{"broadcast":{…}}`. Externally tagged: serde reads an
/// internally tagged enum by buffering the whole object first, which cost 3 % of a node's CPU
/// under the goal load. Nodes of one cluster run one version of this format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Header {
    /// To a game's owner: a socket of `node` follows the game.
    Join {
        /// The game.
        game: String,
        /// The socket's node.
        node: String,
        /// The socket.
        conn: u64,
        /// Its user.
        user: UserInfo,
        /// Its last version.
        since: Option<u64>,
    },
    /// To a game's owner: the socket stops following it.
    Leave {
        /// The game.
        game: String,
        /// The socket's node.
        node: String,
        /// The socket.
        conn: u64,
    },
    /// To a game's owner: a request (the body), read `age_us` before it was published.
    Client {
        /// The game.
        game: String,
        /// The socket's node.
        node: String,
        /// The socket.
        conn: u64,
        /// Its user.
        user: UserInfo,
        /// Microseconds between the socket reading it and the node publishing it.
        age_us: u64,
    },
    /// To a relaying node: this node does not run the game (any more); look for its owner.
    Redirect {
        /// The game.
        game: String,
    },
    /// To a relaying node, from the game's owner whose subscription was lost: say which of
    /// your sockets follow the game (a `leave` may have been lost).
    Recount {
        /// The game.
        game: String,
        /// The owner, which asks.
        owner: String,
    },
    /// To a game's owner: the sockets of `node` that follow the game, all of them.
    Following {
        /// The game.
        game: String,
        /// The node.
        node: String,
        /// Its sockets in the game.
        conns: Vec<u64>,
    },
    /// To a node: the body is for one of its sockets.
    To {
        /// The socket's user.
        user: String,
        /// The socket.
        conn: u64,
    },
    /// To a relaying node: the body is for its sockets in the game that `audience` admits.
    Broadcast {
        /// The game.
        game: String,
        /// Who gets it.
        audience: Audience,
        /// The version of the game event in the body (none for other frames).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        v: Option<u64>,
        /// Spectator sockets that get the frame with their score added (a move's reveal).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        scores: Vec<SocketScore>,
    },
    /// To a relaying node: its socket `conn` got the game up to version `v` (a snapshot, or
    /// the events after its `since`); the game's broadcasts reach it from here on.
    Synced {
        /// The game.
        game: String,
        /// The socket.
        conn: u64,
        /// The game's version.
        v: u64,
    },
    /// To all: the body is for every socket of `user`.
    User {
        /// The node it comes from (which told its own sockets).
        from: String,
        /// The user.
        user: String,
    },
    /// To all: a node's public seeks and live games, every few seconds.
    Lobby {
        /// The node.
        from: String,
        /// Its public seeks.
        seeks: Vec<SeekInfo>,
        /// Its most watched live games.
        games: Vec<GameSummary>,
        /// How many live games it runs.
        live: u32,
    },
    /// To all: a seek was taken or withdrawn.
    SeekGone {
        /// The seek.
        id: String,
    },
    /// To all: sessions of `user` ended (a logout, the session list, a new password): each
    /// node forgets them and closes their sockets at once, not within a day of re-reads.
    SessionsEnded {
        /// The node it comes from (which closed its own sockets).
        from: String,
        /// The user.
        user: String,
        /// Which of the user's sessions.
        ended: crate::session::Ended,
    },
}

/// A message: the header's JSON, a newline, the body.
pub fn encode(header: &Header, body: &[u8]) -> Vec<u8> {
    let mut out = serde_json::to_vec(header).unwrap_or_default();
    out.push(b'\n');
    out.extend_from_slice(body);
    out
}

/// The header and body of a message (`None` if it is not one).
pub fn decode(bytes: &[u8]) -> Option<(Header, &[u8])> {
    let split = bytes.iter().position(|&b| b == b'\n')?;
    let header = serde_json::from_slice(&bytes[..split]).ok()?;
    Some((header, &bytes[split + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_wire::Seat;

    #[test]
    fn a_frame_crosses_unescaped_and_comes_back_whole() {
        let audience = Audience::WithLegal(Seat::First);
        let header =
            Header::Broadcast { game: "g".into(), audience, v: Some(3), scores: vec![(7, 1, 2)] };
        let body = "{\"t\":\"event\",\"text\":\"line\\nbreak\"}\n";
        let bytes = encode(&header, body.as_bytes());
        let (h, b) = decode(&bytes).unwrap();
        assert_eq!(h, header);
        assert_eq!(b, body.as_bytes());
        assert!(decode(b"not a message").is_none());
    }
}
