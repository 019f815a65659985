//! The engine's pause before answering a person (engine-strength issue, item 5): applied
//! with pacing on, and called off with the position it was for.

mod common;

use cannonade_games::GameKind;
use cannonade_wire::{ClientMsg, GameEvent, OfferKind, Seat, ServerMsg};
use common::{Client, config, server, tc};
use std::time::Duration;

/// A game against the engine at `level`, untimed, from `fen` or the start, the client moving
/// first and watching.
async fn against_the_engine(pacing: bool, level: u8, fen: Option<&str>) -> (Client, String) {
    let (addr, _) = server(cannonade_server::Config { ai_pacing: pacing, ..config() }).await;
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::PlayAi {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(0, 0),
        level,
        seat: Some(Seat::First),
        fen: fen.map(str::to_string),
    })
    .await;
    let (game, _) = c.started().await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    c.snapshot().await;
    (c, game)
}

fn is_move(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. })
}

/// Engine-strength issue, item 5: with pacing on (as `cannonade serve` runs) the engine
/// answers after a person's pause, not in the few milliseconds its search takes; off (as the
/// other tests run) it answers at once.
#[tokio::test]
async fn the_engine_pauses_like_a_person_before_answering() {
    for pacing in [false, true] {
        let (mut c, game) = against_the_engine(pacing, 1, None).await;
        c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
        c.moved().await;
        let sent = std::time::Instant::now();
        c.moved().await;
        // Level 1's shortest pause in the opening, 44 moves to choose from: about 360 ms.
        let last = sent.elapsed();
        if pacing {
            assert!(last >= Duration::from_millis(300), "paced answer after {last:?}");
        } else {
            assert!(last < Duration::from_millis(300), "instant answer after {last:?}");
        }
    }
}

/// A resignation during the engine's pause: the game ends and the engine's move never comes.
#[tokio::test]
async fn a_resignation_during_the_pause_drops_the_engine_s_move() {
    let (mut c, game) = against_the_engine(true, 10, None).await;
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    c.moved().await;
    // Level 10's pause after 1. h2e2 (44 answers) is 1.0 to 1.9 s: the resignation comes
    // during it.
    c.send(ClientMsg::Resign { game: game.clone() }).await;
    c.ended().await;
    // Past the longest pause this move could have.
    let later = c.drain(2_500).await;
    assert!(!later.iter().any(is_move), "a move after the end: {later:?}");
}

/// A takeback during the engine's pause, then another move: the engine answers the position
/// on the board, not the one taken back. Red's general steps up (d0d1) and Black's chariot
/// would take the loose horse (a5a1) or check; taken back, Red's chariot takes the soldier
/// instead (g0g5) and attacks the chariot, which takes back (a5g5). Black's likely answers
/// to d0d1 stay legal after g0g5, so an answer searched before the takeback and played
/// after it would be a legal move, and the wrong one. (The pause after d0d1, some 20
/// answers, is 0.5 to 0.9 s: the takeback comes during it.)
#[tokio::test]
async fn a_takeback_during_the_pause_calls_the_old_answer_off() {
    let fen = "4k4/9/9/9/r5p2/9/9/9/N8/3K2R2 w - - 0 1";
    let (mut c, game) = against_the_engine(true, 10, Some(fen)).await;
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "d0d1".into() }).await;
    c.moved().await;
    c.send(ClientMsg::Offer { game: game.clone(), kind: OfferKind::Takeback }).await;
    let back = c
        .until("the takeback", |m| {
            is_move(m) || matches!(m, ServerMsg::Event { event: GameEvent::TakenBack { .. }, .. })
        })
        .await;
    assert!(!is_move(&back), "the engine answered before the takeback: {back:?}");
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "g0g5".into() }).await;
    let (_, ply, mv, _) = c.moved().await;
    assert_eq!((ply, mv.as_str()), (0, "g0g5"));
    let (_, ply, mv, _) = c.moved().await;
    assert_eq!((ply, mv.as_str()), (1, "a5g5"), "the engine's answer to the board");
    let later = c.drain(2_500).await;
    assert!(!later.iter().any(is_move), "a second answer: {later:?}");
}
