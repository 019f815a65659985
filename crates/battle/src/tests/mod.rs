//! The crate's tests: worked examples, special rules, notation, perft, conformance.

mod examples;
mod quick;
