//! The search finds mates, takes free material, obeys its limits, follows each game's
//! repetition rule and the same-side turns of the Rules trait, and never looks at a deal.

use cannonade_core::{MoveBuf, Next, NoChance, Outcome, Reason, Record, Rules, Side};
use cannonade_engine::{Engine, Evaluate, Limits, MATE, search};
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use cannonade_xiangqi::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn go(
    fen: &str,
    limits: Limits,
) -> (Position, cannonade_engine::SearchResult<cannonade_xiangqi::Move>) {
    let p = Position::from_fen(fen).unwrap();
    let r = search(&p, &[], &limits, &AtomicBool::new(false), |_| {});
    (p, r)
}

#[test]
fn finds_mate_in_one() {
    let (_, r) = go("4k4/R8/1R7/9/9/9/9/9/9/3K5 w", depth(3));
    // b7b9 mates; b7f7 stalemates, which also wins at once in Xiangqi.
    assert!(["b7b9", "b7f7"].contains(&r.best.unwrap().to_string().as_str()));
    assert_eq!(r.score, MATE - 1);
}

#[test]
fn takes_a_free_chariot() {
    let (_, r) = go("4k4/9/9/9/r8/R8/9/9/9/3K5 w", depth(2));
    assert_eq!(r.best.unwrap().to_string(), "a4a5");
}

#[test]
fn a_node_budget_never_cuts_the_first_iteration_short() {
    // One node would stop the first iteration at its first move in generation order; the
    // one-ply search finishes and takes the chariot.
    let (_, r) = go("4k4/9/9/9/r8/R8/9/9/9/3K5 w", Limits { nodes: Some(1), ..Limits::default() });
    assert_eq!(r.depth, 1);
    assert_eq!(r.best.unwrap().to_string(), "a4a5");
}

#[test]
fn no_move_means_none() {
    let (_, r) = go("5k3/9/9/9/3r5/9/9/6n2/9/4K4 w", depth(2));
    assert_eq!(r.best, None);
}

#[test]
fn limits_stop_the_search_with_a_legal_move() {
    let (p, r) = go(cannonade_xiangqi::START_FEN, Limits { nodes: Some(500), ..Limits::default() });
    assert!(p.legal_moves().contains(&r.best.unwrap()));
    assert!(r.nodes <= 600);
    let (p, r) = go(
        cannonade_xiangqi::START_FEN,
        Limits { time: Some(Duration::from_millis(30)), ..Limits::default() },
    );
    assert!(p.legal_moves().contains(&r.best.unwrap()));
    let stop = AtomicBool::new(true);
    let r = search(&p, &[], &Limits::default(), &stop, |_| {});
    assert!(p.legal_moves().contains(&r.best.unwrap()));
}

/// Chariot against chariot; Red shuffles its chariot, Black its general: the eighth ply would make the start position
/// occur a third time.
fn shuffled() -> Record<Position> {
    let mut r = Record::new(Position::from_fen("3k4r/9/9/9/9/9/9/9/9/R3K4 w").unwrap());
    for m in ["a0a1", "d9d8", "a1a0", "d8d9", "a0a1", "d9d8", "a1a0"] {
        let mv = r.position().parse_move(m).unwrap();
        r.play(mv);
    }
    r
}

#[test]
fn seed_rule_third_occurrence_loses_in_the_search_as_in_the_judge() {
    let record = shuffled();
    let losing = record.position().parse_move("d8d9").unwrap();
    let mut after = record.clone();
    after.play(losing);
    assert!(matches!(after.next(), Next::Over(o) if o.winner == Some(Side::First)));
    let history = &record.positions()[..record.len()];
    let r = search(record.position(), history, &depth(4), &AtomicBool::new(false), |_| {});
    assert_ne!(r.best, Some(losing));
    assert!(r.score > -MATE / 2);
}

#[test]
fn banqi_search_sees_only_the_public_position() {
    let full = "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB";
    let dealt = AnyGame::from_fen(GameKind::Banqi, full).unwrap();
    let public = dealt.public();
    let limits = depth(3);
    let a = Engine::new().search(
        &AnyRecord::new(dealt.clone()),
        &limits,
        &AtomicBool::new(false),
        |_| {},
    );
    let b = Engine::new().search(
        &AnyRecord::new(public.clone()),
        &limits,
        &AtomicBool::new(false),
        |_| {},
    );
    assert_eq!(a, b);
    assert!(public.legal_moves().contains(&a.best.unwrap()));
}

#[test]
fn banqi_first_flip_is_a_chance_node() {
    let game = AnyGame::start(GameKind::Banqi).unwrap();
    let r = Engine::new().search(
        &AnyRecord::new(game.clone()),
        &depth(3),
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(game.legal_moves().contains(&r.best.unwrap()));
    assert!(r.score.abs() < 200, "{}", r.score);
}

/// Flip: a flip too shallow to be searched outcome by outcome is still valued after the
/// capture it allows. Every face-down square touches Black's general and every piece in the
/// pool is a red piece it takes, so each outcome is worth what is left once it is taken, and
/// the root is worth the best of the three flips (they differ in where the general ends up).
#[test]
fn banqi_flip_beside_an_enemy_is_valued_after_its_capture() {
    use cannonade_banqi::Position as Banqi;
    let pos = Banqi::from_fen("8/XkX5/1X6/8 r A2R1 0 20").unwrap();
    let flip_value = |square: &str| {
        let mut expected = 0i64;
        let mut weights = 0i64;
        let mut flipped = pos.clone();
        flipped.play(pos.parse_move(&format!("{square}?")).unwrap());
        let mut outcomes = Vec::new();
        flipped.chance_outcomes(&mut outcomes);
        for w in &outcomes {
            let mut after = flipped.clone();
            after.resolve(w.outcome);
            after.play(after.parse_move(&format!("b3x{square}")).unwrap());
            expected += w.weight as i64 * after.evaluate() as i64;
            weights += w.weight as i64;
        }
        (expected / weights) as i32
    };
    let expected = ["a3", "c3", "b2"].map(flip_value).into_iter().max().unwrap();
    let r = search(&pos, &[], &depth(1), &AtomicBool::new(false), |_| {});
    assert!((r.score - expected).abs() <= 2, "score {} expected {expected}", r.score);
}

#[test]
fn chessbattle_bomber_takes_the_bomber() {
    let fen = "4h3/8/12/12/5b6/12/12/5B6/12/12/8/4H3 r 0 1";
    let game = AnyGame::from_fen(GameKind::ChessBattle, fen).unwrap();
    let r = Engine::new().search(&AnyRecord::new(game), &depth(3), &AtomicBool::new(false), |_| {});
    assert_eq!(r.best_text.as_deref(), Some("f5xf8"));
}

#[test]
fn engine_searches_are_deterministic() {
    for kind in GameKind::available_games() {
        let game = AnyGame::start(kind).unwrap();
        let run = || {
            Engine::new().search(
                &AnyRecord::new(game.clone()),
                &depth(4),
                &AtomicBool::new(false),
                |_| {},
            )
        };
        assert_eq!(run(), run(), "{kind}");
    }
}

/// The engine keeps its table and move history between searches; after `clear` it
/// searches exactly as a new engine does (no history left over from the game before).
#[test]
fn a_cleared_engine_searches_like_a_new_one() {
    let before = AnyRecord::new(AnyGame::start(GameKind::Xiangqi).unwrap());
    let game = AnyGame::from_fen(
        GameKind::Xiangqi,
        "1r1ak1b2/4a4/2n1bc3/2R1p3p/p8/2p2NP1P/P3P4/2N1B4/1c2A4/2BAK3R w - - 0 19",
    )
    .unwrap();
    let record = AnyRecord::new(game);
    let stop = AtomicBool::new(false);
    let fresh = Engine::new().search(&record, &depth(7), &stop, |_| {});
    let mut engine = Engine::new();
    engine.search(&before, &depth(7), &stop, |_| {});
    let remembering = engine.search(&record, &depth(7), &stop, |_| {});
    engine.clear();
    let cleared = engine.search(&record, &depth(7), &stop, |_| {});
    assert_eq!(cleared, fresh);
    // What the first search left (table and history) changes the second.
    assert_ne!(remembering.nodes, fresh.nodes);
}

/// A toy game whose turns are two sub-moves by the same player: take 1 or 2 stones, twice;
/// whoever cannot move loses. The search must keep the sign over same-side children.
#[derive(Clone, Debug)]
struct DoubleTake {
    stones: u8,
    mover: Side,
    second_half: bool,
}

impl Rules for DoubleTake {
    type Move = u8;
    type Chance = NoChance;
    fn next(&self) -> Next {
        if self.stones == 0 {
            Next::Over(Outcome::loss(self.mover, Reason::NoMoves))
        } else {
            Next::Player(self.mover)
        }
    }
    fn mover(&self) -> Side {
        self.mover
    }
    fn legal_moves(&self, buf: &mut MoveBuf<u8>) {
        buf.clear();
        buf.extend((1..=2).filter(|&n| n <= self.stones));
    }
    fn play(&mut self, mv: u8) {
        self.stones -= mv;
        if self.second_half {
            self.mover = !self.mover;
        }
        self.second_half = !self.second_half;
    }
    fn resolve(&mut self, c: NoChance) {
        match c {}
    }
    fn hash(&self) -> u64 {
        (self.stones as u64) << 2 | (self.mover.index() as u64) << 1 | self.second_half as u64
    }
}

impl Evaluate for DoubleTake {
    type Acc = ();

    const MOVE_INDEXES: usize = 3;
    fn evaluate(&self) -> i32 {
        0
    }
    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }
    fn tactical_value(&self, _: u8) -> Option<i32> {
        None
    }
}

/// Whether the mover of `g` wins with perfect play.
fn solve(g: &DoubleTake) -> bool {
    let mut buf = MoveBuf::new();
    g.legal_moves(&mut buf);
    buf.iter().any(|&m| {
        let mut c = g.clone();
        c.play(m);
        if c.mover() == g.mover() { solve(&c) } else { !solve(&c) }
    })
}

#[test]
fn same_side_sub_moves_keep_the_sign() {
    for stones in 1..=14 {
        let g = DoubleTake { stones, mover: Side::First, second_half: false };
        let r = search(&g, &[], &depth(24), &AtomicBool::new(false), |_| {});
        assert_eq!(r.score > 0, solve(&g), "{stones} stones, score {}", r.score);
        assert!(r.score.abs() > MATE / 2, "{stones} stones: solved, so a mate score");
    }
}

/// The one-step exchange test that quiescence and move ordering use: a chariot taking a
/// soldier that a chariot defends loses material; taking it undefended, or a soldier taking
/// a chariot, does not.
#[test]
fn losing_capture_is_a_dearer_piece_taking_a_defended_one() {
    let capture = |fen: &str, mv: &str| {
        let p = Position::from_fen(fen).unwrap();
        let mv = p.parse_move(mv).unwrap();
        p.losing_capture(mv)
    };
    assert!(capture("r3k4/9/9/p8/9/9/9/9/9/R2K5 w", "a0a6"));
    assert!(!capture("4k4/9/9/p8/9/9/9/9/9/R2K5 w", "a0a6"));
    assert!(!capture("r3k4/9/9/r8/P8/9/9/9/9/3K5 w", "a5a6"));
    // A cannon defends over a screen: the horse on a7 screens a6 from the cannon on a9.
    assert!(capture("c3k4/9/n8/p8/9/R8/9/9/9/3K5 w", "a4a6"));
}

#[test]
fn does_not_trade_its_chariot_for_a_defended_soldier() {
    let (_, r) = go("r3k4/9/9/p8/9/9/9/9/9/R2K5 w", depth(3));
    assert_ne!(r.best.unwrap().to_string(), "a0a6");
}

/// A toy game for contempt: from state 0 the first player may go round the loop 0 → 1 → 0
/// (the game's history already holds 0 and 1, so that repeats the root: a draw) or step
/// aside 0 → 2 → 3, which its evaluation calls 20 worse than even.
#[derive(Clone, Debug)]
struct Loop(u8);

impl Rules for Loop {
    type Move = u8;
    type Chance = NoChance;
    fn next(&self) -> Next {
        Next::Player(self.mover())
    }
    fn mover(&self) -> Side {
        if matches!(self.0, 0 | 3) { Side::First } else { Side::Second }
    }
    fn legal_moves(&self, buf: &mut MoveBuf<u8>) {
        buf.clear();
        let next: &[u8] = match self.0 {
            0 => &[1, 2],
            1 => &[0],
            2 => &[3],
            3 => &[4],
            _ => &[3],
        };
        buf.extend(next.iter().copied());
    }
    fn play(&mut self, mv: u8) {
        self.0 = mv;
    }
    fn resolve(&mut self, c: NoChance) {
        match c {}
    }
    fn hash(&self) -> u64 {
        self.0 as u64 + 1
    }
    fn repetition(&self) -> cannonade_core::RepetitionRule {
        cannonade_core::RepetitionRule::Draw { occurrence: 3 }
    }
}

impl Evaluate for Loop {
    type Acc = ();

    const MOVE_INDEXES: usize = 5;
    fn evaluate(&self) -> i32 {
        if self.0 == 3 { -20 } else { 0 }
    }
    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }
    fn tactical_value(&self, _: u8) -> Option<i32> {
        None
    }
}

/// Contempt: a drawn repetition counts against the side the search plays for, so a slightly
/// worse position that keeps the game going is preferred to shuffling into a draw.
#[test]
fn contempt_prefers_playing_on_to_a_drawn_repetition() {
    let r = search(&Loop(0), &[Loop(0), Loop(1)], &depth(2), &AtomicBool::new(false), |_| {});
    assert_eq!(r.best, Some(2), "score {}", r.score);
    assert_eq!(r.score, -20);
}
