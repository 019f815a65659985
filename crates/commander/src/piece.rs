//! Pieces, units (a single piece or a stack) and the stack table of section 9.1.
//!
//! A unit is one `u32`: bits 0–10 the set of piece kinds it holds (a stack holds at most one
//! piece of each kind), bits 11–21 which of them are heroic, bit 22 the colour (set = Blue).
//! The empty point is 0. Since a stack's carrier and passenger order are functions of its
//! kind set, this word is a canonical description of everything on a point.

/// A kind of piece. The discriminant is the bit of the kind in a unit's kind set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Commander (C).
    Commander = 0,
    /// Infantry (I).
    Infantry = 1,
    /// Tank (T).
    Tank = 2,
    /// Militia (M).
    Militia = 3,
    /// Engineer (E).
    Engineer = 4,
    /// Artillery (A), heavy.
    Artillery = 5,
    /// Anti-Air gun (G), heavy, air defense 1.
    AntiAir = 6,
    /// Missile (S), heavy, air defense 2.
    Missile = 7,
    /// Air Force (F).
    AirForce = 8,
    /// Navy (N), air defense 1.
    Navy = 9,
    /// Headquarters (H).
    Headquarters = 10,
}

/// Bit masks of single kinds, for `const` use.
pub mod bit {
    /// Commander.
    pub const C: u16 = 1 << 0;
    /// Infantry.
    pub const I: u16 = 1 << 1;
    /// Tank.
    pub const T: u16 = 1 << 2;
    /// Militia.
    pub const M: u16 = 1 << 3;
    /// Engineer.
    pub const E: u16 = 1 << 4;
    /// Artillery.
    pub const A: u16 = 1 << 5;
    /// Anti-Air.
    pub const G: u16 = 1 << 6;
    /// Missile.
    pub const S: u16 = 1 << 7;
    /// Air Force.
    pub const F: u16 = 1 << 8;
    /// Navy.
    pub const N: u16 = 1 << 9;
    /// Headquarters.
    pub const H: u16 = 1 << 10;
}

impl Kind {
    /// All kinds in discriminant order.
    pub const ALL: [Kind; 11] = [
        Kind::Commander,
        Kind::Infantry,
        Kind::Tank,
        Kind::Militia,
        Kind::Engineer,
        Kind::Artillery,
        Kind::AntiAir,
        Kind::Missile,
        Kind::AirForce,
        Kind::Navy,
        Kind::Headquarters,
    ];

    /// The kind with discriminant `i` (0..11).
    #[inline]
    pub const fn from_index(i: u32) -> Kind {
        Kind::ALL[i as usize]
    }

    /// The upper-case notation letter.
    pub const fn letter(self) -> char {
        b"CITMEAGSFNH"[self as usize] as char
    }

    /// The kind written by an (upper- or lower-case) letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        let up = c.to_ascii_uppercase();
        Kind::ALL.into_iter().find(|k| k.letter() == up)
    }

    /// The kind's bit in a kind set.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// Points for capturing this piece (section 3), without the heroic bonus.
    pub const fn points(self) -> u32 {
        [100, 10, 20, 10, 10, 30, 10, 20, 40, 80, 10][self as usize]
    }

    /// Artillery, Anti-Air and Missile are heavy (rule H).
    #[inline]
    pub const fn heavy(self) -> bool {
        matches!(self, Kind::Artillery | Kind::AntiAir | Kind::Missile)
    }
}

/// The kinds of one unit in canonical notation order: carrier first, then Air Force, then
/// Tank, then the remaining passenger (section 9.1 / 14.1).
pub fn canonical_order(mask: u16) -> impl Iterator<Item = Kind> {
    let carrier = carrier(mask);
    let order = [Kind::AirForce, Kind::Tank];
    std::iter::once(carrier)
        .chain(order.into_iter().filter(move |k| *k != carrier && mask & k.bit() != 0))
        .chain(
            Kind::ALL
                .into_iter()
                .filter(move |k| *k != carrier && !order.contains(k) && mask & k.bit() != 0),
        )
}

/// The carrier of a set of kinds: Navy, else Air Force, else Tank, Engineer or Headquarters,
/// else the single piece.
#[inline]
pub const fn carrier(mask: u16) -> Kind {
    if mask & bit::N != 0 {
        Kind::Navy
    } else if mask & bit::F != 0 {
        Kind::AirForce
    } else if mask & bit::T != 0 {
        Kind::Tank
    } else if mask & bit::E != 0 {
        Kind::Engineer
    } else if mask & bit::H != 0 {
        Kind::Headquarters
    } else {
        Kind::from_index(mask.trailing_zeros())
    }
}

/// The 23 legal stacks of section 9.1 as kind sets.
pub const STACKS: [u16; 23] = {
    use bit::*;
    [
        T | C,
        T | I,
        T | M,
        F | C,
        F | I,
        F | M,
        F | T,
        F | T | C,
        F | T | I,
        F | T | M,
        N | C,
        N | I,
        N | M,
        N | T,
        N | F,
        N | F | C,
        N | F | I,
        N | F | M,
        N | F | T,
        E | A,
        E | G,
        E | S,
        H | C,
    ]
};

/// Whether a kind set is a single piece or a legal stack.
pub const LEGAL: [bool; 2048] = {
    let mut t = [false; 2048];
    let mut i = 0;
    while i < 11 {
        t[1 << i] = true;
        i += 1;
    }
    let mut j = 0;
    while j < STACKS.len() {
        t[STACKS[j] as usize] = true;
        j += 1;
    }
    t
};

/// A unit word: kinds, heroes, colour (see the module docs).
pub type Unit = u32;

/// Bit of the colour in a unit word (set = Blue).
pub const BLUE: u32 = 1 << 22;
const KIND_MASK: u32 = 0x7FF;

/// The kind set of a unit.
#[inline]
pub const fn kinds(u: Unit) -> u16 {
    (u & KIND_MASK) as u16
}

/// The heroic kinds of a unit.
#[inline]
pub const fn heroes(u: Unit) -> u16 {
    ((u >> 11) & KIND_MASK) as u16
}

/// The colour of a non-empty unit: 0 Red, 1 Blue.
#[inline]
pub const fn colour(u: Unit) -> usize {
    (u >> 22) as usize & 1
}

/// A unit of colour `c` with kind set `k` and heroic set `h` (a subset of `k`).
#[inline]
pub const fn make_unit(c: usize, k: u16, h: u16) -> Unit {
    (k as u32) | ((h as u32) << 11) | ((c as u32) << 22)
}

/// The part of unit `u` made of the kinds in `g`.
#[inline]
pub const fn sub_unit(u: Unit, g: u16) -> Unit {
    let k = kinds(u) & g;
    if k == 0 { 0 } else { make_unit(colour(u), k, heroes(u) & g) }
}

/// The union of two friendly units (empty allowed).
#[inline]
pub const fn merge(a: Unit, b: Unit) -> Unit {
    a | b
}

/// Whether the carrier of unit `u` is heroic.
#[inline]
pub const fn carrier_heroic(u: Unit) -> bool {
    heroes(u) & carrier(kinds(u)).bit() != 0
}

/// Value of every piece of a unit, heroic bonus included (section 13.1).
pub fn unit_points(u: Unit) -> u32 {
    let k = kinds(u);
    let h = heroes(u);
    Kind::ALL
        .into_iter()
        .filter(|x| k & x.bit() != 0)
        .map(|x| x.points() + if h & x.bit() != 0 { 10 } else { 0 })
        .sum()
}

/// Air-defense radius a unit projects (section 8.1), 0 when none: an Anti-Air or Missile
/// only when alone, a Navy always; heroic + 1.
#[inline]
pub const fn air_radius(u: Unit) -> u8 {
    let k = kinds(u);
    let h = heroes(u);
    if k & bit::N != 0 {
        1 + (h & bit::N != 0) as u8
    } else if k == bit::G {
        1 + (h != 0) as u8
    } else if k == bit::S {
        2 + (h != 0) as u8
    } else {
        0
    }
}

/// The movement profile of a unit's carrier (section 3 / 6.1).
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    /// The carrier kind.
    pub kind: Kind,
    /// Whether it is heroic.
    pub hero: bool,
    /// May use diagonal directions.
    pub diagonal: bool,
    /// Move range orthogonally / diagonally.
    pub rm: [u8; 2],
    /// Capture range orthogonally / diagonally (Navy: against ships).
    pub rc: [u8; 2],
    /// Heavy (rule H).
    pub heavy: bool,
    /// Captures past blocking pieces.
    pub past: bool,
}

impl Profile {
    /// The profile of a carrier of kind `k`.
    pub const fn of(k: Kind, hero: bool) -> Profile {
        let h = hero as u8;
        let (diag, rm, rc) = match k {
            Kind::Commander => (hero, 11, 1),
            Kind::Infantry | Kind::Engineer | Kind::AntiAir => (hero, 1 + h, 1 + h),
            Kind::Militia => (true, 1 + h, 1 + h),
            Kind::Tank => (hero, 2 + h, 2 + h),
            Kind::Artillery => (true, 3 + h, 3 + h),
            Kind::Missile => (true, 2 + h, 2 + h),
            Kind::AirForce | Kind::Navy => (true, 4 + h, 4 + h),
            Kind::Headquarters => (hero, 2 * h, 2 * h),
        };
        // Missile diagonals reach one less (section 6.1). The capture range is the
        // Commander's 1 on diagonals too (7.1): it slides far but captures only adjacent.
        let missile = matches!(k, Kind::Missile) as u8;
        Profile {
            kind: k,
            hero,
            diagonal: diag,
            rm: [rm, rm - missile],
            rc: [rc, rc - missile],
            heavy: k.heavy(),
            past: matches!(k, Kind::Artillery | Kind::Missile | Kind::AirForce | Kind::Navy),
        }
    }

    /// The profile of a unit: its carrier's.
    #[inline]
    pub const fn of_unit(u: Unit) -> Profile {
        let c = carrier(kinds(u));
        Profile::of(c, heroes(u) & c.bit() != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_table_has_23_legal_stacks_closed_under_subsets() {
        let stacks = (0..2048usize).filter(|&m| LEGAL[m] && m.count_ones() > 1).count();
        assert_eq!(stacks, 23);
        for &s in &STACKS {
            let mut sub = s;
            while sub != 0 {
                assert!(LEGAL[sub as usize], "{s:#b} has illegal subset {sub:#b}");
                sub = (sub - 1) & s;
            }
        }
    }

    #[test]
    fn canonical_order_puts_carrier_first() {
        let s = |m: u16| canonical_order(m).map(Kind::letter).collect::<String>();
        assert_eq!(s(bit::N | bit::F | bit::T), "NFT");
        assert_eq!(s(bit::F | bit::T | bit::C), "FTC");
        assert_eq!(s(bit::E | bit::A), "EA");
        assert_eq!(s(bit::H | bit::C), "HC");
        assert_eq!(s(bit::N | bit::I), "NI");
    }

    #[test]
    fn side_value_is_550() {
        let counts = [1, 2, 2, 1, 2, 2, 2, 1, 2, 2, 2];
        let total: u32 = Kind::ALL.iter().zip(counts).map(|(k, n)| k.points() * n).sum();
        assert_eq!(total, 550);
    }
}
