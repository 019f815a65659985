use super::*;
use cannonade_games::GameSpec;

fn options(depth: u32) -> ReviewOptions {
    ReviewOptions {
        limits: Limits { depth: Some(depth), ..Limits::default() },
        ..Default::default()
    }
}

fn record(kind: GameKind, fen: Option<&str>, moves: &[&str]) -> AnyRecord {
    let spec = GameSpec::standard(kind);
    let mut r = match fen {
        Some(f) => AnyRecord::with_start(&spec, spec.position(f).unwrap()).unwrap(),
        None => AnyRecord::from_spec(&spec),
    };
    for m in moves {
        r.play_text(m).unwrap();
    }
    r
}

fn run(r: &AnyRecord, o: &ReviewOptions) -> Review {
    review(r, o, &mut Engine::new(), &AtomicBool::new(false)).unwrap()
}

/// Red's chariot and Black's face each other on the a-file: taking is best, a general's
/// step lets Black take instead.
const FACING: &str = "r2k5/9/9/9/9/R8/9/9/9/5K3 w - - 0 1";

#[test]
fn a_hung_chariot_is_a_blunder_and_the_best_move_is_named() {
    let r = record(GameKind::Xiangqi, Some(FACING), &["f0f1", "a9a4"]);
    let review = run(&r, &options(4));
    assert_eq!(review.plies.len(), 2);
    let first = &review.plies[0];
    assert_eq!((first.seat, first.played.as_str()), (0, "f0f1"));
    assert_eq!(first.best.as_deref(), Some("a4a9"));
    assert_eq!(first.line.first().map(String::as_str), Some("a4a9"));
    // The line as the move list writes it (WXF), its first move the best one.
    assert_eq!(first.line_display.len(), first.line.len());
    assert_eq!(first.line_display.first(), first.best_display.as_ref());
    assert!(first.before.cp() > 500 && first.loss > 500, "{first:?}");
    assert_eq!(first.judgement, Some(Judgement::Blunder));
    assert!(first.accuracy < 50.0);
    // Black's capture is the best move: no loss, no mark.
    let second = &review.plies[1];
    assert_eq!((second.seat, second.judgement), (1, None));
    assert!(second.accuracy > 90.0, "{second:?}");
    assert!(review.accuracy[1] > review.accuracy[0]);
    assert_eq!(review.count(0, Judgement::Blunder), 1);
}

#[test]
fn the_best_move_played_loses_nothing() {
    let r = record(GameKind::Xiangqi, Some(FACING), &["a4a9"]);
    let ply = &run(&r, &options(4)).plies[0];
    assert_eq!((ply.judgement, ply.best.as_deref()), (None, Some("a4a9")));
    assert!(ply.played_value.cp() > 500);
}

#[test]
fn the_played_move_valued_as_an_alternative_values_the_same() {
    let r = record(GameKind::Xiangqi, None, &["h2e2", "h9g7"]);
    let mut o = options(3);
    o.alternatives.insert(0, vec!["h2e2".into(), "b0c2".into(), "not a move".into()]);
    let review = run(&r, &o);
    let alts = &review.plies[0].alternatives;
    assert_eq!(alts.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(), ["h2e2", "b0c2"]);
    assert_eq!(alts[0].value, review.plies[0].played_value);
    assert!(review.plies[1].alternatives.is_empty());
}

#[test]
fn a_mate_is_kept_as_a_mate_for_the_mover() {
    // Red's chariot mates on the back rank, the other guarding the rank below.
    let r = record(GameKind::Xiangqi, Some("4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1"), &["a7a9"]);
    assert!(matches!(r.next(), Next::Over(_)));
    let ply = &run(&r, &options(3)).plies[0];
    assert_eq!((ply.before, ply.played_value), (Eval::Mate(1), Eval::Mate(1)));
    assert_eq!((ply.judgement, ply.loss), (None, 0));
    // A slower mate is no mistake: the mate is still there, one move later.
    let slower = record(GameKind::Xiangqi, Some("4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1"), &["d0d1"]);
    let ply = &run(&slower, &options(4)).plies[0];
    assert_eq!(ply.before, Eval::Mate(1));
    assert_eq!((ply.played_value, ply.judgement), (Eval::Mate(2), None));
}

#[test]
fn a_flip_is_valued_by_what_it_may_reveal_not_by_what_it_revealed() {
    let general = record(GameKind::Banqi, None, &["d2=K"]);
    let soldier = record(GameKind::Banqi, None, &["d2=p"]);
    let (a, b) = (run(&general, &options(3)), run(&soldier, &options(3)));
    assert!(a.expectation);
    assert_eq!(a.plies[0].played_value, b.plies[0].played_value);
    assert_eq!(a.plies[0].before, b.plies[0].before);
    // Any first flip is as good as another in the expectation: none is a mistake.
    assert_eq!(a.plies[0].judgement, None);
}

#[test]
fn a_stopped_review_says_so() {
    let r = record(GameKind::Xiangqi, None, &["h2e2"]);
    let stop = AtomicBool::new(true);
    assert_eq!(review(&r, &options(3), &mut Engine::new(), &stop), Err(ReviewError::Stopped));
}

#[test]
fn reviews_serialise_with_tagged_values() {
    let r = record(GameKind::Xiangqi, Some(FACING), &["f0f1"]);
    let review = run(&r, &options(2));
    let json = serde_json::to_string(&review).unwrap();
    assert!(json.contains("\"judgement\":\"blunder\""), "{json}");
    assert!(json.contains("\"before\":{\"cp\":"), "{json}");
    let back: Review = serde_json::from_str(&json).unwrap();
    let (a, b) = (&back.plies[0], &review.plies[0]);
    assert_eq!(
        (a.before, a.played_value, a.judgement, &a.line),
        (b.before, b.played_value, b.judgement, &b.line)
    );
    assert!((a.win_before - b.win_before).abs() < 1e-12 && (a.accuracy - b.accuracy).abs() < 1e-12);
}

/// One move reviewed alone (the crowd's judgement while a game goes on) is the whole
/// review's entry for that move, searched with a fresh table either way; a move the game
/// does not have is refused.
#[test]
fn one_move_reviewed_alone_is_the_reviews_entry_for_it() {
    let r = record(GameKind::Xiangqi, Some(FACING), &["f0f1", "a9a4"]);
    let mut o = options(4);
    o.alternatives.insert(1, vec!["d9d8".into()]);
    let whole = run(&r, &o);
    for i in 0..2 {
        let alone = review_move(&r, &o, i, &mut Engine::new(), &AtomicBool::new(false)).unwrap();
        let mut reviewed = whole.plies[i].clone();
        // The search of the position before the move is the same; its table differs.
        reviewed.line.truncate(1);
        reviewed.line_display.truncate(1);
        let mut alone = alone;
        alone.line.truncate(1);
        alone.line_display.truncate(1);
        assert_eq!(alone, reviewed, "move {i}");
    }
    assert_eq!(
        review_move(&r, &o, 2, &mut Engine::new(), &AtomicBool::new(false)),
        Err(ReviewError::NoSuchMove(2))
    );
}
