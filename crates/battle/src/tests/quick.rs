use crate::Position;
use crate::reference::reference_perft;
use cannonade_core::perft;

#[test]
fn start_perft_quick() {
    let p = Position::startpos();
    for (d, n) in [(1, 52), (2, 2704), (3, 166_548)] {
        assert_eq!(perft(&p, d), n, "fast depth {d}");
    }
    for (d, n) in [(1, 52), (2, 2704)] {
        assert_eq!(reference_perft(&p, d), n, "ref depth {d}");
    }
}

#[test]
#[ignore]
fn start_perft4_timed() {
    let p = Position::startpos();
    let t = std::time::Instant::now();
    assert_eq!(perft(&p, 4), 10_194_583);
    eprintln!("perft4 {:?}", t.elapsed());
}
