//! The worked examples E1–E15 of section 16, each a named test: the complete list of legal
//! turns starting with the named piece (or from the named stack).

use cannonade_commander::{Position, START_FEN};
use cannonade_core::{MoveBuf, Next, Outcome, Reason, Rules, Side};
use std::collections::BTreeSet;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn turns(p: &Position) -> Vec<String> {
    let mut buf = MoveBuf::new();
    p.legal_moves(&mut buf);
    buf.iter().map(|&m| p.move_to_string(m)).collect()
}

/// Turns whose text starts with `prefix` (a unit and its point, or a stack point and ':').
fn turns_from(p: &Position, prefixes: &[&str]) -> BTreeSet<String> {
    turns(p).into_iter().filter(|t| prefixes.iter().any(|x| t.starts_with(x))).collect()
}

fn set(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

#[test]
fn e1_air_force_in_the_opening() {
    let p = pos(START_FEN);
    assert_eq!(
        turns_from(&p, &["Fe2"]),
        set(
            "Fe2e3 Fe2e5 Fe2e6 Fe2f3 Fe2g4 Fe2h5 Fe2i6 Fe2g2 Fe2f1 Fe2e1 Fe2d1 Fe2d2 Fe2c2 Fe2&b2 Fe2&c4"
        )
    );
}

#[test]
fn e2_commander_and_the_open_file() {
    let p = pos("6c4/11/9im/11/11/11/11/11/11/9IM/11/4C6 r - - 0 1");
    let want: String =
        (2..=11).map(|r| format!("Ce1e{r} ")).collect::<String>() + "Ce1d1 Ce1c1 Ce1f1";
    assert_eq!(turns_from(&p, &["Ce1"]), set(&want));
}

#[test]
fn e3_check() {
    let p = pos("6c4/11/9im/11/11/11/11/11/11/9IM/4i6/2i1C6 r - - 0 1");
    assert!(p.in_check());
    assert_eq!(turns(&p).into_iter().collect::<BTreeSet<_>>(), set("Ce1xe2 Ce1f1"));
}

#[test]
fn e4_pinned_on_the_open_file() {
    let p = pos("4c6/11/9im/11/11/11/11/4I6/11/9IM/11/4C6 r - - 0 1");
    assert_eq!(turns_from(&p, &["Ie5"]), set("Ie5e4 Ie5e6"));
}

#[test]
fn e5_artillery_and_the_river() {
    let p = pos("9c1/11/9im/11/4i6/6t4/11/4A6/11/9IM/11/10C r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Ae5"]),
        set(
            "Ae5e6 Ae5xe8 Ae5f6 Ae5xg7 Ae5d6 Ae5f5 Ae5g5 Ae5h5 Ae5d5 Ae5c5 Ae5e4 Ae5e3 Ae5e2 Ae5f4 Ae5g3 Ae5h2 Ae5d4 Ae5c3"
        )
    );
}

#[test]
fn e6_navy() {
    let p = pos("9c1/11/1n7im/11/11/11/1N2i6/11/11/4i4IM/11/10C r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Nb6"]),
        set(
            "Nb6b7 Nb6b8 Nb6b9 Nb6xb10 Nb6b5 Nb6b4 Nb6b3 Nb6b2 Nb6a6 Nb6a7 Nb6a5 Nb6c7 Nb6c5 Nb6c6 Nb6d6 Nb6xe6 Nb6_e3"
        )
    );
}

#[test]
fn e7_air_defense() {
    let p = pos("9c1/11/11/11/11/11/2M1g6/3Ii6/6i4/11/4F3s2/10C r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Fe2"]),
        set(
            "Fe2e3 Fe2e4 Fe2@e5 Fe2@e6 Fe2f3 Fe2xg4 Fe2_g4 Fe2h5 Fe2i6 Fe2d3 Fe2c4 Fe2d2 Fe2c2 Fe2e1 Fe2d1 Fe2f1 Fe2f2 Fe2@i2"
        )
    );
    let want: String = (3..=11).map(|r| format!("Ck1k{r} ")).collect();
    assert_eq!(turns_from(&p, &["Ck1"]), set(&want));
}

#[test]
fn e8_deploy() {
    let p = pos("9c1/11/9im/11/11/11/4i6/11/4(TI)6/9IM/11/10C r - - 0 1");
    let all = turns_from(&p, &["(TI)e4", "e4:"]);
    assert_eq!(all.len(), 48);
    let whole: BTreeSet<String> = all.iter().filter(|t| t.starts_with("(TI)")).cloned().collect();
    assert_eq!(
        whole,
        set("(TI)e4e5 (TI)e4xe6 (TI)e4f4 (TI)e4g4 (TI)e4d4 (TI)e4c4 (TI)e4e3 (TI)e4e2")
    );
    assert_eq!(all.iter().filter(|t| t.starts_with("e4:I:")).count(), 8);
    let inf: BTreeSet<String> = all.iter().filter(|t| t.starts_with("e4:T:")).cloned().collect();
    assert_eq!(inf, set("e4:T:I>e5 e4:T:I>d4 e4:T:I>f4 e4:T:I>e3"));
    assert_eq!(all.iter().filter(|t| t.starts_with("e4::")).count(), 28);
    assert!(all.contains("e4::T>xe6,I>e5"));
    // The other order is illegal (the Infantry on e5 would block the Tank) ...
    assert!(p.parse_move("e4::I>e5,T>xe6").is_err());
    // ... and sending both to one point is the whole-stack move.
    let mv = p.parse_move("e4::T>e5,I>&e5");
    assert_eq!(mv.map(|m| p.move_to_string(m)).as_deref(), Ok("(TI)e4e5"));
}

#[test]
fn e9_heroes() {
    let mut p = pos("11/11/11/4c6/11/11/11/4T6/11/11/8I2/10C r - - 0 1");
    let mv = p.parse_move("Te5e7").expect("legal");
    p.play(mv);
    assert_eq!(p.fen(), "11/11/11/4c6/11/4+T6/11/11/11/11/8I2/10C b - - 1 1");
    assert!(p.in_check());
    assert_eq!(
        turns(&p).into_iter().collect::<BTreeSet<_>>(),
        set("Ce9e11 Ce9e12 Ce9d9 Ce9f9 Ce9h9 Ce9i9 Ce9j9")
    );
}

#[test]
fn e10_last_guard() {
    let mut p = pos("11/11/4c6/11/11/11/11/4i6/4T1i4/11/8I2/10C r - - 0 1");
    let mv = p.parse_move("Te4xe5").expect("legal");
    p.play(mv);
    assert_eq!(p.fen(), "11/11/4c6/11/11/11/11/4T6/6+i4/11/8I2/10C b - - 0 1");
}

#[test]
fn e11_a_ship_passes_land_pieces() {
    let p = pos("9c1/11/9im/11/11/11/11/11/2i8/2N6IM/11/10C r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Nc3"]),
        set("Nc3xc4 Nc3c5 Nc3c6 Nc3c7 Nc3c2 Nc3c1 Nc3b3 Nc3a3 Nc3b4 Nc3a5 Nc3b2 Nc3a1")
    );
}

#[test]
fn e12_shooting_into_the_sea() {
    let p = pos("9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1");
    assert_eq!(turns_from(&p, &["Tc4"]), set("Tc4_a4 Tc4c5 Tc4c6 Tc4c3 Tc4c2 Tc4d4 Tc4e4"));
    let p = pos("9c1/11/9im/11/11/11/11/11/11/1nC6IM/11/11 r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Cc3"]),
        set("Cc3_b3 Cc3c1 Cc3c5 Cc3c6 Cc3c7 Cc3c8 Cc3c9 Cc3c10 Cc3c11 Cc3f3 Cc3g3 Cc3h3 Cc3i3")
    );
}

#[test]
fn e13_engineer_ferry() {
    let p = pos("9c1/11/9im/11/11/11/4(EA)6/11/11/9IM/11/10C r - - 0 1");
    let all = turns_from(&p, &["(EA)e6", "e6:"]);
    assert_eq!(all.len(), 70);
    let whole: BTreeSet<String> = all.iter().filter(|t| t.starts_with("(EA)")).cloned().collect();
    assert_eq!(whole, set("(EA)e6e7 (EA)e6d6 (EA)e6f6 (EA)e6e5"));
    let art: Vec<&String> = all.iter().filter(|t| t.starts_with("e6:E:A>")).collect();
    assert_eq!(art.len(), 13);
    assert!(art.iter().all(|t| {
        let rank: u32 = t[8..].parse().expect("a rank");
        rank <= 6
    }));
}

#[test]
fn e14_ship_at_the_river_corner() {
    let p = pos("9c1/11/9im/11/11/11/3i7/2N8/11/9IM/11/10C r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Nc5"]),
        set(
            "Nc5c6 Nc5c7 Nc5c8 Nc5c9 Nc5c4 Nc5c3 Nc5c2 Nc5c1 Nc5b5 Nc5a5 Nc5b6 Nc5a7 Nc5b4 Nc5a3 Nc5xd6"
        )
    );
}

#[test]
fn e15_landing_inside_a_zone() {
    let p = pos("9c1/11/9im/11/11/11/4g6/4T6/11/9IM/4F6/10C r - - 0 1");
    assert_eq!(
        turns_from(&p, &["Fe2"]),
        set(
            "Fe2e3 Fe2e4 Fe2&e5 Fe2@e6 Fe2f3 Fe2g4 Fe2h5 Fe2i6 Fe2f2 Fe2g2 Fe2h2 Fe2i2 Fe2d3 Fe2c4 Fe2d2 Fe2c2 Fe2e1 Fe2d1 Fe2f1"
        )
    );
}

#[test]
fn checkmate_ends_the_game() {
    // Blue Commander k12 checked by the Tank k10; j12 is guarded by the Infantry j11.
    let p = pos("9Tc/9I1/10T/11/11/11/11/11/11/11/11/2C8 b - - 0 1");
    match p.next() {
        Next::Over(Outcome { winner: Some(Side::First), reason: Reason::Checkmate }) => {}
        other => panic!("expected checkmate, got {other:?} with {:?}", turns(&p)),
    }
}
