//! (Unit tests so that the `cfg(test)` Conformance impl is visible.) The core conformance testkit: random playouts with the reference generator, hashes,
//! FEN and move round-trips.

use crate::Position;
use cannonade_core::testkit::{Playouts, check_position, run_playouts};
use cannonade_core::{MoveBuf, Rules};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn reference_agrees_on_perft_positions_depth_2() {
    let file = include_str!("../../../testdata/perft/commander.perft");
    for line in file.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let root = pos(line.split(';').next().unwrap_or_default());
        let mut buf = MoveBuf::new();
        root.legal_moves(&mut buf);
        let mut chances = Vec::new();
        check_position(&root, &mut MoveBuf::new(), &mut chances, true).unwrap_or_else(|e| panic!("{}: {e}", root.fen()));
        for &mv in buf.iter() {
            let mut child = root.clone();
            child.play(mv);
            check_position(&child, &mut MoveBuf::new(), &mut chances, true)
                .unwrap_or_else(|e| panic!("{} after {}: {e}", root.fen(), root.move_to_string(mv)));
        }
    }
}

#[test]
fn playouts_from_the_start() {
    let cfg = Playouts { games: 40, max_steps: 400, seed: 7, reference_every: 7 };
    let report = run_playouts(|_| Position::startpos(), cfg).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.positions > 1000);
}

/// Every position two plies from the start checked against the reference (slow: release).
#[test]
#[ignore]
fn reference_agrees_two_plies_from_the_start() {
    let root = Position::startpos();
    let mut b1 = MoveBuf::new();
    root.legal_moves(&mut b1);
    let mut chances = Vec::new();
    let mut diffs = 0;
    for &m1 in b1.iter() {
        let mut p1 = root.clone();
        p1.play(m1);
        let mut b2 = MoveBuf::new();
        p1.legal_moves(&mut b2);
        for &m2 in b2.iter() {
            let mut p2 = p1.clone();
            p2.play(m2);
            if let Err(e) = check_position(&p2, &mut MoveBuf::new(), &mut chances, true) {
                diffs += 1;
                eprintln!("{} {} -> {}: {e}", root.move_to_string(m1), p1.move_to_string(m2), p2.fen());
            }
        }
    }
    assert_eq!(diffs, 0);
}
