//! Players' profiles and the leaderboards (`GET /api/user/{name}`,
//! `GET /api/leaderboard/{game}`): ratings per game and speed, win/draw/loss counts and
//! recent games, read from the store.

use crate::rating::{PROVISIONAL_RD, Speed};
use crate::state::App;
use cannonade_games::GameKind;
use cannonade_store::{RatingRow, StoreError};
use cannonade_wire::{GameResult, Seat};
use serde::Serialize;
use std::collections::BTreeMap;

/// How many recent games a profile lists.
const RECENT_GAMES: u32 = 20;
/// How many players a leaderboard lists.
pub const LEADERBOARD: u32 = 50;

/// A rating as profiles and leaderboards show it: whole points, provisional while the
/// deviation is above [`PROVISIONAL_RD`].
#[derive(Clone, Debug, Serialize)]
pub struct RatingInfo {
    /// The game.
    pub game: String,
    /// The speed category.
    pub speed: String,
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub rd: i64,
    /// Shown with `?`: the deviation is still above [`PROVISIONAL_RD`].
    pub provisional: bool,
    /// Rated games played in this game and speed.
    pub games: i64,
}

impl From<&RatingRow> for RatingInfo {
    fn from(r: &RatingRow) -> RatingInfo {
        RatingInfo {
            game: r.kind.clone(),
            speed: r.speed.clone(),
            rating: r.rating.round() as i64,
            rd: r.rd.round() as i64,
            provisional: r.rd > PROVISIONAL_RD,
            games: r.games,
        }
    }
}

/// Wins, draws and losses in one game.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Record {
    /// Games won.
    pub win: u32,
    /// Games drawn.
    pub draw: u32,
    /// Games lost.
    pub loss: u32,
}

/// A game of a profile's history, from the player's side.
#[derive(Clone, Debug, Serialize)]
pub struct RecentGame {
    /// The game's id (its replay is `/game/{id}`).
    pub id: String,
    /// The game.
    pub game: String,
    /// The opponent's name.
    pub opponent: String,
    /// `win`, `draw` or `loss`; `null` while played, aborted, or both seats the player's.
    pub result: Option<&'static str>,
    /// Rated.
    pub rated: bool,
    /// The clock's speed category, `null` untimed.
    pub speed: Option<&'static str>,
    /// Started at (ms since the Unix epoch).
    pub created_ms: i64,
}

/// A player's profile.
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    /// The name.
    pub name: String,
    /// Whether it is an account (not an anonymous player).
    pub account: bool,
    /// Registered (or first seen) at.
    pub created_ms: i64,
    /// Ratings by game, then speed.
    pub ratings: Vec<RatingInfo>,
    /// Win/draw/loss by game.
    pub records: BTreeMap<String, Record>,
    /// Recent games, newest first.
    pub games: Vec<RecentGame>,
}

/// A player's place on a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Ranked {
    /// The player's name.
    pub name: String,
    /// The rating.
    #[serde(flatten)]
    pub rating: RatingInfo,
}

/// How a finished game went for the player in `seats` (`None`: aborted, unfinished, or the
/// player sat on both sides).
fn outcome(users: &[Option<String>; 2], user: &str, result: Option<&str>) -> Option<&'static str> {
    let first = users[0].as_deref() == Some(user);
    let second = users[1].as_deref() == Some(user);
    if first == second {
        return None;
    }
    let result: GameResult = serde_json::from_str(result?).ok()?;
    match result.winner {
        None if result.reason == "aborted" => None,
        None => Some("draw"),
        Some(w) if (w == Seat::First) == first => Some("win"),
        Some(_) => Some("loss"),
    }
}

/// The profile of the player named `name` (any case), `None` when nobody has that name.
pub async fn profile(app: &App, name: &str) -> Result<Option<Profile>, StoreError> {
    // The store is not asked about text that cannot be a name (a URL may hold anything: a
    // NUL byte is an error to PostgreSQL, not an unknown name).
    if !crate::account::name_form(name) {
        return Ok(None);
    }
    let Some(user) = app.store.user_by_name(name).await? else { return Ok(None) };
    let ratings = app.store.user_ratings(&user.id).await?.iter().map(RatingInfo::from).collect();
    let mut records: BTreeMap<String, Record> = BTreeMap::new();
    for o in app.store.user_outcomes(&user.id).await? {
        let Some(how) = outcome(&o.users, &user.id, o.result.as_deref()) else { continue };
        let r = records.entry(o.kind).or_default();
        match how {
            "win" => r.win += 1,
            "draw" => r.draw += 1,
            _ => r.loss += 1,
        }
    }
    let games = app
        .store
        .user_games(&user.id, RECENT_GAMES)
        .await?
        .into_iter()
        .map(|g| {
            let mine = if g.users[0].as_deref() == Some(user.id.as_str()) { 0 } else { 1 };
            let speed = Speed::of_clock(crate::game::clock::time_control(&g));
            RecentGame {
                result: outcome(&g.users, &user.id, g.result.as_deref()),
                opponent: g.names[1 - mine].clone(),
                id: g.id,
                game: g.kind,
                rated: g.rated,
                speed: speed.map(Speed::name),
                created_ms: g.created_ms,
            }
        })
        .collect();
    Ok(Some(Profile {
        name: user.name,
        account: user.password_hash.is_some(),
        created_ms: user.created_ms,
        ratings,
        records,
        games,
    }))
}

/// The best non-provisional players of `game` at `speed`, best first.
pub async fn leaderboard(
    app: &App,
    game: GameKind,
    speed: Speed,
) -> Result<Vec<Ranked>, StoreError> {
    let rows =
        app.store.leaderboard(game.name(), speed.name(), PROVISIONAL_RD, LEADERBOARD).await?;
    Ok(rows
        .iter()
        .map(|r| Ranked { name: r.name.clone(), rating: RatingInfo::from(&r.rating) })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::outcome;

    #[test]
    fn outcomes_from_either_seat() {
        let users = [Some("a".to_string()), Some("b".to_string())];
        let won = Some(r#"{"winner":"first","reason":"resignation"}"#);
        assert_eq!(outcome(&users, "a", won), Some("win"));
        assert_eq!(outcome(&users, "b", won), Some("loss"));
        let drawn = Some(r#"{"winner":null,"reason":"agreement"}"#);
        assert_eq!(outcome(&users, "b", drawn), Some("draw"));
        assert_eq!(outcome(&users, "a", Some(r#"{"winner":null,"reason":"aborted"}"#)), None);
        assert_eq!(outcome(&users, "a", None), None);
        assert_eq!(outcome(&users, "a", Some("not json")), None);
        let both = [Some("a".to_string()), Some("a".to_string())];
        assert_eq!(outcome(&both, "a", won), None);
    }
}
