//! Who sent a request: the client's address (for limits per address) and whether it came
//! over HTTPS (for `Secure` cookies). Behind a trusted proxy both come from its
//! `X-Forwarded-*` headers; otherwise from the connection.

use crate::listener::Peer;
use crate::state::App;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

/// The client of a request.
#[derive(Clone, Copy, Debug)]
pub struct Client {
    /// Its address.
    pub addr: IpAddr,
    /// It reached the server over HTTPS.
    pub https: bool,
}

/// The last address of `X-Forwarded-For`: the one the trusted proxy added (earlier ones
/// are whatever the client wrote).
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?.to_str().ok()?;
    last.rsplit(',').next()?.trim().parse().ok()
}

fn forwarded_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

impl FromRequestParts<Arc<App>> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Client, Infallible> {
        // Without connection info (a router called in-process, as in tests) the client is
        // this machine.
        let peer = parts
            .extensions
            .get::<ConnectInfo<Peer>>()
            .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |ConnectInfo(Peer(a))| a.ip());
        let config = &app.config;
        let proxied = config.trust_proxy;
        let addr = if proxied { forwarded_for(&parts.headers).unwrap_or(peer) } else { peer };
        let https = config.secure_cookies || (proxied && forwarded_https(&parts.headers));
        Ok(Client { addr, https })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proxy_s_own_entry_counts() {
        let mut h = HeaderMap::new();
        h.append("x-forwarded-for", "1.2.3.4, 10.0.0.7".parse().unwrap());
        assert_eq!(forwarded_for(&h), Some(IpAddr::from([10, 0, 0, 7])));
        h.append("x-forwarded-for", "192.168.1.1".parse().unwrap());
        assert_eq!(forwarded_for(&h), Some(IpAddr::from([192, 168, 1, 1])));
        h.insert("x-forwarded-proto", "HTTPS".parse().unwrap());
        assert!(forwarded_https(&h));
    }
}
