//! The lobby as clients see it: the open seeks of every node with the live games of every
//! node. Apart from the seeks themselves ([`crate::lobby`]), which need no server state.

use crate::lobby::{LOBBY_SEEKS, Lobby};
use crate::state::App;
use cannonade_wire::{GameSummary, ServerMsg};
use std::sync::atomic::Ordering::Relaxed;

impl Lobby {
    /// The lobby: the newest [`LOBBY_SEEKS`] public seeks and the most watched live games.
    pub fn snapshot(&self, app: &App) -> ServerMsg {
        let mut seeks = self.public_seeks();
        if let Some(cluster) = app.cluster() {
            seeks.extend(cluster.remote_lobby().0);
        }
        // Seeks are kept in the order they came: the oldest go.
        seeks.drain(..seeks.len().saturating_sub(LOBBY_SEEKS));
        let (games, live) = live_games(app, 100);
        ServerMsg::Lobby { seeks, games, live }
    }

    /// Sends the lobby to subscribers (called every few seconds while anyone listens).
    pub fn refresh(&self, app: &App) {
        if self.tx.receiver_count() > 0 {
            self.publish(&self.snapshot(app));
        }
    }
}

/// Live games (of every node), most watched first, at most `limit`, and how many there are
/// in all.
pub fn live_games(app: &App, limit: usize) -> (Vec<GameSummary>, u32) {
    let (mut live, mut total) = local_live_games(app, limit);
    if let Some(cluster) = app.cluster() {
        let (_, games, n) = cluster.remote_lobby();
        live.extend(games);
        total += n;
        live.sort_by(|a, b| b.spectators.cmp(&a.spectators).then_with(|| a.id.cmp(&b.id)));
        live.truncate(limit);
    }
    (live, total)
}

/// The live games this node runs, most watched first, at most `limit`, and how many.
pub fn local_live_games(app: &App, limit: usize) -> (Vec<GameSummary>, u32) {
    let games = app.games.list();
    let mut live: Vec<GameSummary> = games
        .iter()
        .filter(|(_, h)| !h.summary.relayed && !h.summary.over.load(Relaxed))
        .map(|(id, h)| GameSummary {
            id: id.clone(),
            game: h.summary.kind,
            players: h.summary.names.clone(),
            moves: h.summary.moves.load(Relaxed),
            spectators: h.summary.spectators.load(Relaxed),
        })
        .collect();
    drop(games);
    let total = live.len() as u32;
    live.sort_by(|a, b| b.spectators.cmp(&a.spectators).then_with(|| a.id.cmp(&b.id)));
    live.truncate(limit);
    (live, total)
}
