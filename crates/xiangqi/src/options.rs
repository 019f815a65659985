//! The rule options as text: `repetition=seed|asian`.

use crate::{Options, RepetitionRule};

/// Why an options text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// An item is not `name=value`, or names an option Xiangqi does not have.
    Unknown(String),
    /// The value of `repetition` is not `seed` or `asian`.
    Repetition(String),
}

impl std::fmt::Display for OptionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionsError::Unknown(item) => {
                write!(f, "Xiangqi has no option '{item}' (it has repetition=seed|asian)")
            }
            OptionsError::Repetition(v) => write!(f, "repetition must be seed or asian, not '{v}'"),
        }
    }
}

impl std::error::Error for OptionsError {}

impl Options {
    /// These options with the items of `text` (`repetition=asian`, comma-separated) applied.
    ///
    /// ```
    /// use cannonade_xiangqi::{Options, RepetitionRule};
    /// let o = Options::default().with_text("repetition=asian").unwrap();
    /// assert_eq!(o.repetition, RepetitionRule::Asian);
    /// assert_eq!(o.text(), "repetition=asian");
    /// assert!(Options::default().with_text("cannon=step").is_err());
    /// ```
    pub fn with_text(mut self, text: &str) -> Result<Options, OptionsError> {
        let clip = |s: &str| s.chars().take(40).collect::<String>();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item.split_once('=') {
                Some((name, value)) if name.trim() == "repetition" => {
                    self.repetition = RepetitionRule::parse(value.trim())
                        .ok_or_else(|| OptionsError::Repetition(clip(value.trim())))?;
                }
                _ => return Err(OptionsError::Unknown(clip(item))),
            }
        }
        Ok(self)
    }

    /// The options as [`Options::with_text`] reads them.
    pub fn text(&self) -> String {
        format!("repetition={}", self.repetition.as_str())
    }
}
