//! Banqi invariants, public positions (flips are chance events, picked by the input) and
//! dealt ones: from any position the BFEN reader accepts (first line, with an optional
//! ` ; <options>`), along the playout the following bytes pick: legal moves are legal (fast
//! generator = slow reference), hashes agree, chance weights equal the face-down counts,
//! BFEN and move text round-trip.
#![no_main]

use cannonade_banqi::{FullPosition, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cannonade_fuzz::playout_from_text::<Position>(data);
    cannonade_fuzz::playout_from_text::<FullPosition>(data);
});
