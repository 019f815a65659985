//! Attack tables, all built at compile time.
//!
//! Sliders (chariot, cannon, the generals' file) use per-line lookup: the occupancy of a
//! rank (9 bits) or a file (10 bits) indexes the squares reached. Rank occupancy comes
//! straight out of the rank-major board; file occupancy out of a second, file-major copy of
//! the occupancy kept by the position, which avoids a bit gather on a 90-bit board. The
//! tables come to about 75 KiB.

/// The squares of the board as bits 0..90.
pub const ALL: u128 = (1u128 << 90) - 1;

const fn sq(file: i32, rank: i32) -> i32 {
    rank * 9 + file
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

/// Set of squares of a rank.
pub const RANK: [u128; 10] = {
    let mut t = [0u128; 10];
    let mut r = 0;
    while r < 10 {
        t[r] = 0x1FFu128 << (9 * r);
        r += 1;
    }
    t
};

/// Set of squares of a file.
pub const FILE: [u128; 9] = {
    let mut t = [0u128; 9];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 10 {
            t[f] |= 1u128 << (r * 9 + f);
            r += 1;
        }
        f += 1;
    }
    t
};

/// Red's half (ranks 0–4) and Black's half (ranks 5–9).
pub const HALF: [u128; 2] = [(1u128 << 45) - 1, ALL & !((1u128 << 45) - 1)];

/// Both palaces.
pub const PALACE: u128 = {
    let mut t = 0u128;
    let mut s = 0;
    while s < 90 {
        if in_palace(s % 9, s / 9) {
            t |= 1u128 << s;
        }
        s += 1;
    }
    t
};

/// File-major index of each square: `file * 10 + rank`.
pub const TRANSPOSED: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = ((s % 9) * 10 + s / 9) as u8;
        s += 1;
    }
    t
};

/// Slider results along one line of `n` points for a piece at `pos` with line occupancy
/// `occ`: (chariot reach including the first piece met, cannon capture candidates = the first
/// piece beyond the first piece met).
const fn slide(pos: i32, occ: u32, n: i32) -> (u32, u32) {
    let mut rook = 0u32;
    let mut cannon = 0u32;
    let mut dir = -1;
    while dir <= 1 {
        let mut i = pos + dir;
        let mut screened = false;
        while i >= 0 && i < n {
            let occupied = (occ >> i) & 1 == 1;
            if !screened {
                rook |= 1 << i;
                if occupied {
                    screened = true;
                }
            } else if occupied {
                cannon |= 1 << i;
                break;
            }
            i += dir;
        }
        dir += 2;
    }
    (rook, cannon)
}

/// Slider results for every point of a line of `N` points and every occupancy of the line
/// (`OCC` = 2^N): chariot reach, or cannon capture candidates when `cannon`.
const fn line_table<const N: usize, const OCC: usize>(cannon: bool) -> [[u16; OCC]; N] {
    let mut t = [[0u16; OCC]; N];
    let mut pos = 0;
    while pos < N {
        let mut occ = 0;
        while occ < OCC {
            let (r, c) = slide(pos as i32, occ as u32, N as i32);
            t[pos][occ] = if cannon { c as u16 } else { r as u16 };
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// Chariot reach along a rank: `[file][rank occupancy]` → files reached.
pub static RANK_ROOK: [[u16; 512]; 9] = line_table(false);
/// Cannon capture candidates along a rank.
pub static RANK_CANNON: [[u16; 512]; 9] = line_table(true);
/// Chariot reach along a file: `[rank][file occupancy]` → ranks reached.
pub static FILE_ROOK: [[u16; 1024]; 10] = line_table(false);
/// Cannon capture candidates along a file.
pub static FILE_CANNON: [[u16; 1024]; 10] = line_table(true);

/// Spreads a 10-bit set of ranks onto file `a` of the board.
pub static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if (m >> r) & 1 == 1 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// A horse table: for each square and each 4-bit mask of blocked points, the targets of the
/// (blocking bit, two offsets) groups whose blocking point is free.
const fn horse_table(groups: [(i32, [(i32, i32); 2]); 4]) -> [[u128; 16]; 90] {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut mask = 0;
        while mask < 16 {
            let mut l = 0;
            while l < 4 {
                if mask & groups[l].0 == 0 {
                    let mut k = 0;
                    while k < 2 {
                        let (df, dr) = groups[l].1[k];
                        if on_board(f + df, r + dr) {
                            t[s][mask as usize] |= 1u128 << sq(f + df, r + dr);
                        }
                        k += 1;
                    }
                }
                l += 1;
            }
            mask += 1;
        }
        s += 1;
    }
    t
}

/// Horse targets: `[square][blocked legs]`, leg bits N (+9) = 1, S (−9) = 2, E (+1) = 4,
/// W (−1) = 8.
pub static HORSE_MOVES: [[u128; 16]; 90] = horse_table([
    (1, [(1, 2), (-1, 2)]),
    (2, [(1, -2), (-1, -2)]),
    (4, [(2, 1), (2, -1)]),
    (8, [(-2, 1), (-2, -1)]),
]);

/// Squares from which a horse attacks a square: `[square][blocked diagonal neighbours]`,
/// bits NE (+10) = 1, NW (+8) = 2, SE (−8) = 4, SW (−10) = 8. An attacking horse's leg is the
/// target's diagonal neighbour on its side.
pub static HORSE_ATTACKERS: [[u128; 16]; 90] = horse_table([
    (1, [(1, 2), (2, 1)]),
    (2, [(-1, 2), (-2, 1)]),
    (4, [(1, -2), (2, -1)]),
    (8, [(-1, -2), (-2, -1)]),
]);

/// Elephant targets: `[square][blocked eyes]` (diagonal bits as in [`HORSE_ATTACKERS`]),
/// never across the river.
pub static ELEPHANT_MOVES: [[u128; 16]; 90] = {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut mask = 0;
        while mask < 16 {
            let dirs: [(i32, i32, i32); 4] = [(1, 1, 1), (2, -1, 1), (4, 1, -1), (8, -1, -1)];
            let mut l = 0;
            while l < 4 {
                let (bit, df, dr) = dirs[l];
                let (tf, tr) = (f + 2 * df, r + 2 * dr);
                if mask & bit == 0 && on_board(tf, tr) && (tr <= 4) == (r <= 4) {
                    t[s][mask as usize] |= 1u128 << sq(tf, tr);
                }
                l += 1;
            }
            mask += 1;
        }
        s += 1;
    }
    t
};

const fn steps(diagonal: bool) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let d: [(i32, i32); 4] = if diagonal {
                [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            } else {
                [(1, 0), (-1, 0), (0, 1), (0, -1)]
            };
            let mut k = 0;
            while k < 4 {
                let (tf, tr) = (f + d[k].0, r + d[k].1);
                // Staying in the same palace: both palaces are 3 ranks high and far apart.
                if on_board(tf, tr) && in_palace(tf, tr) && (tr <= 2) == (r <= 2) {
                    t[s] |= 1u128 << sq(tf, tr);
                }
                k += 1;
            }
        }
        s += 1;
    }
    t
}

/// General steps inside its palace.
pub static GENERAL_MOVES: [u128; 90] = steps(false);
/// Advisor steps inside its palace.
pub static ADVISOR_MOVES: [u128; 90] = steps(true);

const fn soldier_moves() -> [[u128; 90]; 2] {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let fwd = if c == 0 { 1 } else { -1 };
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if on_board(f, r + fwd) {
                t[c][s] |= 1u128 << sq(f, r + fwd);
            }
            if crossed {
                if f > 0 {
                    t[c][s] |= 1u128 << sq(f - 1, r);
                }
                if f < 8 {
                    t[c][s] |= 1u128 << sq(f + 1, r);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// Soldier targets: `[colour][square]`.
pub static SOLDIER_MOVES: [[u128; 90]; 2] = soldier_moves();

/// Squares from which a soldier of a colour attacks a square: `[colour][square]`.
pub static SOLDIER_ATTACKERS: [[u128; 90]; 2] = {
    let moves = soldier_moves();
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut to = 0;
            while to < 90 {
                if (moves[c][from] >> to) & 1 == 1 {
                    t[c][to] |= 1u128 << from;
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// The four diagonal neighbours of each square (horse legs of attacks on it).
pub static DIAGONAL_NEIGHBOURS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let d: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut k = 0;
        while k < 4 {
            if on_board(f + d[k].0, r + d[k].1) {
                t[s] |= 1u128 << sq(f + d[k].0, r + d[k].1);
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// Points each kind may ever stand on, by colour: `[colour][kind]`.
pub static REACHABLE: [[u128; 7]; 2] = {
    let mut t = [[0u128; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let own_half = HALF[c];
        let mut s: i32 = 0;
        while s < 90 {
            let (f, r) = (s % 9, s / 9);
            let b = 1u128 << s;
            let own_palace = in_palace(f, r) && (b & own_half) != 0;
            if own_palace {
                t[c][0] |= b;
            }
            s += 1;
        }
        // Advisors: corners and centre of the own palace.
        let adv: [(i32, i32); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
        let mut k = 0;
        while k < 5 {
            let r = if c == 0 { adv[k].1 } else { 9 - adv[k].1 };
            t[c][1] |= 1u128 << sq(adv[k].0, r);
            k += 1;
        }
        // Elephants: seven points of the own half.
        let ele: [(i32, i32); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
        k = 0;
        while k < 7 {
            let r = if c == 0 { ele[k].1 } else { 9 - ele[k].1 };
            t[c][2] |= 1u128 << sq(ele[k].0, r);
            k += 1;
        }
        t[c][3] = ALL;
        t[c][4] = ALL;
        t[c][5] = ALL;
        // Soldiers: files a/c/e/g/i on the two ranks before the river, anything beyond.
        let mut s2: i32 = 0;
        while s2 < 90 {
            let (f, r) = (s2 % 9, s2 / 9);
            let rel = if c == 0 { r } else { 9 - r };
            if rel >= 5 || ((rel == 3 || rel == 4) && f % 2 == 0) {
                t[c][6] |= 1u128 << s2;
            }
            s2 += 1;
        }
        c += 1;
    }
    t
};
