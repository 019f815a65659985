//! A review as PGN annotations: each move's `[%eval …]` (the value after the move, from the
//! first seat's view, as PGN readers expect White's), a NAG for a marked move (`$6` `?!`,
//! `$2` `?`, `$4` `??`) and, for a marked move, the best move and the engine's line.

use super::Review;
use super::judge::{Eval, Judgement};
use cannonade_games::pgn::Annotation;

/// The value from the first seat's view, given the mover's view and the mover's seat.
fn first_seat(value: Eval, seat: usize) -> Eval {
    match (value, seat) {
        (v, 0) => v,
        (Eval::Cp(c), _) => Eval::Cp(-c),
        (Eval::Mate(m), _) => Eval::Mate(-m),
    }
}

/// The word for a judgement in a comment.
fn word(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "Inaccuracy",
        Judgement::Mistake => "Mistake",
        Judgement::Blunder => "Blunder",
    }
}

/// One annotation per move of the review.
pub fn annotations(review: &Review) -> Vec<Annotation> {
    review
        .plies
        .iter()
        .map(|p| {
            let eval = format!("[%eval {}]", first_seat(p.played_value, p.seat).pgn());
            let comment = match (p.judgement, &p.best_display) {
                (Some(j), Some(best)) => {
                    let line = p.line.join(" ");
                    format!("{eval} {}. Best: {best} (line {line})", word(j))
                }
                (Some(j), None) => format!("{eval} {}.", word(j)),
                (None, _) => eval,
            };
            Annotation { nag: p.judgement.map(Judgement::nag), comment: Some(comment) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::PlyReview;
    use cannonade_games::GameKind;

    fn ply(seat: usize, value: Eval, judgement: Option<Judgement>) -> PlyReview {
        PlyReview {
            ply: 0,
            seat,
            played: "e0e1".into(),
            display: "K5+1".into(),
            before: Eval::Cp(0),
            best: Some("a4a9".into()),
            best_display: Some("R9+5".into()),
            line: vec!["a4a9".into(), "d9d8".into()],
            line_display: Vec::new(),
            played_value: value,
            loss: 0,
            win_before: 0.5,
            win_after: 0.5,
            accuracy: 100.0,
            judgement,
            alternatives: Vec::new(),
        }
    }

    #[test]
    fn values_are_from_the_first_seat_and_marked_moves_name_the_best() {
        let review = crate::review::Review {
            kind: GameKind::Xiangqi,
            depth: Some(1),
            plies: vec![
                ply(0, Eval::Cp(-950), Some(Judgement::Blunder)),
                ply(1, Eval::Mate(2), None),
            ],
            accuracy: [None, None],
            expectation: false,
        };
        let notes = annotations(&review);
        assert_eq!(notes[0].nag, Some(4));
        assert_eq!(
            notes[0].comment.as_deref(),
            Some("[%eval -9.50] Blunder. Best: R9+5 (line a4a9 d9d8)")
        );
        assert_eq!(notes[1], Annotation { nag: None, comment: Some("[%eval #-2]".into()) });
    }
}
