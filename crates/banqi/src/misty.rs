//! Translation to and from the MistyBanqi engine dialect
//! (`shared/rules/banqi-engine-protocols.md`): pure functions on text.
//!
//! | ours | MistyBanqi | meaning |
//! |------|------------|---------|
//! | `K`/`k` | `G`/`g` | general |
//! | `A`/`a` | `A`/`a` | advisor |
//! | `B`/`b` | `E`/`e` | elephant |
//! | `R`/`r` | `R`/`r` | chariot |
//! | `N`/`n` | `H`/`h` | horse |
//! | `C`/`c` | `C`/`c` | cannon |
//! | `P`/`p` | `S`/`s` | soldier |
//! | rank `1`–`4` | rank `0`–`3` | squares in moves (`d2d2` ↔ `d1d1`) |
//!
//! Board orientation, `X`, digits, turn, pool pairs and the clock (our no-progress counter)
//! are the same; the fifth field is passed through unchanged (our ply count).
//!
//! ```
//! use cannonade_banqi::misty;
//! assert_eq!(misty::move_to_misty("d2d2").unwrap(), "d1d1");
//! assert_eq!(misty::move_from_misty("b1b1").unwrap(), "b2b2");
//! assert_eq!(misty::fen_to_misty("7P/3k4/2nKp3/3c4 r - 10 57").unwrap(),
//!            "7S/3g4/2hGs3/3c4 r - 10 57");
//! ```

use crate::bfen::FenError;
use crate::notation::MoveError;
use crate::position::Position;

const OURS: &str = "KABRNCPkabrncp";
const THEIRS: &str = "GAERHCSgaerhcs";

fn map_letters(text: &str, from: &str, to: &str) -> String {
    text.chars()
        .map(|c| match from.find(c) {
            Some(i) => to.as_bytes()[i] as char,
            None => c,
        })
        .collect()
}

/// Our public BFEN (checked) in MistyBanqi letters: board and pool letters translated.
pub fn fen_to_misty(fen: &str) -> Result<String, FenError> {
    Position::from_fen(fen).map(|p| to_misty(&p))
}

/// A public position as a MistyBanqi position string (five fields; a pending flip, which
/// the dialect cannot express, is left out).
pub fn to_misty(pos: &Position) -> String {
    let fields: Vec<String> = pos.fen_fields().split(' ').map(str::to_string).collect();
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| if i == 0 || i == 2 { map_letters(f, OURS, THEIRS) } else { f.clone() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A MistyBanqi position string (five fields) as our checked public position.
pub fn from_misty(text: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() != 5 {
        return Err(FenError::FieldCount { found: fields.len(), expected: "5 (MistyBanqi)" });
    }
    // Their letters only: ours that differ (K B N P) must not pass as aliases.
    for (i, f) in fields.iter().enumerate() {
        if (i == 0 || i == 2)
            && let Some(c) = f.chars().find(|c| "KBNPkbnp".contains(*c))
        {
            return Err(if i == 0 {
                FenError::BoardChar { rank: 0, ch: c }
            } else {
                FenError::Pool(format!("`{c}` is not a MistyBanqi letter"))
            });
        }
    }
    let ours: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| if i == 0 || i == 2 { map_letters(f, THEIRS, OURS) } else { f.to_string() })
        .collect();
    Position::from_fen(&ours.join(" "))
}

fn shift_ranks(text: &str, up: bool) -> Result<String, MoveError> {
    let err = || MoveError::Syntax(text.to_string());
    let b = text.trim().as_bytes();
    if b.len() != 4 {
        return Err(err());
    }
    let mut out = String::with_capacity(4);
    for pair in b.chunks(2) {
        let (file, rank) = (pair[0], pair[1]);
        let (lo, hi) = if up { (b'0', b'3') } else { (b'1', b'4') };
        if !(b'a'..=b'h').contains(&file) || !(lo..=hi).contains(&rank) {
            return Err(err());
        }
        out.push(file as char);
        out.push(if up { rank + 1 } else { rank - 1 } as char);
    }
    Ok(out)
}

/// Our compact move (`d2d3`, flip `d2d2`) in MistyBanqi squares (`d1d2`, `d1d1`).
pub fn move_to_misty(compact: &str) -> Result<String, MoveError> {
    shift_ranks(compact, false)
}

/// A MistyBanqi move (`b1b1`) as our compact move (`b2b2`).
pub fn move_from_misty(text: &str) -> Result<String, MoveError> {
    shift_ranks(text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_through_the_dialect() {
        for fen in [
            "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0",
            "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40",
        ] {
            let m = fen_to_misty(fen).unwrap_or_default();
            let board = m.split(' ').next().unwrap_or_default();
            assert!(!board.contains(['K', 'N', 'B', 'P', 'k', 'n', 'b', 'p']), "{m}");
            assert_eq!(from_misty(&m).map(|p| p.fen()), Ok(fen.to_string()));
        }
        assert!(from_misty("K7/8/8/8 r - 0 0").is_err());
        assert_eq!(move_to_misty("h4a1"), Ok("h3a0".to_string()));
        assert!(move_to_misty("a0a1").is_err());
        assert!(move_from_misty("a4a4").is_err());
        assert!(move_from_misty("a1xa2").is_err());
    }
}
