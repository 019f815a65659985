//! Durability: the server process is killed (SIGKILL) in the middle of a game and started
//! again on the same database. Every move a client was told of comes back, with the clocks
//! stored with it, and the downtime is not charged.

use cannonade_games::GameKind;
use cannonade_wire::{ClientMsg, GameEvent, LegalMove, Role, ServerMsg, TimeControl};
use futures_util::{SinkExt, StreamExt};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(port: u16, db: &str) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start cannonade serve");
    Server(child)
}

async fn connect(port: u16, token: Option<&str>) -> (Ws, String) {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    for _ in 0..200 {
        let mut req = format!("ws://127.0.0.1:{port}/ws").into_client_request().unwrap();
        if let Some(t) = token {
            let cookie = cannonade_wire::session_cookie_header(t).parse().unwrap();
            req.headers_mut().insert("cookie", cookie);
        }
        if let Ok((mut ws, res)) = tokio_tungstenite::connect_async(req).await {
            let set = cannonade_wire::session_from_set_cookies(
                res.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()),
            )
            .map(str::to_string);
            let ServerMsg::Welcome { .. } = recv(&mut ws).await else { panic!("no welcome") };
            return (ws, set.or(token.map(str::to_string)).expect("a session"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up");
}

async fn send(ws: &mut Ws, msg: ClientMsg) {
    ws.send(Message::Text(serde_json::to_string(&msg).unwrap().into())).await.unwrap();
}

async fn recv(ws: &mut Ws) -> ServerMsg {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

async fn until(ws: &mut Ws, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    loop {
        let m = recv(ws).await;
        if pred(&m) {
            return m;
        }
    }
}

#[tokio::test]
async fn killing_the_server_mid_game_loses_no_told_move_and_no_clock() {
    let dir = std::env::temp_dir().join(format!("cannonade-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}/r.db", dir.display());
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = start(port, &db);

    let (mut a, token_a) = connect(port, None).await;
    let (mut b, token_b) = connect(port, None).await;
    let clock = TimeControl::fischer(60_000, 1_000);
    send(
        &mut a,
        ClientMsg::Invite {
            game: GameKind::Xiangqi,
            options: String::new(),
            clock,
            rated: false,
            range: None,
        },
    )
    .await;
    let ServerMsg::InviteCreated { code, .. } =
        until(&mut a, |m| matches!(m, ServerMsg::InviteCreated { .. })).await
    else {
        unreachable!()
    };
    send(&mut b, ClientMsg::AcceptSeek { id: code }).await;
    let ServerMsg::GameStarted { game, role } =
        until(&mut a, |m| matches!(m, ServerMsg::GameStarted { .. })).await
    else {
        unreachable!()
    };
    until(&mut b, |m| matches!(m, ServerMsg::GameStarted { .. })).await;
    let mut seats = if role == Role::First {
        [(a, token_a), (b, token_b)]
    } else {
        [(b, token_b), (a, token_a)]
    };
    let mut legal: Vec<LegalMove> = Vec::new();
    for (ws, _) in seats.iter_mut() {
        send(ws, ClientMsg::Watch { game: game.clone(), since: None }).await;
        let ServerMsg::Snapshot(s) = until(ws, |m| matches!(m, ServerMsg::Snapshot(_))).await
        else {
            unreachable!()
        };
        if let Some(l) = s.legal {
            legal = l;
        }
    }
    // Eight moves, each told to both players, with a little thinking so clocks move.
    let mut told = Vec::new();
    let mut last_clock = None;
    for ply in 0..8u32 {
        let mover = (ply % 2) as usize;
        tokio::time::sleep(Duration::from_millis(60)).await;
        let mv = legal[(ply as usize * 7) % legal.len()].mv.clone();
        send(&mut seats[mover].0, ClientMsg::Move { game: game.clone(), ply, mv: mv.clone() })
            .await;
        let ServerMsg::Event { event: GameEvent::Moved { info, clock, .. }, legal: next, .. } =
            until(&mut seats[1 - mover].0, |m| {
                matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. })
            })
            .await
        else {
            unreachable!()
        };
        assert_eq!(info.mv, mv);
        until(&mut seats[mover].0, |m| {
            matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. })
        })
        .await;
        told.push(mv);
        last_clock = Some(clock);
        legal = next.expect("the opponent is to move");
    }
    // One more move in flight as the server dies.
    let mv = legal[0].mv.clone();
    send(&mut seats[0].0, ClientMsg::Move { game: game.clone(), ply: 8, mv }).await;
    let mut server = server;
    Command::new("kill").args(["-9", &server.0.id().to_string()]).status().unwrap();
    let _ = server.0.wait();
    drop(server);
    let down = Duration::from_millis(1500);
    tokio::time::sleep(down).await;

    let _server = start(port, &db);
    let (mut ws, token) = connect(port, Some(&seats[1].1)).await;
    assert_eq!(token, seats[1].1, "the session survived");
    send(&mut ws, ClientMsg::Watch { game: game.clone(), since: None }).await;
    let ServerMsg::Snapshot(s) = until(&mut ws, |m| matches!(m, ServerMsg::Snapshot(_))).await
    else {
        unreachable!()
    };
    assert_eq!(s.you, Role::Second);
    let moves: Vec<String> = s.moves.iter().map(|m| m.mv.clone()).collect();
    assert!(moves.len() == 8 || moves.len() == 9, "{moves:?}");
    assert_eq!(moves[..8], told[..], "every told move survived, in order");
    let stored = last_clock.unwrap();
    if moves.len() == 8 {
        // The first seat is to move: its clock runs from where it was, downtime not charged.
        assert_eq!(s.clock.remaining_ms[1], stored.remaining_ms[1]);
        let first = s.clock.remaining_ms[0];
        assert!(
            first <= stored.remaining_ms[0] && first + 1000 > stored.remaining_ms[0],
            "{first} vs {stored:?}"
        );
    } else {
        assert!(
            s.clock.remaining_ms[1] + 1000 > stored.remaining_ms[1],
            "the downtime was charged: {:?}",
            s.clock
        );
    }
    assert!(s.result.is_none(), "the game is still live");
    std::fs::remove_dir_all(&dir).ok();
}
