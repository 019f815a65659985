//! Banqi BFEN, public (five fields, or a pending flip `d2?`) and full (a sixth field with the
//! deal), with an optional ` ; <options>` suffix, and the MistyBanqi dialect. No text panics a
//! reader; what reads round-trips through its own text with the same hash.
#![no_main]

use cannonade_banqi::misty::{fen_to_misty, from_misty, to_misty};
use cannonade_banqi::{FullPosition, Options, Position, Setup};
use cannonade_fuzz::position_round_trip;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen, options) = match text.split_once(" ; ") {
        Some((fen, o)) => match o.parse::<Options>() {
            Ok(o) => (fen, o),
            Err(e) => return drop(e.to_string()),
        },
        None => (text, Options::STANDARD),
    };
    assert_eq!(options.to_string().parse::<Options>(), Ok(options), "{text:?}");
    let by_steps = Setup::parse(fen).and_then(|s| s.validate(options));
    if let Ok(pos) = Position::from_fen_with(fen, options) {
        // The one-call reader is the setup's check plus the sixth field, a pending flip.
        let public = by_steps.as_ref().unwrap_or_else(|e| panic!("{text:?} reads, setup: {e}"));
        match pos.pending_flip() {
            None => assert_eq!(public, &pos, "{text:?}"),
            Some(sq) => assert_eq!(format!("{} {sq}?", public.fen()), pos.fen(), "{text:?}"),
        }
        let _ = pos.pretty();
    }
    position_round_trip::<Position>(text);
    if let Some(full) = position_round_trip::<FullPosition>(text) {
        assert_eq!(Ok(full.redact()), by_steps, "{text:?}: the public part of a full BFEN");
        let _ = full.pretty();
    }
    let _ = fen_to_misty(fen);
    if let Ok(pos) = from_misty(text) {
        // The dialect has no pending flip; positions without one round-trip.
        if pos.pending_flip().is_none() {
            assert_eq!(from_misty(&to_misty(&pos)).as_ref(), Ok(&pos), "{text:?}");
        }
    }
});
