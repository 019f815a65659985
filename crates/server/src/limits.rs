//! Limits per client: how often one address or one name may try a password, how many
//! anonymous sessions an address may open, how many connections it may hold, how many
//! password hashes run at once, how many live games a user may keep, how many websocket
//! messages a session and an address may send. The rates are
//! `governor`'s keyed GCRA limiters, the one limiter the server's limits are built on.

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

/// A rate: bursts of `burst`, then one every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// What may come at once.
    pub burst: u32,
    /// Then one per this long.
    pub every: Duration,
}

impl Rate {
    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.every.max(Duration::from_nanos(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst)
    }
}

/// The limits' settings ([`Limits::default`] is what `cannonade serve` uses).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Logins and registrations per address.
    pub logins_per_address: Rate,
    /// Logins and registrations per name (regardless of case).
    pub logins_per_name: Rate,
    /// Password hashes (Argon2: tens of milliseconds and 19 MiB each) running at once; more
    /// wait their turn, up to [`Limits::hash_wait`].
    pub password_hashes: usize,
    /// How long a login waits for a hash slot before it is refused.
    pub hash_wait: Duration,
    /// New anonymous sessions per address.
    pub anonymous_sessions_per_address: Rate,
    /// Open connections (HTTP and websockets) per address.
    pub connections_per_address: usize,
    /// Live games against the engine or in hot seat per user (games between two people are
    /// bounded by the seeks they come from).
    pub solo_games_per_user: usize,
    /// Open seeks and invites per user.
    pub seeks_per_user: usize,
    /// An untimed game that nobody touches for this long ends (aborted).
    pub untimed_idle: Duration,
    /// PGN imports (`POST /api/import`, up to 200 games each) per address.
    pub imports_per_address: Rate,
    /// Game reviews a user may have waiting or running at once (`POST
    /// /api/game/{id}/review`); reviews queued at a game's end are not counted.
    pub reviews_per_user: usize,
    /// Analysis-board searches a user may have running or waiting at once (one per socket:
    /// a new position replaces the socket's last).
    pub analyses_per_user: usize,
    /// Engine time one analysed position gets before its search stops (the board shows it
    /// done; moving on starts a new one).
    pub analysis_time: Duration,
    /// An analysis runs in slices this long, each a job of its own in the engine queue, so
    /// an AI move never waits behind a long analysis for more than one slice.
    pub analysis_slice: Duration,
    /// How long a connection may take to send a request's head (and may stay idle between
    /// requests) before it is closed.
    pub header_timeout: Duration,
    /// Websocket messages per session, over all its sockets (each socket also has its own
    /// limit, `Config::rate_per_sec`). A seat's acts in its game
    /// ([`cannonade_wire::ClientMsg::is_play`]) are not counted.
    pub messages_per_session: Rate,
    /// Websocket messages per address, over all its sessions; plays not counted either.
    pub messages_per_address: Rate,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            // A person mistyping a password a few times goes on; a script gets one try per
            // 20 s a name and one per 3 s an address (the audit's 60 tries in 1.3 s).
            logins_per_address: Rate { burst: 20, every: Duration::from_secs(3) },
            logins_per_name: Rate { burst: 5, every: Duration::from_secs(20) },
            password_hashes: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
            hash_wait: Duration::from_secs(5),
            // A household behind one address opens a few tabs; a script opening thousands
            // of sessions to multiply the per-user caps gets one a second.
            anonymous_sessions_per_address: Rate { burst: 30, every: Duration::from_secs(1) },
            connections_per_address: 64,
            solo_games_per_user: 5,
            seeks_per_user: 10,
            untimed_idle: Duration::from_secs(24 * 3600),
            // Each import replays every move of up to 200 games: a person imports a file
            // now and then, a script filling the store gets one request per 30 s.
            imports_per_address: Rate { burst: 10, every: Duration::from_secs(30) },
            // A review of a long game takes an engine most of a minute: a player reviewing
            // a few imported games waits in line, a script cannot fill the queue.
            reviews_per_user: 3,
            // Two tabs of analysis; a third waits until one is closed or done.
            analyses_per_user: 2,
            // Deep enough for the lines to settle on these boards; longer belongs to a
            // local engine (`cannonade uci`).
            analysis_time: Duration::from_secs(30),
            analysis_slice: Duration::from_millis(500),
            // A browser sends a request's head in one packet; ten seconds leaves room for
            // a slow mobile link and frees a slow-loris connection quickly.
            header_timeout: Duration::from_secs(10),
            // Two tabs at the per-socket rate; more sockets of one session share it (the
            // audit's 15 extra sockets of one player chatting at 19 lines a second each).
            messages_per_session: Rate { burst: 80, every: Duration::from_millis(25) },
            // Ten such sessions behind one address (a household, a club); the audit's 30
            // spectators of one address at 19 lines a second each are over it.
            messages_per_address: Rate { burst: 400, every: Duration::from_millis(5) },
        }
    }
}

/// A request over a rate: when it may be tried again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooSoon(pub Duration);

impl std::fmt::Display for TooSoon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "too many attempts: try again in {} s", self.0.as_secs().max(1))
    }
}

impl std::error::Error for TooSoon {}

/// A websocket message over a shared limit: whose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageLimit {
    /// The session's sockets together sent too many.
    Session,
    /// The address's sessions together sent too many.
    Address,
}

impl std::fmt::Display for MessageLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MessageLimit::Session => "too many messages from this session's sockets together",
            MessageLimit::Address => "too many messages from this address",
        })
    }
}

impl std::error::Error for MessageLimit {}

/// The limits at run time.
pub struct Limiter {
    /// The settings.
    pub limits: Limits,
    logins_by_address: DefaultKeyedRateLimiter<IpAddr>,
    logins_by_name: DefaultKeyedRateLimiter<String>,
    anonymous: DefaultKeyedRateLimiter<IpAddr>,
    imports: DefaultKeyedRateLimiter<IpAddr>,
    messages_by_session: DefaultKeyedRateLimiter<String>,
    messages_by_address: DefaultKeyedRateLimiter<IpAddr>,
    /// Password hashes running.
    pub hashes: tokio::sync::Semaphore,
    connections: Mutex<HashMap<IpAddr, usize>>,
}

fn check<K: std::hash::Hash + Eq + Clone>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
) -> Result<(), TooSoon> {
    limiter.check_key(key).map_err(|not| TooSoon(not.wait_time_from(DefaultClock::default().now())))
}

impl Limiter {
    /// Limiters for `limits`.
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            logins_by_address: DefaultKeyedRateLimiter::keyed(limits.logins_per_address.quota()),
            logins_by_name: DefaultKeyedRateLimiter::keyed(limits.logins_per_name.quota()),
            anonymous: DefaultKeyedRateLimiter::keyed(
                limits.anonymous_sessions_per_address.quota(),
            ),
            imports: DefaultKeyedRateLimiter::keyed(limits.imports_per_address.quota()),
            messages_by_session: DefaultKeyedRateLimiter::keyed(
                limits.messages_per_session.quota(),
            ),
            messages_by_address: DefaultKeyedRateLimiter::keyed(
                limits.messages_per_address.quota(),
            ),
            hashes: tokio::sync::Semaphore::new(limits.password_hashes.max(1)),
            connections: Mutex::new(HashMap::new()),
            limits,
        }
    }

    /// Counts a login or registration attempt of `name` from `addr`.
    pub fn login(&self, addr: IpAddr, name: &str) -> Result<(), TooSoon> {
        check(&self.logins_by_address, &addr)?;
        check(&self.logins_by_name, &name.to_ascii_lowercase())
    }

    /// Counts a new anonymous session from `addr`.
    pub fn anonymous_session(&self, addr: IpAddr) -> Result<(), TooSoon> {
        check(&self.anonymous, &addr)
    }

    /// Counts a PGN import from `addr`.
    pub fn import(&self, addr: IpAddr) -> Result<(), TooSoon> {
        check(&self.imports, &addr)
    }

    /// Counts a websocket message of the session `session` (its token's hash) from `addr`.
    /// The session is checked first, so one session over its limit does not use up its
    /// address's.
    pub fn message(&self, session: &str, addr: IpAddr) -> Result<(), MessageLimit> {
        // Keyed by a borrowed hash would need the key type to be `str`; the clone is a
        // 64-byte copy per message.
        if self.messages_by_session.check_key(&session.to_string()).is_err() {
            return Err(MessageLimit::Session);
        }
        self.messages_by_address.check_key(&addr).map_err(|_| MessageLimit::Address)
    }

    /// Opens a connection from `addr` if it holds fewer than the limit; the guard closes
    /// it.
    pub fn connect(self: &std::sync::Arc<Self>, addr: IpAddr) -> Option<ConnectionGuard> {
        let mut open = crate::lock::lock(&self.connections);
        let n = open.entry(addr).or_default();
        if *n >= self.limits.connections_per_address {
            return None;
        }
        *n += 1;
        Some(ConnectionGuard { limiter: self.clone(), addr })
    }

    /// Forgets the rates of keys not seen for a while (the maps would grow with every
    /// address and name ever seen).
    pub fn sweep(&self) {
        self.logins_by_address.retain_recent();
        self.logins_by_name.retain_recent();
        self.anonymous.retain_recent();
        self.imports.retain_recent();
        self.messages_by_session.retain_recent();
        self.messages_by_address.retain_recent();
    }
}

/// One open connection of an address; dropping it closes it.
pub struct ConnectionGuard {
    limiter: std::sync::Arc<Limiter>,
    addr: IpAddr,
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        let mut open = crate::lock::lock(&self.limiter.connections);
        if let Some(n) = open.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A burst passes, the next is refused with a wait, and other keys are not touched.
    #[test]
    fn rates_are_per_key() {
        let limits = Limits {
            logins_per_address: Rate { burst: 3, every: Duration::from_secs(60) },
            logins_per_name: Rate { burst: 2, every: Duration::from_secs(60) },
            ..Limits::default()
        };
        let l = Limiter::new(limits);
        let (a, b) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        assert!(l.login(a, "alice").is_ok() && l.login(a, "ALICE").is_ok());
        let TooSoon(wait) = l.login(a, "Alice").unwrap_err();
        assert!(wait > Duration::from_secs(1), "{wait:?}");
        assert!(l.login(b, "bob").is_ok(), "another name from another address");
    }

    /// A session's messages are counted over all its sockets, an address's over all its
    /// sessions; a session over its own limit leaves its address's untouched.
    #[test]
    fn messages_are_limited_per_session_and_per_address() {
        let limits = Limits {
            messages_per_session: Rate { burst: 3, every: Duration::from_secs(60) },
            messages_per_address: Rate { burst: 5, every: Duration::from_secs(60) },
            ..Limits::default()
        };
        let l = Limiter::new(limits);
        let (a, b) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        for _ in 0..3 {
            assert_eq!(l.message("s1", a), Ok(()));
        }
        assert_eq!(l.message("s1", a), Err(MessageLimit::Session));
        assert_eq!(l.message("s1", b), Err(MessageLimit::Session), "the session, anywhere");
        // The refused ones did not count against the address: two more sessions' worth.
        assert_eq!(l.message("s2", a), Ok(()));
        assert_eq!(l.message("s3", a), Ok(()));
        assert_eq!(l.message("s4", a), Err(MessageLimit::Address));
        assert_eq!(l.message("s4", b), Ok(()), "another address");
    }

    #[test]
    fn connections_are_counted_per_address_until_closed() {
        let l = Arc::new(Limiter::new(Limits { connections_per_address: 2, ..Limits::default() }));
        let a = IpAddr::from([10, 0, 0, 1]);
        let (g1, g2) = (l.connect(a).unwrap(), l.connect(a).unwrap());
        assert!(l.connect(a).is_none());
        assert!(l.connect(IpAddr::from([10, 0, 0, 2])).is_some());
        drop(g1);
        assert!(l.connect(a).is_some());
        drop(g2);
    }
}
