//! The load tool against a real server, small: with `--rated` its bots register accounts
//! and every game is rated; with `--chat` players and spectators chat and the lines are
//! timed to their readers; and the run has no errors (the goal-load figures with these
//! options are in docs/server.md).

use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The number after `prefix` on the line that starts with it.
fn figure(out: &str, prefix: &str) -> Option<u64> {
    let line = out.lines().find(|l| l.starts_with(prefix))?;
    line[prefix.len()..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

#[test]
fn rated_games_with_chat_run_without_errors() {
    let dir = std::env::temp_dir().join(format!("cannonade-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}/l.db", dir.display());
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let _server = Server(
        Command::new(env!("CARGO_BIN_EXE_cannonade"))
            .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", &db])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start cannonade serve"),
    );
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("ws://127.0.0.1:{port}");
    let run = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args(["loadtest", "--url", &url, "--games", "3", "--spectators", "6"])
        .args(["--duration", "4", "--warmup", "1", "--think-ms", "400", "--churn", "0"])
        .args(["--rated", "--chat", "1"])
        .output()
        .expect("run cannonade loadtest");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}\n{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(figure(&out, "rated games: "), Some(3), "{out}");
    assert!(figure(&out, "chat lines: ").is_some_and(|n| n > 0), "{out}");
    assert!(figure(&out, "chat line→reader: ").is_some_and(|n| n > 0), "{out}");
    assert!(figure(&out, "move→opponent: ").is_some_and(|n| n > 0), "{out}");
    assert!(out.contains("errors: none"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
