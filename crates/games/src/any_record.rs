//! A game of any kind with its history and its spec.

use crate::any_game::Registered;
use crate::spec::Format;
use crate::{AnyGame, AnyMove, GameError, GameKind, GameSpec};
use cannonade_commander::points::judge_format;
use cannonade_core::{Game, Next, Record, Side, Step};

macro_rules! define_history {
    (() $($kind:ident => $ty:ty $(, $dealt:ident => $dty:ty)?;)*) => {
        /// The positions and steps of a game of any kind (see [`cannonade_core::Record`]).
        #[derive(Clone, Debug)]
        pub enum AnyHistory {
            $(
                #[doc = concat!("A game of `", stringify!($kind), "`.")]
                $kind(Record<$ty>),
                $(
                    #[doc = concat!("A game of `", stringify!($kind), "` with its secrets.")]
                    $dealt(Record<$dty>),
                )?
            )*
        }

        impl AnyHistory {
            /// A history that starts at `start`.
            pub fn new(start: AnyGame) -> AnyHistory {
                match start {
                    $(
                        AnyGame::$kind(p) => AnyHistory::$kind(Record::new(p)),
                        $(AnyGame::$dealt(p) => AnyHistory::$dealt(Record::new(p)),)?
                    )*
                }
            }
        }
    };
}

crate::registry!(define_history);

/// One move of a record as a record writes and a person reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The recorded text (a Banqi flip with what it revealed: `d2=C`), which
    /// [`AnyRecord::play_text`] reads back.
    pub text: String,
    /// The move as people read it (WXF for Xiangqi; the recorded text where the game has no
    /// other notation).
    pub display: String,
    /// The seat that played it.
    pub seat: Side,
    /// Whether it ended in a chance outcome (a Banqi flip revealed a piece): hidden
    /// information became public, so it cannot be taken back.
    pub revealed: bool,
}

/// A game in progress or finished: its spec, its start, every position and step, and the
/// full rule set (history rules and the spec's format included) through [`AnyRecord::next`].
#[derive(Clone, Debug)]
pub struct AnyRecord {
    spec: GameSpec,
    history: AnyHistory,
}

/// The moves of a record as played (chance steps folded into the move that started them).
fn played<G: Game>(r: &Record<G>) -> Vec<PlayedMove> {
    let steps = r.steps();
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let Step::Move(m) = *step else { continue };
        let p = &r.positions()[i];
        let (text, display, revealed) = match steps.get(i + 1) {
            Some(&Step::Chance(c)) => {
                let t = p.resolved_move(m, c);
                (t.clone(), t, true)
            }
            _ => {
                let text = p.recorded_move(m);
                // A record text that names a chance outcome (a dealt Banqi flip) is also
                // how people read the move, and it revealed what it names.
                let plain = text == p.move_text(m);
                let display = if plain { p.display_move(m) } else { text.clone() };
                (text, display, !plain)
            }
        };
        out.push(PlayedMove { text, display, seat: p.mover(), revealed });
    }
    out
}

/// Reads a recorded move and plays it (with the chance outcome it names, if any).
fn play_recorded<G: Registered>(r: &mut Record<G>, text: &str) -> Result<AnyMove, GameError> {
    let pos = r.position();
    let (mv, outcome) = pos.parse_recorded(text).map_err(|e| GameError::Move(e.to_string()))?;
    if let Some(c) = outcome {
        // Check the outcome before touching the record, so a bad one changes nothing.
        let mut after = pos.clone();
        after.play(mv);
        let mut offered = Vec::new();
        after.chance_outcomes(&mut offered);
        if !offered.iter().any(|w| w.outcome == c) {
            return Err(GameError::Move(format!(
                "'{}' is not a possible outcome here",
                text.chars().take(16).collect::<String>()
            )));
        }
        r.play(mv);
        r.resolve(c);
    } else {
        r.play(mv);
    }
    Ok(G::wrap_move(mv))
}

/// Plays a move of any game, if it is one of this game's.
fn play_checked<G: Registered>(r: &mut Record<G>, mv: AnyMove) -> Result<(), GameError> {
    r.play(G::unwrap_move(mv).ok_or(GameError::WrongGame)?);
    Ok(())
}

/// Resolves the pending chance event with the outcome `text` names.
fn resolve_checked<G: Game>(r: &mut Record<G>, text: &str) -> Result<(), GameError> {
    let pos = r.position();
    if !pos.chance_pending() {
        return Err(GameError::Move("no chance event is pending".into()));
    }
    let c = pos.parse_chance(text).ok_or_else(|| {
        GameError::Move(format!(
            "'{}' is not a possible outcome here",
            text.chars().take(16).collect::<String>()
        ))
    })?;
    r.resolve(c);
    Ok(())
}

impl AnyRecord {
    /// A record starting at `start`, under the options the position carries and the
    /// standard format.
    pub fn new(start: AnyGame) -> AnyRecord {
        AnyRecord { spec: GameSpec::of(&start), history: AnyHistory::new(start) }
    }

    /// A record of the game `spec` from its standard start.
    pub fn from_spec(spec: &GameSpec) -> AnyRecord {
        AnyRecord { spec: spec.clone(), history: AnyHistory::new(spec.start()) }
    }

    /// A record of the game `spec` starting at `start` (a position of that game, which is
    /// given the spec's rule options).
    pub fn with_start(spec: &GameSpec, mut start: AnyGame) -> Result<AnyRecord, GameError> {
        if start.kind() != spec.kind() {
            return Err(GameError::WrongGame);
        }
        start.apply_options(spec.rules())?;
        Ok(AnyRecord { spec: spec.clone(), history: AnyHistory::new(start) })
    }

    /// What game this is: kind, options and format.
    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        self.spec.kind()
    }

    /// The positions and steps, for code generic over the games ([`crate::each_history`]).
    pub fn history(&self) -> &AnyHistory {
        &self.history
    }

    /// The current position.
    pub fn position(&self) -> AnyGame {
        crate::each_history!(&self.history, r => Registered::into_game(r.position().clone()))
    }

    /// The starting position.
    pub fn start(&self) -> AnyGame {
        crate::each_history!(&self.history, r => Registered::into_game(r.start().clone()))
    }

    /// The position after `steps` steps (`None` past the end).
    pub fn position_at(&self, steps: usize) -> Option<AnyGame> {
        crate::each_history!(&self.history, r => r.positions().get(steps).cloned().map(Registered::into_game))
    }

    /// The state of the game under all its rules and its format, with a format's game timer
    /// still running.
    pub fn next(&self) -> Next {
        self.judge(false)
    }

    /// The state of the game under all its rules; `time_expired` says a scored format's game
    /// timer has run out (decided on points).
    pub fn judge(&self, time_expired: bool) -> Next {
        match &self.history {
            AnyHistory::Commander(r) if self.spec.format() != Format::Standard => {
                judge_format(r, self.spec.format(), time_expired).next
            }
            history => crate::each_history!(history, r => r.next()),
        }
    }

    /// The seats' totals under a scored format (objective bonus included), `None` otherwise.
    pub fn points(&self) -> Option<[u32; 2]> {
        match &self.history {
            AnyHistory::Commander(r) if self.spec.format() != Format::Standard => {
                Some(judge_format(r, self.spec.format(), false).scores)
            }
            _ => None,
        }
    }

    /// Number of steps played (a Banqi flip and its result are two steps in a public game).
    pub fn len(&self) -> usize {
        crate::each_history!(&self.history, r => r.len())
    }

    /// Whether no step has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a move in the current position's notation, checks it and plays it. A recorded
    /// Banqi flip (`d2=C`) in a public game plays the flip and resolves it. Refused once the
    /// game is over.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, GameError> {
        if matches!(self.next(), Next::Over(_)) {
            return Err(GameError::GameOver);
        }
        self.play_text_past_end(text)
    }

    /// Like [`AnyRecord::play_text`], but also after the rules have ended the game (a move
    /// must still be legal). For analysis and engine protocols, where the GUI is the referee.
    pub fn play_text_past_end(&mut self, text: &str) -> Result<AnyMove, GameError> {
        crate::each_history!(&mut self.history, r => play_recorded(r, text))
    }

    /// Plays a move checked against the current position.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), GameError> {
        crate::each_history!(&mut self.history, r => play_checked(r, mv))
    }

    /// Resolves a pending chance event (a Banqi flip's piece letter).
    pub fn resolve_text(&mut self, text: &str) -> Result<(), GameError> {
        crate::each_history!(&mut self.history, r => resolve_checked(r, text))
    }

    /// The moves played, as recorded and as read, with who played each.
    pub fn moves(&self) -> Vec<PlayedMove> {
        crate::each_history!(&self.history, r => played(r))
    }

    /// The moves played, in recorded text (Banqi flips as `d2=C`).
    pub fn moves_text(&self) -> Vec<String> {
        self.moves().into_iter().map(|m| m.text).collect()
    }

    /// Takes back the last step (for a resolved Banqi flip, the result only).
    pub fn undo(&mut self) -> bool {
        crate::each_history!(&mut self.history, r => r.undo().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::{Outcome, Reason};

    fn record(kind: GameKind, options: &str, fen: &str, moves: &[&str]) -> AnyRecord {
        let spec = GameSpec::parse(kind, options).unwrap();
        let mut r = AnyRecord::with_start(&spec, spec.position(fen).unwrap()).unwrap();
        for m in moves {
            r.play_text(m).unwrap();
        }
        r
    }

    /// Rules §13.3: the tactical game ends as soon as a side achieves an objective (here the
    /// sea battle: Blue's only Navy is taken), and the higher total, bonus included, wins.
    #[test]
    fn an_objective_ends_the_tactical_game_on_points() {
        let fen = "9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1";
        let win = Next::Over(Outcome::win(Side::First, Reason::Points));
        let tactical = record(GameKind::Commander, "format=tactical", fen, &["Tc4_a4"]);
        assert_eq!(tactical.next(), win);
        assert_eq!(tactical.points(), Some([130, 0]));
        let standard = record(GameKind::Commander, "", fen, &["Tc4_a4"]);
        assert_eq!(standard.next(), Next::Player(Side::Second));
        assert_eq!(standard.points(), None);
        // The full-force game goes on until its timer runs out.
        let full = record(GameKind::Commander, "format=fullforce", fen, &["Tc4_a4"]);
        assert_eq!(full.next(), Next::Player(Side::Second));
        assert_eq!(full.judge(true), win);
    }

    #[test]
    fn the_game_timer_running_out_decides_on_points_and_equal_points_draw() {
        let fen = "9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1";
        let r = record(GameKind::Commander, "format=tactical", fen, &["Ck1k2"]);
        assert_eq!(r.next(), Next::Player(Side::Second));
        assert_eq!(r.judge(true), Next::Over(Outcome::draw(Reason::Points)));
    }

    #[test]
    fn a_recorded_flip_replays_in_a_public_game_and_is_written_back() {
        let mut r = AnyRecord::from_spec(&GameSpec::standard(GameKind::Banqi));
        r.play_text("d2=C").unwrap();
        // Not a piece letter; then a second red cannon after both were revealed.
        assert!(r.play_text("d3=Q").is_err());
        r.play_text("d3=C").unwrap();
        assert!(r.play_text("d4=C").is_err());
        assert_eq!(r.moves_text(), ["d2=C", "d3=C"]);
        assert!(r.moves().iter().all(|m| m.revealed));
        assert_eq!(r.len(), 4);
    }

    #[test]
    fn a_record_carries_its_options() {
        let r = record(GameKind::Xiangqi, "repetition=asian", "4k4/9/9/9/9/9/9/9/4R4/3K5 b", &[]);
        assert_eq!(r.spec().options_text(), "repetition=asian");
        assert_eq!(r.position().options(), "repetition=asian");
        let plain = AnyRecord::new(AnyGame::start(GameKind::Xiangqi).unwrap());
        assert_eq!(plain.spec(), &GameSpec::standard(GameKind::Xiangqi));
    }

    #[test]
    fn moves_are_listed_with_their_display_and_seat() {
        let mut r = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        r.play_text("h2e2").unwrap();
        r.play_text("h9g7").unwrap();
        let moves = r.moves();
        assert_eq!(
            moves[0],
            PlayedMove {
                text: "h2e2".into(),
                display: "C2=5".into(),
                seat: Side::First,
                revealed: false
            }
        );
        assert_eq!(moves[1].seat, Side::Second);
        assert!(r.undo());
        assert_eq!(r.moves_text(), ["h2e2"]);
    }
}
