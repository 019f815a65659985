//! One test per special rule and option.

use super::{moves, play_all, public, public_with};
use crate::{Colour, MoveError, Piece, Position};
use cannonade_core::{Next, Outcome, Reason, Record, Rules, Side, Weighted};

fn piece(c: char) -> Piece {
    Piece::from_letter(c).unwrap_or(Piece::ALL[0])
}

#[test]
fn flip_is_a_chance_event_weighted_by_the_pool() {
    let mut p = public("XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40");
    let mv = p.parse_move("a1?").unwrap_or_else(|e| panic!("{e}"));
    p.play(mv);
    assert!(p.chance_pending());
    assert_eq!(p.next(), Next::Chance);
    assert_eq!(p.mover(), Side::Second, "black (first seat) flipped; red moves next");
    assert_eq!(p.fen(), "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 a1?");
    assert_eq!(Position::from_fen(&p.fen()), Ok(p.clone()));
    let mut out = Vec::new();
    p.chance_outcomes(&mut out);
    let want: Vec<Weighted<Piece>> = "K1A1B2C1P2k1b1n1c2p4"
        .as_bytes()
        .chunks(2)
        .map(|c| Weighted { outcome: piece(c[0] as char), weight: (c[1] - b'0') as u32 })
        .collect();
    assert_eq!(out, want);
    assert_eq!(moves(&p), "");
    assert_eq!(p.parse_move("b2?"), Err(MoveError::ChancePending));
    p.resolve(piece('K'));
    assert_eq!(p.fen(), "XXXnXX2/rXRXbXXa/NXXXXPrX/KP1CAR1X r A1B2C1P2k1b1n1c2p4 0 41");
}

#[test]
fn first_flip_assigns_colours() {
    for (letter, first) in [('p', Colour::Black), ('A', Colour::Red)] {
        let mut p = Position::startpos();
        assert_eq!(p.turn(), None);
        play_all(&mut p, &format!("h4={letter}"));
        assert_eq!(p.colour_of(Side::First), Some(first));
        assert_eq!(p.turn(), Some(first.other()));
        assert_eq!(p.mover(), Side::Second);
        // The second seat has no face-up piece: flips only, even of the first seat's colour.
        assert_eq!(p.count_legal(), 31);
    }
}

#[test]
fn flipping_the_opponents_piece_is_legal() {
    // D-12: red flips a black piece; the turn simply passes.
    let mut p = public("XX6/8/8/K7 r k1p1 0 10");
    play_all(&mut p, "a4=k");
    assert_eq!(p.fen(), "kX6/8/8/K7 b p1 0 11");
}

#[test]
fn face_down_pieces_never_move_and_are_never_captured() {
    // The red chariot next to a face-down piece can neither take it nor move onto it.
    let p = public("8/8/8/RX6 r p1 0 0");
    assert_eq!(moves(&p), "b1? a1-a2");
}

#[test]
fn general_takes_general_and_equal_types_take_each_other() {
    let p = public("8/8/8/KkRr4 r - 0 0");
    assert_eq!(moves(&p), "a1xb1 a1-a2 c1xd1 c1-c2");
}

#[test]
fn cannon_captures_any_rank_at_any_distance() {
    let p = public("k7/8/8/C2X3c r P1 0 0");
    assert_eq!(moves(&p), "d1? a1-b1 a1xh1 a1-a2");
}

#[test]
fn cannon_cannot_jump_two_screens() {
    let p = public("8/8/8/CXXk4 r P2 0 0");
    assert_eq!(moves(&p), "b1? c1? a1-a2");
}

#[test]
fn elimination_needs_no_pieces_face_down_either() {
    // Black has no face-up piece but one face down: not eliminated.
    let p = public("8/8/8/K6X b p1 0 1");
    assert_eq!(p.next(), Next::Player(Side::Second));
    // Red checked first when both colours are gone.
    let p = public("8/8/8/8 r - 0 10");
    assert_eq!(p.next(), Next::Over(Outcome::loss(Side::First, Reason::Elimination)));
}

#[test]
fn loss_beats_a_simultaneous_draw() {
    // D-9: black's step makes the counter 60 and leaves red without a move.
    let mut p = public("8/8/a7/P1b5 b - 59 91");
    play_all(&mut p, "c1-b1");
    assert_eq!(p.noprog(), 60);
    assert_eq!(p.next(), Next::Over(Outcome::win(Side::Second, Reason::NoMoves)));
}

#[test]
fn no_progress_counter_resets_on_flip_and_capture() {
    let mut p = public("X7/8/8/Kp6 r p1 30 60");
    play_all(&mut p, "a4=p");
    assert_eq!(p.noprog(), 0);
    let mut p = public("X7/8/8/Kp6 r p1 30 60");
    play_all(&mut p, "a1-a2");
    assert_eq!(p.noprog(), 31);
    let mut p = public("X7/8/8/Kr6 r p1 30 60");
    play_all(&mut p, "a1xb1");
    assert_eq!(p.noprog(), 0);
}

#[test]
fn option_noprog_limit() {
    let p = public_with("7k/8/8/K7 r - 59 150", "noprog_limit=icga");
    assert_eq!(p.next(), Next::Player(Side::First));
    let p = public_with("7k/8/8/K7 r - 180 150", "noprog_limit=icga");
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
    let p = public_with("7k/8/8/K7 r - 40 150", "noprog_limit=40");
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
    let p = public_with("7k/8/8/K7 r - 9999 150", "noprog_limit=0");
    assert_eq!(p.next(), Next::Player(Side::First));
}

#[test]
fn option_repetition_limit() {
    let line = ["a1-a2", "h4-h3", "a2-a1", "h3-h4"];
    let run = |opts: &str, plies: usize| {
        let mut r = Record::new(public_with("7r/8/8/R7 r - 0 100", opts));
        for m in line.iter().cycle().take(plies) {
            let mv = r.position().parse_move(m).unwrap_or_else(|e| panic!("{e}"));
            r.play(mv);
        }
        r.next()
    };
    let draw = Next::Over(Outcome::draw(Reason::Repetition));
    assert_eq!(run("repetition_limit=2", 3), Next::Player(Side::Second));
    assert_eq!(run("repetition_limit=2", 4), draw);
    assert_eq!(run("standard", 4), Next::Player(Side::First));
    assert_eq!(run("repetition_limit=0", 40), Next::Player(Side::First));
}

#[test]
fn option_cannon_step() {
    // E6 under cannon=step: the cannon steps and has no jump capture.
    let p = public_with("k7/P7/8/C1X1n1r1 r B1 3 40", "cannon=step");
    assert_eq!(moves(&p), "c1? a1-b1 a1-a2 a3-a2 a3-b3 a3xa4");
    // Adjacent captures of cannons and soldiers only; soldiers still cannot take it.
    let p = public_with("8/8/n7/Cpc5 r - 0 0", "cannon=step");
    assert_eq!(moves(&p), "a1xb1");
    let p = public_with("8/8/8/Cp6 b - 0 0", "cannon=step");
    assert_eq!(moves(&p), "b1-c1 b1-b2");
}

#[test]
fn option_chain_capture() {
    // The example of 9.4: a1xa3xc3 (cannon, screens a2 and b3).
    let mut p = public_with("8/pPp5/P7/C7 r - 3 20", "chain_capture=on");
    let m = moves(&p);
    assert!(m.contains("a1xa3 a1xa3xc3"), "{m}");
    assert_eq!(m, "a1-b1 a1xa3 a1xa3xc3 a2-b2 a2xa3 b3-b2 b3xa3 b3xc3 b3-b4");
    let mv = p.parse_move("a1xa3xc3").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mv.captures(), 2);
    assert_eq!(p.move_to_compact(mv), "a1a3c3");
    assert_eq!(p.parse_move("a1a3c3"), Ok(mv));
    p.play(mv);
    assert_eq!(p.fen(), "8/1PC5/P7/8 b - 0 21");
    // A chariot's chain, stopping whenever the player wishes.
    let p = public_with("8/p1p5/p7/R7 r - 0 0", "chain_capture=on");
    assert_eq!(moves(&p), "a1-b1 a1xa2 a1xa2xa3");
    // Off by default.
    assert!(!moves(&public("8/pPp5/P7/C7 r - 3 20")).contains("a1xa3xc3"));
}

#[test]
fn moves_in_every_notation_and_canonical_order() {
    let p = public("7P/3k4/2nKp3/3c4 r - 10 57");
    let mv = p.parse_move("d2xd3").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.parse_move("d2-d3"), Ok(mv));
    assert_eq!(p.parse_move("d2d3"), Ok(mv));
    assert_eq!(p.move_to_string(mv), "d2xd3");
    assert_eq!(p.move_to_compact(mv), "d2d3");
    assert!(matches!(p.parse_move("d2xe2"), Err(MoveError::Illegal(_))));
    assert!(matches!(p.parse_move("d2?"), Err(MoveError::NotFaceDown(_))));
    let q = Position::startpos();
    let flip = q.parse_move("d2d2").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(q.parse_move("d2?"), Ok(flip));
    assert_eq!(q.move_to_compact(flip), "d2d2");
    assert_eq!(q.move_to_string(flip), "d2?");
    let mut r = public("8/8/8/X7 r K1 0 4");
    assert_eq!(r.play_text("a1?"), Err(MoveError::OutcomeMissing(crate::Square::ALL[0])));
    assert_eq!(r.play_text("a1=k"), Err(MoveError::NotInPool(piece('k'))));
}

#[test]
fn full_position_checks_recorded_flips_against_the_deal() {
    let f = super::full("8/8/8/XX6 r K1k1 0 4 kK");
    assert!(f.parse_move("a1=k").is_ok());
    assert_eq!(f.parse_move("a1=K"), Err(MoveError::DealMismatch(crate::Square::ALL[0])));
    // The error text does not tell what lies there.
    let e = f.parse_move("a1=K").err().map(|e| e.to_string()).unwrap_or_default();
    assert!(!e.contains('k'), "{e}");
}

#[test]
fn pretty_board() {
    let p = public("7P/3k4/2nKp3/3c4 r - 10 57");
    let s = p.pretty();
    assert!(s.starts_with("4  .  .  .  .  .  .  .  P \n"), "{s}");
    assert!(s.contains("to move: red (second seat)"), "{s}");
    let f = super::full("8/8/8/7X r P1 7 80 P");
    assert!(f.pretty().contains("P'"), "{}", f.pretty());
    assert!(!f.redact().pretty().contains('\''));
}
