//! The session cookie: how a client keeps its session across sockets. The websocket takes
//! the session from it (or from `Authorization: Bearer`), never from the URL, and a new
//! session comes back in the upgrade's `Set-Cookie`.

/// The cookie's name.
pub const SESSION_COOKIE: &str = "cannonade_session";

/// The session token a `Set-Cookie` value sets, if it sets the session cookie (an empty
/// value, as a logout sends, sets none).
pub fn session_from_set_cookie(value: &str) -> Option<&str> {
    let pair = value.split(';').next()?.trim();
    let token = pair.strip_prefix(SESSION_COOKIE)?.strip_prefix('=')?;
    (!token.is_empty()).then_some(token)
}

/// The session token that the `Set-Cookie` headers of an answer set, if one does.
pub fn session_from_set_cookies<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    values.into_iter().find_map(session_from_set_cookie)
}

/// The `Cookie` request header that sends the session `token`.
pub fn session_cookie_header(token: &str) -> String {
    format!("{SESSION_COOKIE}={token}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_read_back_from_what_sets_it() {
        let set = format!("{}; Path=/; HttpOnly", session_cookie_header("ab12"));
        assert_eq!(session_from_set_cookie(&set), Some("ab12"));
        assert_eq!(session_from_set_cookie("cannonade_session=; Max-Age=0"), None);
        assert_eq!(session_from_set_cookie("other=ab12"), None);
        assert_eq!(session_from_set_cookie("cannonade_session_x=ab12"), None);
        assert_eq!(session_from_set_cookies(["a=b", &set]), Some("ab12"));
    }
}
