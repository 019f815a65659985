//! Parsing every command, and never panicking on any line.

use cannonade_protocol::{Command, Go, Info, ParseError, PositionStart, Score, bestmove};
use proptest::prelude::*;

#[test]
fn parses_each_command() {
    assert_eq!(Command::parse("uci"), Ok(Command::Uci));
    assert_eq!(Command::parse("  isready  "), Ok(Command::IsReady));
    assert_eq!(Command::parse("ucinewgame"), Ok(Command::UciNewGame));
    assert_eq!(Command::parse("stop"), Ok(Command::Stop));
    assert_eq!(Command::parse("quit"), Ok(Command::Quit));
    assert_eq!(Command::parse("d"), Ok(Command::Display));
    assert_eq!(Command::parse("eval"), Ok(Command::Eval));
    assert_eq!(
        Command::parse("setoption name Clear Hash"),
        Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
    );
    assert_eq!(
        Command::parse("setoption name UCI_Variant value xiangqi"),
        Ok(Command::SetOption { name: "UCI_Variant".into(), value: Some("xiangqi".into()) })
    );
    assert_eq!(
        Command::parse("position startpos moves h2e2 h9g7"),
        Ok(Command::Position {
            start: PositionStart::StartPos,
            moves: vec!["h2e2".into(), "h9g7".into()]
        })
    );
    let go = Command::parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap();
    assert_eq!(
        go,
        Command::Go(Go {
            wtime: Some(1000),
            btime: Some(2000),
            winc: Some(10),
            binc: Some(20),
            movestogo: Some(5),
            ..Go::default()
        })
    );
    assert_eq!(
        Command::parse("go perft 3"),
        Ok(Command::Go(Go { perft: Some(3), ..Go::default() }))
    );
    assert_eq!(
        Command::parse("go infinite searchmoves a0a1 h2e2"),
        Ok(Command::Go(Go {
            infinite: true,
            searchmoves: vec!["a0a1".into(), "h2e2".into()],
            ..Go::default()
        }))
    );
}

#[test]
fn malformed_lines_are_errors() {
    assert_eq!(Command::parse(""), Err(ParseError::Empty));
    assert!(matches!(Command::parse("fly"), Err(ParseError::Unknown(_))));
    assert!(matches!(Command::parse("position"), Err(ParseError::Malformed(_))));
    assert!(matches!(Command::parse("position fen"), Err(ParseError::Malformed(_))));
    assert!(matches!(Command::parse("position startpos extra"), Err(ParseError::Malformed(_))));
    assert!(matches!(Command::parse("go depth"), Err(ParseError::Malformed(_))));
    assert!(matches!(Command::parse("go wtime -5"), Err(ParseError::Malformed(_))));
    assert!(matches!(Command::parse("go sideways"), Err(ParseError::Malformed(_))));
    assert!(matches!(Command::parse("setoption Hash 3"), Err(ParseError::Malformed(_))));
}

#[test]
fn output_lines() {
    let info = Info {
        depth: Some(3),
        score: Some(Score::Mate(-2)),
        nodes: Some(9),
        pv: vec!["a0a1".into()],
        ..Info::default()
    };
    assert_eq!(info.to_string(), "info depth 3 score mate -2 nodes 9 pv a0a1");
    assert_eq!(bestmove(None, None), "bestmove (none)");
    assert_eq!(bestmove(Some("h2e2"), Some("h9g7")), "bestmove h2e2 ponder h9g7");
}

proptest! {
    #[test]
    fn any_line_parses_or_errs(line in "\\PC{0,80}") {
        let _ = Command::parse(&line);
    }

    #[test]
    fn go_like_lines_never_panic(line in "go( (depth|nodes|wtime|perft|movetime|infinite|searchmoves|[0-9]{1,25}|-1))*") {
        let _ = Command::parse(&line);
    }
}
