//! `gametree ggp serve` and `gametree ggp play` over loopback: full matches, tight clocks, chance,
//! hostile clients and a soak of short matches.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn workspace(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join(path).display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ggp");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A port nobody listens on: bind port 0, note the port the system chose, let it go.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A `ggp serve` process, killed when dropped.
struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Server {
    fn start(name: &str, args: &[&str]) -> Server {
        let port = free_port();
        let log = scratch(&format!("{name}-{port}.log"));
        let _ = std::fs::remove_file(&log);
        let child = Command::new(env!("CARGO_BIN_EXE_gametree"))
            .args(["ggp", "serve", "--host", "127.0.0.1", "--name", name])
            .args(["--port", &port.to_string(), "--log", log.to_str().unwrap()])
            .args(args)
            .stdin(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let server = Server { child, port, log };
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "{name} does not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Peak resident memory in kB (Linux), if known.
    fn peak_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Threads of the process (Linux), if known.
    fn threads(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("Threads:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends raw bytes and closes the sending side, then reads the whole answer: (status, body).
/// `None` if the server closed the connection without answering.
fn raw(port: u16, bytes: &[u8]) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(bytes).unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    let status = answer.split_whitespace().nth(1)?.parse().ok()?;
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    Some((status, body))
}

fn post(port: u16, body: &str) -> (u16, String) {
    let request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    raw(port, request.as_bytes()).expect("an answer")
}

/// Runs `ggp play` and returns its JSON lines.
fn play(game: &str, players: &[&Server], extra: &[&str]) -> Vec<Value> {
    let out = scratch(&format!("match-{}.jsonl", players[0].port));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gametree"));
    cmd.args(["ggp", "play", "--game", &workspace(game)]);
    for p in players {
        cmd.args(["--player", &p.url()]);
    }
    let done = cmd
        .args(["--out", out.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let text = std::fs::read_to_string(out).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn steps(record: &[Value]) -> impl Iterator<Item = &Value> {
    record.iter().filter(|l| l["type"] == "step")
}

#[test]
fn tic_tac_toe_between_two_players_with_a_one_second_clock_is_never_late() {
    let uct = Server::start("uct", &[]);
    let pvs = Server::start("pvs", &["--searcher", "pvs:depth=30"]);
    let record = play(
        "crates/gdl/games/tictactoe.kif",
        &[&uct, &pvs],
        &["--start", "5", "--play", "1"],
    );
    let last = record.last().unwrap();
    assert_eq!(last["type"], "stop");
    assert_eq!(last["terminal"], true);
    assert_eq!(last["errors"], 0, "{record:?}");
    let goals = &last["goals"];
    assert_eq!(
        goals["xplayer"].as_u64().unwrap() + goals["oplayer"].as_u64().unwrap(),
        100
    );
    let slowest = steps(&record)
        .flat_map(|s| {
            s["ms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
        })
        .max()
        .unwrap();
    eprintln!("slowest reply: {slowest} ms of a 1000 ms play clock");
    assert!(slowest < 1000, "{record:?}");
    // The default margin (1 s) is not smaller than the clock: half the clock is used.
    assert!(uct.log().contains("budget_ms=500"), "{}", uct.log());
}

#[test]
fn games_with_chance_are_played_to_the_end() {
    let alice = Server::start("alice", &["--margin", "0.2"]);
    let bob = Server::start("bob", &["--margin", "0.2", "--searcher", "uct:sims=300"]);
    let record = play(
        "crates/gdl/games/dice_duel.kif",
        &[&alice, &bob],
        &["--play", "0.5", "--seed", "7"],
    );
    let last = record.last().unwrap();
    assert_eq!(
        (last["terminal"].clone(), last["errors"].clone()),
        (true.into(), 0.into())
    );
    assert!(steps(&record).all(|s| s["moves"].as_array().unwrap().len() == 3));
    let candidate = Server::start("candidate", &["--margin", "0.2"]);
    let record = play(
        "crates/gdl/games/montyhall.kif",
        &[&candidate],
        &["--play", "0.5"],
    );
    let last = record.last().unwrap();
    assert_eq!(
        (last["terminal"].clone(), last["errors"].clone()),
        (true.into(), 0.into())
    );
    assert!([0, 100].contains(&last["goals"]["candidate"].as_u64().unwrap()));
}

#[test]
fn a_rulesheet_with_unsafe_variables_is_played_as_ggp_base_reads_it() {
    // `(legal ?p pass)` and the other unsafe rules of GGP Base rulesheets: the referee reads
    // them when asked to, the player always (a game it refused would be a forfeit).
    let game = scratch("unsafe.kif");
    std::fs::write(
        &game,
        "(role a)\n(init (step 0))\n(legal ?p pass)\n\
         (<= (legal ?p mark) (role ?p) (free ?p))\n(<= (free ?x) (not (true (marked ?x))))\n\
         (<= (next (marked ?p)) (does ?p mark))\n(<= (next (marked ?p)) (true (marked ?p)))\n\
         (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n(succ 0 1)\n(succ 1 2)\n\
         (<= (differ ?x ?y) (distinct ?x ?y))\n\
         (<= terminal (true (step ?s)) (not (differ ?s 2)))\n\
         (<= (goal a 100) (true (marked a)))\n(<= (goal a 0) (not (true (marked a))))\n",
    )
    .unwrap();
    let candidate = Server::start("candidate", &["--margin", "0.2"]);
    let record = play(
        game.to_str().unwrap(),
        &[&candidate],
        &["--play", "0.5", "--accept-unsafe"],
    );
    let last = record.last().unwrap();
    assert_eq!(
        (last["terminal"].clone(), last["errors"].clone()),
        (true.into(), 0.into())
    );
    // Marking at either step wins, and the search of a game this small finds it.
    assert_eq!(last["goals"]["a"].as_u64(), Some(100), "{last}");
}

#[test]
fn the_shipped_two_player_games_are_played_to_the_end() {
    // Chess and amazons (the reference reasoner: minutes per match) are left out.
    let quick = ["--margin", "0.2", "--searcher", "uct:sims=30"];
    let a = Server::start("first", &quick);
    let b = Server::start("second", &quick);
    for game in [
        "connect4",
        "matching_pennies",
        "rps3",
        "breakthrough",
        "hex",
        "othello",
        "pacman",
        "tron",
    ] {
        let record = play(
            &format!("crates/gdl/games/{game}.kif"),
            &[&a, &b],
            &["--play", "1", "--id", game],
        );
        let last = record.last().unwrap();
        assert_eq!(last["terminal"], true, "{game}");
        assert_eq!(last["errors"], 0, "{game}: {record:?}");
    }
}

#[test]
fn hostile_clients_leave_the_server_answering() {
    let mut server = Server::start("sturdy", &["--margin", "0.2", "--searcher", "uct:sims=100"]);
    let port = server.port;
    let info = "((name sturdy) (status available))";
    assert_eq!(post(port, "(info)"), (200, info.into()));
    assert_eq!(post(port, "hello world").0, 400);
    assert_eq!(post(port, "(play nobody nil)").0, 400);
    assert_eq!(post(port, &"(".repeat(100_000)).0, 400);
    // A request cut short: the body promises more than it sends, then the client hangs up.
    let cut = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n(start m";
    let _ = raw(port, cut);
    // A client that disconnects in the middle of its headers.
    drop(
        TcpStream::connect(("127.0.0.1", port))
            .unwrap()
            .write_all(b"POST / HTT"),
    );
    // Bytes that are not HTTP, a body that is not UTF-8, a body announced too large, a GET.
    let _ = raw(port, b"\x00\x01\x02 garbage\r\n\r\n");
    let mut latin = b"POST / HTTP/1.1\r\nContent-Length: 4\r\nConnection: close\r\n\r\n".to_vec();
    latin.extend([0xff, 0xfe, 0x28, 0x29]);
    assert_eq!(raw(port, &latin).unwrap().0, 400);
    let huge = b"POST / HTTP/1.1\r\nContent-Length: 17000000\r\nConnection: close\r\n\r\n";
    assert_eq!(raw(port, huge).unwrap().0, 413);
    let get = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    assert_eq!(raw(port, get).unwrap().0, 400);
    let put = b"PUT / HTTP/1.1\r\nContent-Length: 6\r\nConnection: close\r\n\r\n(info)";
    assert_eq!(raw(port, put).unwrap().0, 405);
    // GGP Base's managers POST with HTTP/1.0, or GET with the message URL-encoded.
    let java =
        b"POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: 127.0.0.1\r\nSender: GAMESERVER\r\n\
                 Receiver: sturdy\r\nContent-Type: text/acl\r\nContent-Length: 6\r\n\r\n(info)";
    assert_eq!(raw(port, java), Some((200, info.into())));
    let encoded = b"GET /%28+info+%29 HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    assert_eq!(raw(port, encoded), Some((200, info.into())));
    // A client that stalls mid-body holds its own connection only.
    let mut stalled = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stalled
        .write_all(b"POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\n(in")
        .unwrap();
    assert_eq!(post(port, "(INFO)"), (200, info.into()));
    // A real match still goes through, and a wrong match id is refused in the middle of it.
    let rules = std::fs::read_to_string(workspace("crates/gdl/games/tictactoe.kif")).unwrap();
    assert_eq!(
        post(port, &format!("(start m1 oplayer ({rules}) 5 1)")),
        (200, "ready".into())
    );
    assert_eq!(post(port, "(play m1 nil)"), (200, "noop".into()));
    assert_eq!(post(port, "(play m2 ((mark 1 1) noop))").0, 400);
    let (status, mv) = post(port, "(play m1 ((mark 1 1) noop))");
    assert!(status == 200 && mv.starts_with("(mark "), "{mv}");
    assert_eq!(post(port, "(abort m1)"), (200, "done".into()));
    drop(stalled);
    assert_eq!(post(port, "(info)"), (200, info.into()));
    assert!(server.alive());
    let log = server.log();
    assert!(
        log.lines().filter(|l| l.contains(" bad-request ")).count() >= 4,
        "{log}"
    );
    assert!(!log.contains("panic"), "{log}");
}

#[test]
fn a_hundred_short_matches_in_a_row_finish_in_bounded_time_and_memory() {
    let fast = ["--margin", "0", "--searcher", "uct:sims=50"];
    let a = Server::start("soak-a", &fast);
    let b = Server::start("soak-b", &fast);
    let started = Instant::now();
    let mut peak_after_first = None;
    for i in 0..100 {
        let id = format!("soak{i}");
        let record = play(
            "crates/gdl/games/tictactoe.kif",
            &[&a, &b],
            &[
                "--play",
                "1",
                "--start",
                "2",
                "--id",
                &id,
                "--seed",
                &i.to_string(),
            ],
        );
        assert_eq!(record.last().unwrap()["errors"], 0, "{record:?}");
        if i == 0 {
            peak_after_first = a.peak_kb();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let (first, last) = (peak_after_first, a.peak_kb());
    eprintln!(
        "100 matches in {seconds:.1} s; peak memory {first:?} kB after one, {last:?} kB after 100"
    );
    assert!(seconds < 30.0, "{seconds} s");
    if let (Some(first), Some(last)) = (first, last) {
        assert!(
            last < first + 32 * 1024,
            "memory grew from {first} kB to {last} kB"
        );
    }
}

#[test]
fn a_search_on_a_slow_reasoner_stops_at_its_deadline() {
    // GGP chess runs on the reference reasoner at a few playouts per second (one takes about
    // 250 ms): UCT looks at its deadline after every ply of a slow playout and drops the playout
    // it stops, so the reply is its own search's, in time. A ply is one query of the reasoner,
    // which cannot be cut short and takes up to tens of milliseconds while its tables grow: a
    // three-second clock (two seconds after the default margin) leaves room for one in the
    // search's reserve, a tenth of its budget.
    // (A query slower than the clock is answered for without the search: the player's tests.)
    let server = Server::start("chess", &[]);
    let rules = std::fs::read_to_string(workspace("crates/gdl/games/chess.kif")).unwrap();
    let start = post(server.port, &format!("(start c white ({rules}\n) 20 3)"));
    assert_eq!(start, (200, "ready".into()));
    let asked = Instant::now();
    let (status, mv) = post(server.port, "(play c nil)");
    let ms = asked.elapsed().as_millis();
    eprintln!("chess: {mv} in {ms} ms of a 3000 ms play clock");
    assert!(status == 200 && mv.starts_with("(move "), "{mv}");
    assert!(ms < 3000, "{ms} ms");
    assert!(server.log().contains("how=searched"), "{}", server.log());
}

#[test]
fn a_two_player_searcher_gives_way_to_uct_where_the_game_is_not_turn_taking() {
    let server = Server::start("pvs", &["--margin", "0.2", "--searcher", "pvs:depth=30"]);
    let rules = std::fs::read_to_string(workspace("crates/gdl/games/rps3.kif")).unwrap();
    let start = post(server.port, &format!("(start r left ({rules}\n) 5 1)"));
    assert_eq!(start, (200, "ready".into()));
    let (status, mv) = post(server.port, "(play r nil)");
    assert_eq!(status, 200, "{mv}");
    let log = server.log();
    assert!(log.contains("needs a two-player turn-taking game"), "{log}");
    assert!(log.contains("searcher=uct:"), "{log}");
}

/// MAC-UCB plays a dice game whose rounds encode, against UCT, to the end and in time; and a game
/// the round encoder refuses (Hex: its winner is a recursive path) through the networks its rules
/// give at each state.
#[test]
fn mac_ucb_plays_games_whose_rounds_encode_and_the_others_by_their_states() {
    let mac = Server::start("mac", &["--margin", "0.2", "--searcher", "mac-ucb"]);
    let uct = Server::start(
        "uct-rival",
        &["--margin", "0.2", "--searcher", "uct:sims=500"],
    );
    let record = play(
        "crates/gdl/games/dice_duel.kif",
        &[&mac, &uct],
        &["--start", "5", "--play", "0.5", "--seed", "3"],
    );
    let last = record.last().unwrap();
    assert_eq!(
        (last["terminal"].clone(), last["errors"].clone()),
        (true.into(), 0.into()),
        "{record:?}"
    );
    let log = mac.log();
    assert!(log.contains("searcher=mac-ucb:"), "{log}");
    assert!(log.contains("player=0"), "{log}");

    let rules = std::fs::read_to_string(workspace("crates/gdl/games/hex.kif")).unwrap();
    let start = post(mac.port, &format!("(start h red ({rules}\n) 30 1)"));
    assert_eq!(start, (200, "ready".into()));
    let (status, mv) = post(mac.port, "(play h nil)");
    assert_eq!(status, 200, "{mv}");
    assert!(mv.starts_with("(place "), "{mv}");
    let log = mac.log();
    let hex_start = log
        .lines()
        .find(|l| l.contains(" h role=red"))
        .unwrap_or("");
    assert!(hex_start.contains("searcher=mac-ucb:"), "{log}");
    assert!(
        log.lines().last().unwrap().contains("how=searched"),
        "{log}"
    );
}

#[test]
fn bad_command_lines_are_one_line_errors_with_status_2() {
    for spec in ["mac-ucb:share=2", "uct:sims=0", "telepathy"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gametree"))
            .args(["ggp", "serve", "--port", "1", "--searcher", spec])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{spec}: {err}");
    }
    let ttt = workspace("crates/gdl/games/tictactoe.kif");
    let url = "http://127.0.0.1:1/";
    for args in [
        vec!["--game", &ttt, "--player", url],
        vec![
            "--game", &ttt, "--player", url, "--player", url, "--play", "0",
        ],
        vec![
            "--game", &ttt, "--player", url, "--player", url, "--id", "a b",
        ],
        vec!["--game", "/nonexistent.kif", "--player", url],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gametree"))
            .args(["ggp", "play"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn info_is_answered_at_once_while_the_player_searches() {
    let server = Server::start("thinker", &["--margin", "0.2"]);
    let port = server.port;
    let rules = std::fs::read_to_string(workspace("crates/gdl/games/tictactoe.kif")).unwrap();
    assert_eq!(
        post(port, &format!("(start t xplayer ({rules}) 5 2)")).0,
        200
    );
    let search = std::thread::spawn(move || post(port, "(play t nil)"));
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    assert_eq!(
        post(port, "(info)"),
        (200, "((name thinker) (status busy))".into())
    );
    let ms = asked.elapsed().as_millis();
    assert!(ms < 500, "(info) took {ms} ms during a search");
    let (status, mv) = search.join().unwrap();
    assert!(status == 200 && mv.starts_with("(mark "), "{mv}");
}

/// `(info)` until it is answered, for up to `patience`.
fn info_within(port: u16, patience: Duration) -> Option<(u16, String)> {
    let until = Instant::now() + patience;
    let ask = || -> std::io::Result<String> {
        let mut s = TcpStream::connect(("127.0.0.1", port))?;
        s.set_read_timeout(Some(Duration::from_secs(5)))?;
        s.write_all(b"POST / HTTP/1.1\r\nContent-Length: 6\r\nConnection: close\r\n\r\n(info)")?;
        let mut answer = String::new();
        s.read_to_string(&mut answer)?;
        Ok(answer)
    };
    loop {
        if let Ok(answer) = ask() {
            let status = answer
                .split_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok());
            let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
            if let Some(status) = status {
                return Some((status, body));
            }
        }
        if Instant::now() > until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_flood_of_connections_leaves_threads_bounded_and_info_answered() {
    let mut server = Server::start("flood", &["--searcher", "uct:sims=100"]);
    let port = server.port;
    let info = "((name flood) (status available))";
    // A thousand connections that send nothing, then a hundred that leave a request unfinished:
    // each is a task of the server, not a thread, and a manager still gets through at once.
    let idle: Vec<TcpStream> = (0..1000)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    assert_eq!(post(port, "(info)"), (200, info.into()));
    let stalled: Vec<TcpStream> = (0..100)
        .filter_map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
            let _ = s.write_all(b"POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\n(in");
            Some(s)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let bound = 64; // the runtime's workers, its blocking pool and the player's own
    let threads = server.threads();
    assert!(threads.map_or(true, |t| t < bound), "{threads:?} threads");
    assert_eq!(
        info_within(port, Duration::from_secs(1)),
        Some((200, info.into()))
    );
    drop(stalled);
    drop(idle);
    assert_eq!(
        info_within(port, Duration::from_secs(10)),
        Some((200, info.into()))
    );
    assert!(server.alive());
}
