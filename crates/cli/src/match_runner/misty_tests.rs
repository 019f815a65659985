//! MistyBanqi's dialect in the match runner: what the engine is told of the referee's dealt
//! game.
use super::*;
use cannonade_banqi::{DealSeed, deal_from_seed};
use cannonade_games::{AnyMove, GameSpec};

/// The referee's record of a Banqi game from public `fen`, dealt.
fn dealt(fen: &str) -> AnyRecord {
    let spec = GameSpec::standard(GameKind::Banqi);
    let AnyGame::Banqi(public) = spec.position(fen).unwrap() else { panic!("not Banqi") };
    let seed = DealSeed::from_hex(&"5a".repeat(32)).unwrap();
    AnyRecord::with_start(&spec, AnyGame::BanqiDealt(deal_from_seed(&public, &seed))).unwrap()
}

/// Plays `n` moves that neither flip nor capture (the no-progress count goes up each time).
fn quiet_moves(record: &mut AnyRecord, n: usize) -> Vec<String> {
    let mut played = Vec::new();
    for _ in 0..n {
        let game = record.position();
        let before = misty_at(record, record.len()).unwrap().1;
        let quiet: Vec<AnyMove> = game
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut next = record.clone();
                next.play(m).unwrap();
                misty_at(&next, next.len()).unwrap().1 == before + 1
            })
            .collect();
        let mv = quiet[0];
        played.push(misty::move_to_misty(&game.engine_move_text(mv)).unwrap());
        record.play(mv).unwrap();
    }
    played
}

fn fen_of(record: &AnyRecord, step: usize, count: &str) -> String {
    let (mut fields, _) = misty_at(record, step).unwrap();
    fields[3] = count.into();
    fields.join(" ")
}

#[test]
fn the_engine_is_told_the_quiet_moves_since_the_count_began() {
    // All face up, a count of 10 carried by the start.
    let mut record = dealt("7P/3k4/2nKp3/3c4 r - 10 57");
    let moves = quiet_moves(&mut record, 3);
    assert_eq!(
        misty_position(&record, 0).unwrap(),
        format!("position fen {} moves {}", fen_of(&record, 0, "10"), moves.join(" "))
    );
    // Shifted by 5: the count it ends at is 13 - 5, every quiet move skipped.
    assert_eq!(
        misty_position(&record, 5).unwrap(),
        format!("position fen {}", fen_of(&record, 3, "8"))
    );
    // Shifted past the count: 0, never below.
    assert_eq!(
        misty_position(&record, 20).unwrap(),
        format!("position fen {}", fen_of(&record, 3, "0"))
    );
}

#[test]
fn a_shift_skips_quiet_moves_of_the_record_first() {
    // The count starts in the record: a flip, then quiet moves.
    let mut record = dealt("XP6/3k4/2nK4/3c4 r R1 0 57");
    record.play_text("a4a4").unwrap();
    let flip = record.len();
    let moves = quiet_moves(&mut record, 4);
    let told = misty_position(&record, 1).unwrap();
    assert_eq!(
        told,
        format!("position fen {} moves {}", fen_of(&record, flip + 1, "0"), moves[1..].join(" "))
    );
    assert_eq!(
        misty_position(&record, 0).unwrap(),
        format!("position fen {} moves {}", fen_of(&record, flip, "0"), moves.join(" "))
    );
}

#[test]
fn the_engine_never_sees_a_face_down_piece() {
    let mut record =
        dealt("XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0");
    record.play_text("d2d2").unwrap();
    let told = misty_position(&record, 20).unwrap();
    let AnyGame::Banqi(public) = record.position().public() else { panic!() };
    assert_eq!(told, format!("position fen {}", misty::to_misty(&public)));
    // 31 face-down squares, one revealed piece, all in the engine's letters.
    let board = told.split(' ').nth(2).unwrap();
    assert_eq!(board.matches('X').count(), 31);
    assert!(!board.chars().any(|c| "KBNPkbnp".contains(c)), "{board}");
}

#[test]
fn an_engine_spec_names_the_dialect_and_its_shift() {
    let spec = Spec::parse("cmd=banqi-engine,dialect=misty,shift=20").unwrap();
    assert_eq!(spec.misty, Some(20));
    assert_eq!(Spec::parse("cmd=x,dialect=misty").unwrap().misty, Some(0));
    assert!(Spec::parse("cmd=x,shift=20").is_err());
    assert!(Spec::parse("cmd=x,dialect=cdc").is_err());
}
