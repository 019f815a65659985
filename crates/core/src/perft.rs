//! Perft: counting the leaves of the legal-move tree, the standard test of move generators.

use crate::{MoveBuf, Rules, Weighted};

/// The number of leaves of the tree of legal moves `depth` plies deep. Only "no legal move"
/// ends a branch early; draw rules are ignored. Chance events do not use up depth: each
/// outcome is a separate branch. A leaf is never expanded, so the last ply is counted in bulk
/// with [`Rules::count_legal`].
pub fn perft<G: Rules>(pos: &G, depth: u32) -> u64 {
    let mut bufs: Vec<MoveBuf<G::Move>> = (0..depth).map(|_| MoveBuf::with_capacity(128)).collect();
    let mut chances = Vec::new();
    count(pos, depth, &mut bufs, &mut chances)
}

/// Perft split by first move: the count below each legal move of `pos`, in generation order.
/// `progress` is called after each root move with its count.
pub fn divide<G: Rules>(
    pos: &G,
    depth: u32,
    mut progress: impl FnMut(G::Move, u64),
) -> Vec<(G::Move, u64)> {
    let mut root = MoveBuf::new();
    pos.legal_moves(&mut root);
    let mut bufs: Vec<MoveBuf<G::Move>> = (0..depth).map(|_| MoveBuf::with_capacity(128)).collect();
    let mut chances = Vec::new();
    let mut out = Vec::with_capacity(root.len());
    for &mv in root.iter() {
        let n = if depth <= 1 {
            1
        } else {
            let mut child = pos.clone();
            child.play(mv);
            count(&child, depth - 1, &mut bufs, &mut chances)
        };
        progress(mv, n);
        out.push((mv, n));
    }
    out
}

fn count<G: Rules>(
    pos: &G,
    depth: u32,
    bufs: &mut [MoveBuf<G::Move>],
    chances: &mut Vec<Weighted<G::Chance>>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.chance_pending() {
        pos.chance_outcomes(chances);
        let outcomes: Vec<G::Chance> = chances.iter().map(|w| w.outcome).collect();
        return outcomes
            .into_iter()
            .map(|c| {
                let mut child = pos.clone();
                child.resolve(c);
                count(&child, depth, bufs, chances)
            })
            .sum();
    }
    if depth == 1 {
        return pos.count_legal();
    }
    let (buf, rest) = bufs.split_first_mut().unwrap_or_else(|| unreachable!("one buffer a ply"));
    pos.legal_moves(buf);
    let mut total = 0;
    for &mv in buf.iter() {
        let mut child = pos.clone();
        child.play(mv);
        total += count(&child, depth - 1, rest, chances);
    }
    total
}
