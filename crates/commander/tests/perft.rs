//! The perft file `testdata/perft/commander.perft`, every line at every depth: the whole file
//! takes about two seconds in the test profile, so no line needs a node limit. Section 15.2's
//! corrected values (2026-11-25) are in it.

use cannonade_commander::Position;
use cannonade_core::{parse_perft_file, perft};

const FILE: &str = include_str!("../../../testdata/perft/commander.perft");

#[test]
fn perft_file_full() {
    for case in parse_perft_file(FILE).expect("perft file parses") {
        let fen = &case.position;
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for (d, n) in case.counts {
            assert_eq!(perft(&pos, d), n, "line {} ({fen}) depth {d}", case.line);
        }
    }
}
