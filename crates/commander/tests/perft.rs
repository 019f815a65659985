//! The perft file `testdata/perft/commander.perft`, with a node limit so the default test
//! run stays fast; the full depths run with `--ignored`.

use cannonade_commander::Position;
use cannonade_core::perft;

const FILE: &str = include_str!("../../../testdata/perft/commander.perft");

/// Expected counts above this are skipped in the normal run.
const LIMIT: u64 = 400_000;

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    FILE.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';').map(str::trim);
            let fen = parts.next().expect("a FEN").to_string();
            let depths = parts
                .map(|d| {
                    let (dd, n) = d.split_once(' ').expect("D<n> <count>");
                    (dd[1..].parse().expect("depth"), n.trim().parse().expect("count"))
                })
                .collect();
            (fen, depths)
        })
        .collect()
}

fn run(limit: u64) {
    for (fen, depths) in cases() {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (d, n) in depths {
            if n > limit {
                continue;
            }
            assert_eq!(perft(&pos, d), n, "{fen} depth {d}");
        }
    }
}

#[test]
fn perft_file_within_node_limit() {
    run(LIMIT);
}

#[test]
#[ignore]
fn perft_file_full() {
    run(u64::MAX);
}
