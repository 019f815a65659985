//! One test per special rule that the worked examples do not already pin down: stay-capture
//! merging (perft counts positions), heroic stealth, last guard inside stacks, FEN errors,
//! notation round trips and the peer's short form, points and the timed formats.

use cannonade_commander::points::{Format, judge_format, objectives};
use cannonade_commander::{FenError, MoveError, Position, START_FEN};
use cannonade_core::{MoveBuf, Next, Outcome, Reason, Record, Rules, Side};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn turns(p: &Position) -> Vec<String> {
    let mut buf = MoveBuf::new();
    p.legal_moves(&mut buf);
    buf.iter().map(|&m| p.move_to_string(m)).collect()
}

#[test]
fn identical_stay_captures_are_one_position() {
    // Tank c4 and Artillery d4 can both fire at the ship on a4 and stay: one position.
    let p = pos("9c1/11/9im/11/11/11/11/11/n1TA7/9IM/11/10C r - - 0 1");
    let t = turns(&p);
    assert!(t.contains(&"Tc4_a4".to_string()));
    assert!(!t.contains(&"Ad4_a4".to_string()));
    let mv = p.parse_move("Ad4_a4").expect("the same position as Tc4_a4");
    assert_eq!(p.move_to_string(mv), "Tc4_a4");
}

#[test]
fn heroic_air_force_is_stealthy() {
    let p = pos("9c1/11/9im/11/11/11/4g6/11/11/9IM/4+F6/10C r - - 0 1");
    let t = turns(&p);
    for want in ["+Fe2xe6", "+Fe2_e6", "+Fe2e7", "+Fe2e5"] {
        assert!(t.contains(&want.to_string()), "{want} missing from {t:?}");
    }
    // The plain Air Force may only dive on the Anti-Air.
    let p = pos("9c1/11/9im/11/11/11/4g6/11/11/9IM/4F6/10C r - - 0 1");
    let t = turns(&p);
    assert!(t.contains(&"Fe2@e6".to_string()) && !t.iter().any(|m| m == "Fe2e7" || m == "Fe2e5"));
}

/// The fuzzer (`fuzz/regressions/commander_legal/`) found Black's Commander kept off g11 by
/// the heroic Red Commander three points down the open diagonal: the diagonal capture range
/// was its slide (11), not 1.
#[test]
fn heroic_commander_attacks_only_adjacent_points() {
    let p = pos("11/9c1/11/11/3+C7/11/11/11/11/11/11/11 b - - 5 4");
    let t = turns(&p);
    assert!(t.contains(&"Cj11g11".to_string()), "Cj11g11 missing from {t:?}");
    // Diagonally next to it is still attacked (11.1): f5-e5 is refused, f5-f6 is not.
    let t = turns(&pos("11/11/11/11/11/11/11/5c5/3+C7/11/11/11 b - - 5 4"));
    assert!(!t.contains(&"Cf5e5".to_string()) && t.contains(&"Cf5f6".to_string()), "{t:?}");
}

/// The fuzzer (`fuzz/regressions/commander_legal/ninth-air-defense-provider`) found Blue's
/// Air Force diving through Red's zones: Red has nine providers (a FEN may hold any number of
/// pieces, rules 14.1), and the move generator kept only eight, so the Anti-Air on i7 (the
/// ninth) was not there for the flight check of section 8.3.
#[test]
fn air_defense_counts_every_provider_past_eight() {
    let p = pos(
        "11/4fhch3/n6f3/11/2E2MI2EI/2N1GT1TG2/3A3S1A1/2IE2M2EI/N3GT1TG2/6S2A1/4FH1HF2/2NA2C4 b",
    );
    let t = turns(&p);
    // h8 is in the Missile h6's zone, h7 and i7 in the Missile's and the Anti-Air i7's: the
    // plane is shot down before it can dive.
    for shot_down in ["Fe11@i7", "Fh10@h7", "Fh10@h6"] {
        assert!(!t.contains(&shot_down.to_string()), "{shot_down} in {t:?}");
    }
    // e7's Anti-Air stands in one zone only, so the dive on it stays.
    assert!(t.contains(&"Fe11@e7".to_string()), "{t:?}");
}

/// Hero promotion (10.1) reaches every attacker of the Commander, however many: the list of
/// attackers once held 19. Red's Commander f7 sits where the zones of its two Anti-Airs
/// overlap, so none of Blue's 26 Air Forces can reach it; taking the Anti-Air g7 leaves one
/// zone, and all of them (and the Artillery) attack at once.
#[test]
fn every_attacker_of_the_commander_becomes_heroic() {
    let mut p =
        pos("10c/5f3f1/2f2f2f2/3f1f1f3/4fff4/2ffGCGffa1/4fff4/3f1f1f3/2f2f2f2/5f3f1/11/9IM b");
    assert!(!p.fen().contains('+'));
    let mv = p.parse_move("Aj7xg7").expect("legal");
    p.play(mv);
    assert_eq!(p.fen().matches("+f").count(), 26, "{}", p.fen());
    assert!(p.fen().contains("+a"), "{}", p.fen());
}

#[test]
fn last_guard_counts_stacked_pieces_d16() {
    let mut p = pos("5(hc)5/11/11/11/11/11/11/11/11/9IM/11/10C r - - 0 1");
    let mv = p.parse_move("Ij3j4").expect("legal");
    p.play(mv);
    assert!(p.fen().starts_with("5(+hc)5/"), "{}", p.fen());
}

#[test]
fn fen_round_trip_and_stack_order() {
    let p = pos("9c1/11/9im/11/11/11/11/11/1(TFN)9/9IM/11/10C r - - 0 1");
    assert_eq!(p.fen(), "9c1/11/9im/11/11/11/11/11/1(NFT)9/9IM/11/10C r - - 0 1");
    assert_eq!(
        pos("9c1/11/9im/11/11/11/11/11/11/9IM/11/10C").fen(),
        "9c1/11/9im/11/11/11/11/11/11/9IM/11/10C r - - 0 1"
    );
    assert_eq!(Position::startpos().fen(), START_FEN);
}

#[test]
fn fen_errors_name_the_problem() {
    let err = |f: &str| Position::from_fen(f).expect_err(f);
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("11/11"), FenError::RankCount(2));
    assert_eq!(err("9c/11/9im/11/11/11/11/11/11/9IM/11/10C"), FenError::RankWidth { rank: 12 });
    assert!(matches!(
        err("9c1/11/9im/11/11/11/11/11/11/9IM/11/10(C"),
        FenError::Parentheses { .. }
    ));
    assert!(matches!(
        err("9c1/11/9im/11/11/11/11/11/11/9IM/11/9+1C"),
        FenError::DanglingPlus { .. }
    ));
    assert!(matches!(err("9c1/11/9im/11/11/11/11/11/11/9IM/11/9(Tc)"), FenError::MixedCase { .. }));
    assert!(matches!(
        err("9c1/11/9im/11/11/11/11/11/11/9IM/11/9(TA)"),
        FenError::IllegalStack { .. }
    ));
    assert!(matches!(err("9c1/11/9im/11/11/11/11/11/11/9IM/11/T9C"), FenError::CannotStand { .. }));
    assert!(matches!(
        err("9c1/11/9im/11/11/11/11/11/11/9IM/11/9CC"),
        FenError::TwoCommanders { .. }
    ));
    assert!(matches!(
        err("9c1/11/9im/11/11/11/11/11/11/9IM/11/11 b"),
        FenError::NoCommander { .. }
    ));
    assert!(matches!(err("9c1/11/9im/11/11/11/11/11/11/9IM/11/10C x"), FenError::BadSide(_)));
    assert!(matches!(
        err("9c1/11/9im/11/11/11/11/11/11/9IM/11/10C r - - z"),
        FenError::BadCounter(_)
    ));
    assert_eq!(err("9c1/11/11/11/11/11/11/11/11/11/11/9C1"), FenError::CommandersFace);
    assert!(matches!(err("9c1/11/9im/11/11/11/11/11/11/9IM/11/9(12"), FenError::BadChar { .. }));
}

#[test]
fn move_errors_name_the_problem() {
    let p = Position::startpos();
    assert!(matches!(p.parse_move("Ie5e6"), Err(MoveError::NoUnit(_))));
    assert!(matches!(p.parse_move("Ic8c7"), Err(MoveError::NotYours(_))));
    assert!(matches!(p.parse_move("Tc5c6"), Err(MoveError::UnitMismatch(_))));
    assert!(matches!(p.parse_move("Ic5c7"), Err(MoveError::NotAllowed(1))));
    assert!(matches!(p.parse_move("Ic5"), Err(MoveError::NoSuchMove)));
    assert!(matches!(p.parse_move("f4:M:T>f6"), Err(MoveError::StayMismatch)));
    assert!(matches!(p.parse_move("f4::M>f5"), Err(MoveError::BadGroup(1))));
    for junk in ["", "(", "((", "+", "Z", "e4::", "e4:T", "Fe2>e3", "a13", "Ic5c6,", "\u{e9}"] {
        assert!(p.parse_move(junk).is_err(), "{junk:?}");
    }
}

#[test]
fn peer_short_form_when_unambiguous() {
    let p = Position::startpos();
    let s = |t: &str| p.parse_move(t).map(|m| p.move_to_string(m));
    assert_eq!(s("Ic6").as_deref(), Ok("Ic5c6"));
    assert_eq!(s("Fee6").as_deref(), Ok("Fe2e6"));
    assert_eq!(s("Fe6"), Err(MoveError::Ambiguous));
    assert_eq!(s("F2e6"), Err(MoveError::Ambiguous));
    assert_eq!(s("F&c4").as_deref(), Ok("Fe2&c4"));
    let p = pos(
        "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/3e2m2ei/2i8/11/2IE5EI/2N1G(TM)1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 2 2",
    );
    let mv = p.parse_move("M<T>f6").expect("deploy short form");
    assert_eq!(p.move_to_string(mv), "f4:M:T>f6");
}

#[test]
fn every_listed_turn_reads_back() {
    for fen in [START_FEN, "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1"] {
        let p = pos(fen);
        let mut buf = MoveBuf::new();
        p.legal_moves(&mut buf);
        for &m in buf.iter() {
            assert_eq!(p.parse_move(&p.move_to_string(m)), Ok(m));
        }
    }
}

#[test]
fn points_and_the_tactical_format() {
    let start = pos("9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1");
    let mut rec = Record::new(start.clone());
    rec.play(start.parse_move("Tc4_a4").expect("legal"));
    let now = rec.position();
    assert_eq!(now.points(), [80, 0]);
    assert!(objectives(&start, now)[0].sea);
    let v = judge_format(&rec, Format::Tactical, false);
    assert_eq!(v.scores, [130, 0]);
    assert_eq!(v.next, Next::Over(Outcome::win(Side::First, Reason::Points)));
    assert_eq!(judge_format(&rec, Format::Standard, false).next, Next::Player(Side::Second));
    assert_eq!(
        judge_format(&rec, Format::FullForce, true).next,
        Next::Over(Outcome::win(Side::First, Reason::Points))
    );
    assert_eq!(judge_format(&rec, Format::FullForce, false).next, Next::Player(Side::Second));
}

#[test]
fn kamikaze_scores_for_both_sides() {
    let mut p = pos("9c1/11/9im/11/11/11/2M1g6/3Ii6/6i4/11/4F3s2/10C r - - 0 1");
    p.play(p.parse_move("Fe2@e6").expect("legal"));
    assert_eq!(p.points(), [10, 40]);
}

#[test]
fn repetition_and_move_limit_draw() {
    let start = pos("9c1/11/9im/11/11/11/11/11/11/9IM/11/10C r - - 0 1");
    let mut rec = Record::new(start);
    for t in ["Ck1k2", "Cj12j11", "Ck2k1", "Cj11j12", "Ck1k2", "Cj12j11", "Ck2k1", "Cj11j12"] {
        assert!(matches!(rec.next(), Next::Player(_)), "ended before {t}");
        let mv = rec.position().parse_move(t).expect(t);
        rec.play(mv);
    }
    assert_eq!(rec.next(), Next::Over(Outcome::draw(Reason::Repetition)));
    let p = pos("9c1/11/9im/11/11/11/11/11/11/9IM/11/10C r - - 100 80");
    assert_eq!(p.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
}

#[test]
fn pretty_board_shows_terrain_and_units() {
    let s = Position::startpos().pretty();
    assert!(s.contains("(") || s.contains('C'));
    assert!(s.contains('~') && s.contains("Red to move"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    #[test]
    fn readers_never_panic(s in "[()+/0-9a-kA-Z:<>,x_@&rb -]{0,40}") {
        let _ = Position::from_fen(&s);
        let _ = Position::startpos().parse_move(&s);
    }
}

#[test]
fn air_defence_zones_are_the_providers_discs_of_section_8() {
    use cannonade_commander::board::{GRID, name};
    let pt = |s: &str| GRID.parse_name(s, 1).expect("a point");
    // Red: Anti-Air g4 (radius 1), Missile h2 (radius 2), heroic Navy a6 (radius 2), and an
    // Anti-Air carried by an Engineer on e2 (no zone: 8.1). Blue: a lone Anti-Air on j10.
    let p = pos("6c4/11/9g1/11/11/11/+N10/11/6G4/11/4(EG)2S3/5C5 r - - 0 1");
    let red: Vec<String> = p.air_defence(0).iter().map(name).collect();
    let blue: Vec<String> = p.air_defence(1).iter().map(name).collect();
    assert_eq!(blue, ["j9", "i10", "j10", "k10", "j11"]);
    for inside in ["g4", "g5", "f4", "h1", "h4", "f2", "j2", "g3", "a4", "c6", "b7", "a8"] {
        assert!(red.contains(&inside.to_string()), "{inside} is in Red's zones");
    }
    for outside in ["e2", "e3", "d2", "f5", "a3", "c4"] {
        assert!(!red.contains(&outside.to_string()), "{outside} is outside Red's zones");
    }
    // Overlapping zones (g4's and h2's on g3) count once.
    assert_eq!(red.iter().filter(|q| *q == "g3").count(), 1);
    assert_eq!(p.commander(0), Some(pt("f1")));
    assert_eq!(p.commander(1), Some(pt("g12")));
}
