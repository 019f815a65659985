//! The analysis board: positions checked by the rules ([`position`]) and the engine's best
//! lines streamed to the socket that asked, in bounded slices of the engine service
//! ([`live`]).

pub mod live;
pub mod position;

pub use live::{Analyses, Running, TooMany};
pub use position::{PositionError, analysed, record_of};
