//! A game run by another node, as this node's sockets see it: the same [`GameHandle`] as a
//! local game, whose task forwards the sockets' commands to the owner and hands the owner's
//! frames to the sockets its audience admits. It watches the owner's lease and, when the
//! owner is gone, takes the game over (rebuilt from the store) or follows the new owner.
//!
//! Each socket's place in the game is kept: asked (its `watch` went to the owner; the
//! owner's broadcasts skip it until the owner says what it sent it) or at a version. When
//! frames may have been lost (this node's subscription dropped) every socket asks again for
//! the events after its version, so it gets each event once; an ask unanswered by the next
//! look at the lease is sent again, for a snapshot (of two answers, a second replay could
//! repeat events; a snapshot only replaces what the socket has).

use super::message::Header;
use super::{Cluster, lease_key, node_topic};
use crate::conn::{Conn, Frame};
use crate::game::Games;
use crate::game::{self, Audience, Cmd, GameHandle, SocketScore, Summary, role_of, with_score};
use crate::lock::lock;
use crate::metrics::Metrics;
use cannonade_games::GameKind;
use cannonade_store::GameRow;
use cannonade_wire::Role;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// What the node tells a relay.
#[derive(Debug)]
pub enum RelayMsg {
    /// A socket was too far behind and was dropped: tell the owner.
    Dropped(u64),
    /// The owner says it is not the owner: look again.
    Recheck,
    /// Frames from the owner may have been lost: ask again for what each socket misses.
    Resync,
    /// The owner's subscription was lost: tell it (this node) which sockets follow the
    /// game, and ask again for those still waiting for an answer.
    Recount(String),
}

/// Where a socket is in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Its join went to the owner at this moment; no answer yet.
    Asked(Instant),
    /// It has the game's events up to this version.
    At(u64),
}

/// A socket of this node in the game.
#[derive(Debug)]
struct Sub {
    role: Role,
    conn: Conn,
    place: Place,
}

/// A relay's sockets in the game, by connection id.
type Subs = HashMap<u64, Sub>;

/// What the node keeps of a relay: its sockets (frames from the owner are handed to them
/// by the node's inbox task, in order) and its mailbox.
#[derive(Clone, Debug)]
pub struct RelayEntry {
    subs: Arc<Mutex<Subs>>,
    /// The relay's mailbox.
    pub tx: mpsc::UnboundedSender<RelayMsg>,
}

impl RelayEntry {
    /// Hands a frame (of the game event `v`, if it is one) to the sockets the audience
    /// admits, but not to those still waiting for their snapshot or replay (which covers it)
    /// nor to one that has the event already; a socket too far behind is dropped from the
    /// game as the owner would drop it.
    pub fn deliver(
        &self,
        metrics: &Metrics,
        audience: Audience,
        v: Option<u64>,
        frame: &Frame,
        scores: &[SocketScore],
    ) {
        let mut subs = lock(&self.subs);
        let mut slow = Vec::new();
        let mut sent = 0u64;
        // Players first, as on the owner.
        for players in [true, false] {
            for (id, sub) in subs.iter_mut() {
                let Place::At(at) = sub.place else { continue };
                if sub.role.is_player() != players
                    || !audience.admits(sub.role)
                    || v.is_some_and(|v| v <= at)
                {
                    continue;
                }
                if let Some(v) = v {
                    sub.place = Place::At(v);
                }
                let frame = match scores.iter().find(|(conn, ..)| conn == id) {
                    Some(&(_, hits, total)) => with_score(frame, hits, total),
                    None => frame.clone(),
                };
                if sub.conn.send_frame(frame) {
                    sent += 1;
                } else {
                    slow.push(*id);
                }
            }
        }
        metrics.frames_out.inc_by(sent);
        for id in slow {
            metrics.slow_drops.inc();
            subs.remove(&id);
            let _ = self.tx.send(RelayMsg::Dropped(id));
        }
    }

    /// The owner sent socket `conn` the game up to version `v`.
    pub fn synced(&self, conn: u64, v: u64) {
        if let Some(sub) = lock(&self.subs).get_mut(&conn) {
            sub.place = Place::At(v);
        }
    }
}

/// How long a relay stays without sockets before it ends.
const IDLE: Duration = Duration::from_secs(30);

/// Beyond a third of a lease, how long a relay waits for a live owner to take a free lease
/// again before taking it itself.
const RENEWAL_SLACK: Duration = Duration::from_millis(500);

struct Relay {
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    game: String,
    users: [Option<String>; 2],
    owner: String,
    subs: Arc<Mutex<Subs>>,
    summary: Arc<Summary>,
    me: mpsc::UnboundedSender<RelayMsg>,
    /// The owner's lease was found free: look again at this moment before taking it (the
    /// relay forwards meanwhile).
    second_look: Option<Instant>,
}

/// Starts relaying `row`'s game owned by `owner` and registers it (an existing handle of the
/// game on this node is kept instead).
pub fn start(
    games: &Arc<Games>,
    cluster: &Arc<Cluster>,
    row: GameRow,
    owner: String,
) -> GameHandle {
    let kind = row.kind.parse().unwrap_or(GameKind::Xiangqi);
    let summary = Arc::new(Summary::new(kind, row.names.clone(), true));
    let mut list = games.list();
    if let Some(h) = list.get(&row.id).filter(|h| !h.tx.is_closed()) {
        return h.clone();
    }
    let (tx, rx) = mpsc::channel(1024);
    let (bus_tx, bus_rx) = mpsc::unbounded_channel();
    let handle = GameHandle { side: tx.clone(), tx, summary: summary.clone() };
    list.insert(row.id.clone(), handle.clone());
    drop(list);
    let subs: Arc<Mutex<Subs>> = Arc::default();
    let entry = RelayEntry { subs: subs.clone(), tx: bus_tx.clone() };
    lock(&cluster.relays).insert(row.id.clone(), entry);
    let relay = Relay {
        games: games.clone(),
        cluster: cluster.clone(),
        game: row.id,
        users: row.users,
        owner,
        subs,
        summary,
        me: bus_tx,
        second_look: None,
    };
    tokio::spawn(relay.run(rx, bus_rx));
    handle
}

impl Relay {
    fn to_owner(&self, header: &Header, body: &[u8]) {
        self.cluster.publish(&node_topic(&self.owner), header, body);
    }

    /// Asks the owner for the game as socket `conn` misses it (from `since`, or a snapshot);
    /// the owner's broadcasts skip the socket until the answer is in.
    fn ask(&self, sub: &mut Sub, since: Option<u64>) {
        sub.place = Place::Asked(Instant::now());
        self.join_owner(&sub.conn, since);
    }

    /// Asks again for every socket: from its version (after lost frames, `resume`) or for a
    /// snapshot (a new owner).
    fn ask_all(&self, resume: bool) {
        let mut subs = lock(&self.subs);
        for sub in subs.values_mut() {
            let since = match (resume, sub.place) {
                (true, Place::At(v)) => Some(v),
                // An ask may be answered twice: a replay could then repeat events, while a
                // snapshot only replaces what the socket has.
                _ => None,
            };
            self.ask(sub, since);
        }
    }

    /// Asks again (for a snapshot, as above) for the sockets whose ask went unanswered for
    /// `after` (lost on the way).
    fn ask_unanswered(&self, after: Duration) {
        let mut subs = lock(&self.subs);
        for sub in subs.values_mut() {
            if let Place::Asked(at) = sub.place
                && at.elapsed() >= after
            {
                self.ask(sub, None);
            }
        }
    }

    /// Tells the owner which sockets follow the game, and asks again for those whose ask
    /// may have been lost.
    fn recount(&self, owner: &str) {
        let conns: Vec<u64> = lock(&self.subs).keys().copied().collect();
        self.cluster.following(owner, &self.game, conns);
        self.ask_unanswered(Duration::ZERO);
    }

    fn join_owner(&self, conn: &Conn, since: Option<u64>) {
        let header = Header::Join {
            game: self.game.clone(),
            node: self.cluster.node.to_string(),
            conn: conn.id,
            user: conn.user.info(),
            since,
        };
        self.to_owner(&header, b"");
    }

    fn leave_owner(&self, conn: u64) {
        let header =
            Header::Leave { game: self.game.clone(), node: self.cluster.node.to_string(), conn };
        self.to_owner(&header, b"");
    }

    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Cmd>,
        mut bus: mpsc::UnboundedReceiver<RelayMsg>,
    ) {
        // Checks of the owner's lease: twice in its life, at a spread so relays do not
        // all ask at once.
        let every = self.cluster.lease / 2;
        let mut check = tokio::time::interval_at(
            Instant::now()
                + every.mul_f64(
                    0.5 + f64::from(crate::ids::random_bytes::<1>().unwrap_or([128])[0]) / 512.0,
                ),
            every,
        );
        let mut idle_since = Some(Instant::now());
        loop {
            let idle_end = idle_since.map(|t| t + IDLE);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.command(cmd),
                    None => break,
                },
                msg = bus.recv() => match msg {
                    Some(RelayMsg::Dropped(conn)) => self.leave_owner(conn),
                    Some(RelayMsg::Recheck) => if self.check(false).await { return },
                    Some(RelayMsg::Resync) => self.ask_all(true),
                    Some(RelayMsg::Recount(owner)) => self.recount(&owner),
                    None => break,
                },
                _ = check.tick() => {
                    if self.check(false).await {
                        return;
                    }
                    self.ask_unanswered(every);
                }
                _ = sleep(self.second_look) => {
                    self.second_look = None;
                    if self.check(true).await {
                        return;
                    }
                }
                _ = sleep(idle_end) => break,
            }
            if lock(&self.subs).is_empty() {
                idle_since.get_or_insert_with(Instant::now);
            } else {
                idle_since = None;
            }
        }
        self.unregister();
    }

    fn unregister(&self) {
        let mut games = self.games.list();
        if games.get(&self.game).is_some_and(|h| Arc::ptr_eq(&h.summary, &self.summary)) {
            games.remove(&self.game);
        }
        drop(games);
        let mut relays = lock(&self.cluster.relays);
        if relays.get(&self.game).is_some_and(|r| r.tx.same_channel(&self.me)) {
            relays.remove(&self.game);
        }
    }

    fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { conn, since } => {
                let role = role_of(&self.users, &conn.user.id);
                let place = Place::At(0);
                let mut sub = Sub { role, conn, place };
                self.ask(&mut sub, since);
                lock(&self.subs).insert(sub.conn.id, sub);
            }
            Cmd::Leave { conn_id } => {
                if lock(&self.subs).remove(&conn_id).is_some() {
                    self.leave_owner(conn_id);
                }
            }
            Cmd::Client { conn, msg, at } => {
                let header = Header::Client {
                    game: self.game.clone(),
                    node: self.cluster.node.to_string(),
                    conn: conn.id,
                    user: conn.user.info(),
                    age_us: at.elapsed().as_micros() as u64,
                };
                self.to_owner(&header, &serde_json::to_vec(&msg).unwrap_or_default());
            }
            // The engine runs on the owner, and so do a proposal's store write and answer; a
            // relay has no lease to lose, and the owner is the one that counts followers.
            // `game::positions` asks only a game's actor and reads the store for a relayed game
            // (a dropped reply sends it there too). So do a chat line's store write and answer,
            // and the engine's judgement of a ply's crowd.
            Cmd::Ai { .. }
            | Cmd::CrowdJudged { .. }
            | Cmd::Proposed { .. }
            | Cmd::Chatted { .. }
            | Cmd::Lost
            | Cmd::Following { .. }
            | Cmd::Positions { .. } => {}
        }
    }

    /// Looks at the owner's lease. When it has run out, takes the game over: `true` then,
    /// and this relay ends (its sockets now follow the local actor). A free lease is taken
    /// only at the `second` look.
    async fn check(&mut self, second: bool) -> bool {
        let key = lease_key(&self.game);
        let holder = match self.cluster.bus.get(&key).await {
            Ok(Some(h)) => h,
            // Free: its owner died, or Redis restarted empty and forgot every lease. A live
            // owner takes its leases again at its next renewal (a third of their life); had
            // this node taken it first, the two would both run the game for a moment, and a
            // move the old owner committed meanwhile would be missing from this node's copy.
            // So the first look only sets a second one, a renewal later; the relay goes on
            // forwarding meanwhile.
            Ok(None) if !second => {
                let at = Instant::now() + self.cluster.lease / 3 + RENEWAL_SLACK;
                self.second_look.get_or_insert(at);
                return false;
            }
            Ok(None) => {
                match self.cluster.bus.lease(&key, &self.cluster.node, self.cluster.lease).await {
                    Ok(h) => h,
                    Err(e) => {
                        tracing::warn!(game = %self.game, "{e}");
                        return false;
                    }
                }
            }
            Err(e) => {
                tracing::warn!(game = %self.game, "{e}");
                return false;
            }
        };
        self.second_look = None;
        if holder == self.owner {
            return false;
        }
        if *holder == *self.cluster.node {
            return self.take_over().await;
        }
        tracing::info!(game = %self.game, "the game moved from {} to {holder}", self.owner);
        self.owner = holder;
        self.ask_all(false);
        false
    }

    /// Rebuilds the game here from the store and moves the sockets to it (each gets a
    /// snapshot).
    async fn take_over(&mut self) -> bool {
        let games = self.games.clone();
        let loaded = async {
            let stored = game::stored(&games, &self.game).await?;
            let (row, events) = stored.ok_or_else(|| "the game is not in the store".to_string())?;
            self.unregister();
            game::load(&games, row, events).await
        };
        match loaded.await {
            Ok(handle) => {
                tracing::info!(game = %self.game, "took the game over from {}", self.owner);
                let subs: Vec<Conn> = lock(&self.subs).drain().map(|(_, s)| s.conn).collect();
                for conn in subs {
                    let _ = handle.tx.send(Cmd::Join { conn, since: None }).await;
                }
                true
            }
            Err(e) => {
                tracing::error!(game = %self.game, "could not take the game over: {e}");
                false
            }
        }
    }
}

async fn sleep(until: Option<Instant>) {
    match until {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
