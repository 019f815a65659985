//! Spectators' proposals: one live proposal per spectator per ply, replaceable until the
//! player moves; tallied for spectators, revealed and scored after the real move.

use cannonade_core::Side;
use cannonade_wire::{CrowdRecord, TallyEntry};
use std::collections::HashMap;

/// The proposals of the current ply and everyone's scores.
#[derive(Debug, Default)]
pub struct Proposals {
    ply: u32,
    by_user: HashMap<String, String>,
    scores: HashMap<String, (u32, u32)>,
    crowd: CrowdRecord,
}

/// What a real move revealed.
#[derive(Debug)]
pub struct Revealed {
    /// Every proposed move with its count, most proposed first.
    pub counts: Vec<TallyEntry>,
    /// How many proposed the move played.
    pub matched: u32,
    /// The users who proposed, with their new scores `(hits, total)`.
    pub scored: Vec<(String, (u32, u32))>,
}

impl Proposals {
    /// Starts counting at `ply` (after a restart or a takeback).
    pub fn reset(&mut self, ply: u32) {
        self.ply = ply;
        self.by_user.clear();
    }

    /// Records `user`'s proposal `mv` for `ply` (the caller checked it is legal). Replaces
    /// the user's earlier proposal of this ply. `false` when `ply` is not the current one.
    pub fn propose(&mut self, user: &str, ply: u32, mv: &str) -> bool {
        if ply != self.ply {
            return false;
        }
        self.by_user.insert(user.to_string(), mv.to_string());
        true
    }

    /// The current ply's counts, most proposed first (ties by move text).
    pub fn tally(&self) -> Vec<TallyEntry> {
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for mv in self.by_user.values() {
            *counts.entry(mv.as_str()).or_default() += 1;
        }
        let mut out: Vec<TallyEntry> =
            counts.into_iter().map(|(mv, n)| TallyEntry { mv: mv.to_string(), n }).collect();
        out.sort_by(|a, b| b.n.cmp(&a.n).then_with(|| a.mv.cmp(&b.mv)));
        out
    }

    /// The current ply.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The real move `played` by `seat` ends the ply: scores and the crowd's record are
    /// updated (the crowd agrees when the played move is among its most proposed), and
    /// counting moves to the next ply.
    pub fn reveal(&mut self, seat: Side, played: &str) -> Revealed {
        let counts = self.tally();
        let matched = counts.iter().find(|e| e.mv == played).map_or(0, |e| e.n);
        if let Some(top) = counts.first() {
            let side = match seat {
                Side::First => &mut self.crowd.first,
                Side::Second => &mut self.crowd.second,
            };
            side.of += 1;
            if matched == top.n {
                side.agreed += 1;
            }
        }
        let mut scored = Vec::with_capacity(self.by_user.len());
        for (user, mv) in self.by_user.drain() {
            let score = self.scores.entry(user.clone()).or_default();
            score.1 += 1;
            if mv == played {
                score.0 += 1;
            }
            scored.push((user, *score));
        }
        self.ply += 1;
        Revealed { counts, matched, scored }
    }

    /// The crowd's record so far.
    pub fn crowd(&self) -> CrowdRecord {
        self.crowd
    }

    /// Whether anyone proposed this ply.
    pub fn is_empty(&self) -> bool {
        self.by_user.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_live_proposal_per_spectator_replaceable_until_the_move() {
        let mut p = Proposals::default();
        assert!(p.propose("ann", 0, "h2e2"));
        assert!(p.propose("ann", 0, "b2e2"));
        assert!(p.propose("bob", 0, "b2e2"));
        assert!(!p.propose("cid", 1, "h2e2"), "only the current ply");
        assert_eq!(p.tally(), vec![TallyEntry { mv: "b2e2".into(), n: 2 }]);
        let r = p.reveal(Side::First, "b2e2");
        assert_eq!(r.matched, 2);
        assert_eq!(p.crowd().first.agreed, 1);
        assert!(p.is_empty());
        assert_eq!(p.ply(), 1);
    }

    #[test]
    fn scores_and_the_crowd_record_count_per_seat() {
        let mut p = Proposals::default();
        p.propose("ann", 0, "a");
        p.propose("bob", 0, "b");
        p.propose("cid", 0, "b");
        p.reveal(Side::First, "a"); // the crowd favoured b
        p.reveal(Side::Second, "x"); // nobody proposed: not counted
        p.propose("ann", 2, "c");
        let r = p.reveal(Side::First, "c");
        assert_eq!(r.scored, vec![("ann".to_string(), (2, 2))]);
        let crowd = p.crowd();
        assert_eq!((crowd.first.agreed, crowd.first.of), (1, 2));
        assert_eq!((crowd.second.agreed, crowd.second.of), (0, 0));
    }
}
