//! Load cannot move a clock (hardening issue, finding 2): spectators and a player's extra
//! sockets flood a game's chat while the players move. The opponent's clock starts when the
//! move is sent to it, and chat waits in a queue of its own, so the flood costs the players
//! no clock time: the audit saw a move delayed 37 s and the opponent lose on time.

mod common;

use cannonade_games::GameKind;
use cannonade_wire::{ClientMsg, GameEvent, ServerMsg};
use common::{Client, config, pair, plenty, server, tc};
use std::time::Duration;

const INITIAL_MS: u64 = 60_000;

/// The test settings with the limits per session and per address lifted: all the clients
/// here share 127.0.0.1, and the flood must reach the game to show it costs no clock time
/// (those limits are tested in `limits.rs`).
fn flood_config() -> cannonade_server::Config {
    let limits = cannonade_server::limits::Limits {
        messages_per_session: plenty(),
        messages_per_address: plenty(),
        ..config().limits
    };
    cannonade_server::Config { limits, ..config() }
}

/// Sends `lines` chat lines from `c` at about 19 a second (under the per-socket limit).
async fn chatter(mut c: Client, game: String, lines: u32) -> Client {
    for n in 0..lines {
        c.send(ClientMsg::Chat { game: game.clone(), text: format!("spam {n}") }).await;
        tokio::time::sleep(Duration::from_millis(52)).await;
    }
    c
}

/// The clocks of the next move event `c` receives.
async fn moved_clock(c: &mut Client) -> [u64; 2] {
    match c
        .until("moved", |m| matches!(m, ServerMsg::Event { event: GameEvent::Moved { .. }, .. }))
        .await
    {
        ServerMsg::Event { event: GameEvent::Moved { clock, .. }, .. } => clock.remaining_ms,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_chat_flood_takes_no_clock_time() {
    let (addr, _) = server(flood_config()).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(INITIAL_MS, 0)).await;
    // Thirty spectators and fifteen more sockets of the first player, all chatting.
    let mut floods = Vec::new();
    for _ in 0..30 {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        floods.push(tokio::spawn(chatter(s, game.clone(), 60)));
    }
    for _ in 0..15 {
        let mut s = Client::connect(addr, Some(&a.token)).await;
        s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        floods.push(tokio::spawn(chatter(s, game.clone(), 60)));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Four plies in the flood, each answered at once.
    let moves = ["h2e2", "h9g7", "b0c2", "b9c7"];
    let mut last = [INITIAL_MS; 2];
    for (ply, mv) in moves.iter().enumerate() {
        let (mover, other) =
            if ply.is_multiple_of(2) { (&mut a, &mut b) } else { (&mut b, &mut a) };
        mover
            .send(ClientMsg::Move { game: game.clone(), ply: ply as u32, mv: mv.to_string() })
            .await;
        let clock = moved_clock(other).await;
        let _ = moved_clock(mover).await;
        let seat = ply % 2;
        // The opponent has lost nothing while the move was on its way.
        assert_eq!(clock[1 - seat], last[1 - seat], "ply {ply}: the opponent was charged");
        // The mover answered at once: it was charged the time from the move reaching it
        // to its answer reaching the server, not the flood's queue.
        let used = last[seat] - clock[seat];
        assert!(used < 2_000, "ply {ply}: {used} ms charged for an immediate answer");
        last = clock;
    }
    for f in floods {
        let _ = f.await;
    }
}

/// Each chat line is stored by a task of its own, and the lines of one group commit used
/// to be told in whatever order their tasks finished: the page showed "flood 34, 30, 31…".
/// They are told in the order they were written: here each of four sockets of one player
/// writes its burst at once, and each socket's lines reach the opponent in its order. On
/// several threads, as the server runs: one thread wakes the store tasks in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn chat_lines_arrive_in_the_order_written() {
    const SOCKETS: usize = 4;
    const LINES: usize = 35;
    // A file store: its commits take long enough to gather many lines each (in memory,
    // each line tends to be a commit of its own, and nothing races).
    let dir = std::env::temp_dir().join(format!("cannonade-chat-order-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}/s.db", dir.display());
    let (addr, _) = server(cannonade_server::Config { db, ..flood_config() }).await;
    let (a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut writers = vec![a];
    for _ in 1..SOCKETS {
        let token = writers[0].token.clone();
        writers.push(Client::connect(addr, Some(&token)).await);
    }
    let sends = writers.into_iter().enumerate().map(|(w, mut c)| {
        let game = game.clone();
        tokio::spawn(async move {
            for n in 0..LINES {
                c.send(ClientMsg::Chat { game: game.clone(), text: format!("{w} {n}") }).await;
            }
            c
        })
    });
    let _writers = futures_util::future::join_all(sends).await;
    let mut got: Vec<Vec<usize>> = vec![Vec::new(); SOCKETS];
    for _ in 0..SOCKETS * LINES {
        if let ServerMsg::Chat { line, .. } =
            b.until("chat", |m| matches!(m, ServerMsg::Chat { .. })).await
        {
            let (w, n) = line.text.split_once(' ').unwrap();
            got[w.parse::<usize>().unwrap()].push(n.parse().unwrap());
        }
    }
    for lines in got {
        assert_eq!(lines, (0..LINES).collect::<Vec<_>>());
    }
    std::fs::remove_dir_all(&dir).ok();
}
