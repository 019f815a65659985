//! Searches with a Xiangqi network keep its accumulators up to date through every kind of
//! node (moves, null moves, quiescence, repetitions). The search checks each static value
//! against one computed from scratch under debug assertions, which tests run with.
//!
//! A test binary of its own: loading a network switches the evaluation for the whole
//! process.

use cannonade_engine::nnue::{self, Network};
use cannonade_engine::{Limits, search, use_xiangqi_network};
use cannonade_geom::SplitMix64;
use cannonade_xiangqi::Position;
use std::sync::atomic::AtomicBool;

/// Small pseudo-random weights: the accumulator's arithmetic does not care what they mean.
fn random_network() -> Vec<u8> {
    let mut rng = SplitMix64(11);
    let mut small = |m: u64| (rng.below(2 * m + 1) as i64 - m as i64) as i16;
    let input: Vec<i16> = (0..nnue::XIANGQI_INPUTS * nnue::HIDDEN).map(|_| small(60)).collect();
    let bias: Vec<i16> = (0..nnue::HIDDEN).map(|_| small(100)).collect();
    let output: Vec<i16> = (0..2 * nnue::HIDDEN).map(|_| small(60)).collect();
    nnue::write_network(300.0, &input, &bias, &output, 0)
}

#[test]
fn searches_with_a_network_keep_its_accumulators_up_to_date() {
    Network::use_xiangqi_file(&random_network()).unwrap();
    use_xiangqi_network(true);
    let start = Position::startpos();
    let net = Network::xiangqi();
    assert_eq!(
        cannonade_engine::evaluate_any(&cannonade_games::AnyGame::Xiangqi(start.clone())),
        net.evaluate_position(&start),
        "the network evaluates"
    );
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        // Generals that step across the centre file flip their side's mirroring.
        "3k5/4a4/9/9/9/9/9/4C4/4A4/5K3 w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        "2bak4/4a4/4b1n2/p3c3p/2p3p2/6P2/P3P3P/2N1B1C2/4A4/2BAK4 b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let limits = Limits { depth: Some(6), ..Limits::default() };
        let r = search(&pos, &[], &limits, &AtomicBool::new(false), |_| {});
        assert!(r.best.is_some(), "{fen}");
    }
    use_xiangqi_network(false);
}
