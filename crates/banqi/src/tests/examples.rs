//! The worked examples E1–E13 of section 12, one test each.

use super::{full, moves, public};
use crate::Square;
use cannonade_core::{Next, Outcome, Reason, Record, Rules, Side, perft};

#[test]
fn e1_start_has_32_flips() {
    let p = public("XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0");
    assert_eq!(p, crate::Position::startpos());
    let want: Vec<String> = Square::ALL.iter().map(|s| format!("{s}?")).collect();
    assert_eq!(moves(&p), want.join(" "));
    assert_eq!(p.next(), Next::Player(Side::First));
}

#[test]
fn e2_second_player_can_only_flip() {
    let p = public("XXXXXXXX/XXXXXXXX/XXXCXXXX/XXXXXXXX b K1A2B2R2N2C1P5k1a2b2r2n2c2p5 0 1");
    let want: Vec<String> =
        Square::ALL.iter().filter(|s| s.to_string() != "d2").map(|s| format!("{s}?")).collect();
    assert_eq!(moves(&p), want.join(" "));
    assert_eq!(p.mover(), Side::Second);
    // The same position reached by playing: the first seat flipped a red cannon.
    let mut q = crate::Position::startpos();
    q.play_text("d2=C").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(q, p);
    assert_eq!(q.colour_of(Side::First), Some(crate::Colour::Red));
}

#[test]
fn e3_first_flip_decides_colour() {
    let mut f = full(
        "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0 \
         BpAncpaNrpRPbnPPNkCbpPrKcaPCpARB",
    );
    let mv = f.parse_move("a1?").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(f.recorded_move(mv), "a1=c");
    f.play(mv);
    assert_eq!(
        f.fen(),
        "XXXXXXXX/XXXXXXXX/XXXXXXXX/cXXXXXXX r K1A2B2R2N2C2P5k1a2b2r2n2c1p5 0 1 \
         BpAncpaNrpRPbnPPNkCbpPrKaPCpARB"
    );
    let p = f.redact();
    assert_eq!(p.colour_of(Side::First), Some(crate::Colour::Black));
    assert_eq!(p.turn(), Some(crate::Colour::Red));
    assert_eq!(p.next(), Next::Player(Side::Second));
}

#[test]
fn e4_general_cannot_capture_soldier() {
    let p = public("7P/3k4/2nKp3/3c4 r - 10 57");
    assert_eq!(moves(&p), "d2xd1 d2xc2 d2xd3 h4-h3 h4-g4");
}

#[test]
fn e5_soldier_captures_general() {
    let p = public("7P/3k4/2nKp3/3c4 b - 10 57");
    assert_eq!(
        moves(&p),
        "d1-c1 d1-e1 c2-c1 c2-b2 c2-c3 e2-e1 e2xd2 e2-f2 e2-e3 d3xd2 d3-c3 d3-e3 d3-d4"
    );
}

#[test]
fn e6_cannon_screens() {
    let p = public("k7/P7/8/C1X1n1r1 r B1 3 40");
    assert_eq!(moves(&p), "c1? a1-b1 a1xe1 a1-a2 a1xa4 a3-a2 a3-b3 a3xa4");
}

#[test]
fn e7_cannon_limits_and_soldier_vs_cannon() {
    let p = public("k7/8/8/Cp1X4 r B1 3 40");
    assert_eq!(moves(&p), "d1? a1-a2");
    let p = public("k7/8/8/Cp1X4 b B1 3 40");
    assert_eq!(moves(&p), "d1? b1-c1 b1-b2 a4-a3 a4-b4");
}

#[test]
fn e8_no_legal_move_loses() {
    let p = public("8/8/a7/Pb6 r - 4 90");
    assert_eq!(moves(&p), "");
    assert_eq!(p.turn(), Some(crate::Colour::Red));
    // Red (to move at an even ply) is the first seat; black wins.
    assert_eq!(p.next(), Next::Over(Outcome::win(Side::Second, Reason::NoMoves)));
}

#[test]
fn e9_elimination() {
    let mut f = full("8/2n5/2R5/7X r P1 7 80 P");
    assert_eq!(moves(f.public()), "h1? c2-c1 c2-b2 c2-d2 c2xc3");
    f.play_text("c2xc3").unwrap_or_else(|e| panic!("{e}"));
    let p = f.redact();
    assert_eq!(p.fen(), "8/2R5/8/7X b P1 0 81");
    assert_eq!(p.next(), Next::Over(Outcome::win(Side::First, Reason::Elimination)));
    // Black could still flip: elimination comes first.
    assert!(p.count_legal() > 0);
}

#[test]
fn e10_no_progress_draw() {
    let mut p = public("7k/8/8/K7 r - 59 150");
    assert_eq!(p.next(), Next::Player(Side::First));
    p.play_text("a1-b1").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.fen(), "7k/8/8/1K6 b - 60 151");
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
}

#[test]
fn e11_repetition() {
    let start = public("7r/8/8/R7 r - 0 100");
    let mut record = Record::new(start.clone());
    let line = "a1-a2 h4-h3 a2-a1 h3-h4 a1-a2 h4-h3 a2-a1 h3-h4";
    for (i, m) in line.split_whitespace().enumerate() {
        assert!(matches!(record.next(), Next::Player(_)), "over before ply {i}");
        let mv = record.position().parse_move(m).unwrap_or_else(|e| panic!("{e}"));
        record.play(mv);
    }
    assert_eq!(record.position().fen(), "7r/8/8/R7 r - 8 108");
    assert!(record.position().same_public_position(&start));
    assert_eq!(record.next(), Next::Over(Outcome::draw(Reason::Repetition)));
    // The position alone knows nothing of repetition.
    assert_eq!(record.position().next(), Next::Player(Side::First));
}

#[test]
fn e12_middle_game() {
    let p = public("XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40");
    assert_eq!(
        moves(&p),
        "a1? h1? b2? c2? d2? e2? h2? b3? d3? f3? g3? a4? b4? c4? e4? f4? g2-g1 g2xf2 a3xa2 h3-h4"
    );
    let f = full("XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB");
    assert_eq!(f.redact(), p);
}

/// E13's table is in `testdata/perft/banqi.perft` (read by `perft.rs`); here the small
/// depths inline, so the example stands on its own.
#[test]
fn e13_fixed_deal_perft() {
    let e3 = full(
        "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0 \
         BpAncpaNrpRPbnPPNkCbpPrKcaPCpARB",
    );
    assert_eq!([1, 2, 3].map(|d| perft(&e3, d)), [32, 992, 29_791]);
    let e12 =
        full("XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB");
    assert_eq!([1, 2, 3].map(|d| perft(&e12, d)), [20, 379, 7_368]);
    let e4 = full("7P/3k4/2nKp3/3c4 r - 10 57 -");
    assert_eq!([1, 2, 3, 4, 5].map(|d| perft(&e4, d)), [5, 60, 337, 3_355, 19_451]);
}
