//! The analysis board (issue 25, docs/analysis.md): a position checked by the rules over
//! HTTP, the engine's best lines streamed over the socket in bounded slices, replaced by the
//! next position, stopped when asked or when the position's time is used, and bounded per
//! user.

mod common;

use axum::http::StatusCode;
use cannonade_games::GameKind;
use cannonade_server::Config;
use cannonade_server::limits::Limits;
use cannonade_wire::{
    AnalysisStatus, ClientMsg, EngineLine, ErrorCode, PositionRequest, ServerMsg,
};
use common::{Client, account, config, server};
use std::collections::HashSet;
use std::time::Duration;

fn with_limits(limits: Limits) -> Config {
    Config { engine_threads: 1, limits: Limits { ..limits }, ..config() }
}

fn analysis_config() -> Config {
    let base = config();
    with_limits(Limits {
        analysis_time: Duration::from_secs(20),
        analysis_slice: Duration::from_millis(200),
        ..base.limits
    })
}

fn xiangqi(moves: &[&str]) -> PositionRequest {
    PositionRequest {
        game: GameKind::Xiangqi,
        options: String::new(),
        fen: None,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

fn analyse(id: u32, lines: u32, position: PositionRequest) -> ClientMsg {
    ClientMsg::Analyse { id, lines, position }
}

/// The next `analysis` message of `id` that satisfies `pred`: (status, depth, lines).
async fn analysis_of(
    c: &mut Client,
    id: u32,
    pred: impl Fn(AnalysisStatus, u32, &[EngineLine]) -> bool,
) -> (AnalysisStatus, u32, Vec<EngineLine>) {
    match c
        .until("an analysis", |m| {
            matches!(m, ServerMsg::Analysis { id: i, status, depth, lines, .. }
                if *i == id && pred(*status, *depth, lines))
        })
        .await
    {
        ServerMsg::Analysis { status, depth, lines, .. } => (status, depth, lines),
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn the_engine_streams_deeper_lines_and_moves_on_with_the_board() {
    let (addr, _app) = server(analysis_config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send(analyse(1, 3, xiangqi(&[]))).await;
    let (status, depth, lines) =
        analysis_of(&mut c, 1, |s, d, _| s == AnalysisStatus::Running && d >= 3).await;
    assert_eq!(status, AnalysisStatus::Running);
    assert!(depth >= 3);
    assert_eq!(lines.len(), 3);
    let firsts: HashSet<&str> = lines.iter().map(|l| l.moves[0].mv.as_str()).collect();
    assert_eq!(firsts.len(), 3, "three different moves: {lines:?}");
    // Each line's moves are read as people write them, and its first move's squares given.
    assert!(lines.iter().all(|l| !l.moves[0].display.is_empty() && l.squares.len() == 2));
    // A move on the board: the next position replaces the last, with its own id.
    c.send(analyse(2, 1, xiangqi(&["h2e2"]))).await;
    let (_, _, lines) = analysis_of(&mut c, 2, |s, _, _| s == AnalysisStatus::Running).await;
    assert_eq!(lines.len(), 1);
    let later = c.drain(600).await;
    assert!(
        !later.iter().any(|m| matches!(m, ServerMsg::Analysis { id: 1, .. })),
        "the replaced analysis went on: {later:?}"
    );
    // Closing the board stops the search: after a moment nothing more comes.
    c.send(ClientMsg::StopAnalysis).await;
    c.drain(400).await;
    let after = c.drain(1_000).await;
    assert!(
        !after.iter().any(|m| matches!(m, ServerMsg::Analysis { .. })),
        "the stopped analysis went on: {after:?}"
    );
}

#[tokio::test]
async fn a_position_is_searched_for_its_time_and_then_done() {
    let base = config();
    let (addr, _app) = server(with_limits(Limits {
        analysis_time: Duration::from_millis(600),
        analysis_slice: Duration::from_millis(150),
        ..base.limits
    }))
    .await;
    let mut c = Client::connect(addr, None).await;
    c.send(analyse(7, 2, xiangqi(&["h2e2", "h9g7"]))).await;
    let (_, depth, lines) = analysis_of(&mut c, 7, |s, _, _| s == AnalysisStatus::Done).await;
    assert!(depth >= 1 && lines.len() == 2, "{depth} {lines:?}");
    // A mated position has nothing to search: done at once, without lines.
    let mated = PositionRequest {
        fen: Some("3k5/R8/3R5/9/9/9/9/9/9/4K4 b - - 0 1".into()),
        ..xiangqi(&[])
    };
    c.send(analyse(8, 3, mated)).await;
    let (status, depth, lines) = analysis_of(&mut c, 8, |_, _, _| true).await;
    assert_eq!((status, depth, lines.len()), (AnalysisStatus::Done, 0, 0));
}

#[tokio::test]
async fn a_bad_request_is_refused_with_what_is_wrong() {
    let (addr, _app) = server(analysis_config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send(analyse(1, 3, xiangqi(&["h2e2", "h2e2"]))).await;
    let (code, message) = c.error().await;
    assert_eq!(code, ErrorCode::Invalid);
    assert!(message.starts_with("move 2 ('h2e2'): invalid move"), "{message}");
    c.send(analyse(2, 9, xiangqi(&[]))).await;
    let (code, message) = c.error().await;
    assert_eq!((code, message.as_str()), (ErrorCode::Invalid, "an analysis shows 1 to 5 lines"));
    c.send_text(r#"{"t":"analyse","id":3,"position":{"game":"xiangqi","fen":"9/9"}}"#).await;
    let (code, message) = c.error().await;
    assert_eq!(code, ErrorCode::Invalid);
    assert!(message.starts_with("invalid position"), "{message}");
}

#[tokio::test]
async fn a_user_runs_a_bounded_number_of_analyses() {
    let (addr, app) = server(analysis_config()).await;
    let token = account(&app, "analyst").await;
    let mut tabs = Vec::new();
    for i in 0..2 {
        let mut c = Client::connect(addr, Some(&token)).await;
        c.send(analyse(i, 1, xiangqi(&[]))).await;
        analysis_of(&mut c, i, |_, _, _| true).await;
        tabs.push(c);
    }
    let mut third = Client::connect(addr, Some(&token)).await;
    third.send(analyse(5, 1, xiangqi(&[]))).await;
    let (code, message) = third.error().await;
    assert_eq!(code, ErrorCode::LimitReached);
    assert!(message.contains("at most 2"), "{message}");
    // A tab that moves on to another position keeps its one slot.
    tabs[0].send(analyse(9, 1, xiangqi(&["h2e2"]))).await;
    analysis_of(&mut tabs[0], 9, |_, _, _| true).await;
    // Another user is not counted against this one.
    let mut other = Client::connect(addr, None).await;
    other.send(analyse(1, 1, xiangqi(&[]))).await;
    analysis_of(&mut other, 1, |_, _, _| true).await;
    // Closing a tab frees its slot.
    tabs.pop().unwrap().close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    third.send(analyse(6, 1, xiangqi(&[]))).await;
    analysis_of(&mut third, 6, |_, _, _| true).await;
}

#[tokio::test]
async fn the_position_endpoint_answers_or_names_the_problem() {
    let (_, app) = server(analysis_config()).await;
    let body = r#"{"game":"xiangqi","moves":["h2e2","h9g7"]}"#;
    let (status, text, _) = common::http(&app, "POST", "/api/position", body, None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let answer: cannonade_wire::AnalysedPosition = serde_json::from_str(&text).unwrap();
    assert_eq!(answer.moves.len(), 2);
    assert_eq!(answer.moves[0].display, "C2=5");
    // Red's moves after h2e2 h9g7, as the rules count them (perft 1; pyffish agrees).
    let mut game = cannonade_games::AnyGame::start(GameKind::Xiangqi).unwrap();
    for mv in ["h2e2", "h9g7"] {
        game.play(game.parse_move(mv).unwrap()).unwrap();
    }
    assert_eq!(answer.legal.len(), game.legal_moves().len());
    assert_eq!(answer.legal.len(), 35);
    assert!(answer.result.is_none());
    // Two red generals.
    let bad = r#"{"game":"xiangqi","fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKKABNR w"}"#;
    let (status, text, _) = common::http(&app, "POST", "/api/position", bad, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("invalid position") && text.contains("general"), "{text}");
    let (status, text, _) =
        common::http(&app, "POST", "/api/position", r#"{"game":"go"}"#, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("not a position request"), "{text}");
}

/// The board editor's "play from here": a game against the engine or in hot seat starts
/// from the set-up position (casual); Banqi, a finished position and a bad one are refused
/// with what is wrong.
#[tokio::test]
async fn a_game_starts_from_a_set_up_position() {
    let (addr, _app) = server(analysis_config()).await;
    let mut c = Client::connect(addr, None).await;
    // Red's chariot and general against Black's general and advisor.
    let fen = "3ak4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    let play_ai = |game, fen: &str| ClientMsg::PlayAi {
        game,
        options: String::new(),
        clock: common::tc(0, 0),
        level: 1,
        seat: Some(cannonade_wire::Seat::First),
        fen: Some(fen.to_string()),
    };
    c.send(play_ai(GameKind::Xiangqi, fen)).await;
    let first = c.recv().await;
    assert!(matches!(first, ServerMsg::GameStarted { .. }), "{first:?}");
    let ServerMsg::GameStarted { game, .. } = first else { unreachable!() };
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    assert_eq!(snap.start.fen(), fen);
    assert!(snap.legal.is_some_and(|l| l.iter().any(|m| m.mv == "a1a9")));
    c.send(ClientMsg::Hotseat {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: common::tc(0, 0),
        fen: Some(fen.into()),
    })
    .await;
    c.started().await;
    for (kind, fen, why) in [
        (
            GameKind::Banqi,
            "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0",
            "a Banqi game starts face down",
        ),
        (
            GameKind::Xiangqi,
            "3k5/R8/3R5/9/9/9/9/9/9/4K4 b - - 0 1",
            "the game is over in this position",
        ),
        (GameKind::Xiangqi, "3ak4/9/9", "invalid position"),
    ] {
        c.send(play_ai(kind, fen)).await;
        let (code, message) = c.error().await;
        assert_eq!(code, ErrorCode::Invalid);
        assert!(message.starts_with(why), "{message}");
    }
}
