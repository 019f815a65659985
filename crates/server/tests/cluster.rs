//! Two server nodes sharing one store and one bus: a game owned by one node is played and
//! watched from both; audiences hold across the bus; a node whose subscription dropped
//! resyncs its sockets; when the owner stops, the other node takes the game over from the
//! store, and the stopped node's seeks vanish. Runs in-process on the in-process bus with a shared
//! SQLite file, and on Redis + PostgreSQL when CANNONADE_TEST_REDIS and
//! CANNONADE_TEST_POSTGRES are set.

mod common;

use cannonade_games::GameKind;
use cannonade_server::cluster::{self, Bus, Inbox, LocalBus, LocalHub, RedisBus};
use cannonade_server::{App, Config};
use cannonade_wire::{ClientMsg, GameEvent, Role, Score, ServerMsg};
use common::{Client, config, tc};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

struct Node {
    addr: SocketAddr,
    app: Arc<App>,
    task: tokio::task::JoinHandle<()>,
    /// Its end of the in-process bus (to drop its subscription).
    local: Option<LocalBus>,
    /// Its Redis and node id, on Redis (to drop its subscription there).
    redis: Option<(String, String)>,
}

async fn node(config: Config, name: &str, bus: Arc<dyn Bus>, inbox: Inbox) -> Node {
    let app =
        cannonade_server::build_with(config, Some((name.to_string(), bus, inbox))).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (addr, app, task) = cannonade_server::serve_on(app, listener).unwrap();
    Node { addr, app, task, local: None, redis: None }
}

fn cluster_config(db: &str) -> Config {
    Config { db: db.to_string(), lease: Duration::from_millis(1200), ..config() }
}

fn unique(what: &str) -> String {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{what}{}x{nanos}", std::process::id())
}

fn runs(app: &App, game: &str) -> bool {
    app.runs_game(game)
}

const PROPOSAL_WORDS: [&str; 4] = ["tally", "reveal", "proposal_ok", "\"score\""];

/// An invite made by a new player on `addr`: the player and the code.
async fn invite(addr: SocketAddr) -> (Client, String) {
    let mut c = Client::connect(addr, None).await;
    let clock = tc(600_000, 0);
    c.send(ClientMsg::Invite {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock,
        rated: false,
        range: None,
    })
    .await;
    match c.until("invite", |m| matches!(m, ServerMsg::InviteCreated { .. })).await {
        ServerMsg::InviteCreated { code, .. } => (c, code),
        _ => unreachable!(),
    }
}

/// One player on each node: an invite made on `a`, taken on `b` (whose node then runs the
/// game). Returns both players, the game, each one's role and the invite's code.
async fn invite_across(
    a: SocketAddr,
    b: SocketAddr,
) -> (Client, Client, String, Role, Role, String) {
    let (mut p1, code) = invite(a).await;
    let mut p2 = Client::connect(b, None).await;
    p2.send(ClientMsg::AcceptSeek { id: code.clone() }).await;
    let (game, role1) = p1.started().await;
    let (game2, role2) = p2.started().await;
    assert_eq!(game, game2, "the seeker on the other node hears of the game");
    (p1, p2, game, role1, role2, code)
}

/// Two nodes on the in-process bus sharing a SQLite file.
async fn in_process_nodes(names: [&str; 2]) -> (Node, Node) {
    let db = format!("sqlite://{}/{}.db", std::env::temp_dir().display(), unique("cluster"));
    let hub = LocalHub::new();
    let mut nodes = Vec::new();
    for name in names {
        let (bus, inbox) = hub.join(&cluster::topics(name));
        let mut n = node(cluster_config(&db), name, Arc::new(bus.clone()), inbox).await;
        n.local = Some(bus);
        nodes.push(n);
    }
    let b = nodes.pop().unwrap();
    (nodes.pop().unwrap(), b)
}

async fn two_nodes_share_a_game(a: Node, b: Node) {
    // An invite on each node: A's outlives its key's first life, B's dies with B.
    let (mut lasting_seeker, lasting) = invite(a.addr).await;
    let (_doomed_seeker, doomed) = invite(b.addr).await;
    let invited = tokio::time::Instant::now();
    let (p1, p2, game, role1, role2, code) = invite_across(a.addr, b.addr).await;
    assert!(runs(&b.app, &game) && !runs(&a.app, &game), "the taker's node runs the game");
    // A taken invite is gone on every node.
    let mut late = Client::connect(a.addr, None).await;
    late.send(ClientMsg::AcceptSeek { id: code }).await;
    assert_eq!(late.error().await.0, cannonade_wire::ErrorCode::NotFound);

    let (mut first, mut second) = if role1 == Role::First { (p1, p2) } else { (p2, p1) };
    assert_ne!(role1, role2);
    let mut spectators = Vec::new();
    for addr in [a.addr, b.addr] {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        assert_eq!(s.snapshot().await.you, Role::Spectator);
        spectators.push(s);
    }
    for c in [&mut first, &mut second] {
        c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        let snap = c.snapshot().await;
        assert!(snap.you.is_player());
        assert_eq!(snap.legal.is_some(), snap.you == Role::First, "legal moves to the mover only");
    }
    // A spectator on each node proposes; both see the tally, the players nothing.
    for s in &mut spectators {
        s.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
        s.until("ack", |m| matches!(m, ServerMsg::ProposalOk { .. })).await;
    }
    for s in &mut spectators {
        s.until("tally", |m| matches!(m, ServerMsg::Tally { counts, .. } if counts.first().is_some_and(|e| e.n == 2)))
            .await;
    }
    first.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    let (v1, _, _, legal) = first.moved().await;
    assert!(legal.is_none(), "the player who moved waits");
    let (v2, ply, mv, legal) = second.moved().await;
    assert_eq!((v1, v2, ply, mv.as_str()), (1, 1, 0, "h2e2"));
    assert!(legal.is_some(), "the player to move gets the legal moves");
    for s in &mut spectators {
        let m = s.until("the move", |m| matches!(m, ServerMsg::Event { v: 1, .. })).await;
        let ServerMsg::Event { legal, reveal, score, .. } = m else { unreachable!() };
        assert!(legal.is_some(), "spectators get the legal moves");
        assert_eq!(reveal.map(|r| r.matched), Some(2), "and the reveal with the move");
        assert_eq!(score, Some(Score { hits: 1, total: 1 }), "with their own score");
    }
    // A's subscription drops while the second move is played: A's sockets get it once A
    // hears again, and each event once.
    drop_subscription(&a).await;
    second.send(ClientMsg::Move { game: game.clone(), ply: 1, mv: "h9g7".into() }).await;
    let on_b = if role1 == Role::First { &mut second } else { &mut first };
    on_b.until("v2 on B", |m| matches!(m, ServerMsg::Event { v: 2, .. })).await;
    resubscribe(&a).await;
    let clients = [&mut first, &mut second].into_iter().chain(spectators.iter_mut());
    for c in clients {
        if !event_versions(c).contains(&2) {
            c.until("v2", |m| matches!(m, ServerMsg::Event { v: 2, .. })).await;
        }
        let _ = c.drain(200).await;
        assert_eq!(event_versions(c), [1, 2], "each event once");
    }
    for frame in first.frames.iter().chain(&second.frames) {
        for word in PROPOSAL_WORDS {
            assert!(!frame.contains(word), "a player received {word}: {frame}");
        }
    }

    // The owner stops; A takes the game over once the lease runs out, from the store.
    b.app.cluster().unwrap().stop();
    b.task.abort();
    let (mut on_a, gone) = if role1 == Role::First { (first, second) } else { (second, first) };
    let token = gone.token.clone();
    gone.close().await;
    let snap = on_a.snapshot().await;
    assert_eq!((snap.v, snap.moves.len()), (2, 2), "every told move came back");
    assert!(runs(&a.app, &game), "A runs the game now");
    spectators[0].snapshot().await;
    // B's leases ran out, and its invite with them; A's is still there.
    late.send(ClientMsg::AcceptSeek { id: doomed }).await;
    assert_eq!(late.error().await.0, cannonade_wire::ErrorCode::NotFound);
    tokio::time::sleep_until(invited + a.app.config.lease * 3 / 2).await;
    late.send(ClientMsg::AcceptSeek { id: lasting }).await;
    assert_eq!(late.started().await.0, lasting_seeker.started().await.0);
    // The player who was on B comes back on A with the same session and plays on.
    let mut back = Client::connect(a.addr, Some(&token)).await;
    back.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = back.snapshot().await;
    assert!(snap.you.is_player());
    let (mover, waiter) =
        if snap.you == Role::First { (&mut back, &mut on_a) } else { (&mut on_a, &mut back) };
    mover.send(ClientMsg::Move { game: game.clone(), ply: 2, mv: "b0c2".into() }).await;
    let (v, ply, _, _) = waiter.moved().await;
    assert_eq!((v, ply), (3, 2));
    let (v, ..) = spectators[0].moved().await;
    assert_eq!(v, 3);
    mover.send(ClientMsg::Resign { game: game.clone() }).await;
    let GameEvent::Ended { result, .. } = waiter.ended().await else { unreachable!() };
    assert_eq!(result.reason, "resignation");
}

#[tokio::test]
async fn a_player_on_a_node_that_dies_shows_offline_to_the_owner() {
    let (c, d) = in_process_nodes(["node-c", "node-d"]).await;
    let (mut p1, mut p2, game, role1, ..) = invite_across(c.addr, d.addr).await;
    p1.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    p1.snapshot().await;
    p2.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = p2.snapshot().await;
    let seat1 = usize::from(role1 == Role::Second);
    assert!(snap.players[seat1].online, "the player on the other node is online");
    let _ = p2.drain(300).await;
    // p1's node dies without a word: its socket leaves the game once the node is silent.
    c.app.cluster().unwrap().stop();
    let stopped = std::time::Instant::now();
    let offline =
        p2.until("p1 offline", |m| matches!(m, ServerMsg::Presence { online: false, .. })).await;
    let ServerMsg::Presence { game: g, seat, claim_in_ms, .. } = offline else { unreachable!() };
    assert!(role1.holds(seat), "the seat of the player whose node died");
    assert_eq!((g, claim_in_ms.is_some()), (game, true));
    assert!(stopped.elapsed() >= Duration::from_secs(5), "only once the node was silent");
}

#[tokio::test]
async fn the_seeks_of_a_dead_node_vanish_with_its_leases() {
    let (a, b) = in_process_nodes(["node-g", "node-h"]).await;
    let lease = a.app.config.lease;
    // A live node keeps its seeks takeable past their keys' first life.
    let (mut seeker, code) = invite(a.addr).await;
    tokio::time::sleep(lease * 2).await;
    let mut taker = Client::connect(b.addr, None).await;
    taker.send(ClientMsg::AcceptSeek { id: code }).await;
    let (game, _) = taker.started().await;
    assert_eq!(seeker.started().await.0, game);
    // A dead node's invite is gone once its leases would have run out.
    let (_left, code) = invite(a.addr).await;
    a.app.cluster().unwrap().stop();
    tokio::time::sleep(lease + lease / 2).await;
    taker.send(ClientMsg::AcceptSeek { id: code.clone() }).await;
    let (code_seen, text) = taker.error().await;
    assert_eq!(code_seen, cannonade_wire::ErrorCode::NotFound, "{text}");
    assert!(text.contains(&code), "{text}");
}

/// `GET /api/game/{id}/positions` on `app`: the status and the body.
async fn positions(app: &Arc<App>, game: &str) -> (u16, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let req = axum::http::Request::get(format!("/api/game/{game}/positions"))
        .body(axum::body::Body::empty())
        .unwrap();
    let res = cannonade_server::router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status().as_u16();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

#[tokio::test]
async fn the_replay_positions_answer_on_every_node() {
    let (a, b) = in_process_nodes(["node-e", "node-f"]).await;
    let (mut p1, mut p2, game, role1, ..) = invite_across(a.addr, b.addr).await;
    assert!(runs(&b.app, &game) && !runs(&a.app, &game));
    for p in [&mut p1, &mut p2] {
        p.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        p.snapshot().await;
    }
    let (first, second) =
        if role1 == Role::First { (&mut p1, &mut p2) } else { (&mut p2, &mut p1) };
    first.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    second.moved().await;
    // Node A only relays the game (its player watches through it): the owner's answer and
    // A's, built from the store, are the same.
    let (status_b, on_b) = positions(&b.app, &game).await;
    let (status_a, on_a) = positions(&a.app, &game).await;
    assert_eq!((status_b, status_a), (200, 200), "{on_a}");
    assert_eq!(on_a, on_b);
    let p: cannonade_wire::Positions = serde_json::from_str(&on_a).unwrap();
    assert_eq!((p.v, p.positions.len()), (1, 2));
    assert_eq!(positions(&a.app, "nosuch").await.0, 404);
}

/// Drops `node`'s subscription to the bus: at once on the in-process bus; on Redis by
/// killing its connection, and waiting until Redis knows it gone (it comes back by itself
/// half a second later).
async fn drop_subscription(node: &Node) {
    if let Some(bus) = &node.local {
        bus.drop_subscription();
    }
    if let Some((url, id)) = &node.redis {
        let name = cluster::subscription_name(&cluster::topics(id));
        let list = redis_text(redis_call(url, &["CLIENT", "LIST"]).await);
        let conn = list
            .lines()
            .find(|l| l.split(' ').any(|f| f == format!("name={name}")))
            .and_then(|l| l.split(' ').find_map(|f| f.strip_prefix("id=")))
            .expect("the node's subscription connection")
            .to_string();
        redis_call(url, &["CLIENT", "KILL", "ID", &conn]).await;
        while listeners(url, id).await > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// Brings `node`'s subscription back (on Redis: waits until it is).
async fn resubscribe(node: &Node) {
    if let Some(bus) = &node.local {
        bus.resubscribe();
    }
    if let Some((url, id)) = &node.redis {
        while listeners(url, id).await == 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// How many connections listen to node `id`'s topic.
async fn listeners(url: &str, id: &str) -> i64 {
    let topic = &cluster::topics(id)[0];
    match redis_call(url, &["PUBSUB", "NUMSUB", topic]).await {
        RedisReply::Array(items) => match items.get(1) {
            Some(RedisReply::Int(n)) => *n,
            other => panic!("NUMSUB: {other:?}"),
        },
        other => panic!("NUMSUB: {other:?}"),
    }
}

/// A reply of Redis, as far as these tests read them.
#[derive(Debug)]
enum RedisReply {
    Text(String),
    Int(i64),
    Array(Vec<RedisReply>),
}

fn redis_text(reply: RedisReply) -> String {
    match reply {
        RedisReply::Text(t) => t,
        other => panic!("expected text, got {other:?}"),
    }
}

/// One command on a connection of its own.
async fn redis_call(url: &str, args: &[&str]) -> RedisReply {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
    fn read<'a>(
        r: &'a mut BufReader<tokio::net::TcpStream>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = RedisReply> + 'a>> {
        Box::pin(async move {
            let mut line = String::new();
            r.read_line(&mut line).await.unwrap();
            let (kind, rest) = line.trim_end().split_at(1);
            match kind {
                "+" => RedisReply::Text(rest.to_string()),
                ":" => RedisReply::Int(rest.parse().unwrap()),
                "$" => {
                    let mut buf = vec![0; rest.parse::<usize>().unwrap() + 2];
                    r.read_exact(&mut buf).await.unwrap();
                    buf.truncate(buf.len() - 2);
                    RedisReply::Text(String::from_utf8(buf).unwrap())
                }
                "*" => {
                    let mut items = Vec::new();
                    for _ in 0..rest.parse::<usize>().unwrap() {
                        items.push(read(r).await);
                    }
                    RedisReply::Array(items)
                }
                _ => panic!("redis: {line}"),
            }
        })
    }
    let addr = url.trim_start_matches("redis://").trim_end_matches('/');
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut command = format!("*{}\r\n", args.len());
    for a in args {
        command.push_str(&format!("${}\r\n{a}\r\n", a.len()));
    }
    stream.write_all(command.as_bytes()).await.unwrap();
    read(&mut BufReader::new(stream)).await
}

/// The versions of the game events a client received, in order.
fn event_versions(c: &Client) -> Vec<u64> {
    c.frames
        .iter()
        .filter_map(|f| match serde_json::from_str(f) {
            Ok(ServerMsg::Event { v, .. }) => Some(v),
            _ => None,
        })
        .collect()
}

/// A game on B (whose player is `on_b`) with a player on A (`on_a`), both watching, and
/// the player who moves first.
async fn game_across(a: &Node, b: &Node) -> (Client, Client, String, Role) {
    let (mut on_a, mut on_b, game, role_a, ..) = invite_across(a.addr, b.addr).await;
    assert!(runs(&b.app, &game) && !runs(&a.app, &game));
    for p in [&mut on_a, &mut on_b] {
        p.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        p.snapshot().await;
    }
    (on_a, on_b, game, role_a)
}

/// A new spectator of `game` on `addr`, past its snapshot.
async fn spectate(addr: SocketAddr, game: &str) -> Client {
    let mut s = Client::connect(addr, None).await;
    s.send(ClientMsg::Watch { game: game.to_string(), since: None }).await;
    assert_eq!(s.snapshot().await.you, Role::Spectator);
    s
}

#[tokio::test]
async fn a_node_whose_subscription_dropped_resyncs_its_sockets() {
    let (a, b) = in_process_nodes(["node-i", "node-j"]).await;
    let (mut on_a, mut on_b, game, role_a) = game_across(&a, &b).await;
    let mut spectator = spectate(a.addr, &game).await;
    let a_first = role_a == Role::First;
    let mv = |ply: u32, mv: &str| ClientMsg::Move { game: game.clone(), ply, mv: mv.into() };
    // v1 reaches everyone.
    let first = if a_first { &mut on_a } else { &mut on_b };
    first.send(mv(0, "h2e2")).await;
    for c in [&mut on_a, &mut on_b, &mut spectator] {
        c.until("v1", |m| matches!(m, ServerMsg::Event { v: 1, .. })).await;
    }
    // A's subscription drops: v2 (played from either node) does not reach A's sockets…
    let bus = a.local.as_ref().unwrap();
    bus.drop_subscription();
    let second = if a_first { &mut on_b } else { &mut on_a };
    second.send(mv(1, "h9g7")).await;
    on_b.until("v2 on B", |m| matches!(m, ServerMsg::Event { v: 2, .. })).await;
    // …until it is back: A's sockets get v2 once, then v3 as usual.
    bus.resubscribe();
    for c in [&mut on_a, &mut spectator] {
        c.until("v2 after the resync", |m| matches!(m, ServerMsg::Event { v: 2, .. })).await;
    }
    let first = if a_first { &mut on_a } else { &mut on_b };
    first.send(mv(2, "b0c2")).await;
    for c in [&mut on_a, &mut spectator, &mut on_b] {
        c.until("v3", |m| matches!(m, ServerMsg::Event { v: 3, .. })).await;
        let _ = c.drain(200).await;
        assert_eq!(event_versions(c), [1, 2, 3], "each event once");
    }
    // The resync did not flap the players' presence.
    for frame in on_a.frames.iter().chain(&spectator.frames) {
        let offline =
            matches!(serde_json::from_str(frame), Ok(ServerMsg::Presence { online: false, .. }));
        assert!(!offline, "{frame}");
    }
}

#[tokio::test]
async fn an_owner_whose_subscription_dropped_recounts_the_other_nodes_sockets() {
    let (a, b) = in_process_nodes(["node-m", "node-n"]).await;
    let (on_a, mut on_b, game, role_a) = game_across(&a, &b).await;
    let _ = on_b.drain(300).await;
    // The owner's subscription drops while the player on A leaves: the leave is lost…
    let bus = b.local.as_ref().unwrap();
    bus.drop_subscription();
    on_a.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // …until B is back and asks A which of its sockets follow the game.
    bus.resubscribe();
    let offline = on_b
        .until("A's player offline", |m| matches!(m, ServerMsg::Presence { online: false, .. }))
        .await;
    let ServerMsg::Presence { game: g, seat, .. } = offline else { unreachable!() };
    assert!(g == game && role_a.holds(seat));
}

#[tokio::test]
async fn the_sockets_of_a_node_that_lost_a_lease_follow_the_new_owner() {
    let (a, b) = in_process_nodes(["node-k", "node-l"]).await;
    let (mut on_a, mut on_b, game, role_a) = game_across(&a, &b).await;
    let mut spectator = spectate(b.addr, &game).await;
    // B is taken for dead (a partition): A holds the game's lease now.
    let bus = a.local.as_ref().unwrap();
    bus.put(&cluster::lease_key(&game), "node-k", Duration::from_secs(60)).await.unwrap();
    // B's sockets, which followed B's actor, get the game anew from A, and so does A's.
    for c in [&mut on_b, &mut spectator, &mut on_a] {
        assert_eq!(c.snapshot().await.v, 0);
    }
    assert!(runs(&a.app, &game) && !runs(&b.app, &game), "A runs the game now");
    let (first, second) =
        if role_a == Role::First { (&mut on_a, &mut on_b) } else { (&mut on_b, &mut on_a) };
    first.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    assert_eq!(second.moved().await.0, 1);
    assert_eq!(spectator.moved().await.0, 1);
    for c in [&mut on_a, &mut on_b, &mut spectator] {
        let _ = c.drain(200).await;
        assert_eq!(event_versions(c), [1], "each event once");
    }
}

#[tokio::test]
async fn two_nodes_on_the_in_process_bus() {
    let (a, b) = in_process_nodes(["node-a", "node-b"]).await;
    two_nodes_share_a_game(a, b).await;
}

#[tokio::test]
async fn two_nodes_on_redis_and_postgres_when_configured() {
    let (Ok(pg), Ok(redis)) =
        (std::env::var("CANNONADE_TEST_POSTGRES"), std::env::var("CANNONADE_TEST_REDIS"))
    else {
        eprintln!("CANNONADE_TEST_POSTGRES and CANNONADE_TEST_REDIS not both set: skipped");
        return;
    };
    // A database of its own (dropped at the end): the server's migrations run on an empty
    // schema, whatever other branches left in the shared one.
    use sqlx::Connection;
    let mut admin = sqlx::PgConnection::connect(&pg).await.unwrap();
    let name = unique("cannonade_cluster_");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    let db = format!("{}/{name}", pg.rsplit_once('/').unwrap().0);
    let mut nodes = Vec::new();
    for _ in 0..2 {
        // Unique node ids: Redis outlives the test.
        let id = unique("n");
        let (bus, inbox) = RedisBus::connect(&redis, &cluster::topics(&id)).await.unwrap();
        let mut n = node(cluster_config(&db), &id, Arc::new(bus), inbox).await;
        n.redis = Some((redis.clone(), id));
        nodes.push(n);
    }
    let b = nodes.pop().unwrap();
    let a = nodes.pop().unwrap();
    let apps = [a.app.clone(), b.app.clone()];
    two_nodes_share_a_game(a, b).await;
    for app in apps {
        app.cluster().unwrap().stop();
    }
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)")).execute(&mut admin).await.unwrap();
}

/// A session ended on one node — a logout, the session list, a new password — closes its
/// sockets on every node at once, idle ones included: before, another node found out at
/// its next read of the session (within a day) and a socket only when it next spoke.
#[tokio::test]
async fn a_session_ended_on_one_node_closes_its_idle_sockets_on_the_other() {
    let (a, b) = in_process_nodes([&unique("na"), &unique("nb")]).await;
    let creds = serde_json::json!({ "name": "dana", "password": "a long password" }).to_string();
    let (status, body, headers) = common::http(&a.app, "POST", "/api/register", &creds, None).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    let token = common::set_cookie_token(&headers).unwrap();
    let mut there = Client::connect(b.addr, Some(&token)).await;
    let mut here = Client::connect(a.addr, Some(&token)).await;
    let (status, body, _) = common::http(&a.app, "POST", "/api/logout", "", Some(&token)).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    for c in [&mut here, &mut there] {
        // Neither socket says anything: the end reaches them anyway, within the bus's time.
        let got = tokio::time::timeout(Duration::from_secs(3), c.recv()).await;
        match got {
            Ok(ServerMsg::Error { code, .. }) => {
                assert_eq!(code, cannonade_wire::ErrorCode::Forbidden)
            }
            other => panic!("the ended session's socket got {other:?}"),
        }
    }
    // And the other node no longer knows the token.
    let (status, _, _) = common::http(&b.app, "GET", "/api/sessions", "", Some(&token)).await;
    assert_eq!(status, axum::http::StatusCode::UNAUTHORIZED);
}
