//! The lobby: open seeks (public ones listed, private ones reached by invite code),
//! streamed to subscribed sockets with the live games (the frame is `lobby_view.rs`).

use crate::conn::{Conn, Frame};
use crate::ids;
use crate::lock::lock;
use crate::refusal::Refusal;
use crate::seek_range::{self, Standing};
use cannonade_games::{AnyGame, GameKind};
use cannonade_wire::{ErrorCode, RangeRequest, SeekInfo, ServerMsg, TimeControl};
use std::sync::Mutex;
use tokio::sync::broadcast;

/// A seek waiting for an opponent.
#[derive(Clone, Debug)]
pub struct Seek {
    /// What is offered.
    pub info: SeekInfo,
    /// The seeker's connection (seeks end with it).
    pub conn: Conn,
    /// Reachable only by its code.
    pub private: bool,
}

/// What a seek offers, as its seeker asked.
#[derive(Clone, Debug)]
pub struct Offer {
    /// The game.
    pub game: GameKind,
    /// Its rule options.
    pub options: String,
    /// The clock.
    pub clock: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The rating range asked for, if any.
    pub range: Option<RangeRequest>,
}

/// Seeks and the lobby stream.
pub struct Lobby {
    seeks: Mutex<Vec<Seek>>,
    /// Open seeks a user may have.
    per_user: usize,
    /// Lobby frames for subscribed sockets.
    pub tx: broadcast::Sender<Frame>,
}

/// Seeks a lobby frame lists at most: with options bounded too, a frame stays under about
/// 100 KB (the audit's 1,010 seeks made 1.8 MB every 2 s).
pub const LOBBY_SEEKS: usize = 200;

/// The longest clock accepted: three hours, and one minute of increment.
const MAX_INITIAL_MS: u64 = 3 * 3600 * 1000;
const MAX_INCREMENT_MS: u64 = 60 * 1000;
/// The most days a correspondence move may have (lichess's bound).
const MAX_DAYS_PER_MOVE: u32 = 14;

/// Checks a game's settings: the game is available, its options apply, the clock is sane, a
/// rated game has a clock, and so has a game of a scored format (its game timer alone would
/// let the side ahead on points run it down by not moving). Returns the start position and
/// the options.
pub fn check_settings(
    game: GameKind,
    options: &str,
    clock: TimeControl,
    rated: bool,
) -> Result<(AnyGame, cannonade_games::GameSpec), Refusal> {
    let invalid = |m: String| (ErrorCode::Invalid, m);
    let parsed =
        cannonade_games::GameSpec::parse(game, options).map_err(|e| invalid(e.to_string()))?;
    let start = parsed.start();
    if let Some(days) = clock.days_per_move {
        if !(1..=MAX_DAYS_PER_MOVE).contains(&days) {
            return Err(invalid("a correspondence clock has 1 to 14 days a move".into()));
        }
        if clock != TimeControl::correspondence(days) {
            return Err(invalid(
                "a correspondence clock's initial_ms is its days in ms, with no increment".into(),
            ));
        }
        if parsed.game_ms().is_some() {
            return Err(invalid("a scored format is played with a clock of minutes".into()));
        }
        return Ok((start, parsed));
    }
    if clock.initial_ms > MAX_INITIAL_MS || clock.increment_ms > MAX_INCREMENT_MS {
        return Err(invalid("clocks are at most 3 hours plus 60 seconds a move".into()));
    }
    if clock.untimed() && clock.increment_ms > 0 {
        return Err(invalid("an untimed game has no increment".into()));
    }
    if rated && clock.untimed() {
        return Err(invalid("rated games have a clock".into()));
    }
    if clock.untimed() && parsed.game_ms().is_some() {
        return Err(invalid("a scored format is played with a clock for each side".into()));
    }
    Ok((start, parsed))
}

/// A game's start from the board editor: a position the rules accept, with moves to play,
/// in a casual game. Not Banqi: its games start face down from a fair deal.
pub fn custom_start(
    spec: &cannonade_games::GameSpec,
    fen: &str,
    rated: bool,
) -> Result<AnyGame, Refusal> {
    let invalid = |m: String| (ErrorCode::Invalid, m);
    if spec.kind() == GameKind::Banqi {
        return Err(invalid(
            "a Banqi game starts face down from a fair deal: set-up positions are for analysis"
                .into(),
        ));
    }
    if rated {
        return Err(invalid("a game from a set-up position is casual".into()));
    }
    let start = spec.position(fen).map_err(|e| invalid(e.to_string()))?;
    let record = cannonade_games::AnyRecord::with_start(spec, start.clone())
        .map_err(|e| invalid(e.to_string()))?;
    if !matches!(record.next(), cannonade_core::Next::Player(_)) {
        return Err(invalid("the game is over in this position".into()));
    }
    Ok(start)
}

/// The refusal for a seek that is not (or no longer) open.
pub fn no_seek(id: &str) -> Refusal {
    (ErrorCode::NotFound, format!("no open seek or invite '{id}'"))
}

/// Whether `taker`, of `standing` in the seek's game and speed, may take `seek` of the user
/// `seeker`: not their own, a rated one with an account, a ranged one with a rating in the
/// range. The same for seeks of this node and of others.
pub fn may_take(
    seeker: &str,
    seek: &SeekInfo,
    taker: &Conn,
    standing: Option<Standing>,
) -> Result<(), Refusal> {
    if seeker == taker.user.id {
        return Err((ErrorCode::Invalid, "that is your own seek".into()));
    }
    if seek.rated && !taker.user.account {
        return Err((ErrorCode::Forbidden, "rated games are for accounts".into()));
    }
    seek_range::admits(seek.range, standing)
}

impl Lobby {
    /// An empty lobby where a user may have `per_user` open seeks.
    pub fn new(per_user: usize) -> Lobby {
        Lobby { seeks: Mutex::new(Vec::new()), per_user, tx: broadcast::channel(1024).0 }
    }

    pub(crate) fn publish(&self, msg: &ServerMsg) {
        let _ = self.tx.send(Frame::from(msg.to_json()));
    }

    /// Adds a seek (or, `private`, an invite) by `conn`, whose standing in the offer's game
    /// and speed is `seeker` (`None`: anonymous or untimed).
    pub fn add(
        &self,
        conn: &Conn,
        offer: Offer,
        seeker: Option<Standing>,
        private: bool,
    ) -> Result<SeekInfo, Refusal> {
        let Offer { game, options, clock, rated, range } = offer;
        check_settings(game, &options, clock, rated)?;
        if rated && !conn.user.account {
            return Err((
                ErrorCode::Forbidden,
                "rated games are for accounts: register or log in".into(),
            ));
        }
        let range = seek_range::settle(range, seeker)?;
        let mut seeks = lock(&self.seeks);
        if seeks.iter().filter(|s| s.conn.user.id == conn.user.id).count() >= self.per_user {
            let n = self.per_user;
            return Err((ErrorCode::LimitReached, format!("at most {n} open seeks per player")));
        }
        let info = SeekInfo {
            id: ids::short_id()?,
            by: conn.user.name.clone(),
            game,
            options,
            clock,
            rated,
            rating: seeker.map(|s| s.rating),
            provisional: seeker.is_some_and(|s| s.provisional),
            range,
        };
        seeks.push(Seek { info: info.clone(), conn: conn.clone(), private });
        drop(seeks);
        if !private {
            self.publish(&ServerMsg::SeekAdded { seek: info.clone() });
        }
        Ok(info)
    }

    /// Removes `conn`'s seek `id`.
    pub fn cancel(&self, conn: &Conn, id: &str) -> Result<(), Refusal> {
        let mut seeks = lock(&self.seeks);
        let i = seeks
            .iter()
            .position(|s| s.info.id == id && s.conn.user.id == conn.user.id)
            .ok_or((ErrorCode::NotFound, format!("you have no seek '{id}'")))?;
        let seek = seeks.remove(i);
        drop(seeks);
        if !seek.private {
            self.publish(&ServerMsg::SeekRemoved { id: seek.info.id });
        }
        Ok(())
    }

    /// Takes seek `id` for `conn`, of `standing` in the seek's game and speed (see
    /// [`may_take`]).
    pub fn take(&self, conn: &Conn, id: &str, standing: Option<Standing>) -> Result<Seek, Refusal> {
        let mut seeks = lock(&self.seeks);
        let i = seeks.iter().position(|s| s.info.id == id).ok_or_else(|| no_seek(id))?;
        may_take(&seeks[i].conn.user.id, &seeks[i].info, conn, standing)?;
        let seek = seeks.remove(i);
        drop(seeks);
        if !seek.private {
            self.publish(&ServerMsg::SeekRemoved { id: seek.info.id.clone() });
        }
        Ok(seek)
    }

    /// Drops every seek of a closed connection; returns their ids.
    pub fn drop_conn(&self, conn_id: u64) -> Vec<String> {
        let mut seeks = lock(&self.seeks);
        let (gone, kept): (Vec<Seek>, Vec<Seek>) =
            seeks.drain(..).partition(|s| s.conn.id == conn_id);
        *seeks = kept;
        drop(seeks);
        let ids = gone.iter().map(|s| s.info.id.clone()).collect();
        for s in gone.into_iter().filter(|s| !s.private) {
            self.publish(&ServerMsg::SeekRemoved { id: s.info.id });
        }
        ids
    }

    /// Drops seek `id` if it is here (another node's socket took it).
    pub fn forget(&self, id: &str) {
        let mut seeks = lock(&self.seeks);
        let Some(i) = seeks.iter().position(|s| s.info.id == id) else { return };
        let seek = seeks.remove(i);
        drop(seeks);
        if !seek.private {
            self.publish(&ServerMsg::SeekRemoved { id: seek.info.id });
        }
    }

    /// What seek or invite `id` offers (the invite page names the game, clock and inviter
    /// before the invited player joins).
    pub fn seek(&self, id: &str) -> Option<SeekInfo> {
        lock(&self.seeks).iter().find(|s| s.info.id == id).map(|s| s.info.clone())
    }

    /// This node's public seeks.
    pub fn public_seeks(&self) -> Vec<SeekInfo> {
        lock(&self.seeks).iter().filter(|s| !s.private).map(|s| s.info.clone()).collect()
    }
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::new(crate::limits::Limits::default().seeks_per_user)
    }
}
