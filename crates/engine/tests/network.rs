//! Searches with a Xiangqi, Chess-Battle or Commander network keep its accumulators up to
//! date through every kind of node (moves, null moves, quiescence, repetitions; shots and
//! last-rank moves; stacks, heroes and the scored formats). The search checks each static
//! value against one computed from scratch under debug assertions, which tests run with.
//!
//! A test binary of its own: loading a network switches the evaluation for the whole
//! process.

use cannonade_engine::nnue::{self, NetGame, Network};
use cannonade_engine::{Limits, search, use_networks};
use cannonade_games::{AnyRecord, GameKind, GameSpec};
use cannonade_geom::SplitMix64;
use cannonade_xiangqi::Position;
use std::sync::atomic::AtomicBool;

/// Small pseudo-random weights for a network of `inputs` inputs: the accumulator's
/// arithmetic does not care what they mean.
fn random_network(inputs: usize) -> Vec<u8> {
    let mut rng = SplitMix64(11);
    let mut small = |m: u64| (rng.below(2 * m + 1) as i64 - m as i64) as i16;
    let input: Vec<i16> = (0..inputs * nnue::HIDDEN).map(|_| small(60)).collect();
    let bias: Vec<i16> = (0..nnue::HIDDEN).map(|_| small(100)).collect();
    let output: Vec<i16> = (0..2 * nnue::HIDDEN).map(|_| small(60)).collect();
    nnue::write_network(300.0, &input, &bias, &output, &[0])
}

/// One test for every game: the network switch is the whole process's.
#[test]
fn searches_with_a_network_keep_its_accumulators_up_to_date() {
    let game = Network::use_file(&random_network(nnue::XIANGQI_INPUTS)).unwrap();
    assert_eq!(game, NetGame::Xiangqi);
    use_networks(true);
    let start = Position::startpos();
    let net = Network::of(NetGame::Xiangqi).unwrap();
    assert_eq!(
        cannonade_engine::evaluate_any(&cannonade_games::AnyGame::Xiangqi(start.clone())),
        net.evaluate_position(&start, 0),
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

    let game = Network::use_file(&random_network(nnue::BATTLE_INPUTS)).unwrap();
    assert_eq!(game, NetGame::ChessBattle);
    // Loaded once per game: a second file is refused.
    let again = Network::use_file(&random_network(nnue::BATTLE_INPUTS));
    assert_eq!(again.unwrap_err(), nnue::NetworkError::InUse(NetGame::ChessBattle));
    let start = cannonade_battle::Position::startpos();
    let net = Network::of(NetGame::ChessBattle).unwrap();
    assert_eq!(
        cannonade_engine::evaluate_any(&cannonade_games::AnyGame::ChessBattle(start.clone())),
        net.evaluate_position(&start, 0),
        "the network evaluates"
    );
    for fen in [
        "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG r 0 1",
        // Soldiers one step from their last rank, guns with targets, headquarters near the
        // middle files.
        "g2bh3/2S5/3s8/5m6/12/12/12/12/5C6/4G7/2s5/3H4 r 0 1",
        "g2bh3/2S5/3s8/5m6/12/12/12/12/5C6/4G7/2s5/5H2 w 0 1",
    ] {
        let pos = cannonade_battle::Position::from_fen(fen).unwrap();
        let limits = Limits { depth: Some(5), ..Limits::default() };
        let r = search(&pos, &[], &limits, &AtomicBool::new(false), |_| {});
        assert!(r.best.is_some(), "{fen}");
    }

    // Commander has no network built in: it plays by hand until given one.
    let start = cannonade_commander::Position::startpos();
    let any = cannonade_games::AnyGame::Commander(start.clone());
    assert!(Network::of(NetGame::Commander).is_none());
    let by_hand = cannonade_engine::evaluate_any(&any);
    let game = Network::use_file(&random_network(nnue::COMMANDER_INPUTS)).unwrap();
    assert_eq!(game, NetGame::Commander);
    let net = Network::of(NetGame::Commander).unwrap();
    let by_net = net.evaluate_position(&start, 0);
    assert_eq!(cannonade_engine::evaluate_any(&any), by_net, "the network evaluates");
    assert_ne!(by_net, by_hand);
    let mut engine = cannonade_engine::Engine::new();
    for fen in [
        cannonade_commander::START_FEN,
        // A loaded carrier, a heroic tank in a stack, an engineer carrying artillery.
        "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1",
        "9c1/11/9im/11/11/11/4i6/11/4(+TI)6/9IM/11/10C r - - 0 1",
        "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/3e2m2ei/2i8/11/2IE5EI/2N1G(TM)1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 2 2",
    ] {
        let pos = cannonade_commander::Position::from_fen(fen).unwrap();
        let limits = Limits { depth: Some(4), ..Limits::default() };
        let r = search(&pos, &[], &limits, &AtomicBool::new(false), |_| {});
        assert!(r.best.is_some(), "{fen}");
        // The scored formats add the points race to the same network's value.
        for format in ["format=tactical", "format=fullforce"] {
            let spec = GameSpec::parse(GameKind::Commander, format).unwrap();
            let record = AnyRecord::with_start(&spec, spec.position(fen).unwrap()).unwrap();
            let r = engine.search(&record, &limits, &AtomicBool::new(false), |_| {});
            assert!(r.best_text.is_some(), "{fen} {format}");
        }
    }
    use_networks(false);
}
