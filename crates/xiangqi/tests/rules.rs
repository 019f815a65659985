//! One test per special rule of rules/xiangqi.md.

use cannonade_core::{Next, Outcome, Reason, Record, Side};
use cannonade_xiangqi::{Options, Position, RepetitionRule};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of a position as sorted coordinate strings.
fn moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The legal moves of the piece on `from`.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    moves(p).into_iter().filter(|m| m.starts_with(from)).collect()
}

fn play(record: &mut Record<Position>, line: &str) {
    for m in line.split_whitespace() {
        let mv = record.position().parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        record.play(mv);
    }
}

#[test]
fn horse_leg_blocks_by_either_colour() {
    // A black soldier on e2 blocks the horse on e1 going forward.
    let p = pos("4k4/9/9/9/9/9/9/4p4/4N4/3K5 w - - 0 1");
    assert_eq!(moves_from(&p, "e1"), ["e1c0", "e1c2", "e1g0", "e1g2"]);
    // A red piece on the leg blocks just the same.
    let p = pos("4k4/9/9/9/9/9/9/4B4/4N4/3K5 w - - 0 1");
    assert!(p.parse_move("e1f3").is_err());
    assert!(p.parse_move("e1d3").is_err());
}

#[test]
fn elephant_eye_blocks_and_elephants_never_cross() {
    let p = pos("4k4/9/9/9/9/9/9/9/3n5/2BK5 w - - 0 1");
    assert_eq!(moves_from(&p, "c0"), ["c0a2"]);
    let p = pos("3k5/9/9/9/P3P4/2B6/9/9/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&p, "c4"), ["c4a2", "c4e2"]);
}

#[test]
fn palace_confines_general_and_advisors() {
    let p = pos("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    assert_eq!(moves(&p), ["e0f0", "e1d2", "e1f0", "e1f2"]);
}

#[test]
fn soldier_moves_sideways_only_after_the_river_and_never_back() {
    let p = pos("4k4/9/9/2p6/9/9/4p4/9/9/3K5 b - - 0 1");
    assert_eq!(moves_from(&p, "c6"), ["c6c5"]);
    assert_eq!(moves_from(&p, "e3"), ["e3d3", "e3e2", "e3f3"]);
    let last_rank = pos("3k1P3/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&last_rank, "f9"), ["f9e9", "f9g9"]);
}

#[test]
fn cannon_screen_exactly_one() {
    // Red cannon b2: captures b9 over the screen b7; nothing adjacent, nothing over two.
    let p = pos("1r2k4/9/1c7/9/9/9/9/1CN1p4/9/3K5 w - - 0 1");
    let m = moves_from(&p, "b2");
    assert!(!m.contains(&"b2b7".to_string()), "no capture without a screen: {m:?}");
    assert!(m.contains(&"b2b9".to_string()), "{m:?}");
    assert!(!m.contains(&"b2c2".to_string()), "adjacent capture is not allowed: {m:?}");
    assert!(m.contains(&"b2e2".to_string()), "capture over the c2 screen: {m:?}");
    assert!(!m.contains(&"b2d2".to_string()), "no quiet move past a screen: {m:?}");
}

#[test]
fn flying_general_pins_the_last_piece_between() {
    let p = pos("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1");
    assert!(moves_from(&p, "e4").iter().all(|m| m.as_bytes()[2] == b'e'), "{:?}", moves(&p));
    // A general may not step onto the other general's open file.
    let p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert!(p.parse_move("e0d0").is_err());
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").is_err());
}

#[test]
fn cannon_check_parries_interpose_capture_or_move_screen() {
    // The public position: five legal answers to a cannon check screened by black's soldier.
    let p = pos("1nbak1b1r/9/7c1/2p1p4/9/9/2P1C1P2/6N2/4A4/R2K5 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(moves(&p).len(), 5, "{:?}", moves(&p));
}

#[test]
fn creating_a_screen_for_an_enemy_cannon_is_illegal() {
    let p = pos("3k5/9/4c4/9/9/R8/9/9/9/4K4 w - - 0 1");
    assert!(p.parse_move("a4e4").is_err());
    assert!(p.parse_move("a4d4").is_ok());
}

#[test]
fn double_check_by_chariot_screening_a_cannon() {
    let p = pos("3ak4/9/2n6/9/r8/9/4R4/9/4C4/3K5 b - - 0 1");
    assert!(p.in_check());
    // Interposing between chariot and general parries both; the general may also step.
    assert_eq!(moves(&p), ["a5e5", "c7e6", "c7e8", "d9e8", "e9f9"]);
}

#[test]
fn checkmate_loses() {
    let mut g = Record::new(pos("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1"));
    play(&mut g, "b7b9");
    assert_eq!(g.next(), Next::Over(Outcome::win(Side::First, Reason::Checkmate)));
}

#[test]
fn stalemate_loses() {
    let p = pos("5k3/9/9/9/3r5/9/9/6n2/9/4K4 w - - 0 1");
    assert_eq!(
        cannonade_core::Rules::next(&p),
        Next::Over(Outcome::win(Side::Second, Reason::Stalemate))
    );
}

#[test]
fn seed_repetition_the_third_occurrence_loses() {
    // Perpetual check: black's king completes the third occurrence, so black loses.
    let mut g = Record::new(pos("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"));
    play(&mut g, "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8");
    assert!(matches!(g.next(), Next::Player(_)));
    play(&mut g, "e8e9");
    assert_eq!(g.next(), Next::Over(Outcome::loss(Side::Second, Reason::Repetition)));
}

#[test]
fn asian_perpetual_check_loses() {
    let asian = Options { repetition: RepetitionRule::Asian };
    let mut g = Record::new(pos("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1").with_options(asian));
    play(&mut g, "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9");
    assert_eq!(g.next(), Next::Over(Outcome::loss(Side::First, Reason::PerpetualCheck)));
}

#[test]
fn asian_perpetual_chase_loses() {
    // The red chariot keeps attacking the unprotected black cannon.
    let asian = Options { repetition: RepetitionRule::Asian };
    let start = pos("4k4/9/7c1/9/9/9/9/9/9/3K4R w - - 0 1").with_options(asian);
    let mut g = Record::new(start.clone());
    play(&mut g, "i0h0 h7i7 h0i0 i7h7 i0h0 h7i7 h0i0 i7h7");
    assert_eq!(g.next(), Next::Over(Outcome::loss(Side::First, Reason::PerpetualChase)));
    // Under the seed rule the same line loses for black, who completed the repetition.
    let mut g = Record::new(start.with_options(Options::default()));
    play(&mut g, "i0h0 h7i7 h0i0 i7h7 i0h0 h7i7 h0i0 i7h7");
    assert_eq!(g.next(), Next::Over(Outcome::loss(Side::Second, Reason::Repetition)));
}

#[test]
fn asian_idle_repetition_draws() {
    let asian = Options { repetition: RepetitionRule::Asian };
    let mut g = Record::new(pos("4k4/9/9/9/9/P8/9/9/9/3K5 w - - 0 1").with_options(asian));
    play(&mut g, "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9");
    assert_eq!(g.next(), Next::Over(Outcome::draw(Reason::Repetition)));
}

#[test]
fn chase_needs_a_new_attack_on_an_unprotected_or_stronger_piece() {
    use cannonade_xiangqi::chased_pieces;
    let p = pos("4k4/9/7c1/9/9/9/9/9/9/3K4R w - - 0 1");
    let chased = chased_pieces(&p, p.parse_move("i0h0").unwrap());
    assert_eq!(chased.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["h7"]);
    // Protected by its own chariot: a chariot attacking a cannon is then no chase.
    let p = pos("4k4/9/7cr/9/9/9/9/9/9/3K4R w - - 0 1");
    assert!(chased_pieces(&p, p.parse_move("i0h0").unwrap()).is_empty());
}

#[test]
fn move_limit_draw_after_120_plies_without_capture() {
    let mut g = Record::new(pos("4k4/9/9/9/9/P8/9/9/9/3K5 w - - 119 80"));
    play(&mut g, "d0d1");
    assert_eq!(g.next(), Next::Over(Outcome::draw(Reason::MoveLimit)));
    // Mate on the 120th ply takes precedence.
    let mut g = Record::new(pos("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 119 80"));
    play(&mut g, "b7b9");
    assert_eq!(g.next(), Next::Over(Outcome::win(Side::First, Reason::Checkmate)));
}

#[test]
fn soldier_moves_do_not_reset_the_move_counter() {
    let mut p = pos("4k4/9/9/9/9/P8/9/9/9/3K5 w - - 7 10");
    p.play_move(p.parse_move("a4a5").unwrap());
    assert_eq!(p.halfmove(), 8);
}

/// The fuzzer (`fuzz/regressions/xiangqi_legal/`) played two quiet moves from halfmove 119
/// and got a position whose FEN (halfmove 121) the reader refuses.
#[test]
fn halfmove_counter_past_the_move_limit_reads_back() {
    let mut p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 1");
    for mv in ["d0d1", "e9e8", "d1d0"] {
        p.play_move(p.parse_move(mv).unwrap());
        assert_eq!(p.halfmove(), cannonade_xiangqi::MOVE_LIMIT);
        assert_eq!(Position::from_fen(&p.fen()).map(|back| back.fen()), Ok(p.fen()));
    }
}

#[test]
fn dead_material_draws() {
    let p = pos("4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_eq!(cannonade_core::Rules::next(&p), Next::Over(Outcome::draw(Reason::DeadMaterial)));
}
