//! perft(3) of the initial position (1,626,648 leaves): `cargo bench -p cannonade-commander`.

use cannonade_commander::Position;
use cannonade_core::perft;

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn perft3_initial(bencher: divan::Bencher) {
    let pos = Position::startpos();
    bencher.counter(divan::counter::ItemsCount::new(1_626_648u64)).bench(|| {
        assert_eq!(perft(divan::black_box(&pos), 3), 1_626_648);
    });
}
