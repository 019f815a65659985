//! UCI command lines (crates/protocol): no line panics the parser, and every clock a parsed
//! `go` carries gives the engine's time limits without overflow (the CLI's `Move Overhead`
//! is 0..=5000). Each line of the input is one command.
#![no_main]

use cannonade_engine::{Clock, Limits};
use cannonade_protocol::{Command, Go};
use libfuzzer_sys::fuzz_target;

fn clock_limits(go: &Go) {
    for (time, inc) in [(go.wtime, go.winc), (go.btime, go.binc)] {
        let Some(remaining_ms) = time else { continue };
        let clock =
            Clock { remaining_ms, increment_ms: inc.unwrap_or(0), moves_to_go: go.movestogo };
        for overhead in [0, 30, 5000] {
            let (soft, hard) = Limits::from_clock(clock, overhead);
            assert!(soft <= hard, "{clock:?}, overhead {overhead}: soft {soft:?} > hard {hard:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for line in text.lines() {
        match Command::parse(line) {
            Ok(Command::Go(go)) => clock_limits(&go),
            Ok(_) => {}
            Err(e) => drop(e.to_string()),
        }
    }
});
