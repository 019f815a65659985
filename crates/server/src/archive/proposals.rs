//! Spectators' proposals: one live proposal per spectator per ply, replaceable until the
//! player moves; tallied for spectators, revealed and scored after the real move. What a ply
//! did to the scores ([`PlyCrowd`]) is stored with the move that ended it, so scores and the
//! crowd's record come back after a restart.

use cannonade_core::Side;
use cannonade_wire::{CrowdRecord, TallyEntry};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The proposals of the current ply and everyone's scores.
#[derive(Clone, Debug, Default)]
pub struct Proposals {
    ply: u32,
    by_user: HashMap<String, String>,
    scores: HashMap<String, (u32, u32)>,
    crowd: CrowdRecord,
}

/// How a ply's proposals went, as the store keeps it with the move played: who proposed
/// that move and who proposed another, and whether it was among the most proposed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyCrowd {
    /// The users who proposed the move played (sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hit: Vec<String>,
    /// The users who proposed another move (sorted), in rows stored before [`Self::others`]
    /// existed; newer rows name them there only, once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missed: Vec<String>,
    /// Whether the move played was among the most proposed.
    pub agreed: bool,
    /// The other moves proposed, each with who proposed it (sorted): what the game's review
    /// values against the move played. Absent from plies stored before it existed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub others: BTreeMap<String, Vec<String>>,
}

impl PlyCrowd {
    /// The users who proposed another move than the one played.
    pub fn missed(&self) -> impl Iterator<Item = &String> {
        self.missed.iter().chain(self.others.values().flatten())
    }

    /// The crowd's favourite and how many proposed it: the move played when it was among
    /// the most proposed, else the most proposed other move (the first in notation order
    /// among equals). `None` when the ply's other proposals were not kept (older rows).
    pub fn favourite<'a>(&'a self, played: &'a str) -> Option<(&'a str, usize)> {
        if self.agreed {
            return Some((played, self.hit.len()));
        }
        let mut best: Option<(&str, usize)> = None;
        for (mv, users) in &self.others {
            if best.is_none_or(|(_, n)| users.len() > n) {
                best = Some((mv, users.len()));
            }
        }
        best
    }
}

/// How the current ply's proposals go if a given move is the real one.
#[derive(Debug)]
pub struct Judged {
    /// Every proposed move with its count, most proposed first.
    pub counts: Vec<TallyEntry>,
    /// How many proposed the move played.
    pub matched: u32,
    /// What the store keeps of it; `None` when nobody proposed.
    pub crowd: Option<PlyCrowd>,
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

    /// Withdraws `user`'s proposal `mv` for `ply` if it is still their current one (its
    /// store write failed); `true` when it was.
    pub fn withdraw(&mut self, user: &str, ply: u32, mv: &str) -> bool {
        let current = self.is_current(user, ply, mv);
        if current {
            self.by_user.remove(user);
        }
        current
    }

    /// Whether `mv` for `ply` is `user`'s live proposal: not replaced by a later one, and
    /// its ply not yet played.
    pub fn is_current(&self, user: &str, ply: u32, mv: &str) -> bool {
        ply == self.ply && self.by_user.get(user).is_some_and(|m| m == mv)
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

    /// How the current ply's proposals go if `played` is the real move, changing nothing:
    /// the move is stored with [`Judged::crowd`] first, then [`Self::settle`] counts it.
    pub fn judge(&self, played: &str) -> Judged {
        let counts = self.tally();
        let matched = counts.iter().find(|e| e.mv == played).map_or(0, |e| e.n);
        let crowd = counts.first().map(|top| {
            let mut hit = Vec::new();
            let mut others: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (user, mv) in &self.by_user {
                if mv == played {
                    hit.push(user.clone());
                } else {
                    others.entry(mv.clone()).or_default().push(user.clone());
                }
            }
            // Sorted, so the stored row does not depend on the map's order.
            hit.sort_unstable();
            others.values_mut().for_each(|users| users.sort_unstable());
            PlyCrowd { hit, missed: Vec::new(), agreed: matched == top.n, others }
        });
        Judged { counts, matched, crowd }
    }

    /// Counts a ply's outcome into the scores and the crowd's record (the crowd's record
    /// counts a seat's move when anyone proposed) and moves to the next ply: live after the
    /// move is stored, and when a game's stored moves are replayed after a restart.
    /// Returns the new scores of the users who proposed.
    pub fn settle(&mut self, seat: Side, judged: Option<&PlyCrowd>) -> Vec<(String, (u32, u32))> {
        self.by_user.clear();
        self.ply += 1;
        let Some(judged) = judged else {
            return Vec::new();
        };
        let side = match seat {
            Side::First => &mut self.crowd.first,
            Side::Second => &mut self.crowd.second,
        };
        side.of += 1;
        side.agreed += judged.agreed as u32;
        let mut scored = Vec::with_capacity(judged.hit.len() + judged.missed().count());
        let users = judged.hit.iter().map(|u| (u, 1)).chain(judged.missed().map(|u| (u, 0)));
        for (user, hit) in users {
            let score = self.scores.entry(user.clone()).or_default();
            score.0 += hit;
            score.1 += 1;
            scored.push((user.clone(), *score));
        }
        scored
    }

    /// `user`'s score `(hits, total)`, if they ever proposed in this game.
    pub fn score(&self, user: &str) -> Option<(u32, u32)> {
        self.scores.get(user).copied()
    }

    /// The crowd's record so far.
    pub fn crowd(&self) -> CrowdRecord {
        self.crowd
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
        // A proposal whose store write failed is withdrawn, unless already replaced.
        assert!(p.propose("cid", 0, "c3c4"));
        assert!(p.is_current("cid", 0, "c3c4") && !p.is_current("cid", 0, "h2e2"));
        assert!(!p.withdraw("cid", 0, "h2e2"));
        assert!(p.withdraw("cid", 0, "c3c4"));
        assert!(!p.withdraw("cid", 0, "c3c4"));
        assert_eq!(p.tally(), vec![TallyEntry { mv: "b2e2".into(), n: 2 }]);
        let judged = p.judge("b2e2");
        p.settle(Side::First, judged.crowd.as_ref());
        assert_eq!(judged.matched, 2);
        assert_eq!(p.crowd().first.agreed, 1);
        assert_eq!(p.tally(), vec![]);
        assert_eq!(p.ply(), 1);
    }

    #[test]
    fn a_ply_keeps_every_other_proposal_and_names_the_crowds_favourite() {
        let mut p = Proposals::default();
        for (user, mv) in [("ann", "b2e2"), ("bob", "b2e2"), ("cy", "h2e2"), ("dee", "c3c4")] {
            assert!(p.propose(user, 0, mv));
        }
        let crowd = p.judge("h2e2").crowd.unwrap();
        assert_eq!(crowd.hit, ["cy"]);
        assert_eq!(crowd.others.get("b2e2").unwrap(), &["ann", "bob"]);
        assert_eq!(crowd.others.get("c3c4").unwrap(), &["dee"]);
        assert!(!crowd.agreed);
        assert_eq!(crowd.favourite("h2e2"), Some(("b2e2", 2)));
        // When the move played is among the most proposed, it is the favourite.
        let agreed = p.judge("b2e2").crowd.unwrap();
        assert_eq!(agreed.favourite("b2e2"), Some(("b2e2", 2)));
        // A row stored before the other proposals were kept names none.
        let old = PlyCrowd {
            hit: vec![],
            missed: vec!["ann".into()],
            agreed: false,
            ..Default::default()
        };
        assert_eq!(old.favourite("h2e2"), None);
        // Both forms score the same: a miss for each who proposed another move.
        assert_eq!(crowd.missed().collect::<Vec<_>>(), ["ann", "bob", "dee"]);
        let mut q = Proposals::default();
        assert_eq!(q.settle(Side::First, Some(&old)), [("ann".to_string(), (0, 1))]);
    }

    #[test]
    fn scores_and_the_crowd_record_count_per_seat() {
        let mut p = Proposals::default();
        p.propose("ann", 0, "a");
        p.propose("bob", 0, "b");
        p.propose("cid", 0, "b");
        let reveal = |p: &mut Proposals, seat, mv| {
            let judged = p.judge(mv);
            p.settle(seat, judged.crowd.as_ref())
        };
        reveal(&mut p, Side::First, "a"); // the crowd favoured b
        reveal(&mut p, Side::Second, "x"); // nobody proposed: not counted
        p.propose("ann", 2, "c");
        let scored = reveal(&mut p, Side::First, "c");
        assert_eq!(scored, vec![("ann".to_string(), (2, 2))]);
        let crowd = p.crowd();
        assert_eq!((crowd.first.agreed, crowd.first.of), (1, 2));
        assert_eq!((crowd.second.agreed, crowd.second.of), (0, 0));
    }

    #[test]
    fn stored_ply_outcomes_replay_to_the_same_scores_and_crowd_record() {
        // (seat, proposals as (user, move), the move played)
        type Ply = (Side, &'static [(&'static str, &'static str)], &'static str);
        let plies: [Ply; 4] = [
            (Side::First, &[("ann", "a"), ("bob", "b"), ("cid", "b")], "a"),
            (Side::Second, &[], "x"),
            (Side::First, &[("ann", "c"), ("bob", "c")], "c"),
            (Side::Second, &[("cid", "d"), ("bob", "e")], "e"),
        ];
        let mut live = Proposals::default();
        let mut stored = Vec::new();
        for (ply, (seat, proposals, played)) in plies.iter().enumerate() {
            for (user, mv) in *proposals {
                assert!(live.propose(user, ply as u32, mv));
            }
            let judged = live.judge(played);
            live.settle(*seat, judged.crowd.as_ref());
            stored.push((*seat, judged.crowd));
        }
        let mut replayed = Proposals::default();
        for (seat, judged) in &stored {
            replayed.settle(*seat, judged.as_ref());
        }
        for user in ["ann", "bob", "cid", "dan"] {
            assert_eq!(replayed.score(user), live.score(user), "{user}");
        }
        assert_eq!(live.score("bob"), Some((2, 3)));
        assert_eq!(replayed.crowd(), live.crowd());
        assert_eq!((live.crowd().second.agreed, live.crowd().second.of), (1, 1));
    }
}
