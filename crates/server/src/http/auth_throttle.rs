//! Slow repeated 401s: the failed authentications of one peer address (an IPv6 address counts by
//! its /64) are counted, and once a peer has failed [`FREE_FAILURES`] times without a pause of
//! [`WINDOW`], each further 401 it gets waits, [`FIRST_DELAY`] at first and twice as long each
//! time, at most [`MAX_DELAY`]. A request with the right token is never slowed, nor is any other
//! peer. While its 401 waits, the connection counts as waiting for its client (the connection cap
//! may close it, `listen`), so delayed answers cannot lock fresh clients out. The table keeps at
//! most [`MAX_PEERS`] peers: at the cap the peers whose last failure is older than the window go,
//! then the one that failed longest ago.

use crate::listen::Stall;
use axum::extract::ConnectInfo;
use axum::http::Extensions;
use axum::response::Response;
use protocol::error::ApiError;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Failures a peer may have in a row before its 401s wait.
pub const FREE_FAILURES: u32 = 10;
/// A peer's count starts again after this long without a failure.
pub const WINDOW: Duration = Duration::from_secs(60);
/// The wait of the first slowed 401; each further one waits twice as long.
pub const FIRST_DELAY: Duration = Duration::from_millis(100);
/// The longest wait of one 401.
pub const MAX_DELAY: Duration = Duration::from_secs(5);
/// The most peers the table holds.
pub const MAX_PEERS: usize = 4096;

/// One peer's failures in a row and when the last one came.
struct Record {
    failures: u32,
    last: Instant,
}

/// The failed authentications per peer.
pub struct AuthThrottle {
    peers: Mutex<HashMap<IpAddr, Record>>,
    capacity: usize,
}

/// The process's table, shared by both listeners.
pub fn global() -> &'static AuthThrottle {
    static THROTTLE: OnceLock<AuthThrottle> = OnceLock::new();
    THROTTLE.get_or_init(|| AuthThrottle::new(MAX_PEERS))
}

/// The key of a peer: an IPv4 address (also when mapped into IPv6), or an IPv6 address's /64,
/// the block one host usually has.
pub fn peer_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

/// How long the `failures`-th failure in a row waits.
pub fn delay_for(failures: u32) -> Duration {
    let Some(over) = failures.checked_sub(FREE_FAILURES + 1) else {
        return Duration::ZERO;
    };
    FIRST_DELAY
        .checked_mul(1u32.checked_shl(over).unwrap_or(u32::MAX))
        .map_or(MAX_DELAY, |d| d.min(MAX_DELAY))
}

impl AuthThrottle {
    pub fn new(capacity: usize) -> AuthThrottle {
        AuthThrottle {
            peers: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// How many peers the table holds.
    pub fn len(&self) -> usize {
        self.peers.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records a failed authentication of `ip` at `now`; returns how long its 401 waits.
    pub fn fail(&self, ip: IpAddr, now: Instant) -> Duration {
        let key = peer_key(ip);
        let mut peers = self.peers.lock().unwrap_or_else(|p| p.into_inner());
        if !peers.contains_key(&key) && peers.len() >= self.capacity {
            peers.retain(|_, r| now.saturating_duration_since(r.last) < WINDOW);
            if peers.len() >= self.capacity
                && let Some(oldest) = peers.iter().min_by_key(|(_, r)| r.last).map(|(k, _)| *k)
            {
                peers.remove(&oldest);
            }
        }
        let record = peers.entry(key).or_insert(Record {
            failures: 0,
            last: now,
        });
        if now.saturating_duration_since(record.last) >= WINDOW {
            record.failures = 0;
        }
        record.failures = record.failures.saturating_add(1);
        record.last = now;
        delay_for(record.failures)
    }
}

/// The 401 for `error`, after the wait the peer's failures call for (the peer and the
/// connection's stall handle come from the listener, in the request's extensions).
pub async fn refuse(extensions: &Extensions, error: &ApiError) -> Response {
    if let Some(ConnectInfo(peer)) = extensions.get::<ConnectInfo<SocketAddr>>() {
        let wait = global().fail(peer.ip(), Instant::now());
        if !wait.is_zero() {
            let _stalled = extensions.get::<Stall>().map(Stall::begin);
            tokio::time::sleep(wait).await;
        }
    }
    super::error::error_response(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_starts_after_the_free_failures_doubles_and_is_capped() {
        assert_eq!(delay_for(1), Duration::ZERO);
        assert_eq!(delay_for(FREE_FAILURES), Duration::ZERO);
        assert_eq!(delay_for(FREE_FAILURES + 1), FIRST_DELAY);
        assert_eq!(delay_for(FREE_FAILURES + 2), FIRST_DELAY * 2);
        assert_eq!(delay_for(FREE_FAILURES + 3), FIRST_DELAY * 4);
        assert_eq!(delay_for(FREE_FAILURES + 10), MAX_DELAY);
        assert_eq!(delay_for(u32::MAX), MAX_DELAY);
    }

    #[test]
    fn peers_are_counted_apart_and_forgotten_after_the_window() {
        let t = AuthThrottle::new(16);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        for _ in 0..FREE_FAILURES {
            assert_eq!(t.fail(a, start), Duration::ZERO);
        }
        assert_eq!(t.fail(a, start), FIRST_DELAY);
        assert_eq!(
            t.fail(b, start),
            Duration::ZERO,
            "another peer is not slowed"
        );
        // A pause as long as the window: the count starts again.
        assert_eq!(t.fail(a, start + WINDOW), Duration::ZERO);
    }

    #[test]
    fn an_ipv6_host_counts_by_its_64_and_a_mapped_ipv4_as_itself() {
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let other: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        assert_eq!(peer_key(one), peer_key(other));
        assert_ne!(peer_key(one), peer_key("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(
            peer_key("::ffff:10.0.0.1".parse().unwrap()),
            "10.0.0.1".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn the_table_stays_bounded_however_many_peers_fail() {
        let t = AuthThrottle::new(64);
        let now = Instant::now();
        for i in 0..10_000u32 {
            t.fail(
                IpAddr::from(i.to_be_bytes()),
                now + Duration::from_millis(u64::from(i)),
            );
        }
        assert_eq!(t.len(), 64);
        // The newest peer is kept, with its count.
        let newest = IpAddr::from(9_999u32.to_be_bytes());
        let later = now + Duration::from_millis(10_000);
        for _ in 1..FREE_FAILURES {
            assert_eq!(t.fail(newest, later), Duration::ZERO);
        }
        assert_eq!(t.fail(newest, later), FIRST_DELAY);
    }
}
