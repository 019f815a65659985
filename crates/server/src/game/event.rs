//! What a game room decides: events (what happened, stored before anyone hears of it, then
//! applied), effects (work the shell does outside the room), and a reply.

use crate::archive::stored::StoredEvent;
use crate::refusal::Refusal;
use cannonade_wire::ChatLine;

/// Something that happened in a game. Only [`Event::Game`] is part of the game's numbered
/// history; chat lines and proposals are kept beside it.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A versioned game event (a move, an offer, the end…), stored in the game's events.
    Game(StoredEvent),
    /// A chat line, stored in the game's chat.
    Chat(ChatLine),
    /// A spectator's live proposal for the open ply, stored with the proposals.
    Proposed {
        /// The spectator.
        user: String,
        /// The ply.
        ply: u32,
        /// The move in the game's canonical text.
        mv: String,
    },
}

/// Work a decision asks of the shell, outside the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Forget the game's stored proposals before the events are stored (a takeback reopens
    /// a ply whose old proposals are void).
    ClearProposals,
    /// Create the agreed rematch (seats swapped), then tell the room
    /// ([`super::command::Command::RematchCreated`]).
    CreateRematch,
}

/// What the room decided about a command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// Events to store, then apply, in order.
    pub events: Vec<Event>,
    /// Work for the shell.
    pub effects: Vec<Effect>,
    /// An error to answer the command with even though events happened (a move that came
    /// after its clock ran out: the game ends on time and the move is refused).
    pub reply: Option<Refusal>,
}

impl Decision {
    /// A decision of these events.
    pub fn events(events: Vec<Event>) -> Decision {
        Decision { events, ..Decision::default() }
    }

    /// A decision of one game event.
    pub fn game(event: StoredEvent) -> Decision {
        Decision::events(vec![Event::Game(event)])
    }

    /// Nothing happens.
    pub fn nothing() -> Decision {
        Decision::default()
    }
}
