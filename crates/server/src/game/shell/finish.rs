//! The end of a game in the store: its result, record and the players' new ratings in one
//! commit, then the review asked for.

use super::Shell;
use crate::game::export::{About, export};
use crate::rating::{PROVISIONAL_RD, Rating, Speed};
use cannonade_store::{Finish, RatingRow};
use cannonade_wire::Seat;

impl Shell {
    /// Writes the finished game: result, crowd record, export and rating changes. Returns
    /// the rating changes of a rated game, as the end's frame carries them (`None` when no
    /// rating changed, or the store failed).
    pub(super) async fn store_finish(&mut self) -> Option<cannonade_wire::RatingChanges> {
        let result = self.room.result().cloned()?;
        let setup = self.room.setup();
        let mut ratings = Vec::new();
        let mut changes = Vec::new();
        let accounts = setup.players.iter().all(|p| p.user.is_some() && p.ai.is_none());
        let speed = Speed::of_clock(setup.tc);
        if let Some(speed) = speed.filter(|_| setup.rated && accounts && result.reason != "aborted")
        {
            let score = |i: usize| match result.winner {
                None => 0.5,
                Some(w) if (w == Seat::First) == (i == 0) => 1.0,
                Some(_) => 0.0,
            };
            let current: Vec<(Rating, i64)> = setup
                .players
                .iter()
                .map(|p| match &p.rating {
                    Some(r) => (Rating::from(r), r.games),
                    None => (Rating::default(), 0),
                })
                .collect();
            for i in 0..2 {
                let new = current[i].0.after(current[1 - i].0, score(i));
                if let Some(user) = &setup.players[i].user {
                    let (before, after) =
                        (current[i].0.rating.round() as i64, new.rating.round() as i64);
                    changes.push(cannonade_wire::RatingChange {
                        before,
                        after,
                        diff: after - before,
                        provisional: new.rd > PROVISIONAL_RD,
                    });
                    ratings.push(RatingRow {
                        user_id: user.clone(),
                        kind: setup.spec.kind().name().to_string(),
                        speed: speed.name().to_string(),
                        rating: new.rating,
                        rd: new.rd,
                        volatility: new.volatility,
                        games: current[i].1 + 1,
                    });
                }
            }
        }
        let names = [setup.players[0].name.clone(), setup.players[1].name.clone()];
        let finish = Finish {
            game_id: self.room.id().to_string(),
            result: serde_json::to_string(&result).unwrap_or_default(),
            crowd: serde_json::to_string(&self.room.proposals().crowd()).unwrap_or_default(),
            export: export(
                self.room.record(),
                &About {
                    id: self.room.id(),
                    names: &names,
                    result: &result,
                    tc: setup.tc,
                    created_ms: setup.created_ms,
                    dealer: setup.dealer.as_ref(),
                },
            ),
            ended_ms: crate::ids::now_ms(),
            ratings,
        };
        match self
            .games
            .h
            .writer
            .exec(move |store| async move { store.finish(&finish).await })
            .await
        {
            Ok(()) => {
                self.finished_stored = true;
                // Every finished game is reviewed in the background (an aborted one never
                // started: nothing to review).
                if result.reason != "aborted" {
                    let record = self.room.record().clone();
                    self.games.h.reviews.game_over(self.room.id(), record);
                }
            }
            Err(e) => {
                tracing::error!(game = %self.id(), "could not archive the game: {e}");
                return None;
            }
        }
        let seats: [cannonade_wire::RatingChange; 2] = changes.try_into().ok()?;
        Some(cannonade_wire::RatingChanges { speed: speed?.name().to_string(), seats })
    }
}
