//! The game as a value: which game, under which rule options, decided how. A [`GameSpec`] is
//! carried by every record ([`crate::AnyRecord::spec`]), so what plays, judges, stores or
//! displays a game takes everything from the record and nothing travels beside it.
//!
//! Options are written `key=value,…`. Commander Chess's scored formats (rules §13.3) are the
//! option `format=standard|tactical|fullforce`: they belong to the game as played, not to the
//! position (they say how long the game lasts and how it is decided), so they are kept here
//! and written first; every other option is a rule option of the position
//! ([`cannonade_core::Game::with_options`]).

use crate::{AnyGame, GameError, GameKind};
pub use cannonade_commander::points::Format;

/// The tactical game's timer (official: 15 minutes for the whole game).
pub const TACTICAL_MS: u64 = 15 * 60 * 1000;
/// The full-force game's timer (official: 30 minutes for the whole game).
pub const FULL_FORCE_MS: u64 = 30 * 60 * 1000;
/// The longest options text read: every real one is a few dozen characters.
pub const MAX_OPTIONS_CHARS: usize = 200;

/// A game as a value: its kind, its rule options (as the start position writes them) and
/// Commander Chess's format.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSpec {
    kind: GameKind,
    /// The rule options in the position's own canonical text, empty for the defaults.
    rules: String,
    format: Format,
}

impl GameSpec {
    /// The game with its default options.
    pub fn standard(kind: GameKind) -> GameSpec {
        GameSpec { kind, rules: String::new(), format: Format::Standard }
    }

    /// Reads `key=value,…` for `kind`: a `format` key (Commander Chess only) and the rule
    /// options, checked by applying them to the game's start. Unknown options and values
    /// are errors, never ignored.
    ///
    /// ```
    /// use cannonade_games::{GameKind, GameSpec, spec::Format};
    /// let spec = GameSpec::parse(GameKind::Commander, " format=tactical ").unwrap();
    /// assert_eq!((spec.format(), spec.options_text()), (Format::Tactical, "format=tactical".into()));
    /// let asian = GameSpec::parse(GameKind::Xiangqi, "repetition=asian").unwrap();
    /// assert_eq!(asian.options_text(), "repetition=asian");
    /// // The defaults are written as nothing at all.
    /// assert_eq!(GameSpec::parse(GameKind::Xiangqi, "repetition=seed").unwrap(), GameSpec::standard(GameKind::Xiangqi));
    /// assert!(GameSpec::parse(GameKind::Xiangqi, "format=tactical").is_err());
    /// ```
    pub fn parse(kind: GameKind, text: &str) -> Result<GameSpec, GameError> {
        if text.chars().count() > MAX_OPTIONS_CHARS {
            return Err(GameError::Options(format!(
                "options are at most {MAX_OPTIONS_CHARS} characters"
            )));
        }
        let mut format = None;
        let mut rules = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some(value) = item.strip_prefix("format=") else {
                rules.push(item);
                continue;
            };
            if kind != GameKind::Commander {
                return Err(GameError::Options(format!(
                    "only Commander Chess has scored formats ('{item}')"
                )));
            }
            if format.is_some() {
                return Err(GameError::Options("the format is given twice".into()));
            }
            format = Some(parse_format(value)?);
        }
        let start = AnyGame::start(kind)?;
        let default = start.options();
        let mut applied = start;
        applied.apply_options(&rules.join(",")).map_err(|e| match e {
            GameError::Position(e) => GameError::Options(e),
            other => other,
        })?;
        let written = applied.options();
        let rules = if written == default { String::new() } else { written };
        Ok(GameSpec { kind, rules, format: format.unwrap_or(Format::Standard) })
    }

    /// The spec a position carries: its kind and its rule options, the standard format.
    pub fn of(game: &AnyGame) -> GameSpec {
        let default = AnyGame::start(game.kind()).map(|s| s.options()).unwrap_or_default();
        let written = game.options();
        let rules = if written == default { String::new() } else { written };
        GameSpec { kind: game.kind(), rules, format: Format::Standard }
    }

    /// The same game decided by `format` (Commander Chess; the standard format elsewhere).
    pub fn with_format(mut self, format: Format) -> Result<GameSpec, GameError> {
        if format != Format::Standard && self.kind != GameKind::Commander {
            return Err(GameError::Options("only Commander Chess has scored formats".into()));
        }
        self.format = format;
        Ok(self)
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// How the game is decided (always [`Format::Standard`] outside Commander Chess).
    pub fn format(&self) -> Format {
        self.format
    }

    /// The rule options as the position writes them, empty for the defaults.
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// The options as stored and shown, and as [`GameSpec::parse`] reads them: `format=…`
    /// first (left out for the standard game), then the rule options; empty for a game with
    /// every default.
    pub fn options_text(&self) -> String {
        let format = (self.format != Format::Standard)
            .then(|| format!("format={}", format_name(self.format)));
        let rules = (!self.rules.is_empty()).then(|| self.rules.clone());
        [format, rules].into_iter().flatten().collect::<Vec<_>>().join(",")
    }

    /// The standard start under these options.
    pub fn start(&self) -> AnyGame {
        let mut start = AnyGame::start(self.kind)
            .unwrap_or_else(|_| unreachable!("every registered game has a start"));
        // Checked when the spec was made.
        let _ = start.apply_options(&self.rules);
        start
    }

    /// A position of this game read from its notation, under these options.
    pub fn position(&self, fen: &str) -> Result<AnyGame, GameError> {
        let mut game = AnyGame::from_fen(self.kind, fen)?;
        game.apply_options(&self.rules)?;
        Ok(game)
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

impl std::fmt::Display for GameSpec {
    /// `xiangqi`, or `xiangqi (repetition=asian)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let options = self.options_text();
        if options.is_empty() {
            f.write_str(self.kind.name())
        } else {
            write!(f, "{} ({options})", self.kind.name())
        }
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    game: GameKind,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    options: String,
}

impl serde::Serialize for GameSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Stored { game: self.kind, options: self.options_text() }.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for GameSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(d)?;
        GameSpec::parse(stored.game, &stored.options).map_err(serde::de::Error::custom)
    }
}

/// A format by its name: `standard`, `tactical` or `fullforce` (also `full-force`).
///
/// ```
/// use cannonade_games::spec::{Format, format_name, parse_format};
/// assert_eq!(parse_format("full-force"), Ok(Format::FullForce));
/// assert_eq!(format_name(Format::FullForce), "fullforce");
/// assert!(parse_format("blitz").is_err());
/// ```
pub fn parse_format(name: &str) -> Result<Format, GameError> {
    match name.trim() {
        "standard" => Ok(Format::Standard),
        "tactical" => Ok(Format::Tactical),
        "fullforce" | "full-force" => Ok(Format::FullForce),
        other => Err(GameError::Options(format!(
            "format must be standard, tactical or fullforce, not '{}'",
            other.chars().take(20).collect::<String>()
        ))),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_is_a_commander_option_written_first() {
        let tactical = GameSpec::parse(GameKind::Commander, " format=tactical ").unwrap();
        assert_eq!(
            (tactical.format(), tactical.options_text()),
            (Format::Tactical, "format=tactical".into())
        );
        assert_eq!(tactical.game_ms(), Some(15 * 60 * 1000));
        let standard = GameSpec::parse(GameKind::Commander, "").unwrap();
        assert_eq!((standard.format(), standard.game_ms()), (Format::Standard, None));
        assert!(GameSpec::parse(GameKind::Xiangqi, "format=tactical").is_err());
        assert!(GameSpec::parse(GameKind::Commander, "format=blitz").is_err());
        assert!(GameSpec::parse(GameKind::Commander, "format=tactical,format=fullforce").is_err());
    }

    #[test]
    fn rule_options_are_checked_and_written_canonically() {
        let banqi = GameSpec::parse(GameKind::Banqi, "cannon=step, noprog_limit=40").unwrap();
        assert_eq!(banqi.options_text(), "noprog_limit=40,cannon=step");
        assert_eq!(GameSpec::parse(GameKind::Banqi, &banqi.options_text()), Ok(banqi.clone()));
        assert!(banqi.start().options().contains("cannon=step"));
        assert!(GameSpec::parse(GameKind::Banqi, "cannon=sideways").is_err());
        assert!(GameSpec::parse(GameKind::ChessBattle, "repetition=asian").is_err());
        assert!(GameSpec::parse(GameKind::Xiangqi, &"x".repeat(3000)).is_err());
    }

    #[test]
    fn a_spec_round_trips_through_serde() {
        let spec = GameSpec::parse(GameKind::Xiangqi, "repetition=asian").unwrap();
        let json = serde_json::to_string(&spec).unwrap();
        assert_eq!(json, r#"{"game":"xiangqi","options":"repetition=asian"}"#);
        assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), spec);
        assert!(serde_json::from_str::<GameSpec>(r#"{"game":"xiangqi","options":"x=y"}"#).is_err());
    }

    #[test]
    fn a_position_carries_its_spec() {
        let spec = GameSpec::parse(GameKind::Xiangqi, "repetition=asian").unwrap();
        assert_eq!(GameSpec::of(&spec.start()), spec);
        let p = spec.position("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
        assert_eq!(GameSpec::of(&p), spec);
    }
}
