//! Conformance checks every game runs in its tests (feature `testkit`).
//!
//! [`run_playouts`] plays random games and, at every position, checks that
//! * the fast move generator and a slow, obviously-correct reference agree exactly (every
//!   generated move is legal and every legal move is generated, without duplicates);
//! * the incrementally updated hash equals the hash recomputed from scratch;
//! * the position round-trips through its text notation (and its options text), and every
//!   legal move through each of its move notations (canonical, display, engine, recorded);
//! * chance events offer distinct outcomes with positive weights, matching the game's own
//!   account of them;
//! * the game's own invariants hold, and [`Rules::next`] agrees with the move list.

use crate::{Game, MoveBuf, Next, Reason, Record, Step, Weighted};
use cannonade_geom::SplitMix64;
use std::collections::{BTreeMap, HashSet};

/// What a game provides so that the conformance checks can test it, beyond its [`Game`]
/// notation.
pub trait Conformance: Game {
    /// Every legal move, found the slow way: written for clarity from the rules text, sharing
    /// no move-generation code with [`Rules::legal_moves`].
    fn reference_moves(&self) -> Vec<Self::Move>;

    /// The hash recomputed from scratch.
    fn recomputed_hash(&self) -> u64;

    /// Game-specific checks of a position and of its chance weights (for example that Banqi's
    /// weights equal the face-down counts). The default checks nothing.
    fn check_invariants(&self, _chances: &[Weighted<Self::Chance>]) -> Result<(), String> {
        Ok(())
    }
}

/// How many random games to play and how.
#[derive(Clone, Copy, Debug)]
pub struct Playouts {
    /// Number of games.
    pub games: u32,
    /// A game still running after this many steps is abandoned.
    pub max_steps: u32,
    /// Seed of the move choices; the same seed plays the same games.
    pub seed: u64,
    /// Check the reference generator only every `reference_every` positions (1 = always):
    /// slow references would otherwise dominate long runs.
    pub reference_every: u32,
}

impl Default for Playouts {
    fn default() -> Self {
        Playouts { games: 50, max_steps: 300, seed: 1, reference_every: 1 }
    }
}

/// What the playouts saw: how each game ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutReport {
    /// Games ended per reason.
    pub endings: BTreeMap<&'static str, u32>,
    /// Games that reached `max_steps` still running.
    pub unfinished: u32,
    /// Positions checked.
    pub positions: u64,
}

/// Plays `cfg.games` random games from the positions `start(game_index)` returns and checks
/// every position; the error names the game, the position and what failed.
pub fn run_playouts<G: Conformance>(
    start: impl Fn(u32) -> G,
    cfg: Playouts,
) -> Result<PlayoutReport, String> {
    let mut rng = SplitMix64(cfg.seed);
    let mut report = PlayoutReport::default();
    let mut buf = MoveBuf::new();
    let mut chances = Vec::new();
    for game in 0..cfg.games {
        let mut record = Record::new(start(game));
        let mut ended = false;
        for _ in 0..cfg.max_steps {
            let pos = record.position();
            let where_ = || format!("game {game}, step {}: {}", record.len(), pos.fen());
            let check_reference = report.positions % cfg.reference_every.max(1) as u64 == 0;
            check_position(pos, &mut buf, &mut chances, check_reference)
                .map_err(|e| format!("{}: {e}", where_()))?;
            report.positions += 1;
            match record.next() {
                Next::Over(outcome) => {
                    *report.endings.entry(outcome.reason.as_str()).or_default() += 1;
                    ended = true;
                    break;
                }
                Next::Chance => {
                    let total: u64 = chances.iter().map(|w| w.weight as u64).sum();
                    let mut pick = rng.below(total);
                    let chosen = chances
                        .iter()
                        .find(|w| {
                            let hit = pick < w.weight as u64;
                            pick = pick.saturating_sub(w.weight as u64);
                            hit
                        })
                        .map(|w| w.outcome)
                        .ok_or_else(|| format!("{}: chance weights do not add up", where_()))?;
                    record.resolve(chosen);
                }
                Next::Player(side) => {
                    if side != pos.mover() {
                        return Err(format!(
                            "{}: next() says {side:?} but mover() differs",
                            where_()
                        ));
                    }
                    let mv = buf[rng.below(buf.len() as u64) as usize];
                    record.play(mv);
                }
            }
        }
        if !ended {
            report.unfinished += 1;
        }
        // Replaying the record's steps must give the same positions.
        let mut replay = record.start().clone();
        for (i, step) in record.steps().iter().enumerate() {
            match *step {
                Step::Move(mv) => replay.play(mv),
                Step::Chance(c) => replay.resolve(c),
            }
            if replay.hash() != record.positions()[i + 1].hash() {
                return Err(format!("game {game}: replay diverges at step {i}"));
            }
        }
    }
    Ok(report)
}

/// Runs every check on one position; `buf` and `chances` are left holding its legal moves and
/// chance outcomes.
pub fn check_position<G: Conformance>(
    pos: &G,
    buf: &mut MoveBuf<G::Move>,
    chances: &mut Vec<Weighted<G::Chance>>,
    check_reference: bool,
) -> Result<(), String> {
    if pos.hash() != pos.recomputed_hash() {
        return Err(format!(
            "incremental hash {:#x} differs from recomputed {:#x}",
            pos.hash(),
            pos.recomputed_hash()
        ));
    }
    let text = pos.fen();
    let reread = G::from_fen(&text).map_err(|e| format!("cannot re-read own text: {e}"))?;
    if reread.fen() != text || reread.hash() != pos.hash() {
        return Err(format!("position text does not round-trip: {}", reread.fen()));
    }
    let options = pos.options();
    let reapplied =
        pos.with_options(&options).map_err(|e| format!("own options '{options}' refused: {e}"))?;
    if reapplied.options() != options || reapplied.fen() != text {
        return Err(format!("options '{options}' do not round-trip"));
    }
    pos.legal_moves(buf);
    pos.chance_outcomes(chances);
    pos.check_invariants(chances)?;
    if pos.count_legal() != buf.len() as u64 {
        return Err(format!("count_legal {} but {} moves listed", pos.count_legal(), buf.len()));
    }
    let fast: HashSet<G::Move> = buf.iter().copied().collect();
    if fast.len() != buf.len() {
        return Err("the generator lists a move twice".into());
    }
    if pos.chance_pending() {
        if !buf.is_empty() {
            return Err("moves offered at a chance node".into());
        }
        if chances.is_empty() || chances.iter().any(|w| w.weight == 0) {
            return Err(format!("bad chance outcomes {chances:?}"));
        }
        let distinct: HashSet<G::Chance> = chances.iter().map(|w| w.outcome).collect();
        if distinct.len() != chances.len() {
            return Err("a chance outcome is offered twice".into());
        }
        if pos.next() != Next::Chance {
            return Err(format!("chance pending but next() is {:?}", pos.next()));
        }
        return Ok(());
    }
    if !chances.is_empty() {
        return Err("chance outcomes offered where no chance event is pending".into());
    }
    if check_reference {
        let slow: HashSet<G::Move> = pos.reference_moves().into_iter().collect();
        if slow != fast {
            let missing: Vec<String> = slow.difference(&fast).map(|m| pos.move_text(*m)).collect();
            let extra: Vec<String> = fast.difference(&slow).map(|m| pos.move_text(*m)).collect();
            return Err(format!("generator misses {missing:?} and wrongly lists {extra:?}"));
        }
    }
    for &mv in buf.iter() {
        let texts = [pos.move_text(mv), pos.display_move(mv), pos.engine_move(mv)];
        for s in texts {
            match pos.parse_move(&s) {
                Ok(back) if back == mv => {}
                Ok(other) => {
                    return Err(format!("move {s} reads back as {}", pos.move_text(other)));
                }
                Err(e) => return Err(format!("move {s} does not read back: {e}")),
            }
        }
    }
    match pos.next() {
        Next::Player(_) if buf.is_empty() => Err("next() names a player who has no move".into()),
        Next::Over(o)
            if !buf.is_empty()
                && matches!(o.reason, Reason::Checkmate | Reason::Stalemate | Reason::NoMoves) =>
        {
            Err(format!("next() says {} but there are legal moves", o.reason))
        }
        Next::Chance => Err("next() says chance but none is pending".into()),
        _ => Ok(()),
    }
}
