//! Commands from the GUI to the engine.

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// The game's standard start.
    StartPos,
    /// A position in the game's notation (may contain spaces).
    Fen(String),
}

/// The parameters of `go`. Times are milliseconds; `wtime`/`winc` belong to the first player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// First player's remaining time.
    pub wtime: Option<u64>,
    /// Second player's remaining time.
    pub btime: Option<u64>,
    /// First player's increment.
    pub winc: Option<u64>,
    /// Second player's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<u64>,
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time.
    pub ponder: bool,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<String>,
    /// `go perft N`: count leaves instead of searching.
    pub perft: Option<u32>,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    UciNewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `position startpos|fen … [moves …]`.
    Position {
        /// The starting position.
        start: PositionStart,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: print the board.
    Display,
    /// `eval`: print the static evaluation of the position.
    Eval,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line is blank.
    Empty,
    /// The first word is not a command.
    Unknown(String),
    /// The command's arguments are wrong; the text says how.
    Malformed(String),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty command"),
            ParseError::Unknown(c) => write!(f, "unknown command '{c}'"),
            ParseError::Malformed(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ParseError {}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

fn number<T: std::str::FromStr>(key: &str, value: Option<&str>) -> Result<T, ParseError> {
    let v = value.ok_or_else(|| ParseError::Malformed(format!("go {key} needs a number")))?;
    v.parse()
        .map_err(|_| ParseError::Malformed(format!("go {key}: '{}' is not a number", short(v))))
}

impl Command {
    /// Parses one line.
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else { return Err(ParseError::Empty) };
        Ok(match first {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "setoption" => parse_setoption(rest)?,
            "position" => parse_position(rest)?,
            "go" => Command::Go(parse_go(rest)?),
            other => return Err(ParseError::Unknown(short(other))),
        })
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, ParseError> {
    if words.first() != Some(&"name") {
        return Err(ParseError::Malformed("setoption needs 'name <name> [value <value>]'".into()));
    }
    let rest = &words[1..];
    let value_at = rest.iter().position(|w| *w == "value");
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(ParseError::Malformed("setoption needs an option name".into()));
    }
    Ok(Command::SetOption { name, value })
}

fn parse_position(words: &[&str]) -> Result<Command, ParseError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], words[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (words, Vec::new()),
    };
    let start = match head.split_first() {
        Some((&"startpos", [])) => PositionStart::StartPos,
        Some((&"fen", fen)) if !fen.is_empty() => PositionStart::Fen(fen.join(" ")),
        _ => {
            return Err(ParseError::Malformed(
                "position needs 'startpos' or 'fen <position>', then optionally 'moves …'".into(),
            ));
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(words: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = words.get(i + 1).copied();
        let mut used = 2;
        match key {
            "wtime" => go.wtime = Some(number(key, value)?),
            "btime" => go.btime = Some(number(key, value)?),
            "winc" => go.winc = Some(number(key, value)?),
            "binc" => go.binc = Some(number(key, value)?),
            "movestogo" => go.movestogo = Some(number(key, value)?),
            "movetime" => go.movetime = Some(number(key, value)?),
            "depth" => go.depth = Some(number(key, value)?),
            "nodes" => go.nodes = Some(number(key, value)?),
            "mate" => go.mate = Some(number(key, value)?),
            "perft" => go.perft = Some(number(key, value)?),
            "infinite" => {
                go.infinite = true;
                used = 1;
            }
            "ponder" => {
                go.ponder = true;
                used = 1;
            }
            "searchmoves" => {
                go.searchmoves = words[i + 1..].iter().map(|s| s.to_string()).collect();
                used = words.len() - i;
            }
            other => {
                return Err(ParseError::Malformed(format!(
                    "go: unknown parameter '{}'",
                    short(other)
                )));
            }
        }
        i += used;
    }
    // Negative-looking clocks (some GUIs send them when flagging) are rejected by `number`.
    Ok(go)
}
