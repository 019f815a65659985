//! Commander Chess under a scored format (rules §13.3), as the search plays it: the position
//! with the armies the game began with and the format, so that the search ends a line where
//! the format ends the game (an objective in the tactical game, a draw rule decided on
//! points) and values the points already scored, which decide those games.

use crate::Evaluate;
use crate::nnue::Accumulator;
use crate::params::SCORED_POINT_CP;
use cannonade_commander::points::{Armies, Format, judge_position};
use cannonade_commander::{Move, Position};
use cannonade_core::{MoveBuf, Next, NoChance, Outcome, Reason, RepetitionRule, Rules, Side};
use cannonade_games::AnyGame;

/// A Commander Chess position of a game played under a scored [`Format`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pos: Position,
    start: Armies,
    format: Format,
}

impl Scored {
    /// `pos`, in a game that began with `start` and is decided by `format`.
    pub fn new(pos: Position, start: Armies, format: Format) -> Scored {
        Scored { pos, start, format }
    }
}

impl From<Scored> for AnyGame {
    fn from(s: Scored) -> AnyGame {
        AnyGame::Commander(s.pos)
    }
}

impl Rules for Scored {
    type Move = Move;
    type Chance = NoChance;

    fn next(&self) -> Next {
        judge_position(&self.start, &self.pos, self.pos.next(), self.format, false).next
    }

    fn mover(&self) -> Side {
        self.pos.mover()
    }

    fn legal_moves(&self, buf: &mut MoveBuf<Move>) {
        self.pos.legal_moves(buf)
    }

    fn count_legal(&self) -> u64 {
        self.pos.count_legal()
    }

    fn play(&mut self, mv: Move) {
        self.pos.play(mv)
    }

    fn resolve(&mut self, outcome: NoChance) {
        match outcome {}
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn repetition(&self) -> RepetitionRule {
        self.pos.repetition()
    }

    fn reversible_plies(&self) -> usize {
        self.pos.reversible_plies()
    }

    fn same_position(&self, other: &Scored) -> bool {
        self.pos.same_position(&other.pos)
    }
}

impl Scored {
    /// What the points scored so far are worth to the side to move.
    fn points_lead(&self) -> i32 {
        let us = self.pos.turn();
        let points = self.pos.points();
        SCORED_POINT_CP * (points[us] as i32 - points[1 - us] as i32)
    }
}

impl Evaluate for Scored {
    /// The standard position's: its network, when it plays by one, sees the board alone.
    type Acc = Accumulator;

    const MOVE_INDEXES: usize = <Position as Evaluate>::MOVE_INDEXES;
    const NODE_RATE: u32 = <Position as Evaluate>::NODE_RATE;

    /// The standard evaluation plus the points lead, which the format will count. The
    /// points as played: a mated position is judged by [`Rules::next`] before any evaluation,
    /// so the test for mate (a move generation) is not repeated at every leaf.
    fn evaluate(&self) -> i32 {
        self.pos.evaluate() + self.points_lead()
    }

    fn refresh(&self, acc: &mut Accumulator) {
        self.pos.refresh(acc);
    }

    fn update(&self, child: &Scored, mv: Move, acc: &Accumulator, out: &mut Accumulator) {
        self.pos.update(&child.pos, mv, acc, out);
    }

    fn evaluate_with(&self, acc: &Accumulator) -> i32 {
        self.pos.evaluate_with(acc) + self.points_lead()
    }

    fn move_index(&self, mv: Move) -> usize {
        self.pos.move_index(mv)
    }

    fn tactical_value(&self, mv: Move) -> Option<i32> {
        self.pos.tactical_value(mv)
    }

    fn tactical_moves(&self, buf: &mut MoveBuf<Move>) {
        self.pos.tactical_moves(buf)
    }

    fn losing_capture(&self, mv: Move) -> bool {
        self.pos.losing_capture(mv)
    }

    fn in_check(&self) -> bool {
        Evaluate::in_check(&self.pos)
    }

    fn null_move(&self) -> Option<Scored> {
        let pos = self.pos.null_move()?;
        Some(Scored { pos, ..self.clone() })
    }

    /// Both scored formats decide a game that a draw rule ends on points.
    fn drawn(&self, reason: Reason) -> Outcome {
        let base = Next::Over(Outcome::draw(reason));
        match judge_position(&self.start, &self.pos, base, self.format, false).next {
            Next::Over(o) => o,
            _ => Outcome::draw(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_commander::points::judge_format;
    use cannonade_core::Record;

    /// Red's tank beside Blue's only Navy (from the rules crate's tests).
    const SEA: &str = "9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1";

    fn scored(record: &Record<Position>, format: Format) -> Scored {
        Scored::new(record.position().clone(), Armies::of(record.start()), format)
    }

    /// Random games from the start: wherever the standard rules judge the position as its
    /// record does (no repetition), the search's judgement under each format is the rules
    /// crate's judgement of the whole record.
    #[test]
    fn the_search_judges_each_format_as_the_rules_do() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut ended = 0;
        for _game in 0..12 {
            let mut record =
                Record::new(Position::from_fen(cannonade_commander::START_FEN).unwrap());
            let mut buf = MoveBuf::new();
            for _ply in 0..300 {
                let pos = record.position().clone();
                if record.next() == pos.next() {
                    for format in [Format::Standard, Format::Tactical, Format::FullForce] {
                        let verdict = judge_format(&record, format, false).next;
                        assert_eq!(scored(&record, format).next(), verdict, "{}", pos.fen());
                    }
                }
                if judge_format(&record, Format::Tactical, false).next != pos.next() {
                    ended += 1;
                }
                if !matches!(record.next(), Next::Player(_)) {
                    break;
                }
                pos.legal_moves(&mut buf);
                // Captures first, so that games reach objectives.
                let captures: Vec<Move> = buf.iter().copied().filter(|m| m.is_capture()).collect();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = |list: &[Move]| list[(seed % list.len() as u64) as usize];
                let mv = if !captures.is_empty() && !seed.is_multiple_of(3) {
                    pick(&captures)
                } else {
                    pick(buf.as_slice())
                };
                record.play(mv);
            }
        }
        assert!(ended > 0, "no game reached a tactical ending");
    }

    /// Full force: a repetition is decided on points; the standard game draws it.
    #[test]
    fn a_draw_rule_is_decided_on_points_in_a_scored_format() {
        let mut record = Record::new(Position::from_fen(SEA).unwrap());
        let take = record.position().parse_move("Tc4_a4").unwrap();
        record.play(take);
        let red_wins = Outcome::win(Side::First, Reason::Points);
        assert_eq!(scored(&record, Format::FullForce).drawn(Reason::Repetition), red_wins);
        assert_eq!(
            scored(&record, Format::Standard).drawn(Reason::Repetition),
            Outcome::draw(Reason::Repetition)
        );
        // The tactical game is already over: the sea objective.
        assert_eq!(scored(&record, Format::Tactical).next(), Next::Over(red_wins));
        assert_eq!(scored(&record, Format::FullForce).next(), Next::Player(Side::Second));
    }

    /// The points lead counts in a scored format's evaluation, for the side to move.
    #[test]
    fn the_points_lead_is_valued() {
        let mut record = Record::new(Position::from_fen(SEA).unwrap());
        let take = record.position().parse_move("Tc4_a4").unwrap();
        record.play(take);
        let plain = record.position().evaluate();
        let full = scored(&record, Format::FullForce).evaluate();
        assert_eq!(full, plain - 80 * SCORED_POINT_CP);
    }
}
