//! The evaluation of each game, with its search knowledge ([`crate::Evaluate`]).

pub(crate) mod banqi;
mod battle;
mod commander;
mod network;
mod scored;
mod xiangqi;

pub use network::use_networks;
pub(crate) use network::with_classical;
pub(crate) use scored::Scored;
