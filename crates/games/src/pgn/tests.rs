//! The PGN reader and writer: round trips of random games of every game, outside forms,
//! and bad input.

use super::*;
use crate::{AnyGame, AnyRecord, GameKind, GameSpec};
use cannonade_core::{Next, Reason};
use proptest::prelude::*;

/// A game of random legal moves (and random chance outcomes) from `start`.
fn random_record(start: AnyGame, spec: &GameSpec, seed: u64, plies: usize) -> AnyRecord {
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut r = AnyRecord::with_start(spec, start).unwrap();
    for _ in 0..plies {
        match r.next() {
            Next::Player(_) => {
                let moves = r.position().legal_moves();
                r.play(moves[next(moves.len())]).unwrap();
            }
            Next::Chance => {
                let outcomes = r.position().chance_outcomes();
                let (text, _) = &outcomes[next(outcomes.len())];
                r.resolve_text(text).unwrap();
            }
            Next::Over(_) => break,
        }
    }
    // A record ends on a move, not between a flip and what it revealed.
    if r.next() == Next::Chance {
        let outcomes = r.position().chance_outcomes();
        r.resolve_text(&outcomes[next(outcomes.len())].0).unwrap();
    }
    r
}

fn dealt_banqi(seed: u8) -> AnyGame {
    let seed = cannonade_banqi::DealSeed::from_bytes([seed; 32]);
    AnyGame::BanqiDealt(cannonade_banqi::deal_from_seed(
        &cannonade_banqi::Position::startpos(),
        &seed,
    ))
}

/// The starts a round trip covers: every game's standard start under some options, and a
/// dealt Banqi game.
fn starts() -> Vec<(AnyGame, GameSpec)> {
    let mut out: Vec<(AnyGame, GameSpec)> = GameKind::ALL
        .into_iter()
        .map(|k| (AnyGame::start(k).unwrap(), GameSpec::standard(k)))
        .collect();
    for (kind, options) in [
        (GameKind::Xiangqi, "repetition=asian"),
        (GameKind::Commander, "format=tactical"),
        (GameKind::Banqi, "cannon=step"),
    ] {
        let spec = GameSpec::parse(kind, options).unwrap();
        out.push((spec.start(), spec));
    }
    out.push((dealt_banqi(7), GameSpec::standard(GameKind::Banqi)));
    out
}

/// The same game, as far as a record file can tell.
fn assert_same(a: &PgnGame, b: &PgnGame) {
    assert_eq!(a.record.spec(), b.record.spec());
    assert_eq!(a.record.start(), b.record.start());
    assert_eq!(a.record.moves_text(), b.record.moves_text());
    assert_eq!(a.record.position(), b.record.position());
    for (name, value) in &a.tags {
        assert_eq!(b.tag(name), Some(value.as_str()), "{name}");
    }
    assert_eq!((a.result, &a.termination), (b.result, &b.termination));
    assert_eq!(a.clocks, b.clocks);
    assert_eq!((&a.deal, &a.seed), (&b.deal, &b.seed));
    assert_eq!(a.ended, b.ended);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any game of any kind, written and read back, is the same record.
    #[test]
    fn random_games_of_every_kind_round_trip(seed in any::<u64>(), plies in 0usize..120, clock in any::<bool>()) {
        for (start, spec) in starts() {
            let record = random_record(start, &spec, seed, plies);
            let mut game = PgnGame::new(record);
            game.set_tag("White", "Ann \"the\" first");
            game.set_tag("Event", "round trip");
            if clock {
                game.clocks = (0..game.clocks.len()).map(|i| (i % 3 != 0).then_some(i as u64 * 1100)).collect();
            }
            let text = write_game(&game);
            let back = read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_same(&game, &back);
            prop_assert_eq!(write_game(&back), text);
        }
    }

    /// No text makes the reader panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_games(&String::from_utf8_lossy(&bytes));
    }

    /// Nor does PGN-looking text with random moves in it.
    #[test]
    fn pgn_like_text_never_panics(words in proptest::collection::vec("[a-i][0-9]{1,2}[a-i][0-9]{1,2}|[RNCHPKAE][1-9][+=-][1-9]|\\{[^}]{0,8}\\}|\\(|\\)|1-0|\\*|\\$[0-9]|[0-9]{1,3}\\.", 0..40)) {
        let text = format!("[Variant \"xiangqi\"]\n{}", words.join(" "));
        let _ = read_games(&text);
    }
}

#[test]
fn a_finished_game_writes_its_result_and_termination() {
    let spec = GameSpec::standard(GameKind::Xiangqi);
    let start = spec.position("4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1").unwrap();
    let mut r = AnyRecord::with_start(&spec, start).unwrap();
    r.play_text("b1b9").unwrap();
    let game = PgnGame::new(r);
    assert_eq!(game.result, PgnResult::FirstWins);
    let text = write_game(&game);
    for tag in ["[Result \"1-0\"]", "[Termination \"checkmate\"]", "[SetUp \"1\"]", "[FEN \"4k4/R8"]
    {
        assert!(text.contains(tag), "{tag} in\n{text}");
    }
    let back = read_game(&text).unwrap();
    assert_eq!(back.ended.map(|e| (e.moves, e.outcome.reason)), Some((1, Reason::Checkmate)));
}

#[test]
fn the_seed_is_written_only_after_the_end() {
    let mut game = PgnGame::new(AnyRecord::from_spec(&GameSpec::standard(GameKind::Banqi)));
    game.deal = Some("ab".repeat(32));
    game.seed = Some("cd".repeat(32));
    let text = write_game(&game);
    assert!(text.contains("[Deal \"commit:abab") && !text.contains("[Seed"), "{text}");
    game.result = PgnResult::Draw;
    let text = write_game(&game);
    assert!(text.contains("[Seed \"cdcd"), "{text}");
    assert_eq!(read_game(&text).unwrap().seed, game.seed);
}

#[test]
fn a_public_banqi_game_keeps_its_flips_outcomes() {
    let dealt = random_record(dealt_banqi(3), &GameSpec::standard(GameKind::Banqi), 11, 30);
    let text = write_game(&PgnGame::new(dealt.clone()));
    // Without the deal (no FEN), the recorded flips replay as chance outcomes.
    let public: String = text
        .lines()
        .filter(|l| !l.starts_with("[FEN") && !l.starts_with("[SetUp"))
        .collect::<Vec<_>>()
        .join("\n");
    let back = read_game(&public).unwrap_or_else(|e| panic!("{e}\n{public}"));
    assert_eq!(back.record.position().fen(), dealt.position().public().fen());
    assert!(back.record.moves_text().iter().any(|m| m.contains('=')), "{text}");
}

#[test]
fn outside_forms_are_read() {
    // cutechess / Fairy-Stockfish: 1-based coordinates, engine comments, a variation, NAGs,
    // several games, a game from a FEN with Black to move.
    let text = "[Event \"?\"]\n[Variant \"xiangqi\"]\n[Result \"*\"]\n\n1. h3e3 {+0.35/12 0.2s} $1 h10g8! \
                (2... b10c8) 2. h1g3 {[%clk 0:04:59]} *\n\n\
                [Variant \"Xiangqi\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n[SetUp \"1\"]\n\n\
                1... h8e8 2. H2+3 ; rest of line\n H8+7 1/2-1/2\n";
    let games = read_games(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].record.moves_text(), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(games[0].clocks, [None, None, Some(299_000)]);
    assert_eq!(games[1].record.moves_text(), ["h7e7", "h0g2", "h9g7"]);
    assert_eq!(games[1].result, PgnResult::Draw);
    // 0-based coordinates and Fairy-Stockfish SAN (pychess-variants' export).
    let zero = read_game("[Variant \"xiangqi\"]\n1. h2e2 h9g7 2. h0g2 *").unwrap();
    let san = read_game("[Variant \"xiangqi\"]\n1. Che3 Hg8 2. Hg3 *").unwrap();
    assert_eq!(zero.record.moves_text(), san.record.moves_text());
    // A game without rank 0 or 10 that only replays 1-based.
    let ambiguous = read_game("[Variant \"xiangqi\"]\n1. h3e3 h8e8 *").unwrap();
    assert_eq!(ambiguous.record.moves_text(), ["h2e2", "h7e7"]);
}

#[test]
fn bad_input_names_the_line_and_the_move() {
    let cases: [(&str, usize, &str); 9] = [
        ("", 1, "no game"),
        ("[Variant \"chess\"]\n1. e4 *", 1, "Variant \"chess\""),
        ("[Event \"x\"]\n\n1. h2e2 *", 1, "no Variant"),
        ("[Variant \"xiangqi\"]\n\n1. h2e2 h9g7\n2. h2h9 *", 4, "move 2. h2h9"),
        ("[Variant \"xiangqi\"]\n[FEN \"4k4/9\"]\n*", 2, "invalid position"),
        ("[Variant \"xiangqi\"]\n[Options \"speed=fast\"]\n*", 2, "speed"),
        ("[Variant \"xiangqi\"]\n[Variant \"banqi\"]\n*", 2, "twice"),
        ("[Variant \"xiangqi\"]\n1. h2e2 {open\n\n", 2, "never closed"),
        ("[Variant \"xiangqi\"]\n1. h2e2 (h9g7\n", 2, "parentheses"),
    ];
    for (text, line, words) in cases {
        let e = read_games(text)
            .and_then(|g| {
                g.into_iter().next().ok_or(PgnError { line: 1, game: 0, kind: PgnErrorKind::Empty })
            })
            .expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(words), "{text:?}: {e}");
    }
    let second = read_games(
        "[Variant \"xiangqi\"]\n1. h2e2 *\n\n[Variant \"xiangqi\"]\n1. h2e2 1... h7h0 *",
    )
    .unwrap_err();
    assert_eq!((second.line, second.game), (5, 2), "{second}");
    assert!(second.to_string().contains("1... h7h0"), "{second}");
}

#[test]
fn a_deal_verifies_against_its_seed_and_a_forged_flip_does_not() {
    let seed = cannonade_banqi::DealSeed::from_bytes([5; 32]);
    let dealt = AnyGame::BanqiDealt(cannonade_banqi::deal_from_seed(
        &cannonade_banqi::Position::startpos(),
        &seed,
    ));
    let played = random_record(dealt, &GameSpec::standard(GameKind::Banqi), 3, 20);
    // The server's record: the public start, each flip with what it revealed.
    let public = PgnGame::new(played.clone());
    let text = write_game(&public)
        .lines()
        .filter(|l| !l.starts_with("[FEN") && !l.starts_with("[SetUp"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut game = read_game(&text).unwrap();
    game.deal = Some(seed.commitment().to_string());
    game.seed = Some(seed.to_hex());
    assert_eq!(game.verify_deal(), Ok(played.moves().len()));
    game.seed = Some(cannonade_banqi::DealSeed::from_bytes([6; 32]).to_hex());
    assert_eq!(game.verify_deal(), Err(cannonade_banqi::VerifyError::CommitmentMismatch));
    // The same game as the rules' record (§9.5) writes it, as the server archived it before
    // PGN: its commitment and seed verify the same way.
    let rules = format!(
        "[Game \"Banqi\"]\n[Rules \"standard\"]\n[Deal \"commit:{}\"]\n[Seed \"{}\"]\n{}\n",
        seed.commitment(),
        seed.to_hex(),
        played.moves_text().join(" ")
    );
    let old = read_game(&rules).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(old.verify_deal(), Ok(played.moves().len()));
}

/// The game record example of Banqi's rules §9.5 (the E3 deal, given openly) reads as PGN:
/// the flips check against the deal, and the position after its 14 plies is the rules'.
#[test]
fn the_banqi_record_example_of_the_rules_reads() {
    let text = "[Game \"Banqi\"]\n[Rules \"standard\"]\n\
        [Deal \"XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0 \
        BpAncpaNrpRPbnPPNkCbpPrKcaPCpARB\"]\n\
        a3=r e1=p e4=c h4=N f4=p g2=r c2=C a1=c b3=p h2=K a4=B h2xg2 f2=P a4xa3\n";
    let game = read_game(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.record.position().fen(),
        "1XXXcpXN/BpXXXXXX/XXCXXPK1/cXXXpXXX b A2B1R2N1C1P4k1a2b2n2p2 0 14"
    );
    assert_eq!(game.verify_deal(), Ok(14));
    // A flip that the open deal does not hold.
    let forged = read_game(&text.replace("e1=p", "e1=P")).unwrap_or_else(|e| panic!("{e}"));
    assert!(forged.verify_deal().is_err());
    // Converted into ours, it reads back the same.
    let back = read_game(&write_game(&game)).unwrap_or_else(|e| panic!("{e}"));
    assert_same(&game, &back);
    assert_eq!(back.verify_deal(), Ok(14));
}

/// §9.5's tags map onto PGN's: options, names by colour into seats, the result by colour
/// into the seat that played it, its reason words into our terminations.
#[test]
fn the_banqi_rules_tags_become_pgn_tags() {
    let text = "[Game \"Banqi\"]\n[Rules \"noprog_limit=40,cannon=step\"]\n[First \"Ann\"]\n\
        [Red \"Bob\"]\n[Black \"Ann\"]\n[Result \"red\"]\n[Reason \"resign\"]\n\
        d2=c d3=P\n";
    let game = read_game(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.record.spec().options_text(), "noprog_limit=40,cannon=step");
    assert_eq!((game.tag("White"), game.tag("Black")), (Some("Ann"), Some("Bob")));
    // Ann flipped a black cannon and plays black; red won: the second seat.
    assert_eq!(game.result, PgnResult::SecondWins);
    assert_eq!(game.termination.as_deref(), Some("resignation"));
    let written = write_game(&game);
    assert!(written.contains("[Options \"noprog_limit=40,cannon=step\"]"), "{written}");
    assert!(written.contains("[Result \"0-1\"]") && !written.contains("Rules"), "{written}");
    let bad = read_game(&text.replace("cannon=step", "cannon=sideways")).unwrap_err();
    assert!(matches!(bad.kind, PgnErrorKind::Game(_)), "{bad}");
    let bad = read_game(&text.replace("d3=P", "d3-d4")).unwrap_err();
    assert!(matches!(&bad.kind, PgnErrorKind::Move { number, .. } if number == "1..."), "{bad}");
    // A colour cannot have won before the first flip.
    let bad = read_game("[Game \"Banqi\"]\n[Result \"black\"]\n").unwrap_err();
    assert!(matches!(&bad.kind, PgnErrorKind::Value { tag, .. } if tag == "Result"), "{bad}");
}
