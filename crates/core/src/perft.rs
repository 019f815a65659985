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

/// One position of a perft data file: `FEN ; D1 n1 ; D2 n2 ...`, with the `# tag:` comment
/// above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The text of the `# tag:` comment above the line, if any.
    pub tag: Option<String>,
    /// 1-based line number in the file.
    pub line: usize,
    /// The position text.
    pub position: String,
    /// `(depth, leaves)` pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft data file (the format of `testdata/perft/*.perft`). Lines starting with `#`
/// are comments; a `# tag: …` comment names the next position.
///
/// ```
/// let cases = cannonade_core::perft::parse_perft_file("# tag: start\nX ; D1 3 ; D2 9\n").unwrap();
/// assert_eq!(cases[0].counts, vec![(1, 3), (2, 9)]);
/// assert_eq!(cases[0].tag.as_deref(), Some("start"));
/// ```
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    let mut tag = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(t) = line.strip_prefix("# tag:") {
            tag = Some(t.trim().to_string());
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let position = fields.next().unwrap_or_default().trim().to_string();
        let counts = fields
            .map(|f| {
                let mut it = f.split_whitespace();
                let depth =
                    it.next().and_then(|d| d.strip_prefix('D')).and_then(|d| d.parse().ok());
                let n = it.next().and_then(|n| n.parse().ok());
                match (depth, n, it.next()) {
                    (Some(d), Some(n), None) => Ok((d, n)),
                    _ => Err(format!("line {}: bad field '{}'", i + 1, f.trim())),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        cases.push(PerftCase { tag: tag.take(), line: i + 1, position, counts });
    }
    Ok(cases)
}
