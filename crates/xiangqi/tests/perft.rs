//! The perft data file, checked against the fast generator and, at small depths, against the
//! slow reference generator. Depths above the node limits run with `--ignored`.

use cannonade_core::{MoveBuf, Rules, parse_perft_file, perft};
use cannonade_xiangqi::Position;

/// Largest expected count checked in the normal (debug) test run.
const FAST_LIMIT: u64 = 5_000_000;
/// Largest expected count checked with the slow reference generator.
const REFERENCE_LIMIT: u64 = 20_000;

fn cases() -> Vec<cannonade_core::PerftCase> {
    let text = include_str!("../../../testdata/perft/xiangqi.perft");
    parse_perft_file(text).expect("perft file parses")
}

fn reference_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.reference_moves()
        .into_iter()
        .map(|m| {
            let mut c = pos.clone();
            c.play(m);
            reference_perft(&c, depth - 1)
        })
        .sum()
}

#[test]
fn perft_file_within_node_limit() {
    let mut checked = 0;
    for case in cases() {
        let pos = Position::from_fen(&case.position)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for &(depth, expected) in &case.counts {
            if expected <= FAST_LIMIT {
                assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.position);
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} counts checked");
}

#[test]
fn perft_file_matches_reference_generator() {
    for case in cases() {
        let pos = Position::from_fen(&case.position).expect("valid");
        for &(depth, expected) in &case.counts {
            if expected <= REFERENCE_LIMIT {
                assert_eq!(
                    reference_perft(&pos, depth),
                    expected,
                    "{} depth {depth}",
                    case.position
                );
            }
        }
    }
}

#[test]
#[ignore = "deep: run by hand with --release -- --ignored"]
fn perft_file_deep() {
    for case in cases() {
        let pos = Position::from_fen(&case.position).expect("valid");
        for &(depth, expected) in &case.counts {
            if expected > FAST_LIMIT && expected <= 200_000_000 {
                assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.position);
            }
        }
    }
}

#[test]
#[ignore = "133,312,995 leaves: run by hand with --release -- --ignored"]
fn perft_start_depth_5() {
    assert_eq!(perft(&Position::startpos(), 5), 133_312_995);
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::startpos();
    let parts = cannonade_core::divide(&pos, 3, |_, _| {});
    assert_eq!(parts.len(), 44);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 79_666);
    let mut buf = MoveBuf::new();
    Rules::legal_moves(&pos, &mut buf);
    assert_eq!(parts.iter().map(|p| p.0).collect::<Vec<_>>(), buf.to_vec());
}
