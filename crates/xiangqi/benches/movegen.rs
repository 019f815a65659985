//! Move generation benchmarks: `cargo bench -p cannonade-xiangqi`.

use cannonade_core::{MoveBuf, perft};
use cannonade_xiangqi::Position;
use divan::black_box;

fn main() {
    divan::main();
}

const MIDGAME: &str = "1r1ak1b2/4a4/2n1bc3/2R1p3p/p8/2p2NP1P/P3P4/2N1B4/1c2A4/2BAK3R w - - 0 19";

/// Perft 4 from the start position (3,290,240 leaves).
#[divan::bench(sample_count = 5)]
fn perft4_start() -> u64 {
    perft(&black_box(Position::startpos()), 4)
}

/// Perft 3 of a middle-game position (43,235 leaves).
#[divan::bench]
fn perft3_midgame() -> u64 {
    perft(&black_box(Position::from_fen(MIDGAME).unwrap()), 3)
}

/// Listing the legal moves of a middle-game position.
#[divan::bench]
fn list_midgame(b: divan::Bencher) {
    let pos = Position::from_fen(MIDGAME).unwrap();
    let mut buf = MoveBuf::with_capacity(128);
    b.bench_local(|| {
        black_box(&pos).legal_moves_into(&mut buf);
        buf.len()
    });
}
