//! [`Gate`]: the player's front door. tiny_http 0.12 gives every open connection a thread of its
//! own and never times one out, so a client that opens thousands of connections and sends nothing
//! would get thousands of threads. The gate accepts the connections itself, admits at most
//! [`MAX_CONNECTIONS`] at once, and relays each admitted one, byte for byte, to tiny_http
//! listening on loopback: tiny_http still parses every request, and never sees more connections
//! than the gate admits.
//!
//! A connection is *busy* from its client's first byte of a request until the first byte of the
//! reply, and *idle* otherwise. When every place is taken, a new connection takes the place of the
//! connection idle the longest, which is closed; if none is idle, the new one is closed. An idle
//! connection is also closed after [`IDLE`] without a byte. So an idle flood never locks a game
//! manager out; clients that keep their requests unfinished can (each holds a place, as a stalled
//! body holds a request thread), but never make threads or memory grow. Every admitted connection
//! costs two threads with small stacks and two 16 KiB buffers.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::log::Log;

/// The most connections relayed at once.
pub const MAX_CONNECTIONS: usize = 64;
/// An idle connection is closed after this long.
pub const IDLE: Duration = Duration::from_secs(60);
/// How often a relay looks at the clock while its client is silent.
const TICK: Duration = Duration::from_millis(500);
/// Stack of a relay thread: it only copies bytes.
const STACK: usize = 128 << 10;

/// The front door: public connections in, relayed to `backend`.
pub struct Gate {
    listener: TcpListener,
    backend: SocketAddr,
    open: Arc<Mutex<Vec<Arc<Relay>>>>,
    epoch: Instant,
}

/// One relayed connection, as the gate sees it.
struct Relay {
    client: TcpStream,
    /// A request is on its way: the client sent bytes the reply has not started to answer.
    busy: AtomicBool,
    /// Milliseconds since the gate's epoch at the last byte either way.
    last: AtomicU64,
    /// Closed by the gate (or done): no longer counted.
    closed: AtomicBool,
}

impl Relay {
    fn touch(&self, epoch: Instant) {
        self.last
            .store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        let _ = self.client.shutdown(Shutdown::Both);
    }
}

impl Gate {
    /// A gate in front of `backend`, accepting on `listener`.
    pub fn new(listener: TcpListener, backend: SocketAddr) -> Gate {
        Gate {
            listener,
            backend,
            open: Arc::new(Mutex::new(Vec::new())),
            epoch: Instant::now(),
        }
    }

    /// Admits and relays connections for ever. Connections refused or closed to make room are
    /// logged as `busy` lines, at most one a second (with how many), so a flood cannot fill the
    /// disk.
    pub fn run(self, mut log: Log) {
        let mut last_line: Option<Instant> = None;
        let mut unlogged = 0u64;
        for client in self.listener.incoming() {
            let Ok(client) = client else { continue };
            let Some(why) = self.admit(client) else {
                continue;
            };
            unlogged += 1;
            if last_line.map_or(true, |t| t.elapsed() >= Duration::from_secs(1)) {
                log.line(
                    "busy",
                    &format!("{why} ({unlogged} since the last such line)"),
                );
                last_line = Some(Instant::now());
                unlogged = 0;
            }
        }
    }

    /// Starts relaying `client`, making room if needed; what was done to make room, if anything.
    fn admit(&self, client: TcpStream) -> Option<&'static str> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|r| !r.closed.load(Ordering::Relaxed));
        let mut note = None;
        if open.len() >= MAX_CONNECTIONS {
            let idle = open
                .iter()
                .filter(|r| !r.busy.load(Ordering::Relaxed))
                .min_by_key(|r| r.last.load(Ordering::Relaxed))
                .cloned();
            match idle {
                Some(oldest) => {
                    oldest.close();
                    open.retain(|r| !Arc::ptr_eq(r, &oldest));
                    note = Some("too many connections: the longest idle one was closed");
                }
                None => {
                    let _ = client.shutdown(Shutdown::Both);
                    return Some("too many connections, none idle: a new one was closed");
                }
            }
        }
        let Ok(mine) = client.try_clone() else {
            return note;
        };
        let relay = Arc::new(Relay {
            client: mine,
            busy: AtomicBool::new(false),
            last: AtomicU64::new(0),
            closed: AtomicBool::new(false),
        });
        relay.touch(self.epoch);
        let (backend, epoch, shared) = (self.backend, self.epoch, relay.clone());
        let spawned = std::thread::Builder::new()
            .name("ggp-relay".into())
            .stack_size(STACK)
            .spawn(move || relay_connection(client, backend, &shared, epoch));
        if spawned.is_ok() {
            open.push(relay);
        }
        note
    }
}

/// Relays `client` to `backend` until either side closes or the connection stays idle for
/// [`IDLE`]: requests up on this thread, replies down on another.
fn relay_connection(client: TcpStream, backend: SocketAddr, relay: &Relay, epoch: Instant) {
    let done = || relay.close();
    let Ok(server) = TcpStream::connect(backend) else {
        return done();
    };
    let (Ok(mut client_out), Ok(mut server_in)) = (client.try_clone(), server.try_clone()) else {
        return done();
    };
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    std::thread::scope(|scope| {
        let down = std::thread::Builder::new()
            .name("ggp-relay".into())
            .stack_size(STACK)
            .spawn_scoped(scope, || {
                let mut buffer = [0u8; 16 << 10];
                while let Ok(n) = server_in.read(&mut buffer) {
                    if n == 0 || client_out.write_all(&buffer[..n]).is_err() {
                        break;
                    }
                    relay.busy.store(false, Ordering::Relaxed);
                    relay.touch(epoch);
                }
                // The reply is over (tiny_http closed) or the client is gone: end both ways.
                let _ = client_out.shutdown(Shutdown::Both);
                let _ = server_in.shutdown(Shutdown::Both);
            });
        if down.is_err() {
            let _ = server.shutdown(Shutdown::Both);
            return;
        }
        up(client, server, relay, epoch);
    });
    done();
}

/// Copies the client's bytes to tiny_http; at the client's end of stream, ends the request side
/// only (the reply still comes down); while idle, watches the clock.
fn up(mut client: TcpStream, mut server: TcpStream, relay: &Relay, epoch: Instant) {
    let _ = client.set_read_timeout(Some(TICK));
    let mut buffer = [0u8; 16 << 10];
    loop {
        match client.read(&mut buffer) {
            Ok(0) => {
                let _ = server.shutdown(Shutdown::Write);
                return;
            }
            Ok(n) => {
                relay.busy.store(true, Ordering::Relaxed);
                relay.touch(epoch);
                if server.write_all(&buffer[..n]).is_err() {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                let now = epoch.elapsed().as_millis() as u64;
                let since = now.saturating_sub(relay.last.load(Ordering::Relaxed));
                let idle = !relay.busy.load(Ordering::Relaxed);
                if relay.closed.load(Ordering::Relaxed) || (idle && since > IDLE.as_millis() as u64)
                {
                    break;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = client.shutdown(Shutdown::Both);
    let _ = server.shutdown(Shutdown::Both);
}
