use crate::Position;
use crate::reference::reference_perft;
use cannonade_core::perft;

#[test]
#[ignore]
fn gen_numbers() {
    let fens = std::fs::read_to_string("/tmp/fens.txt").unwrap();
    for fen in fens.lines().filter(|l| !l.is_empty()) {
        let p = Position::from_fen(fen).unwrap();
        let mut s = fen.to_string();
        for d in 1..=4 {
            let f = perft(&p, d);
            if f > 3_000_000 { break; }
            let r = reference_perft(&p, d);
            assert_eq!(f, r, "{fen} depth {d}");
            s += &format!(" ; D{d} {f}");
        }
        println!("{s}");
    }
}

#[test]
#[ignore]
fn gen_random() {
    use cannonade_core::{MoveBuf, Rules};
    let mut rng = cannonade_geom::SplitMix64(42);
    for plies in [16, 30] {
        let mut p = Position::startpos();
        let mut buf = MoveBuf::new();
        for _ in 0..plies {
            p.legal_moves(&mut buf);
            let mv = buf[rng.below(buf.len() as u64) as usize];
            p.play(mv);
        }
        println!("{}", p.fen());
    }
}

#[test]
#[ignore]
fn ref_start4() {
    let t = std::time::Instant::now();
    println!("REF4 {} {:?}", reference_perft(&Position::startpos(), 4), t.elapsed());
}
