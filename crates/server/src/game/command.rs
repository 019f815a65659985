//! What a game room is asked to do: every request that can change a game, with who asks and
//! when (milliseconds on the server's monotonic clock, [`Ms`]).

use super::clock::Ms;
use cannonade_games::AnyMove;
use cannonade_wire::OfferKind;

/// A request to a game room. The room decides it ([`super::room::GameRoom::decide`]) without
/// touching anything; what it decides is stored, then applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A player's move for `ply`, received at `at`.
    Move {
        /// Who asks (a user id).
        user: String,
        /// The ply the client saw.
        ply: u32,
        /// The move text.
        mv: String,
        /// When the server received it.
        at: Ms,
    },
    /// A spectator's proposal for `ply`.
    Propose {
        /// Who asks.
        user: String,
        /// The ply.
        ply: u32,
        /// The proposed move text.
        mv: String,
    },
    /// Resignation.
    Resign {
        /// Who asks.
        user: String,
        /// When.
        at: Ms,
    },
    /// Calling the game off before both sides moved.
    Abort {
        /// Who asks.
        user: String,
        /// When.
        at: Ms,
    },
    /// Claiming the win against an opponent who left.
    Claim {
        /// Who asks.
        user: String,
        /// When.
        at: Ms,
        /// Since when the opponent has no connection (`None`: connected).
        opponent_offline_since: Option<Ms>,
    },
    /// An offer (draw, takeback, rematch).
    Offer {
        /// Who asks.
        user: String,
        /// What.
        kind: OfferKind,
        /// When.
        at: Ms,
    },
    /// Accepting the opponent's offer.
    Accept {
        /// Who asks.
        user: String,
        /// What.
        kind: OfferKind,
        /// When.
        at: Ms,
    },
    /// Declining the opponent's offer.
    Decline {
        /// Who asks.
        user: String,
        /// What.
        kind: OfferKind,
    },
    /// A chat line, to the players' room from a player, to the spectators' from a spectator.
    Chat {
        /// Who writes.
        user: String,
        /// Their name as shown.
        name: String,
        /// The text.
        text: String,
    },
    /// The time is `at`: a clock may have run out.
    Tick {
        /// Now.
        at: Ms,
    },
    /// Nobody has touched the game for a long while (the shell's
    /// [`crate::limits::Limits::untimed_idle`]): an untimed game ends, called off, rather than
    /// live for ever; a timed one has its clocks for that.
    Idle {
        /// Now.
        at: Ms,
    },
    /// The engine's move for `ply` (`None`: it found none).
    Ai {
        /// The ply searched.
        ply: u32,
        /// The move.
        mv: Option<AnyMove>,
        /// When it arrived.
        at: Ms,
    },
    /// The rematch game that an agreed rematch asked for was created.
    RematchCreated {
        /// Its id.
        game: String,
    },
}
