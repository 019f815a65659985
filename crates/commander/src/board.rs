//! Points, terrain and the position-independent tables: rays, the river, the fords, the
//! river mouth, the standing rule (S), the heavy crossing rule (H) and the Navy corner rule (K).
//!
//! A point is indexed `rank * 11 + file` (0-based, `a1` = 0, `k12` = 131), as section 1.5 of
//! the rules suggests. 132 points do not fit one `u128`, so the position is a mailbox of
//! 132 unit words with per-side occupancy in [`Points`] (three `u64`), and every ray is
//! precomputed here.

use cannonade_geom::Grid;
use cannonade_geom::bits::Bits64;

/// The board: 11 files (`a`–`k`) by 12 ranks (`1`–`12`).
pub const GRID: Grid = Grid::new(11, 12);
/// Number of points.
pub const NPOINTS: usize = 132;
/// Number of files.
pub const FILES: u8 = 11;

/// Direction indices: the four orthogonal ones first, so `d < 4` means orthogonal.
pub const N: usize = 0;
/// East.
pub const E: usize = 1;
/// South.
pub const S: usize = 2;
/// West.
pub const W: usize = 3;
/// North-east.
pub const NE: usize = 4;
/// South-east.
pub const SE: usize = 5;
/// South-west.
pub const SW: usize = 6;
/// North-west.
pub const NW: usize = 7;

/// File and rank deltas of the eight directions.
pub const DELTA: [(i8, i8); 8] =
    [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The opposite direction.
pub const fn opposite(d: usize) -> usize {
    if d < 4 { (d + 2) % 4 } else { 4 + (d - 4 + 2) % 4 }
}

/// File (0 = `a`) of a point.
#[inline]
pub const fn file(p: u8) -> u8 {
    p % FILES
}

/// Rank (0 = rank 1) of a point.
#[inline]
pub const fn rank(p: u8) -> u8 {
    p / FILES
}

/// The name of a point, such as `e4` or `k12`.
pub fn name(p: u8) -> String {
    GRID.name(p, 1)
}

/// Terrain class of a point (section 2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Files `a`, `b`: only ships stand here.
    Water,
    /// File `c` and the river mouth `d6 e6 d7 e7`: everyone stands here.
    Mixed,
    /// Everything else: everyone but ships.
    Land,
}

const fn terrain_of(p: u8) -> Terrain {
    let f = file(p);
    let r = rank(p);
    if f <= 1 {
        Terrain::Water
    } else if f == 2 || ((f == 3 || f == 4) && (r == 5 || r == 6)) {
        Terrain::Mixed
    } else {
        Terrain::Land
    }
}

/// Terrain of every point.
pub const TERRAIN: [Terrain; NPOINTS] = {
    let mut t = [Terrain::Land; NPOINTS];
    let mut p = 0;
    while p < NPOINTS {
        t[p] = terrain_of(p as u8);
        p += 1;
    }
    t
};

/// Rule S: whether a unit may stand on `p`; `navy` is true for a Navy-carried unit.
#[inline]
pub fn can_stand(navy: bool, p: u8) -> bool {
    match TERRAIN[p as usize] {
        Terrain::Mixed => true,
        Terrain::Water => navy,
        Terrain::Land => !navy,
    }
}

/// The river runs between this rank (0-based: rank 6) and the next (section 2.2).
pub const RIVER_BELOW: u8 = 5;

/// The files (0-based) of the two fords: `f` and `h` (rule H).
pub const FORDS: [u8; 2] = [5, 7];

/// Whether going from `a` to `b` crosses the river (between ranks 6 and 7).
#[inline]
pub const fn crosses_river(a: u8, b: u8) -> bool {
    (rank(a) <= RIVER_BELOW) != (rank(b) <= RIVER_BELOW)
}

/// Rule H: whether a heavy unit may move without capturing from `s` to `p` (direction `d`)
/// as far as the river is concerned: crossing only straight north-south over a ford (files
/// `f` and `h`).
#[inline]
pub const fn heavy_may_cross(s: u8, p: u8, d: usize) -> bool {
    !crosses_river(s, p) || ((d == N || d == S) && (file(s) == FORDS[0] || file(s) == FORDS[1]))
}

/// Rule K: the step from `p` in direction `d` is one of the four river-corner steps closed to
/// Navy-carried units (`c5`↔`d6`, `c8`↔`d7`).
pub const CORNER: [[bool; 8]; NPOINTS] = {
    let mut t = [[false; 8]; NPOINTS];
    // c5 = (2,4), d6 = (3,5), c8 = (2,7), d7 = (3,6)
    t[4 * 11 + 2][NE] = true;
    t[5 * 11 + 3][SW] = true;
    t[7 * 11 + 2][SE] = true;
    t[6 * 11 + 3][NW] = true;
    t
};

/// The points along each ray, nearest first, and the ray's length.
pub struct Rays {
    /// `pts[p][d][k - 1]` is the point at distance `k` from `p` in direction `d`.
    pub pts: [[[u8; 11]; 8]; NPOINTS],
    /// Number of points on the ray before the board edge.
    pub len: [[u8; 8]; NPOINTS],
}

/// Every ray of the board.
pub static RAYS: Rays = {
    let mut pts = [[[0u8; 11]; 8]; NPOINTS];
    let mut len = [[0u8; 8]; NPOINTS];
    let mut p = 0;
    while p < NPOINTS {
        let mut d = 0;
        while d < 8 {
            let mut f = file(p as u8) as i8;
            let mut r = rank(p as u8) as i8;
            let mut n = 0;
            loop {
                f += DELTA[d].0;
                r += DELTA[d].1;
                if f < 0 || r < 0 || f >= 11 || r >= 12 {
                    break;
                }
                pts[p][d][n] = (r as u8) * 11 + f as u8;
                n += 1;
            }
            len[p][d] = n as u8;
            d += 1;
        }
        p += 1;
    }
    Rays { pts, len }
};

/// The ray from `p` in direction `d`.
#[inline]
pub fn ray(p: u8, d: usize) -> &'static [u8] {
    &RAYS.pts[p as usize][d][..RAYS.len[p as usize][d] as usize]
}

/// Whether `q` lies in the air-defense zone of radius `r` around `p` (section 8.2).
#[inline]
pub const fn in_zone(p: u8, q: u8, r: u8) -> bool {
    let dx = file(p) as i32 - file(q) as i32;
    let dy = rank(p) as i32 - rank(q) as i32;
    dx * dx + dy * dy <= (r as i32) * (r as i32)
}

/// A set of points: 132 bits in three words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Points(pub [u64; 3]);

impl Points {
    /// Adds a point.
    #[inline]
    pub fn insert(&mut self, p: u8) {
        self.0[(p >> 6) as usize] |= 1 << (p & 63);
    }

    /// Removes a point.
    #[inline]
    pub fn remove(&mut self, p: u8) {
        self.0[(p >> 6) as usize] &= !(1 << (p & 63));
    }

    /// Whether the set holds `p`.
    #[inline]
    pub fn contains(&self, p: u8) -> bool {
        self.0[(p >> 6) as usize] >> (p & 63) & 1 != 0
    }

    /// The points, lowest first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..3u8).flat_map(move |w| Bits64(self.0[w as usize]).map(move |b| (w << 6) + b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> u8 {
        GRID.parse_name(s, 1).expect("a point")
    }

    #[test]
    fn terrain_counts_match_section_2_1() {
        let count = |t| TERRAIN.iter().filter(|&&x| x == t).count();
        assert_eq!(count(Terrain::Water), 24);
        assert_eq!(count(Terrain::Mixed), 16);
        assert_eq!(count(Terrain::Land), 92);
        for m in ["d6", "e6", "d7", "e7", "c1", "c12"] {
            assert_eq!(TERRAIN[pt(m) as usize], Terrain::Mixed, "{m}");
        }
        assert_eq!(TERRAIN[pt("f6") as usize], Terrain::Land);
    }

    #[test]
    fn heavy_crossing_rule_h() {
        assert!(heavy_may_cross(pt("f6"), pt("f7"), N));
        assert!(heavy_may_cross(pt("h8"), pt("h5"), S));
        assert!(!heavy_may_cross(pt("e6"), pt("e7"), N));
        assert!(!heavy_may_cross(pt("f6"), pt("g7"), NE));
        assert!(heavy_may_cross(pt("e5"), pt("e6"), N));
    }

    #[test]
    fn navy_corner_rule_k() {
        assert!(CORNER[pt("c5") as usize][NE]);
        assert!(CORNER[pt("d6") as usize][SW]);
        assert!(CORNER[pt("c8") as usize][SE]);
        assert!(CORNER[pt("d7") as usize][NW]);
        assert_eq!(CORNER.iter().flatten().filter(|&&b| b).count(), 4);
    }

    #[test]
    fn rays_and_zones() {
        assert_eq!(ray(pt("a1"), NE).len(), 10);
        assert_eq!(ray(pt("a1"), N).len(), 11);
        assert_eq!(ray(pt("k12"), E).len(), 0);
        let zone = |r| (0..132u8).filter(|&q| in_zone(pt("f6"), q, r)).count();
        assert_eq!((zone(1), zone(2), zone(3)), (5, 13, 29));
        for d in 0..8 {
            assert_eq!(opposite(opposite(d)), d);
            assert_ne!(opposite(d), d);
        }
        let mut s = Points::default();
        for p in [0, 63, 64, 131] {
            s.insert(p);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 131]);
        s.remove(64);
        assert!(!s.contains(64) && s.contains(131));
    }
}
