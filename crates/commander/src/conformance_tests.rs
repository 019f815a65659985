//! (Unit tests so that the `cfg(test)` Conformance impl is visible.) The core conformance testkit: random playouts with the reference generator, hashes,
//! FEN and move round-trips.

use crate::Position;
use cannonade_core::testkit::{Playouts, check_position, run_playouts};
use cannonade_core::{MoveBuf, Rules};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn reference_agrees_on_perft_positions_depth_2() {
    let file = include_str!("../../../testdata/perft/commander.perft");
    for line in file.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let root = pos(line.split(';').next().unwrap_or_default());
        let mut buf = MoveBuf::new();
        root.legal_moves(&mut buf);
        let mut chances = Vec::new();
        check_position(&root, &mut MoveBuf::new(), &mut chances, true)
            .unwrap_or_else(|e| panic!("{}: {e}", root.fen()));
        for &mv in buf.iter() {
            let mut child = root.clone();
            child.play(mv);
            check_position(&child, &mut MoveBuf::new(), &mut chances, true).unwrap_or_else(|e| {
                panic!("{} after {}: {e}", root.fen(), root.move_to_string(mv))
            });
        }
    }
}

#[test]
fn playouts_from_the_start() {
    let cfg = Playouts { games: 40, max_steps: 400, seed: 7, reference_every: 7 };
    let report = run_playouts(|_| Position::startpos(), cfg).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.positions > 1000);
}

/// Every position two plies from the start checked against the reference (slow: release).
#[test]
#[ignore]
fn reference_agrees_two_plies_from_the_start() {
    let root = Position::startpos();
    let mut b1 = MoveBuf::new();
    root.legal_moves(&mut b1);
    let mut chances = Vec::new();
    let mut diffs = 0;
    for &m1 in b1.iter() {
        let mut p1 = root.clone();
        p1.play(m1);
        let mut b2 = MoveBuf::new();
        p1.legal_moves(&mut b2);
        for &m2 in b2.iter() {
            let mut p2 = p1.clone();
            p2.play(m2);
            if let Err(e) = check_position(&p2, &mut MoveBuf::new(), &mut chances, true) {
                diffs += 1;
                eprintln!(
                    "{} {} -> {}: {e}",
                    root.move_to_string(m1),
                    p1.move_to_string(m2),
                    p2.fen()
                );
            }
        }
    }
    assert_eq!(diffs, 0);
}

/// Perft over the slow reference generator, for numbers added to the perft file.
fn reference_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = crate::reference::reference_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play(m);
            reference_perft(&child, depth - 1)
        })
        .sum()
}

/// The positions of our own in the perft file (tag `own`), recomputed with the reference
/// generator; depths whose count exceeds `limit` are skipped.
fn own_perft_lines(limit: u64) {
    let file = include_str!("../../../testdata/perft/commander.perft");
    let mut own = false;
    let mut checked = 0;
    for line in file.lines() {
        if line.starts_with("# tag:") {
            own = line.contains("source: own");
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() || !own {
            continue;
        }
        let mut parts = line.split(';').map(str::trim);
        let p = pos(parts.next().unwrap_or_default());
        for d in parts {
            let (dd, n) = d.split_once(' ').unwrap_or_default();
            let depth: u32 = dd[1..].parse().unwrap_or_default();
            let n: u64 = n.trim().parse().unwrap_or_default();
            if n <= limit {
                assert_eq!(reference_perft(&p, depth), n, "{line} depth {depth}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn own_perft_numbers_agree_with_the_reference_generator() {
    own_perft_lines(3_000);
}

#[test]
#[ignore]
fn own_perft_numbers_agree_with_the_reference_generator_full() {
    own_perft_lines(u64::MAX);
}

#[test]
#[ignore]
fn print_reference_perft() {
    for fen in std::env::var("FENS").unwrap_or_default().split('|').filter(|f| !f.is_empty()) {
        let p = pos(fen);
        let fast: Vec<u64> = (1..=3).map(|d| cannonade_core::perft(&p, d)).collect();
        let slow: Vec<u64> = (1..=3).map(|d| reference_perft(&p, d)).collect();
        println!("{fen} fast {fast:?} slow {slow:?}");
    }
}

/// Special positions for playouts: stacks and deploys, air defense, the river.
const SPECIAL: [&str; 4] = [
    "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1",
    "9c1/11/9im/11/4+g6/11/11/2n8/11/9IM/4F6/10C r - - 0 1",
    "9c1/11/9im/11/11/3t7/4S1G1A2/11/11/9IM/11/10C r - - 0 1",
    "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/3e2m2ei/2i8/11/2IE5EI/2N1G(TM)1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 2 2",
];

#[test]
fn playouts_from_special_positions() {
    let cfg = Playouts { games: 40, max_steps: 200, seed: 11, reference_every: 5 };
    run_playouts(|i| pos(SPECIAL[i as usize % SPECIAL.len()]), cfg)
        .unwrap_or_else(|e| panic!("{e}"));
}

/// 10,000 random games from the start with every conformance check (reference generator on
/// a sample of positions): how many end by each condition. Release build recommended.
#[test]
#[ignore]
fn ten_thousand_games() {
    // `GAMES=n` runs a smaller sample with the same settings.
    let games = std::env::var("GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(10_000);
    let cfg = Playouts { games, max_steps: 1_000, seed: 2024, reference_every: 50 };
    let report = run_playouts(|_| Position::startpos(), cfg).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "endings {:?} unfinished {} positions {}",
        report.endings, report.unfinished, report.positions
    );
}
