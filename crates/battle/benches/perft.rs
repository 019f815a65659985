//! Perft from the start position: the measured figure of issue 4.
//!
//! `cargo bench -p cannonade-battle` reports the time per perft and, through the item
//! counter, leaves per second.

use cannonade_battle::Position;
use cannonade_core::perft;
use divan::{Bencher, counter::ItemsCount};

fn main() {
    divan::main();
}

/// perft(4) of the start: 10,194,583 leaves.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn perft4_start(b: Bencher) {
    let pos = Position::startpos();
    b.counter(ItemsCount::new(10_194_583u64)).bench(|| perft(divan::black_box(&pos), 4));
}

/// perft(3) of the start: 166,548 leaves.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn perft3_start(b: Bencher) {
    let pos = Position::startpos();
    b.counter(ItemsCount::new(166_548u64)).bench(|| perft(divan::black_box(&pos), 3));
}
