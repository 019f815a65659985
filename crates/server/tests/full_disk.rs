//! A full disk loses nothing that was told (hardening issue, finding 1): the server runs on
//! SQLite in a 4 MB tmpfs, the disk is filled mid-game while moves and chat lines keep
//! coming, then freed. Every move and chat line a client was told of must be in the store
//! afterwards, as another reader of the file and a new server see it, and nothing a client
//! was not told of. While the disk is full the game is held (clocks stopped, moves refused)
//! and it goes on by itself once writes work again.
//!
//! Mounting a tmpfs needs root: the test runs when `CANNONADE_TEST_TMPFS` is set (CI sets it
//! and runs as root) and fails then if it cannot mount.

mod common;

use cannonade_games::{AnyRecord, GameKind, GameSpec};
use cannonade_store::{SqlStore, Store};
use cannonade_wire::{ChatLine, ClientMsg, ErrorCode, GameEvent, ServerMsg};
use common::{Client, config, invite_accepted, pair, plenty, server, tc};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A tmpfs of `mb` megabytes mounted at a fresh directory; unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(mb: u32) -> Tmpfs {
        // One directory per mount: the tests of this file run at once.
        static MOUNTS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = MOUNTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("cannonade-full-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mb}m"), "tmpfs"])
            .arg(&dir)
            .status()
            .expect("running mount");
        assert!(status.success(), "could not mount a tmpfs at {} (root is needed)", dir.display());
        Tmpfs(dir)
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        // Lazily: the servers of the test still hold the database open.
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Fills the file system of `dir` with a file until no byte fits.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![0u8; 64 * 1024];
    let mut small = false;
    loop {
        let chunk = if small { &block[..512] } else { &block[..] };
        match f.write(chunk) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) if !small => small = true,
            Err(_) => break,
        }
    }
    let _ = f.sync_all();
    path
}

/// A 4 MB tmpfs and the URL of a SQLite database in it, when the tmpfs tests run (see the
/// module's note); `None`, saying why, when they do not.
fn tmpfs_store() -> Option<(Tmpfs, String)> {
    if std::env::var_os("CANNONADE_TEST_TMPFS").is_none() {
        eprintln!("skipped: set CANNONADE_TEST_TMPFS (and run as root) to run it");
        return None;
    }
    let fs = Tmpfs::mount(4);
    let url = format!("sqlite://{}/game.db", fs.0.display());
    Some((fs, url))
}

/// The next move of a game that keeps it going: the first legal move, in a rotation by ply,
/// that ends nothing.
fn next_move(record: &AnyRecord) -> String {
    let pos = record.position();
    let moves = pos.legal_moves();
    let ply = record.len();
    (0..moves.len())
        .map(|i| moves[(ply * 7 + i) % moves.len()])
        .find(|&m| {
            let mut after = record.clone();
            after.play(m).is_ok() && matches!(after.next(), cannonade_core::Next::Player(_))
        })
        .map(|m| pos.move_text(m))
        .expect("a move that keeps the game going")
}

/// What a client heard within `ms`: whether move `ply` was told, whether the chat line
/// `text` was told, and whether the game was held or released.
struct Heard {
    moved: bool,
    refused: bool,
    chat: bool,
    held: Option<bool>,
}

async fn listen(c: &mut Client, ply: u32, text: &str, ms: u64) -> Heard {
    let mut h = Heard { moved: false, refused: false, chat: false, held: None };
    for msg in c.drain(ms).await {
        match msg {
            ServerMsg::Event { event: GameEvent::Moved { ply: p, .. }, .. } if p == ply => {
                h.moved = true
            }
            ServerMsg::Error { code: ErrorCode::Storage, message, .. } => {
                assert!(!message.contains("SQLITE") && !message.contains("disk"), "{message}");
                h.refused = true;
            }
            ServerMsg::Chat { line: ChatLine { text: t, .. }, .. } if t == text => h.chat = true,
            ServerMsg::Held { held, .. } => h.held = Some(held),
            _ => {}
        }
    }
    h
}

#[tokio::test]
async fn a_full_disk_loses_nothing_that_was_told() {
    let Some((fs, url)) = tmpfs_store() else { return };
    let (addr, _app) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let (mut a, mut b, game) = pair(addr, GameKind::Xiangqi, tc(600_000, 0)).await;
    let mut record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
    let mut told_moves = Vec::new();
    let mut told_chat = Vec::new();
    let mut refused = 0;
    let mut held = false;
    let mut filler = None;
    for step in 0..40u32 {
        match step {
            10 => filler = Some(fill(&fs.0)),
            26 => {
                // Freed: the writer's probe finds out within a second or so.
                std::fs::remove_file(filler.take().unwrap()).unwrap();
            }
            _ => {}
        }
        let ply = record.len() as u32;
        let mv = next_move(&record);
        let text = format!("line {step}");
        let mover = if ply.is_multiple_of(2) { &mut a } else { &mut b };
        mover.send(ClientMsg::Move { game: game.clone(), ply, mv: mv.clone() }).await;
        mover.send(ClientMsg::Chat { game: game.clone(), text: text.clone() }).await;
        let heard = listen(mover, ply, &text, 300).await;
        let other = if ply.is_multiple_of(2) { &mut b } else { &mut a };
        let _ = other.drain(10).await;
        if let Some(h) = heard.held {
            held = h;
        }
        refused += heard.refused as u32;
        if heard.moved {
            record.play_text(&mv).unwrap();
            told_moves.push(mv);
        }
        if heard.chat {
            told_chat.push(text);
        }
        if step == 25 {
            assert!(refused > 0, "the full disk refused nothing: the test tested nothing");
            assert!(held, "the game was not held while the disk was full");
        }
    }
    assert!(!held, "the game is still held after the disk was freed");
    assert!(told_moves.len() >= 12, "play went on after the disk was freed: {told_moves:?}");

    // Another reader of the file sees every told move and chat line, and nothing else.
    let reader = SqlStore::connect(&url).await.unwrap();
    let events = reader.events(&game).await.unwrap();
    let stored: Vec<String> = events
        .iter()
        .filter_map(|e| {
            let v: serde_json::Value = serde_json::from_str(&e.body).ok()?;
            (v["e"] == "moved").then(|| v["mv"].as_str().unwrap_or_default().to_string())
        })
        .collect();
    assert_eq!(stored, told_moves);
    let chat: Vec<String> = reader
        .chat(&game, 1000)
        .await
        .unwrap()
        .iter()
        .filter_map(|l| serde_json::from_str::<ChatLine>(&l.body).ok().map(|l| l.text))
        .collect();
    assert_eq!(chat, told_chat);

    // A new server on the same file brings the game back at the last told move.
    let (addr2, _app2) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let mut c = Client::connect(addr2, None).await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = c.snapshot().await;
    let moves: Vec<String> = snap.moves.iter().map(|m| m.mv.clone()).collect();
    assert_eq!(moves, told_moves);
    let lines: Vec<String> = snap.chat.iter().map(|l| l.text.clone()).collect();
    assert_eq!(lines, told_chat[told_chat.len().saturating_sub(50)..]);
    tokio::time::sleep(Duration::from_millis(50)).await;
}

/// A game cannot start while the disk is full (it is refused in plain words, not started
/// and lost), and new games start once the disk is freed, with their moves stored (the
/// audit saw new games fail for about a minute after the space came back).
#[tokio::test]
async fn new_games_start_once_the_disk_is_freed() {
    let Some((fs, url)) = tmpfs_store() else { return };
    let (addr, _app) = server(cannonade_server::Config { db: url.clone(), ..config() }).await;
    let mut a = Client::connect(addr, None).await;
    let mut b = Client::connect(addr, None).await;
    let filler = fill(&fs.0);
    let (code, text) = invite_accepted(&mut a, &mut b, GameKind::Xiangqi, tc(600_000, 0), false)
        .await
        .expect_err("a game started on a full disk");
    assert_eq!(code, ErrorCode::Storage, "{text}");
    assert!(!text.contains("SQLITE") && !text.contains("disk is full"), "{text}");
    std::fs::remove_file(filler).unwrap();
    // The writer's probe notices within a second or so; give it ten.
    let mut game = None;
    for _ in 0..20 {
        match invite_accepted(&mut a, &mut b, GameKind::Xiangqi, tc(600_000, 0), false).await {
            Ok(g) => {
                game = Some(g);
                break;
            }
            Err((code, text)) => {
                assert_eq!(code, ErrorCode::Storage, "{text}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    let game = game.expect("no game could start in 10 s after the disk was freed");
    let _ = a.until("started", |m| matches!(m, ServerMsg::GameStarted { .. })).await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        c.snapshot().await;
    }
    let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
    let mv = next_move(&record);
    // Whoever holds the first seat moves; the other is refused and says nothing more.
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: mv.clone() }).await;
    }
    let _ = a.moved().await;
    let reader = SqlStore::connect(&url).await.unwrap();
    let events = reader.events(&game).await.unwrap();
    assert!(
        events.iter().any(|e| e.body.contains(&format!("\"{mv}\""))),
        "the new game's first move is not stored: {events:?}"
    );
}

/// Registration on a full disk is refused as the store's failure (503, in plain words),
/// every time, never as "name taken" (the audit saw "name taken" and then 503 for the same
/// name); once the disk is freed the name registers and logs in.
#[tokio::test]
async fn registration_on_a_full_disk_is_refused_until_it_is_freed() {
    use axum::http::StatusCode;
    let Some((fs, url)) = tmpfs_store() else { return };
    // The attempts are many for one name: the login throttle is not what this tests.
    let limits = cannonade_server::limits::Limits {
        logins_per_name: plenty(),
        logins_per_address: plenty(),
        ..config().limits
    };
    let config = cannonade_server::Config { db: url.clone(), limits, ..config() };
    let (_addr, app) = server(config).await;
    let body = r#"{"name":"Sergei","password":"long password"}"#;
    let filler = fill(&fs.0);
    for attempt in 0..3 {
        let (status, text, _) = common::http(&app, "POST", "/api/register", body, None).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "attempt {attempt}: {text}");
        assert!(text.contains("storage") && !text.contains("SQLITE"), "{text}");
    }
    std::fs::remove_file(filler).unwrap();
    let mut registered = false;
    for _ in 0..20 {
        let (status, text, _) = common::http(&app, "POST", "/api/register", body, None).await;
        match status {
            StatusCode::OK => {
                registered = true;
                break;
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            _ => panic!("after the disk was freed: {status} {text}"),
        }
    }
    assert!(registered, "the name did not register in 10 s after the disk was freed");
    let (status, text, _) = common::http(&app, "POST", "/api/login", body, None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
}
