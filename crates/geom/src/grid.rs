//! A rectangular grid of squares (or points) named by a file letter and a rank number.

/// A rectangle of `files` × `ranks` squares indexed `rank * files + file`, file 0 on the left
/// and rank 0 at the bottom as the first player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Number of files (columns), at most 26.
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
}

impl Grid {
    /// A grid of the given size.
    pub const fn new(files: u8, ranks: u8) -> Grid {
        Grid { files, ranks }
    }

    /// Number of squares.
    pub const fn len(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Whether the grid has no squares.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Index of the square at `file`, `rank` (both 0-based).
    pub const fn index(self, file: u8, rank: u8) -> u8 {
        rank * self.files + file
    }

    /// File (0-based) of a square index.
    pub const fn file(self, sq: u8) -> u8 {
        sq % self.files
    }

    /// Rank (0-based) of a square index.
    pub const fn rank(self, sq: u8) -> u8 {
        sq / self.files
    }

    /// The square reached from `sq` by moving `df` files and `dr` ranks, if it is on the grid.
    pub const fn offset(self, sq: u8, df: i8, dr: i8) -> Option<u8> {
        let f = self.file(sq) as i16 + df as i16;
        let r = self.rank(sq) as i16 + dr as i16;
        if f < 0 || r < 0 || f >= self.files as i16 || r >= self.ranks as i16 {
            None
        } else {
            Some(self.index(f as u8, r as u8))
        }
    }

    /// The name of a square: file letter and rank number, ranks counted from `rank_base`
    /// (0 for Xiangqi's `a0`, 1 for chess-like `a1`).
    pub fn name(self, sq: u8, rank_base: u8) -> String {
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file(sq)) as char);
        s.push_str(&(self.rank(sq) as u32 + rank_base as u32).to_string());
        s
    }

    /// Parses a whole square name such as `e0` or `b10`; `None` when it is not a square of
    /// this grid.
    pub fn parse_name(self, text: &str, rank_base: u8) -> Option<u8> {
        match self.parse_prefix(text.as_bytes(), rank_base) {
            Some((sq, used)) if used == text.len() => Some(sq),
            _ => None,
        }
    }

    /// Parses a square name at the start of `bytes`, returning it and the number of bytes
    /// used. Reads the longest rank number that names a rank of the grid, so `b10c8` on a
    /// ten-rank grid counted from 1 reads `b10`.
    pub fn parse_prefix(self, bytes: &[u8], rank_base: u8) -> Option<(u8, usize)> {
        let (&letter, rest) = bytes.split_first()?;
        let file = letter.to_ascii_lowercase().checked_sub(b'a')?;
        if file >= self.files {
            return None;
        }
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count().min(2);
        for len in (1..=digits).rev() {
            // A leading zero is only the number 0 itself.
            if len > 1 && rest[0] == b'0' {
                continue;
            }
            let n = rest[..len].iter().fold(0u32, |n, d| n * 10 + (d - b'0') as u32);
            if n >= rank_base as u32 && n - (rank_base as u32) < self.ranks as u32 {
                let rank = (n - rank_base as u32) as u8;
                return Some((self.index(file, rank), 1 + len));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Grid = Grid::new(9, 10);

    #[test]
    fn names_round_trip_for_both_rank_bases() {
        for sq in 0..G.len() as u8 {
            for base in [0, 1] {
                assert_eq!(G.parse_name(&G.name(sq, base), base), Some(sq));
            }
        }
    }

    #[test]
    fn two_digit_ranks_and_rejections() {
        assert_eq!(G.parse_prefix(b"b10c8", 1), Some((G.index(1, 9), 3)));
        assert_eq!(G.parse_prefix(b"b1c8", 1), Some((G.index(1, 0), 2)));
        assert_eq!(G.parse_name("j0", 0), None);
        assert_eq!(G.parse_name("a10", 0), None);
        assert_eq!(G.parse_name("a0", 1), None);
        assert_eq!(G.parse_name("a", 0), None);
        assert_eq!(G.parse_name("", 0), None);
        assert_eq!(G.parse_name("a01", 0), None);
    }

    #[test]
    fn offsets_stay_on_the_grid() {
        assert_eq!(G.offset(0, -1, 0), None);
        assert_eq!(G.offset(0, 1, 1), Some(10));
        assert_eq!(G.offset(89, 0, 1), None);
    }
}
