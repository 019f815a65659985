//! Several server nodes sharing one PostgreSQL store and one bus (Redis): each live game is
//! run by the one node holding its lease; a socket on another node that follows or plays it
//! goes through a relay on its own node, which talks to the owner through the bus.
//!
//! - **Leases.** `lease:<game>` holds the owner's node id for [`Config::lease`] and is
//!   renewed every third of that. A node that loses one stops the game's actor. When an owner
//!   dies its leases run out and the next node that needs a game (a socket watching or
//!   playing it, or a relay checking its owner) takes the lease and rebuilds the game from
//!   the store, as a restart does. The store's key on (game, version) refuses a second
//!   writer of the same version, should two nodes ever believe they own a game.
//! - **Messages** (`message.rs`): commands to the owner on the owner's topic; frames
//!   to relays on the relaying node's topic, once per node and audience; user messages,
//!   lobby contents and taken seeks on the shared topic. One topic per node (not per game)
//!   keeps the order of everything one node sends another.
//! - **Lobby.** Each node publishes its public seeks and live games every 2 s; seeks are also
//!   keys (`seek:<id>`) so that exactly one taker gets a seek, whatever node it is on. A seek's
//!   key lives as long as a lease and is extended with the leases: a dead node's seeks
//!   vanish with its leases.
//!
//! [`Config::lease`]: crate::Config::lease

mod bus;
mod message;
mod redis;
mod relay;

pub use bus::{Bus, BusError, BusFuture, Inbound, Inbox, LocalBus, LocalHub};
pub use redis::{RedisBus, subscription_name};

use crate::conn::{Conn, Frame, Out, RemoteConn};
use crate::game::{self, Audience, Cmd, GameHandle, Games, PeerFuture, Peers, SocketScore};
use crate::lobby::Lobby;
use crate::lock::lock;
use crate::online::Online;
use crate::session::Sessions;
use crate::user::UserCtx;
use cannonade_wire::{ClientMsg, GameSummary, SeekInfo, UserInfo};
use message::{Header, decode, encode};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::time::Instant;

/// The topic every node listens to.
const ALL: &str = "cannonade:all";
/// How long another node's lobby contents count without news from it.
const LOBBY_FRESH: Duration = Duration::from_secs(6);

fn node_topic(node: &str) -> String {
    format!("cannonade:node:{node}")
}

/// The key of a game's lease (its value is the owner's node id).
pub fn lease_key(game: &str) -> String {
    format!("cannonade:lease:{game}")
}

fn seek_key(id: &str) -> String {
    format!("cannonade:seek:{id}")
}

/// A seek as other nodes see it (the value of its key).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SharedSeek {
    /// What is offered.
    pub info: SeekInfo,
    /// The seeker (stored before the seek was made).
    pub user: UserInfo,
    /// Reached only by its code.
    pub private: bool,
}

/// Another node's lobby contents.
struct NodeLobby {
    at: Instant,
    seeks: Vec<SeekInfo>,
    games: Vec<GameSummary>,
    live: u32,
}

/// This node as the cluster works with it: its games, seeks, sessions and sockets.
#[derive(Clone)]
pub struct Local {
    /// Its games.
    pub games: Arc<Games>,
    /// Its seeks.
    pub lobby: Arc<Lobby>,
    /// Its sessions (ended on other nodes too).
    pub sessions: Arc<Sessions>,
    /// Its sockets by user.
    pub online: Arc<Online>,
}

/// [`Local`] held weakly: the node's parts hold the cluster, and it ends with them.
struct WeakLocal {
    games: Weak<Games>,
    lobby: Weak<Lobby>,
    sessions: Weak<Sessions>,
    online: Arc<Online>,
}

impl WeakLocal {
    fn upgrade(&self) -> Option<Local> {
        Some(Local {
            games: self.games.upgrade()?,
            lobby: self.lobby.upgrade()?,
            sessions: self.sessions.upgrade()?,
            online: self.online.clone(),
        })
    }
}

/// This node's place among the others.
pub struct Cluster {
    node: Arc<str>,
    bus: Arc<dyn Bus>,
    lease: Duration,
    local: WeakLocal,
    relays: Mutex<HashMap<String, relay::RelayEntry>>,
    lobbies: Mutex<HashMap<String, NodeLobby>>,
    /// Other nodes' sockets following games this node runs, by node, with when that node
    /// was last heard of: when a node falls silent, its sockets leave the games.
    followers: Mutex<HashMap<String, Followers>>,
    /// The ids of this node's seeks whose keys are out (extended with the leases).
    seeks: Mutex<HashSet<String>>,
    stopped: AtomicBool,
}

/// One node's sockets in this node's games.
struct Followers {
    heard: Instant,
    conns: std::collections::HashSet<(String, u64)>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cluster({})", self.node)
    }
}

/// The topics a node listens to.
pub fn topics(node: &str) -> Vec<String> {
    vec![node_topic(node), ALL.to_string()]
}

impl Cluster {
    /// Joins this node's parts to the bus as `node` (which must listen to
    /// [`topics`]`(node)`): starts handling the inbox and renewing the leases.
    pub fn start(local: &Local, node: &str, bus: Arc<dyn Bus>, inbox: Inbox) -> Arc<Cluster> {
        let cluster = Arc::new(Cluster {
            node: node.into(),
            bus,
            lease: local.games.h.config.lease,
            local: WeakLocal {
                games: Arc::downgrade(&local.games),
                lobby: Arc::downgrade(&local.lobby),
                sessions: Arc::downgrade(&local.sessions),
                online: local.online.clone(),
            },
            relays: Mutex::default(),
            lobbies: Mutex::default(),
            followers: Mutex::default(),
            seeks: Mutex::default(),
            stopped: AtomicBool::new(false),
        });
        local.games.join(cluster.clone());
        local.sessions.tell(cluster.clone());
        tokio::spawn(cluster.clone().dispatch(inbox));
        tokio::spawn(cluster.clone().renew_leases());
        cluster
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Leaves the cluster as a dying node would: no more messages handled, no lease renewed,
    /// every game of this node stopped. (For tests of a takeover.)
    pub fn stop(&self) {
        self.stopped.store(true, Relaxed);
        if let Some(games) = self.local.games.upgrade() {
            games.list().clear();
        }
        lock(&self.relays).clear();
    }

    fn live(&self) -> bool {
        !self.stopped.load(Relaxed)
    }

    fn publish(&self, topic: &str, header: &Header, body: &[u8]) {
        if self.live() {
            self.bus.publish(topic, encode(header, body));
        }
    }

    /// Sends a frame to socket `conn` of `user` on `node`.
    fn send_frame_to(&self, node: &str, user: &str, conn: u64, frame: &Frame) {
        let header = Header::To { user: user.to_string(), conn };
        self.publish(&node_topic(node), &header, frame.as_bytes());
    }

    /// Tells `node` that its socket `conn` has `game` up to version `v` (sent after the
    /// socket's snapshot or replay, so it arrives after them).
    fn tell_synced(&self, node: &str, game: &str, conn: u64, v: u64) {
        let header = Header::Synced { game: game.to_string(), conn, v };
        self.publish(&node_topic(node), &header, b"");
    }

    /// Tells `owner` which sockets of this node follow `game` (all of them).
    pub fn following(&self, owner: &str, game: &str, conns: Vec<u64>) {
        let header =
            Header::Following { game: game.to_string(), node: self.node.to_string(), conns };
        self.publish(&node_topic(owner), &header, b"");
    }

    /// Publishes this node's lobby contents (every few seconds).
    pub fn publish_lobby(&self, seeks: Vec<SeekInfo>, games: Vec<GameSummary>, live: u32) {
        let header = Header::Lobby { from: self.node.to_string(), seeks, games, live };
        self.publish(ALL, &header, b"");
    }

    /// The other nodes' public seeks, live games and number of live games.
    pub fn remote_lobby(&self) -> (Vec<SeekInfo>, Vec<GameSummary>, u32) {
        let mut lobbies = lock(&self.lobbies);
        lobbies.retain(|_, l| l.at.elapsed() < LOBBY_FRESH);
        let mut seeks = Vec::new();
        let mut games = Vec::new();
        let mut live = 0;
        for l in lobbies.values() {
            seeks.extend(l.seeks.iter().cloned());
            games.extend(l.games.iter().cloned());
            live += l.live;
        }
        (seeks, games, live)
    }

    /// Makes a seek takeable from every node while this node lives: its key lives as long
    /// as a lease and is extended with them.
    pub async fn put_seek(&self, seek: &SharedSeek) -> Result<(), BusError> {
        let value = serde_json::to_string(seek).unwrap_or_default();
        self.bus.put(&seek_key(&seek.info.id), &value, self.lease).await?;
        lock(&self.seeks).insert(seek.info.id.clone());
        Ok(())
    }

    /// Reads a seek without taking it.
    pub async fn peek_seek(&self, id: &str) -> Result<Option<SharedSeek>, BusError> {
        let value = self.bus.get(&seek_key(id)).await?;
        Ok(value.and_then(|v| serde_json::from_str(&v).ok()))
    }

    /// Takes a seek: `None` if it is gone (or another taker was first). The node that holds
    /// it is told to drop it.
    pub async fn take_seek(&self, id: &str) -> Result<Option<SharedSeek>, BusError> {
        let value = self.bus.take(&seek_key(id)).await?;
        let seek = value.and_then(|v| serde_json::from_str::<SharedSeek>(&v).ok());
        if seek.is_some() {
            self.publish(ALL, &Header::SeekGone { id: id.to_string() }, b"");
        }
        Ok(seek)
    }

    /// Withdraws seeks (cancelled, or their socket closed).
    pub fn drop_seeks(self: &Arc<Self>, ids: Vec<String>) {
        if ids.is_empty() {
            return;
        }
        let mut mine = lock(&self.seeks);
        for id in &ids {
            mine.remove(id);
        }
        drop(mine);
        let me = self.clone();
        tokio::spawn(async move {
            for id in ids {
                let _ = me.bus.take(&seek_key(&id)).await;
            }
        });
    }

    /// Takes the lease of a game this node is creating or loading; `Ok(true)` when it is
    /// this node's.
    pub async fn claim(&self, game: &str) -> Result<bool, BusError> {
        let holder = self.bus.lease(&lease_key(game), &self.node, self.lease).await?;
        Ok(*holder == *self.node)
    }

    /// The game's handle on this node: its actor if this node holds (or takes) the lease,
    /// else a relay to the node that holds it. `None` if there is no such game.
    pub async fn open(
        self: &Arc<Self>,
        games: &Arc<Games>,
        id: &str,
    ) -> Result<Option<GameHandle>, String> {
        let Some(row) = games.h.store.game(id).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let holder = self
            .bus
            .lease(&lease_key(id), &self.node, self.lease)
            .await
            .map_err(|e| e.to_string())?;
        if *holder == *self.node {
            let events = games.h.store.events(id).await.map_err(|e| e.to_string())?;
            games.list().retain(|gid, h| gid != id || !h.tx.is_closed());
            return game::load(games, row, events).await.map(Some);
        }
        Ok(Some(relay::start(games, self, row, holder)))
    }

    /// A game's actor on this node, loading it if this node may own it; `None` if another
    /// node holds its lease.
    async fn owned(self: &Arc<Self>, games: &Arc<Games>, id: &str) -> Option<GameHandle> {
        let local = games.get(id).filter(|h| !h.tx.is_closed());
        match local {
            Some(h) if !h.summary.relayed => return Some(h),
            // This node relays it, and the sender takes it for the owner: so it is if the
            // lease came here (its owner lost it) before the relay noticed. Then the game is
            // loaded here, and the relay, told to look again, moves its sockets to it.
            Some(h) => {
                let holder = self.bus.get(&lease_key(id)).await.ok().flatten();
                if holder.as_deref() != Some(&*self.node) {
                    return None;
                }
                let mut list = games.list();
                if list.get(id).is_some_and(|g| Arc::ptr_eq(&g.summary, &h.summary)) {
                    list.remove(id);
                }
                drop(list);
                if let Some(r) = lock(&self.relays).get(id) {
                    let _ = r.tx.send(relay::RelayMsg::Recheck);
                }
            }
            None => {}
        }
        match self.open(games, id).await {
            Ok(Some(h)) if !h.summary.relayed => Some(h),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(game = %id, "cannot open the game for another node: {e}");
                None
            }
        }
    }

    /// Handles the inbox until the node stops.
    async fn dispatch(self: Arc<Self>, mut inbox: Inbox) {
        while let Some(inbound) = inbox.recv().await {
            if !self.live() {
                break;
            }
            let Some(local) = self.local.upgrade() else { break };
            let bytes = match inbound {
                Inbound::Message(bytes) => bytes,
                Inbound::Resubscribed => {
                    self.resync();
                    self.recount();
                    continue;
                }
            };
            let Some((header, body)) = decode(&bytes) else {
                tracing::warn!("an unreadable bus message");
                continue;
            };
            self.handle(&local, header, body).await;
        }
    }

    /// The subscription was lost and is back: what owners sent meanwhile is lost, so every
    /// relay asks its owner again for its sockets' missing events.
    fn resync(&self) {
        let relays = lock(&self.relays);
        tracing::info!("resubscribed: resyncing {} relayed games", relays.len());
        for r in relays.values() {
            let _ = r.tx.send(relay::RelayMsg::Resync);
        }
    }

    /// The subscription was lost and is back: other nodes' `leave`s (and joins) for this
    /// node's games may be lost, so the nodes that follow them are asked for their sockets.
    fn recount(&self) {
        let asks: HashSet<(String, String)> = lock(&self.followers)
            .iter()
            .flat_map(|(node, f)| f.conns.iter().map(move |(game, _)| (node.clone(), game.clone())))
            .collect();
        for (node, game) in asks {
            let header = Header::Recount { game, owner: self.node.to_string() };
            self.publish(&node_topic(&node), &header, b"");
        }
    }

    fn remote_conn(self: &Arc<Self>, node: &str, conn: u64, user: UserInfo) -> Conn {
        let tx = Out::Remote(Arc::new(RemoteConn {
            node: node.into(),
            conn,
            user: user.id.clone(),
            bus: self.clone(),
        }));
        Conn { id: conn, user: Arc::new(UserCtx::remote(user)), tx }
    }

    async fn handle(self: &Arc<Self>, local: &Local, header: Header, body: &[u8]) {
        let games = &local.games;
        let frame = || Frame::from(String::from_utf8_lossy(body).into_owned());
        match header {
            Header::Join { game, node, conn, user, since } => {
                self.follow(&node, &game, conn, true);
                let conn = self.remote_conn(&node, conn, user);
                self.to_actor(games, &game, &node, Cmd::Join { conn, since }).await;
            }
            Header::Leave { game, node, conn } => {
                self.follow(&node, &game, conn, false);
                let handle = games.get(&game);
                if let Some(h) = handle.filter(|h| !h.summary.relayed) {
                    let _ = h.tx.send(Cmd::Leave { conn_id: conn }).await;
                }
            }
            Header::Client { game, node, conn, user, age_us } => {
                let Ok(msg) = serde_json::from_slice::<ClientMsg>(body) else { return };
                let at = Instant::now()
                    .checked_sub(Duration::from_micros(age_us))
                    .unwrap_or_else(Instant::now);
                let conn = self.remote_conn(&node, conn, user);
                self.to_actor(games, &game, &node, Cmd::Client { conn, msg, at }).await;
            }
            Header::Redirect { game } => {
                if let Some(r) = lock(&self.relays).get(&game) {
                    let _ = r.tx.send(relay::RelayMsg::Recheck);
                }
            }
            Header::Recount { game, owner } => {
                // Answered by the relay, in order with its joins and leaves; without one,
                // none of this node's sockets follows the game.
                let asked = match lock(&self.relays).get(&game) {
                    Some(r) => r.tx.send(relay::RelayMsg::Recount(owner.clone())).is_ok(),
                    None => false,
                };
                if !asked {
                    self.following(&owner, &game, Vec::new());
                }
            }
            Header::Following { game, node, conns } => {
                self.set_following(&node, &game, &conns);
                let handle = games.get(&game);
                if let Some(h) = handle.filter(|h| !h.summary.relayed) {
                    let _ = h.tx.send(Cmd::Following { node, conns }).await;
                }
            }
            Header::To { user, conn } => {
                if let Some(c) = local.online.find(&user, conn) {
                    c.send_frame(frame());
                }
            }
            // Handed to the sockets here, not through the relay's task: in the order they
            // came, with the frames addressed to one socket.
            Header::Broadcast { game, audience, v, scores } => {
                let relay = lock(&self.relays).get(&game).cloned();
                if let Some(r) = relay {
                    r.deliver(&games.h.metrics, audience, v, &frame(), &scores);
                }
            }
            Header::Synced { game, conn, v } => {
                if let Some(r) = lock(&self.relays).get(&game) {
                    r.synced(conn, v);
                }
            }
            Header::User { from, user } => {
                if *from != *self.node {
                    local.online.tell(&user, &frame());
                }
            }
            Header::Lobby { from, seeks, games, live } => {
                if *from != *self.node {
                    if let Some(f) = lock(&self.followers).get_mut(&from) {
                        f.heard = Instant::now();
                    }
                    let l = NodeLobby { at: Instant::now(), seeks, games, live };
                    lock(&self.lobbies).insert(from, l);
                }
            }
            Header::SeekGone { id } => {
                lock(&self.seeks).remove(&id);
                local.lobby.forget(&id);
            }
            Header::SessionsEnded { from, user, ended } => {
                if *from != *self.node {
                    local.sessions.close_ended(&user, &ended);
                }
            }
        }
    }

    /// Hands a command from another node's socket to this node's actor of `game`, or tells
    /// that node to look for the owner.
    async fn to_actor(self: &Arc<Self>, games: &Arc<Games>, game: &str, node: &str, cmd: Cmd) {
        match self.owned(games, game).await {
            Some(h) => {
                let _ = h.tx.send(cmd).await;
            }
            None => self.redirect(node, game),
        }
    }

    /// Notes that the sockets of `node` in `game` are `conns`, all of them.
    fn set_following(&self, node: &str, game: &str, conns: &[u64]) {
        let mut followers = lock(&self.followers);
        let f = followers
            .entry(node.to_string())
            .or_insert_with(|| Followers { heard: Instant::now(), conns: Default::default() });
        f.heard = Instant::now();
        f.conns.retain(|(g, _)| g != game);
        f.conns.extend(conns.iter().map(|&c| (game.to_string(), c)));
    }

    /// Notes that a socket of `node` follows (`true`) or left `game`.
    fn follow(&self, node: &str, game: &str, conn: u64, joined: bool) {
        let mut followers = lock(&self.followers);
        let f = followers
            .entry(node.to_string())
            .or_insert_with(|| Followers { heard: Instant::now(), conns: Default::default() });
        f.heard = Instant::now();
        if joined {
            f.conns.insert((game.to_string(), conn));
        } else {
            f.conns.remove(&(game.to_string(), conn));
        }
    }

    /// Takes the sockets of nodes not heard of for a while out of this node's games (their
    /// players show offline, finished games can end).
    async fn drop_silent_nodes(&self, games: &Games) {
        let silent: Vec<(String, u64)> = {
            let mut followers = lock(&self.followers);
            let gone: Vec<String> = followers
                .iter()
                .filter(|(_, f)| f.heard.elapsed() > LOBBY_FRESH)
                .map(|(n, _)| n.clone())
                .collect();
            gone.iter().filter_map(|n| followers.remove(n)).flat_map(|f| f.conns).collect()
        };
        for (game, conn) in silent {
            let handle = games.get(&game);
            if let Some(h) = handle.filter(|h| !h.summary.relayed) {
                let _ = h.tx.send(Cmd::Leave { conn_id: conn }).await;
            }
        }
    }

    /// Extends the keys of this node's seeks. One that is gone was taken (its `seek_gone`
    /// may be on its way, or was lost) or ran out while Redis was out of reach: either way
    /// nobody can take it any more, so it leaves the lobby here too.
    async fn renew_seeks(&self, lobby: &Lobby) {
        let ids: Vec<String> = lock(&self.seeks).iter().cloned().collect();
        if ids.is_empty() {
            return;
        }
        let keys: Vec<String> = ids.iter().map(|id| seek_key(id)).collect();
        match self.bus.touch(&keys, self.lease).await {
            Ok(found) => {
                for (id, _) in ids.iter().zip(found).filter(|(_, f)| !f) {
                    lock(&self.seeks).remove(id);
                    lobby.forget(id);
                }
            }
            Err(e) => tracing::warn!("could not extend the seeks: {e}"),
        }
    }

    /// Renews the leases of this node's games every third of their life; a game whose lease
    /// was lost (to a node that thought this one dead) is stopped here. Drops the sockets of
    /// silent nodes and extends this node's seeks on the same beat.
    async fn renew_leases(self: Arc<Self>) {
        let mut tick = tokio::time::interval(self.lease / 3);
        loop {
            tick.tick().await;
            if !self.live() {
                break;
            }
            let Some(local) = self.local.upgrade() else { break };
            self.drop_silent_nodes(&local.games).await;
            self.renew_seeks(&local.lobby).await;
            let owned: Vec<String> = local
                .games
                .list()
                .iter()
                .filter(|(_, h)| !h.summary.relayed && !h.tx.is_closed())
                .map(|(id, _)| id.clone())
                .collect();
            let keys: Vec<String> = owned.iter().map(|g| lease_key(g)).collect();
            match self.bus.renew(&keys, &self.node, self.lease).await {
                Ok(held) => {
                    let lost: Vec<&String> =
                        owned.iter().zip(held).filter(|(_, h)| !h).map(|(g, _)| g).collect();
                    if !lost.is_empty() {
                        tracing::warn!(
                            "lost the leases of {} games; handing them over",
                            lost.len()
                        );
                    }
                    for g in lost {
                        let handle = {
                            let mut list = local.games.list();
                            let actor = list.get(g).is_some_and(|h| !h.summary.relayed);
                            if actor { list.remove(g) } else { None }
                        };
                        if let Some(h) = handle {
                            let _ = h.tx.send(Cmd::Lost).await;
                        }
                    }
                }
                Err(e) => tracing::warn!("could not renew the leases: {e}"),
            }
        }
    }
}

impl crate::conn::Bus for Cluster {
    fn send_to(&self, node: &str, user: &str, conn: u64, frame: &Frame) {
        self.send_frame_to(node, user, conn, frame);
    }

    fn synced(&self, node: &str, game: &str, conn: u64, v: u64) {
        self.tell_synced(node, game, conn, v);
    }
}

impl crate::session::OtherNodes for Cluster {
    fn sessions_ended(&self, user: &str, ended: crate::session::Ended) {
        let header =
            Header::SessionsEnded { from: self.node.to_string(), user: user.to_string(), ended };
        self.publish(ALL, &header, b"");
    }
}

impl Peers for Cluster {
    fn claim<'a>(&'a self, game: &'a str) -> PeerFuture<'a, bool> {
        Box::pin(async move { Cluster::claim(self, game).await.map_err(|e| e.to_string()) })
    }

    fn open(self: Arc<Self>, game: String) -> PeerFuture<'static, Option<GameHandle>> {
        Box::pin(async move {
            let games = self.local.games.upgrade().ok_or("the node is stopping")?;
            Cluster::open(&self, &games, &game).await
        })
    }

    fn broadcast(
        &self,
        node: &str,
        game: &str,
        audience: Audience,
        v: Option<u64>,
        frame: &Frame,
        scores: Vec<SocketScore>,
    ) {
        let header = Header::Broadcast { game: game.to_string(), audience, v, scores };
        self.publish(&node_topic(node), &header, frame.as_bytes());
    }

    /// The relay on `node` looks for the owner.
    fn redirect(&self, node: &str, game: &str) {
        self.publish(&node_topic(node), &Header::Redirect { game: game.to_string() }, b"");
    }

    /// Moves the sockets of this node that followed `game` when its shell here lost the
    /// lease to whichever node holds it now (a relay to it, or the game loaded here again if
    /// the lease is free): each gets a snapshot from there.
    fn rehome(self: Arc<Self>, game: String, conns: Vec<Conn>) {
        let Some(games) = self.local.games.upgrade() else { return };
        tokio::spawn(async move {
            match Cluster::open(&self, &games, &game).await {
                Ok(Some(h)) => {
                    for conn in conns {
                        let _ = h.tx.send(Cmd::Join { conn, since: None }).await;
                    }
                }
                Ok(None) => tracing::warn!(game, "a game with a lost lease is not in the store"),
                Err(e) => tracing::warn!(game, "could not move the game's sockets: {e}"),
            }
        });
    }

    fn tell_user(&self, user: &str, frame: &Frame) {
        let header = Header::User { from: self.node.to_string(), user: user.to_string() };
        self.publish(ALL, &header, frame.as_bytes());
    }
}
