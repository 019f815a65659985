//! The crate's tests: worked examples, special rules, notation, perft, conformance.

mod examples;
mod conformance;
mod perft;
mod special_rules;
mod gen_tmp;
