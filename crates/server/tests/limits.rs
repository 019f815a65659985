//! Limits per client: connections per address, games played alone per user, the size of
//! options, messages per session and per address, seeks per user.

mod common;

use cannonade_games::GameKind;
use cannonade_server::limits::Limits;
use cannonade_wire::{ClientMsg, ErrorCode};
use common::{Client, config, server, tc};

/// One address holds at most so many connections (websockets included); a closed one frees
/// its place (the audit held 2,000 sockets from one client).
#[tokio::test]
async fn connections_are_bounded_per_address() {
    let limits = Limits { connections_per_address: 4, ..Limits::default() };
    let (addr, _app) = server(cannonade_server::Config { limits, ..config() }).await;
    let first = Client::connect(addr, None).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(Client::connect(addr, Some(&first.token)).await);
    }
    let url = format!("ws://{addr}/ws");
    assert!(tokio_tungstenite::connect_async(url.clone()).await.is_err(), "a fifth connection");
    held.pop().unwrap().close().await;
    // The server sees the close a moment later.
    let mut ok = false;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        if tokio_tungstenite::connect_async(url.clone()).await.is_ok() {
            ok = true;
            break;
        }
    }
    assert!(ok, "a closed connection kept its place");
}

/// A connection that does not finish a request's head in time — half a request, or nothing
/// at all — is closed, and so is its place among the address's connections; a whole
/// request is served, and a websocket lives on past the deadline (the audit held 1,000
/// half-sent requests for 35 s and more).
#[tokio::test]
async fn request_heads_have_a_deadline() {
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let limits = Limits { header_timeout: Duration::from_millis(300), ..Limits::default() };
    let (addr, _app) = server(cannonade_server::Config { limits, ..config() }).await;
    let closed_after = |mut stream: tokio::net::TcpStream| async move {
        let start = Instant::now();
        let mut buf = [0u8; 512];
        // Whatever the server answers (a 408, or nothing), it then closes: read to the end.
        let read = tokio::time::timeout(Duration::from_secs(5), async {
            while stream.read(&mut buf).await.is_ok_and(|n| n > 0) {}
        });
        assert!(read.await.is_ok(), "the connection was held past 5 s");
        start.elapsed()
    };
    let mut half = tokio::net::TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let silent = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut ws = Client::connect(addr, None).await;
    let (a, b) = tokio::join!(closed_after(half), closed_after(silent));
    assert!(a >= Duration::from_millis(250) && b >= Duration::from_millis(250), "{a:?} {b:?}");
    let mut whole = tokio::net::TcpStream::connect(addr).await.unwrap();
    whole
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    whole.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200") && answer.ends_with("ok"), "{answer}");
    // The websocket opened before the deadlines is still served after them.
    ws.send(ClientMsg::Ping { n: 7 }).await;
    assert!(matches!(ws.recv().await, cannonade_wire::ServerMsg::Pong { n: 7 }));
}

/// A user plays at most so many live games alone (hot seat and against the engine); the
/// refusal says which limit (the audit's one session opened 190).
#[tokio::test]
async fn games_played_alone_are_limited_per_user() {
    let limits = Limits { solo_games_per_user: 2, ..Limits::default() };
    let (addr, _app) = server(cannonade_server::Config { limits, ..config() }).await;
    let mut c = Client::connect(addr, None).await;
    let hotseat = || common::untimed_hotseat(GameKind::Xiangqi);
    c.send(hotseat()).await;
    c.started().await;
    c.send(ClientMsg::PlayAi {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(0, 0),
        level: 1,
        seat: Some(cannonade_wire::Seat::First),
        fen: None,
    })
    .await;
    c.started().await;
    c.send(hotseat()).await;
    let (code, text) = c.error().await;
    assert_eq!(code, ErrorCode::LimitReached, "{text}");
    // Another user is not counted against.
    let mut d = Client::connect(addr, None).await;
    d.send(hotseat()).await;
    d.started().await;
}

/// Options longer than the registry's bound are refused wherever a game is made.
#[tokio::test]
async fn long_options_are_refused_everywhere() {
    let (addr, _app) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    let options = "x".repeat(cannonade_games::spec::MAX_OPTIONS_CHARS + 1);
    for msg in [
        ClientMsg::Hotseat {
            game: GameKind::Xiangqi,
            options: options.clone(),
            clock: tc(0, 0),
            fen: None,
        },
        ClientMsg::Seek {
            game: GameKind::Xiangqi,
            options: options.clone(),
            clock: tc(60_000, 0),
            rated: false,
            range: None,
        },
        ClientMsg::Invite {
            game: GameKind::Xiangqi,
            options: options.clone(),
            clock: tc(60_000, 0),
            rated: false,
            range: None,
        },
        ClientMsg::PlayAi {
            game: GameKind::Xiangqi,
            options: options.clone(),
            clock: tc(0, 0),
            level: 1,
            seat: None,
            fen: None,
        },
    ] {
        c.send(msg).await;
        let (code, text) = c.error().await;
        assert_eq!(code, ErrorCode::Invalid, "{text}");
    }
}

/// The lobby frame lists a bounded number of seeks, the newest.
#[tokio::test]
async fn the_lobby_frame_is_bounded() {
    let (addr, _app) = server(config()).await;
    let mut seekers = Vec::new();
    let mut last = String::new();
    for _ in 0..21 {
        let mut c = Client::connect(addr, None).await;
        for _ in 0..10 {
            c.send(ClientMsg::Seek {
                game: GameKind::Xiangqi,
                options: String::new(),
                clock: tc(60_000, 0),
                rated: false,
                range: None,
            })
            .await;
            if let cannonade_wire::ServerMsg::SeekAdded { seek } = c
                .until("seek_added", |m| matches!(m, cannonade_wire::ServerMsg::SeekAdded { .. }))
                .await
            {
                last = seek.id;
            }
        }
        seekers.push(c);
    }
    let mut watcher = Client::connect(addr, None).await;
    watcher.send(ClientMsg::LobbySubscribe).await;
    let lobby =
        watcher.until("the lobby", |m| matches!(m, cannonade_wire::ServerMsg::Lobby { .. })).await;
    let cannonade_wire::ServerMsg::Lobby { seeks, .. } = lobby else { unreachable!() };
    assert!(seeks.len() < 210, "{} seeks in one frame", seeks.len());
    assert!(seeks.iter().any(|s| s.id == last), "the newest seek is listed");
}

/// An untimed game that nobody touches for the limit's while ends, called off; a timed one
/// is left to its clocks.
#[tokio::test]
async fn untimed_games_nobody_touches_end() {
    let limits =
        Limits { untimed_idle: std::time::Duration::from_millis(400), ..Limits::default() };
    let (addr, _app) = server(cannonade_server::Config { limits, ..config() }).await;
    let mut c = Client::connect(addr, None).await;
    c.send(common::untimed_hotseat(GameKind::Xiangqi)).await;
    let (game, _) = c.started().await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    c.snapshot().await;
    let ended = c.ended().await;
    let cannonade_wire::GameEvent::Ended { result, .. } = ended else { unreachable!() };
    assert_eq!((result.winner, result.reason.as_str()), (None, "aborted"));
    // The game no longer counts as live.
    c.send(ClientMsg::Hotseat {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(60_000, 0),
        fen: None,
    })
    .await;
    let (timed, _) = c.started().await;
    c.send(ClientMsg::Watch { game: timed, since: None }).await;
    c.snapshot().await;
    let later = c.drain(800).await;
    assert!(
        !later.iter().any(|m| matches!(
            m,
            cannonade_wire::ServerMsg::Event { event: cannonade_wire::GameEvent::Ended { .. }, .. }
        )),
        "a timed game ended for being idle"
    );
}

/// The reply to the next `ping`: a `pong`, or the error that refused it.
async fn ping(c: &mut Client) -> Result<(), (ErrorCode, String)> {
    use cannonade_wire::ServerMsg;
    c.send(ClientMsg::Ping { n: 7 }).await;
    match c
        .until("pong or error", |m| matches!(m, ServerMsg::Pong { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Pong { .. } => Ok(()),
        ServerMsg::Error { code, message, .. } => Err((code, message)),
        _ => unreachable!(),
    }
}

/// Messages are limited over all the sockets of a session and over all the sessions of an
/// address, besides each socket's own limit (the audit flooded a game from 15 sockets of one
/// player and from 30 sessions of one address, each socket under its own limit). A seat's
/// move is never held back by those shared limits.
#[tokio::test]
async fn messages_are_limited_per_session_and_per_address() {
    use cannonade_server::limits::Rate;
    use std::time::Duration;
    let hour = Duration::from_secs(3600);
    let limits = Limits {
        messages_per_session: Rate { burst: 3, every: hour },
        messages_per_address: Rate { burst: 5, every: hour },
        ..config().limits
    };
    let (addr, _app) = server(cannonade_server::Config { limits, ..config() }).await;
    let mut a = Client::connect(addr, None).await;
    let mut a2 = Client::connect(addr, Some(&a.token)).await;
    assert_eq!(ping(&mut a).await, Ok(()));
    assert_eq!(ping(&mut a2).await, Ok(()));
    assert_eq!(ping(&mut a).await, Ok(()));
    // The session's third message was its last, whichever socket sends the next.
    let (code, text) = ping(&mut a2).await.unwrap_err();
    assert_eq!(code, ErrorCode::RateLimited, "{text}");
    assert!(text.contains("session"), "{text}");
    // A move is not counted: it reaches its game (here: none such).
    a.send(ClientMsg::Move { game: "nosuchgame".into(), ply: 0, mv: "h2e2".into() }).await;
    let (code, text) = a.error().await;
    assert_ne!(code, ErrorCode::RateLimited, "{text}");
    // Two more sessions of the address use up its five; a third session is refused.
    let mut b = Client::connect(addr, None).await;
    assert_eq!(ping(&mut b).await, Ok(()));
    let mut c = Client::connect(addr, None).await;
    assert_eq!(ping(&mut c).await, Ok(()));
    let mut d = Client::connect(addr, None).await;
    let (code, text) = ping(&mut d).await.unwrap_err();
    assert_eq!(code, ErrorCode::RateLimited, "{text}");
    assert!(text.contains("address"), "{text}");
}

/// A user keeps at most ten open seeks, over all its sockets; another user is not touched.
#[tokio::test]
async fn seeks_are_limited_per_user() {
    use cannonade_wire::ServerMsg;
    let (addr, _app) = server(config()).await;
    let mut a = Client::connect(addr, None).await;
    let mut a2 = Client::connect(addr, Some(&a.token)).await;
    let seek = || ClientMsg::Seek {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(60_000, 0),
        rated: false,
        range: None,
    };
    for n in 0..10 {
        let c = if n % 2 == 0 { &mut a } else { &mut a2 };
        c.send(seek()).await;
        c.until("seek_added", |m| matches!(m, ServerMsg::SeekAdded { .. })).await;
    }
    a2.send(seek()).await;
    let (code, text) = a2.error().await;
    assert_eq!(code, ErrorCode::LimitReached, "{text}");
    let mut b = Client::connect(addr, None).await;
    b.send(seek()).await;
    b.until("seek_added", |m| matches!(m, ServerMsg::SeekAdded { .. })).await;
}
