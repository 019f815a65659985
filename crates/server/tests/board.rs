//! What a rules-free client is sent to draw and replay a board: the geometry of every game
//! (Commander's 11×12 points with terrain and the river), unit texts, air-defence zones, the
//! square in check, the seats' colours, each legal move's display text, the positions of a
//! game for replay, a session's games and the games the server plays.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cannonade_games::{AnyGame, GameKind};
use cannonade_wire::{
    ClientMsg, GameEvent, PastGame, PieceColour, Positions, PublicPosition, Role, ServerMsg,
    Snapshot,
};
use common::{Client, config, server, tc};
use http_body_util::BodyExt;
use std::sync::Arc;
use tower::ServiceExt;

async fn get(
    app: &Arc<cannonade_server::App>,
    path: &str,
    token: Option<&str>,
) -> (StatusCode, String) {
    let mut req = Request::get(path);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let res = cannonade_server::router(app.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).to_string())
}

/// A hot-seat game of `kind` and its first snapshot.
async fn hotseat(c: &mut Client, kind: GameKind) -> (String, Box<Snapshot>) {
    c.send(common::untimed_hotseat(kind)).await;
    let (game, role) = c.started().await;
    assert_eq!(role, Role::Both);
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    (game, snap)
}

/// Plays `mv` and returns the position the `moved` event carries.
async fn play(c: &mut Client, game: &str, ply: u32, mv: &str) -> PublicPosition {
    c.send(ClientMsg::Move { game: game.into(), ply, mv: mv.into() }).await;
    let m = c
        .until("a move", |m| matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. }))
        .await;
    match m {
        ServerMsg::Event { event: GameEvent::Moved { position, .. }, .. } => position,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn commander_snapshot_has_its_board_unit_texts_and_both_air_defences() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let (game, snap) = hotseat(&mut c, GameKind::Commander).await;
    let g = &snap.geometry;
    assert_eq!((g.files, g.ranks, g.missing.len()), (11, 12, 0));
    let terrain =
        |kind: &str| g.regions.iter().find(|r| r.kind == kind).map_or(0, |r| r.squares.len());
    assert_eq!((terrain("water"), terrain("coast"), terrain("land")), (24, 16, 92));
    let river = g.river.as_ref().expect("a river");
    assert_eq!((river.after_rank.as_str(), river.fords.join("")), ("6", "fh".into()));
    assert_eq!(snap.position.pieces()["g1"], "C");
    let zones = snap.position.air_defence().expect("air defence in Commander positions");
    assert!(!zones.first.is_empty() && !zones.second.is_empty());
    // Section 8.2: the Missile on g3 (radius 2) covers g5; nothing of Red's reaches g8.
    assert!(zones.first.contains(&"g5".to_string()) && !zones.first.contains(&"g8".to_string()));

    // A move that makes a stack: the event lists the stack as one unit text, carrier first,
    // exactly as the rules crate's own position reads.
    let mut local = AnyGame::start(GameKind::Commander).unwrap();
    let (mv, after) = local
        .legal_moves()
        .into_iter()
        .find_map(|m| {
            let mut next = local.clone();
            next.play(m).ok()?;
            let p = PublicPosition::of(&next);
            p.pieces().values().any(|t| t.starts_with('(')).then(|| (local.move_text(m), p))
        })
        .expect("some first move makes a stack");
    let sent = play(&mut c, &game, 0, &mv).await;
    assert_eq!(sent, after);
    assert!(sent.pieces().values().any(|t| t.starts_with('(') && t.ends_with(')')), "{mv}");
    local.play(local.parse_move(&mv).unwrap()).unwrap();
    assert_eq!(sent.fen(), local.fen());
}

#[tokio::test]
async fn legal_moves_carry_display_and_the_check_square_is_the_generals() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let (game, snap) = hotseat(&mut c, GameKind::Xiangqi).await;
    let legal = snap.legal.as_ref().unwrap();
    let cannon = legal.iter().find(|m| m.mv == "h2e2").unwrap();
    assert_eq!(cannon.display, "C2=5", "WXF, the Xiangqi notation people read");
    assert!(legal.iter().all(|m| !m.display.is_empty()));
    assert_eq!(snap.position.check(), None);
    assert_eq!(snap.position.colours(), Some([PieceColour::Red, PieceColour::Black]));
    play(&mut c, &game, 0, "h2e2").await;
    play(&mut c, &game, 1, "h7e7").await;
    // The cannon takes on e6 and checks over Black's own cannon on e7.
    let p = play(&mut c, &game, 2, "e2e6").await;
    assert!(p.in_check());
    assert_eq!(p.check(), Some("e9"));
}

#[tokio::test]
async fn banqi_seat_colours_come_with_the_first_flip() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let (game, snap) = hotseat(&mut c, GameKind::Banqi).await;
    assert_eq!(snap.position.colours(), None, "no colours before the first flip");
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "d2?".into() }).await;
    let m = c
        .until("the flip", |m| matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. }))
        .await;
    use PieceColour::{Black, Red};
    let ServerMsg::Event { event: GameEvent::Moved { info, position, .. }, .. } = m else {
        unreachable!()
    };
    // The flipping seat plays the colour it turned up (upper case: Red).
    let red = info.mv.chars().last().unwrap().is_ascii_uppercase();
    let expected = if red { [Red, Black] } else { [Black, Red] };
    assert_eq!(position.colours(), Some(expected));
}

#[tokio::test]
async fn positions_for_replay_my_games_geometries_and_the_games_in_welcome() {
    let (addr, app) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let first = c.frames[0].clone();
    let welcome: ServerMsg = serde_json::from_str(&first).unwrap();
    let ServerMsg::Welcome { protocol, games, .. } = welcome else { panic!("{first}") };
    assert_eq!(protocol, cannonade_wire::PROTOCOL_VERSION);
    assert_eq!(games, GameKind::available_games().collect::<Vec<_>>());

    let (game, _) = hotseat(&mut c, GameKind::Xiangqi).await;
    let mut sent = Vec::new();
    for (ply, mv) in ["h2e2", "h9g7", "h0g2"].iter().enumerate() {
        sent.push(play(&mut c, &game, ply as u32, mv).await);
    }
    let (s, body) = get(&app, &format!("/api/game/{game}/positions"), None).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let p: Positions = serde_json::from_str(&body).unwrap();
    assert_eq!((p.game.as_str(), p.v, p.positions.len()), (game.as_str(), 3, 4));
    assert_eq!(p.positions[0], PublicPosition::of(&AnyGame::start(GameKind::Xiangqi).unwrap()));
    assert_eq!(p.positions[1..], sent[..], "each position as its move's event carried it");
    assert_eq!(get(&app, "/api/game/nosuch/positions", None).await.0, StatusCode::NOT_FOUND);

    let (s, body) = get(&app, "/api/my-games", Some(&c.token)).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let mine: serde_json::Value = serde_json::from_str(&body).unwrap();
    let mine: Vec<PastGame> = serde_json::from_value(mine["games"].clone()).unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(
        (mine[0].id.as_str(), mine[0].game, mine[0].you),
        (game.as_str(), GameKind::Xiangqi, Role::Both)
    );
    assert_eq!(mine[0].result, None);
    let stranger = "ab".repeat(32);
    assert_eq!(get(&app, "/api/my-games", Some(&stranger)).await.1, r#"{"games":[]}"#);
    assert_eq!(get(&app, "/api/my-games", None).await.0, StatusCode::UNAUTHORIZED);

    let (s, body) = get(&app, "/api/geometry", None).await;
    assert_eq!(s, StatusCode::OK);
    let all: serde_json::Value = serde_json::from_str(&body).unwrap();
    for kind in GameKind::available_games() {
        assert_eq!(all[kind.name()]["game"], kind.name(), "{kind}");
    }
}

/// The rules pages draw each game's start position from `/api/starts`; the invite page says
/// what an invite offers from `/api/invite/CODE`, and that a code no longer open is gone.
#[tokio::test]
async fn start_positions_and_what_an_invite_offers() {
    let (addr, app) = server(config()).await;
    let (s, body) = get(&app, "/api/starts", None).await;
    assert_eq!(s, StatusCode::OK);
    let starts: std::collections::BTreeMap<String, PublicPosition> =
        serde_json::from_str(&body).unwrap();
    for kind in GameKind::available_games() {
        let expected = PublicPosition::of(&AnyGame::start(kind).unwrap());
        assert_eq!(starts[kind.name()], expected, "{kind}");
    }

    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::Invite {
        game: GameKind::Commander,
        options: String::new(),
        clock: tc(300_000, 3_000),
        rated: false,
        range: None,
    })
    .await;
    let code = match c.until("the invite", |m| matches!(m, ServerMsg::InviteCreated { .. })).await {
        ServerMsg::InviteCreated { code, .. } => code,
        _ => unreachable!(),
    };
    let (s, body) = get(&app, &format!("/api/invite/{code}"), None).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let info: cannonade_wire::SeekInfo = serde_json::from_str(&body).unwrap();
    assert_eq!((info.id.as_str(), info.game), (code.as_str(), GameKind::Commander));
    assert_eq!(info.clock, tc(300_000, 3_000));
    assert_eq!(get(&app, "/api/invite/nope", None).await.0, StatusCode::NOT_FOUND);
}
