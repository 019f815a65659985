//! Writes `web/tests/fixtures.json`: for every available game, its geometry, its start and a
//! short line of play (each ply's legal moves, the move, its display text and the position
//! after it) made by the real rules crates. The browser tests replay these lines through a
//! stand-in socket to check drawing and picking without a server; the end-to-end tests use
//! the real server.
//!
//! `cargo run -p cannonade-webui --example fixtures > web/tests/fixtures.json`

use cannonade_core::Next;
use cannonade_games::{AnyGame, GameKind};
use cannonade_wire::{Geometry, LegalMove, PublicPosition, Seat};
use serde_json::{Value, json};

/// A small deterministic generator: the same lines on every run.
struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// The position as the client gets it.
fn public(game: &AnyGame) -> Value {
    serde_json::to_value(PublicPosition::of(game)).expect("serialisable")
}

fn legal(game: &AnyGame) -> Vec<LegalMove> {
    game.legal_moves().into_iter().map(|m| LegalMove::of(game, m)).collect()
}

fn main() {
    let mut rng = Lcg(7);
    let mut games = serde_json::Map::new();
    for kind in GameKind::available_games() {
        let Ok(mut game) = AnyGame::start(kind) else { continue };
        let start = public(&game);
        let mut plies = Vec::new();
        for _ in 0..12 {
            let Next::Player(side) = game.next() else { break };
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let list = legal(&game);
            let mv = moves[rng.pick(moves.len())];
            let mut text = game.move_text(mv);
            let display = game.display_move(mv);
            game.play(mv).expect("listed moves are legal");
            let mut display = display;
            if matches!(game.next(), Next::Chance) {
                let outcomes = game.chance_outcomes();
                let (piece, _) = &outcomes[rng.pick(outcomes.len())];
                game.resolve_text(piece).expect("listed outcome");
                text = format!("{}={piece}", text.trim_end_matches('?'));
                display = text.clone();
            }
            plies.push(json!({
                "legal": list,
                "mv": text,
                "display": display,
                "seat": Seat::from(side),
                "position": public(&game),
            }));
        }
        let after = legal(&game);
        games.insert(
            kind.name().to_string(),
            json!({
                "geometry": Geometry::of(kind),
                "start": start,
                "plies": plies,
                "legal_after": after,
            }),
        );
    }
    println!("{}", serde_json::to_string(&Value::Object(games)).expect("serialisable"));
}
