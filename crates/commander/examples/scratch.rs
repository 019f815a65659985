use cannonade_commander::Position;
use cannonade_core::{MoveBuf, Rules};
use std::collections::BTreeMap;
fn main() {
    let fen = std::env::args().nth(1).unwrap_or(cannonade_commander::START_FEN.to_string());
    let root = Position::from_fen(&fen).unwrap();
    let mut stats: BTreeMap<String, u64> = BTreeMap::new();
    let mut b1 = MoveBuf::new();
    root.legal_moves(&mut b1);
    for &m1 in b1.iter() {
        let mut p1 = root.clone();
        p1.play(m1);
        let mut b2 = MoveBuf::new();
        p1.legal_moves(&mut b2);
        for &m2 in b2.iter() {
            let mut p2 = p1.clone();
            p2.play(m2);
            let mut b3 = MoveBuf::new();
            p2.legal_moves(&mut b3);
            let bc = if m2.is_capture() { "bluecap" } else { "quiet" };
            *stats.entry(format!("{bc} positions")).or_default() += 1;
            for &m3 in b3.iter() {
                let s = p2.move_to_string(m3);
                let kind = s.chars().next().unwrap();
                let op = if s.contains(':') { "deploy".to_string() } else { s.chars().filter(|c| "x_@&".contains(*c)).collect::<String>() };
                *stats.entry(format!("{bc} {kind}{op}")).or_default() += 1;
            }
        }
    }
    for (k, v) in stats { println!("{k}: {v}"); }
}
