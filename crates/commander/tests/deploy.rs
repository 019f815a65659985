//! Named tests for the deploy rules that act between the steps of one turn: only the end of
//! the turn is judged (9.4, 11.3, D23) and promotions take effect at once, also for pieces
//! still on the stack (10.1–10.3, D15, D16; the peer differs, 18.5).

use cannonade_commander::{MoveError, Position};
use cannonade_core::{MoveBuf, Next, Outcome, Reason, Rules, Side};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal turn as (turn text, FEN of the board and side to move after it).
fn turns(p: &Position) -> Vec<(String, String)> {
    let mut buf = MoveBuf::new();
    p.legal_moves(&mut buf);
    buf.iter()
        .map(|&m| {
            let mut q = p.clone();
            q.play(m);
            (p.move_to_string(m), q.fen())
        })
        .collect()
}

fn has_turn(list: &[(String, String)], turn: &str) -> bool {
    list.iter().any(|(t, _)| t == turn)
}

/// The legal turns of `fen`, after checking that one of them ends in `end` (whatever the
/// order of its steps, 15.1).
fn turns_reaching(fen: &str, end: &str) -> (Position, Vec<(String, String)>) {
    let p = pos(fen);
    let list = turns(&p);
    assert!(list.iter().any(|(_, f)| f == end), "{fen}: no turn ends in {end}: {list:?}");
    (p, list)
}

/// Whether some one-step deploy from `stack` leaving `stay` behind goes to `to`.
fn one_step_to(list: &[(String, String)], stack: &str, stay: &str, to: &str) -> bool {
    let head = format!("{stack}:{stay}:");
    list.iter().any(|(t, _)| t.starts_with(&head) && !t.contains(',') && t.ends_with(to))
}

/// Blue Commander e6 behind its Anti-Air e5, facing the Red (FT) on e4; e6 is also in the
/// zone of the Blue Missile e8.
const UNCOVERED: &str = "11/11/9im/11/4s6/11/4c6/4g6/4(FT)6/9IM/11/10C r - - 0 1";

#[test]
fn a_commander_in_danger_mid_deploy_is_judged_at_the_end_of_the_turn() {
    // Red Commander f1 in double check: Blue Infantry f2 (adjacent) and Blue Tank h1 (two
    // points along rank 1). The Red (TM) on g2 can take f2 with the Tank and h1 with the
    // Militia; whichever goes first leaves the other checker in place, so every order has an
    // unsafe intermediate position, and only the two-step turn ends safe.
    let (p, list) = turns_reaching(
        "9c1/11/9im/11/11/11/11/11/11/9IM/5i(TM)4/5C1t3 r - - 0 1",
        "9c1/11/9im/11/11/11/11/11/11/9IM/5T5/5C1M3 b - - 0 1",
    );
    let mv = p.parse_move("g2::M>xh1,T>xf2").expect("the other order names the same turn");
    assert!(has_turn(&list, &p.move_to_string(mv)));
    // Either step alone (or the whole stack taking f2) ends with the Commander attacked.
    for one in ["g2:M:T>xf2", "g2:T:M>xh1", "(TM)g2xf2"] {
        assert!(!has_turn(&list, one), "{one} leaves the Commander in check");
        assert_eq!(p.parse_move(one), Err(MoveError::CommanderInDanger), "{one}");
    }
}

#[test]
fn a_deploy_step_may_capture_a_commander_a_previous_step_uncovered() {
    // 11.1 counts only what one step could capture, so Blue (Commander e6) is not in check:
    // the Blue Anti-Air e5 blocks the Red Tank in the (FT) on e4, and the Air Force's flight
    // is shot down on e6, covered by both the Anti-Air and the Missile e8. A kamikaze on e5
    // removes the blocker; the Tank, still on the stack, now captures the Commander in the
    // same turn. 11.4 ("never actually captured") holds only for turns of one step: nothing
    // in 9.4 forbids this capture, and a side without a Commander has lost (14.1).
    let blue = pos(&UNCOVERED.replace(" r ", " b "));
    assert!(!blue.in_check(), "Blue is not in check before the turn");
    let gone = "11/11/9im/11/4s6/11/4+T6/11/11/9IM/11/10C b - - 0 1";
    let (p, _) = turns_reaching(UNCOVERED, gone);
    let mut q = p.clone();
    q.play(p.parse_move("e4::F>@e5,T>xe6").expect("legal"));
    assert_eq!(q.fen(), gone);
    assert_eq!(q.next(), Next::Over(Outcome::loss(Side::Second, Reason::Capture)));
}

#[test]
fn a_promotion_between_deploy_steps_acts_at_once() {
    // After the kamikaze on e5 the Tank still on e4 attacks the Blue
    // Commander e6 (10.1), becomes heroic at once and may then leave diagonally (10.3) —
    // e4 to f5 is a heroic-only step. Sent alone, the non-heroic Tank cannot go there.
    let (p, list) =
        turns_reaching(UNCOVERED, "11/11/9im/11/4s6/11/4c6/5+T5/11/9IM/11/10C b - - 0 1");
    // The plain Tank does leave alone, orthogonally.
    assert!(one_step_to(&list, "e4", "F", ">e3") && !one_step_to(&list, "e4", "F", ">f5"));
    assert!(matches!(p.parse_move("e4:F:T>f5"), Err(MoveError::NotAllowed(1))));
}

#[test]
fn a_last_guard_promotion_between_deploy_steps_acts_at_once_d16() {
    // Red has only its Commander and the (FT) on e4. The Air Force's kamikaze on the Blue
    // Anti-Air e5 leaves the Tank as Red's last piece: it becomes heroic (10.2) before the
    // next step and may leave diagonally to f3.
    let (_, list) = turns_reaching(
        "9c1/11/9im/11/11/11/11/4g6/4(FT)6/11/11/10C r - - 0 1",
        "9c1/11/9im/11/11/11/11/11/11/5+T5/11/10C b - - 0 1",
    );
    // The plain Tank does leave alone, orthogonally.
    assert!(one_step_to(&list, "e4", "F", ">e3") && !one_step_to(&list, "e4", "F", ">f3"));
}
