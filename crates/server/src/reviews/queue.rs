//! The reviews waiting or running on this node: one entry per game (so a game is never
//! reviewed twice at once), who asked for it (a player's requests are bounded), and each
//! waiting review's place in line. A pure state machine: the service around it
//! ([`super::Reviews`]) does the searching and the storing.

use std::collections::HashMap;

/// Where a pending review is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Waiting for an engine; `position` 1 is next.
    Queued {
        /// Its place among the waiting reviews.
        position: usize,
    },
    /// An engine is on it.
    Running,
}

/// What [`ReviewQueue::add`] (or [`super::board::ReviewBoard::offer`]) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// The game's review is queued now: the caller starts it.
    New(Pending),
    /// The game's review was already pending: nothing to start.
    Already(Pending),
}

/// A user asked for more reviews than may wait for them at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany {
    /// How many may wait per user.
    pub limit: usize,
}

impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at most {} reviews may wait for one player: wait for one to finish", self.limit)
    }
}

impl std::error::Error for TooMany {}

#[derive(Clone, Debug)]
struct Entry {
    owner: Option<String>,
    order: u64,
    running: bool,
}

/// The pending reviews.
#[derive(Debug, Default)]
pub struct ReviewQueue {
    next: u64,
    entries: HashMap<String, Entry>,
}

impl ReviewQueue {
    /// Queues the review of `game` asked for by `owner` (`None`: the server, at a game's
    /// end, which no limit bounds), unless it is pending already. A user with `limit`
    /// reviews pending gets [`TooMany`].
    pub fn add(&mut self, game: &str, owner: Option<&str>, limit: usize) -> Result<Added, TooMany> {
        if let Some(state) = self.state(game) {
            return Ok(Added::Already(state));
        }
        if let Some(user) = owner {
            let mine = self.entries.values().filter(|e| e.owner.as_deref() == Some(user)).count();
            if mine >= limit {
                return Err(TooMany { limit });
            }
        }
        self.next += 1;
        let entry = Entry { owner: owner.map(str::to_string), order: self.next, running: false };
        self.entries.insert(game.to_string(), entry);
        Ok(Added::New(self.state(game).unwrap_or(Pending::Running)))
    }

    /// An engine took `game`'s review.
    pub fn start(&mut self, game: &str) {
        if let Some(e) = self.entries.get_mut(game) {
            e.running = true;
        }
    }

    /// `game`'s review is stored (or failed): it is no longer pending.
    pub fn finish(&mut self, game: &str) {
        self.entries.remove(game);
    }

    /// Where `game`'s review is, `None` when none is pending.
    pub fn state(&self, game: &str) -> Option<Pending> {
        let entry = self.entries.get(game)?;
        if entry.running {
            return Some(Pending::Running);
        }
        let ahead = self.entries.values().filter(|e| !e.running && e.order < entry.order).count();
        Some(Pending::Queued { position: ahead + 1 })
    }

    /// How many reviews are pending.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is pending.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_queued_once_and_waits_in_line() {
        let mut q = ReviewQueue::default();
        assert_eq!(q.add("a", None, 2), Ok(Added::New(Pending::Queued { position: 1 })));
        assert_eq!(q.add("b", Some("u"), 2), Ok(Added::New(Pending::Queued { position: 2 })));
        // Asking again changes nothing and says where it is.
        assert_eq!(q.add("b", Some("v"), 2), Ok(Added::Already(Pending::Queued { position: 2 })));
        assert_eq!(q.len(), 2);
        q.start("a");
        assert_eq!(q.state("a"), Some(Pending::Running));
        assert_eq!(q.state("b"), Some(Pending::Queued { position: 1 }));
        q.finish("a");
        assert_eq!(q.state("a"), None);
        // Once finished, a game may be queued again (the service checks the store first).
        assert!(matches!(q.add("a", None, 2), Ok(Added::New(_))));
    }

    #[test]
    fn a_user_has_a_bounded_number_of_pending_reviews() {
        let mut q = ReviewQueue::default();
        q.add("a", Some("u"), 2).unwrap();
        q.add("b", Some("u"), 2).unwrap();
        assert_eq!(q.add("c", Some("u"), 2), Err(TooMany { limit: 2 }));
        // Running ones count too; other users and the server are not bounded by u's.
        q.start("a");
        assert_eq!(q.add("c", Some("u"), 2), Err(TooMany { limit: 2 }));
        assert!(q.add("c", Some("w"), 2).is_ok());
        for g in ["d", "e", "f"] {
            assert!(q.add(g, None, 2).is_ok());
        }
        q.finish("a");
        assert!(q.add("g", Some("u"), 2).is_ok());
        assert!(!q.is_empty());
    }
}
