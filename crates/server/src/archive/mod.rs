//! A game as the store keeps it: its events in their stored form ([`stored`]), what the
//! spectators' proposals did at each ply ([`proposals`]), and the replay of a stored game
//! into its record and positions ([`replay`]). Pure: no runtime and no server state, so the
//! live games, the reviews and the workers all read games through it.

pub mod proposals;
pub mod replay;
pub mod stored;

use cannonade_store::{EventRow, GameRow};

/// A game's row and every event, as `store` has them; `None` for an unknown game.
pub async fn stored_in(
    store: &dyn cannonade_store::Store,
    id: &str,
) -> Result<Option<(GameRow, Vec<EventRow>)>, String> {
    let Some(row) = store.game(id).await.map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let events = store.events(id).await.map_err(|e| e.to_string())?;
    Ok(Some((row, events)))
}
