//! The named variant options of section 10 that this crate implements, and their text form.

use std::fmt;

/// How the cannon moves and captures (option `cannon`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CannonRule {
    /// Default (D-4): steps one square; captures only by jumping exactly one screen.
    #[default]
    Jump,
    /// Hong Kong "no-jump" cannon: moves and captures like any rank-2 piece.
    Step,
}

/// The variant options a game is played with. They are fixed at creation, carried by the
/// position and written in the record's `Rules` tag.
///
/// ```
/// use cannonade_banqi::{CannonRule, Options};
/// let o: Options = "noprog_limit=40,cannon=step".parse().unwrap();
/// assert_eq!(o.noprog_limit, 40);
/// assert_eq!(o.cannon, CannonRule::Step);
/// assert_eq!(o.to_string(), "noprog_limit=40,cannon=step");
/// assert_eq!(Options::default().to_string(), "standard");
/// assert!("chariot_rush=on".parse::<Options>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Draw after this many plies without a flip or capture; 0 = off (default 60, D-6).
    pub noprog_limit: u16,
    /// Draw on this occurrence of a position; 0 = off (default 3, D-7).
    pub repetition_limit: u8,
    /// The cannon rule (default [`CannonRule::Jump`]).
    pub cannon: CannonRule,
    /// Chain captures (連吃): one piece may go on capturing within the same ply.
    pub chain_capture: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::STANDARD
    }
}

/// The ICGA Computer Olympiad no-progress limit (preset `noprog_limit=icga`).
pub const ICGA_NOPROG_LIMIT: u16 = 180;

/// Options of section 10 that are named there but not implemented; asking for any of them
/// is an error rather than a silently different game.
pub const UNIMPLEMENTED: [&str; 5] =
    ["chariot_rush", "same_rank_trade", "dark_capture", "chase_limit", "rank_ladder"];

impl Options {
    /// The default rules (D-13): every option at its default.
    pub const STANDARD: Options = Options {
        noprog_limit: 60,
        repetition_limit: 3,
        cannon: CannonRule::Jump,
        chain_capture: false,
    };

    /// Whether these are the default rules.
    pub fn is_standard(&self) -> bool {
        *self == Options::STANDARD
    }
}

/// Why an option string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// The text is empty or an item is not `name=value`.
    Syntax(String),
    /// A name that section 10 does not define.
    Unknown(String),
    /// An option of section 10 that this crate does not implement.
    Unimplemented(String),
    /// A value the option does not take.
    BadValue {
        /// The option.
        name: String,
        /// The rejected value.
        value: String,
    },
    /// The same option given twice.
    Repeated(String),
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionsError::Syntax(s) => write!(f, "option item `{s}` is not `name=value`"),
            OptionsError::Unknown(n) => write!(f, "unknown option `{n}`"),
            OptionsError::Unimplemented(n) => write!(
                f,
                "option `{n}` is not implemented (implemented: noprog_limit, repetition_limit, \
                 cannon, chain_capture)"
            ),
            OptionsError::BadValue { name, value } => {
                write!(f, "option `{name}` does not take the value `{value}`")
            }
            OptionsError::Repeated(n) => write!(f, "option `{n}` is given twice"),
        }
    }
}

impl std::error::Error for OptionsError {}

impl std::str::FromStr for Options {
    type Err = OptionsError;

    /// Reads `standard` or a comma-separated list of `name=value` items (empty: standard).
    fn from_str(s: &str) -> Result<Options, OptionsError> {
        let s = s.trim();
        let mut o = Options::STANDARD;
        if s == "standard" {
            return Ok(o);
        }
        let mut seen: Vec<&str> = Vec::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((name, value)) = item.split_once('=') else {
                return Err(OptionsError::Syntax(item.to_string()));
            };
            let (name, value) = (name.trim(), value.trim());
            if seen.contains(&name) {
                return Err(OptionsError::Repeated(name.to_string()));
            }
            seen.push(name);
            let bad =
                || OptionsError::BadValue { name: name.to_string(), value: value.to_string() };
            match name {
                "noprog_limit" => {
                    o.noprog_limit = match value {
                        "icga" => ICGA_NOPROG_LIMIT,
                        v => number(v).ok_or_else(bad)?,
                    }
                }
                "repetition_limit" => {
                    o.repetition_limit = match number(value).ok_or_else(bad)? {
                        n @ (0 | 2..=255) => n as u8,
                        _ => return Err(bad()),
                    }
                }
                "cannon" => {
                    o.cannon = match value {
                        "jump" => CannonRule::Jump,
                        "step" => CannonRule::Step,
                        _ => return Err(bad()),
                    }
                }
                "chain_capture" => {
                    o.chain_capture = match value {
                        "off" => false,
                        "on" => true,
                        _ => return Err(bad()),
                    }
                }
                n if UNIMPLEMENTED.contains(&n) => {
                    return Err(OptionsError::Unimplemented(n.to_string()));
                }
                n => return Err(OptionsError::Unknown(n.to_string())),
            }
        }
        Ok(o)
    }
}

/// A plain decimal number without sign or leading zeros, at most 65535.
fn number(v: &str) -> Option<u16> {
    if v.is_empty() || v.len() > 5 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if v.len() > 1 && v.starts_with('0') {
        return None;
    }
    v.parse().ok()
}

impl fmt::Display for Options {
    /// `standard`, or the options that differ from the default in the order of section 10.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_standard() {
            return f.write_str("standard");
        }
        let d = Options::STANDARD;
        let mut items: Vec<String> = Vec::new();
        if self.noprog_limit != d.noprog_limit {
            items.push(format!("noprog_limit={}", self.noprog_limit));
        }
        if self.repetition_limit != d.repetition_limit {
            items.push(format!("repetition_limit={}", self.repetition_limit));
        }
        if self.cannon != d.cannon {
            items.push("cannon=step".to_string());
        }
        if self.chain_capture {
            items.push("chain_capture=on".to_string());
        }
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_round_trips() {
        let o: Options = "noprog_limit=icga".parse().unwrap_or_default();
        assert_eq!(o.noprog_limit, 180);
        let o: Options =
            "noprog_limit=0,repetition_limit=0,chain_capture=on".parse().unwrap_or_default();
        assert_eq!((o.noprog_limit, o.repetition_limit, o.chain_capture), (0, 0, true));
        assert_eq!(o.to_string().parse::<Options>(), Ok(o));
        assert_eq!("noprog_limit=60".parse::<Options>(), Ok(Options::STANDARD));
    }

    #[test]
    fn unimplemented_and_bad_options_are_rejected() {
        for n in UNIMPLEMENTED {
            let text = format!("noprog_limit=40,{n}=on");
            assert_eq!(text.parse::<Options>(), Err(OptionsError::Unimplemented(n.into())));
        }
        assert!(matches!("colour=blue".parse::<Options>(), Err(OptionsError::Unknown(_))));
        assert!(matches!(
            "repetition_limit=1".parse::<Options>(),
            Err(OptionsError::BadValue { .. })
        ));
        assert!(matches!("noprog_limit=-3".parse::<Options>(), Err(OptionsError::BadValue { .. })));
        assert!(matches!("cannon=fly".parse::<Options>(), Err(OptionsError::BadValue { .. })));
        assert!(matches!("cannon".parse::<Options>(), Err(OptionsError::Syntax(_))));
        assert_eq!("".parse::<Options>(), Ok(Options::STANDARD));
        assert!(matches!(
            "cannon=step,cannon=jump".parse::<Options>(),
            Err(OptionsError::Repeated(_))
        ));
        let e = "chase_limit=3".parse::<Options>().err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("chase_limit") && e.contains("not implemented")));
    }
}
