//! The core conformance testkit: random playouts checking the fast generator against the
//! reference, hashes, text round trips, chance weights and the game's own invariants.
