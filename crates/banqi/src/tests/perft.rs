//! The perft data of `testdata/perft/banqi.perft`: every line checked with the fast
//! generator (depths up to a node limit) and with the slow reference generator (a smaller
//! limit), so numbers added by hand are cross-checked, never just copied.
//!
//! Line format: `BFEN ; D1 n1 ; D2 n2 … [; rules <options>]`. A full BFEN (sixth field with
//! identities or `-`) is counted with flips resolved from the deal (E13); a public BFEN
//! branches over every chance outcome (each face-down kind once, unweighted).

use crate::reference::reference_moves;
use crate::{AnyPosition, Options, Position};
use cannonade_core::{Rules, perft};

const DATA: &str = include_str!("../../../../testdata/perft/banqi.perft");

struct Line {
    pos: AnyPosition,
    depths: Vec<(u32, u64)>,
    text: String,
}

fn lines() -> Vec<Line> {
    DATA.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';').map(str::trim);
            let fen = parts.next().unwrap_or_default();
            let mut options = Options::STANDARD;
            let mut depths = Vec::new();
            for p in parts {
                if let Some(o) = p.strip_prefix("rules ") {
                    options = o.parse().unwrap_or_else(|e| panic!("{l}: {e}"));
                } else {
                    let (d, n) = p.split_once(' ').unwrap_or_else(|| panic!("{l}: `{p}`"));
                    let d: u32 =
                        d.trim_start_matches('D').parse().unwrap_or_else(|e| panic!("{p}: {e}"));
                    let n: u64 = n.trim().parse().unwrap_or_else(|e| panic!("{p}: {e}"));
                    depths.push((d, n));
                }
            }
            let pos =
                AnyPosition::from_fen_with(fen, options).unwrap_or_else(|e| panic!("{fen}: {e}"));
            Line { pos, depths, text: l.to_string() }
        })
        .collect()
}

fn fast(pos: &AnyPosition, depth: u32) -> u64 {
    match pos {
        AnyPosition::Public(p) => perft(p, depth),
        AnyPosition::Full(f) => perft(f, depth),
    }
}

/// Perft over the reference generator: no bulk counting, no shared move generation.
fn slow_public(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.chance_pending() {
        let mut out = Vec::new();
        pos.chance_outcomes(&mut out);
        return out
            .iter()
            .map(|w| {
                let mut c = pos.clone();
                c.resolve(w.outcome);
                slow_public(&c, depth)
            })
            .sum();
    }
    reference_moves(pos)
        .into_iter()
        .map(|mv| {
            let mut c = pos.clone();
            c.play(mv);
            slow_public(&c, depth - 1)
        })
        .sum()
}

fn slow_full(pos: &crate::FullPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    reference_moves(pos.public())
        .into_iter()
        .map(|mv| {
            let mut c = pos.clone();
            c.play(mv);
            slow_full(&c, depth - 1)
        })
        .sum()
}

fn slow(pos: &AnyPosition, depth: u32) -> u64 {
    match pos {
        AnyPosition::Public(p) => slow_public(p, depth),
        AnyPosition::Full(f) => slow_full(f, depth),
    }
}

fn check(limit: u64, count: impl Fn(&AnyPosition, u32) -> u64) {
    let mut checked = 0;
    for line in lines() {
        for &(d, n) in line.depths.iter().filter(|&&(_, n)| n <= limit) {
            assert_eq!(count(&line.pos, d), n, "{} at depth {d}", line.text);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} perft numbers checked");
}

#[test]
fn perft_file_fast_generator() {
    check(2_000_000, fast);
}

#[test]
fn perft_file_reference_generator() {
    check(150_000, slow);
}

#[test]
#[ignore = "slow in the dev profile: every depth of the file with both generators"]
fn perft_file_every_depth() {
    check(u64::MAX, fast);
    check(20_000_000, slow);
}

#[test]
#[ignore = "tool: prints reference numbers for new perft lines"]
fn print_reference_numbers() {
    for (fen, opts, depth) in [
        ("XXXXXXXX/XXXXXXXX/XXXCXXXX/XXXXXXXX b K1A2B2R2N2C1P5k1a2b2r2n2c2p5 0 1", "standard", 2),
        ("XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40", "standard", 2),
        ("k7/P7/8/C1X1n1r1 r B1 3 40", "standard", 4),
        ("k7/8/8/Cp1X4 r B1 3 40", "standard", 5),
        ("8/2n5/2R5/7X r P1 7 80 P", "standard", 5),
        (
            "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB",
            "cannon=step",
            4,
        ),
        ("7P/3k4/2nKp3/3c4 r - 10 57 -", "cannon=step", 5),
        (
            "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB",
            "chain_capture=on",
            4,
        ),
        ("8/pPp5/P7/C7 r - 3 20 -", "chain_capture=on", 5),
        ("3p4/pcaR4/1n1b2C1/pPnPk3 r - 0 30 -", "chain_capture=on", 4),
        ("3p4/pcaR4/1n1b2C1/pPnPk3 r - 0 30 -", "chain_capture=on,cannon=step", 4),
    ] {
        let o: Options = opts.parse().unwrap_or_else(|e| panic!("{e}"));
        let pos = AnyPosition::from_fen_with(fen, o).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let nums: Vec<String> = (1..=depth).map(|d| format!("D{d} {}", slow(&pos, d))).collect();
        let fast_nums: Vec<String> =
            (1..=depth).map(|d| format!("D{d} {}", fast(&pos, d))).collect();
        println!("{fen} ; {} ; rules {opts}\n   fast: {}", nums.join(" ; "), fast_nums.join(" ; "));
    }
}
