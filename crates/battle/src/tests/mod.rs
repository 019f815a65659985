//! The crate's tests: worked examples, special rules, notation, perft, conformance.

mod conformance;
mod examples;
mod notation;
mod perft;
mod special_rules;
