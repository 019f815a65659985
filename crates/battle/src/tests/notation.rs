//! Position notation (section 7) and move notation (section 8): canonical writers, strict
//! readers, typed errors, and no panic on any input.

use crate::{FenError, Marker, MoveError, MoveText, Position, Square};
use cannonade_core::{MoveBuf, Rules, Side};
use proptest::prelude::*;

const START: &str =
    "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG r 0 1";

#[test]
fn start_position_string_round_trips() {
    let p = Position::startpos();
    assert_eq!(p.fen(), START);
    assert_eq!(Position::from_fen(START).expect("start").fen(), START);
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.piece_count(Side::First), 24);
    assert_eq!(p.piece_count(Side::Second), 24);
}

#[test]
fn w_means_white_the_second_player() {
    let p = Position::from_fen("4h3/2S5/12/12/12/12/12/12/12/12/8/4H3 w 0 1").expect("valid");
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.mover(), Side::Second);
}

#[test]
fn readers_accept_the_first_two_fields_alone() {
    let p = Position::from_fen("4h3/2S5/12/12/12/12/12/12/12/12/8/4H3 r").expect("valid");
    assert_eq!(p.fen(), "4h3/2S5/12/12/12/12/12/12/12/12/8/4H3 r 0 1");
}

#[test]
fn position_errors_are_typed() {
    let cases: [(&str, FenError); 12] = [
        ("", FenError::FieldCount(1)),
        ("4h3/8/12/12/12/12/12/12/12/12/8/4H3 r 0", FenError::FieldCount(3)),
        ("4h3/8/12/12/12/12/12/12/12/12/8/4H3  r", FenError::FieldCount(3)),
        ("4h3/8/12/12/12/12/12/12/12/8/4H3 r", FenError::RankCount(11)),
        ("4h3/8/12/12/12/12/12/12/12/12/8/4X3 r", FenError::BadChar { rank: 1, ch: 'X' }),
        ("4h3/8/12/12/12/12/12/12/12/13/8/4H3 r", FenError::BadRun { rank: 3, run: "13".into() }),
        (
            "4h3/8/012/12/12/12/12/12/12/12/8/4H3 r",
            FenError::BadRun { rank: 10, run: "012".into() },
        ),
        (
            "4h3/8/12/12/12/12/12/12/12/12/12/4H3 r",
            FenError::RankWidth { rank: 2, found: 12, expected: 8 },
        ),
        (
            "4h3/8/12/12/12/12/12/12/12/11/8/4H3 r",
            FenError::RankWidth { rank: 3, found: 11, expected: 12 },
        ),
        ("4h3/8/12/12/12/12/12/12/12/12/8/4H3 b", FenError::BadSide("b".into())),
        ("4h3/8/12/12/12/12/12/12/12/12/8/4H3 r -1 1", FenError::BadClock("-1".into())),
        ("4h3/8/12/12/12/12/12/12/12/12/8/4H3 r 0 0", FenError::BadMoveNumber("0".into())),
    ];
    for (text, err) in cases {
        assert_eq!(Position::from_fen(text), Err(err), "{text:?}");
    }
    assert_eq!(
        Position::from_fen("8/8/12/12/12/12/12/12/12/12/8/4H3 r"),
        Err(FenError::HeadquarterCount { side: Side::Second, count: 0 })
    );
    assert_eq!(
        Position::from_fen("3hh3/8/12/12/12/12/12/12/12/12/8/4H3 r"),
        Err(FenError::HeadquarterCount { side: Side::Second, count: 2 })
    );
    // White's headquarter attacked by a red soldier while Red is to move.
    assert_eq!(
        Position::from_fen("4h3/3S4/12/12/12/12/12/12/12/12/8/4H3 r"),
        Err(FenError::OpponentInCheck)
    );
    assert!(Position::from_fen("4h3/3S4/12/12/12/12/12/12/12/12/8/4H3 w").is_ok());
}

#[test]
fn canonical_writer_merges_runs() {
    // A reader sees "6" and "6" only as "66"; canonical output never puts numbers together.
    let p = Position::from_fen("4h3/8/12/12/12/12/12/12/12/12/8/4H3 r").expect("valid");
    assert!(!p.fen().contains("66"));
    assert!(Position::from_fen("4h3/8/66/12/12/12/12/12/12/12/8/4H3 r").is_err());
}

#[test]
fn move_strings_of_every_kind() {
    let p = Position::from_fen("6h1/8/5g6/12/2m9/5S1s4/12/5B6/4S7/3S3t4/8/4H3 r 0 1").expect("ex1");
    for s in ["f5-e5", "f5^f8", "f5^xf10", "f5xh3"] {
        assert_eq!(p.move_to_string(p.parse_move(s).expect(s)), s);
    }
    let shot = Position::from_fen("4h3/8/4c7/s7s3/7t4/12/12/s3G4m1s/12/2s1s7/8/4H3 r 0 1")
        .expect("ex2")
        .parse_move("e5*h8")
        .expect("shot");
    assert!(shot.is_shot() && !shot.is_capture() && shot.removes_piece());
}

#[test]
fn readers_ignore_check_and_mate_signs() {
    let p = Position::from_fen("5h2/7S/12/3T8/12/3m8/10c1/5B6/s2H8/12/8/8 r 0 1").expect("ex12");
    let plain = p.parse_move("f5xd7").expect("legal");
    assert_eq!(p.parse_move("f5xd7+"), Ok(plain));
    assert_eq!(p.parse_move("f5xd7#"), Ok(plain));
    assert_eq!(p.move_to_string(plain), "f5xd7");
}

#[test]
fn readers_reject_a_wrong_marker() {
    let p = Position::from_fen("6h1/8/5g6/12/2m9/5S1s4/12/5B6/4S7/3S3t4/8/4H3 r 0 1").expect("ex1");
    let wrong = |s: &str| matches!(p.parse_move(s), Err(MoveError::WrongMarker { .. }));
    assert!(wrong("f5-f8"), "flight over f7 needs ^");
    assert!(wrong("f5xf10"), "capture after a flight needs ^x");
    assert!(wrong("f5^e5"), "no friendly piece passed");
    assert!(wrong("f5-h3"), "a capture needs x");
    assert!(wrong("f5*h3"), "a bomber does not shoot");
    let g =
        Position::from_fen("4h3/8/4c7/s7s3/7t4/12/12/s3G4m1s/12/2s1s7/8/4H3 r 0 1").expect("ex2");
    assert!(matches!(g.parse_move("e5xh8"), Err(MoveError::WrongMarker { .. })));
    assert!(matches!(g.parse_move("e5-h8"), Err(MoveError::WrongMarker { .. })));
}

#[test]
fn readers_check_the_removal_suffix() {
    let p = Position::from_fen("1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 0 1").expect("ex9");
    assert!(matches!(p.parse_move("e11-e12"), Err(MoveError::MissingRemoval(_))));
    assert!(matches!(p.parse_move("e11-d11@a5"), Err(MoveError::UnexpectedRemoval(_))));
    assert!(matches!(p.parse_move("e11-e12@g12"), Err(MoveError::Illegal(_))));
    assert!(matches!(p.parse_move("e11-e12@-"), Err(MoveError::Illegal(_))));
    let mv = p.parse_move("e11-e12@f12").expect("the tank may be removed");
    assert_eq!(mv.removal(), Square::parse("f12"));
}

#[test]
fn move_syntax_errors() {
    let p = Position::startpos();
    assert!(matches!(p.parse_move("a1-a2"), Err(MoveError::MissingSquare(s)) if s == "a1"));
    assert!(matches!(p.parse_move("c3-b2"), Err(MoveError::MissingSquare(s)) if s == "b2"));
    for bad in [
        "", "e3", "e3e4", "e3-", "e3--e4", "E3-e4", "e3-e4@", "e3-e4@z9", "e3-e4 ", "m3-e4",
        "e13-e4",
    ] {
        assert!(matches!(p.parse_move(bad), Err(MoveError::Syntax { .. })), "{bad:?}");
    }
    assert!(matches!(p.parse_move("e3-e6"), Err(MoveError::Illegal(_))));
    let t = MoveText::parse("j11^xi12@d7+").expect("syntax");
    assert_eq!(t.marker, Marker::JumpCapture);
    assert_eq!(t.to_string(), "j11^xi12@d7");
}

#[test]
fn every_legal_move_round_trips_from_the_start_tree() {
    let mut buf = MoveBuf::new();
    let start = Position::startpos();
    start.legal_moves(&mut buf);
    for &mv in buf.iter() {
        let s = start.move_to_string(mv);
        assert_eq!(start.parse_move(&s), Ok(mv), "{s}");
    }
}

#[test]
fn pretty_shows_the_cross() {
    let text = Position::startpos().pretty();
    assert!(text.contains(" 12      g c m b h m c g"), "{text}");
    assert!(text.contains("Red to move"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn position_reader_never_panics(s in "[0-9a-zA-Z/ -]{0,90}") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn position_reader_never_panics_on_near_misses(
        ranks in proptest::collection::vec("([hbtgmcsHBTGMCS]|[1-9]|1[0-2]){1,8}", 12),
        side in "[rwx]",
    ) {
        let text = format!("{} {side} 0 1", ranks.join("/"));
        if let Ok(p) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&p.fen()).map(|q| q.fen()), Ok(p.fen()));
        }
    }

    #[test]
    fn move_reader_never_panics(s in "[a-m0-9x^*@#+-]{0,14}") {
        let p = Position::startpos();
        if let Ok(mv) = p.parse_move(&s) {
            prop_assert!(s.starts_with(&p.move_to_string(mv)));
        }
    }

    #[test]
    fn move_reader_never_panics_on_unicode(s in "\\PC{0,12}") {
        let _ = Position::startpos().parse_move(&s);
        let _ = Position::from_fen(&s);
    }
}
