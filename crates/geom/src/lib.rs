//! Geometry shared by the Cannonade rules crates: rectangular grids with square names, bit
//! iteration over `u64`/`u128` square sets, and const-evaluable pseudo-random tables (Zobrist
//! keys). Nothing here knows about any game.
//!
//! ```
//! use cannonade_geom::{Grid, bits::Bits128};
//! const BOARD: Grid = Grid::new(9, 10);
//! let sq = BOARD.index(4, 0);
//! assert_eq!(BOARD.name(sq, 0), "e0");
//! assert_eq!(BOARD.parse_name("e0", 0), Some(sq));
//! assert_eq!(Bits128(0b1010).collect::<Vec<_>>(), vec![1, 3]);
//! ```
#![forbid(unsafe_code)]

pub mod bits;
pub mod grid;
pub mod random;

pub use grid::Grid;
pub use random::SplitMix64;
