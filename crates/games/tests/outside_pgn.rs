//! PGN written by outside programs (testdata/pgn, docs/record-format.md): a cutechess-style
//! match of Fairy-Stockfish against itself, and pychess-variants' export. Every game imports,
//! replays, and re-exports with its result and termination preserved.

use cannonade_games::GameKind;
use cannonade_games::pgn::{PgnGame, PgnResult, read_games, write_games};

fn read(name: &str) -> (String, Vec<PgnGame>) {
    let path = format!("{}/../../testdata/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let games = read_games(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (text, games)
}

/// The games again after our writer and reader, checked against the first reading.
fn round_trip(games: &[PgnGame]) {
    let written = write_games(games);
    let back = read_games(&written).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.len(), games.len());
    for (a, b) in games.iter().zip(&back) {
        assert_eq!((a.result, &a.termination), (b.result, &b.termination));
        assert_eq!(a.record.start(), b.record.start());
        assert_eq!(a.record.moves_text(), b.record.moves_text());
        assert_eq!(a.ended, b.ended);
        for (name, value) in &a.tags {
            assert_eq!(b.tag(name), Some(value.as_str()), "{name}");
        }
    }
    assert_eq!(write_games(&back), written, "our PGN is a fixed point");
}

#[test]
fn a_fairy_stockfish_match_imports_replays_and_re_exports() {
    let (text, games) = read("fairy-stockfish-xiangqi-60.pgn");
    assert_eq!(games.len(), 60);
    let results: Vec<&str> =
        text.lines().filter_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]")).collect();
    let terminations: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Termination \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!((results.len(), terminations.len()), (60, 60));
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.record.kind(), GameKind::Xiangqi);
        assert_eq!(game.result.as_str(), results[i], "game {}", i + 1);
        assert_eq!(game.termination.as_deref(), Some(terminations[i]), "game {}", i + 1);
        // The runner's own count of the moves it wrote.
        let plies: usize = game.tag("PlyCount").unwrap().parse().unwrap();
        assert_eq!(game.record.moves().len(), plies, "game {}", i + 1);
        // A mate or stalemate the runner saw is the same by our rules, at the last move.
        let own = text.split("[Event").nth(i + 1).unwrap();
        for (comment, reason) in [("mates}", "checkmate"), ("by stalemate}", "stalemate")] {
            if own.contains(comment) {
                let ended = game.ended.unwrap_or_else(|| panic!("game {}: not over", i + 1));
                assert_eq!(ended.moves, plies, "game {}", i + 1);
                assert_eq!(PgnResult::of(ended.outcome), game.result, "game {}", i + 1);
                assert_eq!(ended.outcome.reason.as_str(), reason, "game {}", i + 1);
            }
        }
    }
    assert!(games.iter().any(|g| g.tag("SetUp").is_some()
        || g.record.start() != cannonade_games::AnyGame::start(GameKind::Xiangqi).unwrap()));
    round_trip(&games);
}

#[test]
fn pychess_variants_exports_read_in_wxf_and_san() {
    let (_, games) = read("pychess-style-xiangqi.pgn");
    let (_, source) = read("fairy-stockfish-xiangqi-60.pgn");
    assert_eq!(games.len(), 6);
    for (game, same) in games.iter().zip(&source) {
        assert_eq!(game.record.moves_text(), same.record.moves_text());
        assert_eq!(game.record.start(), same.record.start());
        assert_eq!(game.result, same.result);
    }
    round_trip(&games);
}
