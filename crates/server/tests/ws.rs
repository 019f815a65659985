//! Websocket integration tests: a real server on 127.0.0.1 with an ephemeral port.

mod common;

use cannonade_games::GameKind;
use cannonade_wire::{ClientMsg, ErrorCode, GameEvent, OfferKind, Role, Score, ServerMsg};
use common::{Client, account, config, pair, server, tc};
use std::time::Duration;

#[tokio::test]
async fn every_bad_message_is_answered_with_an_error_and_the_socket_stays_open() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send_text("not json").await;
    assert_eq!(c.error().await.0, ErrorCode::BadMessage);
    c.send_text(r#"{"t":"move","game":"x","ply":0,"mv":"a0a1","sneaky":1}"#).await;
    assert!(c.error().await.1.contains("sneaky"));
    c.send_text(&format!(r#"{{"t":"ping","n":1,"pad":"{}"}}"#, "x".repeat(5000))).await;
    assert_eq!(c.error().await.0, ErrorCode::TooLarge);
    c.send(ClientMsg::Watch { game: "nosuchgame".into(), since: None }).await;
    assert_eq!(c.error().await.0, ErrorCode::NotFound);
    c.send(ClientMsg::Seek {
        game: GameKind::Xiangqi,
        options: "repetition=never".into(),
        clock: tc(60_000, 0),
        rated: false,
        range: None,
    })
    .await;
    assert_eq!(c.error().await.0, ErrorCode::Invalid);
    c.send(ClientMsg::Seek {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(60_000, 0),
        rated: true,
        range: None,
    })
    .await;
    assert_eq!(c.error().await.0, ErrorCode::Forbidden, "rated games need an account");
    c.send(ClientMsg::Ping { n: 42 }).await;
    assert_eq!(
        c.until("pong", |m| matches!(m, ServerMsg::Pong { .. })).await,
        ServerMsg::Pong { n: 42 }
    );
}

/// Every message gets an answer: unwatching a game the socket does not follow used to get
/// none (hardening issue, finding 6); unwatching a watched game is quiet and stops its
/// stream.
#[tokio::test]
async fn unwatching_an_unknown_game_is_answered() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::Unwatch { game: "nosuchgame".into() }).await;
    assert_eq!(c.error().await.0, ErrorCode::NotFound);
    let (mut a, _b, game) = pair(addr, GameKind::Xiangqi, tc(60_000, 0)).await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    c.snapshot().await;
    c.send(ClientMsg::Unwatch { game: game.clone() }).await;
    c.send(ClientMsg::Unwatch { game: game.clone() }).await;
    assert_eq!(c.error().await.0, ErrorCode::NotFound, "the second unwatch: not watched");
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    a.moved().await;
    let after = c.drain(300).await;
    assert!(
        !after.iter().any(|m| matches!(m, ServerMsg::Event { .. })),
        "an unwatched game's events still came: {after:?}"
    );
}

#[tokio::test]
async fn a_flood_is_rate_limited_with_errors() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    for n in 0..60 {
        c.send(ClientMsg::Ping { n }).await;
    }
    let msgs = c.drain(500).await;
    let limited = msgs
        .iter()
        .filter(|m| matches!(m, ServerMsg::Error { code: ErrorCode::RateLimited, .. }))
        .count();
    let pongs = msgs.iter().filter(|m| matches!(m, ServerMsg::Pong { .. })).count();
    assert!(limited > 0, "some pings were refused");
    assert_eq!(limited + pongs, 60, "every message got an answer");
}

#[tokio::test]
async fn hotseat_moves_are_checked_and_versioned() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send(common::untimed_hotseat(GameKind::Xiangqi)).await;
    let (game, role) = c.started().await;
    assert_eq!(role, Role::Both);
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    assert_eq!((snap.v, snap.you), (0, Role::Both));
    assert_eq!(snap.legal.as_ref().unwrap().len(), 44);
    assert_eq!(snap.geometry.files, 9);
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "a0a5".into() }).await;
    assert_eq!(c.error().await.0, ErrorCode::IllegalMove);
    c.send(ClientMsg::Move { game: game.clone(), ply: 3, mv: "h2e2".into() }).await;
    assert_eq!(c.error().await.0, ErrorCode::StalePly);
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    let (v, ply, mv, legal) = c.moved().await;
    assert_eq!((v, ply, mv.as_str()), (1, 0, "h2e2"));
    assert!(legal.is_some(), "hot-seat holds the seat to move");
    c.send(ClientMsg::Move { game: game.clone(), ply: 1, mv: "h9g7".into() }).await;
    assert_eq!(c.moved().await.0, 2);
}

#[tokio::test]
async fn legal_moves_go_to_the_mover_and_spectators_not_to_the_waiting_player() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(60_000, 1_000)).await;
    let mut s = Client::connect(addr, None).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = s.snapshot().await;
    assert_eq!(snap.you, Role::Spectator);
    assert!(snap.legal.is_some());
    // The second seat cannot move for the first, and spectators cannot move at all.
    b.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert_eq!(b.error().await.0, ErrorCode::NotYourTurn);
    s.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert_eq!(s.error().await.0, ErrorCode::Forbidden);
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert!(a.moved().await.3.is_none(), "the player who just moved waits");
    assert!(b.moved().await.3.is_some(), "the player to move gets the legal moves");
    assert!(s.moved().await.3.is_some(), "spectators get them for proposals");
}

#[tokio::test]
async fn spectator_proposals_are_tallied_for_spectators_revealed_and_scored() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut s1 = Client::connect(addr, None).await;
    let mut s2 = Client::connect(addr, None).await;
    for s in [&mut s1, &mut s2] {
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        s.snapshot().await;
    }
    a.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert_eq!(a.error().await.0, ErrorCode::Forbidden, "players do not propose");
    s1.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "a0a5".into() }).await;
    assert_eq!(s1.error().await.0, ErrorCode::IllegalMove);
    s1.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "b2e2".into() }).await;
    s1.until("ack", |m| matches!(m, ServerMsg::ProposalOk { .. })).await;
    // Replaceable until the move.
    s1.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    s2.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    let tally = s2
        .until("a tally of two", |m| matches!(m, ServerMsg::Tally { counts, .. } if counts.first().is_some_and(|e| e.n == 2)))
        .await;
    let ServerMsg::Tally { counts, .. } = tally else { unreachable!() };
    assert_eq!(counts.len(), 1, "s1's first proposal was replaced");
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    // The move comes to spectators with its reveal and each one's score.
    let (reveal, score) = s1.revealed().await;
    assert_eq!((reveal.matched, reveal.played.as_str()), (2, "h2e2"));
    assert_eq!((reveal.crowd.first.agreed, reveal.crowd.first.of), (1, 1));
    assert_eq!(score, Some(Score { hits: 1, total: 1 }));
    let (reveal2, score2) = s2.revealed().await;
    assert_eq!((reveal2, score2), (reveal, Some(Score { hits: 1, total: 1 })));
    // Players heard nothing of it.
    b.moved().await;
    let _ = a.drain(700).await;
    let _ = b.drain(100).await;
    for frame in a.frames.iter().chain(&b.frames) {
        for word in ["tally", "reveal", "proposal_ok", "\"score\"", "\"crowd\":{"] {
            assert!(!frame.contains(word), "a player received {word}: {frame}");
        }
    }
    // At the end everyone sees the crowd's record.
    a.send(ClientMsg::Resign { game: game.clone() }).await;
    let GameEvent::Ended { crowd, result, .. } = b.ended().await else { unreachable!() };
    assert_eq!(result.reason, "resignation");
    assert_eq!(crowd.first.of, 1);
}

/// A stored proposal's `proposal_ok` waits for the game's next tally and comes just before
/// it (the two share the spectator's socket write); a move that ends the ply first brings
/// it out just before the move.
#[tokio::test]
async fn a_proposal_is_acknowledged_with_the_next_tally_or_before_the_move() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut s = Client::connect(addr, None).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    s.snapshot().await;
    // Its arrival's spectator count, out of the way.
    s.until("the count", |m| matches!(m, ServerMsg::Spectators { .. })).await;
    s.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "b2e2".into() }).await;
    let first = s.recv().await;
    assert!(
        matches!(&first, ServerMsg::ProposalOk { mv, ply: 0, .. } if mv == "b2e2"),
        "{first:?}"
    );
    let second = s.recv().await;
    assert!(
        matches!(&second, ServerMsg::Tally { counts, .. } if counts[0].mv == "b2e2"),
        "{second:?}"
    );
    // The next ply: the move comes well inside the tally's second.
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    a.moved().await;
    let _ = s.drain(100).await;
    s.send(ClientMsg::Propose { game: game.clone(), ply: 1, mv: "h7e7".into() }).await;
    // Long enough for the group commit, well short of the tally's second.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    b.send(ClientMsg::Move { game: game.clone(), ply: 1, mv: "h9g7".into() }).await;
    let ack = s.recv().await;
    assert!(matches!(&ack, ServerMsg::ProposalOk { mv, ply: 1, .. } if mv == "h7e7"), "{ack:?}");
    let (reveal, _) = s.revealed().await;
    assert_eq!(reveal.played, "h9g7");
}

#[tokio::test]
async fn spectator_counts_are_batched() {
    let (addr, _) = server(config()).await;
    let (mut a, _b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut watchers = Vec::new();
    for _ in 0..10 {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        watchers.push(s);
    }
    let counts: Vec<u32> = a
        .drain(1500)
        .await
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::Spectators { count, .. } => Some(count),
            _ => None,
        })
        .collect();
    assert!(!counts.is_empty() && counts.len() < 5, "ten joins, few messages: {counts:?}");
    assert_eq!(counts.last(), Some(&10));
}

#[tokio::test]
async fn a_reconnecting_client_gets_exactly_the_missed_events() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut s = Client::connect(addr, None).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    s.snapshot().await;
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert_eq!(s.moved().await.0, 1);
    let token = s.token.clone();
    s.close().await;
    b.moved().await;
    b.send(ClientMsg::Move { game: game.clone(), ply: 1, mv: "h9g7".into() }).await;
    a.moved().await;
    a.moved().await;
    a.send(ClientMsg::Move { game: game.clone(), ply: 2, mv: "h0g2".into() }).await;
    a.moved().await;
    let mut s = Client::connect(addr, Some(&token)).await;
    assert_eq!(s.token, token, "the session survives the reconnection");
    s.send(ClientMsg::Watch { game: game.clone(), since: Some(1) }).await;
    let (v2, _, m2, legal2) = s.moved().await;
    let (v3, _, m3, legal3) = s.moved().await;
    assert_eq!((v2, m2.as_str(), v3, m3.as_str()), (2, "h9g7", 3, "h0g2"));
    assert!(legal2.is_none() && legal3.is_some(), "the legal moves come with the last event");
    s.until("clock", |m| matches!(m, ServerMsg::Clock { .. })).await;
    // A version from the future gets a snapshot.
    s.send(ClientMsg::Watch { game: game.clone(), since: Some(99) }).await;
    assert_eq!(s.snapshot().await.v, 3);
}

#[tokio::test]
async fn a_clock_running_out_ends_the_game_on_time() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(400, 0)).await;
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    // The first move charges nothing; now the second seat's 400 ms run out.
    let GameEvent::Ended { result, clock, .. } = b.ended().await else { unreachable!() };
    assert_eq!(result.reason, "time");
    assert_eq!(result.winner, Some(cannonade_wire::Seat::First));
    assert_eq!(clock.remaining_ms[1], 0);
    a.ended().await;
}

#[tokio::test]
async fn abort_draw_rematch_and_takeback() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(60_000, 0)).await;
    // Takeback, accepted.
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    b.moved().await;
    a.send(ClientMsg::Offer { game: game.clone(), kind: OfferKind::Takeback }).await;
    b.until("offer", |m| matches!(m, ServerMsg::Event { event: GameEvent::Offered { .. }, .. }))
        .await;
    b.send(ClientMsg::Accept { game: game.clone(), kind: OfferKind::Takeback }).await;
    let taken = a
        .until("takeback", |m| {
            matches!(m, ServerMsg::Event { event: GameEvent::TakenBack { .. }, .. })
        })
        .await;
    let ServerMsg::Event { event: GameEvent::TakenBack { moves, .. }, legal, .. } = taken else {
        unreachable!()
    };
    assert_eq!(moves, 1);
    assert!(legal.is_some(), "the first seat moves again");
    // Abort while fewer than two moves were played.
    b.send(ClientMsg::Abort { game: game.clone() }).await;
    let GameEvent::Ended { result, .. } = a.ended().await else { unreachable!() };
    assert_eq!((result.winner, result.reason.as_str()), (None, "aborted"));
    // Rematch: seats swap.
    a.send(ClientMsg::Offer { game: game.clone(), kind: OfferKind::Rematch }).await;
    b.until("rematch offer", |m| {
        matches!(m, ServerMsg::Event { event: GameEvent::Offered { .. }, .. })
    })
    .await;
    b.send(ClientMsg::Accept { game: game.clone(), kind: OfferKind::Rematch }).await;
    let (game2, role_b) = b.started().await;
    assert_eq!(role_b, Role::First);
    a.started().await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::Watch { game: game2.clone(), since: None }).await;
        c.snapshot().await;
    }
    b.send(ClientMsg::Move { game: game2.clone(), ply: 0, mv: "h2e2".into() }).await;
    a.moved().await;
    a.send(ClientMsg::Move { game: game2.clone(), ply: 1, mv: "h9g7".into() }).await;
    b.moved().await;
    b.send(ClientMsg::Abort { game: game2.clone() }).await;
    assert_eq!(b.error().await.0, ErrorCode::Invalid, "too late to abort");
    b.send(ClientMsg::Offer { game: game2.clone(), kind: OfferKind::Draw }).await;
    a.until("draw offer", |m| {
        matches!(
            m,
            ServerMsg::Event { event: GameEvent::Offered { kind: OfferKind::Draw, .. }, .. }
        )
    })
    .await;
    a.send(ClientMsg::Accept { game: game2.clone(), kind: OfferKind::Draw }).await;
    let GameEvent::Ended { result, .. } = b.ended().await else { unreachable!() };
    assert_eq!((result.winner, result.reason.as_str()), (None, "agreement"));
}

#[tokio::test]
async fn a_disconnected_player_can_be_claimed_against_after_the_grace_period() {
    let (addr, _) = server(config()).await;
    let (mut a, b, game) = pair(addr, GameKind::Xiangqi, tc(60_000, 0)).await;
    b.close().await;
    let presence =
        a.until("presence", |m| matches!(m, ServerMsg::Presence { online: false, .. })).await;
    assert!(matches!(presence, ServerMsg::Presence { claim_in_ms: Some(300), .. }));
    a.send(ClientMsg::Claim { game: game.clone() }).await;
    assert_eq!(a.error().await.0, ErrorCode::Invalid, "not before the grace period ends");
    tokio::time::sleep(Duration::from_millis(350)).await;
    a.send(ClientMsg::Claim { game: game.clone() }).await;
    let GameEvent::Ended { result, .. } = a.ended().await else { unreachable!() };
    assert_eq!(result.reason, "abandonment");
}

#[tokio::test]
async fn players_and_spectators_chat_in_separate_rooms() {
    let (addr, _) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut s = Client::connect(addr, None).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    s.snapshot().await;
    s.send(ClientMsg::Chat { game: game.clone(), text: "play h2e2!".into() }).await;
    a.send(ClientMsg::Chat { game: game.clone(), text: "good luck".into() }).await;
    let line = b.until("chat", |m| matches!(m, ServerMsg::Chat { .. })).await;
    assert!(matches!(line, ServerMsg::Chat { line, .. } if line.text == "good luck"));
    let heard: Vec<String> = s
        .drain(300)
        .await
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::Chat { line, .. } => Some(line.text),
            _ => None,
        })
        .collect();
    assert_eq!(heard, ["play h2e2!", "good luck"]);
    let _ = b.drain(200).await;
    assert!(
        !b.frames.iter().any(|f| f.contains("h2e2!")),
        "players never see the spectators' room"
    );
}

#[tokio::test]
async fn the_engine_answers_a_move() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::PlayAi {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(0, 0),
        level: 2,
        seat: Some(cannonade_wire::Seat::First),
        fen: None,
    })
    .await;
    let (game, role) = c.started().await;
    assert_eq!(role, Role::First);
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    c.snapshot().await;
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    c.moved().await;
    let (v, ply, _, legal) = c.moved().await;
    assert_eq!((v, ply), (2, 1));
    assert!(legal.is_some());
}

#[tokio::test]
async fn ai_levels_are_the_engine_s_one_to_ten() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let play = |level| ClientMsg::PlayAi {
        game: GameKind::Commander,
        options: String::new(),
        clock: tc(0, 0),
        level,
        seat: Some(cannonade_wire::Seat::Second),
        fen: None,
    };
    for level in [0, 11] {
        c.send(play(level)).await;
        assert_eq!(c.error().await.0, ErrorCode::Invalid, "level {level}");
    }
    // The top level moves first, within the server's node budget.
    c.send(play(10)).await;
    let (game, role) = c.started().await;
    assert_eq!(role, Role::Second);
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    // The engine's move, in the snapshot if it came first.
    let legal = if snap.moves.is_empty() {
        let (_, ply, _, legal) = c.moved().await;
        assert_eq!(ply, 0);
        legal
    } else {
        assert_eq!(snap.moves.len(), 1);
        snap.legal
    };
    assert!(legal.is_some(), "the legal moves come to the side to move");
}

#[tokio::test]
async fn the_lobby_lists_seeks_and_accepting_starts_a_game() {
    let (addr, _) = server(config()).await;
    let mut a = Client::connect(addr, None).await;
    let mut b = Client::connect(addr, None).await;
    b.send(ClientMsg::LobbySubscribe).await;
    b.until("lobby", |m| matches!(m, ServerMsg::Lobby { .. })).await;
    a.send(ClientMsg::Seek {
        game: GameKind::ChessBattle,
        options: String::new(),
        clock: tc(300_000, 3_000),
        rated: false,
        range: None,
    })
    .await;
    let ServerMsg::SeekAdded { seek } =
        b.until("seek", |m| matches!(m, ServerMsg::SeekAdded { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(seek.game, GameKind::ChessBattle);
    b.send(ClientMsg::AcceptSeek { id: seek.id.clone() }).await;
    b.until("seek removed", |m| matches!(m, ServerMsg::SeekRemoved { .. })).await;
    let (g1, _) = a.started().await;
    let (g2, _) = b.started().await;
    assert_eq!(g1, g2);
    b.send(ClientMsg::AcceptSeek { id: seek.id }).await;
    assert_eq!(b.error().await.0, ErrorCode::NotFound, "a seek is taken once");
}

#[tokio::test]
async fn a_rated_game_between_accounts_moves_both_glicko_ratings() {
    let (addr, app) = server(config()).await;
    let (ta, tb) = (account(&app, "alice").await, account(&app, "bob").await);
    let mut a = Client::connect(addr, Some(&ta)).await;
    let mut b = Client::connect(addr, Some(&tb)).await;
    let mut anon = Client::connect(addr, None).await;
    a.send(ClientMsg::Seek {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(60_000, 0),
        rated: true,
        range: None,
    })
    .await;
    let ServerMsg::SeekAdded { seek } =
        a.until("seek", |m| matches!(m, ServerMsg::SeekAdded { .. })).await
    else {
        unreachable!()
    };
    anon.send(ClientMsg::AcceptSeek { id: seek.id.clone() }).await;
    assert_eq!(
        anon.error().await.0,
        ErrorCode::Forbidden,
        "anonymous users do not play rated games"
    );
    b.send(ClientMsg::AcceptSeek { id: seek.id }).await;
    let (game, _) = a.started().await;
    a.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = a.snapshot().await;
    assert!(snap.rated);
    a.send(ClientMsg::Offer { game: game.clone(), kind: OfferKind::Takeback }).await;
    assert_eq!(a.error().await.0, ErrorCode::Invalid, "no takebacks in rated games");
    a.send(ClientMsg::Resign { game: game.clone() }).await;
    a.ended().await;
    let (alice, bob) = (a.user_id.clone(), b.user_id.clone());
    let ra = app.store.rating(&alice, "xiangqi", "bullet").await.unwrap().expect("alice is rated");
    let rb = app.store.rating(&bob, "xiangqi", "bullet").await.unwrap().expect("bob is rated");
    assert_eq!((ra.games, rb.games), (1, 1));
    assert!(ra.rating < 1500.0 && rb.rating > 1500.0);
    assert!(ra.rd < 350.0);
}

#[tokio::test]
async fn the_engine_plays_banqi_flips_through_the_dealer() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let clock = tc(0, 0);
    c.send(ClientMsg::PlayAi {
        game: GameKind::Banqi,
        options: String::new(),
        clock,
        level: 1,
        seat: Some(cannonade_wire::Seat::First),
        fen: None,
    })
    .await;
    let (game, _) = c.started().await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    assert!(snap.commitment.is_some());
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "d2?".into() }).await;
    let (_, _, mine, _) = c.moved().await;
    assert!(mine.starts_with("d2="), "the flip is recorded with its piece: {mine}");
    let (_, ply, reply, legal) = c.moved().await;
    assert_eq!(ply, 1);
    assert!(reply.contains('='), "the engine's first move is a flip too: {reply}");
    assert!(legal.is_some());
}

#[tokio::test]
async fn the_commander_tactical_game_is_an_option_with_a_fifteen_minute_game_timer() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let hotseat = |game, options: &str, clock| ClientMsg::Hotseat {
        game,
        options: options.into(),
        clock,
        fen: None,
    };
    // A scored format is Commander Chess's, and is played with clocks.
    c.send(hotseat(GameKind::Commander, "format=tactical", tc(0, 0))).await;
    assert_eq!(c.error().await.0, ErrorCode::Invalid);
    c.send(hotseat(GameKind::Xiangqi, "format=tactical", tc(60_000, 0))).await;
    assert_eq!(c.error().await.0, ErrorCode::Invalid);
    c.send(hotseat(GameKind::Commander, "format=tactical", tc(600_000, 0))).await;
    let (game, _) = c.started().await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    assert_eq!(snap.options, "format=tactical");
    // Rules §13.3: 15 minutes for the whole game, from the first move on.
    assert_eq!((snap.clock.game_ms, snap.clock.running), (Some(900_000), None));
    let mv = snap.legal.unwrap()[0].mv.clone();
    c.send(ClientMsg::Move { game, ply: 0, mv }).await;
    let ServerMsg::Event { event: GameEvent::Moved { clock, .. }, .. } = c
        .until("a move", |m| matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!((clock.game_ms, clock.running), (Some(900_000), Some(cannonade_wire::Seat::Second)));
}
