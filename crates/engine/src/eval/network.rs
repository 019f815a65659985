//! Whether the games that have networks (Xiangqi, Chess-Battle, and Commander once given
//! one) are evaluated by them or by their hand-written evaluations. One switch for the whole process,
//! as `Use NNUE` is in other engines, and a per-thread override for the levels below 10,
//! whose ladders were measured with the hand-written evaluations.

use crate::nnue::{Accumulator, Features, Network};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

static USE_NETWORKS: AtomicBool = AtomicBool::new(true);

thread_local! {
    /// Set while a search on this thread plays with the hand-written evaluations.
    static CLASSICAL_HERE: Cell<bool> = const { Cell::new(false) };
}

/// Chooses the evaluation for every search in this process: the networks (`true`, the
/// default) or the hand-written evaluations.
pub fn use_networks(on: bool) {
    USE_NETWORKS.store(on, Ordering::Relaxed);
}

/// Runs `f` with the hand-written evaluations on this thread when `classical`.
pub(crate) fn with_classical<R>(classical: bool, f: impl FnOnce() -> R) -> R {
    let before = CLASSICAL_HERE.with(|c| c.replace(classical));
    let r = f();
    CLASSICAL_HERE.with(|c| c.set(before));
    r
}

/// Whether a search on this thread evaluates by a network where its game has one.
#[inline]
pub(crate) fn networks_on() -> bool {
    USE_NETWORKS.load(Ordering::Relaxed) && !CLASSICAL_HERE.with(Cell::get)
}

/// The value of `pos` for its side to move: by `net` when there is one, else by hand.
#[inline]
pub(crate) fn value<P: Features>(net: Option<&Network>, pos: &P, classical: fn(&P) -> i32) -> i32 {
    match net {
        Some(net) => net.evaluate_position(pos, pos.mover().index()),
        None => classical(pos),
    }
}

/// The value of `pos` for its side to move given its accumulator `acc`, by `net` when there
/// is one, else by hand.
#[inline]
pub(crate) fn value_with<P: Features>(
    net: Option<&Network>,
    pos: &P,
    acc: &Accumulator,
    classical: fn(&P) -> i32,
) -> i32 {
    match net {
        Some(net) => net.evaluate(acc, pos.mover().index()),
        None => classical(pos),
    }
}

/// Computes `pos`'s accumulator for `net`, if there is one.
#[inline]
pub(crate) fn refresh<P: Features>(net: Option<&Network>, pos: &P, acc: &mut Accumulator) {
    if let Some(net) = net {
        *acc = net.refresh(pos);
    }
}

/// Updates the accumulator for `net` along `mv`, if there is one.
#[inline]
pub(crate) fn update<P: Features>(
    net: Option<&Network>,
    parent: &P,
    child: &P,
    mv: P::Move,
    acc: &Accumulator,
    out: &mut Accumulator,
) {
    if let Some(net) = net {
        net.update(parent, child, mv, acc, out);
    }
}

/// The [`Evaluate`](crate::Evaluate) methods of a game with a network, written inside its
/// `impl`: by the `network()` of the calling module where it gives one, else by its
/// `classical` evaluation.
macro_rules! evaluate_by_network {
    ($pos:ty) => {
        fn evaluate(&self) -> i32 {
            network::value(network(), self, classical)
        }

        fn refresh(&self, acc: &mut Accumulator) {
            network::refresh(network(), self, acc);
        }

        fn update(&self, child: &$pos, mv: Move, acc: &Accumulator, out: &mut Accumulator) {
            network::update(network(), self, child, mv, acc, out);
        }

        fn evaluate_with(&self, acc: &Accumulator) -> i32 {
            network::value_with(network(), self, acc, classical)
        }
    };
}

pub(crate) use evaluate_by_network;
