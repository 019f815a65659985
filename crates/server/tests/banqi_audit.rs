//! The Banqi audit: every byte sent to the players' sockets in a game with spectators
//! proposing is recorded; no face-down identity, no seed before the end and no proposal data
//! may be in it. The revealed seed must then verify every flip of the exported record.

mod common;

use cannonade_banqi::{AnyPosition, Commitment, DealSeed, Options, Position, deal_from_seed};
use cannonade_games::GameKind;
use cannonade_wire::{ClientMsg, GameEvent, LegalMove, ServerMsg};
use common::{Client, config, pair, server, tc};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// A tiny deterministic generator for the players' and spectators' choices.
struct Lcg(u64);
impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

#[tokio::test]
async fn players_receive_no_hidden_identity_and_no_proposal() {
    let (addr, app) = server(config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Banqi, tc(0, 0)).await;
    let commitment = {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        let snap = s.snapshot().await;
        s.close().await;
        snap.commitment.expect("a Banqi game publishes its commitment at the start")
    };
    let mut spectators = Vec::new();
    for _ in 0..3 {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        s.snapshot().await;
        spectators.push(s);
    }
    let mut rng = Lcg(7);
    // The first seat has the legal moves at the start.
    let mut legal: Vec<LegalMove> = {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        s.snapshot().await.legal.unwrap()
    };
    let mut mover_is_a = true;
    let mut ended = false;
    for ply in 0..40u32 {
        for s in spectators.iter_mut() {
            let mv = legal[rng.pick(legal.len())].mv.clone();
            s.send(ClientMsg::Propose { game: game.clone(), ply, mv }).await;
            s.until("ack", |m| matches!(m, ServerMsg::ProposalOk { .. })).await;
        }
        let mv = legal[rng.pick(legal.len())].mv.clone();
        let (mover, other) = if mover_is_a { (&mut a, &mut b) } else { (&mut b, &mut a) };
        mover.send(ClientMsg::Move { game: game.clone(), ply, mv }).await;
        mover.moved().await;
        let (_, _, _, next) = other.moved().await;
        for s in spectators.iter_mut() {
            s.revealed().await;
        }
        match next {
            Some(l) => legal = l,
            None => {
                ended = true;
                break;
            }
        }
        mover_is_a = !mover_is_a;
    }
    // The replay positions anyone may fetch while the game runs.
    let replay = {
        let req = axum::http::Request::get(format!("/api/game/{game}/positions"))
            .body(axum::body::Body::empty())
            .unwrap();
        let res = cannonade_server::router(app.clone()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), 200);
        String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap()
    };
    if !ended {
        a.send(ClientMsg::Resign { game: game.clone() }).await;
    }
    let GameEvent::Ended { seed, .. } = a.ended().await else { unreachable!() };
    b.ended().await;
    let seed = seed.expect("the seed is revealed at the end");
    let deal_seed = DealSeed::from_hex(&seed).unwrap();
    assert!(Commitment::from_hex(&commitment).unwrap().matches(&deal_seed));
    let deal = deal_from_seed(&Position::startpos(), &deal_seed).fen();
    let identities = deal.split_whitespace().nth(5).unwrap().to_string();
    assert_eq!(identities.len(), 32);

    assert!(!replay.contains(&seed) && !replay.contains(&identities), "the replay positions");
    let replay: serde_json::Value = serde_json::from_str(&replay).unwrap();
    for fen in fens(&replay) {
        let parsed = AnyPosition::from_fen_with(&fen, Options::default()).unwrap();
        assert!(matches!(parsed, AnyPosition::Public(_)), "a dealt replay position: {fen}");
    }
    for (who, client) in [("first", &a), ("second", &b)] {
        let end = client.frames.iter().position(|f| f.contains("\"e\":\"ended\"")).unwrap();
        for frame in &client.frames[..end] {
            assert!(!frame.contains(&seed), "{who} saw the seed before the end");
            assert!(!frame.contains(&identities), "{who} saw the deal");
            let msg: serde_json::Value = serde_json::from_str(frame).unwrap();
            let t = msg["t"].as_str().unwrap();
            assert!(!["tally", "reveal", "proposal_ok", "score"].contains(&t), "{who} got {t}");
            assert!(msg.get("crowd").is_none_or(|c| c.is_null()), "{who} got the crowd: {frame}");
            for fen in fens(&msg) {
                let parsed = AnyPosition::from_fen_with(&fen, Options::default()).unwrap();
                assert!(
                    matches!(parsed, AnyPosition::Public(_)),
                    "{who} got a dealt position: {fen}"
                );
            }
        }
    }

    // The archive verifies against the revealed seed.
    let req = axum::http::Request::get(format!("/api/game/{game}/export"))
        .body(axum::body::Body::empty())
        .unwrap();
    let res = cannonade_server::router(app).oneshot(req).await.unwrap();
    assert_eq!(res.status(), 200);
    let text =
        String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let record = cannonade_games::pgn::read_game(&text).unwrap();
    record.verify_deal().expect("every flip follows from the seed");
    // The standard tags: the date the game was made, today in UTC, and the site (its id).
    let today = cannonade_games::pgn::date_tag(
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis()
            as i64,
    );
    assert_eq!(record.tag("Date"), Some(today.as_str()), "{text}");
    assert_eq!(record.tag("Site"), Some(game.as_str()), "{text}");
    assert!(record.record.moves_text().iter().any(|m| m.contains('=')), "the game had flips");
}

/// Every `fen` string anywhere in a message.
fn fens(v: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                if k == "fen" {
                    if let Some(s) = x.as_str() {
                        out.push(s.to_string());
                    }
                } else {
                    out.extend(fens(x));
                }
            }
        }
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| out.extend(fens(x))),
        _ => {}
    }
    out
}
