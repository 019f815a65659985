//! The seven kinds of piece and their letters.

use cannonade_core::Side;

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The royal piece (H): one step in any direction.
    Headquarter,
    /// B: a queen that may fly over one friendly piece.
    Bomber,
    /// T: one or two squares orthogonally; immune to machine guns, cavalry and soldiers.
    Tank,
    /// G: steps without capturing; shoots 1–5 squares sideways or forward.
    Gun,
    /// M: steps without capturing; shoots 1–3 squares in 8 directions, never at a tank.
    MachineGun,
    /// C: leaps (1,2), (1,3) and (2,3).
    Cavalry,
    /// S: steps; two squares from a white square; captures one step sideways or forward.
    Soldier,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 7] = [
        Kind::Headquarter,
        Kind::Bomber,
        Kind::Tank,
        Kind::Gun,
        Kind::MachineGun,
        Kind::Cavalry,
        Kind::Soldier,
    ];

    /// Index 0..7.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The Red (upper-case) letter.
    pub const fn letter(self) -> char {
        match self {
            Kind::Headquarter => 'H',
            Kind::Bomber => 'B',
            Kind::Tank => 'T',
            Kind::Gun => 'G',
            Kind::MachineGun => 'M',
            Kind::Cavalry => 'C',
            Kind::Soldier => 'S',
        }
    }
}

/// A piece: its owner's seat (Red = [`Side::First`], White = [`Side::Second`]) and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub side: Side,
    /// The kind.
    pub kind: Kind,
}

impl Piece {
    /// The letter of the position notation: upper case for Red, lower case for White.
    pub const fn letter(self) -> char {
        let c = self.kind.letter();
        match self.side {
            Side::First => c,
            Side::Second => c.to_ascii_lowercase(),
        }
    }

    /// The piece a letter names.
    pub fn from_letter(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() { Side::First } else { Side::Second };
        let kind = Kind::ALL.into_iter().find(|k| k.letter() == c.to_ascii_uppercase())?;
        Some(Piece { side, kind })
    }

    /// Mailbox code 1..=14 (0 is an empty square).
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.side.index() as u8 * 7 + self.kind as u8
    }

    /// The piece of a non-zero mailbox code.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Piece {
        let c = code - 1;
        Piece {
            side: if c < 7 { Side::First } else { Side::Second },
            kind: Kind::ALL[(c % 7) as usize],
        }
    }
}

/// Side of a non-zero mailbox code (0 = Red, 1 = White).
#[inline(always)]
pub(crate) const fn code_side(code: u8) -> usize {
    (code > 7) as usize
}

/// Kind index of a non-zero mailbox code.
#[inline(always)]
pub(crate) const fn code_kind(code: u8) -> usize {
    ((code - 1) % 7) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_codes_round_trip() {
        for side in Side::BOTH {
            for kind in Kind::ALL {
                let p = Piece { side, kind };
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
                assert_eq!(Piece::from_code(p.code()), p);
                assert_eq!(code_side(p.code()), side.index());
                assert_eq!(code_kind(p.code()), kind.index());
            }
        }
        assert_eq!(Piece::from_letter('x'), None);
    }
}
