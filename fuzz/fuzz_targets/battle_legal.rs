//! Chess-Battle invariants: from any position the BFEN reader accepts (first line), along
//! the playout the following bytes pick: legal moves are legal (fast generator = slow
//! reference), hashes agree, BFEN and move text round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cannonade_fuzz::playout_from_text::<cannonade_battle::Position>(data);
});
