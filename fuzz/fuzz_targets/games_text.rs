//! The text the server and the CLI read through crates/games: game names, options
//! (`key=value,…` with Commander's `format=`), positions and moves of any game by kind, and
//! Banqi flip results; and the terminal board's view of every position read. Byte 0
//! picks the game; then three lines: options, position, move.
#![no_main]

use cannonade_games::{AnyGame, AnyRecord, GameKind, GameSpec};
use cannonade_tui::{BoardShape, BoardView};
use libfuzzer_sys::fuzz_target;

fn options(kind: GameKind, spec: &str) {
    if let Ok(s) = GameSpec::parse(kind, spec) {
        assert_eq!(GameSpec::parse(kind, &s.options_text()).as_ref(), Ok(&s), "{spec:?}");
        let _ = s.start();
    }
    let _ = spec.parse::<GameKind>();
    let mut game = AnyGame::start(kind).expect("every game has a start");
    if game.apply_options(spec).is_ok() {
        // What a game says its options are sets the same options again.
        let mut again = AnyGame::start(kind).expect("every game has a start");
        again.apply_options(&game.options()).expect("a game's own options apply");
        assert_eq!(again.options(), game.options(), "{spec:?}");
    }
}

fn position_and_move(kind: GameKind, fen: &str, text: &str) {
    let shape = BoardShape::of(kind);
    let Ok(game) = AnyGame::from_fen(kind, fen) else { return };
    let written = game.fen();
    let back = AnyGame::from_fen(kind, &written).expect("a game's own text reads");
    assert_eq!(back.fen(), written, "{fen:?}");
    BoardView::of(&game, &shape).expect("the board view reads every position");
    if let Ok(mv) = game.parse_move(text) {
        assert!(game.legal_moves().contains(&mv), "{text:?} in {fen:?}");
        for t in [game.move_text(mv), game.engine_move_text(mv)] {
            assert_eq!(game.parse_move(&t).ok(), Some(mv), "{t:?} in {fen:?}");
        }
        let _ = game.display_move(mv);
    }
    let _ = game.clone().resolve_text(text);
    let mut record = AnyRecord::new(game.clone());
    let _ = record.play_text(text);
    let mut record = AnyRecord::new(game);
    if record.play_text_past_end(text).is_ok() {
        assert_eq!(record.len(), 1, "{text:?}: one move played");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(data) else { return };
    let kind = GameKind::ALL[pick as usize % GameKind::ALL.len()];
    let mut lines = text.split('\n');
    let (spec, fen, mv) = (lines.next(), lines.next(), lines.next());
    options(kind, spec.unwrap_or(""));
    if let Some(fen) = fen {
        position_and_move(kind, fen, mv.unwrap_or(""));
    }
});
