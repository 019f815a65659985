//! The registry: every game Cannonade plays, one line each (and its rules crate named in
//! [`reexport`]). Everything over all games — the
//! names ([`crate::GameKind`]), positions ([`crate::AnyGame`]), moves ([`crate::AnyMove`]),
//! histories ([`crate::AnyHistory`]) and the dispatch macros [`crate::each_game`] and
//! [`crate::each_history`] — is generated from this list, so a fifth game is its own rules
//! crate (implementing `cannonade_core::Game`) plus one line here.

/// The rules crates of the registered games, for the registry's macros (so a crate that
/// expands them needs no dependency of its own on each game).
#[doc(hidden)]
pub mod reexport {
    pub use cannonade_banqi as banqi;
    pub use cannonade_battle as battle;
    pub use cannonade_commander as commander;
    pub use cannonade_xiangqi as xiangqi;
}

/// Calls the macro `$callback` with `($args)` and then the registry, one entry per game:
/// `Kind => PositionType;`, or `Kind => PublicType, Dealt => HiddenType;` for a game whose
/// positions can hold secrets (the hidden type implements `cannonade_core::Hidden`).
#[doc(hidden)]
#[macro_export]
macro_rules! registry {
    ($($callback:tt)::+ $(, $($args:tt)*)?) => {
        $($callback)::+! {
            ($($($args)*)?)
            Xiangqi => $crate::reexport::xiangqi::Position;
            Banqi => $crate::reexport::banqi::Position, BanqiDealt => $crate::reexport::banqi::FullPosition;
            ChessBattle => $crate::reexport::battle::Position;
            Commander => $crate::reexport::commander::Position;
        }
    };
}

/// Runs `$body` with `$p` bound to whichever position an [`crate::AnyGame`] holds (a
/// reference when `$game` is one), monomorphised per game.
///
/// ```
/// use cannonade_core::Rules;
/// use cannonade_games::{AnyGame, GameKind, each_game};
/// let game = AnyGame::start(GameKind::Commander).unwrap();
/// let n = each_game!(&game, p => p.count_legal());
/// assert_eq!(n, 116);
/// ```
#[macro_export]
macro_rules! each_game {
    ($game:expr, $p:ident => $body:expr) => {
        $crate::registry!($crate::__each_game_arms, $game, $p => $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __each_game_arms {
    (($game:expr, $p:ident => $body:expr)
     $($kind:ident => $ty:ty $(, $dealt:ident => $dty:ty)?;)*) => {
        match $game {
            $(
                $crate::AnyGame::$kind($p) => $body,
                $($crate::AnyGame::$dealt($p) => $body,)?
            )*
        }
    };
}

/// Runs `$body` with `$r` bound to the `cannonade_core::Record` an [`crate::AnyHistory`]
/// holds, monomorphised per game.
///
/// ```
/// use cannonade_games::{AnyRecord, GameKind, GameSpec, each_history};
/// let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
/// let n = each_history!(record.history(), r => r.positions().len());
/// assert_eq!(n, 1);
/// ```
#[macro_export]
macro_rules! each_history {
    ($history:expr, $r:ident => $body:expr) => {
        $crate::registry!($crate::__each_history_arms, $history, $r => $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __each_history_arms {
    (($history:expr, $r:ident => $body:expr)
     $($kind:ident => $ty:ty $(, $dealt:ident => $dty:ty)?;)*) => {
        match $history {
            $(
                $crate::AnyHistory::$kind($r) => $body,
                $($crate::AnyHistory::$dealt($r) => $body,)?
            )*
        }
    };
}
