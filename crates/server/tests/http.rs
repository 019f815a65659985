//! Router and handler tests, without a socket (tower's `oneshot`).

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{config, server};
use http_body_util::BodyExt;
use tower::ServiceExt;

async fn call(
    app: &std::sync::Arc<cannonade_server::App>,
    req: Request<Body>,
) -> (StatusCode, String, axum::http::HeaderMap) {
    let res = cannonade_server::router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).to_string(), headers)
}

fn post(path: &str, json: &str) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(json.to_string()))
        .unwrap()
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

#[tokio::test]
async fn pages_metrics_and_the_live_list() {
    let (_, app) = server(config()).await;
    let (s, body, _) = call(&app, get("/")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains("<title>Cannonade</title>"));
    assert_eq!(call(&app, get("/invite/abc")).await.0, StatusCode::OK);
    let (s, body, _) = call(&app, get("/metrics")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        body.contains("cannonade_sockets 0")
            && body.contains("cannonade_move_latency_seconds_count")
    );
    let (s, body, _) = call(&app, get("/api/games")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body, r#"{"games":[],"live":0}"#);
    assert_eq!(call(&app, get("/no/such/page")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(call(&app, get("/../etc/passwd")).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn accounts_register_once_and_log_in_with_the_right_password() {
    let (_, app) = server(config()).await;
    let (s, body, headers) =
        call(&app, post("/api/register", r#"{"name":"alice","password":"correct horse"}"#)).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(headers[header::SET_COOKIE].to_str().unwrap().starts_with("cannonade_session="));
    assert!(body.contains(r#""account":true"#));
    let (s, _, _) =
        call(&app, post("/api/register", r#"{"name":"alice","password":"another one"}"#)).await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _, _) = call(&app, post("/api/register", r#"{"name":"bob","password":"short"}"#)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _, _) =
        call(&app, post("/api/register", r#"{"name":"anon-x","password":"long enough"}"#)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "reserved names");
    let (s, _, _) =
        call(&app, post("/api/login", r#"{"name":"alice","password":"wrong horse"}"#)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, body, _) =
        call(&app, post("/api/login", r#"{"name":"alice","password":"correct horse"}"#)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains(r#""name":"alice""#));
    let (s, _, _) =
        call(&app, post("/api/login", r#"{"name":"nobody","password":"correct horse"}"#)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn export_says_what_is_missing() {
    let (_, app) = server(config()).await;
    assert_eq!(call(&app, get("/api/game/nothing/export")).await.0, StatusCode::NOT_FOUND);
}
