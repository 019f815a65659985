//! Lazy SMP: searches on several threads end with a legal move in every game, `stop` ends
//! all threads, one thread stays deterministic, and the shared table never hands a thread
//! another position's data or a move that is not legal.

use crate::tt::{Bound, Table};
use crate::{Engine, Evaluate, Limits};
use cannonade_core::{MoveBuf, Rules};
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

/// The bench positions of every game (testdata/bench).
fn positions() -> Vec<AnyGame> {
    let files = [
        (GameKind::Xiangqi, include_str!("../../../testdata/bench/xiangqi.txt")),
        (GameKind::Banqi, include_str!("../../../testdata/bench/banqi.txt")),
        (GameKind::ChessBattle, include_str!("../../../testdata/bench/chessbattle.txt")),
        (GameKind::Commander, include_str!("../../../testdata/bench/commander.txt")),
    ];
    let mut out = Vec::new();
    for (kind, text) in files {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let fen = line.rsplit_once(';').map_or(line, |(fen, _)| fen).trim();
            out.push(AnyGame::from_fen(kind, fen).unwrap());
        }
    }
    out
}

fn engine(threads: usize) -> Engine {
    let mut e = Engine::new();
    // Past `set_threads`' clamp to the cores: the threads interleave even on one core.
    e.threads = threads;
    e
}

#[test]
fn several_threads_play_a_legal_move_in_every_game() {
    for game in positions() {
        for limits in [
            Limits { depth: Some(4), ..Limits::default() },
            Limits { nodes: Some(5_000), ..Limits::default() },
        ] {
            let r = engine(3).search_position(&game, &limits, &AtomicBool::new(false), |_| {});
            let best = r.best.unwrap();
            assert!(game.legal_moves().contains(&best), "{} {limits:?}", game.fen());
            assert!(r.depth >= 1);
        }
    }
}

/// An unlimited search on three threads returns once `stop` is set; the search joins its
/// helpers before it returns, so none outlives it.
#[test]
fn stop_ends_every_thread() {
    let game = AnyGame::start(GameKind::Xiangqi).unwrap();
    let stop = AtomicBool::new(false);
    let (done, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let r = engine(3).search_position(&game, &Limits::default(), &stop, |_| {});
            let _ = done.send(r);
        });
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        // A watchdog, not a timing: a search that ignored `stop` would run for hours.
        let r = finished.recv_timeout(Duration::from_secs(60)).expect("the search stopped");
        assert!(game.legal_moves().contains(&r.best.unwrap()));
    });
}

/// One thread is the single-threaded search: the same result, node for node, every time.
#[test]
fn one_thread_is_deterministic() {
    let record = AnyRecord::new(AnyGame::start(GameKind::Xiangqi).unwrap());
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let stop = AtomicBool::new(false);
    let a = engine(1).search(&record, &limits, &stop, |_| {});
    let b = engine(1).search(&record, &limits, &stop, |_| {});
    assert_eq!(a, b);
}

/// Several threads writing and reading one slot's worth of keys: a hit always carries the
/// data stored with its key, never half of another store.
#[test]
fn concurrent_probes_never_mix_entries() {
    let table: Table<u8> = Table::new(1);
    // Keys that share a slot (the index comes from the high bits).
    let keys: Vec<u64> = (0..8u64).map(|i| 0x1234_5678 ^ i).collect();
    let data = |key: u64| ((key & 0x7) as u32 * 1_000 + 7, (key & 0x7) as i32 * 100 - 300);
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (table, keys) = (&table, &keys);
            scope.spawn(move || {
                for i in 0..200_000usize {
                    let key = keys[(i * 7 + t) % keys.len()];
                    let (code, score) = data(key);
                    if i % 2 == 0 {
                        table.store(key, 0, Some(code), score, (i % 20) as i32, Bound::Exact);
                    } else if let Some(e) = table.probe(key, 0) {
                        assert_eq!((e.mv, e.score), (Some(code), score), "key {key:x}");
                    }
                }
            });
        }
    });
}

/// The legal moves of every bench position have distinct table codes, so the one-thread
/// search orders moves exactly as it did when the table held whole moves; and a search
/// whose table holds codes of no legal move (another game's entries, say) still plays a
/// legal move.
#[test]
fn move_codes_tell_legal_moves_apart() {
    fn distinct<G: Evaluate>(pos: &G) {
        let mut buf = MoveBuf::new();
        pos.legal_moves(&mut buf);
        let mut codes: Vec<u32> = buf.iter().map(|&m| crate::tt::code::<G>(m)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), buf.len(), "{pos:?}");
    }
    for game in positions() {
        match game.public() {
            AnyGame::Xiangqi(p) => distinct(&p),
            AnyGame::Banqi(p) => distinct(&p),
            AnyGame::ChessBattle(p) => distinct(&p),
            AnyGame::Commander(p) => distinct(&p),
            AnyGame::BanqiDealt(p) => distinct(&p.redact()),
        }
    }
}

/// Entries of the right keys with moves that are not legal there: the search ignores the
/// moves and still plays a legal one.
#[test]
fn stored_moves_are_checked_against_the_legal_moves() {
    let pos = cannonade_xiangqi::Position::from_fen(cannonade_xiangqi::START_FEN).unwrap();
    let mut table: Table<cannonade_xiangqi::Move> = Table::new(1);
    table.store(Rules::hash(&pos), 0, Some(0x1FFF_FFFF), 0, 1, Bound::Upper);
    let mut buf = MoveBuf::new();
    Rules::legal_moves(&pos, &mut buf);
    for &m in buf.iter() {
        let mut child = pos.clone();
        Rules::play(&mut child, m);
        table.store(Rules::hash(&child), 1, Some(0x1FFF_FFFF), 0, 1, Bound::Upper);
    }
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let r = crate::search::search_with(
        &pos,
        &[],
        &limits,
        &AtomicBool::new(false),
        &mut table,
        &mut crate::history::MoveHistory::default(),
        crate::Style::default(),
        2,
        |_| {},
    );
    assert!(buf.contains(&r.best.unwrap()));
}
