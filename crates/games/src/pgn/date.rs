//! PGN's `Date` tag (`2026.11.26`) of a moment, in UTC.

/// The `Date` tag of `unix_ms` (milliseconds since 1970-01-01 UTC); `????.??.??` before 1970.
pub fn date_tag(unix_ms: i64) -> String {
    if unix_ms < 0 {
        return "????.??.??".to_string();
    }
    let (y, m, d) = civil(unix_ms / 86_400_000);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so no date crate is needed for one tag.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::date_tag;

    #[test]
    fn dates_are_utc_days_across_leap_years() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400_000), "2000.02.29");
        assert_eq!(date_tag(1_798_761_600_000 - 1), "2026.12.31");
        assert_eq!(date_tag(1_798_761_600_000), "2027.01.01");
        assert_eq!(date_tag(-1), "????.??.??");
    }
}
