//! Properties: the public view never carries a hidden identity, the square masks agree with
//! the cells, chance weights equal the face-down counts, and no input string makes a parser panic.

use crate::{
    AnyPosition, Cell, DealSeed, FullPosition, Options, Piece, Position, Square, deal_from_seed,
    misty,
};
use cannonade_core::{MoveBuf, Rules, Weighted};
use cannonade_geom::SplitMix64;
use proptest::prelude::*;

fn seed_of(n: u64) -> DealSeed {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&n.to_le_bytes());
    DealSeed::from_bytes(b)
}

/// Another deal consistent with the same public position: the identities rotated by one
/// face-down square.
fn other_deal(f: &FullPosition) -> Option<FullPosition> {
    let downs: Vec<Square> = Square::ALL.into_iter().filter(|&s| f.identity(s).is_some()).collect();
    let ids: Vec<Piece> = downs.iter().filter_map(|&s| f.identity(s)).collect();
    let rotated: Vec<(Square, Piece)> =
        downs.iter().enumerate().map(|(i, &s)| (s, ids[(i + 1) % ids.len().max(1)])).collect();
    FullPosition::new(f.redact(), &rotated).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The public position is a function of public information only: two deals that agree
    /// on everything public redact to identical values, texts, `Debug` forms and hashes, and
    /// the public BFEN never has a hidden field.
    #[test]
    fn random_games_never_reveal_an_identity(seed in any::<u64>()) {
        let mut f = deal_from_seed(&Position::startpos(), &seed_of(seed));
        let mut rng = SplitMix64(seed);
        let mut buf = MoveBuf::new();
        for _ in 0..400 {
            let p = f.redact();
            let fen = p.fen();
            prop_assert_eq!(fen.split_whitespace().count(), 5);
            prop_assert!(f.fen().starts_with(&fen));
            if let Some(g) = other_deal(&f) {
                let q = g.redact();
                prop_assert_eq!(&q, &p);
                prop_assert_eq!(format!("{q:?}"), format!("{p:?}"));
                prop_assert_eq!(q.pretty(), p.pretty());
                prop_assert_eq!(q.hash(), p.hash());
            }
            if !matches!(f.next(), cannonade_core::Next::Player(_)) { break; }
            f.legal_moves(&mut buf);
            let mv = buf[rng.below(buf.len() as u64) as usize];
            f.play(mv);
        }
    }

    /// The square masks the evaluation reads agree with the cells at every position of
    /// random games: each piece's face-up squares, the empty squares, and each square's
    /// neighbours (the squares one step away along a file or rank).
    #[test]
    fn square_masks_agree_with_the_cells(seed in any::<u64>()) {
        for sq in Square::ALL {
            let near = Square::ALL.into_iter().filter(|o| {
                sq.file().abs_diff(o.file()) + sq.rank().abs_diff(o.rank()) == 1
            });
            prop_assert_eq!(sq.neighbours(), near.map(|o| o.bit()).sum::<u32>());
        }
        let mut f = deal_from_seed(&Position::startpos(), &seed_of(seed));
        let mut rng = SplitMix64(seed);
        let mut buf = MoveBuf::new();
        for _ in 0..400 {
            let p = f.redact();
            for sq in Square::ALL {
                let cell = p.cell(sq);
                prop_assert_eq!(p.empty_squares() & sq.bit() != 0, cell == Cell::Empty);
                for piece in Piece::ALL {
                    let up = p.face_up_squares(piece) & sq.bit() != 0;
                    prop_assert_eq!(up, cell == Cell::FaceUp(piece));
                }
            }
            if !matches!(f.next(), cannonade_core::Next::Player(_)) { break; }
            f.legal_moves(&mut buf);
            let mv = buf[rng.below(buf.len() as u64) as usize];
            f.play(mv);
        }
    }

    /// At every chance node of random public games the outcomes are exactly the face-down
    /// kinds, weighted by their pool counts, and the weights add up to the face-down count.
    #[test]
    fn chance_weights_equal_face_down_counts(seed in any::<u64>()) {
        let mut p = Position::startpos();
        let mut rng = SplitMix64(seed);
        let mut buf = MoveBuf::new();
        let mut out: Vec<Weighted<Piece>> = Vec::new();
        for _ in 0..600 {
            if p.chance_pending() {
                p.chance_outcomes(&mut out);
                let total: u32 = out.iter().map(|w| w.weight).sum();
                prop_assert_eq!(total, p.face_down_count());
                for piece in Piece::ALL {
                    let w = out.iter().find(|w| w.outcome == piece).map_or(0, |w| w.weight);
                    prop_assert_eq!(w, p.pool_count(piece) as u32);
                }
                let mut pick = rng.below(total as u64) as u32;
                let chosen = out.iter().find(|w| { let hit = pick < w.weight; pick = pick.saturating_sub(w.weight); hit }).map(|w| w.outcome);
                prop_assert!(chosen.is_some());
                if let Some(c) = chosen { p.resolve(c); }
                continue;
            }
            if !matches!(p.next(), cannonade_core::Next::Player(_)) { break; }
            p.legal_moves(&mut buf);
            p.play(buf[rng.below(buf.len() as u64) as usize]);
        }
    }

    /// Parsers return errors, never panic.
    #[test]
    fn parsers_never_panic(s in "\\PC{0,80}") {
        let _ = Position::from_fen(&s);
        let _ = FullPosition::from_fen(&s);
        let _ = AnyPosition::from_fen_with(&s, Options::STANDARD);
        let _ = s.parse::<Options>();
        let _ = Position::startpos().parse_move(&s);
        let _ = misty::from_misty(&s);
        let _ = misty::move_from_misty(&s);
        let _ = misty::move_to_misty(&s);
        let _ = DealSeed::from_hex(&s);
    }

    /// Parsers of BFEN-shaped noise (the alphabet of the notation) never panic either.
    #[test]
    fn bfen_shaped_noise_never_panics(s in "[XKABRNCPkabrncp1-9/]{1,40} [rb-] [KkPpXx1-5-]{1,8} [0-9]{1,3} [0-9]{1,3}( [A-Za-z?1-4-]{1,6})?") {
        let _ = Position::from_fen(&s);
        let _ = FullPosition::from_fen(&s);
        if let Ok(p) = Position::from_fen(&s) {
            prop_assert_eq!(Position::from_fen(&p.fen()), Ok(p.clone()));
        }
    }
}

#[test]
fn seeded_games_verify_and_a_tampered_flip_is_reported() {
    let seed = seed_of(99);
    let mut f = deal_from_seed(&Position::startpos(), &seed);
    let mut rng = SplitMix64(7);
    let mut buf = MoveBuf::new();
    let mut moves = Vec::new();
    for _ in 0..80 {
        if !matches!(f.next(), cannonade_core::Next::Player(_)) {
            break;
        }
        f.legal_moves(&mut buf);
        let mv = buf[rng.below(buf.len() as u64) as usize];
        moves.push(f.recorded_move(mv));
        f.play(mv);
    }
    let end =
        crate::verify_flips(&Position::startpos(), &seed, &moves).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(end, f);
    // A flip changed to another piece that was still face down: the first mismatch is named.
    let i = moves.iter().position(|m| m.contains('=')).unwrap_or(0);
    let (sq, letter) = moves[i].split_once('=').unwrap_or_default();
    let replacement =
        ['P', 'p', 'C', 'c'].into_iter().find(|c| c.to_string() != letter).unwrap_or('P');
    let mut tampered = moves.clone();
    tampered[i] = format!("{sq}={replacement}");
    match crate::verify_flips(&Position::startpos(), &seed, &tampered) {
        Err(crate::VerifyError::FlipMismatch { ply, square, .. }) => {
            assert_eq!(ply, i + 1);
            assert_eq!(square.to_string(), sq);
        }
        other => panic!("tampering not reported: {other:?}"),
    }
}
