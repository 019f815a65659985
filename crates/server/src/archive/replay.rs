//! A game's replay positions (`/api/game/{id}/positions`): the start and the position after
//! each move, public views only. The actor answers for a game it runs; any node builds them
//! from the store's row and events, which hold every told move, without the game's actor.

use super::proposals::PlyCrowd;
use super::stored::StoredEvent;
use cannonade_games::{AnyGame, AnyRecord, GameKind, GameSpec};
use cannonade_store::{EventRow, GameRow};
use cannonade_wire::{MoveInfo, Positions, PublicPosition};

/// A stored game's spec and start position (its options applied).
pub fn start_of(row: &GameRow) -> Result<(GameSpec, AnyGame), String> {
    let kind: GameKind = row.kind.parse().map_err(|e| format!("{e}"))?;
    let spec = GameSpec::parse(kind, &row.options).map_err(|e| e.to_string())?;
    let start = spec.position(&row.start_fen).map_err(|e| e.to_string())?;
    Ok((spec, start))
}

/// The record of `moves` played from `start`, calling `after_each` after every move (an
/// error if a move no longer replays).
pub fn record(
    spec: &GameSpec,
    start: &AnyGame,
    moves: &[MoveInfo],
    mut after_each: impl FnMut(&AnyRecord),
) -> Result<AnyRecord, String> {
    let mut record = AnyRecord::with_start(spec, start.clone()).map_err(|e| e.to_string())?;
    for m in moves {
        // Stored moves were refereed when played; an imported record may go on past where
        // our rules end the game.
        record.play_text_past_end(&m.mv).map_err(|e| format!("replaying {}: {e}", m.mv))?;
        after_each(&record);
    }
    Ok(record)
}

/// The start and the position after each of `moves` (an error if a move no longer replays).
pub fn positions(
    spec: &GameSpec,
    start: &AnyGame,
    moves: &[MoveInfo],
) -> Result<Vec<PublicPosition>, String> {
    let mut positions = vec![PublicPosition::of(start)];
    record(spec, start, moves, |r| positions.push(PublicPosition::of(&r.position())))?;
    Ok(positions)
}

/// The moves a stored game's events tell, takebacks applied, each with how its ply's
/// proposals went.
fn stored_plies(events: &[EventRow]) -> Result<Vec<(MoveInfo, Option<PlyCrowd>)>, String> {
    let mut plies = Vec::new();
    for e in events {
        let stored: StoredEvent =
            serde_json::from_str(&e.body).map_err(|err| format!("event {}: {err}", e.v))?;
        match stored {
            StoredEvent::Moved { info, crowd, .. } => plies.push((info, crowd)),
            StoredEvent::TakenBack { moves: n, .. } => {
                plies.truncate(plies.len().saturating_sub(n as usize));
            }
            _ => {}
        }
    }
    Ok(plies)
}

/// The moves a stored game's events tell, takebacks applied.
fn stored_moves(events: &[EventRow]) -> Result<Vec<MoveInfo>, String> {
    Ok(stored_plies(events)?.into_iter().map(|(info, _)| info).collect())
}

/// How each move's ply's proposals went (`None`: nobody proposed), move by move as in
/// [`record_of`].
pub fn crowds_of(events: &[EventRow]) -> Result<Vec<Option<PlyCrowd>>, String> {
    Ok(stored_plies(events)?.into_iter().map(|(_, crowd)| crowd).collect())
}

/// The replay positions of a stored game, from its row and every event.
pub fn from_store(row: &GameRow, events: &[EventRow]) -> Result<Positions, String> {
    let (spec, start) = start_of(row)?;
    let moves = stored_moves(events)?;
    Ok(Positions {
        game: row.id.clone(),
        v: events.len() as u64,
        positions: positions(&spec, &start, &moves)?,
    })
}

/// The public record of a stored game (a Banqi flip with the piece it revealed), from its
/// row and every event.
pub fn record_of(row: &GameRow, events: &[EventRow]) -> Result<AnyRecord, String> {
    let (spec, start) = start_of(row)?;
    record(&spec, &start, &stored_moves(events)?, |_| {})
}
