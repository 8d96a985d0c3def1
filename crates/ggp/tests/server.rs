//! The server in this process, over loopback: stalled clients by the hundred leave a game
//! manager's requests answered at once, and the player keeps its clock.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ggp::log::Log;
use ggp::player::{Config, Player};

/// A player on a free loopback port, served on a thread of its own for the rest of the test.
fn serve(name: &str, searcher: &str, margin: f64) -> u16 {
    let listener = ggp::server::bind("127.0.0.1", 0).unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = Config {
        name: name.into(),
        spec: searcher.parse().unwrap(),
        fallback: "uct:sims=1000000000".parse().unwrap(),
        margin: Duration::from_secs_f64(margin),
        seed: 1,
    };
    let player = Player::new(config, Log::quiet());
    std::thread::spawn(move || ggp::server::serve(listener, Log::quiet(), player));
    port
}

/// POSTs `body` and reads the answer: (status, body, how long it took).
fn post(port: u16, body: &str) -> (u16, String, Duration) {
    let asked = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = (answer.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body, asked.elapsed())
}

fn tic_tac_toe() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gdl/games/tictactoe.kif");
    std::fs::read_to_string(path).unwrap()
}

/// Connections that each send half a request and wait: half of them stop in their headers, half
/// in their bodies.
fn half_open(port: u16, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|i| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
            let half: &[u8] = if i % 2 == 0 {
                b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"
            } else {
                b"POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\n(in"
            };
            s.write_all(half).unwrap();
            s
        })
        .collect()
}

#[test]
fn five_hundred_half_open_connections_leave_info_start_and_play_answered_at_once() {
    let port = serve("steady", "uct:sims=100", 0.2);
    let stalled = half_open(port, 500);
    // Let the server take them all in before the manager's requests arrive.
    std::thread::sleep(Duration::from_millis(300));
    let limit = Duration::from_millis(100);
    let (status, info, took) = post(port, "(info)");
    assert_eq!(
        (status, info.as_str()),
        (200, "((name steady) (status available))")
    );
    assert!(took < limit, "(info) took {took:?}");
    let (status, ready, took) = post(port, &format!("(start m xplayer ({}) 5 2)", tic_tac_toe()));
    assert_eq!((status, ready.as_str()), (200, "ready"));
    assert!(took < limit, "start took {took:?}");
    let (status, mv, took) = post(port, "(play m nil)");
    assert!(status == 200 && mv.starts_with("(mark "), "{status} {mv}");
    assert!(took < limit, "play took {took:?}");
    let (status, info, took) = post(port, "(info)");
    assert_eq!(
        (status, info.as_str()),
        (200, "((name steady) (status busy))")
    );
    assert!(took < limit, "(info) during a match took {took:?}");
    assert_eq!(post(port, "(abort m)").1, "done");
    drop(stalled);
}

#[test]
fn the_play_clock_is_honoured_beside_stalled_connections() {
    // A searcher that never finishes on its own: only the clock (2 s, 0.5 s kept back) stops it.
    let port = serve("timely", "uct:sims=1000000000", 0.5);
    let stalled = half_open(port, 200);
    let (status, _, _) = post(port, &format!("(start c xplayer ({}) 5 2)", tic_tac_toe()));
    assert_eq!(status, 200);
    let on_time =
        |took: Duration| took < Duration::from_millis(1900) && took > Duration::from_millis(1000);
    let (status, mine, took) = post(port, "(play c nil)");
    assert!(
        status == 200 && mine.starts_with("(mark "),
        "{status} {mine}"
    );
    assert!(
        on_time(took),
        "answered after {took:?} on a 2 s clock with 0.5 s kept back"
    );
    // oplayer answers in a corner xplayer did not take; xplayer searches on the clock again.
    let theirs = ["(mark 1 1)", "(mark 3 3)"]
        .into_iter()
        .find(|m| *m != mine)
        .unwrap();
    let (status, mv, took) = post(port, &format!("(play c ({mine} {theirs}))"));
    assert!(status == 200 && mv.starts_with("(mark "), "{status} {mv}");
    assert!(
        on_time(took),
        "answered after {took:?} on a 2 s clock with 0.5 s kept back"
    );
    drop(stalled);
}
