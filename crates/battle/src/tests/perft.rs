//! The perft file `testdata/perft/chessbattle.perft`, read by one harness.

use crate::Position;
use crate::reference::reference_perft;
use cannonade_core::perft;

const FILE: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/perft/chessbattle.perft"));

/// Each position with its (depth, leaves) pairs.
fn cases() -> Vec<(Position, Vec<(u32, u64)>)> {
    FILE.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().expect("a FEN");
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let depths = parts
                .map(|p| {
                    let (d, n) = p.split_once(' ').expect("'Dn count'");
                    (d[1..].parse().expect("depth"), n.parse().expect("count"))
                })
                .collect();
            (pos, depths)
        })
        .collect()
}

fn check(limit: u64, reference_limit: u64) {
    let cases = cases();
    assert!(cases.len() >= 15);
    for (pos, depths) in cases {
        for (d, n) in depths {
            if n <= limit {
                assert_eq!(perft(&pos, d), n, "{} depth {d}", pos.fen());
            }
            if n <= reference_limit {
                assert_eq!(reference_perft(&pos, d), n, "reference: {} depth {d}", pos.fen());
            }
        }
    }
}

#[test]
fn perft_file() {
    check(1_000_000, 3_000);
}

/// Every depth, fast generator: `cargo test -p cannonade-battle --release -- --ignored`.
#[test]
#[ignore]
fn perft_file_deep() {
    check(u64::MAX, 0);
}

/// Every number up to 3,000,000 leaves against the slow reference generator (release: ~1 min).
#[test]
#[ignore]
fn perft_file_matches_reference() {
    check(0, 3_000_000);
}

#[test]
#[ignore]
fn start_perft4() {
    assert_eq!(perft(&Position::startpos(), 4), 10_194_583);
}

/// The depth-4 figure, independently from the reference generator (release: ~15 s).
#[test]
#[ignore]
fn start_perft4_reference() {
    assert_eq!(reference_perft(&Position::startpos(), 4), 10_194_583);
}
