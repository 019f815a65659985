//! The page's files: each with its entity tag, `304` when the browser has it, gzip when the
//! browser takes it (issue 24.4), and the websocket untouched by the compression.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use cannonade_server::listener::Peer;
use common::{Client, config, server};
use http_body_util::BodyExt;
use std::net::SocketAddr;
use tower::ServiceExt;

async fn get(
    app: &std::sync::Arc<cannonade_server::App>,
    path: &str,
    headers: &[(header::HeaderName, &str)],
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut r = Request::get(path).body(Body::empty()).unwrap();
    for (name, value) in headers {
        r.headers_mut().insert(name, value.parse().unwrap());
    }
    r.extensions_mut().insert(ConnectInfo(Peer(SocketAddr::from(([10, 0, 0, 9], 40000)))));
    let res = cannonade_server::router(app.clone()).oneshot(r).await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.into_body().collect().await.unwrap().to_bytes().to_vec())
}

#[tokio::test]
async fn page_files_carry_tags_answer_304_and_come_gzipped() {
    let (addr, app) = server(config()).await;
    let asset = cannonade_webui::get("/js/app.js").unwrap();
    let (status, headers, body) = get(&app, "/js/app.js", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::ETAG], asset.etag);
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert_eq!(body, asset.bytes, "no encoding asked for, none given");
    // The browser has it: no bytes.
    let (status, headers, body) =
        get(&app, "/js/app.js", &[(header::IF_NONE_MATCH, asset.etag)]).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert_eq!(headers[header::ETAG], asset.etag);
    assert!(body.is_empty());
    // An older copy: the file again.
    let (status, _, _) = get(&app, "/js/app.js", &[(header::IF_NONE_MATCH, "\"0\"")]).await;
    assert_eq!(status, StatusCode::OK);
    // gzip, which decodes to the file.
    let (status, headers, body) =
        get(&app, "/", &[(header::ACCEPT_ENCODING, "gzip, deflate, br")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    let index = cannonade_webui::get("/index.html").unwrap();
    assert!(body.len() < index.bytes.len(), "{} >= {}", body.len(), index.bytes.len());
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut plain).unwrap();
    assert_eq!(plain, index.bytes);
    // The websocket still opens (its answer is a protocol switch, never compressed).
    let mut c = Client::connect(addr, None).await;
    c.send(cannonade_wire::ClientMsg::Ping { n: 3 }).await;
    assert!(matches!(c.recv().await, cannonade_wire::ServerMsg::Pong { n: 3 }));
}
