//! Colours, piece kinds and pieces.

use cannonade_core::Side;

/// Red (moves first, uppercase in FEN, `w` in FEN) or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Red, the first player.
    Red = 0,
    /// Black, the second player.
    Black = 1,
}

impl Colour {
    /// The other colour.
    #[inline]
    pub const fn flip(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat that plays this colour: Red is always the first seat in Xiangqi.
    pub const fn side(self) -> Side {
        match self {
            Colour::Red => Side::First,
            Colour::Black => Side::Second,
        }
    }

    /// The colour played from a seat.
    pub const fn of_side(side: Side) -> Colour {
        match side {
            Side::First => Colour::Red,
            Side::Second => Colour::Black,
        }
    }
}

impl std::ops::Not for Colour {
    type Output = Colour;
    fn not(self) -> Colour {
        self.flip()
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// General (king), `K`.
    General = 0,
    /// Advisor, `A`.
    Advisor = 1,
    /// Elephant, `B` in FEN, `E` in WXF.
    Elephant = 2,
    /// Horse, `N` in FEN, `H` in WXF.
    Horse = 3,
    /// Chariot, `R`.
    Chariot = 4,
    /// Cannon, `C`.
    Cannon = 5,
    /// Soldier, `P`.
    Soldier = 6,
}

impl Kind {
    /// All kinds, in index order.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
    ];

    /// Index 0..7.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The uppercase FEN letter (`K A B N R C P`).
    pub const fn fen_letter(self) -> char {
        ['K', 'A', 'B', 'N', 'R', 'C', 'P'][self as usize]
    }

    /// The WXF letter (`K A E H R C P`).
    pub const fn wxf_letter(self) -> char {
        ['K', 'A', 'E', 'H', 'R', 'C', 'P'][self as usize]
    }

    /// The kind of a FEN letter, either case, accepting the synonyms `E` (elephant) and `H`
    /// (horse).
    pub const fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// The most pieces of this kind one side may have.
    pub const fn max_count(self) -> u32 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        ["general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"][self as usize]
    }
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour.
    pub colour: Colour,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `colour` and `kind`.
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind }
    }

    /// Index 0..14: colour × 7 + kind.
    #[inline]
    pub const fn index(self) -> usize {
        self.colour.index() * 7 + self.kind.index()
    }

    /// The piece of an index from [`Piece::index`].
    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        let colour = if i < 7 { Colour::Red } else { Colour::Black };
        Piece { colour, kind: Kind::ALL[i % 7] }
    }

    /// Its FEN letter: uppercase for Red.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.colour {
            Colour::Red => c,
            Colour::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter (synonyms `E`/`H` accepted).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match Kind::from_letter(c) {
            Some(kind) => {
                let colour = if c.is_ascii_uppercase() { Colour::Red } else { Colour::Black };
                Some(Piece { colour, kind })
            }
            None => None,
        }
    }

    /// The traditional Chinese character (Red and Black differ).
    pub const fn hanzi(self) -> char {
        match self.colour {
            Colour::Red => ['帥', '仕', '相', '傌', '俥', '炮', '兵'][self.kind as usize],
            Colour::Black => ['將', '士', '象', '馬', '車', '砲', '卒'][self.kind as usize],
        }
    }
}
