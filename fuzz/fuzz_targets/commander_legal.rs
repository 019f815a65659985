//! Commander Chess invariants: from any position the FEN reader accepts (first line), along
//! the playout the following bytes pick: legal turns are legal (fast generator = slow
//! reference), hashes agree, derived board fields are fresh, FEN and turn text round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cannonade_fuzz::playout_from_text::<cannonade_commander::Position>(data);
});
