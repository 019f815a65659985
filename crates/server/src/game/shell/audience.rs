//! The game's sockets: who follows it, what each is sent (the legal moves to the seat to
//! move, scores to proposers, frames for other nodes' sockets through the peers), the
//! players' presence, and the tally's and acknowledgements' coalesced flush.

use super::{FLUSH_EVERY, RevealFrame, Shell, Sub};
use crate::conn::{Conn, Frame, Out};
use crate::game::view::{self, Audience, SocketScore};
use cannonade_wire::{LegalMove, Role, Score, Seat, ServerMsg};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use tokio::sync::mpsc;
use tokio::time::Instant;

impl Shell {
    pub(super) fn refresh_legal(&mut self) {
        self.legal = if self.room.to_move().is_some() {
            let pos = self.room.record().position();
            LegalMove::list_json(&pos, &pos.legal_moves())
        } else {
            String::from("[]")
        };
    }

    /// Whether a role receives the legal moves: the seat to move and spectators.
    pub(super) fn gets_legal(&self, role: Role) -> bool {
        match self.room.to_move() {
            Some(side) => role == Role::Spectator || role.holds(side.into()),
            None => false,
        }
    }

    pub(super) fn spectator_count(&self) -> u32 {
        self.subs.values().filter(|s| s.role == Role::Spectator).count() as u32
    }

    pub(super) fn schedule_flush(&mut self) {
        if self.flush_at.is_none() {
            self.flush_at = Some(Instant::now() + FLUSH_EVERY);
        }
    }

    /// Sends `frame` to the subscribers `to` admits; drops those too far behind. Sockets of
    /// other nodes get it through their node, once per node.
    pub(super) fn send_where(&mut self, frame: &Frame, to: Audience) {
        self.send_versioned(frame, to, None, None);
    }

    /// [`Self::send_where`] for a frame carrying the game event of version `v`: the nodes
    /// that relay it keep the version their sockets have. A spectator with a score in
    /// `scores` (by user) gets the frame with their score added; another node adds it for
    /// its sockets from the list that comes with the frame.
    pub(super) fn send_versioned(
        &mut self,
        frame: &Frame,
        to: Audience,
        v: Option<u64>,
        scores: Option<&HashMap<String, (u32, u32)>>,
    ) {
        let mut slow = Vec::new();
        let mut sent = 0u64;
        let mut nodes: Vec<(&Arc<str>, Vec<SocketScore>)> = Vec::new();
        // Players first: a move reaches the opponent before thousands of spectators.
        let players = self.subs.iter().filter(|(_, s)| s.role.is_player());
        let spectators = self.subs.iter().filter(|(_, s)| !s.role.is_player());
        for (id, sub) in players.chain(spectators) {
            let score = scores
                .filter(|_| sub.role == Role::Spectator && to.admits(sub.role))
                .and_then(|s| s.get(&sub.conn.user.id));
            if let Out::Remote(r) = &sub.conn.tx {
                let at = match nodes.iter().position(|(n, _)| **n == r.node) {
                    Some(at) => at,
                    None => {
                        nodes.push((&r.node, Vec::new()));
                        nodes.len() - 1
                    }
                };
                if let Some(&(hits, total)) = score {
                    nodes[at].1.push((r.conn, hits, total));
                }
                continue;
            }
            if to.admits(sub.role) {
                let frame = match score {
                    Some(&(hits, total)) => view::with_score(frame, hits, total),
                    None => frame.clone(),
                };
                match sub.conn.tx.try_send(frame) {
                    Ok(()) => sent += 1,
                    Err(mpsc::error::TrySendError::Full(_)) => slow.push((*id, true)),
                    // The socket closed; its leave message is on its way.
                    Err(mpsc::error::TrySendError::Closed(_)) => slow.push((*id, false)),
                }
            }
        }
        if let Some(peers) = self.games.peers() {
            for (node, scores) in nodes {
                peers.broadcast(node, self.room.id(), to, v, frame, scores);
            }
        }
        self.games.h.metrics.frames_out.inc_by(sent);
        for (id, behind) in slow {
            if behind {
                self.games.h.metrics.slow_drops.inc();
            }
            self.leave(id);
        }
    }

    /// Sends the last event's frame: the legal moves go with it to the seat to move and to
    /// spectators, and a move's reveal (JSON) to spectators with each one's score (by user).
    pub(super) fn broadcast(&mut self, without: &Frame, reveal: Option<RevealFrame>) {
        let v = self.room.version();
        let mover = self.room.to_move().map(Seat::from);
        let with = mover.map(|_| Frame::from(view::with_legal(without.as_str(), &self.legal)));
        // With a reveal, spectators get their own frame (the move, its legal moves, the
        // reveal and each one's score), so the players' frames go to players only.
        match mover.zip(with.as_ref()) {
            Some((mover, with)) => {
                let to = if reveal.is_some() {
                    Audience::Mover(mover)
                } else {
                    Audience::WithLegal(mover)
                };
                self.send_versioned(with, to, Some(v), None);
                self.send_versioned(without, Audience::WithoutLegal(mover), Some(v), None);
            }
            None => {
                let to = if reveal.is_some() { Audience::Players } else { Audience::All };
                self.send_versioned(without, to, Some(v), None);
            }
        }
        if let Some((reveal, scores)) = reveal {
            let base = with.as_ref().unwrap_or(without);
            let frame = Frame::from(view::with_field(base.as_str(), "reveal", &reveal));
            self.send_versioned(&frame, Audience::Spectators, Some(v), Some(&scores));
        }
    }

    pub(super) fn join(&mut self, conn: Conn, since: Option<u64>) {
        let role = self.room.role_of(&conn.user.id);
        let v = self.room.version();
        let now = self.now();
        match since {
            Some(s) if s <= v => {
                // The missing events, the last with the legal moves if this role gets them,
                // then the clocks as they are now.
                let give_legal = self.gets_legal(role);
                for (i, frame) in self.events.iter().enumerate().skip(s as usize) {
                    if i + 1 == self.events.len() && give_legal {
                        conn.send_frame(Frame::from(view::with_legal(frame.as_str(), &self.legal)));
                    } else {
                        conn.send_frame(frame.clone());
                    }
                }
                conn.send(&ServerMsg::Clock {
                    game: self.room.id().to_string(),
                    clock: self.room.clock().state(now),
                });
            }
            _ => {
                let legal = self.gets_legal(role).then(|| {
                    let pos = self.room.record().position();
                    pos.legal_moves().into_iter().map(|m| LegalMove::of(&pos, m)).collect()
                });
                let snapshot = view::snapshot(
                    &self.room,
                    role,
                    now,
                    self.spectator_count(),
                    self.players_of(),
                    legal,
                    &self.crowd_judged,
                );
                conn.send(&ServerMsg::Snapshot(Box::new(snapshot)));
            }
        }
        // A spectator's own score, which a reload or a restart would otherwise hide until the
        // next reveal.
        if role == Role::Spectator
            && let Some((hits, total)) = self.room.proposals().score(&conn.user.id)
        {
            conn.send(&ServerMsg::Score {
                game: self.room.id().to_string(),
                score: Score { hits, total },
            });
        }
        if self.room.paused() && role.is_player() {
            conn.send(&view::store_down_notice(self.room.id()));
        }
        if let Out::Remote(r) = &conn.tx {
            // After its frames on the same topic: its node hands it broadcasts from here.
            r.bus.synced(&r.node, self.room.id(), r.conn, v);
        }
        match self.subs.insert(conn.id, Sub { role, conn }) {
            // The same socket again (a resync): no presence change.
            Some(old) if old.role == role => {}
            Some(old) => {
                self.seat_presence(old.role, -1);
                self.seat_presence(role, 1);
            }
            None => self.seat_presence(role, 1),
        }
        self.schedule_flush();
    }

    /// Of the sockets of another node, keeps those in `conns` (all of that node's sockets in
    /// the game); the others left, and their `leave` was lost.
    pub(super) fn keep_following(&mut self, node: &str, conns: &[u64]) {
        let gone: Vec<u64> = self
            .subs
            .iter()
            .filter(|(id, s)| {
                s.conn.tx.remote_node().is_some_and(|n| **n == *node) && !conns.contains(id)
            })
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            self.leave(id);
        }
    }

    /// This node lost the game's lease (another node took it, taking this one for dead):
    /// the shell ends, this node's sockets move to the game's new owner, and the nodes of
    /// the other sockets are told to look for it.
    pub(super) fn hand_over(&mut self) {
        self.handed_over = true;
        self.ai.call_off();
        if self.room.result().is_none() {
            self.games.h.metrics.live_games.dec();
        }
        let Some(peers) = self.games.peers().cloned() else { return };
        let mut local = Vec::new();
        let mut nodes: Vec<Arc<str>> = Vec::new();
        for (_, sub) in self.subs.drain() {
            match sub.conn.tx.remote_node() {
                Some(node) if !nodes.contains(node) => nodes.push(node.clone()),
                Some(_) => {}
                None => local.push(sub.conn),
            }
        }
        for node in nodes {
            peers.redirect(&node, self.room.id());
        }
        peers.rehome(self.room.id().to_string(), local);
    }

    pub(super) fn leave(&mut self, conn_id: u64) {
        if let Some(sub) = self.subs.remove(&conn_id) {
            self.seat_presence(sub.role, -1);
            self.schedule_flush();
        }
    }

    /// Counts a player's sockets; tells everyone when a seat comes or goes.
    pub(super) fn seat_presence(&mut self, role: Role, delta: i32) {
        if self.room.hotseat() {
            return;
        }
        let seat = match role {
            Role::First => 0,
            Role::Second => 1,
            _ => return,
        };
        let before = self.online[seat];
        self.online[seat] = (before as i32 + delta).max(0) as u32;
        let now_online = self.online[seat] > 0;
        if (before > 0) == now_online {
            return;
        }
        self.offline_since[seat] = (!now_online).then(|| self.now());
        if self.room.result().is_some() {
            return;
        }
        let msg = ServerMsg::Presence {
            game: self.room.id().to_string(),
            seat: if seat == 0 { Seat::First } else { Seat::Second },
            online: now_online,
            // Nobody claims a correspondence game for absence.
            claim_in_ms: (!now_online && !self.room.setup().tc.is_correspondence())
                .then(|| self.games.h.config.grace.as_millis() as u64),
        };
        let frame = Frame::from(msg.to_json());
        self.send_where(&frame, Audience::All);
    }

    pub(super) fn flush(&mut self) {
        self.flush_at = None;
        let count = self.spectator_count();
        if count != self.spectators_sent {
            self.spectators_sent = count;
            self.summary.spectators.store(count, Relaxed);
            let msg = ServerMsg::Spectators { game: self.room.id().to_string(), count };
            self.send_where(&Frame::from(msg.to_json()), Audience::All);
        }
        self.send_acks();
        if self.tally_dirty {
            self.tally_dirty = false;
            let msg = ServerMsg::Tally {
                game: self.room.id().to_string(),
                ply: self.room.proposals().ply(),
                counts: self.room.proposals().tally(),
            };
            self.send_where(&Frame::from(msg.to_json()), Audience::Spectators);
        }
    }

    /// Acknowledges the stored proposals that are still their spectators' live ones.
    pub(super) fn send_acks(&mut self) {
        for (conn, ply, mv) in std::mem::take(&mut self.acks) {
            if self.room.proposals().is_current(&conn.user.id, ply, &mv) {
                conn.send(&ServerMsg::ProposalOk { game: self.room.id().to_string(), ply, mv });
            }
        }
    }

    pub(super) fn send_clock(&mut self) {
        let msg = ServerMsg::Clock {
            game: self.room.id().to_string(),
            clock: self.room.clock().state(self.now()),
        };
        self.send_where(&Frame::from(msg.to_json()), Audience::All);
    }
}
