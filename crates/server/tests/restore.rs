//! Games written to the store as a crashed server would have left them, brought back by a new
//! server on the same database: Commander Chess's scored formats end as rules §13.3 says
//! (the game timer resumes where it stood, without the downtime; an objective reached just
//! before the crash ends the game at restart), and the engine searches with the game's
//! history.

mod common;

use cannonade_games::{AnyGame, AnyRecord, GameKind};
use cannonade_store::{EventRow, GameRow, SqlStore, Store};
use cannonade_wire::{
    ClientMsg, ClockState, GameEvent, MoveInfo, PublicPosition, Score, Seat, ServerMsg,
};
use common::{Client, config, game_row as row, server};
use std::time::Duration;

/// A file store of its own for one test.
async fn file_store(name: &str) -> (String, SqlStore) {
    let dir = std::env::temp_dir().join(format!("cannonade-restore-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}/s.db", dir.display());
    let store = SqlStore::connect(&url).await.unwrap();
    (url, store)
}

/// The events of `moves` played from `fen`, each stored with `clock`.
fn moved(kind: GameKind, fen: &str, id: &str, moves: &[&str], clock: ClockState) -> Vec<EventRow> {
    let mut record = AnyRecord::new(AnyGame::from_fen(kind, fen).unwrap());
    let mut rows = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let pos = record.position();
        let seat = pos.mover().into();
        let mv = pos.parse_move(text).unwrap();
        let info = MoveInfo { mv: pos.move_text(mv), display: pos.display_move(mv), seat };
        record.play(mv).unwrap();
        let event = GameEvent::Moved {
            ply: ply as u32,
            info,
            position: PublicPosition::of(&record.position()),
            clock,
        };
        rows.push(EventRow {
            game_id: id.into(),
            v: ply as i64 + 1,
            body: serde_json::to_string(&event).unwrap(),
        });
    }
    rows
}

/// A file store holding `game` and its `moves` (each stored with Blue's / the second seat's
/// clock running and `game_ms` on the game timer), and a server started on it.
async fn restart(
    g: GameRow,
    moves: &[&str],
    game_ms: Option<u64>,
    down: Duration,
) -> (std::net::SocketAddr, SqlStore) {
    let (url, store) = file_store(&g.id).await;
    let clock =
        ClockState { remaining_ms: [600_000, 600_000], running: Some(Seat::Second), game_ms };
    let kind: GameKind = g.kind.parse().unwrap();
    store.create_game(&g, &[]).await.unwrap();
    store.append(&moved(kind, &g.start_fen, &g.id, moves, clock), &[]).await.unwrap();
    tokio::time::sleep(down).await;
    let (addr, _app) = server(cannonade_server::Config { db: url, ..config() }).await;
    (addr, store)
}

async fn watch(addr: std::net::SocketAddr, game: &str) -> (Client, Box<cannonade_wire::Snapshot>) {
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::Watch { game: game.into(), since: None }).await;
    let snap = c.snapshot().await;
    (c, snap)
}

/// Polls the store until the game is archived.
async fn archived(store: &SqlStore, id: &str) -> GameRow {
    for _ in 0..100 {
        let g = store.game(id).await.unwrap().unwrap();
        if g.status == "over" {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the game was never archived");
}

/// Red's Tank takes a Blue Infantry (Blue keeps another, so no objective is reached).
const TANK_TAKES: &str = "9c1/11/9im/11/11/11/11/11/2T1i6/9IM/11/10C r - - 0 1";
/// Red's Tank can take Blue's only Navy: the sea battle (§13.2).
const SEA_BATTLE: &str = "9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1";

#[tokio::test]
async fn the_tactical_game_timer_resumes_without_the_downtime_and_ends_on_points() {
    let g = row("tt", GameKind::Commander, "format=tactical", TANK_TAKES, [None, None]);
    // Down for longer than the game time left: none of it is charged.
    let (addr, store) = restart(g, &["Tc4xe4"], Some(1_500), Duration::from_millis(1_600)).await;
    let (mut c, snap) = watch(addr, "tt").await;
    assert_eq!(snap.result, None, "the downtime was charged");
    assert_eq!(snap.options, "format=tactical");
    let left = snap.clock.game_ms.unwrap();
    assert!((1..=1_500).contains(&left), "{left}");
    assert_eq!(snap.clock.running, Some(Seat::Second));
    // Rules §13.3: when the game time expires, the higher score wins.
    let GameEvent::Ended { result, clock, .. } = c.ended().await else { unreachable!() };
    assert_eq!((result.reason.as_str(), result.winner), ("points", Some(Seat::First)));
    let points = result.points.unwrap();
    assert!(points[0] > 0 && points[1] == 0, "{points:?}");
    assert_eq!(clock.game_ms, Some(0));
    let over = archived(&store, "tt").await;
    let stored: cannonade_wire::GameResult =
        serde_json::from_str(over.result.as_deref().unwrap()).unwrap();
    assert_eq!(stored, result);
}

#[tokio::test]
async fn an_objective_stored_without_its_end_ends_the_tactical_game_at_restart() {
    let g = row("ob", GameKind::Commander, "format=tactical", SEA_BATTLE, [None, None]);
    let (addr, store) = restart(g, &["Tc4_a4"], Some(800_000), Duration::ZERO).await;
    let (_c, snap) = watch(addr, "ob").await;
    // Rules §13.3: the sea battle ends the tactical game; Red gets the 50-point bonus on top
    // of the Navy's 80 and wins on points.
    let result = snap.result.expect("the game ended at restart");
    assert_eq!((result.reason.as_str(), result.winner), ("points", Some(Seat::First)));
    assert_eq!(result.points, Some([130, 0]));
    assert_eq!(archived(&store, "ob").await.status, "over");
}

/// Red's chariot checks Black's general up and down the d-file's side; Black's only escape
/// squares are d9 and d8 (an advisor holds d7), or its chariot can block on c8.
const CHECKED: &str = "3k5/R8/3a5/9/2r6/9/9/9/9/4K4 w";
/// Seven plies of that dance: Black to move in check, and d8d9 would make the position
/// after it occur a third time.
const DANCE: [&str; 7] = ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"];

#[tokio::test]
async fn the_engine_searches_with_the_history_and_avoids_a_losing_repetition() {
    // Without the history the escape d8d9 is the obvious move (blocking loses the chariot);
    // under Xiangqi's seed rule it is a third occurrence, which loses at once.
    let mut record = AnyRecord::new(AnyGame::from_fen(GameKind::Xiangqi, CHECKED).unwrap());
    for m in DANCE {
        record.play_text(m).unwrap();
    }
    let limits = cannonade_engine::Limits { depth: Some(4), ..Default::default() };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let blind = cannonade_engine::search_any(&record.position(), &limits, &stop, |_| {});
    assert_eq!(blind.best_text.as_deref(), Some("d8d9"), "the test position no longer tempts");
    let mut after = record.clone();
    after.play_text("d8d9").unwrap();
    let red_wins = |o: cannonade_core::Outcome| o.winner == Some(cannonade_core::Side::First);
    assert!(matches!(after.next(), cannonade_core::Next::Over(o) if red_wins(o)));

    let g = row("rp", GameKind::Xiangqi, "repetition=seed", CHECKED, [None, Some(4)]);
    // The restored game's engine is to move.
    let (addr, _store) = restart(g, &DANCE, None, Duration::ZERO).await;
    let (mut c, snap) = watch(addr, "rp").await;
    // The engine may have moved before the watcher joined: then its move is in the snapshot
    // (a race that made this test time out under a loaded machine).
    let mv = match snap.moves.get(7) {
        Some(m) => m.mv.clone(),
        None => {
            let (v, ply, mv, _) = c.moved().await;
            assert_eq!((v, ply), (8, 7));
            mv
        }
    };
    assert_eq!(mv, "c5c8");
}

#[tokio::test]
async fn spectator_scores_and_the_crowd_record_survive_a_restart() {
    let (url, _store) = file_store("crowd").await;
    let (addr, _app) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let (mut a, mut b, game) = common::pair(addr, GameKind::Xiangqi, common::tc(0, 0)).await;
    let (mut s, _) = watch(addr, &game).await;
    s.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    s.until("ack", |m| matches!(m, ServerMsg::ProposalOk { .. })).await;
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert_eq!(s.revealed().await.1, Some(Score { hits: 1, total: 1 }));
    b.moved().await;

    // A second server on the same database: the first one's memory is gone from the view of
    // anyone who connects to it.
    let (addr, _app2) = server(cannonade_server::Config { db: url, ..config() }).await;
    let before = s.user_id.clone();
    let mut s = Client::connect(addr, Some(&s.token)).await;
    assert_eq!(s.user_id, before, "the session carries over");
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = s.snapshot().await;
    let crowd = snap.crowd.expect("spectators see the crowd's record");
    assert_eq!((crowd.first.agreed, crowd.first.of), (1, 1));
    let score = s.until("the score again", |m| matches!(m, ServerMsg::Score { .. })).await;
    assert_eq!(score, ServerMsg::Score { game: game.clone(), score: Score { hits: 1, total: 1 } });
    // Counting goes on from there.
    let mut b = Client::connect(addr, Some(&b.token)).await;
    b.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    b.snapshot().await;
    s.send(ClientMsg::Propose { game: game.clone(), ply: 1, mv: "h9g7".into() }).await;
    s.until("ack", |m| matches!(m, ServerMsg::ProposalOk { .. })).await;
    b.send(ClientMsg::Move { game: game.clone(), ply: 1, mv: "b9c7".into() }).await;
    assert_eq!(s.revealed().await.1, Some(Score { hits: 1, total: 2 }));
}

#[tokio::test]
async fn chat_survives_a_restart_in_its_rooms() {
    let (url, _store) = file_store("chat").await;
    let (addr, _app) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let (mut a, mut b, game) = common::pair(addr, GameKind::Xiangqi, common::tc(0, 0)).await;
    let (mut s, _) = watch(addr, &game).await;
    s.send(ClientMsg::Chat { game: game.clone(), text: "play h2e2!".into() }).await;
    s.until("own line", |m| matches!(m, ServerMsg::Chat { .. })).await;
    a.send(ClientMsg::Chat { game: game.clone(), text: "good luck".into() }).await;
    b.until("chat", |m| matches!(m, ServerMsg::Chat { .. })).await;

    // A second server on the same database.
    let (addr, _app2) = server(cannonade_server::Config { db: url, ..config() }).await;
    let mut s = Client::connect(addr, Some(&s.token)).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let seen: Vec<String> = s.snapshot().await.chat.into_iter().map(|l| l.text).collect();
    assert_eq!(seen, ["play h2e2!", "good luck"], "spectators read both rooms");
    let mut b = Client::connect(addr, Some(&b.token)).await;
    b.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let seen: Vec<String> = b.snapshot().await.chat.into_iter().map(|l| l.text).collect();
    assert_eq!(seen, ["good luck"], "players never read the spectators' room");
    // Lines go on being numbered after the stored ones.
    b.send(ClientMsg::Chat { game: game.clone(), text: "thanks".into() }).await;
    let line = s.until("chat", |m| matches!(m, ServerMsg::Chat { .. })).await;
    assert!(matches!(line, ServerMsg::Chat { line, .. } if line.text == "thanks"));
}

#[tokio::test]
async fn an_acknowledged_proposal_of_the_open_ply_survives_a_restart() {
    let (url, _store) = file_store("open-ply").await;
    let (addr, _app) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let (a, _b, game) = common::pair(addr, GameKind::Xiangqi, common::tc(0, 0)).await;
    let (mut s, _) = watch(addr, &game).await;
    s.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "b2e2".into() }).await;
    s.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    // The live proposal is acknowledged once stored (the replaced one may not be).
    let last = |m: &ServerMsg| matches!(m, ServerMsg::ProposalOk { mv, .. } if mv == "h2e2");
    s.until("ack", last).await;

    // A second server on the same database: the proposal was only in the first one's memory
    // and in the store.
    let (addr, _app2) = server(cannonade_server::Config { db: url, ..config() }).await;
    let mut s = Client::connect(addr, Some(&s.token)).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    s.snapshot().await;
    let mut a = Client::connect(addr, Some(&a.token)).await;
    a.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    a.snapshot().await;
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    // The spectator's last proposal counts: it matched the move played.
    assert_eq!(s.revealed().await.1, Some(Score { hits: 1, total: 1 }));
}
