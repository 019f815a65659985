//! The websocket's session: from the cookie (or `Authorization`), never from the URL; never
//! echoed in a message; and only for pages of this server's own origin (or allowed ones).

mod common;

use common::{Client, config, server, upgrade};
use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::Message;

/// The first text frame of a socket.
async fn first_text(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> String {
    loop {
        match ws.next().await.expect("open").expect("no error") {
            Message::Text(t) => return t.to_string(),
            _ => continue,
        }
    }
}

#[tokio::test]
async fn the_cookie_resumes_a_session_and_a_url_token_opens_none() {
    let (addr, _app) = server(config()).await;
    let a = Client::connect(addr, None).await;
    assert_eq!(a.token.len(), 64, "a new session's token comes as a cookie");
    let again = Client::connect(addr, Some(&a.token)).await;
    assert_eq!(again.user_id, a.user_id, "the cookie resumes the session");
    // The token in the URL (where logs keep it) is not a way in.
    let url = format!("ws://{addr}/ws?token={}", a.token);
    let (mut ws, res) = tokio_tungstenite::connect_async(url).await.unwrap();
    let welcome: cannonade_wire::ServerMsg =
        serde_json::from_str(&first_text(&mut ws).await).unwrap();
    let cannonade_wire::ServerMsg::Welcome { user, .. } = welcome else { panic!("{welcome:?}") };
    assert_ne!(user.id, a.user_id, "a URL token opened the session");
    assert_ne!(common::set_cookie_token(res.headers()).as_deref(), Some(a.token.as_str()));
}

#[tokio::test]
async fn welcome_never_carries_the_token() {
    let (addr, _app) = server(config()).await;
    for token in [None, Some(Client::connect(addr, None).await.token)] {
        let (mut ws, token) = upgrade(addr, token.as_deref(), None).await.unwrap();
        let text = first_text(&mut ws).await;
        assert!(text.contains(r#""t":"welcome""#), "{text}");
        assert!(!text.contains(&token), "the welcome holds the token: {text}");
        assert!(!text.contains("token"), "{text}");
    }
}

#[tokio::test]
async fn pages_of_other_sites_may_not_open_a_socket() {
    let allowed = "https://play.example.org";
    let (addr, _app) =
        server(cannonade_server::Config { allowed_origins: vec![allowed.into()], ..config() })
            .await;
    let c = Client::connect(addr, None).await;
    let evil = upgrade(addr, Some(&c.token), Some("https://evil.example")).await;
    assert_eq!(evil.err(), Some(403), "another site's page rode on the cookie");
    let look_alike =
        upgrade(addr, Some(&c.token), Some(&format!("http://{addr}.evil.example"))).await;
    assert_eq!(look_alike.err(), Some(403));
    assert!(upgrade(addr, Some(&c.token), Some(&format!("http://{addr}"))).await.is_ok());
    assert!(upgrade(addr, Some(&c.token), Some(allowed)).await.is_ok());
    // Programs send no Origin: nothing rides on a browser's cookie.
    assert!(upgrade(addr, Some(&c.token), None).await.is_ok());
}
