//! Correspondence games (days per move): the lobby takes 1 to 14 days, a move sets the
//! mover's days back, nobody claims a correspondence game for absence, and a restarted
//! server charges the mover the wall-clock time it was down (ending the game on time when
//! the days ran out meanwhile), with the game in the "your turn" list again.

mod common;

use cannonade_games::{AnyGame, AnyRecord, GameKind};
use cannonade_store::{EventRow, GameRow, SqlStore, Store};
use cannonade_wire::{
    ClientMsg, ClockState, DAY_MS, ErrorCode, GameEvent, MoveInfo, PublicPosition, Seat, ServerMsg,
    TimeControl,
};
use common::{Client, config, http, server};

const HOUR: u64 = 3_600_000;

/// A file store of its own for one test.
async fn file_store(name: &str) -> (String, SqlStore) {
    let dir = std::env::temp_dir().join(format!("cannonade-corr-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}/s.db", dir.display());
    let store = SqlStore::connect(&url).await.unwrap();
    (url, store)
}

async fn watch(
    addr: std::net::SocketAddr,
    token: Option<&str>,
    game: &str,
) -> (Client, Box<cannonade_wire::Snapshot>) {
    let mut c = Client::connect(addr, token).await;
    c.send(ClientMsg::Watch { game: game.into(), since: None }).await;
    let snap = c.snapshot().await;
    (c, snap)
}

#[tokio::test]
async fn the_lobby_takes_one_to_fourteen_days_and_nothing_else_as_correspondence() {
    let (addr, _app) = server(config()).await;
    let mut a = Client::connect(addr, None).await;
    let seek = |clock| ClientMsg::Seek {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock,
        rated: false,
        range: None,
    };
    let bad = [
        TimeControl::correspondence(0),
        TimeControl::correspondence(15),
        TimeControl { increment_ms: 1_000, ..TimeControl::correspondence(3) },
        TimeControl { initial_ms: 60_000, ..TimeControl::correspondence(3) },
    ];
    for clock in bad {
        a.send(seek(clock)).await;
        assert_eq!(a.error().await.0, ErrorCode::Invalid, "{clock:?}");
    }
    a.send(seek(TimeControl::correspondence(14))).await;
    let after = a.drain(300).await;
    assert!(!after.iter().any(|m| matches!(m, ServerMsg::Error { .. })), "{after:?}");
}

#[tokio::test]
async fn a_correspondence_game_survives_a_restart_with_the_movers_days_running() {
    let (url, _store) = file_store("live").await;
    let (addr, app) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let tokens = [common::account(&app, "corr_ann").await, common::account(&app, "corr_bob").await];
    let clock = TimeControl::correspondence(3);
    let (mut first, mut second, game) = common::pair_in(
        addr,
        GameKind::Xiangqi,
        clock,
        true,
        tokens.each_ref().map(|t| Some(t.as_str())),
    )
    .await;
    let (first_token, second_token) = (first.token.clone(), second.token.clone());
    // Both watch since the pairing: the clock setting and three days each.
    for c in [&mut first, &mut second] {
        c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        let snap = c.snapshot().await;
        assert_eq!(snap.time_control, clock);
        assert_eq!(snap.clock.remaining_ms, [3 * DAY_MS; 2]);
    }
    first.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    second.moved().await;
    second.send(ClientMsg::Move { game: game.clone(), ply: 1, mv: "h9g7".into() }).await;
    first.moved().await;
    // The first seat's socket goes: no claim is offered, and none is taken.
    first.close().await;
    let gone =
        second.until("presence", |m| matches!(m, ServerMsg::Presence { online: false, .. })).await;
    assert!(matches!(gone, ServerMsg::Presence { claim_in_ms: None, .. }), "{gone:?}");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await; // past the test grace
    second.send(ClientMsg::Claim { game: game.clone() }).await;
    assert_eq!(second.error().await.0, ErrorCode::Invalid);

    // A second server on the same database (the first one's memory is gone for whoever
    // connects to it): the first seat, on another device, finds the game in "your turn"
    // with about three days left, the wall-clock time since the move charged.
    let (addr2, app2) = server(cannonade_server::Config { db: url, ..config() }).await;
    let (status, body, _) = http(&app2, "GET", "/api/your-turn", "", Some(&first_token)).await;
    assert_eq!(status, axum::http::StatusCode::OK);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["games"][0]["id"], game.as_str(), "{body}");
    let (mut first, snap) = watch(addr2, Some(&first_token), &game).await;
    assert_eq!(snap.moves.len(), 2);
    assert_eq!(snap.clock.running, Some(Seat::First));
    let left = snap.clock.remaining_ms[0];
    assert!(3 * DAY_MS - 60_000 < left && left <= 3 * DAY_MS, "{left}");
    assert_eq!(snap.clock.remaining_ms[1], 3 * DAY_MS);
    // And play goes on; the second seat's days are set back after its move.
    let (mut second, _) = watch(addr2, Some(&second_token), &game).await;
    first.send(ClientMsg::Move { game: game.clone(), ply: 2, mv: "b2c2".into() }).await;
    second.moved().await;
    second.send(ClientMsg::Move { game: game.clone(), ply: 3, mv: "b9c7".into() }).await;
    let (_, _, _, _) = first.moved().await;
    let (_, snap) = watch(addr2, Some(&first_token), &game).await;
    assert_eq!(snap.clock.remaining_ms[1], 3 * DAY_MS);
}

fn row(id: &str, days: u32) -> GameRow {
    let fen = AnyGame::start(GameKind::Xiangqi).unwrap().fen();
    GameRow {
        initial_ms: (u64::from(days) * DAY_MS) as i64,
        days_per_move: i64::from(days),
        ..common::game_row(id, GameKind::Xiangqi, "", &fen, [None, None])
    }
}

/// A stored game of `days` per move in which the first seat played one move, stored
/// `ago_ms` ago on the wall clock (the second seat's days run from then).
async fn stored_with_a_move(store: &SqlStore, id: &str, days: u32, ago_ms: u64) {
    let g = row(id, days);
    store.create_game(&g, &[]).await.unwrap();
    let mut record = AnyRecord::new(AnyGame::start(GameKind::Xiangqi).unwrap());
    let pos = record.position();
    let mv = pos.parse_move("h2e2").unwrap();
    let info = MoveInfo { mv: pos.move_text(mv), display: pos.display_move(mv), seat: Seat::First };
    record.play(mv).unwrap();
    let full = u64::from(days) * DAY_MS;
    let event = GameEvent::Moved {
        ply: 0,
        info,
        position: PublicPosition::of(&record.position()),
        clock: ClockState {
            remaining_ms: [full, full],
            running: Some(Seat::Second),
            game_ms: None,
        },
    };
    let mut body = serde_json::to_value(&event).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let at = now.as_millis() as i64 - ago_ms as i64;
    body["at"] = serde_json::json!(at);
    let rows = [EventRow { game_id: id.into(), v: 1, body: body.to_string() }];
    store.append(&rows, &[]).await.unwrap();
}

#[tokio::test]
async fn the_downtime_is_charged_to_the_mover_and_a_clock_that_ran_out_meanwhile_ends_the_game() {
    let (url, store) = file_store("down").await;
    // Down for 30 hours after the first seat's move in a 2-day game; down for 25 hours
    // in a 1-day game.
    stored_with_a_move(&store, "corrdown01", 2, 30 * HOUR).await;
    stored_with_a_move(&store, "corrdown02", 1, 25 * HOUR).await;
    let (addr, _app) = server(cannonade_server::Config { db: url, ..config() }).await;

    let (_c, snap) = watch(addr, None, "corrdown01").await;
    assert_eq!(snap.result, None);
    assert_eq!(snap.clock.running, Some(Seat::Second));
    let left = snap.clock.remaining_ms[1];
    let expected = 2 * DAY_MS - 30 * HOUR;
    assert!(expected - 60_000 < left && left <= expected, "{left} vs {expected}");
    assert_eq!(snap.clock.remaining_ms[0], 2 * DAY_MS);

    let (mut c, snap) = watch(addr, None, "corrdown02").await;
    let result = match snap.result {
        Some(r) => r,
        None => match c.ended().await {
            GameEvent::Ended { result, .. } => result,
            _ => unreachable!(),
        },
    };
    assert_eq!((result.winner, result.reason.as_str()), (Some(Seat::First), "time"));
    let g = store.game("corrdown02").await.unwrap().unwrap();
    assert!(
        g.status == "over" || g.result.is_some() || {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            store.game("corrdown02").await.unwrap().unwrap().status == "over"
        }
    );
}
