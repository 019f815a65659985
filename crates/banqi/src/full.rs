//! The omniscient position: the public position plus the identity of every face-down piece.
//! For tests, local games, deals from a seed and finished-game archives; never for a client.

use crate::bfen::{FenError, Setup, hidden_order};
use crate::hash;
use crate::moves::Move;
use crate::options::Options;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

/// A public [`Position`] together with the hidden identities of its face-down pieces
/// (the deal). It implements [`cannonade_core::Rules`] with flips resolved at once from the
/// deal, so it has no chance nodes (the fixed-deal perft of E13 uses it).
///
/// [`FullPosition::redact`] is the one way to the public position.
#[derive(Clone, PartialEq, Eq)]
pub struct FullPosition {
    public: Position,
    /// Piece index + 1 under each face-down square, 0 elsewhere.
    hidden: [u8; 32],
    hash: u64,
}

impl FullPosition {
    /// A full position from a public one (without a pending flip) and the identity of each
    /// face-down square; the identities must be exactly the pool.
    pub fn new(public: Position, identities: &[(Square, Piece)]) -> Result<FullPosition, FenError> {
        if public.pending.is_some() {
            return Err(FenError::PendingFlip("a full position has no pending flip".into()));
        }
        let mut hidden = [0u8; 32];
        let mut counts = [0u8; 14];
        for &(sq, p) in identities {
            if public.down & sq.bit() == 0 || hidden[sq.index()] != 0 {
                return Err(FenError::HiddenCount {
                    letters: identities.len(),
                    face_down: public.face_down_count() as usize,
                });
            }
            hidden[sq.index()] = p.index() as u8 + 1;
            counts[p.index()] += 1;
        }
        if identities.len() != public.face_down_count() as usize {
            return Err(FenError::HiddenCount {
                letters: identities.len(),
                face_down: public.face_down_count() as usize,
            });
        }
        if let Some(p) =
            Piece::ALL.into_iter().find(|p| counts[p.index()] != public.pool[p.index()])
        {
            return Err(FenError::HiddenNotPool(p.letter()));
        }
        let mut full = FullPosition { public, hidden, hash: 0 };
        full.hash = full.compute_hash();
        Ok(full)
    }

    /// Reads a full BFEN (9.3): the five public fields and the hidden field (`-` when nothing
    /// is face down), with the default options.
    ///
    /// ```
    /// use cannonade_banqi::FullPosition;
    /// let f = FullPosition::from_fen("8/2n5/2R5/7X r P1 7 80 P").unwrap();
    /// assert_eq!(f.redact().fen(), "8/2n5/2R5/7X r P1 7 80");
    /// ```
    pub fn from_fen(text: &str) -> Result<FullPosition, FenError> {
        FullPosition::from_fen_with(text, Options::STANDARD)
    }

    /// [`FullPosition::from_fen`] under the given options.
    pub fn from_fen_with(text: &str, options: Options) -> Result<FullPosition, FenError> {
        let setup = Setup::parse(text)?;
        let public = setup.validate(options)?;
        let Some(field) = setup.extra.as_deref() else {
            return Err(FenError::MissingHidden);
        };
        let letters: Vec<Piece> = if field == "-" {
            Vec::new()
        } else {
            field
                .chars()
                .map(|c| Piece::from_letter(c).ok_or(FenError::HiddenChar(c)))
                .collect::<Result<_, _>>()?
        };
        let order: Vec<usize> = hidden_order(public.down).collect();
        if letters.len() != order.len() {
            return Err(FenError::HiddenCount { letters: letters.len(), face_down: order.len() });
        }
        let ids: Vec<(Square, Piece)> =
            order.iter().zip(&letters).map(|(&sq, &p)| (Square::ALL[sq], p)).collect();
        FullPosition::new(public, &ids)
    }

    /// The full BFEN: the public fields and the hidden identities.
    pub fn fen(&self) -> String {
        let hidden: String = hidden_order(self.public.down)
            .filter_map(|sq| self.identity(Square::ALL[sq]))
            .map(|p| p.letter())
            .collect();
        let hidden = if hidden.is_empty() { "-".to_string() } else { hidden };
        format!("{} {}", self.public.fen_fields(), hidden)
    }

    /// The public position: everything but the deal. The only way from the omniscient state
    /// to what players, spectators and AI may see.
    pub fn redact(&self) -> Position {
        self.public.clone()
    }

    /// The public position, borrowed.
    pub fn public(&self) -> &Position {
        &self.public
    }

    /// The hidden identity of the piece on `sq`, if it is face down.
    pub fn identity(&self, sq: Square) -> Option<Piece> {
        match self.hidden[sq.index()] {
            0 => None,
            n => Some(Piece::ALL[(n as usize - 1) % 14]),
        }
    }

    /// The standard start with the 32 pieces dealt in square order `a1`…`h4`.
    pub fn from_deal(deal: &[Piece; 32]) -> Result<FullPosition, FenError> {
        FullPosition::new(
            Position::startpos(),
            &Square::ALL.into_iter().zip(*deal).collect::<Vec<_>>(),
        )
    }

    pub(crate) fn hash_value(&self) -> u64 {
        self.hash
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = self.public.compute_hash();
        for (sq, &n) in self.hidden.iter().enumerate() {
            if n != 0 {
                h ^= hash::hidden(sq, n as usize - 1);
            }
        }
        h
    }

    /// Plays a legal move; a flip reveals the dealt piece at once.
    pub(crate) fn apply(&mut self, mv: Move) {
        if mv.is_flip() {
            let sq = mv.from().index();
            if let Some(p) = self.identity(mv.from()) {
                self.hash ^= self.public.hash ^ hash::hidden(sq, p.index());
                self.hidden[sq] = 0;
                self.public.reveal_at(sq as u8, p);
                self.hash ^= self.public.hash;
            }
        } else {
            self.hash ^= self.public.hash;
            self.public.apply(mv);
            self.hash ^= self.public.hash;
        }
    }

    /// The options the game is played with.
    pub fn options(&self) -> Options {
        self.public.options
    }

    /// The same position under other options.
    pub fn with_options(mut self, options: Options) -> FullPosition {
        self.public.options = options;
        self
    }

    /// A readable board; face-down pieces show their identity marked with `'`.
    pub fn pretty(&self) -> String {
        self.public.pretty_with(|sq| self.identity(Square::ALL[sq & 31]))
    }
}

impl std::fmt::Debug for FullPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FullPosition({:?}, {})", self.fen(), self.public.options)
    }
}
