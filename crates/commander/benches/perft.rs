//! perft(3) of the initial position: `cargo bench -p cannonade-commander`. The rules file
//! gives 1,626,648 leaves; this engine counts 1,625,968 (see docs/rules/commander.md).

use cannonade_commander::Position;
use cannonade_core::perft;

const LEAVES: u64 = 1_625_968;

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn perft3_initial(bencher: divan::Bencher) {
    let pos = Position::startpos();
    bencher.counter(divan::counter::ItemsCount::new(LEAVES)).bench(|| {
        assert_eq!(perft(divan::black_box(&pos), 3), LEAVES);
    });
}
