//! Internal failures as clients see them: the cause goes to the log under a fresh id, the
//! client gets what failed, the id to quote, and never the cause's text (a store's error
//! names files, SQL and the disk; server-core issue, item 2).

/// Logs `cause` under a new incident id and returns the text a client may see:
/// `what` and the id.
pub fn logged(what: &str, cause: impl std::fmt::Display) -> String {
    let id = crate::ids::error_id();
    tracing::error!(error_id = %id, "{what}: {cause}");
    format!("{what} (error {id}); nothing changed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cause_is_logged_and_not_told() {
        let told = logged("the game could not be saved", "SQLITE_FULL: database or disk is full");
        assert!(told.starts_with("the game could not be saved (error "), "{told}");
        assert!(!told.contains("SQLITE") && !told.contains("disk"), "{told}");
        // Each incident has its own id.
        assert_ne!(told, logged("the game could not be saved", "x"));
    }
}
