//! A game's shell rebuilt from the store: its room is the stored events applied, as live
//! play applied them, with the chat, the proposals and the players' ratings read back.

use super::{Shell, ms, parse_result};
use crate::archive::stored::StoredEvent;
use crate::game::ai_reply::AiReply;
use crate::game::event::Event;
use crate::game::room::{GameRoom, History, Seated, Setup};
use crate::game::view::{self};
use crate::game::{Dealer, Games, Summary};
use crate::rating::Speed;
use cannonade_banqi::DealSeed;
use cannonade_games::AnyGame;
use cannonade_store::GameRow;
use cannonade_wire::ChatLine;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use tokio::time::Instant;

impl Shell {
    /// Rebuilds a game from its stored row and events: its room is the stored events
    /// applied, as live play applied them.
    pub async fn restore(
        games: &Arc<Games>,
        row: GameRow,
        events: Vec<cannonade_store::EventRow>,
    ) -> Result<Shell, String> {
        let (spec, start) = crate::archive::replay::start_of(&row)?;
        let kind = spec.kind();
        let dealer = match (&row.seed, &start) {
            (Some(hex), AnyGame::Banqi(p)) => {
                Some(Dealer::new(p, DealSeed::from_hex(hex).map_err(|e| e.to_string())?))
            }
            (Some(_), _) => return Err("a seed for a game without a deal".into()),
            _ => None,
        };
        let tc = crate::game::clock::time_control(&row);
        let speed = Speed::of_clock(tc);
        let mut players = Vec::new();
        for i in 0..2 {
            let rating = match (&row.users[i], row.rated, speed) {
                (Some(u), true, Some(speed)) => games
                    .h
                    .store
                    .rating(u, kind.name(), speed.name())
                    .await
                    .map_err(|e| e.to_string())?,
                _ => None,
            };
            players.push(Seated {
                user: row.users[i].clone(),
                name: row.names[i].clone(),
                ai: row.ai[i].map(|l| l.clamp(1, 10) as u8),
                rating,
            });
        }
        let players: [Seated; 2] = [players[0].clone(), players[1].clone()];
        let setup = Setup {
            id: row.id.clone(),
            spec,
            start,
            rated: row.rated,
            tc,
            players,
            dealer,
            commitment: row.commitment.clone(),
            grace_ms: games.h.config.grace.as_millis() as u64,
            created_ms: row.created_ms,
        };
        let mut stored = Vec::with_capacity(events.len());
        for e in &events {
            stored.push(
                serde_json::from_str::<StoredEvent>(&e.body)
                    .map_err(|err| format!("event {}: {err}", e.v))?,
            );
        }
        let chat_rows = games.h.store.chat(&row.id, crate::game::room::CHAT_KEPT as u32).await;
        let chat_rows = chat_rows.map_err(|e| e.to_string())?;
        let chat_count = chat_rows.last().map_or(0, |l| l.n);
        let mut chat = Vec::with_capacity(chat_rows.len());
        for line in &chat_rows {
            chat.push(
                serde_json::from_str::<ChatLine>(&line.body)
                    .map_err(|e| format!("chat {}: {e}", line.n))?,
            );
        }
        let ply = stored.iter().fold(0i64, |n, e| match e {
            StoredEvent::Moved { .. } => n + 1,
            StoredEvent::TakenBack { moves, .. } => n - *moves as i64,
            _ => n,
        });
        let proposals = if row.status == "over" {
            Vec::new()
        } else {
            games.h.store.proposals(&row.id, ply).await.map_err(|e| e.to_string())?
        };
        let now = ms(Instant::now());
        // The events' frames as clients get them in a replay, each with the position after
        // it.
        let mut frames = Vec::with_capacity(stored.len());
        let history = History {
            events: stored,
            open_proposals: proposals.into_iter().map(|p| (p.user_id, p.mv)).collect(),
            chat,
            chat_count,
        };
        let mut room = GameRoom::restore(setup, history, now, crate::ids::now_ms(), |room, e| {
            frames.push(view::event_frame(room, e))
        })?;
        if room.result().is_none()
            && let Some(r) = parse_result(&row.result)
        {
            // A result stored with the game but whose end event was not (an old crash).
            let _ = room.apply(
                &Event::Game(StoredEvent::Ended {
                    result: r,
                    clock: room.clock().state(now),
                    seed: room.setup().dealer.as_ref().map(Dealer::reveal_seed),
                    crowd: room.proposals().crowd(),
                }),
                now,
            );
        }
        let names = [row.names[0].clone(), row.names[1].clone()];
        let solo = crate::game::solo_player(&row.users, &row.ai);
        let summary = Arc::new(Summary {
            solo,
            users: row.users.clone(),
            ..Summary::new(kind, names, false)
        });
        summary.moves.store(room.moves().len() as u32, Relaxed);
        summary.over.store(room.result().is_some(), Relaxed);
        summary.set_to_move(room.to_move());
        let offline_since =
            std::array::from_fn(|i| room.setup().players[i].ai.is_none().then_some(now));
        let mut shell = Shell {
            games: games.clone(),
            room,
            events: frames,
            legal: String::from("[]"),
            finished_stored: row.status == "over",
            subs: HashMap::new(),
            online: [0, 0],
            offline_since,
            tally_dirty: false,
            acks: Vec::new(),
            chat_pending: chat_count,
            chat_told: chat_count,
            chat_held: std::collections::BTreeMap::new(),
            spectators_sent: 0,
            flush_at: None,
            ai: AiReply::default(),
            summary,
            idle_since: None,
            touched: Instant::now(),
            self_tx: None,
            handed_over: false,
            crowd_judged: Vec::new(),
        };
        shell.refresh_legal();
        Ok(shell)
    }
}
