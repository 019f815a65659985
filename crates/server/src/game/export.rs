//! A finished game as the archive keeps it: our PGN (docs/record-format.md), the one record
//! format, with the players, the result and why, and for Banqi the deal's commitment and the
//! revealed seed, so `cannonade verify` checks every flip.

use super::Dealer;
use cannonade_core::Reason;
use cannonade_games::AnyRecord;
use cannonade_games::pgn::{PgnGame, PgnResult, date_tag, write_game};
use cannonade_wire::{GameResult, Seat, TimeControl};

/// What the archive writes about a game beside its record.
pub struct About<'a> {
    /// The game's id (the PGN's `Site`).
    pub id: &'a str,
    /// The first and second seat's names.
    pub names: &'a [String; 2],
    /// How the game ended.
    pub result: &'a GameResult,
    /// The clocks it was played with.
    pub tc: TimeControl,
    /// When the game was made (ms since the Unix epoch).
    pub created_ms: i64,
    /// Banqi's dealer, whose seed is revealed now the game is over.
    pub dealer: Option<&'a Dealer>,
}

/// The PGN of a finished game.
pub fn export(record: &AnyRecord, about: &About<'_>) -> String {
    let mut game = PgnGame::new(record.clone());
    game.set_tag("Event", "Cannonade game");
    game.set_tag("Site", about.id);
    game.set_tag("Date", date_tag(about.created_ms));
    game.set_tag("White", about.names[0].as_str());
    game.set_tag("Black", about.names[1].as_str());
    if let Some(days) = about.tc.days_per_move {
        // PGN's `moves/seconds`: one move in each period of the days, as correspondence is.
        game.set_tag("TimeControl", format!("1/{}", u64::from(days) * 86_400));
    } else if !about.tc.untimed() {
        // PGN's `initial+increment` in seconds.
        // f64's Display writes 300.0 as `300` and 2500 ms as `2.5`.
        let secs = |ms: u64| (ms as f64 / 1000.0).to_string();
        game.set_tag(
            "TimeControl",
            format!("{}+{}", secs(about.tc.initial_ms), secs(about.tc.increment_ms)),
        );
    }
    // The server's referee decides the end (resignations and clocks included), not only the
    // rules of the last position.
    game.result = match about.result.winner {
        Some(Seat::First) => PgnResult::FirstWins,
        Some(Seat::Second) => PgnResult::SecondWins,
        None if about.result.reason == Reason::Aborted.as_str() => PgnResult::Unknown,
        None => PgnResult::Draw,
    };
    game.termination = Some(about.result.reason.clone());
    if let Some(dealer) = about.dealer {
        game.deal = Some(dealer.commitment().to_string());
        game.seed = Some(dealer.seed().to_hex());
    }
    write_game(&game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    fn tag(tc: TimeControl) -> Option<String> {
        let start = cannonade_games::AnyGame::start(GameKind::Xiangqi).unwrap();
        let record = AnyRecord::new(start);
        let result = GameResult { winner: None, reason: "aborted".into(), points: None };
        let names = ["a".to_string(), "b".to_string()];
        let about =
            About { id: "g1", names: &names, result: &result, tc, created_ms: 0, dealer: None };
        let pgn = export(&record, &about);
        let line = pgn.lines().find(|l| l.starts_with("[TimeControl "))?;
        Some(line.to_string())
    }

    #[test]
    fn the_time_control_tag_says_minutes_or_one_move_a_period() {
        assert_eq!(
            tag(TimeControl::fischer(300_000, 3_000)).as_deref(),
            Some("[TimeControl \"300+3\"]")
        );
        assert_eq!(
            tag(TimeControl::correspondence(3)).as_deref(),
            Some("[TimeControl \"1/259200\"]")
        );
        assert_eq!(tag(TimeControl::fischer(0, 0)), None);
    }
}
