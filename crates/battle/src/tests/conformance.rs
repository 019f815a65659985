//! The core conformance testkit: random playouts checked against the reference generator,
//! hash recomputation, text round trips and the end-of-game judge.

use crate::Position;
use cannonade_core::testkit::{Playouts, run_playouts};

fn playouts(fens: &[&str], games: u32, max_steps: u32, seed: u64, reference_every: u32) {
    let starts: Vec<Position> =
        fens.iter().map(|f| Position::from_fen(f).expect("playout start")).collect();
    let report = run_playouts(
        |i| starts[i as usize % starts.len()].clone(),
        Playouts { games, max_steps, seed, reference_every },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report:?}");
}

#[test]
fn playouts_from_the_start() {
    playouts(&[crate::position::START_FEN], 60, 300, 1, 6);
}

/// Positions with every special rule close at hand: shots, fly-overs, tanks, soldiers near
/// the last rank and the holes.
const SPECIAL: &[&str] = &[
    "6h1/8/5g6/12/2m9/5S1s4/12/5B6/4S7/3S3t4/8/4H3 r 0 1",
    "4h3/8/4c7/s7s3/7t4/12/12/s3G4m1s/12/2s1s7/8/4H3 r 0 1",
    "1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 0 1",
    "5h2/7S/12/3T8/12/3m8/10c1/5B6/s2H8/12/8/8 r 0 1",
    "4h3/8/12/12/6b5/12/12/6s5/12/2G9/8/1C2H3 r 0 1",
];

#[test]
fn playouts_from_special_positions() {
    playouts(SPECIAL, 100, 200, 7, 3);
}

/// Short endings: few pieces, so mates, stalemates, bare headquarters, the 150-ply rule and
/// repetitions actually happen.
#[test]
fn playouts_to_the_end_rules() {
    playouts(
        &[
            "4h3/8/12/12/12/12/12/12/12/12/8/4H3 r 0 1",
            "4h3/8/12/12/12/12/12/12/12/12/5S2/4H3 r 140 1",
            "4h3/8/12/12/12/12/12/12/12/12/8/3BH3 r 0 1",
            "4h3/2S5/12/12/12/12/12/12/12/12/8/3BHM2 r 0 1",
        ],
        150,
        300,
        11,
        2,
    );
}

/// A long run for release builds: `cargo test -p cannonade-battle --release -- --ignored`.
#[test]
#[ignore]
fn playouts_long() {
    let mut fens = vec![crate::position::START_FEN];
    fens.extend_from_slice(SPECIAL);
    playouts(&fens, 1500, 400, 2024, 1);
}
