//! The registry and the enum over games.

use cannonade_core::{Next, Reason};
use cannonade_games::{AnyGame, AnyRecord, GameError, GameKind};

#[test]
fn registry_names_round_trip() {
    for k in GameKind::ALL {
        assert_eq!(k.name().parse::<GameKind>().unwrap(), k);
        assert_eq!(k.name().to_uppercase().parse::<GameKind>().unwrap(), k);
    }
    assert_eq!("chess-battle".parse::<GameKind>().unwrap(), GameKind::ChessBattle);
    assert!(matches!("go".parse::<GameKind>(), Err(GameError::UnknownGame(_))));
}

#[test]
fn every_game_starts_and_round_trips_its_position() {
    for k in GameKind::ALL {
        assert!(k.available(), "{k} is built");
        let g = AnyGame::start(k).unwrap();
        assert_eq!(g.kind(), k);
        assert_eq!(AnyGame::from_fen(k, &g.fen()).unwrap(), g);
        assert!(g.count_legal() > 0);
    }
}

#[test]
fn serde_round_trip_keeps_options() {
    let mut g = AnyGame::start(GameKind::Xiangqi).unwrap();
    g.apply_options("repetition=asian").unwrap();
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains("\"game\":\"xiangqi\""), "{json}");
    let back: AnyGame = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    assert!(serde_json::from_str::<AnyGame>(r#"{"game":"xiangqi","fen":"nonsense"}"#).is_err());
    assert!(g.apply_options("repetition=sometimes").is_err());
    assert!(g.apply_options("unknown=1").is_err());
}

#[test]
fn records_apply_history_rules_and_refuse_moves_after_the_end() {
    let start = AnyGame::from_fen(GameKind::Xiangqi, "4k4/R8/9/9/9/9/9/9/9/3K5 w").unwrap();
    let mut r = AnyRecord::new(start);
    for m in "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(' ') {
        r.play_text(m).unwrap();
    }
    assert!(matches!(r.next(), Next::Over(o) if o.reason == Reason::Repetition));
    assert_eq!(r.play_text("a8a9"), Err(GameError::GameOver));
    assert_eq!(r.moves_text().len(), 8);
    assert!(r.undo());
    assert!(matches!(r.next(), Next::Player(_)));
}

#[test]
fn banqi_records_keep_flips_as_chance_and_write_them_back() {
    let mut r = AnyRecord::new(AnyGame::start(GameKind::Banqi).unwrap());
    r.play_text("a3=r").unwrap();
    r.play_text("e1=p").unwrap();
    assert_eq!(r.len(), 4, "two flips, each a move and a chance step");
    assert_eq!(r.moves_text(), ["a3=r", "e1=p"]);
    assert!(r.play_text("e4=Z").is_err());
    assert_eq!(r.len(), 4, "a bad flip result changes nothing");
    // A flip request leaves a chance event for the server to resolve.
    r.play_text("e4?").unwrap();
    assert_eq!(r.next(), Next::Chance);
    assert!(r.resolve_text("K").is_ok());
    assert!(!r.position().fen().contains('?'));
    // The public view of a dealt position has no deal in it.
    let dealt = AnyGame::from_fen(
        GameKind::Banqi,
        "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB",
    )
    .unwrap();
    assert_eq!(dealt.perft(2), 379);
    assert_eq!(
        dealt.public().fen(),
        "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40"
    );
}

#[test]
fn chessbattle_plays_through_the_enum() {
    let mut g = AnyGame::start(GameKind::ChessBattle).unwrap();
    assert_eq!(g.perft(2), 2704);
    let mv = g.parse_move("d3-d5").unwrap();
    assert_eq!(g.move_text(mv), "d3-d5");
    g.play(mv).unwrap();
    assert!(g.apply_options("anything=1").is_err());
}
