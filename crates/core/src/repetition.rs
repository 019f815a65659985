//! Repetition, counted once for every game: how often the current position has occurred
//! since the last irreversible move, and what the game's [`RepetitionRule`] makes of it.
//!
//! A game states its rule as data ([`Rules::repetition`]), how far back an equal position
//! can lie ([`Rules::reversible_plies`]), what counts as the same position
//! ([`Rules::same_position`]) and, for rules that judge the cycle (Xiangqi's perpetual
//! check and chase), who loses it ([`Rules::judge_cycle`]). Records ([`verdict`]) and the
//! engine's search ask the same rule.

use crate::{Outcome, Reason, Rules};

/// How a game treats a position that occurs again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// Repetition ends nothing.
    Off,
    /// The game is drawn when a position occurs for the `occurrence`-th time (Banqi,
    /// Chess-Battle, Commander Chess: the third).
    Draw {
        /// The occurrence that draws.
        occurrence: u32,
    },
    /// The move that makes a position occur for the `occurrence`-th time loses (Xiangqi's
    /// seed rule: the third).
    Loses {
        /// The occurrence that loses.
        occurrence: u32,
    },
    /// On the `occurrence`-th time the cycle since the first occurrence is judged by
    /// [`Rules::judge_cycle`] (Xiangqi's `asian` rule: perpetual check or chase loses,
    /// anything else draws).
    Judged {
        /// The occurrence at which the cycle is judged.
        occurrence: u32,
    },
}

impl RepetitionRule {
    /// The occurrence at which the rule acts, `None` when it is off.
    pub const fn occurrence(self) -> Option<u32> {
        match self {
            RepetitionRule::Off => None,
            RepetitionRule::Draw { occurrence }
            | RepetitionRule::Loses { occurrence }
            | RepetitionRule::Judged { occurrence } => Some(occurrence),
        }
    }
}

/// How often the last position of a history occurred within its reversible window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrences {
    /// Occurrences, the last position included (1 when it is new).
    pub count: u32,
    /// Index of the earliest occurrence in the history (the last index when it is new).
    pub first: usize,
}

/// Counts the occurrences of the last position of `positions` (oldest first) among the
/// positions it can equal: those within its [`Rules::reversible_plies`], skipping positions
/// that wait for a chance event.
///
/// ```
/// use cannonade_core::repetition::occurrences;
/// # use cannonade_core::{MoveBuf, Next, NoChance, Rules, Side};
/// # #[derive(Clone, Debug)] struct Walk(u64, Side);
/// # impl Rules for Walk {
/// #     type Move = u64; type Chance = NoChance;
/// #     fn next(&self) -> Next { Next::Player(self.1) }
/// #     fn mover(&self) -> Side { self.1 }
/// #     fn legal_moves(&self, b: &mut MoveBuf<u64>) { b.clear(); }
/// #     fn play(&mut self, m: u64) { self.0 = m; self.1 = !self.1; }
/// #     fn resolve(&mut self, c: NoChance) { match c {} }
/// #     fn hash(&self) -> u64 { self.0 << 1 | self.1.index() as u64 }
/// # }
/// let p = |n, s| Walk(n, s);
/// let history = [p(1, Side::First), p(2, Side::Second), p(1, Side::First), p(2, Side::Second), p(1, Side::First)];
/// let occ = occurrences(&history);
/// assert_eq!((occ.count, occ.first), (3, 0));
/// ```
pub fn occurrences<G: Rules>(positions: &[G]) -> Occurrences {
    let Some(last) = positions.len().checked_sub(1) else {
        return Occurrences { count: 0, first: 0 };
    };
    let current = &positions[last];
    let reach = current.reversible_plies().min(last);
    let mut occ = Occurrences { count: 1, first: last };
    for i in (last - reach..last).rev() {
        let p = &positions[i];
        if !p.chance_pending() && p.same_position(current) {
            occ.count += 1;
            occ.first = i;
        }
    }
    occ
}

/// What the game's repetition rule says of the last position of `positions` (oldest first):
/// the outcome when the rule ends the game there, `None` otherwise. Other end rules (mate,
/// counters) are the game's to order around it.
pub fn verdict<G: Rules>(positions: &[G]) -> Option<Outcome> {
    let current = positions.last()?;
    if current.chance_pending() {
        return None;
    }
    let rule = current.repetition();
    let needed = rule.occurrence()?;
    let occ = occurrences(positions);
    if occ.count < needed {
        return None;
    }
    Some(match rule {
        RepetitionRule::Off => return None,
        RepetitionRule::Draw { .. } => Outcome::draw(Reason::Repetition),
        RepetitionRule::Loses { .. } => {
            // The seat that made the repeating move: the mover of the position before.
            let repeater = positions[positions.len() - 2].mover();
            Outcome::loss(repeater, Reason::Repetition)
        }
        RepetitionRule::Judged { .. } => G::judge_cycle(&positions[occ.first..]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MoveBuf, Next, NoChance, Side};

    /// A token that walks between numbered squares; the square is its whole state, a
    /// capture (a move to 0) is irreversible.
    #[derive(Clone, Debug)]
    struct Walk {
        at: u64,
        mover: Side,
        since_capture: usize,
        rule: RepetitionRule,
    }

    impl Rules for Walk {
        type Move = u64;
        type Chance = NoChance;
        fn next(&self) -> Next {
            Next::Player(self.mover)
        }
        fn mover(&self) -> Side {
            self.mover
        }
        fn legal_moves(&self, buf: &mut MoveBuf<u64>) {
            buf.clear();
        }
        fn play(&mut self, to: u64) {
            self.since_capture = if to == 0 { 0 } else { self.since_capture + 1 };
            self.at = to;
            self.mover = !self.mover;
        }
        fn resolve(&mut self, c: NoChance) {
            match c {}
        }
        fn hash(&self) -> u64 {
            self.at << 1 | self.mover.index() as u64
        }
        fn repetition(&self) -> RepetitionRule {
            self.rule
        }
        fn reversible_plies(&self) -> usize {
            self.since_capture
        }
        fn judge_cycle(cycle: &[Self]) -> Outcome {
            // The seat that moved into square 7 within the cycle loses.
            match cycle.windows(2).find(|w| w[1].at == 7) {
                Some(w) => Outcome::loss(w[0].mover, Reason::PerpetualChase),
                None => Outcome::draw(Reason::Repetition),
            }
        }
    }

    fn history(rule: RepetitionRule, moves: &[u64]) -> Vec<Walk> {
        let mut p = Walk { at: 1, mover: Side::First, since_capture: 0, rule };
        let mut out = vec![p.clone()];
        for &m in moves {
            p.play(m);
            out.push(p.clone());
        }
        out
    }

    #[test]
    fn a_draw_rule_acts_on_its_occurrence() {
        let rule = RepetitionRule::Draw { occurrence: 3 };
        let h = history(rule, &[2, 1, 2, 1]);
        assert_eq!(verdict(&h), Some(Outcome::draw(Reason::Repetition)));
        assert_eq!(verdict(&h[..4]), None);
    }

    #[test]
    fn a_losing_rule_blames_the_seat_that_repeated() {
        let rule = RepetitionRule::Loses { occurrence: 3 };
        let h = history(rule, &[2, 1, 2, 1]);
        // Seats alternate: plies 1 and 3 are the first seat's, 2 and 4 the second's, and
        // ply 4 made the third occurrence.
        assert_eq!(verdict(&h), Some(Outcome::loss(Side::Second, Reason::Repetition)));
    }

    #[test]
    fn positions_before_an_irreversible_move_do_not_count() {
        let rule = RepetitionRule::Draw { occurrence: 3 };
        // A capture (to 0) between the occurrences of square 2.
        let h = history(rule, &[2, 1, 0, 1, 2, 1, 2, 1]);
        let occ = occurrences(&h);
        assert_eq!(occ.count, 3);
        assert_eq!(occ.first, 4);
        let h = history(rule, &[2, 1, 2, 0, 2, 1]);
        assert_eq!(occurrences(&h).count, 1);
    }

    #[test]
    fn a_judged_rule_hands_the_cycle_to_the_game() {
        let rule = RepetitionRule::Judged { occurrence: 3 };
        let h = history(rule, &[7, 1, 7, 1]);
        assert_eq!(verdict(&h), Some(Outcome::loss(Side::First, Reason::PerpetualChase)));
        let h = history(rule, &[2, 1, 2, 1]);
        assert_eq!(verdict(&h), Some(Outcome::draw(Reason::Repetition)));
    }

    #[test]
    fn an_off_rule_never_acts() {
        let h = history(RepetitionRule::Off, &[2, 1, 2, 1, 2, 1]);
        assert_eq!(verdict(&h), None);
        assert_eq!(occurrences(&h).count, 4);
    }
}
