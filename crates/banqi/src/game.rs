//! Banqi at the edges ([`Game`]): the public position and the dealt one share a notation and
//! a board; only the dealt one knows what a flip reveals, and it never shows it.

use crate::notation::MoveSyntax;
use crate::{
    AnyPosition, Cell, FenError, FullPosition, Move, MoveError, Options, OptionsError, Piece,
    Position, Square, recorded_flip,
};
use cannonade_core::{Board, Game, Hidden, Layout, PieceInfo, Read};

/// The seven pieces as the legend names them (rules §2), letters as in BFEN.
const PIECES: [(char, &str); 7] = [
    ('K', "general"),
    ('A', "advisor"),
    ('B', "elephant"),
    ('R', "chariot"),
    ('N', "horse"),
    ('C', "cannon"),
    ('P', "soldier"),
];

fn board() -> Board {
    let mut board = Board::grid(Layout::Cells, 8, 4, 1);
    board.pieces = Board::legend(["red", "black"], &PIECES);
    board.pieces.push(PieceInfo {
        letter: "X".into(),
        name: "face-down".into(),
        colour: "unknown".into(),
    });
    board
}

/// What everybody sees on each square: face-up letters, `X` for a face-down piece.
fn placement(p: &Position) -> Vec<(String, String)> {
    Square::ALL
        .iter()
        .filter_map(|&sq| {
            let text = match p.cell(sq) {
                Cell::Empty => return None,
                Cell::FaceDown => "X".to_string(),
                Cell::FaceUp(piece) => piece.letter().to_string(),
            };
            Some((sq.to_string(), text))
        })
        .collect()
}

fn colours(p: &Position) -> Option<[&'static str; 2]> {
    let first = p.colour_of(cannonade_core::Side::First)?;
    Some([first.name(), first.other().name()])
}

impl Game for Position {
    const NAME: &'static str = crate::NAME;
    const TITLE: &'static str = "Banqi";

    type PositionError = FenError;
    type MoveError = MoveError;
    type OptionsError = OptionsError;
    type Public = Position;

    fn start() -> Position {
        Position::startpos()
    }

    fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen(text)
    }

    fn fen(&self) -> String {
        Position::fen(self)
    }

    fn options(&self) -> String {
        Position::options(self).to_string()
    }

    fn with_options(&self, text: &str) -> Result<Position, OptionsError> {
        Ok(self.clone().with_options(text.parse()?))
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Position::parse_move(self, text)
    }

    fn move_text(&self, mv: Move) -> String {
        self.move_to_string(mv)
    }

    fn engine_move(&self, mv: Move) -> String {
        self.move_to_compact(mv)
    }

    fn resolved_move(&self, mv: Move, outcome: Piece) -> String {
        recorded_flip(mv.from(), outcome)
    }

    fn parse_recorded(&self, text: &str) -> Result<(Move, Option<Piece>), MoveError> {
        let syntax = MoveSyntax::parse(text)?;
        let mv = self.check_syntax(&syntax, text)?;
        match syntax {
            MoveSyntax::Flip { revealed, .. } => Ok((mv, revealed)),
            MoveSyntax::Path(_) => Ok((mv, None)),
        }
    }

    fn chance_text(&self, outcome: Piece) -> String {
        outcome.letter().to_string()
    }

    fn parse_chance(&self, text: &str) -> Option<Piece> {
        let mut chars = text.chars();
        let piece = chars.next().and_then(Piece::from_letter)?;
        let possible = self.pending_flip().is_some() && self.pool_count(piece) > 0;
        (chars.next().is_none() && possible).then_some(piece)
    }

    fn pretty(&self) -> String {
        Position::pretty(self)
    }

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        colours(self)
    }

    fn board() -> Board {
        board()
    }

    fn placement(&self) -> Vec<(String, String)> {
        placement(self)
    }

    fn public(&self) -> Position {
        self.clone()
    }
}

impl Game for FullPosition {
    const NAME: &'static str = crate::NAME;
    const TITLE: &'static str = "Banqi";

    type PositionError = FenError;
    type MoveError = MoveError;
    type OptionsError = OptionsError;
    type Public = Position;

    /// The public start: a dealt game starts from a deal of its own
    /// ([`crate::deal_from_seed`]).
    fn start() -> Position {
        Position::startpos()
    }

    fn from_fen(text: &str) -> Result<FullPosition, FenError> {
        FullPosition::from_fen(text)
    }

    fn fen(&self) -> String {
        FullPosition::fen(self)
    }

    fn options(&self) -> String {
        FullPosition::options(self).to_string()
    }

    fn with_options(&self, text: &str) -> Result<FullPosition, OptionsError> {
        Ok(self.clone().with_options(text.parse()?))
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        FullPosition::parse_move(self, text)
    }

    fn move_text(&self, mv: Move) -> String {
        self.move_to_string(mv)
    }

    fn engine_move(&self, mv: Move) -> String {
        self.move_to_compact(mv)
    }

    fn recorded_move(&self, mv: Move) -> String {
        FullPosition::recorded_move(self, mv)
    }

    fn pretty(&self) -> String {
        FullPosition::pretty(self)
    }

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        colours(FullPosition::public(self))
    }

    fn board() -> Board {
        board()
    }

    /// The public placement: a face-down piece is `X` here too.
    fn placement(&self) -> Vec<(String, String)> {
        placement(FullPosition::public(self))
    }

    fn public(&self) -> Position {
        self.redact()
    }
}

impl Hidden for FullPosition {
    /// A full BFEN (six fields) gives the dealt position, a public one (five, or a pending
    /// flip `d2?` as the sixth) the public position.
    fn read(text: &str) -> Result<Read<FullPosition, Position>, FenError> {
        Ok(match AnyPosition::from_fen_with(text, Options::default())? {
            AnyPosition::Full(f) => Read::Full(f),
            AnyPosition::Public(p) => Read::Public(p),
        })
    }
}

/// Repetition for both views: rules §7 (D-7), a draw on the n-th occurrence of the same public
/// position since the last flip or capture.
pub(crate) fn repetition_rule(options: Options) -> cannonade_core::RepetitionRule {
    match options.repetition_limit {
        0 => cannonade_core::RepetitionRule::Off,
        n => cannonade_core::RepetitionRule::Draw { occurrence: n as u32 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::Rules;

    #[test]
    fn a_dealt_position_shows_face_down_pieces_as_x() {
        let seed = crate::DealSeed::from_bytes([7; 32]);
        let dealt = crate::deal_from_seed(&Position::startpos(), &seed);
        let placed = dealt.placement();
        assert_eq!(placed.len(), 32);
        assert!(placed.iter().all(|(_, t)| t == "X"));
        assert_eq!(Game::public(&dealt).fen(), Position::startpos().fen());
    }

    #[test]
    fn a_recorded_flip_reads_with_its_outcome() {
        let p = Position::startpos();
        let (mv, piece) = p.parse_recorded("d2=C").unwrap();
        assert!(mv.is_flip());
        assert_eq!(piece, Piece::from_letter('C'));
        assert_eq!(p.resolved_move(mv, Piece::from_letter('C').unwrap()), "d2=C");
        let (_, none) = p.parse_recorded("d2?").unwrap();
        assert_eq!(none, None);
    }

    #[test]
    fn only_a_pending_flip_takes_a_chance_outcome() {
        let mut p = Position::startpos();
        assert_eq!(p.parse_chance("C"), None);
        p.play(p.parse_move("d2?").unwrap());
        assert_eq!(p.parse_chance("C"), Piece::from_letter('C'));
        assert_eq!(p.parse_chance("CC"), None);
        assert_eq!(p.parse_chance("Z"), None);
    }

    #[test]
    fn either_position_text_reads() {
        let full = "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0 \
                    BpAncpaNrpRPbnPPNkCbpPrKcaPCpARB";
        assert!(matches!(FullPosition::read(full), Ok(Read::Full(_))));
        let public = Position::startpos().fen();
        assert!(matches!(FullPosition::read(&public), Ok(Read::Public(_))));
        assert!(FullPosition::read("nonsense").is_err());
    }
}
