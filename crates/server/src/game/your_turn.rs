//! The "your turn" list: a user's live games where it is their move, read from the games'
//! lobby summaries (no actor is asked), for the page's header on any device.

use super::Games;
use cannonade_games::GameKind;

/// A live game where it is a user's move, as the "your turn" list shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct YourTurn {
    /// The game's id.
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The opponent's name.
    pub opponent: String,
    /// Moves played.
    pub moves: u32,
}

/// The live games of this node where it is `user`'s move, by id.
pub fn your_turn(games: &Games, user: &str) -> Vec<YourTurn> {
    let relaxed = std::sync::atomic::Ordering::Relaxed;
    let mut list: Vec<YourTurn> = games
        .list()
        .iter()
        .filter(|(_, h)| !h.summary.relayed && !h.summary.over.load(relaxed))
        .filter_map(|(id, h)| {
            let side = h.summary.user_to_move(user)?;
            Some(YourTurn {
                id: id.clone(),
                game: h.summary.kind,
                opponent: h.summary.names[side.opponent().index()].clone(),
                moves: h.summary.moves.load(relaxed),
            })
        })
        .collect();
    list.sort_by(|a, b| a.id.cmp(&b.id));
    list
}
