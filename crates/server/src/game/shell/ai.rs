//! The engine in a game: the AI's move searched through the engine service and held for
//! its pause, and the crowd's favourite judged while the game goes on.

use super::Shell;
use crate::conn::Frame;
use crate::engines::AiMoveAsk;
use crate::game::Cmd;
use crate::game::ai_pace::PaceInputs;
use crate::game::ai_reply::Answer;
use crate::game::command::Command;
use crate::game::view::Audience;
use crate::reviews::live_crowd;
use cannonade_engine::{Clock as EngineClock, Level, Limits};
use cannonade_wire::ServerMsg;
use std::time::Duration;
use tokio::time::Instant;

impl Shell {
    /// Plays the engine's held move once its pause is over.
    pub(super) async fn play_ai(&mut self) {
        let Some(Answer { ply, mv }) = self.ai.take(Instant::now()) else { return };
        let at = self.now();
        match self.room.decide(&Command::Ai { ply, mv, at }) {
            Ok(d) if mv.is_none() || d.events.is_empty() => {
                if mv.is_none() && self.room.ai_turn().is_some() {
                    tracing::warn!(game = %self.id(), "the engine found no move");
                }
                let _ = self.carry_out(d, None).await;
            }
            Ok(d) => {
                if let Err((_, e)) = self.carry_out(d, None).await {
                    tracing::warn!(game = %self.id(), "the engine's move was not saved: {e}");
                }
            }
            Err((_, e)) => tracing::warn!(game = %self.id(), "the engine's move was refused: {e}"),
        }
    }

    /// Has the engine judge the crowd's favourite of the ply the last move ended, when
    /// spectators proposed on it: a background job whose answer comes back as
    /// [`Cmd::CrowdJudged`] (docs/analysis.md).
    pub(super) fn judge_crowd(&self) {
        let Some((reveal, _)) = self.room.last_reveal() else { return };
        let engines = self.games.h.engines.clone();
        let Some(ask) = live_crowd::Ask::of(reveal, self.room.record(), &engines) else { return };
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        let depth = self.games.h.config.review_depth;
        let game = self.id().to_string();
        tokio::spawn(async move {
            let played = ask.played.clone();
            if let Some(judged) = live_crowd::judge(&engines, &game, depth, ask).await {
                let _ = tx.send(Cmd::CrowdJudged { played, judged }).await;
            }
        });
    }

    /// Tells spectators the engine's judgement of a ply's crowd, unless the ply was taken
    /// back meanwhile.
    pub(super) fn crowd_judged(&mut self, played: &str, judged: cannonade_wire::CrowdPly) {
        if self.room.moves().get(judged.ply).is_none_or(|m| m.mv != played) {
            return;
        }
        let msg = ServerMsg::CrowdJudged { game: self.id().to_string(), judged: judged.clone() };
        self.crowd_judged.push(judged);
        self.send_where(&Frame::from(msg.to_json()), Audience::Spectators);
    }

    /// Starts the engine's search when it is the engine's move.
    pub(super) fn maybe_ai(&mut self) {
        if self.ai.busy() || self.room.paused() {
            return;
        }
        let Some((side, level)) = self.room.ai_turn() else { return };
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        // The record, not only the position: the repetition rules need the history.
        let record = self.room.record().clone();
        let ply = self.room.moves().len() as u32;
        let (search, stop) = self.ai.start();
        let config = &self.games.h.config;
        // The engine's calibrated level tightens these limits by its depth, node budget
        // (scaled to the game's speed) and share of the time.
        let level = Level::new(level).unwrap_or_default();
        let mut time = config.ai_max_time;
        let mut soft_time = None;
        let now = self.now();
        let clock = self.room.clock();
        // The engine's own clock, or the game timer of a scored format if that is shorter.
        let own = (!self.room.setup().tc.untimed()).then(|| clock.remaining(side, now));
        if let Some(left) = own.into_iter().chain(clock.game_left(now)).min() {
            let clock = EngineClock {
                remaining_ms: left,
                increment_ms: self.room.setup().tc.increment_ms,
                moves_to_go: None,
            };
            let (soft, hard) = Limits::from_clock(clock, 50);
            time = time.min(hard);
            soft_time = Some(soft.min(time));
        }
        let limits =
            Limits { depth: None, nodes: Some(config.ai_max_nodes), time: Some(time), soft_time };
        let pace = config.ai_pacing.then(|| {
            let own_moves = self.room.moves().iter().filter(|m| m.seat == side.into()).count();
            // The same time left as the search's: a game timer counts when shorter.
            let left = own.into_iter().chain(clock.game_left(now)).min();
            let clock = left.map(|left| (left, self.room.setup().tc.increment_ms));
            PaceInputs::read(&record, level, own_moves as u32, clock, self.room.id(), ply)
        });
        let engines = self.games.h.engines.clone();
        let workers = self.games.ai_workers().cloned();
        let game = self.room.id().to_string();
        let started = Instant::now();
        tokio::spawn(async move {
            let ask = AiMoveAsk { game, level, record, limits, stop };
            let best = match workers {
                Some(w) => w.best_move(&engines, ask).await,
                None => engines.best_move(ask).await,
            };
            // A person's pause counts from the engine's turn and includes the search (and
            // its wait in the engine service's queue); the shell holds the move until then.
            let due = started + pace.map_or(Duration::ZERO, |pace| pace.pause(best));
            let _ = tx.send(Cmd::Ai { search, ply, mv: best, due }).await;
        });
    }
}
