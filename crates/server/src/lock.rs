//! Locking the server's mutexes.

use std::sync::{Mutex, MutexGuard};

/// Locks a mutex, going on with the data if a thread panicked while holding it: every
/// critical section here leaves the data consistent at each step.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
