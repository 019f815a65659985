//! Points, objectives and the official timed formats (section 13), as functions the server
//! calls on a game record.
//!
//! * Points (13.1) are kept in the position as it is played ([`Position::points`]): every
//!   enemy piece removed scores its value (+ 10 if heroic), both sides score in a kamikaze.
//!   A checkmated Commander counts as captured (100, or 110 if heroic).
//! * Objectives (13.2): sea, air, land battle and raid, only for categories the enemy had
//!   in the record's start position.
//! * [`judge_format`] decides a game under a [`Format`]: the standard game (sections 11–12
//!   only), the full-force timed game (checkmate wins; on time or a draw rule the higher
//!   score wins) and the 15-minute tactical game (ends as soon as a side achieves an
//!   objective; it gets the bonus and the higher total wins; on time or a draw rule the
//!   higher score wins). Equal scores draw. The clock itself is the server's: it passes
//!   `time_expired` when the one game timer has run out.

use crate::judge::seat;
use crate::piece::{Kind, bit, heroes, kinds};
use crate::position::Position;
use cannonade_core::{Next, Outcome, Reason, Record};

/// The objective bonus (section 13.3; D21 — the 2017 table says 100).
pub const OBJECTIVE_BONUS: u32 = 50;

/// A scored format of section 13.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Sections 11–12 only; points are shown but decide nothing.
    Standard,
    /// The 30-minute full-force game.
    FullForce,
    /// The 15-minute tactical game decided by objectives and points.
    Tactical,
}

/// The objectives a side has achieved (section 13.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Objectives {
    /// The enemy has no Navy left.
    pub sea: bool,
    /// The enemy has no Air Force left.
    pub air: bool,
    /// The enemy has no Tank, Infantry or Artillery left.
    pub land: bool,
    /// The enemy Commander is checkmated.
    pub raid: bool,
}

impl Objectives {
    /// Whether any objective is achieved.
    pub fn any(self) -> bool {
        self.sea || self.air || self.land || self.raid
    }
}

/// A format's judgement: how the game stands and each colour's total (Red first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who acts next, or the result.
    pub next: Next,
    /// Total score of Red (`[0]`) and Blue (`[1]`), bonuses and a mated Commander included.
    pub scores: [u32; 2],
    /// Objectives achieved by Red and Blue.
    pub objectives: [Objectives; 2],
}

/// The colour (0 Red) checkmated in this position, if any.
fn mated(pos: &Position) -> Option<usize> {
    (pos.in_check() && !pos.has_legal_turn()).then_some(pos.turn)
}

/// The kinds each colour had at the start of a game (Red first), by `Kind` index: an
/// objective counts only against a category the enemy had (13.2). The search keeps this
/// beside each position instead of the whole record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Armies([[u8; 11]; 2]);

impl Armies {
    /// The armies of a start position.
    pub fn of(start: &Position) -> Armies {
        Armies([start.material(0), start.material(1)])
    }
}

/// The objectives each colour has achieved in `now`, counting from `start`.
pub fn objectives(start: &Position, now: &Position) -> [Objectives; 2] {
    objectives_since(&Armies::of(start), now, mated(now))
}

/// The objectives each colour has achieved in `now` against the armies it started with;
/// `mate` is the colour checkmated in `now`, if any.
fn objectives_since(start: &Armies, now: &Position, mate: Option<usize>) -> [Objectives; 2] {
    let mut out = [Objectives::default(); 2];
    for (c, o) in out.iter_mut().enumerate() {
        let had = start.0[1 - c];
        let has = now.material(1 - c);
        let gone = |ks: &[Kind]| {
            ks.iter().any(|k| had[*k as usize] > 0) && ks.iter().all(|k| has[*k as usize] == 0)
        };
        o.sea = gone(&[Kind::Navy]);
        o.air = gone(&[Kind::AirForce]);
        o.land = gone(&[Kind::Tank, Kind::Infantry, Kind::Artillery]);
        o.raid = mate == Some(1 - c);
    }
    out
}

/// Points scored by each colour (Red first), a checkmated Commander counted as captured,
/// without objective bonuses.
pub fn scores(pos: &Position) -> [u32; 2] {
    scores_with(pos, mated(pos))
}

/// [`scores`] when the colour checkmated (`mate`) is known.
fn scores_with(pos: &Position, mate: Option<usize>) -> [u32; 2] {
    let mut s = pos.points();
    if let Some(m) = mate {
        let u = pos.b.units[pos.b.cmd[m] as usize];
        s[1 - m] += Kind::Commander.points() + if heroes(u) & bit::C != 0 { 10 } else { 0 };
    }
    s
}

/// Decides a game under `format` (see the module docs). `time_expired` says the format's
/// game timer has run out; per-player clocks of the standard game are the server's business.
pub fn judge_format(record: &Record<Position>, format: Format, time_expired: bool) -> Verdict {
    judge_position(
        &Armies::of(record.start()),
        record.position(),
        record.next(),
        format,
        time_expired,
    )
}

/// [`judge_format`] on a position alone: `start` is the armies the game began with and
/// `base` how the standard rules judge `now` (the position's own judgement, or the record's
/// with its repetitions). The search judges the positions it reaches with this.
pub fn judge_position(
    start: &Armies,
    now: &Position,
    base: Next,
    format: Format,
    time_expired: bool,
) -> Verdict {
    let mate = mated(now);
    let objectives = objectives_since(start, now, mate);
    let mut scores = scores_with(now, mate);
    let by_points = |s: [u32; 2]| {
        Next::Over(match s[0].cmp(&s[1]) {
            std::cmp::Ordering::Greater => Outcome::win(seat(0), Reason::Points),
            std::cmp::Ordering::Less => Outcome::win(seat(1), Reason::Points),
            std::cmp::Ordering::Equal => Outcome::draw(Reason::Points),
        })
    };
    let next = match format {
        Format::Standard => base,
        Format::FullForce => match base {
            Next::Over(o) if o.reason == Reason::Checkmate => {
                for c in 0..2 {
                    if objectives[c].raid {
                        scores[c] += OBJECTIVE_BONUS;
                    }
                }
                base
            }
            Next::Over(_) => by_points(scores),
            _ if time_expired => by_points(scores),
            _ => base,
        },
        Format::Tactical => {
            let mut achieved = false;
            for c in 0..2 {
                if objectives[c].any() {
                    scores[c] += OBJECTIVE_BONUS;
                    achieved = true;
                }
            }
            if achieved || time_expired || matches!(base, Next::Over(_)) {
                by_points(scores)
            } else {
                base
            }
        }
    };
    Verdict { next, scores, objectives }
}

/// Value of the pieces of colour `c` still on the board (heroic + 10), for display.
pub fn material_value(pos: &Position, c: usize) -> u32 {
    pos.b.occ[c].iter().map(|p| crate::piece::unit_points(pos.b.units[p as usize])).sum()
}

/// Whether colour `c` still has a piece of kind `k` (stacked pieces included).
pub fn has_kind(pos: &Position, c: usize, k: Kind) -> bool {
    pos.b.occ[c].iter().any(|p| kinds(pos.b.units[p as usize]) & k.bit() != 0)
}
