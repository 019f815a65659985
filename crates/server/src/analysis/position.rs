//! The analysis board's positions: a start and moves read into a record and checked by the
//! rules, answered with the position, its moves as people read them and what may follow.
//! Pure: no engine, no socket.

use cannonade_core::Next;
use cannonade_games::{AnyGame, AnyRecord, GameError, GameSpec};
use cannonade_wire::{
    AnalysedPosition, GameResult, LegalMove, LineMove, MAX_ANALYSIS_MOVES, PositionRequest,
    PublicPosition, Seat,
};

/// Why a position request cannot be analysed; the text names what is wrong and is the
/// client's own input, safe to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The options, the start or the game itself is not valid.
    Game(GameError),
    /// A move does not replay (its index from 0, its text, why).
    Move(usize, String, GameError),
    /// More moves than [`MAX_ANALYSIS_MOVES`].
    TooLong,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Game(e) => e.fmt(f),
            PositionError::Move(i, text, e) => {
                let text: String = text.chars().take(24).collect();
                write!(f, "move {} ('{text}'): {e}", i + 1)
            }
            PositionError::TooLong => {
                write!(f, "at most {MAX_ANALYSIS_MOVES} moves: start from a later position")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// The record a request describes: its start (a Banqi start seen publicly: the analysis
/// board decides what each flip reveals) and every move replayed and checked.
pub fn record_of(req: &PositionRequest) -> Result<AnyRecord, PositionError> {
    if req.moves.len() > MAX_ANALYSIS_MOVES {
        return Err(PositionError::TooLong);
    }
    let spec = GameSpec::parse(req.game, &req.options).map_err(PositionError::Game)?;
    let start = match req.fen.as_deref().map(str::trim) {
        None | Some("") => spec.start(),
        Some(fen) => spec.position(fen).map_err(PositionError::Game)?,
    };
    let mut record = AnyRecord::with_start(&spec, start.public()).map_err(PositionError::Game)?;
    for (i, text) in req.moves.iter().enumerate() {
        // Past a rules' end too: people analyse what would have followed a flagged game.
        record.play_text_past_end(text).map_err(|e| PositionError::Move(i, text.clone(), e))?;
    }
    Ok(record)
}

/// The moves that may be played in `game`, each flip once per piece it may reveal.
pub fn legal_moves(game: &AnyGame) -> Vec<LegalMove> {
    if matches!(game.next(), Next::Chance) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for mv in game.legal_moves() {
        let resolved = game.resolutions(mv);
        if resolved.is_empty() {
            out.push(LegalMove::of(game, mv));
            continue;
        }
        let squares = LegalMove::of(game, mv).squares;
        out.extend(resolved.into_iter().map(|(text, _)| LegalMove {
            display: text.clone(),
            mv: text,
            squares: squares.clone(),
            units: Vec::new(),
        }));
    }
    out
}

/// The analysis board's answer for `record`.
pub fn analysed(record: &AnyRecord) -> AnalysedPosition {
    let position = record.position();
    let result = match record.next() {
        Next::Over(o) => Some(GameResult {
            winner: o.winner.map(Seat::from),
            reason: o.reason.as_str().to_string(),
            points: record.points(),
        }),
        _ => None,
    };
    AnalysedPosition {
        game: record.kind(),
        position: PublicPosition::of(&position),
        moves: record
            .moves()
            .into_iter()
            .map(|m| LineMove { mv: m.text, display: m.display })
            .collect(),
        legal: if result.is_some() { Vec::new() } else { legal_moves(&position) },
        result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    fn request(game: GameKind, fen: Option<&str>, moves: &[&str]) -> PositionRequest {
        PositionRequest {
            game,
            options: String::new(),
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// Every listed move replays, and the position after it is the one the rules give.
    #[test]
    fn every_listed_move_is_legal_in_every_game() {
        for kind in GameKind::available_games() {
            let record = record_of(&request(kind, None, &[])).unwrap();
            let answer = analysed(&record);
            assert!(!answer.legal.is_empty(), "{kind:?}");
            for legal in answer.legal.iter().take(40) {
                let mut next = record.clone();
                next.play_text(&legal.mv).unwrap_or_else(|e| panic!("{kind:?} {}: {e}", legal.mv));
                let again = record_of(&request(kind, None, &[&legal.mv])).unwrap();
                assert_eq!(again.position().fen(), next.position().fen());
                assert_eq!(analysed(&again).moves[0].mv, legal.mv);
            }
        }
    }

    /// The analysis board decides what a flip reveals: each flip square is offered once per
    /// piece still face down, and the record keeps the piece.
    #[test]
    fn a_banqi_flip_is_offered_once_per_piece_it_may_reveal() {
        let record = record_of(&request(GameKind::Banqi, None, &[])).unwrap();
        let legal = analysed(&record).legal;
        let on_a1: Vec<&str> =
            legal.iter().filter(|l| l.squares == ["a1"]).map(|l| l.mv.as_str()).collect();
        // Seven kinds of piece in each colour lie face down at the start.
        assert_eq!(on_a1.len(), 14, "{on_a1:?}");
        assert!(on_a1.iter().all(|m| m.starts_with("a1=")), "{on_a1:?}");
        let after = record_of(&request(GameKind::Banqi, None, &[on_a1[0]])).unwrap();
        let shown = analysed(&after);
        assert_eq!(shown.moves[0].mv, on_a1[0]);
        assert_ne!(shown.position.pieces().get("a1").map(String::as_str), Some("X"));
    }

    /// Bad input names what is wrong: the options, the position, or which move and why.
    #[test]
    fn bad_requests_name_what_is_wrong() {
        let err = |req: PositionRequest| record_of(&req).unwrap_err().to_string();
        let mut bad_options = request(GameKind::Xiangqi, None, &[]);
        bad_options.options = "repetition=never".into();
        assert!(err(bad_options).starts_with("invalid options"));
        assert!(
            err(request(GameKind::Xiangqi, Some("rnbakabnr/9"), &[]))
                .starts_with("invalid position")
        );
        let e = err(request(GameKind::Xiangqi, None, &["h2e2", "h2e2"]));
        assert!(e.starts_with("move 2 ('h2e2'): invalid move"), "{e}");
        let long = vec!["h2e2"; MAX_ANALYSIS_MOVES + 1];
        assert_eq!(
            err(request(GameKind::Xiangqi, None, &long)),
            PositionError::TooLong.to_string()
        );
    }

    /// A finished position says how it ended and offers nothing more.
    #[test]
    fn a_mated_position_has_a_result_and_no_moves() {
        // Black's general is mated by two chariots.
        let fen = "3k5/R8/3R5/9/9/9/9/9/9/4K4 b - - 0 1";
        let answer = analysed(&record_of(&request(GameKind::Xiangqi, Some(fen), &[])).unwrap());
        let result = answer.result.expect("over");
        assert_eq!((result.winner, result.reason.as_str()), (Some(Seat::First), "checkmate"));
        assert!(answer.legal.is_empty());
    }
}
