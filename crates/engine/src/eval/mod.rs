//! The evaluation of each game, with its search knowledge ([`crate::Evaluate`]). Commander
//! Chess gets its own file here (terrain, air defence, points) when its rules crate lands.

mod banqi;
mod battle;
mod xiangqi;
