//! Precomputed geometry of the cross board, built at compile time.
//!
//! The 128 existing squares are numbered densely, rank by rank from rank 1 and file by file
//! from the left, so a square set fits one `u128`. Row-major numbering keeps every line
//! monotonic: along the four "positive" directions (up, up-right, up-left, right) indices
//! grow, along their opposites they shrink, so the first piece on a ray is its lowest or
//! highest set bit.

/// Number of existing squares.
pub(crate) const SQUARES: usize = 128;
/// "No square" in the tables.
pub(crate) const NO_SQ: u8 = 255;

/// The 8 directions as (file step, rank step). 0..4 raise the square index, `d ^ 4` is the
/// opposite of `d`.
pub(crate) const DIRS: [(i8, i8); 8] =
    [(0, 1), (1, 1), (-1, 1), (1, 0), (0, -1), (-1, -1), (1, -1), (-1, 0)];
/// Direction indices by name.
pub(crate) const N: usize = 0;
pub(crate) const E: usize = 3;
pub(crate) const S: usize = 4;
pub(crate) const W: usize = 7;
/// Bit set of the orthogonal directions.
pub(crate) const ORTHO: u8 = (1 << N) | (1 << E) | (1 << S) | (1 << W);
/// Red's "sideways or forward" directions (gun shots, soldier captures): up, both diagonals
/// up, left and right. White's set is the same with up replaced by down.
pub(crate) const FORWARD5: [u8; 2] = [0b1000_1111, 0b1111_1000];

/// Whether the 0-based file and rank name an existing square.
pub(crate) const fn exists(f: i32, r: i32) -> bool {
    if f < 0 || f >= 12 || r < 0 || r >= 12 {
        return false;
    }
    let edge_file = f < 2 || f >= 10;
    let edge_rank = r < 2 || r >= 10;
    !(edge_file && edge_rank)
}

/// Dense index of an existing square (0-based file and rank).
pub(crate) const fn dense(f: i32, r: i32) -> u8 {
    (if r < 2 {
        r * 8 + (f - 2)
    } else if r < 10 {
        16 + (r - 2) * 12 + f
    } else {
        112 + (r - 10) * 8 + (f - 2)
    }) as u8
}

/// Dense index of `(f, r)`, or [`NO_SQ`] when the square is missing or off the grid.
pub(crate) const fn at(f: i32, r: i32) -> u8 {
    if exists(f, r) { dense(f, r) } else { NO_SQ }
}

const fn build_coords() -> ([u8; SQUARES], [u8; SQUARES]) {
    let mut files = [0u8; SQUARES];
    let mut ranks = [0u8; SQUARES];
    let mut r = 0;
    while r < 12 {
        let mut f = 0;
        while f < 12 {
            if exists(f, r) {
                let i = dense(f, r) as usize;
                files[i] = f as u8;
                ranks[i] = r as u8;
            }
            f += 1;
        }
        r += 1;
    }
    (files, ranks)
}

const COORDS: ([u8; SQUARES], [u8; SQUARES]) = build_coords();
/// 0-based file of each square.
pub(crate) const FILE: [u8; SQUARES] = COORDS.0;
/// 0-based rank of each square.
pub(crate) const RANK: [u8; SQUARES] = COORDS.1;

const fn build_step() -> [[u8; 8]; SQUARES] {
    let mut t = [[NO_SQ; 8]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 8 {
            t[s][d] = at(FILE[s] as i32 + DIRS[d].0 as i32, RANK[s] as i32 + DIRS[d].1 as i32);
            d += 1;
        }
        s += 1;
    }
    t
}

/// The neighbour of each square in each direction, or [`NO_SQ`].
pub(crate) const STEP: [[u8; 8]; SQUARES] = build_step();

const fn build_rays() -> [[u128; 8]; SQUARES] {
    let mut t = [[0u128; 8]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 8 {
            let mut cur = STEP[s][d];
            let mut m = 0u128;
            // A line ends at the edge or at the first missing square (D-6).
            while cur != NO_SQ {
                m |= 1u128 << cur;
                cur = STEP[cur as usize][d];
            }
            t[s][d] = m;
            d += 1;
        }
        s += 1;
    }
    t
}

/// The squares along each line from each square, the square itself excluded.
pub(crate) const RAY: [[u128; 8]; SQUARES] = build_rays();

const fn build_lines() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 8 {
            t[s] |= RAY[s][d];
            d += 1;
        }
        s += 1;
    }
    t
}

/// The union of the 8 lines from each square: everything a line piece could see it from.
pub(crate) const LINES: [u128; SQUARES] = build_lines();

const fn build_king() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 8 {
            if STEP[s][d] != NO_SQ {
                t[s] |= 1u128 << STEP[s][d];
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The one-step neighbours of each square.
pub(crate) const KING: [u128; SQUARES] = build_king();

const fn build_cavalry() -> [u128; SQUARES] {
    const JUMPS: [(i32, i32); 3] = [(1, 2), (1, 3), (2, 3)];
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut j = 0;
        while j < 3 {
            let (a, b) = JUMPS[j];
            let mut k = 0;
            while k < 8 {
                // Both orders and all four sign combinations: 8 orientations per pattern.
                let (x, y) = if k < 4 { (a, b) } else { (b, a) };
                let x = if k & 1 == 0 { x } else { -x };
                let y = if k & 2 == 0 { y } else { -y };
                let to = at(FILE[s] as i32 + x, RANK[s] as i32 + y);
                if to != NO_SQ {
                    t[s] |= 1u128 << to;
                }
                k += 1;
            }
            j += 1;
        }
        s += 1;
    }
    t
}

/// The cavalry's leap targets from each square (missing squares in between do not matter).
pub(crate) const CAVALRY: [u128; SQUARES] = build_cavalry();

const fn build_dir_set(sets: [u8; 2], reverse: bool) -> [[u128; SQUARES]; 2] {
    let mut t = [[0u128; SQUARES]; 2];
    let mut side = 0;
    while side < 2 {
        let mut s = 0;
        while s < SQUARES {
            let mut d = 0;
            while d < 8 {
                let dd = if reverse { d ^ 4 } else { d };
                if sets[side] & (1 << d) != 0 && STEP[s][dd] != NO_SQ {
                    t[side][s] |= 1u128 << STEP[s][dd];
                }
                d += 1;
            }
            s += 1;
        }
        side += 1;
    }
    t
}

/// Per side, the squares a soldier on each square captures on (sideways or forward).
pub(crate) const SOLDIER_CAPTURES: [[u128; SQUARES]; 2] = build_dir_set(FORWARD5, false);
/// Per side, the squares from which a soldier of that side captures each square.
pub(crate) const SOLDIER_ATTACKERS: [[u128; SQUARES]; 2] = build_dir_set(FORWARD5, true);

const fn build_white() -> u128 {
    let mut m = 0u128;
    let mut s = 0;
    while s < SQUARES {
        // D-3 with 1-based numbers: black when file + rank is even. The 0-based sum has the
        // same parity.
        if (FILE[s] + RANK[s]) % 2 == 1 {
            m |= 1u128 << s;
        }
        s += 1;
    }
    m
}

/// The white squares (soldiers standing there have the two-square move).
pub(crate) const WHITE_SQUARES: u128 = build_white();

const fn build_rank_mask(r: u8) -> u128 {
    let mut m = 0u128;
    let mut s = 0;
    while s < SQUARES {
        if RANK[s] == r {
            m |= 1u128 << s;
        }
        s += 1;
    }
    m
}

/// Per side, its last rank: rank 12 for Red, rank 1 for White (D-12).
pub(crate) const LAST_RANK: [u128; 2] = [build_rank_mask(11), build_rank_mask(0)];

/// The bit of a square.
#[inline(always)]
pub(crate) const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// The nearest set square of `m` seen from the start of a ray in direction `d`.
#[inline(always)]
pub(crate) const fn nearest(m: u128, d: usize) -> u8 {
    if d < 4 { m.trailing_zeros() as u8 } else { 127 - m.leading_zeros() as u8 }
}

/// The squares of the ray from `s` in direction `d` that lie strictly before `b` (on it).
#[inline(always)]
pub(crate) const fn before(s: u8, d: usize, b: u8) -> u128 {
    RAY[s as usize][d] & !RAY[b as usize][d] & !bit(b)
}

/// Distance along a line (Chebyshev distance).
#[inline(always)]
pub(crate) const fn distance(a: u8, b: u8) -> u8 {
    let df = FILE[a as usize].abs_diff(FILE[b as usize]);
    let dr = RANK[a as usize].abs_diff(RANK[b as usize]);
    if df > dr { df } else { dr }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_128_squares_and_16_holes() {
        let count = (0..12)
            .flat_map(|r| (0..12).map(move |f| (f, r)))
            .filter(|&(f, r)| exists(f, r))
            .count();
        assert_eq!(count, 128);
        for (i, (f, r)) in (0..12)
            .flat_map(|r| (0..12).map(move |f| (f, r)))
            .filter(|&(f, r)| exists(f, r))
            .enumerate()
        {
            assert_eq!(dense(f, r) as usize, i, "dense numbering is row-major");
        }
    }

    #[test]
    fn cavalry_has_24_targets_on_an_open_board() {
        assert_eq!(CAVALRY[dense(5, 5) as usize].count_ones(), 24);
    }

    #[test]
    fn corner_diagonals_are_cut() {
        // a3-b2-c1: from a3 (0,2) down-right the line is empty because b2 is missing.
        assert_eq!(RAY[dense(0, 2) as usize][6], 0);
        assert_eq!(RAY[dense(2, 0) as usize][2], 0);
    }
}
