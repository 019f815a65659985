//! The evaluation of each game, with its search knowledge ([`crate::Evaluate`]).

mod banqi;
mod battle;
mod commander;
mod scored;
mod xiangqi;

pub(crate) use scored::Scored;
pub use xiangqi::use_network as use_xiangqi_network;
pub(crate) use xiangqi::with_classical;
