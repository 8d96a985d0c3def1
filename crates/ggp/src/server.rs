//! The HTTP face of a [`Player`], on hyper and tokio. Every connection is a task, not a thread,
//! so connections that stall cost a little memory each and never crowd out a game manager: a
//! client must send a request's headers within [`HEADER_TIMEOUT`] and its body within
//! [`BODY_TIMEOUT`], or its connection is closed; past [`MAX_CONNECTIONS`] open at once, new ones
//! are closed on arrival. `(info)` is answered at once, even while the player searches; the
//! other messages are answered by the player, one at a time, on a blocking thread.
//!
//! Messages come as the body of a POST, or URL-encoded in the path of a GET (as GGP Base's
//! managers can also send them).

use std::convert::Infallible;
use std::net::TcpListener;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS};
use hyper::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::Semaphore;

use crate::log::Log;
use crate::message::Message;
use crate::player::{Player, Reply, Status};

/// The largest request body read, in bytes: rule sheets of real games stay below 1 MiB.
pub const MAX_BODY: usize = 16 << 20;
/// How long a client may take to send a request's headers (and, between requests on a kept-alive
/// connection, to start the next one) before its connection is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body once its headers have arrived.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections open at once; more are closed on arrival (each costs a task and its
/// buffers, a few KiB, so that stalled clients cannot grow memory without bound).
pub const MAX_CONNECTIONS: usize = 4096;
/// Threads that run the player's requests (they wait on the player one at a time, and on the
/// search's clock).
const BLOCKING_THREADS: usize = 8;

/// Listens on `host:port`.
pub fn bind(host: &str, port: u16) -> std::io::Result<TcpListener> {
    TcpListener::bind((host, port))
}

/// What the request handlers share.
struct Shared {
    player: Mutex<Player>,
    status: Arc<Status>,
    /// The log of the server's own events (refused connections, unreadable requests).
    log: Mutex<Log>,
}

/// Answers GGP requests arriving on `listener` for ever, `player` playing; connections refused
/// for want of room are logged on `log`, at most one line a second. Errors: the runtime or the
/// listener could not be set up.
pub fn serve(listener: TcpListener, log: Log, player: Player) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(BLOCKING_THREADS)
        .thread_name("ggp-server")
        .enable_all()
        .build()?;
    runtime.block_on(accept(listener, log, player))
}

async fn accept(listener: TcpListener, log: Log, player: Player) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let shared = Arc::new(Shared {
        status: player.status(),
        player: Mutex::new(player),
        log: Mutex::new(log),
    });
    let room = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut refused = RateLimited::default();
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors, or a connection reset before it was accepted: try again.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(permit) = room.clone().try_acquire_owned() else {
            drop(stream);
            refused.note(&shared, "too many connections: a new one was closed");
            continue;
        };
        let _ = stream.set_nodelay(true);
        let shared = shared.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| respond(request, shared.clone()));
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                // Clients that shut down their side once the request is sent still get the reply.
                .half_close(true)
                .serve_connection(TokioIo::new(stream), service);
            // A client that breaks the protocol or goes away loses only its own connection.
            let _ = connection.await;
            drop(permit);
        });
    }
}

/// One log line a second at most for an event that a flood repeats, with how many there were.
#[derive(Default)]
struct RateLimited {
    last: Option<Instant>,
    unlogged: u64,
}

impl RateLimited {
    fn note(&mut self, shared: &Shared, what: &str) {
        self.unlogged += 1;
        if self
            .last
            .map_or(true, |t| t.elapsed() >= Duration::from_secs(1))
        {
            let line = format!("{what} ({} since the last such line)", self.unlogged);
            lock(&shared.log).line("busy", &line);
            self.last = Some(Instant::now());
            self.unlogged = 0;
        }
    }
}

/// A mutex's contents even if a thread panicked while holding it: the player stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

async fn respond(
    request: Request<Incoming>,
    shared: Arc<Shared>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let arrived = Instant::now();
    let peer_problem = |shared: &Shared, code: u16, problem: String| {
        lock(&shared.log).line("bad-request", &problem);
        reply(code, &problem)
    };
    let text = match *request.method() {
        // A browser-based manager asks before posting from another origin.
        Method::OPTIONS => return Ok(reply(200, "")),
        Method::GET => message_in_url(request.uri().path()),
        Method::POST => match read_body(request).await {
            Ok(text) => text,
            Err((code, problem)) => return Ok(peer_problem(&shared, code, problem)),
        },
        ref other => {
            let problem = format!("{other} instead of POST or GET");
            return Ok(peer_problem(&shared, 405, problem));
        }
    };
    // `(info)` is answered without waiting for the player, which may be searching: a manager
    // that checks on its players during a match gets its answer at once.
    if matches!(Message::parse(&text), Ok(Message::Info)) {
        return Ok(reply(200, &shared.status.info()));
    }
    let handled = tokio::task::spawn_blocking(move || {
        let mut player = lock(&shared.player);
        handle(&mut player, &text, arrived)
    })
    .await;
    Ok(match handled {
        Ok(Reply::Answer(text)) => reply(200, &text),
        Ok(Reply::BadRequest(why) | Reply::Refused(why)) => reply(400, &why),
        Err(_) => reply(500, "internal error"),
    })
}

/// The body of a POST, at most [`MAX_BODY`] bytes of UTF-8 within [`BODY_TIMEOUT`]; otherwise
/// the HTTP status and why.
async fn read_body(request: Request<Incoming>) -> Result<String, (u16, String)> {
    let too_large = || (413, format!("a body over {MAX_BODY} bytes"));
    let announced = (request.headers().get(CONTENT_LENGTH))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let body = Limited::new(request.into_body(), MAX_BODY);
    let collected = match tokio::time::timeout(BODY_TIMEOUT, body.collect()).await {
        Err(_) => return Err((408, format!("the body took over {BODY_TIMEOUT:?}"))),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => return Err(too_large()),
        Ok(Err(e)) => return Err((400, format!("the body could not be read: {e}"))),
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    String::from_utf8(collected.to_vec())
        .map_err(|_| (400, "the body is not UTF-8 text".to_string()))
}

/// The message of a GET request: the path after `/`, URL-decoded as Java's `URLEncoder` encodes
/// it (`+` for a space), as GGP Base's managers send it when they do not POST.
fn message_in_url(path: &str) -> String {
    let path = path.strip_prefix('/').unwrap_or(path).replace('+', " ");
    percent_encoding::percent_decode_str(&path)
        .decode_utf8_lossy()
        .into_owned()
}

/// The player's reply; if handling panics, a legal move of the match in progress, if any.
fn handle(player: &mut Player, text: &str, arrived: Instant) -> Reply {
    match catch_unwind(AssertUnwindSafe(|| player.handle(text, arrived))) {
        Ok(reply) => reply,
        Err(_) => {
            player.log(
                "panic",
                "handling a request panicked; answering a legal move",
            );
            match catch_unwind(AssertUnwindSafe(|| player.emergency_move())) {
                Ok(Some(mv)) => Reply::Answer(mv),
                _ => Reply::Refused("internal error".into()),
            }
        }
    }
}

fn reply(status: u16, body: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/acl"));
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    let methods = HeaderValue::from_static("POST, GET, OPTIONS");
    headers.insert(ACCESS_CONTROL_ALLOW_METHODS, methods);
    let allowed = HeaderValue::from_static("Content-Type");
    headers.insert(ACCESS_CONTROL_ALLOW_HEADERS, allowed);
    response
}
