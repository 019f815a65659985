//! Xiangqi under the core [`Rules`] trait, and move checking.

use crate::{Colour, MOVE_LIMIT, Move, MoveError, Position, Ranks, UciMove};
use cannonade_core::{MoveBuf, Next, NoChance, Outcome, Reason, Record, Rules, Side};

impl Rules for Position {
    type Move = Move;
    type Chance = NoChance;

    fn next(&self) -> Next {
        if let Some(o) = self.no_move_outcome() {
            return Next::Over(o);
        }
        self.draw_by_position().map_or(Next::Player(self.side.side()), Next::Over)
    }

    fn mover(&self) -> Side {
        self.side.side()
    }

    fn legal_moves(&self, buf: &mut MoveBuf<Move>) {
        self.legal_moves_into(buf);
    }

    fn count_legal(&self) -> u64 {
        self.count_legal_moves()
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn resolve(&mut self, outcome: NoChance) {
        match outcome {}
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition(&self) -> cannonade_core::RepetitionRule {
        self.options.repetition.core()
    }

    /// Plies since the last capture: a capture cannot be undone.
    fn reversible_plies(&self) -> usize {
        self.halfmove as usize
    }

    fn same_position(&self, other: &Position) -> bool {
        self.same_placement(other)
    }

    /// The `asian` rule's judgement of a cycle (rules §6): perpetual check, then perpetual
    /// chase, loses; anything else is a draw.
    fn judge_cycle(cycle: &[Position]) -> Outcome {
        crate::judge::asian_verdict(cycle)
    }

    /// Order of the rules: checkmate, stalemate, repetition (seed or asian), the 120-ply
    /// no-capture draw, dead material.
    fn adjudicate(record: &Record<Self>) -> Next {
        let pos = record.position();
        if let Some(o) = pos.no_move_outcome() {
            return Next::Over(o);
        }
        if let Some(o) = cannonade_core::repetition::verdict(record.positions()) {
            return Next::Over(o);
        }
        pos.draw_by_position().map_or(Next::Player(pos.side.side()), Next::Over)
    }
}

impl Position {
    /// Checkmate or stalemate (both lose for the side to move).
    fn no_move_outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() > 0 {
            return None;
        }
        let reason = if self.in_check() { Reason::Checkmate } else { Reason::Stalemate };
        Some(Outcome::loss(self.side.side(), reason))
    }

    /// The 120-ply no-capture draw, then the dead-material draw.
    fn draw_by_position(&self) -> Option<Outcome> {
        if self.halfmove >= MOVE_LIMIT {
            Some(Outcome::draw(Reason::MoveLimit))
        } else if self.dead_material() {
            Some(Outcome::draw(Reason::DeadMaterial))
        } else {
            None
        }
    }

    /// Checks a coordinate move against this position.
    pub fn check_move(&self, m: UciMove) -> Result<Move, MoveError> {
        match self.piece_at(m.from) {
            Some(p) if p.colour == self.side => {}
            _ => return Err(MoveError::NoPiece(m.from)),
        }
        if self.is_legal(m.from, m.to) {
            Ok(Move::new(m.from.index(), m.to.index()))
        } else {
            Err(MoveError::Illegal(m.to_text(Ranks::FromZero)))
        }
    }

    /// Reads a coordinate move (`h2e2`, `H2-E2`) and checks it.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_in(text, Ranks::FromZero)
    }

    /// Reads a coordinate move in the given rank numbering and checks it.
    pub fn parse_move_in(&self, text: &str, ranks: Ranks) -> Result<Move, MoveError> {
        self.check_move(UciMove::parse(text, ranks)?)
    }

    /// The canonical text of a move (`h2e2`).
    pub fn move_to_string(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// The colour that plays from a seat.
    pub fn colour_of(side: Side) -> Colour {
        Colour::of_side(side)
    }

    /// A board diagram: Black at the top, files and ranks labelled, FEN letters.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for rank in (0..10u8).rev() {
            s.push_str(&format!("{rank} "));
            for file in 0..9u8 {
                let sq = crate::Square::from_index(rank * 9 + file);
                s.push(' ');
                s.push(self.piece_at(sq).map_or('.', |p| p.fen_char()));
            }
            s.push('\n');
            if rank == 5 {
                s.push_str("   ~~~~~~~~~~~~~~~~~\n");
            }
        }
        s.push_str("   a b c d e f g h i\n");
        s.push_str(&format!("Fen: {}\nKey: {:016x}\n", self.fen(), self.hash));
        if self.in_check() {
            s.push_str("Check\n");
        }
        s
    }
}
