//! The core conformance checks, wired to Xiangqi (`testkit` feature).

use crate::{Move, Position};
use cannonade_core::testkit::Conformance;
use cannonade_core::{MoveBuf, Weighted};

impl Conformance for Position {
    fn reference_moves(&self) -> Vec<Move> {
        Position::reference_moves(self)
    }

    fn recomputed_hash(&self) -> u64 {
        self.compute_hash()
    }

    /// The captures-only generator (quiescence's) lists exactly the legal moves that capture,
    /// and every notation (1-based coordinates, WXF, Chinese) names each legal move.
    fn check_invariants(&self, _chances: &[Weighted<Self::Chance>]) -> Result<(), String> {
        for mv in self.legal_moves() {
            self.check_notations(mv)?;
        }
        let mut want: Vec<Move> =
            self.legal_moves().into_iter().filter(|&m| self.is_capture(m)).collect();
        let mut buf = MoveBuf::new();
        self.legal_captures_into(&mut buf);
        let mut got = buf.into_vec();
        want.sort();
        got.sort();
        if got != want {
            return Err(format!("legal captures {got:?}, capturing legal moves {want:?}"));
        }
        Ok(())
    }
}

impl Position {
    /// Every notation reads back as `mv`.
    fn check_notations(&self, mv: Move) -> Result<(), String> {
        let checks = [
            self.parse_move_in(&mv.uci().to_text(crate::Ranks::FromOne), crate::Ranks::FromOne),
            self.parse_wxf(&self.wxf(mv)),
            self.parse_chinese(&self.chinese(mv)),
        ];
        for (name, back) in ["1-based", "WXF", "Chinese"].iter().zip(checks) {
            match back {
                Ok(m) if m == mv => {}
                other => return Err(format!("{name} form of {mv} reads back as {other:?}")),
            }
        }
        Ok(())
    }
}
