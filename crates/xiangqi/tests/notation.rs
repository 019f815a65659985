//! FEN reading/writing with its errors, coordinate moves in both rank numberings, WXF and
//! Chinese notation. WXF expectations are Fairy-Stockfish's output for the same positions.

use cannonade_xiangqi::{Colour, FenError, Kind, Piece, Position, Ranks, Square, UciMove};
use proptest::prelude::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn fen_round_trips_and_accepts_synonyms_and_short_forms() {
    let start = Position::startpos();
    assert_eq!(Position::from_fen(&start.fen()).unwrap(), start);
    let liberal = pos("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w");
    assert_eq!(liberal.fen(), start.fen());
    let after = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    assert_eq!(pos(after).fen(), after);
}

#[test]
fn fen_errors_name_the_problem() {
    let cases: &[(&str, FenError)] = &[
        ("", FenError::Empty),
        ("9/9 w", FenError::RankCount(2)),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            FenError::RankLength { rank: 0 },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            FenError::RankLength { rank: 0 },
        ),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", FenError::BadChar('X')),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            FenError::BadSide("x".into()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w K - 0 1",
            FenError::BadField("K".into()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            FenError::BadCounter("x".into()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 121 1",
            FenError::BadCounter("121".into()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 z",
            FenError::TrailingFields,
        ),
        ("3k5/9/9/9/9/9/9/9/9/9 w", FenError::GeneralCount(Colour::Red, 0)),
        ("4k4/9/9/9/9/9/9/9/9/3K1K3 w", FenError::GeneralCount(Colour::Red, 2)),
        (
            "4k4/9/9/9/9/9/9/9/9/R2KRR3 w",
            FenError::TooMany(Piece::new(Colour::Red, Kind::Chariot), 3),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/K8 w",
            FenError::Unreachable(
                Piece::new(Colour::Red, Kind::General),
                Square::parse("a0").unwrap(),
            ),
        ),
        (
            "4k4/9/9/9/2B6/9/9/9/9/3K5 w",
            FenError::Unreachable(
                Piece::new(Colour::Red, Kind::Elephant),
                Square::parse("c5").unwrap(),
            ),
        ),
        (
            "4k4/9/9/9/9/9/9/9/1P7/3K5 w",
            FenError::Unreachable(
                Piece::new(Colour::Red, Kind::Soldier),
                Square::parse("b1").unwrap(),
            ),
        ),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", FenError::GeneralsFacing),
        ("4k4/4R4/9/9/9/9/9/9/9/3K5 w", FenError::OpponentInCheck),
    ];
    for (fen, expected) in cases {
        assert_eq!(Position::from_fen(fen).as_ref(), Err(expected), "{fen}");
        assert!(!expected.to_string().is_empty());
    }
}

#[test]
fn coordinate_moves_in_both_rank_numberings() {
    let p = Position::startpos();
    let mv = p.parse_move("b9c7");
    assert!(mv.is_err(), "black piece with red to move");
    let p = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    let mv = p.parse_move("b9c7").unwrap();
    assert_eq!(p.parse_move_in("b10c8", Ranks::FromOne).unwrap(), mv);
    assert_eq!(p.parse_move("B9-C7").unwrap(), mv);
    assert_eq!(mv.uci().to_text(Ranks::FromOne), "b10c8");
    assert!(UciMove::parse("0000", Ranks::FromZero).is_err());
    assert!(UciMove::parse("a0a10", Ranks::FromZero).is_err());
    assert!(p.parse_move("b9b5").is_err());
}

#[test]
fn wxf_matches_fairy_stockfish() {
    // (FEN, coordinate move, WXF as printed by Fairy-Stockfish)
    let cases = [
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "h2e2", "C2=5"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "h9g7", "H8+7"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "b9c7", "H2+3"),
        ("4k4/9/9/R8/R8/9/9/9/9/3K5 w", "a6e6", "R+=5"),
        ("4k4/9/9/R8/R8/9/9/9/9/3K5 w", "a5e5", "R-=5"),
        ("4k4/9/9/9/2N6/9/2N6/9/9/3K5 w", "c5e6", "H++5"),
        ("4k4/9/9/9/2N6/9/2N6/9/9/3K5 w", "c3e2", "H--5"),
        ("4k4/9/9/2c6/9/2c6/9/9/9/3K5 b", "c6e6", "C-=5"),
        ("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w", "e1d2", "A5+6"),
        ("3k5/9/4b4/9/9/9/9/9/9/4K4 b", "e7c9", "E5-3"),
        ("4k4/9/2P6/2P6/9/9/9/9/9/3K5 w", "c7c8", "P++1"),
        ("4k4/9/2P6/2P6/9/9/9/9/9/3K5 w", "c6b6", "P-=8"),
        ("4k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w", "c6b6", "37=8"),
        ("4k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w", "c8b8", "17=8"),
        ("4k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w", "c8c9", "17+1"),
        ("4k4/2P3P2/2P3P2/9/9/9/9/9/9/3K5 w", "g7f7", "23=4"),
        ("5k3/9/9/9/9/2p3p2/2p3p2/9/9/4K4 b", "g3g2", "17+1"),
        ("5k3/9/9/9/9/9/6p2/6p2/9/4K4 b", "g2g1", "P++1"),
        ("4k4/2P6/2P6/9/6P2/9/9/9/9/3K5 w", "g5g6", "P3+1"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0e1", "K5+1"),
    ];
    for (fen, coord, wxf) in cases {
        let p = pos(fen);
        let mv = p.parse_move(coord).unwrap_or_else(|e| panic!("{fen} {coord}: {e}"));
        assert_eq!(p.wxf(mv), wxf, "{fen} {coord}");
        assert_eq!(p.parse_wxf(wxf).unwrap(), mv, "{fen} {wxf}");
    }
    let p = Position::startpos();
    assert_eq!(p.parse_wxf("c2.5").unwrap(), p.parse_move("h2e2").unwrap());
    assert!(p.parse_wxf("C2=9").is_err(), "blocked by the other cannon");
    assert!(p.parse_wxf("nonsense").is_err());
}

#[test]
fn chinese_notation() {
    let p = Position::startpos();
    assert_eq!(p.chinese(p.parse_move("h2e2").unwrap()), "炮二平五");
    assert_eq!(p.chinese(p.parse_move("h0g2").unwrap()), "馬二進三");
    assert_eq!(p.chinese(p.parse_move("a0a1").unwrap()), "車九進一");
    let b = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b");
    let mv = b.parse_move("h9g7").unwrap();
    assert_eq!(b.chinese(mv), "馬8進7");
    assert_eq!(b.parse_chinese("马８进７").unwrap(), mv);
    let r = pos("4k4/9/9/R8/R8/9/9/9/9/3K5 w");
    assert_eq!(r.chinese(r.parse_move("a6e6").unwrap()), "前車平五");
    let three = pos("4k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w");
    assert_eq!(three.chinese(three.parse_move("c7b7").unwrap()), "中兵七平八");
}

proptest! {
    #[test]
    fn fen_reader_never_panics(s in "\\PC{0,120}") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn fen_like_text_never_panics(s in "[kabnrcpehKABNRCPEH1-9/ wb-]{0,100}") {
        if let Ok(p) = Position::from_fen(&s) {
            prop_assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
        }
    }

    #[test]
    fn move_readers_never_panic(s in "\\PC{0,12}") {
        let p = Position::startpos();
        let _ = p.parse_move(&s);
        let _ = p.parse_move_in(&s, Ranks::FromOne);
        let _ = p.parse_wxf(&s);
        let _ = p.parse_chinese(&s);
    }
}
