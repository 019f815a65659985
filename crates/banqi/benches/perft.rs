//! Move-generation speed: perft 4 on the E12 middle game with its fixed deal (139,506 leaves),
//! reported as leaves per second; and the public E12 (flips as chance nodes) at depth 3.
//!
//! `cargo bench -p cannonade-banqi`

use cannonade_banqi::{FullPosition, Position};
use cannonade_core::perft;
use divan::counter::ItemsCount;

const E12: &str = "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40";

fn main() {
    divan::main();
}

#[divan::bench]
fn perft4_e12_fixed_deal(bencher: divan::Bencher) {
    let pos = FullPosition::from_fen(&format!("{E12} BpAcppPnPkCbpKcB")).expect("E12 is valid");
    let leaves = perft(&pos, 4);
    assert_eq!(leaves, 139_506);
    bencher.counter(ItemsCount::new(leaves)).bench(|| perft(divan::black_box(&pos), 4));
}

#[divan::bench]
fn perft3_e12_public_chance(bencher: divan::Bencher) {
    let pos = Position::from_fen(E12).expect("E12 is valid");
    let leaves = perft(&pos, 3);
    bencher.counter(ItemsCount::new(leaves)).bench(|| perft(divan::black_box(&pos), 3));
}
