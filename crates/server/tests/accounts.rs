//! Accounts and sessions: throttled logins, the same work for unknown names, a bound on
//! hashes at once, names unique in any case, logout, session lists, expiry, and cookies.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode, header};
use cannonade_server::limits::{Limits, Rate};
use cannonade_server::listener::Peer;
use common::{Client, config, plenty, server};
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
    let before = hashes(&app.metrics.render(app.engines.stats()));
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
    assert_eq!(
        hashes(&app.metrics.render(app.engines.stats())) - before,
        6,
        "every attempt hashes once"
    );
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

/// `POST /api/password` with `{old, new}` as the session `token`, from the address `from`.
async fn change_password(
    app: &App,
    token: &str,
    old: &str,
    new: &str,
    from: [u8; 4],
) -> (StatusCode, String) {
    let body = serde_json::json!({ "old": old, "new": new }).to_string();
    let (s, body, _) = call(app, req("POST", "/api/password", &body, from, Some(token))).await;
    (s, body)
}

/// A change of password needs the current one; it keeps the session that asked and ends
/// the others, and the new password is the one that logs in.
#[tokio::test]
async fn a_password_change_checks_the_old_one_and_ends_the_other_sessions() {
    // A change of password counts as a login for the throttle; this test makes more than a
    // name's burst of them.
    let mut limits = config().limits;
    limits.logins_per_name = plenty();
    let (addr, app) = server(cannonade_server::Config { limits, ..config() }).await;
    let here = register(&app, "lena", "correct horse").await;
    let (s, _, headers) =
        call(&app, req("POST", "/api/login", &creds("lena", "correct horse"), [10, 9, 0, 1], None))
            .await;
    assert_eq!(s, StatusCode::OK);
    let elsewhere = common::set_cookie_token(&headers).unwrap();
    let (s, body) =
        change_password(&app, &here, "wrong horse", "battery staple", [10, 9, 0, 2]).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body.contains(r#""code":"forbidden""#) && body.contains("wrong password"), "{body}");
    let (s, body) = change_password(&app, &here, "correct horse", "short", [10, 9, 0, 2]).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    let (s, body) =
        change_password(&app, &here, "correct horse", "battery staple", [10, 9, 0, 2]).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let sessions = |token: String| req("GET", "/api/sessions", "", [10, 9, 0, 3], Some(&token));
    assert_eq!(call(&app, sessions(here.clone())).await.0, StatusCode::OK, "this session ended");
    assert_eq!(
        call(&app, sessions(elsewhere.clone())).await.0,
        StatusCode::UNAUTHORIZED,
        "another session outlived the password change"
    );
    let again = Client::connect(addr, Some(&elsewhere)).await;
    assert_ne!(again.user_id, Client::connect(addr, Some(&here)).await.user_id);
    let login = |pw: &str| req("POST", "/api/login", &creds("lena", pw), [10, 9, 0, 4], None);
    assert_eq!(call(&app, login("correct horse")).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(call(&app, login("battery staple")).await.0, StatusCode::OK);
    // An anonymous session has no password to change.
    let anon = Client::connect(addr, None).await;
    let (s, _) = change_password(&app, &anon.token, "x", "battery staple", [10, 9, 0, 5]).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// Every state-changing request from another site's page is refused, by `Origin` or, when
/// a browser sends none, by `Sec-Fetch-Site`; the site's own page and programs pass.
#[tokio::test]
async fn state_changing_requests_from_other_sites_are_refused() {
    let (_, app) = server(config()).await;
    let token = register(&app, "mona", "correct horse").await;
    let with = |method: &str, path: &str, body: &str, headers: &[(&str, &str)]| {
        let mut r = req(method, path, body, [10, 10, 0, 1], Some(&token));
        r.headers_mut().insert(header::HOST, "cannonade.example".parse().unwrap());
        for (k, v) in headers {
            let name = axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap();
            r.headers_mut().insert(name, v.parse().unwrap());
        }
        r
    };
    let pw = serde_json::json!({ "old": "correct horse", "new": "battery staple" }).to_string();
    let writes: [(&str, &str, String); 6] = [
        ("POST", "/api/register", creds("nora", "correct horse")),
        ("POST", "/api/login", creds("mona", "correct horse")),
        ("POST", "/api/password", pw.clone()),
        ("POST", "/api/logout", String::new()),
        ("DELETE", "/api/sessions/abc", String::new()),
        ("PUT", "/api/anything", String::new()),
    ];
    for (method, path, body) in &writes {
        for headers in [
            &[("origin", "https://evil.example")][..],
            &[("origin", "null")][..],
            &[("sec-fetch-site", "cross-site")][..],
            &[("sec-fetch-site", "same-site")][..],
        ] {
            let (s, text, _) = call(&app, with(method, path, body, headers)).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{method} {path} {headers:?}: {text}");
            assert!(text.contains(r#""code":"forbidden""#), "{text}");
        }
    }
    // Reads from anywhere are fine (the cookie is SameSite=Lax anyway).
    let (s, _, _) =
        call(&app, with("GET", "/api/sessions", "", &[("origin", "https://evil.example")])).await;
    assert_eq!(s, StatusCode::OK);
    // The site's own page (by Origin, or by Sec-Fetch-Site without one) and a program pass.
    let own = [("origin", "http://cannonade.example"), ("sec-fetch-site", "same-origin")];
    let (s, text, _) = call(&app, with("POST", "/api/password", &pw, &own)).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let (s, text, _) =
        call(&app, with("POST", "/api/login", &creds("mona", "battery staple"), &[own[1]])).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let (s, text, _) = call(&app, with("POST", "/api/logout", "", &[])).await;
    assert_eq!(s, StatusCode::OK, "{text}");
}

/// An anonymous player who registers keeps the games played in that browser: the
/// anonymous user becomes the account (same id), and its old token opens nothing.
#[tokio::test]
async fn an_anonymous_player_who_registers_keeps_their_games() {
    use cannonade_games::GameKind;
    use cannonade_wire::ClientMsg;
    let (addr, app) = server(config()).await;
    let mut anon = Client::connect(addr, None).await;
    anon.send(common::untimed_hotseat(GameKind::Xiangqi)).await;
    let (game, _) = anon.started().await;
    let (s, body, headers) = call(
        &app,
        req(
            "POST",
            "/api/register",
            &creds("olga", "correct horse"),
            [10, 11, 0, 1],
            Some(&anon.token),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let token = common::set_cookie_token(&headers).unwrap();
    assert_ne!(token, anon.token, "the session was not renewed at registration");
    let mut account = Client::connect(addr, Some(&token)).await;
    assert_eq!(account.user_id, anon.user_id, "the account is another user");
    let (s, body, _) =
        call(&app, req("GET", "/api/my-games", "", [10, 11, 0, 1], Some(&token))).await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains(&game), "the anonymous game is not the account's: {body}");
    // The account holds the game's seats: it may move in it.
    account.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = account.snapshot().await;
    assert_eq!(snap.you, cannonade_wire::Role::Both);
    let again = Client::connect(addr, Some(&anon.token)).await;
    assert_ne!(again.user_id, anon.user_id, "the anonymous token still opens its session");
    // The account logs in by its name; an anonymous user who never sat registers too.
    let login = creds("olga", "correct horse");
    assert_eq!(
        call(&app, req("POST", "/api/login", &login, [10, 11, 0, 2], None)).await.0,
        StatusCode::OK
    );
    let fresh = Client::connect(addr, None).await;
    let (s, body, _) = call(
        &app,
        req(
            "POST",
            "/api/register",
            &creds("petra", "correct horse"),
            [10, 11, 0, 3],
            Some(&fresh.token),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(body.contains(&fresh.user_id), "{body}");
}
