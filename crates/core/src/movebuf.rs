//! A reusable buffer of moves.

/// Moves written by [`Rules::legal_moves`](crate::Rules::legal_moves). Callers keep one per
/// search ply and reuse it, so move generation allocates only while a buffer grows.
#[derive(Clone, Debug)]
pub struct MoveBuf<M> {
    moves: Vec<M>,
}

impl<M> Default for MoveBuf<M> {
    fn default() -> Self {
        MoveBuf { moves: Vec::new() }
    }
}

impl<M> MoveBuf<M> {
    /// An empty buffer.
    pub fn new() -> Self {
        MoveBuf { moves: Vec::new() }
    }

    /// An empty buffer with room for `n` moves.
    pub fn with_capacity(n: usize) -> Self {
        MoveBuf { moves: Vec::with_capacity(n) }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves.push(mv);
    }

    /// Removes every move, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Keeps only the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, keep: impl FnMut(&M) -> bool) {
        self.moves.retain(keep);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the buffer holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.moves
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves
    }

    /// Iterates the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.moves.iter()
    }

    /// Takes the moves out as a vector.
    pub fn into_vec(self) -> Vec<M> {
        self.moves
    }
}

impl<M> std::ops::Deref for MoveBuf<M> {
    type Target = [M];
    fn deref(&self) -> &[M] {
        &self.moves
    }
}

impl<'a, M> IntoIterator for &'a MoveBuf<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

impl<M> Extend<M> for MoveBuf<M> {
    fn extend<T: IntoIterator<Item = M>>(&mut self, iter: T) {
        self.moves.extend(iter);
    }
}
