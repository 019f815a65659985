//! Random playouts under the core conformance checks: the fast generator agrees with the
//! reference, hashes agree, FEN and every move notation round-trip, and the captures-only
//! generator lists exactly the capturing legal moves.

use cannonade_core::testkit::{Playouts, run_playouts};
use cannonade_xiangqi::{Options, Position, RepetitionRule};

const SPECIAL: &[&str] = &[
    "1nbak1b1r/9/7c1/2p1p4/9/9/2P1C1P2/6N2/4A4/R2K5 b - - 0 1",
    "3ak4/9/2n6/9/r8/9/4R4/9/4C4/3K5 b - - 0 1",
    "2bak1b1r/4a4/C8/8p/p1p3p2/5n3/2N1P1n1P/6N1B/4A4/2BAK2R1 b - - 3 26",
    "3k5/9/4c4/9/9/R8/9/9/9/4K4 w - - 0 1",
];

#[test]
fn random_games_from_the_start_conform() {
    let report = run_playouts(
        |_| Position::startpos(),
        Playouts { games: 60, max_steps: 400, seed: 7, reference_every: 1 },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.positions > 5_000, "{report:?}");
}

#[test]
fn random_games_from_special_positions_conform() {
    let report = run_playouts(
        |i| Position::from_fen(SPECIAL[i as usize % SPECIAL.len()]).expect("valid"),
        Playouts { games: 40, max_steps: 300, seed: 11, reference_every: 1 },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.positions > 1_000, "{report:?}");
}

#[test]
fn random_games_under_the_asian_rule_conform() {
    let asian = Options { repetition: RepetitionRule::Asian };
    let report = run_playouts(
        |_| Position::startpos().with_options(asian),
        Playouts { games: 30, max_steps: 400, seed: 5, reference_every: 3 },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.positions > 2_000, "{report:?}");
}
