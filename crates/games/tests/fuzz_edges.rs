//! Whatever text arrives at the edge, every game answers with a value or an error, never a
//! panic: positions, moves, options and chance results.

use cannonade_games::{AnyGame, AnyRecord, GameKind};
use proptest::prelude::*;

/// Positions to try moves against: each game's start and a busier one.
fn positions() -> Vec<AnyGame> {
    let mut v: Vec<AnyGame> =
        GameKind::available_games().filter_map(|k| AnyGame::start(k).ok()).collect();
    v.extend(
        [
            (
                GameKind::Banqi,
                "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB",
            ),
            (GameKind::ChessBattle, "1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 0 1"),
            (GameKind::Commander, "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1"),
        ]
        .into_iter()
        .filter_map(|(k, fen)| AnyGame::from_fen(k, fen).ok()),
    );
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn position_text_never_panics(text in "\\PC{0,100}") {
        for kind in GameKind::ALL {
            if let Ok(g) = AnyGame::from_fen(kind, &text) {
                prop_assert_eq!(AnyGame::from_fen(kind, &g.fen()).map(|x| x.fen()), Ok(g.fen()));
            }
        }
    }

    #[test]
    fn board_like_text_never_panics(text in "[0-9a-zA-Z/ ?=x*^@+#-]{0,90}") {
        for kind in GameKind::ALL {
            let _ = AnyGame::from_fen(kind, &text);
        }
    }

    #[test]
    fn move_text_never_panics(text in "\\PC{0,16}", ascii in "[a-l0-9?=x*^@+#:,()>_&-]{0,14}") {
        for g in positions() {
            for t in [&text, &ascii] {
                if let Ok(mv) = g.parse_move(t) {
                    prop_assert!(g.legal_moves().contains(&mv));
                }
                let mut r = AnyRecord::new(g.clone());
                let _ = r.play_text(t);
                let mut h = g.clone();
                let _ = h.resolve_text(t);
                let _ = h.apply_options(t);
            }
        }
    }
}
