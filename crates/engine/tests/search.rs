//! The search finds mates, takes free material, obeys its limits and always answers legally.

use cannonade_engine::{Limits, MATE, search};
use cannonade_xiangqi::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn go(
    fen: &str,
    limits: Limits,
) -> (Position, cannonade_engine::SearchResult<cannonade_xiangqi::Move>) {
    let p = Position::from_fen(fen).unwrap();
    let r = search(&p, &limits, &AtomicBool::new(false), |_| {});
    (p, r)
}

#[test]
fn finds_mate_in_one() {
    let (_, r) = go("4k4/R8/1R7/9/9/9/9/9/9/3K5 w", Limits { depth: Some(3), ..Limits::default() });
    // b7b9 mates; b7f7 stalemates, which also wins at once in Xiangqi.
    assert!(["b7b9", "b7f7"].contains(&r.best.unwrap().to_string().as_str()));
    assert_eq!(r.score, MATE - 1);
}

#[test]
fn takes_a_free_chariot() {
    let (_, r) = go("4k4/9/9/9/r8/R8/9/9/9/3K5 w", Limits { depth: Some(2), ..Limits::default() });
    assert_eq!(r.best.unwrap().to_string(), "a4a5");
}

#[test]
fn no_move_means_none() {
    let (_, r) =
        go("5k3/9/9/9/3r5/9/9/6n2/9/4K4 w", Limits { depth: Some(2), ..Limits::default() });
    assert_eq!(r.best, None);
}

#[test]
fn limits_stop_the_search_with_a_legal_move() {
    let (p, r) = go(cannonade_xiangqi::START_FEN, Limits { nodes: Some(500), ..Limits::default() });
    assert!(p.legal_moves().contains(&r.best.unwrap()));
    assert!(r.nodes <= 600);
    let (p, r) = go(
        cannonade_xiangqi::START_FEN,
        Limits { time: Some(Duration::from_millis(30)), ..Limits::default() },
    );
    assert!(p.legal_moves().contains(&r.best.unwrap()));
    let stop = AtomicBool::new(true);
    let r = search(&p, &Limits::default(), &stop, |_| {});
    assert!(p.legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn clock_allocation_is_sane() {
    let t = Limits::from_clock(60_000, 0, None, 50);
    assert!(t > Duration::from_millis(500) && t < Duration::from_secs(5), "{t:?}");
    assert!(Limits::from_clock(10, 0, None, 50) >= Duration::from_millis(5));
    assert!(Limits::from_clock(1_000, 0, Some(1), 50) <= Duration::from_millis(500));
}
