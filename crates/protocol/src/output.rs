//! Lines from the engine to the GUI.

use std::fmt::Write;

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// One `info` line; unset fields are left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth reached.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Line number with MultiPV.
    pub multipv: Option<u32>,
    /// Score.
    pub score: Option<Score>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Hash table use in permille.
    pub hashfull: Option<u32>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    /// Principal variation.
    pub pv: Vec<String>,
    /// A free text (`info string …`).
    pub string: Option<String>,
}

impl std::fmt::Display for Info {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::from("info");
        if let Some(v) = self.depth {
            let _ = write!(s, " depth {v}");
        }
        if let Some(v) = self.seldepth {
            let _ = write!(s, " seldepth {v}");
        }
        if let Some(v) = self.multipv {
            let _ = write!(s, " multipv {v}");
        }
        match self.score {
            Some(Score::Cp(v)) => {
                let _ = write!(s, " score cp {v}");
            }
            Some(Score::Mate(v)) => {
                let _ = write!(s, " score mate {v}");
            }
            None => {}
        }
        if let Some(v) = self.nodes {
            let _ = write!(s, " nodes {v}");
        }
        if let Some(v) = self.nps {
            let _ = write!(s, " nps {v}");
        }
        if let Some(v) = self.hashfull {
            let _ = write!(s, " hashfull {v}");
        }
        if let Some(v) = self.time {
            let _ = write!(s, " time {v}");
        }
        if !self.pv.is_empty() {
            let _ = write!(s, " pv {}", self.pv.join(" "));
        }
        if let Some(text) = &self.string {
            let _ = write!(s, " string {text}");
        }
        f.write_str(&s)
    }
}

/// The type of an engine option, for the `option` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <bool>`.
    Check(bool),
    /// `type spin default <d> min <min> max <max>`.
    Spin {
        /// Default.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// `type combo default <d> var <v>…`.
    Combo {
        /// Default.
        default: String,
        /// Choices.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default <d>`.
    String(String),
}

/// The `option name … type …` line announcing an option.
///
/// ```
/// use cannonade_protocol::{option_line, OptionKind};
/// assert_eq!(option_line("Hash", &OptionKind::Spin { default: 16, min: 1, max: 1024 }),
///            "option name Hash type spin default 16 min 1 max 1024");
/// ```
pub fn option_line(name: &str, kind: &OptionKind) -> String {
    match kind {
        OptionKind::Check(d) => format!("option name {name} type check default {d}"),
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::String(d) => format!("option name {name} type string default {d}"),
    }
}

/// The `bestmove` line; `None` when there is no legal move (`bestmove (none)`).
pub fn bestmove(best: Option<&str>, ponder: Option<&str>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}
