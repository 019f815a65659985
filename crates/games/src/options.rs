//! Commander Chess's scored formats (rules §13.3) as a game option, `format=standard`,
//! `format=tactical` or `format=fullforce`: the tactical game (a 15-minute game timer; it
//! ends as soon as a side achieves an objective and is decided on points) and the full-force
//! game (a 30-minute game timer; decided on points when it runs out or a draw rule applies).
//! The option belongs to the game as played, not to the position (it says how long the game
//! lasts and how it is decided), so it is split off before the rules options are applied to
//! the position and written back in front of them. The server, `cannonade match` and
//! `cannonade uci` read it here.

use crate::{AnyRecord, GameKind};
pub use cannonade_commander::points::Format;
use cannonade_commander::points::judge_format;
use cannonade_core::Next;

/// The tactical game's timer (official: 15 minutes for the whole game).
pub const TACTICAL_MS: u64 = 15 * 60 * 1000;
/// The full-force game's timer (official: 30 minutes for the whole game).
pub const FULL_FORCE_MS: u64 = 30 * 60 * 1000;

/// A game's options: the format and the rules options (`key=value,…` for the position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// How the game is decided (always [`Format::Standard`] outside Commander Chess).
    pub format: Format,
    /// The rules options, applied to the start position.
    pub rules: String,
}

impl GameOptions {
    /// Reads `key=value,…`: a `format` key (Commander Chess only), the rest rules options.
    pub fn parse(kind: GameKind, text: &str) -> Result<GameOptions, String> {
        let mut format = None;
        let mut rules = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some(value) = item.strip_prefix("format=") else {
                rules.push(item);
                continue;
            };
            if kind != GameKind::Commander {
                return Err(format!("only Commander Chess has scored formats ('{item}')"));
            }
            if format.is_some() {
                return Err("the format is given twice".into());
            }
            format = Some(parse_format(value)?);
        }
        Ok(GameOptions { format: format.unwrap_or(Format::Standard), rules: rules.join(",") })
    }

    /// The options as stored and shown: `format=…` first (left out for the standard game),
    /// then the rules options.
    pub fn text(&self) -> String {
        if self.format == Format::Standard {
            return self.rules.clone();
        }
        let format = format!("format={}", format_name(self.format));
        if self.rules.is_empty() { format } else { format!("{format},{}", self.rules) }
    }

    /// The game timer of a scored format, in milliseconds.
    pub fn game_ms(&self) -> Option<u64> {
        match self.format {
            Format::Standard => None,
            Format::Tactical => Some(TACTICAL_MS),
            Format::FullForce => Some(FULL_FORCE_MS),
        }
    }
}

/// A format by its name: `standard`, `tactical` or `fullforce` (also `full-force`).
///
/// ```
/// use cannonade_commander::points::Format;
/// use cannonade_games::options::{format_name, parse_format};
/// assert_eq!(parse_format("full-force"), Ok(Format::FullForce));
/// assert_eq!(format_name(Format::FullForce), "fullforce");
/// assert!(parse_format("blitz").is_err());
/// ```
pub fn parse_format(name: &str) -> Result<Format, String> {
    match name.trim() {
        "standard" => Ok(Format::Standard),
        "tactical" => Ok(Format::Tactical),
        "fullforce" | "full-force" => Ok(Format::FullForce),
        other => Err(format!("format must be standard, tactical or fullforce, not '{other}'")),
    }
}

/// A format's name as [`parse_format`] reads it.
pub fn format_name(format: Format) -> &'static str {
    match format {
        Format::Standard => "standard",
        Format::Tactical => "tactical",
        Format::FullForce => "fullforce",
    }
}

/// How a game stands under its format; `time_expired` says the game timer has run out.
pub fn judge(record: &AnyRecord, format: Format, time_expired: bool) -> Next {
    match record {
        AnyRecord::Commander(r) if format != Format::Standard => {
            judge_format(r, format, time_expired).next
        }
        _ => record.next(),
    }
}

/// The seats' totals under a scored format (objective bonus included), `None` otherwise.
pub fn points(record: &AnyRecord, format: Format) -> Option<[u32; 2]> {
    match record {
        AnyRecord::Commander(r) if format != Format::Standard => {
            Some(judge_format(r, format, false).scores)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyGame;
    use cannonade_core::{Outcome, Reason, Side};

    fn record(fen: &str, moves: &[&str]) -> AnyRecord {
        let mut r = AnyRecord::new(AnyGame::from_fen(GameKind::Commander, fen).unwrap());
        for m in moves {
            r.play_text(m).unwrap();
        }
        r
    }

    #[test]
    fn the_format_is_a_commander_option_written_first() {
        let tactical = GameOptions::parse(GameKind::Commander, " format=tactical ").unwrap();
        assert_eq!(
            (tactical.format, tactical.text()),
            (Format::Tactical, "format=tactical".into())
        );
        assert_eq!(tactical.game_ms(), Some(15 * 60 * 1000));
        let standard = GameOptions::parse(GameKind::Commander, "").unwrap();
        assert_eq!((standard.format, standard.game_ms()), (Format::Standard, None));
        let xiangqi = GameOptions::parse(GameKind::Xiangqi, "repetition=asian").unwrap();
        assert_eq!(xiangqi.text(), "repetition=asian");
        assert!(GameOptions::parse(GameKind::Xiangqi, "format=tactical").is_err());
        assert!(GameOptions::parse(GameKind::Commander, "format=blitz").is_err());
        assert!(
            GameOptions::parse(GameKind::Commander, "format=tactical,format=fullforce").is_err()
        );
    }

    /// Rules §13.3: the tactical game ends as soon as a side achieves an objective (here the
    /// sea battle: Blue's only Navy is taken), and the higher total, bonus included, wins.
    #[test]
    fn an_objective_ends_the_tactical_game_on_points() {
        let r = record("9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1", &["Tc4_a4"]);
        let win = Next::Over(Outcome::win(Side::First, Reason::Points));
        assert_eq!(judge(&r, Format::Tactical, false), win);
        assert_eq!(points(&r, Format::Tactical), Some([130, 0]));
        assert_eq!(judge(&r, Format::Standard, false), Next::Player(Side::Second));
        assert_eq!(points(&r, Format::Standard), None);
        // The full-force game goes on until its timer runs out.
        assert_eq!(judge(&r, Format::FullForce, false), Next::Player(Side::Second));
        assert_eq!(judge(&r, Format::FullForce, true), win);
    }

    #[test]
    fn the_game_timer_running_out_decides_on_points_and_equal_points_draw() {
        let r = record("9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1", &["Ck1k2"]);
        assert_eq!(judge(&r, Format::Tactical, false), Next::Player(Side::Second));
        assert_eq!(judge(&r, Format::Tactical, true), Next::Over(Outcome::draw(Reason::Points)));
    }
}
