//! The websocket's client messages (crates/wire `ClientMsg` JSON): no frame panics the
//! reader, and a message that reads is written as JSON that reads back to it.
#![no_main]

use cannonade_wire::ClientMsg;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(msg) = ClientMsg::parse(text) {
        let _ = msg.game();
        let json = serde_json::to_string(&msg).expect("a client message serialises");
        assert_eq!(ClientMsg::parse(&json).as_ref(), Ok(&msg), "{text:?} written as {json}");
    }
});
