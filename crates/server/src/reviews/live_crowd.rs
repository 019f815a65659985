//! The crowd against the engine while a game goes on (docs/analysis.md): when a move ends a
//! ply on which spectators proposed, that ply alone is reviewed (the moves before replayed,
//! not searched) with the crowd's favourite valued beside the move played, as a background
//! job of the engine service, and the judgement goes to the game's spectators. Only plies
//! already played are judged: the open ply never is. The whole review at the game's end
//! judges every ply again, with every spectator's proposals.

use super::crowd::{CrowdPly, judge_ply};
use crate::engines::{Engines, Priority};
use cannonade_engine::Limits;
use cannonade_engine::review::{ReviewOptions, default_depth, review_move};
use cannonade_games::AnyRecord;
use cannonade_wire::Reveal;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

/// Background jobs waiting beyond which a ply is not judged live: under heavy load the
/// engine's time goes to AI moves and finished games' reviews, and the review at the end
/// still judges the ply.
pub const QUEUE_LIMIT: usize = 64;

/// A ply to judge: the game as it stands after its move, and the crowd's favourite.
#[derive(Clone, Debug)]
pub struct Ask {
    record: AnyRecord,
    ply: usize,
    /// The move played, as the reveal wrote it.
    pub played: String,
    favourite: String,
    votes: usize,
    proposers: usize,
}

impl Ask {
    /// The ply `reveal` ended, in `record` (the game after its move); `None` when nobody
    /// proposed on it, or when [`QUEUE_LIMIT`] background jobs wait on `engines` (checked
    /// before the record is copied).
    pub fn of(reveal: &Reveal, record: &AnyRecord, engines: &Engines) -> Option<Ask> {
        let top = reveal.counts.first()?;
        if engines.queued(Priority::Background) >= QUEUE_LIMIT {
            return None;
        }
        Some(Ask {
            record: record.clone(),
            ply: reveal.ply as usize,
            played: reveal.played.clone(),
            favourite: top.mv.clone(),
            votes: top.n as usize,
            proposers: reveal.counts.iter().map(|c| c.n as usize).sum(),
        })
    }
}

/// Judges `ask` on `engines` at `depth` (`None`: the game's review depth); `None` when the
/// service stopped or the ply does not replay.
pub async fn judge(
    engines: &Engines,
    game: &str,
    depth: Option<u32>,
    ask: Ask,
) -> Option<CrowdPly> {
    let depth = depth.unwrap_or_else(|| default_depth(ask.record.kind()));
    let mut alternatives = BTreeMap::new();
    if ask.favourite != ask.played {
        alternatives.insert(ask.ply, vec![ask.favourite.clone()]);
    }
    let options =
        ReviewOptions { limits: Limits { depth: Some(depth), ..Limits::default() }, alternatives };
    let (record, ply) = (ask.record, ask.ply);
    let reviewed = engines
        .run(game, Priority::Background, move |engine| {
            review_move(&record, &options, ply, engine, &AtomicBool::new(false))
        })
        .await?;
    match reviewed {
        Ok(reviewed) => judge_ply(&reviewed, &ask.favourite, ask.votes, ask.proposers),
        Err(e) => {
            tracing::warn!(game, ply, "the crowd's ply could not be judged: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::{GameKind, GameSpec};
    use cannonade_wire::{CrowdRecord, TallyEntry};

    fn reveal(ply: u32, played: &str, counts: &[(&str, u32)]) -> Reveal {
        Reveal {
            ply,
            played: played.into(),
            counts: counts.iter().map(|(mv, n)| TallyEntry { mv: mv.to_string(), n: *n }).collect(),
            matched: 0,
            crowd: CrowdRecord::default(),
        }
    }

    #[tokio::test]
    async fn the_favourite_of_the_ply_just_played_is_valued_against_the_move() {
        let mut record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        for mv in ["h2e2", "h9g7", "h0g2"] {
            record.play_text(mv).unwrap();
        }
        let engines = Engines::start(1);
        // Black's first move: two wanted the cannon to take Red's knight, one proposed
        // the move played.
        let r = reveal(1, "h9g7", &[("b7b0", 2), ("h9g7", 1)]);
        let ask = Ask::of(&r, &record, &engines).unwrap();
        let judged = judge(&engines, "g", Some(2), ask).await.unwrap();
        assert_eq!((judged.ply, judged.seat), (1, 1));
        assert_eq!((judged.favourite.as_str(), judged.votes, judged.proposers), ("b7b0", 2, 3));
        assert_eq!(judged.favourite_display, "C2+7");
        // A ply nobody proposed on is not judged.
        assert!(Ask::of(&reveal(2, "h0g2", &[]), &record, &engines).is_none());
        engines.close();
    }
}
