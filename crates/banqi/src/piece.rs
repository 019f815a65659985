//! Colours, piece types, pieces and the rank table of section 5.

use std::fmt;

/// A colour. Red's letters are upper case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Red (upper-case letters).
    Red,
    /// Black (lower-case letters).
    Black,
}

impl Colour {
    /// Both colours, red first (the order of section 7's elimination check).
    pub const BOTH: [Colour; 2] = [Colour::Red, Colour::Black];

    /// 0 for red, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }

    /// `r` or `b`, as in the turn field of BFEN.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Black => 'b',
        }
    }

    /// `"red"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Black => "black",
        }
    }
}

/// A piece type, highest rank first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// General, rank 7.
    General,
    /// Advisor, rank 6.
    Advisor,
    /// Elephant, rank 5.
    Elephant,
    /// Chariot, rank 4.
    Chariot,
    /// Horse, rank 3.
    Horse,
    /// Cannon, rank 2.
    Cannon,
    /// Soldier, rank 1.
    Soldier,
}

impl Kind {
    /// Every type, highest rank first (the pool order of BFEN).
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Soldier,
    ];

    /// The rank of section 2: 7 for the general down to 1 for the soldier.
    pub const fn rank(self) -> u8 {
        7 - self as u8
    }

    /// How many of this type each colour has in the full set.
    pub const fn per_colour(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// The upper-case letter of section 2 (`K A B R N C P`).
    pub const fn letter(self) -> char {
        ['K', 'A', 'B', 'R', 'N', 'C', 'P'][self as usize]
    }

    /// The type named by an upper-case letter; `E` and `H` are accepted for the elephant and
    /// the horse (9.1).
    pub const fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'R' => Kind::Chariot,
            'N' | 'H' => Kind::Horse,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// Whether a piece of this type may capture a piece of type `target` by an adjacent step
    /// (section 5.1, ranks with the general/soldier exceptions). `cannon_steps` is the
    /// `cannon=step` option; under the default rule the cannon never captures by a step.
    pub const fn takes_by_step(self, target: Kind, cannon_steps: bool) -> bool {
        match (self, target) {
            (Kind::General, Kind::Soldier) => false,
            (Kind::Soldier, Kind::General) => true,
            (Kind::Cannon, _) if !cannon_steps => false,
            _ => self.rank() >= target.rank(),
        }
    }
}

/// A piece: colour and type. The index order (`K A B R N C P k a b r n c p`) is the pool
/// order of BFEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// All 14 pieces in pool order.
    pub const ALL: [Piece; 14] = {
        let mut out = [Piece(0); 14];
        let mut i = 0;
        while i < 14 {
            out[i] = Piece(i as u8);
            i += 1;
        }
        out
    };

    /// The piece of this colour and type.
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece(colour as u8 * 7 + kind as u8)
    }

    /// 0–13 in pool order.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) const fn from_index(i: usize) -> Piece {
        Piece((i % 14) as u8)
    }

    /// The colour.
    #[inline]
    pub const fn colour(self) -> Colour {
        if self.0 < 7 { Colour::Red } else { Colour::Black }
    }

    /// The type.
    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::ALL[(self.0 % 7) as usize]
    }

    /// The letter: upper case for red, lower case for black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.colour() {
            Colour::Red => c,
            Colour::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece named by a letter (`E`/`H` accepted as aliases, case gives colour).
    pub const fn from_letter(c: char) -> Option<Piece> {
        let colour = if c.is_ascii_uppercase() { Colour::Red } else { Colour::Black };
        match Kind::from_letter(c.to_ascii_uppercase()) {
            Some(kind) => Some(Piece::new(colour, kind)),
            None => None,
        }
    }

    /// How many of this piece the full set has.
    pub const fn full_count(self) -> u8 {
        self.kind().per_colour()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The full 32-piece set as pool counts (1 general, 2 each of A B R N C, 5 soldiers a colour).
pub const FULL_SET: [u8; 14] = [1, 2, 2, 2, 2, 2, 5, 1, 2, 2, 2, 2, 2, 5];

#[cfg(test)]
mod tests {
    use super::*;

    /// Section 5.3, row = attacker, column = target, `x` = by adjacent step.
    const TABLE: [&str; 7] =
        ["xxxxxx.", ".xxxxxx", "..xxxxx", "...xxxx", "....xxx", ".......", "x.....x"];

    #[test]
    fn capture_table_of_section_5_3() {
        for a in Kind::ALL {
            for t in Kind::ALL {
                let want = TABLE[a as usize].as_bytes()[t as usize] == b'x';
                assert_eq!(a.takes_by_step(t, false), want, "{a:?} takes {t:?}");
            }
        }
        // cannon=step: adjacent captures of cannons and soldiers only; soldiers still cannot
        // take the cannon.
        let step: Vec<Kind> =
            Kind::ALL.into_iter().filter(|&t| Kind::Cannon.takes_by_step(t, true)).collect();
        assert_eq!(step, [Kind::Cannon, Kind::Soldier]);
        assert!(!Kind::Soldier.takes_by_step(Kind::Cannon, true));
    }

    #[test]
    fn letters_round_trip_and_aliases() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
        }
        assert_eq!(Piece::from_letter('E'), Piece::from_letter('B'));
        assert_eq!(Piece::from_letter('h'), Piece::from_letter('n'));
        assert_eq!(Piece::from_letter('X'), None);
        assert_eq!(FULL_SET.iter().map(|&n| n as u32).sum::<u32>(), 32);
    }
}
