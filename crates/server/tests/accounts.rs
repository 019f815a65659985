//! Accounts and sessions: throttled logins, the same work for unknown names, a bound on
//! hashes at once, names unique in any case, logout, session lists, expiry, and cookies.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode, header};
use cannonade_server::limits::{Limits, Rate};
use cannonade_server::listener::Peer;
use common::{Client, config, server};
use http_body_util::BodyExt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

type App = Arc<cannonade_server::App>;

async fn call(app: &App, req: Request<Body>) -> (StatusCode, String, HeaderMap) {
    let res = cannonade_server::router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).to_string(), headers)
}

/// A request from the address `from`, with the session cookie `token`.
fn req(method: &str, path: &str, json: &str, from: [u8; 4], token: Option<&str>) -> Request<Body> {
    let mut r = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(json.to_string()))
        .unwrap();
    r.extensions_mut().insert(ConnectInfo(Peer(SocketAddr::from((from, 40000)))));
    if let Some(t) = token {
        r.headers_mut().insert(header::COOKIE, format!("cannonade_session={t}").parse().unwrap());
    }
    r
}

fn creds(name: &str, password: &str) -> String {
    serde_json::json!({ "name": name, "password": password }).to_string()
}

async fn register(app: &App, name: &str, password: &str) -> String {
    let (s, body, headers) =
        call(app, req("POST", "/api/register", &creds(name, password), [10, 0, 0, 1], None)).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    common::set_cookie_token(&headers).expect("a session cookie")
}

#[tokio::test]
async fn logins_are_throttled_per_name_and_per_address() {
    let (_, app) = server(config()).await;
    register(&app, "alice", "correct horse").await;
    let mut refused = 0;
    for _ in 0..60 {
        let (s, _, headers) = call(
            &app,
            req("POST", "/api/login", &creds("alice", "wrong horse"), [10, 0, 0, 2], None),
        )
        .await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert!(headers.contains_key(header::RETRY_AFTER));
            refused += 1;
        } else {
            assert_eq!(s, StatusCode::UNAUTHORIZED);
        }
    }
    assert!(refused >= 50, "only {refused} of 60 wrong passwords in a row were throttled");
    // The right password from a fresh address is throttled too: the name is.
    let right = creds("alice", "correct horse");
    let (s, body, _) = call(&app, req("POST", "/api/login", &right, [10, 0, 0, 3], None)).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body.contains(r#""code":"rate_limited""#), "{body}");
    // So is any name from the address that tried so often.
    let (s, _, _) =
        call(&app, req("POST", "/api/login", &creds("bob", "whatever1"), [10, 0, 0, 2], None))
            .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // Another name from another address is not.
    let (s, _, _) =
        call(&app, req("POST", "/api/login", &creds("carol", "whatever1"), [10, 0, 0, 4], None))
            .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

fn hashes(metrics: &str) -> u64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("cannonade_password_hashes_total "))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// An unknown name costs a password hash like a wrong password, so neither the work nor the
/// answer's time tells whether a name exists (the audit: 40 ms against 1 ms).
#[tokio::test]
async fn an_unknown_name_costs_what_a_wrong_password_costs() {
    let (_, app) = server(config()).await;
    register(&app, "dave", "correct horse").await;
    let before = hashes(&app.metrics.render());
    let mut times = [Duration::MAX; 2];
    for round in 0..3u8 {
        for (i, name) in ["dave", "nobody-here"].iter().enumerate() {
            let from = [10, 1, round, i as u8];
            let t = Instant::now();
            let (s, _, _) =
                call(&app, req("POST", "/api/login", &creds(name, "wrong horse"), from, None))
                    .await;
            assert_eq!(s, StatusCode::UNAUTHORIZED);
            times[i] = times[i].min(t.elapsed());
        }
    }
    assert_eq!(hashes(&app.metrics.render()) - before, 6, "every attempt hashes once");
    let [known, unknown] = times;
    assert!(unknown * 3 > known, "unknown name {unknown:?}, wrong password {known:?}");
}

/// Logins beyond the hash slots wait their turn, and those that waited too long are told
/// to come back: 300 at once once took 1.7 GB.
#[tokio::test]
async fn password_hashes_run_a_bounded_number_at_once() {
    let limits =
        Limits { password_hashes: 1, hash_wait: Duration::from_millis(1), ..Limits::default() };
    let (_, app) = server(cannonade_server::Config { limits, ..config() }).await;
    let tries = (0..8u8).map(|i| {
        let app = app.clone();
        tokio::spawn(async move {
            let body = creds(&format!("erin{i}"), "wrong horse");
            call(&app, req("POST", "/api/login", &body, [10, 2, 0, i], None)).await.0
        })
    });
    let mut busy = 0;
    for t in tries.collect::<Vec<_>>() {
        match t.await.unwrap() {
            StatusCode::SERVICE_UNAVAILABLE => busy += 1,
            s => assert_eq!(s, StatusCode::UNAUTHORIZED),
        }
    }
    assert!(busy > 0, "eight hashes ran with one slot and no wait");
}

#[tokio::test]
async fn names_are_unique_in_any_case_and_reserved_prefixes_too() {
    let (_, app) = server(config()).await;
    register(&app, "Frank", "correct horse").await;
    for (i, name) in ["frank", "FRANK"].iter().enumerate() {
        let (s, body, _) = call(
            &app,
            req("POST", "/api/register", &creds(name, "other horse"), [10, 3, 0, i as u8], None),
        )
        .await;
        assert_eq!(s, StatusCode::CONFLICT, "{name}: {body}");
    }
    let (s, body, _) = call(
        &app,
        req("POST", "/api/login", &creds("fRaNk", "correct horse"), [10, 3, 1, 0], None),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "a login in another case: {body}");
    assert!(body.contains(r#""name":"Frank""#), "{body}");
    for (i, name) in ["Anon-abc", "ANON_1", "ai_level", "AI9", "Ai-bot"].iter().enumerate() {
        let (s, _, _) = call(
            &app,
            req("POST", "/api/register", &creds(name, "long enough"), [10, 3, 2, i as u8], None),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{name} is reserved");
    }
    assert_eq!(register(&app, "Aiden", "long enough").await.len(), 64);
}

#[tokio::test]
async fn sessions_are_listed_ended_one_by_one_and_by_logout() {
    let (_, app) = server(config()).await;
    let first = register(&app, "grace", "correct horse").await;
    let (s, _, headers) = call(
        &app,
        req("POST", "/api/login", &creds("grace", "correct horse"), [10, 4, 0, 1], None),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let second = common::set_cookie_token(&headers).unwrap();
    let list = |token: String| {
        let app = app.clone();
        async move {
            let (s, body, _) =
                call(&app, req("GET", "/api/sessions", "", [10, 4, 0, 2], Some(&token))).await;
            (s, serde_json::from_str::<serde_json::Value>(&body).unwrap_or_default())
        }
    };
    let (s, body) = list(second.clone()).await;
    assert_eq!(s, StatusCode::OK);
    let sessions = body["sessions"].as_array().unwrap().clone();
    assert_eq!(sessions.len(), 2, "{body}");
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    let other = sessions.iter().find(|s| s["current"] == false).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, _, _) = call(
        &app,
        req("DELETE", &format!("/api/sessions/{other}"), "", [10, 4, 0, 2], Some(&second)),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list(first.clone()).await.0, StatusCode::UNAUTHORIZED, "the ended session goes on");
    let (s, _, _) =
        call(&app, req("DELETE", "/api/sessions/nothing", "", [10, 4, 0, 2], Some(&second))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _, headers) =
        call(&app, req("POST", "/api/logout", "", [10, 4, 0, 2], Some(&second))).await;
    assert_eq!(s, StatusCode::OK);
    let cleared = headers[header::SET_COOKIE].to_str().unwrap().to_string();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(
        list(second).await.0,
        StatusCode::UNAUTHORIZED,
        "logged out, yet the session goes on"
    );
}

/// A socket of a session that logs out answers its next message with `forbidden` and
/// closes.
#[tokio::test]
async fn a_logout_closes_the_session_s_sockets() {
    let (addr, app) = server(config()).await;
    let token = register(&app, "kim", "correct horse").await;
    let mut c = Client::connect(addr, Some(&token)).await;
    c.send(cannonade_wire::ClientMsg::Ping { n: 1 }).await;
    c.until("pong", |m| matches!(m, cannonade_wire::ServerMsg::Pong { .. })).await;
    let (s, _, _) = call(&app, req("POST", "/api/logout", "", [10, 8, 0, 1], Some(&token))).await;
    assert_eq!(s, StatusCode::OK);
    c.send(cannonade_wire::ClientMsg::Ping { n: 2 }).await;
    let (code, _) = c.error().await;
    assert_eq!(code, cannonade_wire::ErrorCode::Forbidden);
    assert!(c.drain(500).await.is_empty(), "the socket answered after its session ended");
}

/// A session lasts its time after its last use: used within it, it goes on; left alone
/// longer, it is over.
#[tokio::test]
async fn sessions_expire_after_their_last_use() {
    let ttl = Duration::from_millis(1500);
    let (_, app) = server(cannonade_server::Config { session_ttl: ttl, ..config() }).await;
    let token = register(&app, "heidi", "correct horse").await;
    let sessions = || req("GET", "/api/sessions", "", [10, 5, 0, 1], Some(&token));
    for _ in 0..3 {
        tokio::time::sleep(ttl / 2).await;
        assert_eq!(call(&app, sessions()).await.0, StatusCode::OK, "a used session expired");
    }
    tokio::time::sleep(ttl + Duration::from_millis(300)).await;
    assert_eq!(call(&app, sessions()).await.0, StatusCode::UNAUTHORIZED, "an unused session lives");
}

/// Logging in ends the anonymous session that asked: its token opens nothing afterwards.
#[tokio::test]
async fn a_login_ends_the_anonymous_session_it_replaces() {
    let (addr, app) = server(config()).await;
    register(&app, "ivan", "correct horse").await;
    let anon = Client::connect(addr, None).await;
    let (s, _, _) = call(
        &app,
        req(
            "POST",
            "/api/login",
            &creds("ivan", "correct horse"),
            [10, 6, 0, 1],
            Some(&anon.token),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let again = Client::connect(addr, Some(&anon.token)).await;
    assert_ne!(again.user_id, anon.user_id, "the anonymous token still opens its session");
}

#[tokio::test]
async fn cookies_are_secure_over_https_and_http_only_always() {
    let cookie = |headers: &HeaderMap| headers[header::SET_COOKIE].to_str().unwrap().to_string();
    let (_, plain) = server(config()).await;
    let mut r = req("POST", "/api/register", &creds("judy", "correct horse"), [10, 7, 0, 1], None);
    r.headers_mut().insert("x-forwarded-proto", "https".parse().unwrap());
    let (_, _, h) = call(&plain, r).await;
    let c = cookie(&h);
    assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && !c.contains("Secure"), "{c}");
    let (_, proxied) = server(cannonade_server::Config { trust_proxy: true, ..config() }).await;
    let mut r = req("POST", "/api/register", &creds("judy", "correct horse"), [10, 7, 0, 1], None);
    r.headers_mut().insert("x-forwarded-proto", "https".parse().unwrap());
    let (_, _, h) = call(&proxied, r).await;
    assert!(cookie(&h).contains("Secure"), "{}", cookie(&h));
    let (_, always) = server(cannonade_server::Config { secure_cookies: true, ..config() }).await;
    let (_, _, h) = call(
        &always,
        req("POST", "/api/register", &creds("judy", "correct horse"), [10, 7, 0, 1], None),
    )
    .await;
    assert!(cookie(&h).contains("Secure"), "{}", cookie(&h));
}

/// New anonymous sessions are limited per address: sessions are what per-user caps count.
#[tokio::test]
async fn anonymous_sessions_are_limited_per_address() {
    let limits = Limits {
        anonymous_sessions_per_address: Rate { burst: 3, every: Duration::from_secs(60) },
        ..Limits::default()
    };
    let (addr, _app) = server(cannonade_server::Config { limits, ..config() }).await;
    let first = Client::connect(addr, None).await;
    for _ in 0..2 {
        Client::connect(addr, None).await;
    }
    assert_eq!(common::upgrade(addr, None, None).await.err(), Some(429));
    // A known session is no new session.
    assert!(common::upgrade(addr, Some(&first.token), None).await.is_ok());
}
