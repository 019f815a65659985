//! What the engine jobs on Redis share (game reviews' in `reviews/board.rs`, AI moves' in
//! `ai_board.rs`): a namespace of keys, one multiplexed connection for the short commands,
//! and connections of their own for the takers' blocking waits.

use redis::Client;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::time::Duration;

/// Redis failed, or answered what the jobs' scripts never return.
#[derive(Debug)]
pub struct BoardError(pub String);

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "engine jobs on redis: {}", self.0)
    }
}

impl std::error::Error for BoardError {}

impl From<redis::RedisError> for BoardError {
    fn from(e: redis::RedisError) -> BoardError {
        BoardError(e.to_string())
    }
}

/// The namespace of a site's keys when none is set.
pub const DEFAULT_NAMESPACE: &str = "cannonade";

/// How long a command may wait for its answer; a taker's block is shorter.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);

/// The keys of one kind of job (`NS:AREA:…`) and the connections to them (cheap to clone).
#[derive(Clone)]
pub(crate) struct JobRedis {
    client: Client,
    conn: ConnectionManager,
    ns: String,
    area: &'static str,
}

impl std::fmt::Debug for JobRedis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.ns, self.area)
    }
}

async fn manager(client: &Client) -> Result<ConnectionManager, BoardError> {
    let config = ConnectionManagerConfig::new()
        .set_response_timeout(Some(RESPONSE_TIMEOUT))
        .set_connection_timeout(Some(Duration::from_secs(2)));
    Ok(ConnectionManager::new_with_config(client.clone(), config).await?)
}

impl JobRedis {
    /// Connects to `url` (`redis://HOST:PORT`) for the jobs of `area` under `namespace`;
    /// fails early when Redis is not there.
    pub(crate) async fn connect(
        url: &str,
        namespace: &str,
        area: &'static str,
    ) -> Result<JobRedis, BoardError> {
        let client = Client::open(url)?;
        let conn = manager(&client).await?;
        Ok(JobRedis { client, conn, ns: namespace.to_string(), area })
    }

    /// The key `what` of this kind of job.
    pub(crate) fn key(&self, what: &str) -> String {
        format!("{}:{}:{what}", self.ns, self.area)
    }

    /// The shared connection, for a command.
    pub(crate) fn conn(&self) -> ConnectionManager {
        self.conn.clone()
    }

    /// A connection of its own, for a wait that would hold up every command on the shared
    /// one.
    pub(crate) async fn taker(&self) -> Result<ConnectionManager, BoardError> {
        manager(&self.client).await
    }

    /// The client, for a subscription.
    pub(crate) fn client(&self) -> &Client {
        &self.client
    }
}
