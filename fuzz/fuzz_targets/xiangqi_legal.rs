//! Xiangqi invariants: from any position the FEN reader accepts (first line), along the
//! playout the following bytes pick: legal moves are legal (fast generator = slow reference,
//! captures generator = capturing legal moves), hashes agree, FEN and every move notation
//! round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cannonade_fuzz::playout_from_text::<cannonade_xiangqi::Position>(data);
});
