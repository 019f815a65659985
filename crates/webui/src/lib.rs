//! The browser client, embedded: `web/static` as a table of files compiled into the binary.
//!
//! The server maps a request path to a file with [`resolve`]: exact files first, then the
//! client's own routes (`/`, `/invite/CODE`), which all get `index.html` because the page
//! reads its route from the address. Nothing is built at run time and nothing is read from
//! disk.
//!
//! ```
//! let index = cannonade_webui::resolve("/").unwrap();
//! assert_eq!(index.path, "/index.html");
//! assert!(index.content_type.starts_with("text/html"));
//! assert!(cannonade_webui::resolve("/js/app.js").is_some());
//! assert!(cannonade_webui::resolve("/../Cargo.toml").is_none());
//! ```
#![forbid(unsafe_code)]

/// One embedded file.
#[derive(Debug)]
pub struct Asset {
    /// Its path under the site root, starting with `/`.
    pub path: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its entity tag (`"<16 hex digits>"`, a hash of the bytes made at build time), for
    /// `ETag` and `If-None-Match`.
    pub etag: &'static str,
}

mod content_type;
pub use content_type::content_type;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file at exactly `path` (`/js/app.js`).
pub fn get(path: &str) -> Option<&'static Asset> {
    ASSETS.binary_search_by(|a| a.path.cmp(path)).ok().map(|i| &ASSETS[i])
}

/// The file to serve for a request path: the file itself, or `index.html` for the page's own
/// routes (`/`, `/invite/CODE`). Query strings must be removed first.
pub fn resolve(path: &str) -> Option<&'static Asset> {
    if let Some(asset) = get(path) {
        return Some(asset);
    }
    let page = path == "/" || path.is_empty() || path.starts_with("/invite/");
    if page { get("/index.html") } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assets_are_sorted_so_lookups_find_every_file() {
        assert!(ASSETS.windows(2).all(|w| w[0].path < w[1].path));
        for a in ASSETS {
            assert_eq!(get(a.path).map(|b| b.path), Some(a.path));
            assert_eq!(a.content_type, content_type(a.path));
            assert!(a.etag.len() == 18 && a.etag.starts_with('"') && a.etag.ends_with('"'));
        }
        // A tag names its bytes: files with one tag hold the same bytes.
        for a in ASSETS {
            for b in ASSETS.iter().filter(|b| b.etag == a.etag) {
                assert_eq!(a.bytes, b.bytes, "{} and {} share a tag", a.path, b.path);
            }
        }
    }

    #[test]
    fn page_routes_get_the_index_and_unknown_files_nothing() {
        assert_eq!(resolve("/invite/AbC123").map(|a| a.path), Some("/index.html"));
        assert!(resolve("/nope.js").is_none());
        assert!(resolve("/js/../index.html").is_none());
    }

    #[test]
    fn every_game_has_a_rules_page_and_modules_are_javascript() {
        for game in ["xiangqi", "banqi", "chessbattle", "commander"] {
            let page = get(&format!("/rules/{game}.html")).expect("rules page");
            assert!(page.content_type.starts_with("text/html"));
        }
        assert_eq!(get("/js/app.js").unwrap().content_type, "text/javascript; charset=utf-8");
    }
}
