//! The crate's test suite: worked examples, special rules, perft data, conformance playouts
//! and properties. In-crate so that it sees the testkit hooks of `reference.rs`.

mod conformance;
mod examples;
mod perft;
mod properties;
mod rules;

use crate::{FullPosition, Move, Options, Position};
use cannonade_core::{MoveBuf, Rules};

/// A public position from a string the test knows to be valid.
pub(crate) fn public(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A public position under options.
pub(crate) fn public_with(fen: &str, options: &str) -> Position {
    let o: Options = options.parse().unwrap_or_else(|e| panic!("{options}: {e}"));
    Position::from_fen_with(fen, o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A full position from a string the test knows to be valid.
pub(crate) fn full(fen: &str) -> FullPosition {
    FullPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves in canonical order and notation, space-separated.
pub(crate) fn moves(pos: &Position) -> String {
    let mut buf = MoveBuf::new();
    pos.legal_moves(&mut buf);
    let mut v: Vec<Move> = buf.into_vec();
    pos.sort_canonical(&mut v);
    v.iter().map(|&m| pos.move_to_string(m)).collect::<Vec<_>>().join(" ")
}

/// Plays moves given in any notation (recorded flips resolve), panicking on an illegal one.
pub(crate) fn play_all(pos: &mut Position, line: &str) {
    for m in line.split_whitespace() {
        pos.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}
