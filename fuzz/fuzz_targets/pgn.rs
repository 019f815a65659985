//! PGN, the one record format (crates/games `pgn`, docs/record-format.md): no text panics
//! the reader; every game that reads is written as text that reads back to the same game
//! (spec, start, moves, result, termination, clocks, tags).
#![no_main]

use cannonade_games::pgn::{read_each, write_game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(games) = read_each(text) else { return };
    for game in games {
        let Ok(game) = game else { continue };
        let written = write_game(&game);
        let back = cannonade_games::pgn::read_game(&written)
            .unwrap_or_else(|e| panic!("{text:?} reads, its text {written:?} does not: {e}"));
        assert_eq!(back.record.spec(), game.record.spec(), "{written:?}");
        assert_eq!(back.record.start().fen(), game.record.start().fen(), "{written:?}");
        assert_eq!(back.record.moves_text(), game.record.moves_text(), "{written:?}");
        assert_eq!((back.result, &back.termination), (game.result, &game.termination));
        assert_eq!(back.clocks, game.clocks, "{written:?}");
        for (name, value) in &game.tags {
            assert_eq!(back.tag(name), Some(value.as_str()), "{written:?}");
        }
        assert_eq!(write_game(&back), written);
    }
});
