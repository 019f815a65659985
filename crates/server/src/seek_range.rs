//! Seeks' rating ranges: a seeker's range request settled against their own rating, and
//! the check a taker passes. Ratings are those of the seek's game and speed, as a
//! player's bullet play says little of their classical play.

use crate::rating::{PROVISIONAL_RD, Rating, Speed};
use crate::refusal::Refusal;
use crate::user::UserCtx;
use cannonade_games::GameKind;
use cannonade_store::{Store, StoreError};
use cannonade_wire::{ErrorCode, RangeRequest, RatingRange, TimeControl};

/// A player's rating in one game and speed, as the lobby shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The rating, rounded.
    pub rating: i32,
    /// Shown with `?`: the deviation is still above [`PROVISIONAL_RD`].
    pub provisional: bool,
}

impl From<Rating> for Standing {
    fn from(r: Rating) -> Standing {
        Standing { rating: r.rating.round() as i32, provisional: r.rd > PROVISIONAL_RD }
    }
}

/// `user`'s standing in `game` at the speed of `clock`: the default rating (provisional)
/// for an account not yet rated there; `None` for an anonymous player or an untimed clock,
/// which have no rating.
pub async fn standing(
    store: &dyn Store,
    user: &UserCtx,
    game: GameKind,
    clock: TimeControl,
) -> Result<Option<Standing>, StoreError> {
    let Some(speed) = Speed::of_clock(clock) else { return Ok(None) };
    if !user.account {
        return Ok(None);
    }
    let row = store.rating(&user.id, game.name(), speed.name()).await?;
    Ok(Some(Standing::from(row.as_ref().map(Rating::from).unwrap_or_default())))
}

/// The range a seek gets from its seeker's `request`: `around` is taken from the seeker's
/// own rating and narrowed by `min` and `max`. Refused for an anonymous seeker or an
/// untimed seek (no rating to range over) and for a range no rating lies in.
pub fn settle(
    request: Option<RangeRequest>,
    seeker: Option<Standing>,
) -> Result<Option<RatingRange>, Refusal> {
    let Some(request) = request else { return Ok(None) };
    let Some(seeker) = seeker else {
        return Err((
            ErrorCode::Forbidden,
            "rating ranges are for accounts, on timed games: register or log in".into(),
        ));
    };
    let own = u32::try_from(seeker.rating).unwrap_or(0);
    let mut range = RatingRange { min: 0, max: u32::MAX };
    if let Some(around) = request.around {
        range = RatingRange { min: own.saturating_sub(around), max: own.saturating_add(around) };
    }
    if let Some(min) = request.min {
        range.min = range.min.max(min);
    }
    if let Some(max) = request.max {
        range.max = range.max.min(max);
    }
    if range.min > range.max {
        return Err((ErrorCode::Invalid, "no rating lies in that range".into()));
    }
    Ok(Some(range))
}

/// Whether a taker of `taker`'s standing may take a seek of `range`: anyone when the seek
/// has none; else an account rated in the range (an anonymous player has no rating).
pub fn admits(range: Option<RatingRange>, taker: Option<Standing>) -> Result<(), Refusal> {
    let Some(range) = range else { return Ok(()) };
    let Some(taker) = taker else {
        return Err((
            ErrorCode::Forbidden,
            "this seek is for rated players in a range: register or log in".into(),
        ));
    };
    if range.admits(i64::from(taker.rating)) {
        return Ok(());
    }
    Err((
        ErrorCode::Forbidden,
        format!(
            "this seek is for players rated {}–{}; you are {}",
            range.min, range.max, taker.rating
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rating: i32) -> Option<Standing> {
        Some(Standing { rating, provisional: false })
    }

    #[test]
    fn around_is_taken_from_the_seekers_rating_and_narrowed_by_the_bounds() {
        let around = |n| RangeRequest { around: Some(n), ..RangeRequest::default() };
        assert_eq!(settle(None, at(1500)), Ok(None), "no request, no range");
        assert_eq!(
            settle(Some(around(200)), at(1500)),
            Ok(Some(RatingRange { min: 1300, max: 1700 }))
        );
        assert_eq!(
            settle(Some(RangeRequest { around: Some(200), min: Some(1400), max: None }), at(1500)),
            Ok(Some(RatingRange { min: 1400, max: 1700 }))
        );
        assert_eq!(
            settle(Some(RangeRequest { around: None, min: None, max: Some(1600) }), at(1500)),
            Ok(Some(RatingRange { min: 0, max: 1600 }))
        );
        assert_eq!(settle(Some(around(5000)), at(100)).map(|r| r.map(|r| r.min)), Ok(Some(0)));
        let empty = RangeRequest { around: None, min: Some(1800), max: Some(1700) };
        assert_eq!(settle(Some(empty), at(1500)).map_err(|e| e.0), Err(ErrorCode::Invalid));
        assert_eq!(settle(Some(around(200)), None).map_err(|e| e.0), Err(ErrorCode::Forbidden));
    }

    #[test]
    fn takers_are_admitted_in_range_only_and_anonymous_ones_never() {
        let range = Some(RatingRange { min: 1300, max: 1700 });
        assert_eq!(admits(None, None), Ok(()), "an open seek is for anyone");
        assert_eq!(admits(range, at(1300)), Ok(()), "the ends are in");
        assert_eq!(admits(range, at(1700)), Ok(()));
        let out = admits(range, at(1701)).unwrap_err();
        assert_eq!(out.0, ErrorCode::Forbidden);
        assert!(out.1.contains("1300–1700") && out.1.contains("1701"), "{}", out.1);
        assert_eq!(admits(range, at(1299)).map_err(|e| e.0), Err(ErrorCode::Forbidden));
        assert_eq!(admits(range, None).map_err(|e| e.0), Err(ErrorCode::Forbidden));
    }
}
