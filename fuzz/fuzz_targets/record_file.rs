//! The terminal board's game records (crates/tui `record_file`, docs/record-format.md): no
//! text panics the reader; a record that reads is written as text that reads back to the
//! same game (kind, options, start, moves, position).
#![no_main]

use cannonade_tui::record_file::{read_record, write_record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match read_record(text) {
        Ok(record) => {
            let written = write_record(&record);
            let back = read_record(&written)
                .unwrap_or_else(|e| panic!("{text:?} reads, its text {written:?} does not: {e}"));
            assert_eq!(back.kind(), record.kind());
            assert_eq!(back.start().options(), record.start().options(), "{written:?}");
            assert_eq!(back.start().fen(), record.start().fen(), "{written:?}");
            assert_eq!(back.moves_text(), record.moves_text(), "{written:?}");
            assert_eq!(back.position().fen(), record.position().fen(), "{written:?}");
        }
        Err(e) => drop(e.to_string()),
    }
});
