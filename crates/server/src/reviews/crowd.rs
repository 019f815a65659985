//! The crowd against the engine (docs/analysis.md, "The crowd against the engine"): a game's
//! review also values the moves spectators proposed, and says for each ply with proposals
//! whether the crowd's favourite was as good as the move played, and for each spectator
//! how many of their proposals were.

use crate::archive::proposals::PlyCrowd;
use cannonade_engine::review::judge::Eval;
use cannonade_engine::review::{PlyReview, Review};
use cannonade_wire::LineValue;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Proposed moves valued per ply besides the one played, the most proposed first: each is
/// one more search, so a review with proposals costs at most this many times more.
pub const MOST_VALUED: usize = 4;

/// A proposal is "as good as" the move played when the engine values it at most this many
/// centipawns lower: two searches of equal moves at a fixed depth differ by a few.
pub const AS_GOOD_CP: i32 = 10;

/// The moves to value at each move index: those proposed other than the move played,
/// the most proposed first (then in notation order), at most [`MOST_VALUED`].
pub fn alternatives(crowds: &[Option<PlyCrowd>]) -> BTreeMap<usize, Vec<String>> {
    let mut out = BTreeMap::new();
    for (i, crowd) in crowds.iter().enumerate() {
        let Some(crowd) = crowd else { continue };
        let mut moves: Vec<(&String, usize)> =
            crowd.others.iter().map(|(mv, users)| (mv, users.len())).collect();
        moves.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let moves: Vec<String> =
            moves.into_iter().take(MOST_VALUED).map(|(mv, _)| mv.clone()).collect();
        if !moves.is_empty() {
            out.insert(i, moves);
        }
    }
    out
}

pub use cannonade_wire::CrowdPly;

/// A spectator's proposals judged by the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpectatorScore {
    /// Proposals as good as the move played (the move itself included).
    pub good: u32,
    /// Proposals the engine valued.
    pub of: u32,
}

/// The crowd against the engine over a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CrowdReview {
    /// The plies with proposals whose favourite the engine valued.
    pub plies: Vec<CrowdPly>,
    /// Of those, the plies where the favourite was as good as the move played or better.
    pub found: usize,
    /// Each spectator who proposed, by user id.
    pub spectators: BTreeMap<String, SpectatorScore>,
}

fn as_good(value: Eval, played: Eval) -> bool {
    value.cp() >= played.cp().saturating_sub(AS_GOOD_CP)
}

/// The crowd's favourite of one reviewed ply against the engine (`None` when the review did
/// not value it): the same judgement for a whole game's review and, while a game goes on,
/// for the ply just played.
pub fn judge_ply(
    ply: &PlyReview,
    favourite: &str,
    votes: usize,
    proposers: usize,
) -> Option<CrowdPly> {
    let (favourite_value, favourite_display) = if favourite == ply.played {
        (ply.played_value, ply.display.clone())
    } else {
        let alt = ply.alternatives.iter().find(|a| a.text == favourite)?;
        (alt.value, alt.display.clone().unwrap_or_else(|| favourite.to_string()))
    };
    Some(CrowdPly {
        ply: ply.ply,
        seat: ply.seat,
        favourite: favourite.to_string(),
        favourite_display,
        votes,
        proposers,
        favourite_value: line_value(favourite_value),
        played_value: line_value(ply.played_value),
        best_value: line_value(ply.before),
        as_good: as_good(favourite_value, ply.played_value),
    })
}

/// An engine value as the wire writes it (the same JSON: `{"cp":…}` or `{"mate":…}`).
pub fn line_value(value: Eval) -> LineValue {
    match value {
        Eval::Cp(c) => LineValue::Cp(c),
        Eval::Mate(m) => LineValue::Mate(m),
    }
}

/// The crowd's showing in `review`, whose searches valued [`alternatives`]`(crowds)`;
/// `None` when nobody proposed.
pub fn judge(review: &Review, crowds: &[Option<PlyCrowd>]) -> Option<CrowdReview> {
    let mut out = CrowdReview::default();
    let mut anyone = false;
    for (ply, crowd) in review.plies.iter().zip(crowds) {
        let Some(crowd) = crowd else { continue };
        anyone = true;
        let valued = |mv: &str| {
            if mv == ply.played {
                return Some((ply.played_value, ply.display.clone()));
            }
            let alt = ply.alternatives.iter().find(|a| a.text == mv)?;
            Some((alt.value, alt.display.clone().unwrap_or_else(|| mv.to_string())))
        };
        let value_of = |mv: &str| valued(mv).map(|(value, _)| value);
        for user in &crowd.hit {
            let score = out.spectators.entry(user.clone()).or_default();
            score.good += 1;
            score.of += 1;
        }
        for (mv, users) in &crowd.others {
            let Some(value) = value_of(mv) else { continue };
            for user in users {
                let score = out.spectators.entry(user.clone()).or_default();
                score.good += u32::from(as_good(value, ply.played_value));
                score.of += 1;
            }
        }
        let Some((favourite, votes)) = crowd.favourite(&ply.played) else { continue };
        let proposers = crowd.hit.len() + crowd.others.values().map(Vec::len).sum::<usize>();
        let Some(judged) = judge_ply(ply, favourite, votes, proposers) else { continue };
        out.found += usize::from(judged.as_good);
        out.plies.push(judged);
    }
    anyone.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_engine::review::{ReviewOptions, Reviewer};
    use cannonade_engine::{Engine, Limits};
    use cannonade_games::{AnyRecord, GameKind, GameSpec};
    use std::sync::atomic::AtomicBool;

    fn crowd(hit: &[&str], others: &[(&str, &[&str])]) -> Option<PlyCrowd> {
        let others: BTreeMap<String, Vec<String>> = others
            .iter()
            .map(|(mv, users)| (mv.to_string(), users.iter().map(|u| u.to_string()).collect()))
            .collect();
        let top = others.values().map(Vec::len).max().unwrap_or(0);
        Some(PlyCrowd {
            hit: hit.iter().map(|u| u.to_string()).collect(),
            missed: Vec::new(),
            agreed: hit.len() >= top,
            others,
        })
    }

    fn reviewed(moves: &[&str], crowds: &[Option<PlyCrowd>]) -> Review {
        let mut record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        for mv in moves {
            record.play_text_past_end(mv).unwrap();
        }
        let options = ReviewOptions {
            limits: Limits { depth: Some(3), ..Limits::default() },
            alternatives: alternatives(crowds),
        };
        let mut reviewer = Reviewer::new(&record, options).unwrap();
        let mut engine = Engine::new();
        while !reviewer.done() {
            reviewer.step(&mut engine, &AtomicBool::new(false)).unwrap();
        }
        reviewer.finish()
    }

    #[test]
    fn the_most_proposed_moves_are_valued_at_most_four_a_ply() {
        let six: Vec<(&str, &[&str])> = vec![
            ("a0a1", &["u1"]),
            ("b0c2", &["u2", "u3"]),
            ("b2e2", &["u4", "u5", "u6"]),
            ("c3c4", &["u7"]),
            ("g3g4", &["u8"]),
            ("h0g2", &["u9"]),
        ];
        let alts = alternatives(&[None, crowd(&["x"], &six)]);
        assert_eq!(alts.len(), 1);
        assert_eq!(alts[&1], ["b2e2", "b0c2", "a0a1", "c3c4"]);
    }

    #[test]
    fn the_favourite_and_every_proposal_are_judged_against_the_move_played() {
        // Red played the central cannon; two spectators wanted the edge pawn, one the
        // cannon taking the knight, one the move played.
        let crowds = vec![crowd(&["ann"], &[("a3a4", &["bob", "cy"]), ("h2h9", &["dee"])]), None];
        let review = reviewed(&["h2e2", "h9g7"], &crowds);
        let judged = judge(&review, &crowds).unwrap();
        assert_eq!(judged.plies.len(), 1);
        let p = &judged.plies[0];
        assert_eq!((p.favourite.as_str(), p.votes, p.proposers), ("a3a4", 2, 4));
        assert_eq!(
            (p.played_value, p.best_value),
            (line_value(review.plies[0].played_value), line_value(review.plies[0].before))
        );
        let value =
            |mv: &str| review.plies[0].alternatives.iter().find(|a| a.text == mv).unwrap().value;
        assert_eq!(p.favourite_value, line_value(value("a3a4")));
        // As people read it: WXF, the edge pawn forward one.
        assert_eq!(p.favourite_display, "P9+1");
        let good = |mv: &str| value(mv).cp() >= review.plies[0].played_value.cp() - AS_GOOD_CP;
        assert_eq!(p.as_good, good("a3a4"));
        assert_eq!(judged.found, usize::from(p.as_good));
        // Who proposed the move played proposed a move as good as it; every spectator
        // who proposed is counted, each by their own move.
        assert_eq!(judged.spectators["ann"], SpectatorScore { good: 1, of: 1 });
        assert_eq!(judged.spectators["bob"], judged.spectators["cy"]);
        assert_eq!(judged.spectators["dee"].good, u32::from(good("h2h9")));
        assert_eq!(judged.spectators.len(), 4);
    }

    #[test]
    fn when_the_crowd_agreed_its_favourite_is_the_move_played() {
        let crowds = vec![crowd(&["ann", "bob"], &[("a3a4", &["cy"])])];
        let review = reviewed(&["h2e2"], &crowds);
        let judged = judge(&review, &crowds).unwrap();
        assert_eq!(judged.plies[0].favourite, "h2e2");
        assert!(judged.plies[0].as_good);
        assert_eq!(judged.found, 1);
    }

    #[test]
    fn a_game_without_proposals_has_no_crowd_summary() {
        let review = reviewed(&["h2e2"], &[None]);
        assert_eq!(judge(&review, &[None]), None);
    }
}
