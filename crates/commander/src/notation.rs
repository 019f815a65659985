//! Turn notation (section 14.3): the canonical writer, a strict reader with typed errors,
//! the peer's short form (14.4) accepted when unambiguous, and a readable board.
//!
//! Reading is in two stages: the text becomes a syntactic turn (unit kinds, points,
//! operations), then the turn is played step by step against the position with the same
//! ray procedure as the generator. A turn that reaches the same position as another (other
//! step order, or another unit firing the same stay capture) reads as the canonical
//! [`Move`] of that position. `+` marks in move text are informational and not compared.

use crate::attacks::Providers;
use crate::board::{FILES, GRID, NPOINTS, TERRAIN, Terrain, file, name, rank};
use crate::fen::unit_text;
use crate::movegen::{Opts, generate, generate_from, unit_steps};
use crate::moves::{Move, Op, Step};
use crate::piece::{Kind, LEGAL, bit, carrier, colour, heroes, kinds, sub_unit};
use crate::position::{Board, Position};
use std::fmt;

/// Why a turn text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text does not follow the grammar; the message says what was expected.
    Syntax(&'static str),
    /// No unit stands on the named point.
    NoUnit(String),
    /// The unit on the named point belongs to the side not to move.
    NotYours(String),
    /// The unit written is not the unit (or, for a whole move, not the whole stack) standing
    /// on the named point.
    UnitMismatch(String),
    /// Step `n` (from 1) names pieces not (or no longer) free on the stack point, or a group
    /// that is not a legal stack.
    BadGroup(usize),
    /// Step `n` (from 1) cannot go there that way.
    NotAllowed(usize),
    /// More than three steps.
    TooManySteps,
    /// The pieces left on the stack point may not stand there.
    CannotStay,
    /// The pieces written as staying are not those left.
    StayMismatch,
    /// The turn would leave the own Commander attacked or facing the enemy Commander.
    CommanderInDanger,
    /// A short form matches no legal turn.
    NoSuchMove,
    /// A short form matches several turns with different results.
    Ambiguous,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(what) => write!(f, "syntax: {what}"),
            MoveError::NoUnit(p) => write!(f, "no unit on {p}"),
            MoveError::NotYours(p) => write!(f, "the unit on {p} is not the mover's"),
            MoveError::UnitMismatch(p) => write!(f, "the unit written is not the one on {p}"),
            MoveError::BadGroup(n) => write!(f, "step {n}: not a free legal group of the stack"),
            MoveError::NotAllowed(n) => write!(f, "step {n} is not a legal move"),
            MoveError::TooManySteps => write!(f, "more than three steps"),
            MoveError::CannotStay => write!(f, "the pieces left may not stand on the stack point"),
            MoveError::StayMismatch => {
                write!(f, "the pieces written as staying are not those left")
            }
            MoveError::CommanderInDanger => {
                write!(f, "the own Commander would be attacked or exposed")
            }
            MoveError::NoSuchMove => write!(f, "no legal turn matches"),
            MoveError::Ambiguous => write!(f, "several turns match"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A small cursor over the turn text.
struct Cur<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cur<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn done(&self) -> bool {
        self.i >= self.b.len()
    }

    /// A unit text: kinds set (heroic marks skipped).
    fn unit(&mut self) -> Result<u16, MoveError> {
        let stacked = self.eat(b'(');
        let mut k = 0u16;
        loop {
            self.eat(b'+');
            let c = self.peek().ok_or(MoveError::Syntax("a piece letter"))?;
            let kind = Kind::from_letter(c as char)
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or(MoveError::Syntax("a piece letter"))?;
            self.i += 1;
            if k & kind.bit() != 0 {
                return Err(MoveError::Syntax("a piece twice in one unit"));
            }
            k |= kind.bit();
            if !stacked || self.eat(b')') {
                break;
            }
        }
        if !LEGAL[k as usize] {
            return Err(MoveError::Syntax("a legal stack"));
        }
        Ok(k)
    }

    fn point(&mut self) -> Option<u8> {
        let (p, used) = GRID.parse_prefix(&self.b[self.i..], 1)?;
        // Point names are lower case.
        if !self.b[self.i].is_ascii_lowercase() {
            return None;
        }
        self.i += used;
        Some(p)
    }

    fn op(&mut self) -> Op {
        for (c, op) in
            [(b'x', Op::Capture), (b'_', Op::Stay), (b'@', Op::Kamikaze), (b'&', Op::Combine)]
        {
            if self.eat(c) {
                return op;
            }
        }
        Op::Move
    }

    /// The steps of a deploy: `<unit>><op><to>` separated by commas.
    fn steps(&mut self) -> Result<Vec<(u16, Op, u8)>, MoveError> {
        let mut v = Vec::new();
        loop {
            let g = self.unit()?;
            if !self.eat(b'>') {
                return Err(MoveError::Syntax("'>' after the unit of a deploy step"));
            }
            let op = self.op();
            let to = self.point().ok_or(MoveError::Syntax("a destination point"))?;
            v.push((g, op, to));
            if !self.eat(b',') {
                break;
            }
        }
        if !self.done() {
            return Err(MoveError::Syntax("end of the turn"));
        }
        if v.len() > 3 {
            return Err(MoveError::TooManySteps);
        }
        Ok(v)
    }
}

/// How the start point of a whole move is given.
enum Disamb {
    None,
    File(u8),
    Rank(u8),
    Point(u8),
}

impl Position {
    /// The canonical text of a legal turn (section 14.3).
    pub fn move_to_string(&self, mv: Move) -> String {
        let b = &self.b;
        let from = mv.from;
        let here = b.units[from as usize];
        let steps = mv.steps();
        if steps.len() == 1 && steps[0].group == kinds(here) {
            let st = steps[0];
            return format!(
                "{}{}{}{}",
                unit_text(here, true),
                name(from),
                st.op.text(),
                name(st.to)
            );
        }
        let mut nb = b.clone();
        let mut parts = Vec::with_capacity(steps.len());
        for st in steps {
            let g = sub_unit(nb.units[from as usize], st.group);
            parts.push(format!("{}>{}{}", unit_text(g, true), st.op.text(), name(st.to)));
            nb.step(from, st.group, st.to, st.op);
            nb.promote(self.turn);
        }
        let left = nb.units[from as usize];
        let stay = if left == 0 { String::new() } else { unit_text(left, true) };
        format!("{}:{}:{}", name(from), stay, parts.join(","))
    }

    /// Reads a turn in the notation of section 14.3, or the peer's short form of 14.4 when it
    /// names exactly one resulting position, and checks it.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let mut c = Cur { b: text.as_bytes(), i: 0 };
        if text.contains(':') {
            let from = c.point().ok_or(MoveError::Syntax("the stack point"))?;
            if !c.eat(b':') {
                return Err(MoveError::Syntax("':' after the stack point"));
            }
            let stay = if c.eat(b':') {
                Some(0)
            } else {
                let k = c.unit()?;
                if !c.eat(b':') {
                    return Err(MoveError::Syntax("':' after the staying unit"));
                }
                Some(k)
            };
            let steps = c.steps()?;
            let (mv, nb) = self.simulate(from, &steps, stay)?;
            return self.canonical(mv, &nb);
        }
        if let Some(lt) = text.find('<') {
            // Peer short deploy `<stay><<steps>`: try every stack of the mover.
            let stay = if lt == 0 { 0 } else { c.unit()? };
            if !c.eat(b'<') {
                return Err(MoveError::Syntax("'<' after the staying unit"));
            }
            let steps = c.steps()?;
            let found: Vec<(Move, Board)> = self.b.occ[self.turn]
                .iter()
                .filter(|&p| kinds(self.b.units[p as usize]).count_ones() > 1)
                .filter_map(|p| self.simulate(p, &steps, Some(stay)).ok())
                .collect();
            return self.pick(found);
        }
        let k = c.unit()?;
        let mut dis = Disamb::None;
        let save = c.i;
        if let Some(p) = c.point() {
            if c.done() {
                c.i = save;
            } else {
                dis = Disamb::Point(p);
            }
        }
        if matches!(dis, Disamb::None) {
            match c.peek() {
                Some(ch @ b'a'..=b'k') if !c.b.get(c.i + 1).is_some_and(|x| x.is_ascii_digit()) => {
                    c.i += 1;
                    dis = Disamb::File(ch - b'a');
                }
                Some(b'1'..=b'9') => {
                    let start = c.i;
                    while c.peek().is_some_and(|x| x.is_ascii_digit()) {
                        c.i += 1;
                    }
                    let r: u8 =
                        text[start..c.i].parse().map_err(|_| MoveError::Syntax("a rank"))?;
                    if !(1..=12).contains(&r) {
                        return Err(MoveError::Syntax("a rank 1-12"));
                    }
                    dis = Disamb::Rank(r - 1);
                }
                _ => {}
            }
        }
        let op = c.op();
        let to = c.point().ok_or(MoveError::Syntax("a destination point"))?;
        if !c.done() {
            return Err(MoveError::Syntax("end of the turn"));
        }
        if let Disamb::Point(from) = dis {
            let here = self.check_owner(from)?;
            if kinds(here) != k {
                return Err(MoveError::UnitMismatch(name(from)));
            }
            let (mv, nb) = self.simulate(from, &[(k, op, to)], None)?;
            return self.canonical(mv, &nb);
        }
        let found: Vec<(Move, Board)> = self.b.occ[self.turn]
            .iter()
            .filter(|&p| kinds(self.b.units[p as usize]) == k)
            .filter(|&p| match dis {
                Disamb::File(f) => file(p) == f,
                Disamb::Rank(r) => rank(p) == r,
                _ => true,
            })
            .filter_map(|p| self.simulate(p, &[(k, op, to)], None).ok())
            .collect();
        self.pick(found)
    }

    /// The one result among `found` (several turns with one result are fine).
    fn pick(&self, found: Vec<(Move, Board)>) -> Result<Move, MoveError> {
        let Some((mv, nb)) = found.first() else {
            return Err(MoveError::NoSuchMove);
        };
        if found.iter().any(|(_, o)| o.units != nb.units) {
            return Err(MoveError::Ambiguous);
        }
        self.canonical(*mv, nb)
    }

    fn check_owner(&self, from: u8) -> Result<u32, MoveError> {
        let here = self.b.units[from as usize];
        if here == 0 {
            return Err(MoveError::NoUnit(name(from)));
        }
        if colour(here) != self.turn {
            return Err(MoveError::NotYours(name(from)));
        }
        Ok(here)
    }

    /// Plays the steps from `from` on a copy of the board, checking each against the ray
    /// procedure, then the end-of-turn conditions.
    fn simulate(
        &self,
        from: u8,
        steps: &[(u16, Op, u8)],
        stay: Option<u16>,
    ) -> Result<(Move, Board), MoveError> {
        let here = self.check_owner(from)?;
        let full = kinds(here);
        let mut free = full;
        let mut b = self.b.clone();
        let mut mv = Move::new(from);
        if steps.len() > 3 {
            return Err(MoveError::TooManySteps);
        }
        for (i, &(g, op, to)) in steps.iter().enumerate() {
            if g == 0 || g & !free != 0 || !LEGAL[g as usize] {
                return Err(MoveError::BadGroup(i + 1));
            }
            let u = sub_unit(b.units[from as usize], g);
            let air = if carrier(g) == Kind::AirForce && heroes(u) & bit::F == 0 {
                Providers::of(&b, 1 - self.turn).map()
            } else {
                [0; NPOINTS]
            };
            let mut opts = Opts::new();
            unit_steps(&b, from, u, i == 0 && g == full, &air, &mut opts);
            if !opts.as_slice().contains(&(to, op)) {
                return Err(MoveError::NotAllowed(i + 1));
            }
            b.step(from, g, to, op);
            b.promote(self.turn);
            free &= !g;
            mv.push(Step { group: g, to, op });
        }
        if stay.is_some_and(|s| s != kinds(b.units[from as usize])) {
            return Err(MoveError::StayMismatch);
        }
        if !b.stands(from) {
            return Err(MoveError::CannotStay);
        }
        if !b.safe(self.turn) {
            return Err(MoveError::CommanderInDanger);
        }
        Ok((mv, b))
    }

    /// The listed turn that reaches the same position as `mv` (which reached `nb`).
    fn canonical(&self, mv: Move, nb: &Board) -> Result<Move, MoveError> {
        let mut out = None;
        let steps = mv.steps();
        if steps.len() == 1 && steps[0].op == Op::Stay {
            generate(self, |m| {
                let hit = m.len == 1 && m.steps[0].op == Op::Stay && m.steps[0].to == steps[0].to;
                if hit {
                    out = Some(m);
                }
                hit
            });
        } else {
            let mut list = Vec::new();
            generate_from(self, Some(mv.from), |m| {
                list.push(m);
                m == mv
            });
            if list.last() == Some(&mv) {
                return Ok(mv);
            }
            out = list.into_iter().find(|&m| {
                let mut p = self.clone();
                p.apply(m);
                p.b.units == nb.units
            });
        }
        out.ok_or(MoveError::NoSuchMove)
    }

    /// The turn as people read it in a move list: each piece or stack that acts, written in
    /// upper case whatever its side (no heroic marks: the board shows them), its point, a
    /// sign for what it does and its target. `–` moves, `×` captures and moves there,
    /// `(×e8)` captures from where it stands (shot or bombing), `×e6†` is a kamikaze, `&`
    /// joins a friendly unit. A deploy lists its steps in order, each from the stack's
    /// point, and leaves out the pieces that stay: `Tf4–f6` (the Militia stays on f4),
    /// `Te4×e6, Ie4–e5`. A whole stack moves as one: `(TI)e4–e6`. Read back by
    /// [`Position::parse_display`].
    pub fn display(&self, mv: Move) -> String {
        let from = mv.from;
        let mut nb = self.b.clone();
        let mut parts = Vec::with_capacity(3);
        for st in mv.steps() {
            let unit =
                unit_text(sub_unit(nb.units[from as usize], st.group), true).replace('+', "");
            let (at, to) = (name(from), name(st.to));
            parts.push(match st.op {
                Op::Move => format!("{unit}{at}\u{2013}{to}"),
                Op::Capture => format!("{unit}{at}\u{d7}{to}"),
                Op::Stay => format!("{unit}{at}(\u{d7}{to})"),
                Op::Kamikaze => format!("{unit}{at}\u{d7}{to}\u{2020}"),
                Op::Combine => format!("{unit}{at}&{to}"),
            });
            nb.step(from, st.group, st.to, st.op);
            nb.promote(self.turn);
        }
        parts.join(", ")
    }

    /// Reads a turn written as [`Position::display`] writes it: the one legal turn with that
    /// text (spaces around the commas do not matter).
    pub fn parse_display(&self, text: &str) -> Result<Move, MoveError> {
        let want: String = text.split(',').map(str::trim).collect::<Vec<_>>().join(", ");
        let mut found = None;
        let mut ambiguous = false;
        generate(self, |m| {
            if self.display(m) == want {
                ambiguous |= found.replace(m).is_some();
            }
            ambiguous
        });
        match (found, ambiguous) {
            (_, true) => Err(MoveError::Ambiguous),
            (Some(m), false) => Ok(m),
            (None, false) => Err(MoveError::NoSuchMove),
        }
    }

    /// A readable board (rank 12 at the top), the side to move and the FEN.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for r in (0..12u8).rev() {
            s.push_str(&format!("{:>3} ", r + 1));
            for f in 0..FILES {
                let p = r * FILES + f;
                let u = self.b.units[p as usize];
                let cell = if u == 0 {
                    match TERRAIN[p as usize] {
                        Terrain::Water => "~".to_string(),
                        Terrain::Mixed => ":".to_string(),
                        Terrain::Land => ".".to_string(),
                    }
                } else {
                    unit_text(u, colour(u) == 0)
                };
                s.push_str(&format!("{cell:^6}"));
            }
            s.push('\n');
            if r == 6 {
                s.push_str("    ~~~~~~~~~~~~~~~~~~~~~~~~~~~|~~~~~~~~~~~|~~~~~~~~~~~~~~~~~~~~~~\n");
            }
        }
        s.push_str("    ");
        for f in 0..FILES {
            s.push_str(&format!("{:^6}", (b'a' + f) as char));
        }
        s.push('\n');
        s.push_str(if self.turn == 0 { "Red to move\n" } else { "Blue to move\n" });
        s.push_str(&self.fen());
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod display_tests {
    use super::*;
    use cannonade_core::{MoveBuf, Rules};

    fn legal(p: &Position) -> Vec<Move> {
        let mut buf = MoveBuf::new();
        p.legal_moves(&mut buf);
        buf.iter().copied().collect()
    }

    /// Every legal turn's display text reads back as that turn, in the start position, the
    /// stack positions of section 15.2 and along a deterministic playout.
    #[test]
    fn every_legal_turn_round_trips_through_its_display_text() {
        let fens = [
            "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1",
            "9c1/11/9im/11/11/11/4i6/11/4(TI)6/9IM/11/10C r - - 0 1",
        ];
        let mut positions: Vec<Position> =
            fens.iter().map(|f| Position::from_fen(f).unwrap()).collect();
        let mut p = Position::startpos();
        for ply in 0..40 {
            positions.push(p.clone());
            let moves = legal(&p);
            let Some(&m) = moves.get(ply * 31 % moves.len().max(1)) else { break };
            p.play(m);
        }
        for p in &positions {
            for m in legal(p) {
                let text = p.display(m);
                assert_eq!(p.parse_display(&text), Ok(m), "{text} in {}", p.fen());
            }
        }
    }

    #[test]
    fn a_deploy_reads_as_its_steps_and_a_stack_as_one_unit() {
        let p =
            Position::from_fen("9c1/11/9im/11/11/11/4i6/11/4(TI)6/9IM/11/10C r - - 0 1").unwrap();
        let whole = p.parse_move("(TI)e4e5").unwrap();
        assert_eq!(p.display(whole), "(TI)e4\u{2013}e5");
        let deploy = p.parse_move("e4:I:T>xe6").unwrap();
        assert_eq!(p.display(deploy), "Te4\u{d7}e6");
        let two = p.parse_move("e4::T>xe6,I>e5").unwrap();
        assert_eq!(p.display(two), "Te4\u{d7}e6, Ie4\u{2013}e5");
        assert_eq!(p.parse_display("Te4\u{d7}e6 ,Ie4\u{2013}e5"), Ok(two));
    }

    #[test]
    fn blue_pieces_are_written_in_upper_case_and_unknown_text_is_refused() {
        let mut p = Position::startpos();
        let first = legal(&p)[0];
        p.play(first);
        let m = legal(&p)[0];
        let text = p.display(m);
        assert!(text.chars().next().unwrap().is_ascii_uppercase(), "{text}");
        assert_eq!(p.parse_display("Zz9\u{2013}a1"), Err(MoveError::NoSuchMove));
        assert_eq!(p.parse_display(""), Err(MoveError::NoSuchMove));
    }
}
