//! The rows the store keeps.

/// A game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Its id.
    pub id: String,
    /// The game's registry name.
    pub kind: String,
    /// Rule options.
    pub options: String,
    /// The public start position.
    pub start_fen: String,
    /// Clock: initial time (0: untimed).
    pub initial_ms: i64,
    /// Clock: increment.
    pub increment_ms: i64,
    /// Rated game.
    pub rated: bool,
    /// User ids per seat (`None` for the engine).
    pub users: [Option<String>; 2],
    /// Names per seat.
    pub names: [String; 2],
    /// Engine level per seat.
    pub ai: [Option<i64>; 2],
    /// Banqi: the deal's secret seed (hex). Never sent to a client before the end.
    pub seed: Option<String>,
    /// Banqi: the seed's commitment (hex).
    pub commitment: Option<String>,
    /// `live` or `over`.
    pub status: String,
    /// The result as JSON, once over.
    pub result: Option<String>,
    /// The crowd record as JSON, once over.
    pub crowd: Option<String>,
    /// The exported record, once over.
    pub export: Option<String>,
    /// Created at (ms since the Unix epoch).
    pub created_ms: i64,
    /// Ended at.
    pub ended_ms: Option<i64>,
    /// Correspondence: days per move (0: a clock of minutes).
    pub days_per_move: i64,
}

/// One versioned game event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// The game.
    pub game_id: String,
    /// The version (1, 2, …).
    pub v: i64,
    /// The event as JSON.
    pub body: String,
}

/// One chat line of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// The game.
    pub game_id: String,
    /// The line's number in the game (1, 2, …).
    pub n: i64,
    /// The line as JSON.
    pub body: String,
}

/// A spectator's proposal for a ply of a live game (one per spectator and game: the
/// latest replaces the earlier ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProposalRow {
    /// The game.
    pub game_id: String,
    /// The spectator.
    pub user_id: String,
    /// The ply proposed for.
    pub ply: i64,
    /// The move, as the game writes it.
    pub mv: String,
}

/// A rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The user.
    pub user_id: String,
    /// The game's registry name.
    pub kind: String,
    /// The speed category of the clocks it counts (`bullet`, `blitz`, `rapid`, `classical`).
    pub speed: String,
    /// Glicko-2 rating (Glicko scale, 1500 at the start).
    pub rating: f64,
    /// Rating deviation.
    pub rd: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

/// A player's place on a leaderboard: their name and rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedRow {
    /// The player's name.
    pub name: String,
    /// Their rating in the board's game and speed.
    pub rating: RatingRow,
}

/// What a finished game says of its players: the game, who sat where and the result (for
/// win/draw/loss counts, without reading whole game rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeRow {
    /// The game's registry name.
    pub kind: String,
    /// User ids per seat.
    pub users: [Option<String>; 2],
    /// The result as JSON.
    pub result: Option<String>,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    /// The game.
    pub game_id: String,
    /// The result as JSON.
    pub result: String,
    /// The crowd record as JSON.
    pub crowd: String,
    /// The exported record.
    pub export: String,
    /// Ended at.
    pub ended_ms: i64,
    /// New ratings to write (rated games).
    pub ratings: Vec<RatingRow>,
}

/// A user: anonymous (no password) or an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Stable id.
    pub id: String,
    /// Name (unique).
    pub name: String,
    /// The argon2 hash (PHC string) for accounts.
    pub password_hash: Option<String>,
    /// Created at.
    pub created_ms: i64,
}

/// A user written to the store with the game where they take their first seat (anonymous
/// users are stored only then), with the session they play in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPlayer {
    /// The user.
    pub user: User,
    /// Their session's token hash.
    pub token_hash: String,
}

/// A session as stored: its token's hash (the id a user revokes it by), its user, and when it
/// was made and last used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// SHA-256 of the token (hex).
    pub token_hash: String,
    /// Its user.
    pub user_id: String,
    /// Made at (ms since the Unix epoch).
    pub created_ms: i64,
    /// Last used at (the expiry counts from here).
    pub last_ms: i64,
}

/// A game's stored review (docs/analysis.md): the review as JSON, written once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    /// The game.
    pub game_id: String,
    /// The depth every position was searched to.
    pub depth: i64,
    /// The review as JSON.
    pub body: String,
    /// When it was made (ms since the Unix epoch).
    pub created_ms: i64,
}
