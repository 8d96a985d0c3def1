//! The HTTP face of a [`Player`]: tiny_http parses the requests; each one is read on a thread of
//! its own (a client that stalls mid-body holds only its thread) and answered by the player,
//! one at a time. Messages come as the body of a POST, or URL-encoded in the path of a GET (as
//! GGP Base's managers can also send them).

use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tiny_http::{Header, Method, Request, Response, Server};

use super::player::{Player, Reply};

/// The largest request body read, in bytes: rule sheets of real games stay below 1 MiB.
pub const MAX_BODY: usize = 16 << 20;
/// The most requests handled at once; more get HTTP 503.
const MAX_REQUESTS: usize = 64;

/// Answers GGP requests on `server` for ever.
pub fn serve(server: Server, player: Player) {
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
        let (player, count) = (player.clone(), active.clone());
        let spawned = std::thread::Builder::new()
            .name("ggp-request".into())
            .spawn(move || {
                answer(request, arrived, &player);
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

fn answer(mut request: Request, arrived: Instant, player: &Mutex<Player>) {
    let peer = request
        .remote_addr()
        .map_or_else(|| "?".to_string(), |a| a.to_string());
    if *request.method() == Method::Options {
        // A browser-based manager asks before posting from another origin.
        return respond(request, 200, "");
    }
    if *request.method() == Method::Get {
        let text = message_in_url(request.url());
        let reply = handle(&mut lock(player), &text, arrived);
        return send(request, reply);
    }
    if *request.method() != Method::Post {
        lock(player).log(
            "bad-request",
            &format!("{peer}: {} instead of POST or GET", request.method()),
        );
        return respond(request, 405, "GGP messages are POSTed");
    }
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        lock(player).log(
            "bad-request",
            &format!("{peer}: a body over {MAX_BODY} bytes"),
        );
        return respond(request, 413, "request too large");
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    let problem = match (read, std::str::from_utf8(&body)) {
        (Err(e), _) => Some(format!("the body could not be read: {e}")),
        _ if body.len() > MAX_BODY => Some(format!("a body over {MAX_BODY} bytes")),
        (_, Err(_)) => Some("the body is not UTF-8 text".to_string()),
        _ => None,
    };
    if let Some(problem) = problem {
        lock(player).log("bad-request", &format!("{peer}: {problem}"));
        return respond(request, 400, &problem);
    }
    let text = String::from_utf8_lossy(&body);
    let reply = {
        let mut player = lock(player);
        handle(&mut player, &text, arrived)
    };
    send(request, reply);
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
