//! The HTTP face of a [`Player`]: connections come in through a [`Gate`], which admits at most
//! [`MAX_CONNECTIONS`](super::gate::MAX_CONNECTIONS) at once; tiny_http, behind it on loopback,
//! parses the requests; each one is read on a thread of its own (at most [`MAX_REQUESTS`]; a
//! client that stalls mid-body holds only its thread) and answered by the player, one at a time.
//! Messages come as the body of a POST, or URL-encoded in the path of a GET (as GGP Base's
//! managers can also send them).

use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use std::net::TcpListener;

use tiny_http::{Header, Method, Request, Response, Server};

use super::gate::Gate;
use super::log::Log;
use super::message::Message;
use super::player::{Player, Reply, Status};

/// The largest request body read, in bytes: rule sheets of real games stay below 1 MiB.
pub const MAX_BODY: usize = 16 << 20;
/// The most requests handled at once; more get HTTP 503.
const MAX_REQUESTS: usize = 64;

/// Listens on `host:port` through a [`Gate`], with tiny_http behind it on a loopback port.
pub fn bind(host: &str, port: u16) -> Result<(Gate, Server), String> {
    let listener = TcpListener::bind((host, port)).map_err(|e| e.to_string())?;
    let server = Server::http("127.0.0.1:0").map_err(|e| e.to_string())?;
    let backend = server
        .server_addr()
        .to_ip()
        .ok_or("tiny_http listens on no IP address")?;
    Ok((Gate::new(listener, backend), server))
}

/// Answers GGP requests coming through `gate` to `server` for ever; the gate logs to `gate_log`.
pub fn serve(gate: Gate, gate_log: Log, server: Server, player: Player) {
    let spawned = std::thread::Builder::new()
        .name("ggp-gate".into())
        .spawn(move || gate.run(gate_log));
    if let Err(e) = spawned {
        let mut player = player;
        player.log("exit", &format!("cannot start the gate: {e}"));
        return;
    }
    let status = player.status();
    let player = Arc::new(Mutex::new(player));
    let active = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        let arrived = Instant::now();
        if active.load(Ordering::SeqCst) >= MAX_REQUESTS {
            lock(&player).log("busy", "too many requests at once: HTTP 503");
            respond(request, 503, "too many requests");
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (player, status, count) = (player.clone(), status.clone(), active.clone());
        let spawned = std::thread::Builder::new()
            .name("ggp-request".into())
            .spawn(move || {
                answer(request, arrived, &player, &status);
                count.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // The request went down with the closure; the client sees the connection close.
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The player, even if a request thread panicked while holding it: its state stays usable.
fn lock(player: &Mutex<Player>) -> MutexGuard<'_, Player> {
    player.lock().unwrap_or_else(|e| e.into_inner())
}

fn answer(mut request: Request, arrived: Instant, player: &Mutex<Player>, status: &Status) {
    let text = match *request.method() {
        // A browser-based manager asks before posting from another origin.
        Method::Options => return respond(request, 200, ""),
        Method::Get => Ok(message_in_url(request.url())),
        Method::Post => read_body(&mut request),
        ref other => Err((405, format!("{other} instead of POST or GET"))),
    };
    let text = match text {
        Ok(text) => text,
        Err((code, problem)) => {
            let peer = request
                .remote_addr()
                .map_or_else(|| "?".to_string(), |a| a.to_string());
            lock(player).log("bad-request", &format!("{peer}: {problem}"));
            return respond(request, code, &problem);
        }
    };
    // `(info)` is answered without waiting for the player, which may be searching: a manager
    // that checks on its players during a match gets its answer at once.
    if matches!(Message::parse(&text), Ok(Message::Info)) {
        return respond(request, 200, &status.info());
    }
    let reply = handle(&mut lock(player), &text, arrived);
    send(request, reply);
}

/// The body of a POST, at most [`MAX_BODY`] bytes of UTF-8; otherwise the HTTP status and why.
fn read_body(request: &mut Request) -> Result<String, (u16, String)> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err((413, format!("a body over {MAX_BODY} bytes")));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| (400, format!("the body could not be read: {e}")))?;
    if body.len() > MAX_BODY {
        return Err((413, format!("a body over {MAX_BODY} bytes")));
    }
    String::from_utf8(body).map_err(|_| (400, "the body is not UTF-8 text".to_string()))
}

fn send(request: Request, reply: Reply) {
    match reply {
        Reply::Answer(text) => respond(request, 200, &text),
        Reply::BadRequest(why) | Reply::Refused(why) => respond(request, 400, &why),
    }
}

/// The message of a GET request: the path after `/`, URL-decoded as Java's `URLEncoder` encodes
/// it (`+` for a space), as GGP Base's managers send it when they do not POST.
fn message_in_url(url: &str) -> String {
    let path = url.strip_prefix('/').unwrap_or(url).replace('+', " ");
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

fn respond(request: Request, status: u16, body: &str) {
    let headers = [
        ("Content-Type", "text/acl"),
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Allow-Methods", "POST, GET, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type"),
    ];
    let mut response = Response::from_string(body).with_status_code(status);
    for (name, value) in headers {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // A client that went away cannot be answered; the next request is unaffected.
    let _ = request.respond(response);
}
