//! A finished game as a record file: Banqi's own record format (with the commitment and the
//! revealed seed, so `cannonade verify` checks it), and a PGN-like record for the others.

use super::Dealer;
use cannonade_banqi::{DealTag, GameRecord};
use cannonade_core::{Outcome, Reason, Side};
use cannonade_games::{AnyGame, AnyRecord};
use cannonade_wire::{GameResult, MoveInfo, Seat};
use std::fmt::Write;

fn outcome(result: &GameResult) -> Option<Outcome> {
    let reason = Reason::parse(&result.reason)?;
    Some(Outcome {
        winner: result.winner.map(|s| if s == Seat::First { Side::First } else { Side::Second }),
        reason,
    })
}

/// The record of a game.
pub fn export(
    start: &AnyGame,
    record: &AnyRecord,
    names: &[String; 2],
    moves: &[MoveInfo],
    result: &GameResult,
    dealer: Option<&Dealer>,
) -> String {
    if let (AnyGame::Banqi(start), Some(dealer), AnyGame::Banqi(end)) =
        (start, dealer, record.position())
    {
        let mut rec = GameRecord::new(start.clone());
        rec.first = Some(names[0].clone());
        for (i, name) in names.iter().enumerate() {
            let side = if i == 0 { Side::First } else { Side::Second };
            match end.colour_of(side) {
                Some(cannonade_banqi::Colour::Red) => rec.red = Some(name.clone()),
                Some(cannonade_banqi::Colour::Black) => rec.black = Some(name.clone()),
                None => {}
            }
        }
        rec.deal = Some(DealTag::Commit(dealer.commitment()));
        rec.seed = Some(dealer.seed().clone());
        rec.moves = moves.iter().map(|m| m.mv.clone()).collect();
        if let Some(o) = outcome(result) {
            rec.set_outcome(o, &end);
        }
        return rec.to_string();
    }
    let mut out = String::new();
    let score = match result.winner {
        Some(Seat::First) => "1-0",
        Some(Seat::Second) => "0-1",
        None if result.reason == "aborted" => "*",
        None => "1/2-1/2",
    };
    let _ = writeln!(out, "[Game \"{}\"]", start.kind().name());
    let options = start.options();
    if !options.is_empty() {
        let _ = writeln!(out, "[Options \"{options}\"]");
    }
    let _ = writeln!(out, "[First \"{}\"]", names[0].replace('"', "'"));
    let _ = writeln!(out, "[Second \"{}\"]", names[1].replace('"', "'"));
    let _ = writeln!(out, "[Start \"{}\"]", start.fen());
    let _ = writeln!(out, "[Result \"{score}\"]");
    let _ = writeln!(out, "[Reason \"{}\"]", result.reason);
    out.push('\n');
    for (i, pair) in moves.chunks(2).enumerate() {
        let texts: Vec<&str> = pair.iter().map(|m| m.mv.as_str()).collect();
        let _ = write!(out, "{}. {} ", i + 1, texts.join(" "));
    }
    let _ = writeln!(out, "{score}");
    out
}
