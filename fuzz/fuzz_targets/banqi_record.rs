//! Banqi game records (rules 9.5): no text panics the reader or the flip verification; a
//! record that reads writes a text that reads back to the same record.
#![no_main]

use cannonade_banqi::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match GameRecord::parse(text) {
        Ok(record) => {
            let written = record.to_string();
            match GameRecord::parse(&written) {
                Ok(back) => assert_eq!(back, record, "{text:?} written as {written:?}"),
                Err(e) => panic!("{text:?} reads, its text {written:?} does not: {e}"),
            }
            assert!(record.replay().is_ok(), "{text:?} read but does not replay");
            if let Err(e) = record.verify() {
                let _ = e.to_string();
            }
        }
        Err(e) => drop(e.to_string()),
    }
});
