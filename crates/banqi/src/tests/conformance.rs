//! The core conformance testkit: random playouts checking the fast generator against the
//! reference, hashes, text round trips, chance weights and the game's own invariants.

use super::{full, public, public_with};
use crate::{DealSeed, FullPosition, Position, deal_from_seed};
use cannonade_core::testkit::{PlayoutReport, Playouts, run_playouts};

fn cfg(games: u32, seed: u64) -> Playouts {
    Playouts { games, max_steps: 3000, seed, reference_every: 1 }
}

fn ok(r: Result<PlayoutReport, String>) -> PlayoutReport {
    r.unwrap_or_else(|e| panic!("{e}"))
}

fn seeded(i: u32) -> FullPosition {
    let mut bytes = [0u8; 32];
    bytes[..4].copy_from_slice(&i.to_le_bytes());
    deal_from_seed(&Position::startpos(), &DealSeed::from_bytes(bytes))
}

#[test]
fn playouts_public_from_the_start() {
    let r = ok(run_playouts(|_| Position::startpos(), cfg(200, 1)));
    assert_eq!(r.unfinished, 0, "{r:?}");
}

#[test]
fn playouts_public_from_special_positions() {
    let starts = [
        "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40",
        "7P/3k4/2nKp3/3c4 r - 10 57",
        "k7/P7/8/C1X1n1r1 r B1 3 40",
        "8/2n5/2R5/7X r P1 7 80",
        "7r/8/8/R7 r - 0 100",
    ];
    ok(run_playouts(|i| public(starts[i as usize % starts.len()]), cfg(100, 2)));
}

#[test]
fn playouts_public_with_options() {
    for opts in [
        "cannon=step",
        "chain_capture=on",
        "noprog_limit=icga,repetition_limit=2",
        "noprog_limit=0,repetition_limit=0",
    ] {
        let start = Position::startpos_with(opts.parse().unwrap_or_else(|e| panic!("{e}")));
        let g = if opts.contains("=0") { 10 } else { 40 };
        ok(run_playouts(|_| start.clone(), Playouts { max_steps: 1500, ..cfg(g, 3) }));
    }
    let p = public_with("3p4/pcaR4/1n1b2C1/pPnPk3 r - 0 30", "chain_capture=on");
    ok(run_playouts(|_| p.clone(), cfg(50, 4)));
}

#[test]
fn playouts_full_from_seeded_deals() {
    let r = ok(run_playouts(seeded, cfg(100, 5)));
    assert_eq!(r.unfinished, 0, "{r:?}");
    let e12 =
        full("XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB");
    ok(run_playouts(|_| e12.clone(), cfg(50, 6)));
}

/// Plays `n` random games from the start (public position, chance resolved by weight) with
/// every conformance check on, and returns how many ended by each rule.
pub(crate) fn random_games(n: u32, seed: u64) -> PlayoutReport {
    ok(run_playouts(
        |_| Position::startpos(),
        Playouts { games: n, max_steps: 5000, seed, reference_every: 1 },
    ))
}

#[test]
#[ignore = "10,000 games: run with --release (`cargo test -p cannonade-banqi --release -- --ignored ten_thousand --nocapture`)"]
fn ten_thousand_random_games() {
    let t = std::time::Instant::now();
    let r = random_games(10_000, 2024);
    println!("{:?} in {:.1} s", r, t.elapsed().as_secs_f64());
    assert_eq!(r.endings.values().sum::<u32>() + r.unfinished, 10_000);
}
