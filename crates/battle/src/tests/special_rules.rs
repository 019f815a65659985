//! One test per special rule of sections 3–6, named after the rule.

use super::examples::{
    EX1, EX2, EX3, EX4, EX5, EX6, EX7, EX8, EX9, EX10, EX11, EX12, expect, moves_of,
};
use crate::{MoveError, Position, Square};
use cannonade_core::{Next, Outcome, Reason, Record, Rules, Side};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn has(p: &Position, mv: &str) -> bool {
    moves_of(p, None).iter().any(|m| m == mv)
}

fn targets_of(p: &Position, from: &str) -> Vec<String> {
    moves_of(p, Some(from)).iter().map(|m| m[from.len() + 1..].to_string()).collect()
}

#[test]
fn bomber_flies_over_exactly_one_friendly_piece() {
    // f5 flies over f7 to f8/f9 and takes f10; it cannot fly over e4 and d3 together.
    let p = pos(EX1.fen);
    assert!(has(&p, "f5^f8") && has(&p, "f5^f9") && has(&p, "f5^xf10"));
    assert!(!moves_of(&p, Some("f5")).iter().any(|m| m.ends_with("c2") || m.ends_with("d3")));
}

#[test]
fn bomber_never_flies_over_an_enemy_piece() {
    // White soldier on d6 between the bomber on d4 and the empty d7..d10.
    let p = pos("4h3/8/12/12/12/12/3s8/12/3B8/12/8/4H3 r 0 1");
    let north: Vec<String> = targets_of(&p, "d4")
        .into_iter()
        .filter(|t| t.ends_with("d7") || t.ends_with("d8"))
        .collect();
    assert!(north.is_empty(), "{north:?}");
    assert!(has(&p, "d4xd6") && has(&p, "d4-d5"));
}

#[test]
fn bomber_captures_after_flying_over_a_friend() {
    // d4 over its own soldier d6 onto the white tank d9; the next friend would stop it.
    let p = pos("4h3/8/12/3t8/12/12/3S8/12/3B8/12/8/4H3 r 0 1");
    assert!(has(&p, "d4^d7") && has(&p, "d4^d8") && has(&p, "d4^xd9"));
    let p = pos("4h3/8/12/3t8/3S8/12/3S8/12/3B8/12/8/4H3 r 0 1");
    assert!(has(&p, "d4^d7") && !has(&p, "d4^xd9") && !has(&p, "d4^d8"));
}

#[test]
fn bomber_cannot_jump_a_missing_square() {
    // a3: down-right runs into the hole b2 at once; a10: up-right into b11.
    let p = pos("4h3/8/B11/12/12/12/12/12/12/B11/8/4H3 r 0 1");
    assert!(targets_of(&p, "a3").iter().all(|t| t != "c1" && t != "b2"));
    assert!(targets_of(&p, "a10").iter().all(|t| t != "c12" && t != "b11"));
}

#[test]
fn tank_moves_one_or_two_orthogonally_over_an_empty_middle() {
    EX5.check();
    // No diagonal moves, no jumps, and the hole ends the line: j1 cannot go to k1/l1.
    let p = pos("4h3/8/12/12/12/12/12/12/12/12/8/4H2T r 0 1");
    let mut t = targets_of(&p, "j1");
    t.sort();
    assert_eq!(t, ["h1", "i1", "j2", "j3"]);
}

#[test]
fn tank_is_immune_to_machine_gun_cavalry_and_soldier() {
    // White tank e5 next to a red machine gun e6, soldiers d5/f5, cavalry d3 (a knight jump
    // away); only the gun e1 (shot) and the bomber a5 (flying over d5) may take it.
    let p = pos("4h3/8/12/12/12/12/4M7/B2StS6/12/3C8/8/2G1H3 r 0 1");
    let on_e5: Vec<String> = moves_of(&p, None)
        .into_iter()
        .filter(|m| m.contains("e5") && !m.starts_with("e5"))
        .collect();
    assert_eq!(on_e5, ["a5^xe5", "e1*e5"]);
}

#[test]
fn tank_can_be_captured_by_headquarter_tank_and_removal() {
    let p = pos("4h3/8/12/12/12/12/12/12/12/4t7/2Tt4/4H3 r 0 1");
    assert!(has(&p, "e2xe3") && has(&p, "g1xf2") && has(&p, "e2xf2"));
    // Ex 9: the tank on f12 can be chosen for removal.
    assert!(has(&pos(EX9.fen), "e11-e12@f12"));
}

#[test]
fn gun_shoots_sideways_and_forward_up_to_five_without_moving() {
    EX2.check();
    // The shooter stays and the target is gone.
    let mut p = pos("4h3/8/4c7/s7s3/7t4/12/12/s3G4m1s/12/2s1s7/8/4H3 r 7 3");
    let mv = p.parse_move("e5*h8").expect("legal shot");
    p.play(mv);
    let e5 = Square::parse("e5").expect("square");
    assert!(p.piece_at(e5).is_some() && p.piece_at(Square::parse("h8").expect("sq")).is_none());
    assert_eq!(p.clock(), 0, "a shot removes a piece");
}

#[test]
fn gun_forward_is_owner_relative() {
    EX3.check();
}

#[test]
fn machine_gun_shoots_eight_lines_up_to_three_never_a_tank() {
    EX4.check();
    // A tank in range is only an obstacle.
    let p = pos("4h3/8/12/12/12/12/4t7/12/4M7/12/8/4H3 r 0 1");
    assert!(!moves_of(&p, Some("e4")).iter().any(|m| m.contains('*')));
}

#[test]
fn cavalry_leaps_one_two_one_three_two_three_over_holes() {
    let p = pos("4h3/8/12/12/12/12/5C6/12/12/12/8/4H3 r 0 1");
    assert_eq!(targets_of(&p, "f6").len(), 24);
    EX8.check();
}

#[test]
fn soldier_two_square_move_only_from_white_squares() {
    // d4 is black (4 + 4 even), e4 white (5 + 4 odd).
    let p = pos("4h3/8/12/12/12/12/12/12/3SS7/12/8/4H3 r 0 1");
    let two = |from: &str| {
        targets_of(&p, from)
            .iter()
            .filter(|t| {
                let a = Square::parse(from).expect("sq");
                let b = Square::parse(t).expect("sq");
                a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())) == 2
            })
            .count()
    };
    assert_eq!(two("d4"), 0);
    assert_eq!(two("e4"), 7, "e4-c4 is blocked by d4; seven other directions");
}

#[test]
fn soldier_captures_only_sideways_and_forward() {
    EX6.check();
}

#[test]
fn soldier_two_square_moves_stop_at_holes() {
    EX7.check();
}

#[test]
fn last_rank_removes_the_soldier_and_a_chosen_piece_each_choice_a_move() {
    let mut p = pos("1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 5 1");
    let mv = p.parse_move("e11xd12@a5").expect("legal");
    p.play(mv);
    assert_eq!(p.fen(), "3th3/8/12/12/12/12/12/12/12/12/7S/4H3 w 0 1");
}

#[test]
fn last_rank_with_only_the_headquarter_left_writes_at_dash() {
    let mut p = pos(EX10.fen);
    assert!(matches!(p.parse_move("e11xd12@d12"), Err(MoveError::Illegal(_))));
    let mv = p.parse_move("e11xd12@-").expect("legal");
    p.play(mv);
    assert_eq!(p.fen(), "4h3/8/12/12/12/12/12/12/12/12/8/4H3 w 0 1");
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::DeadMaterial)));
}

#[test]
fn white_last_rank_is_rank_one() {
    expect(
        "4h3/8/12/12/12/12/12/12/12/12/1s6/4H1T1 w 0 1",
        Some("d2"),
        8,
        "d2-c1@i1 d2-d1@i1 d2-e1@i1 d2-c2 d2-e2 d2-c3 d2-d3 d2-e3",
    );
}

#[test]
fn last_rank_legality_is_judged_after_the_removals() {
    // Ex 12: only the removal of the checking machine gun makes the soldier move legal.
    let p = pos(EX12.fen);
    let j11: Vec<String> = moves_of(&p, Some("j11"));
    assert_eq!(j11, ["j11-i12@d7", "j11-j12@d7"]);
}

#[test]
fn check_by_a_shot() {
    // The white gun g8 shoots down the g-file at distance 4.
    let p = pos("4h3/8/12/12/6g5/12/8M3/5S6/6H5/12/8/8 r 0 1");
    assert!(p.in_check());
    assert!(has(&p, "i6*g8") && has(&p, "f5-g5") && has(&p, "f5-g6"));
    // Range 5 reaches, range 6 does not.
    assert!(pos("4h3/8/12/12/12/12/6g5/12/12/12/8/4H3 r 0 1").in_check());
    assert!(!pos("4h3/8/12/12/12/6g5/12/12/12/12/8/4H3 r 0 1").in_check());
}

#[test]
fn check_through_a_friendly_piece_of_the_bomber() {
    let p = pos(EX11.fen);
    assert!(p.in_check());
    EX11.check();
}

#[test]
fn removing_one_of_two_pieces_before_an_enemy_bomber_is_illegal() {
    // White bomber g8 behind its own soldiers g6 and g4: shooting either exposes g1, while
    // capturing g6 by moving puts the red soldier in the way instead.
    let p = pos("4h3/8/12/12/6b5/12/5Ss2M2/12/6sM4/12/8/4H3 r 0 1");
    assert!(!p.in_check());
    assert!(has(&p, "f6xg6"));
    for mv in ["j6*g6", "h4*g4"] {
        assert!(
            matches!(p.parse_move(mv), Err(MoveError::Illegal(_))),
            "{mv}: {:?}",
            p.parse_move(mv)
        );
    }
}

#[test]
fn headquarter_may_not_step_next_to_the_enemy_headquarter() {
    let p = pos("8/8/12/12/12/12/12/12/6h5/4H7/8/8 r 0 1");
    let mut t = targets_of(&p, "e3");
    t.sort();
    assert_eq!(t, ["d2", "d3", "d4", "e2", "e4", "f2"]);
}

#[test]
fn checkmate_wins() {
    let p = pos("4h3/8/12/12/12/12/12/12/12/12/3m4/H6b r 0 1");
    assert!(p.in_check());
    assert_eq!(p.next(), Next::Over(Outcome::win(Side::Second, Reason::Checkmate)));
}

#[test]
fn stalemate_is_a_draw() {
    let p = pos("8/8/12/12/12/12/12/12/12/4c7/2h5/H7 r 0 1");
    assert!(!p.in_check());
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::Stalemate)));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut game = Record::new(Position::startpos());
    for (i, mv) in ["d1-c4", "d12-c9", "c4-d1", "c9-d12", "d1-c4", "d12-c9", "c4-d1", "c9-d12"]
        .into_iter()
        .enumerate()
    {
        assert_eq!(game.next(), Next::Player(game.position().mover()), "ply {i}");
        let m = game.position().parse_move(mv).expect("legal");
        game.play(m);
    }
    assert_eq!(game.next(), Next::Over(Outcome::draw(Reason::Repetition)));
    // The position alone knows nothing of the history.
    assert_eq!(game.position().next(), Next::Player(Side::First));
}

#[test]
fn ply_rule_150_draws_unless_mate() {
    let p = pos("4h3/8/12/12/12/12/12/12/12/12/8/3BH3 r 149 80");
    assert_eq!(p.next(), Next::Player(Side::First));
    let mut q = p.clone();
    let mv = q.parse_move("f1-f2").expect("legal");
    q.play(mv);
    assert_eq!(q.clock(), 150);
    assert_eq!(q.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
    // Mate on the 150th ply still wins.
    let m = pos("4h3/8/12/12/12/12/12/12/12/12/3m4/H6b r 150 90");
    assert_eq!(m.next(), Next::Over(Outcome::win(Side::Second, Reason::Checkmate)));
}

#[test]
fn ply_clock_resets_when_any_piece_leaves_the_board() {
    // Soldier moves do not reset it (D-16); captures, shots and last-rank moves do.
    let mut p = pos("1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 100 1");
    let step = p.parse_move("j2-j3").expect("legal");
    p.play(step);
    assert_eq!(p.clock(), 101);
    let mut q = pos("1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 100 1");
    let lr = q.parse_move("e11-e12@a5").expect("legal");
    q.play(lr);
    assert_eq!(q.clock(), 0);
}

#[test]
fn bare_headquarters_draw() {
    let p = pos("4h3/8/12/12/12/12/12/12/12/12/8/4H3 r 0 1");
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::DeadMaterial)));
}

#[test]
fn end_rules_apply_in_order() {
    // Repetition comes before the 150-ply rule and bare headquarters.
    let mut game = Record::new(pos("4h3/8/12/12/12/12/12/12/12/12/8/3BH3 r 146 1"));
    for mv in ["f1-f2", "g12-h12", "f2-f1", "h12-g12"] {
        let m = game.position().parse_move(mv).expect("legal");
        game.play(m);
    }
    assert_eq!(game.position().clock(), 150);
    assert_eq!(game.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
    for mv in ["f1-f2", "g12-h12", "f2-f1", "h12-g12"] {
        let m = game.position().parse_move(mv).expect("legal");
        game.play(m);
    }
    assert_eq!(game.next(), Next::Over(Outcome::draw(Reason::Repetition)));
}

#[test]
fn fullmove_number_rises_after_white_moves() {
    let mut p = Position::startpos();
    let a = p.parse_move("e3-e4").expect("legal");
    p.play(a);
    assert_eq!(p.fullmove(), 1);
    let b = p.parse_move("e10-e9").expect("legal");
    p.play(b);
    assert_eq!(p.fullmove(), 2);
    assert_eq!(p.side_to_move(), Side::First);
}
