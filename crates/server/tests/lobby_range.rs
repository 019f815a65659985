//! The lobby's seeks: rating ranges checked on the server against the taker's rating in the
//! seek's game and speed, the seeker's rating shown with the seek, and seeks without the
//! new fields still understood.

mod common;

use cannonade_games::GameKind;
use cannonade_wire::{
    ClientMsg, ErrorCode, RangeRequest, RatingRange, SeekInfo, ServerMsg, TimeControl,
};
use common::{Client, account, config, rate, server, tc};

/// A casual or rated Xiangqi seek on `clock` with `range`.
fn seek_msg(clock: TimeControl, rated: bool, range: Option<RangeRequest>) -> ClientMsg {
    ClientMsg::Seek { game: GameKind::Xiangqi, options: String::new(), clock, rated, range }
}

/// A blitz (3+2) Xiangqi seek by `c` with `range`: the seek as the lobby lists it.
async fn seek(c: &mut Client, rated: bool, range: Option<RangeRequest>) -> SeekInfo {
    c.send(seek_msg(tc(180_000, 2_000), rated, range)).await;
    match c.until("seek_added", |m| matches!(m, ServerMsg::SeekAdded { .. })).await {
        ServerMsg::SeekAdded { seek } => seek,
        _ => unreachable!(),
    }
}

const AROUND_200: RangeRequest = RangeRequest { around: Some(200), min: None, max: None };

#[tokio::test]
async fn a_ranged_seek_is_taken_in_range_only_and_never_anonymously() {
    let (addr, app) = server(config()).await;
    let tokens = [
        account(&app, "seeker").await,
        account(&app, "near").await,
        account(&app, "far").await,
        account(&app, "rapidist").await,
    ];
    rate(&app, "seeker", "blitz", 1500.0, 60.0).await;
    rate(&app, "near", "blitz", 1650.0, 60.0).await;
    rate(&app, "far", "blitz", 1750.0, 60.0).await;
    // Rated 2400 at rapid, but not yet at blitz: 1500 there, the default.
    rate(&app, "rapidist", "rapid", 2400.0, 60.0).await;
    let mut seeker = Client::connect(addr, Some(&tokens[0])).await;
    let mut near = Client::connect(addr, Some(&tokens[1])).await;
    let mut far = Client::connect(addr, Some(&tokens[2])).await;
    let mut rapidist = Client::connect(addr, Some(&tokens[3])).await;
    let mut anon = Client::connect(addr, None).await;

    let s = seek(&mut seeker, true, Some(AROUND_200)).await;
    assert_eq!(s.range, Some(RatingRange { min: 1300, max: 1700 }), "±200 of the seeker's 1500");
    assert_eq!((s.rating, s.provisional), (Some(1500), false));

    // Out of range: refused with a code, the seek stays open.
    far.send(ClientMsg::AcceptSeek { id: s.id.clone() }).await;
    let (code, text) = far.error().await;
    assert_eq!(code, ErrorCode::Forbidden);
    assert!(text.contains("1300–1700") && text.contains("1750"), "{text}");
    // Anonymous: refused, even for a casual ranged seek.
    anon.send(ClientMsg::AcceptSeek { id: s.id.clone() }).await;
    assert_eq!(anon.error().await.0, ErrorCode::Forbidden);
    let casual = seek(&mut seeker, false, Some(AROUND_200)).await;
    anon.send(ClientMsg::AcceptSeek { id: casual.id.clone() }).await;
    let (code, text) = anon.error().await;
    assert_eq!(code, ErrorCode::Forbidden, "{text}");
    assert!(text.contains("register"), "{text}");

    // In range: the game starts.
    near.send(ClientMsg::AcceptSeek { id: s.id.clone() }).await;
    let (game, _) = near.started().await;
    assert_eq!(seeker.started().await.0, game);
    // The rating that counts is the seek's speed's: a 2400 rapid player is 1500 at blitz.
    rapidist.send(ClientMsg::AcceptSeek { id: casual.id.clone() }).await;
    let (other, _) = rapidist.started().await;
    assert_ne!(other, game);
}

#[tokio::test]
async fn ranges_need_an_account_and_a_clock_and_some_rating_in_them() {
    let (addr, app) = server(config()).await;
    let token = account(&app, "newcomer").await;
    let mut anon = Client::connect(addr, None).await;
    anon.send(seek_msg(tc(180_000, 2_000), false, Some(AROUND_200))).await;
    assert_eq!(anon.error().await.0, ErrorCode::Forbidden, "an anonymous seeker has no rating");

    let mut c = Client::connect(addr, Some(&token)).await;
    c.send(seek_msg(tc(0, 0), false, Some(AROUND_200))).await;
    assert_eq!(c.error().await.0, ErrorCode::Forbidden, "an untimed game has no rating");
    let empty = RangeRequest { around: None, min: Some(1800), max: Some(1700) };
    c.send(seek_msg(tc(180_000, 2_000), false, Some(empty))).await;
    assert_eq!(c.error().await.0, ErrorCode::Invalid);
    // A new account's seek shows the default rating, provisional; an anonymous one none.
    let s = seek(&mut c, false, None).await;
    assert_eq!((s.rating, s.provisional, s.range), (Some(1500), true, None));
    let a = seek(&mut anon, false, None).await;
    assert_eq!((a.rating, a.provisional), (None, false));
}

#[tokio::test]
async fn a_seek_without_the_new_fields_is_still_understood_and_listed_without_them() {
    let (addr, _) = server(config()).await;
    let mut c = Client::connect(addr, None).await;
    c.send_text(
        r#"{"t":"seek","game":"xiangqi","options":"","clock":{"initial_ms":300000,"increment_ms":3000},"rated":false}"#,
    )
    .await;
    c.until("seek_added", |m| matches!(m, ServerMsg::SeekAdded { .. })).await;
    let frame = c.frames.last().unwrap();
    assert!(!frame.contains("range") && !frame.contains("rating"), "{frame}");
}
