//! What comes through the side mailbox: chat lines and proposals, stored off the move path
//! and told in the order they were written.

use super::Shell;
use crate::conn::{Conn, Frame};
use crate::game::Cmd;
use crate::game::event::Event;
use crate::game::view::Audience;
use cannonade_store::{ChatRow, ProposalRow, StoreError};
use cannonade_wire::{ChatLine, ErrorCode, ServerMsg};

impl Shell {
    /// Stores a proposal off the game's path; it counts once stored (`Cmd::Proposed`).
    pub(super) fn store_proposal(&mut self, conn: &Conn, user: String, ply: u32, mv: String) {
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        let row = ProposalRow {
            game_id: self.room.id().to_string(),
            user_id: user,
            ply: ply as i64,
            mv: mv.clone(),
        };
        let writer = self.games.h.writer.clone();
        let conn = conn.clone();
        tokio::spawn(async move {
            let stored = writer.propose(row).await;
            let _ = tx.send(Cmd::Proposed { conn, ply, mv, stored }).await;
        });
    }

    /// Tells a stored chat line to its room (or its writer that it could not be stored).
    pub(super) fn tell_chat(&mut self, line: ChatLine, stored: Result<(), (Conn, StoreError)>) {
        match stored {
            Ok(()) => {
                let room = line.room;
                let _ = self.room.apply(&Event::Chat(line.clone()), self.now());
                let msg = ServerMsg::Chat { game: self.room.id().to_string(), line };
                let to = if room == cannonade_wire::Room::Players {
                    Audience::All
                } else {
                    Audience::Spectators
                };
                self.send_where(&Frame::from(msg.to_json()), to);
            }
            Err((conn, e)) => {
                let text = self.storage_error("the chat line could not be saved", &e);
                conn.send(&ServerMsg::error(ErrorCode::Storage, text, Some(self.room.id())));
            }
        }
    }

    /// Stores a chat line off the game's path (with the next group commit); it is shown
    /// once stored (`Cmd::Chatted`).
    pub(super) fn store_chat(&mut self, conn: &Conn, line: ChatLine) {
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        self.chat_pending += 1;
        let row = ChatRow {
            game_id: self.room.id().to_string(),
            n: self.chat_pending,
            body: serde_json::to_string(&line).unwrap_or_default(),
        };
        let n = row.n;
        let writer = self.games.h.writer.clone();
        let conn = conn.clone();
        tokio::spawn(async move {
            let stored = writer.chat(row).await.map_err(|e| (conn, e));
            let _ = tx.send(Cmd::Chatted { n, line, stored }).await;
        });
    }
}
