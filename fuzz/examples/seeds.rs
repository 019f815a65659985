//! Writes the seed corpora of every fuzz target into `fuzz/seeds/<target>/` from the perft
//! files and short random games, so the fuzzers start from valid text of every form instead
//! of finding it byte by byte. Run from `fuzz/`: `cargo run --release --example seeds`.
//! The output is deterministic; the seeds are committed.

use cannonade_banqi::{DealSeed, FullPosition, Position as BanqiPos};
use cannonade_core::testkit::Conformance;
use cannonade_core::{MoveBuf, Rules};
use cannonade_fuzz::{perft, read_position, seed_positions, seed_texts};
use cannonade_games::{AnyGame, AnyRecord, GameKind, pgn};
use std::fs;
use std::path::Path;

/// A fixed pseudo-random sequence (SplitMix64), so the seeds are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Writes `seeds/<target>/<i>` for each input.
fn write(target: &str, inputs: impl IntoIterator<Item = Vec<u8>>) {
    let dir = Path::new("seeds").join(target);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("seeds directory");
    let mut n = 0;
    for (i, input) in inputs.into_iter().enumerate() {
        fs::write(dir.join(format!("{i:03}")), input).expect("seed file");
        n += 1;
    }
    println!("{target}: {n} seeds");
}

/// Seeds of a `position_and_text` target: for every seed position, a few of its legal moves
/// in each notation `texts` writes, with no plies played first.
fn move_seeds<G: Conformance>(
    seeds: &[G],
    texts: impl Fn(&G, G::Move) -> Vec<String>,
    rng: &mut Rng,
) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = MoveBuf::new();
    for (i, pos) in seeds.iter().enumerate() {
        pos.legal_moves(&mut buf);
        for _ in 0..buf.len().min(4) {
            let mv = buf[rng.below(buf.len())];
            for t in texts(pos, mv) {
                let mut input = vec![i as u8, 0];
                input.extend_from_slice(t.as_bytes());
                out.push(input);
            }
        }
    }
    out
}

/// Seeds of a playout target: each position text, a newline and random move choices.
fn playout_seeds(texts: &[String], rng: &mut Rng) -> Vec<Vec<u8>> {
    texts
        .iter()
        .map(|t| {
            let mut input = format!("{t}\n").into_bytes();
            input.extend(rng.bytes(16));
            input
        })
        .collect()
}

fn text_seeds(texts: &[String]) -> Vec<Vec<u8>> {
    texts.iter().map(|t| t.clone().into_bytes()).collect()
}

/// A random game of `plies` plies (flips resolved at random) from the start of `kind`.
fn random_record(kind: GameKind, plies: usize, rng: &mut Rng) -> AnyRecord {
    let mut record = AnyRecord::new(AnyGame::start(kind).expect("start"));
    for _ in 0..plies {
        let pos = record.position();
        let outcomes = pos.chance_outcomes();
        if !outcomes.is_empty() {
            let (piece, _) = &outcomes[rng.below(outcomes.len())];
            record.resolve_text(piece).expect("a listed outcome");
            continue;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        record.play(moves[rng.below(moves.len())]).expect("a legal move");
    }
    record
}

/// Banqi records as the rules write them (§9.5): a dealt game with its full deal, the same
/// game with a committed seed and its outcome by colour.
fn banqi_records(rng: &mut Rng) -> Vec<Vec<u8>> {
    let seed = DealSeed::from_hex(&"5a".repeat(32)).expect("hex seed");
    let start = BanqiPos::startpos();
    let deal = cannonade_banqi::deal_from_seed(&start, &seed);
    let mut full: FullPosition = deal.clone();
    let mut moves = Vec::new();
    let mut buf = MoveBuf::new();
    for _ in 0..40 {
        full.legal_moves(&mut buf);
        if buf.is_empty() {
            break;
        }
        let mv = buf[rng.below(buf.len())];
        moves.push(full.recorded_move(mv));
        full.play(mv);
    }
    let moves = moves.join(" ");
    let dealt = format!(
        "[Game \"Banqi\"]\n[Rules \"standard\"]\n[First \"Ann\"]\n[Red \"Ann\"]\n\
         [Black \"Bob\"]\n[Deal \"{}\"]\n{moves}\n",
        deal.fen()
    );
    let committed = format!(
        "[Game \"Banqi\"]\n[Rules \"noprog_limit=40\"]\n[Deal \"commit:{}\"]\n\
         [Seed \"{}\"]\n[Result \"draw\"]\n[Reason \"no-progress\"]\n{moves}\n",
        seed.commitment(),
        seed.to_hex()
    );
    [dealt, committed].into_iter().map(String::into_bytes).collect()
}

const UCI: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption name UCI_Variant value banqi",
    "setoption name Move Overhead value 30",
    "position startpos",
    "position startpos moves h2e2 h9g7",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2",
    "go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 40",
    "go movetime 1000",
    "go depth 6 nodes 100000",
    "go mate 3",
    "go infinite searchmoves h2e2 b2e2",
    "go ponder wtime 1000 btime 1000",
    "go perft 3",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "quit",
];

const WIRE: &[&str] = &[
    r#"{"t":"ping","n":7}"#,
    r#"{"t":"lobby_subscribe"}"#,
    r#"{"t":"lobby_unsubscribe"}"#,
    r#"{"t":"seek","game":"xiangqi","options":"repetition=asian","clock":{"initial_ms":300000,"increment_ms":2000},"rated":true}"#,
    r#"{"t":"invite","game":"banqi","options":"cannon=step","clock":{"initial_ms":0,"increment_ms":0}}"#,
    r#"{"t":"cancel_seek","id":"s1"}"#,
    r#"{"t":"accept_seek","id":"s1"}"#,
    r#"{"t":"play_ai","game":"commander","options":"format=tactical","clock":{"initial_ms":60000,"increment_ms":0},"level":5,"seat":"second"}"#,
    r#"{"t":"hotseat","game":"chessbattle","clock":{"initial_ms":0,"increment_ms":0}}"#,
    r#"{"t":"watch","game":"g1","since":12}"#,
    r#"{"t":"unwatch","game":"g1"}"#,
    r#"{"t":"move","game":"g1","ply":3,"mv":"h2e2"}"#,
    r#"{"t":"resign","game":"g1"}"#,
    r#"{"t":"offer","game":"g1","kind":"draw"}"#,
    r#"{"t":"accept","game":"g1","kind":"takeback"}"#,
    r#"{"t":"decline","game":"g1","kind":"rematch"}"#,
    r#"{"t":"abort","game":"g1"}"#,
    r#"{"t":"claim","game":"g1"}"#,
    r#"{"t":"chat","game":"g1","text":"gg \u4f60\u597d"}"#,
    r#"{"t":"propose","game":"g1","ply":4,"mv":"b2e2"}"#,
];

fn main() {
    let mut rng = Rng(29);

    let xq_texts = seed_texts(perft::XIANGQI);
    let xq: Vec<cannonade_xiangqi::Position> = seed_positions(perft::XIANGQI);
    write("xiangqi_fen", text_seeds(&xq_texts));
    let xq_moves = move_seeds(
        &xq,
        |p, m| {
            vec![
                p.move_to_string(m),
                m.uci().to_text(cannonade_xiangqi::Ranks::FromOne),
                p.wxf(m),
                p.chinese(m),
            ]
        },
        &mut rng,
    );
    write("xiangqi_move", xq_moves);
    write("xiangqi_legal", playout_seeds(&xq_texts, &mut rng));

    let bq_texts = seed_texts(perft::BANQI);
    let bq_public: Vec<BanqiPos> = bq_texts
        .iter()
        .map(|t| {
            read_position::<BanqiPos>(t)
                .unwrap_or_else(|_| read_position::<FullPosition>(t).expect("banqi seed").redact())
        })
        .collect();
    write("banqi_fen", text_seeds(&bq_texts));
    let bq_moves =
        move_seeds(&bq_public, |p, m| vec![p.move_to_string(m), p.move_to_compact(m)], &mut rng);
    write("banqi_move", bq_moves);
    write("banqi_legal", playout_seeds(&bq_texts, &mut rng));
    write("banqi_record", banqi_records(&mut rng));

    let bt_texts = seed_texts(perft::BATTLE);
    let bt: Vec<cannonade_battle::Position> = seed_positions(perft::BATTLE);
    write("battle_fen", text_seeds(&bt_texts));
    write("battle_move", move_seeds(&bt, |p, m| vec![p.move_to_string(m)], &mut rng));
    write("battle_legal", playout_seeds(&bt_texts, &mut rng));

    let cm_texts = seed_texts(perft::COMMANDER);
    let cm: Vec<cannonade_commander::Position> = seed_positions(perft::COMMANDER);
    write("commander_fen", text_seeds(&cm_texts));
    write("commander_move", move_seeds(&cm, |p, m| vec![p.move_to_string(m)], &mut rng));
    write("commander_legal", playout_seeds(&cm_texts, &mut rng));

    write("uci", UCI.iter().map(|l| l.as_bytes().to_vec()));
    write("wire_client", WIRE.iter().map(|l| l.as_bytes().to_vec()));

    let mut records = Vec::new();
    let mut games = Vec::new();
    for (k, kind) in GameKind::ALL.into_iter().enumerate() {
        for plies in [0, 12, 60] {
            let record = random_record(kind, plies, &mut rng);
            records.push(pgn::write_game(&pgn::PgnGame::new(record.clone())).into_bytes());
            let pos = record.position();
            let mv = pos.legal_moves().first().map(|&m| pos.move_text(m)).unwrap_or_default();
            let mut input = vec![k as u8];
            input.extend(format!("{}\n{}\n{mv}", pos.options(), pos.fen()).into_bytes());
            games.push(input);
        }
    }
    games.push(b"\x01cannon=step,chain_capture=on\n".to_vec());
    games.push(b"\x03format=fullforce\n".to_vec());
    write("pgn", records);
    write("games_text", games);
}
