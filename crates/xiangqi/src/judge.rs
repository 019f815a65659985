//! The `asian` rule's judgement of a repetition cycle (perpetual check and perpetual chase,
//! rules §6). Counting the occurrences, and the seed rule (the ply that makes the third
//! occurrence loses), are core's (`cannonade_core::repetition`).

use crate::{Colour, Kind, Move, Position, Square};
use cannonade_core::{Outcome, Reason};
use cannonade_geom::bits::Bits128;

/// Whether playing `mv` in `pos` gives check.
pub fn gives_check(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.play_move(mv);
    after.in_check()
}

/// The enemy pieces that the side to move in `pos` *chases* by playing `mv` (rules §6.4), as
/// their points after the move.
pub fn chased_pieces(pos: &Position, mv: Move) -> Vec<Square> {
    let us = pos.side;
    let them = !us;
    let mut after = pos.clone();
    after.play_move(mv);
    // `after` has the opponent to move; ask what we could do next with us to move.
    let ours_next = after.with_side(us);
    let attackers =
        after.colour_set(us) & !(after.kind_set(Kind::General) | after.kind_set(Kind::Soldier));
    let uncrossed_soldiers = after.pieces(them, Kind::Soldier) & crate::tables::HALF[them.index()];
    let victims = after.colour_set(them) & !after.kind_set(Kind::General) & !uncrossed_soldiers;
    let mut chased = Vec::new();
    for x in Bits128(victims) {
        let xs = Square::from_index(x);
        let Some(xp) = after.piece_at(xs) else { continue };
        let is_chased = Bits128(attackers).any(|a| {
            let asq = Square::from_index(a);
            let Some(ap) = after.piece_at(asq) else { return false };
            if !ours_next.is_legal(asq, xs) {
                return false;
            }
            // The attack must be new: the attacker (from where it stood) could not take X
            // before the move.
            let before_sq = if asq == mv.to() { mv.from() } else { asq };
            if pos.is_legal(before_sq, xs) {
                return false;
            }
            if ap.kind == xp.kind
                && matches!(ap.kind, Kind::Chariot | Kind::Cannon | Kind::Horse)
                && after.is_legal(xs, asq)
            {
                return false;
            }
            let stronger = matches!(ap.kind, Kind::Horse | Kind::Cannon)
                && xp.kind == Kind::Chariot
                || matches!(ap.kind, Kind::Advisor | Kind::Elephant)
                    && matches!(xp.kind, Kind::Chariot | Kind::Horse | Kind::Cannon);
            stronger || !protected_after_capture(&ours_next, asq, xs, them)
        });
        if is_chased {
            chased.push(xs);
        }
    }
    chased
}

/// Whether, after `attacker` takes on `target` (with the attacker's side to move in `pos`),
/// `defender` has a legal recapture there.
fn protected_after_capture(
    pos: &Position,
    attacker: Square,
    target: Square,
    defender: Colour,
) -> bool {
    let mut p = pos.clone();
    p.play_move(Move::new(attacker.index(), target.index()));
    debug_assert_eq!(p.side, defender);
    let recapturers = p.colour_set(defender);
    Bits128(recapturers).any(|s| p.is_legal(Square::from_index(s), target))
}

/// The verdict on a cycle `cycle[0] .. cycle[last]` (first and last occurrence of the
/// repeated position).
pub(crate) fn asian_verdict(cycle: &[Position]) -> Outcome {
    let mut checks = [true; 2];
    let mut moved = [false; 2];
    let mut any_check = false;
    // Candidate chased pieces per chasing colour, followed as the other side moves them.
    let mut candidates: [Option<Vec<Square>>; 2] = [None, None];
    for pair in cycle.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let Some(mv) = ply_between(before, after) else { continue };
        let s = before.side.index();
        moved[s] = true;
        let check = after.in_check();
        any_check |= check;
        checks[s] &= check;
        // The chased pieces belong to the other side; when it moves one, follow it.
        let other = 1 - s;
        if let Some(c) = candidates[other].as_mut() {
            for sq in c.iter_mut() {
                if *sq == mv.from() {
                    *sq = mv.to();
                }
            }
        }
        let now = chased_pieces(before, mv);
        candidates[s] = Some(match candidates[s].take() {
            None => now,
            Some(prev) => prev.into_iter().filter(|sq| now.contains(sq)).collect(),
        });
    }
    let perpetual_check = [checks[0] && moved[0], checks[1] && moved[1]];
    let sides = [Colour::Red.side(), Colour::Black.side()];
    match perpetual_check {
        [true, false] => return Outcome::loss(sides[0], Reason::PerpetualCheck),
        [false, true] => return Outcome::loss(sides[1], Reason::PerpetualCheck),
        [true, true] => return Outcome::draw(Reason::Repetition),
        _ => {}
    }
    if any_check {
        return Outcome::draw(Reason::Repetition);
    }
    let chase = [0, 1].map(|i| candidates[i].as_ref().is_some_and(|c| !c.is_empty()));
    match chase {
        [true, false] => Outcome::loss(sides[0], Reason::PerpetualChase),
        [false, true] => Outcome::loss(sides[1], Reason::PerpetualChase),
        _ => Outcome::draw(Reason::Repetition),
    }
}

/// The move that leads from one position to the next (a record stores both).
fn ply_between(before: &Position, after: &Position) -> Option<Move> {
    let moved = before.colour_set(before.side) & !after.colour_set(before.side);
    let arrived = after.colour_set(before.side) & !before.colour_set(before.side);
    if moved.count_ones() != 1 || arrived.count_ones() != 1 {
        return None;
    }
    Some(Move::new(moved.trailing_zeros() as u8, arrived.trailing_zeros() as u8))
}
