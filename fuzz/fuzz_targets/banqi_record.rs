//! Banqi game records as the rules write them (§9.5), read by the one PGN reader: no text
//! panics the reader or the flip verification; a record that reads is written as PGN that
//! reads back to the same game, result and deal check included (the seed of an unfinished
//! game is not written).
#![no_main]

use cannonade_games::pgn::{PgnResult, read_game, write_game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let game = match read_game(text) {
        Ok(game) => game,
        Err(e) => return drop(e.to_string()),
    };
    let written = write_game(&game);
    let back = read_game(&written)
        .unwrap_or_else(|e| panic!("{text:?} reads, its PGN {written:?} does not: {e}"));
    assert_eq!(back.record.spec(), game.record.spec(), "{written:?}");
    assert_eq!(back.record.moves_text(), game.record.moves_text(), "{written:?}");
    assert_eq!((back.result, &back.termination), (game.result, &game.termination));
    // The writer keeps a seed back until the game is over (it is the deal's secret), so
    // the check agrees when the seed was written.
    if back.seed == game.seed {
        assert_eq!(back.verify_deal(), game.verify_deal(), "{written:?}");
    } else {
        assert!(back.seed.is_none() && game.result == PgnResult::Unknown, "{written:?}");
    }
});
