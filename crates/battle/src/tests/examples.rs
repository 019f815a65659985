//! Worked examples Ex 1 – Ex 12 of section 11 of the rules file, each checked against the
//! fast generator and the reference generator.

use crate::reference::reference_moves;
use crate::{Position, Square};
use cannonade_core::{MoveBuf, Rules};

/// The sorted canonical strings of the legal moves, of one piece or (`None`) of all.
pub(super) fn moves_of(pos: &Position, from: Option<&str>) -> Vec<String> {
    let from = from.map(|s| Square::parse(s).expect("test square"));
    let mut buf = MoveBuf::new();
    pos.legal_moves(&mut buf);
    let mut fast: Vec<String> = buf
        .iter()
        .filter(|m| from.is_none_or(|f| m.from() == f))
        .map(|&m| pos.move_to_string(m))
        .collect();
    fast.sort();
    let mut slow: Vec<String> = reference_moves(pos)
        .into_iter()
        .filter(|m| from.is_none_or(|f| m.from() == f))
        .map(|m| pos.move_to_string(m))
        .collect();
    slow.sort();
    assert_eq!(fast, slow, "fast and reference generators disagree");
    fast
}

/// A worked example: a position and the complete sorted list of legal moves of one piece
/// (or of the whole side when `from` is `None`).
pub(super) struct Example {
    pub(super) fen: &'static str,
    pub(super) from: Option<&'static str>,
    pub(super) count: usize,
    pub(super) moves: &'static str,
}

impl Example {
    /// Checks the example against both generators and the notation.
    pub(super) fn check(&self) {
        expect(self.fen, self.from, self.count, self.moves);
    }
}

/// Checks the listed moves (space-separated, as in the rules file) and their count.
pub(super) fn expect(fen: &str, from: Option<&str>, count: usize, list: &str) {
    let pos = Position::from_fen(fen).expect("example position");
    let got = moves_of(&pos, from);
    let mut want: Vec<String> = list.split_whitespace().map(String::from).collect();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(got.len(), count);
    for s in &got {
        let mv = pos.parse_move(s).expect("listed moves parse");
        assert_eq!(&pos.move_to_string(mv), s);
    }
}

/// Ex 1.
pub(super) const EX1: Example = Example {
    fen: "6h1/8/5g6/12/2m9/5S1s4/12/5B6/4S7/3S3t4/8/4H3 r 0 1",
    from: Some("f5"),
    count: 26,
    moves: "f5-a5 f5-b5 f5-c5 f5-d5 f5-d7 f5-e5 f5-e6 f5-f1 f5-f2 f5-f3 f5-f4 f5-f6 f5-g4 f5-g5 \
         f5-g6 f5-h5 f5-i5 f5-j5 f5-k5 f5-l5 f5^f8 f5^f9 f5^xf10 f5xc8 f5xh3 f5xh7",
};

#[test]
fn ex01_bomber_flies_over_a_friendly_piece() {
    EX1.check();
}

/// Ex 2.
pub(super) const EX2: Example = Example {
    fen: "4h3/8/4c7/s7s3/7t4/12/12/s3G4m1s/12/2s1s7/8/4H3 r 0 1",
    from: Some("e5"),
    count: 13,
    moves: "e5*a5 e5*a9 e5*e10 e5*h8 e5*j5 e5-d4 e5-d5 e5-d6 e5-e4 e5-e6 e5-f4 e5-f5 e5-f6",
};

#[test]
fn ex02_red_gun() {
    EX2.check();
}

/// Ex 3.
pub(super) const EX3: Example = Example {
    fen: "4h3/8/4C7/S7S3/7T4/12/12/S3g4M2/12/2S1S1T5/8/4H3 w 0 1",
    from: Some("e5"),
    count: 13,
    moves: "e5*a5 e5*c3 e5*e3 e5*g3 e5*j5 e5-d4 e5-d5 e5-d6 e5-e4 e5-e6 e5-f4 e5-f5 e5-f6",
};

#[test]
fn ex03_white_gun_shoots_down() {
    EX3.check();
}

/// Ex 4.
pub(super) const EX4: Example = Example {
    fen: "4h3/8/12/4s7/4s2s4/12/3s8/1s2MS1t4/12/2s9/2s5/4H3 r 0 1",
    from: Some("e5"),
    count: 12,
    moves: "e5*b5 e5*c3 e5*d6 e5*e2 e5*e8 e5*h8 e5-d4 e5-d5 e5-e4 e5-e6 e5-f4 e5-f6",
};

#[test]
fn ex04_machine_gun() {
    EX4.check();
}

/// Ex 5.
pub(super) const EX5: Example = Example {
    fen: "4h3/8/12/12/12/12/4s7/3ST1m5/12/4c7/8/4H3 r 0 1",
    from: Some("e5"),
    count: 5,
    moves: "e5-e4 e5-f5 e5xe3 e5xe6 e5xg5",
};

#[test]
fn ex05_tank() {
    EX5.check();
}

/// Ex 6.
pub(super) const EX6: Example = Example {
    fen: "6h1/8/12/12/12/12/3cst6/3sSs6/3sms6/12/8/4H3 r 0 1",
    from: Some("e5"),
    count: 4,
    moves: "e5xd5 e5xd6 e5xe6 e5xf5",
};

#[test]
fn ex06_soldier_captures() {
    EX6.check();
}

/// Ex 7.
pub(super) const EX7: Example = Example {
    fen: "4h3/8/12/12/12/12/12/12/2s7S1/1S9S/8/4H2S r 0 1",
    from: None,
    count: 35,
    moves: "b3-a3 b3-a4 b3-b4 b3-b5 b3-c2 b3-c3 b3-d1 b3-d3 b3xc4 g1-f1 g1-f2 g1-g2 g1-h1 g1-h2 \
         j1-h1 j1-h3 j1-i1 j1-i2 j1-j2 j1-j3 k4-i2 k4-i4 k4-i6 k4-j3 k4-j4 k4-j5 k4-k3 k4-k5 \
         k4-k6 k4-l4 k4-l5 l3-j3 l3-k3 l3-l4 l3-l5",
};

#[test]
fn ex07_soldiers_around_the_missing_corners() {
    EX7.check();
}

/// Ex 8.
pub(super) const EX8: Example = Example {
    fen: "4h3/8/12/12/12/12/12/s3s7/3t1S6/12/C7/4H3 r 0 1",
    from: Some("c2"),
    count: 10,
    moves: "c2-a3 c2-b4 c2-b5 c2-d5 c2-e1 c2-e3 c2-f1 c2-f3 c2xa5 c2xe5",
};

#[test]
fn ex08_cavalry_near_a_hole_and_tank_immunity() {
    EX8.check();
}

/// Ex 9.
pub(super) const EX9: Example = Example {
    fen: "1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 0 1",
    from: Some("e11"),
    count: 10,
    moves: "e11-d10 e11-d11 e11-e10 e11-e12@a5 e11-e12@d12 e11-e12@f12 e11-f10 e11-f11 \
         e11xd12@a5 e11xd12@f12",
};

#[test]
fn ex09_last_rank_removal() {
    EX9.check();
}

/// Ex 10.
pub(super) const EX10: Example = Example {
    fen: "1c2h3/2S5/12/12/12/12/12/12/12/12/8/4H3 r 0 1",
    from: Some("e11"),
    count: 8,
    moves: "e11-d10 e11-d11 e11-e10 e11-e12@d12 e11-f10 e11-f11 e11-f12@d12 e11xd12@-",
};

#[test]
fn ex10_last_rank_with_only_the_headquarter_left() {
    EX10.check();
}

/// Ex 11.
pub(super) const EX11: Example = Example {
    fen: "4h3/8/12/12/6b5/12/12/6s5/12/2G9/8/1C2H3 r 0 1",
    from: None,
    count: 6,
    moves: "d1-g2 d1-g3 g1-f1 g1-f2 g1-h1 g1-h2",
};

#[test]
fn ex11_check_through_a_friendly_piece() {
    assert!(Position::from_fen(EX11.fen).expect("example").in_check());
    EX11.check();
}

/// Ex 12.
pub(super) const EX12: Example = Example {
    fen: "5h2/7S/12/3T8/12/3m8/10c1/5B6/s2H8/12/8/8 r 0 1",
    from: None,
    count: 12,
    moves: "d4-c3 d4-c4 d4-c5 d4-d3 d4-e3 d4-e4 d4-e5 d9xd7 f5-d5 f5xd7 j11-i12@d7 j11-j12@d7",
};

#[test]
fn ex12_shot_check_answered_every_way() {
    assert!(Position::from_fen(EX12.fen).expect("example").in_check());
    EX12.check();
}
