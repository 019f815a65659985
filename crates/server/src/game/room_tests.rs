//! The game room driven without sockets: named rules of play, then random command sequences
//! from both seats and spectators that must keep the room's invariants.

use super::*;
use crate::game::event::Effect;
use crate::game::view;
use cannonade_games::GameKind;
use cannonade_wire::ClockState;
use proptest::prelude::*;

const FIRST: &str = "ann";
const SECOND: &str = "bob";
const WATCHER: &str = "cid";

fn seated(user: &str) -> Seated {
    Seated { user: Some(user.into()), name: user.into(), ai: None, rating: None }
}

fn setup(kind: GameKind, tc: TimeControl) -> Setup {
    let spec = GameSpec::standard(kind);
    let start = spec.start();
    let dealer = match &start {
        AnyGame::Banqi(p) => Some(Dealer::new(p, cannonade_banqi::DealSeed::from_bytes([9; 32]))),
        _ => None,
    };
    Setup {
        id: "g1".into(),
        commitment: dealer.as_ref().map(|d| d.commitment().to_string()),
        spec,
        start,
        rated: false,
        tc,
        players: [seated(FIRST), seated(SECOND)],
        dealer,
        grace_ms: 60_000,
        created_ms: 0,
    }
}

const BLITZ: TimeControl = TimeControl::fischer(60_000, 1_000);

fn room(kind: GameKind) -> GameRoom {
    GameRoom::new(setup(kind, BLITZ)).unwrap()
}

/// Decides `cmd` and applies its events at `now`; returns the decision.
fn run(room: &mut GameRoom, cmd: Command, now: Ms) -> Result<Decision, Refusal> {
    let d = room.decide(&cmd)?;
    for e in &d.events {
        room.apply(e, now).unwrap();
    }
    Ok(d)
}

fn mv(user: &str, ply: u32, text: &str, at: Ms) -> Command {
    Command::Move { user: user.into(), ply, mv: text.into(), at }
}

fn code(r: Result<Decision, Refusal>) -> ErrorCode {
    r.err().map(|(c, _)| c).unwrap_or_else(|| panic!("not refused"))
}

#[test]
fn only_the_seated_player_moves() {
    let mut r = room(GameKind::Xiangqi);
    assert_eq!(code(run(&mut r, mv(SECOND, 0, "h7e7", 0), 0)), ErrorCode::NotYourTurn);
    assert_eq!(code(run(&mut r, mv(WATCHER, 0, "h2e2", 0), 0)), ErrorCode::Forbidden);
    assert_eq!(code(run(&mut r, mv(FIRST, 1, "h2e2", 0), 0)), ErrorCode::StalePly);
    assert_eq!(code(run(&mut r, mv(FIRST, 0, "h2h8", 0), 0)), ErrorCode::IllegalMove);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    assert_eq!((r.version(), r.moves().len()), (1, 1));
    assert_eq!(r.moves()[0].display, "C2=5");
}

/// Deciding changes nothing: the room is the same until the events are applied.
#[test]
fn deciding_changes_nothing() {
    let r = room(GameKind::Xiangqi);
    let d = r.decide(&mv(FIRST, 0, "h2e2", 0)).unwrap();
    assert_eq!(d.events.len(), 1);
    assert_eq!((r.version(), r.moves().len()), (0, 0));
}

/// The time between receiving a move and telling the opponent (storing it) is nobody's:
/// the mover is charged to the receipt, the opponent from the apply.
#[test]
fn the_opponents_clock_starts_when_the_move_is_applied() {
    let mut r = room(GameKind::Xiangqi);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    // Second's move arrives at 5 s and is stored and told at 40 s.
    run(&mut r, mv(SECOND, 1, "h9g7", 5_000), 40_000).unwrap();
    assert_eq!(r.clock().remaining(Side::Second, 40_000), 60_000 - 5_000 + 1_000);
    assert_eq!(r.clock().remaining(Side::First, 40_000), 60_000);
    assert_eq!(r.clock().remaining(Side::First, 41_000), 59_000);
}

#[test]
fn a_move_after_the_flag_ends_the_game_on_time_and_is_refused() {
    let mut r = room(GameKind::Xiangqi);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    let d = run(&mut r, mv(SECOND, 1, "h9g7", 61_000), 61_000).unwrap();
    assert_eq!(d.reply.map(|(c, _)| c), Some(ErrorCode::GameOver));
    let result = r.result().unwrap();
    assert_eq!((result.winner, result.reason.as_str()), (Some(Seat::First), "time"));
}

/// An untimed game left alone ends, called off and won by nobody; a timed one does not
/// (its clocks end it), and an ended one accepts nothing.
#[test]
fn an_idle_untimed_game_is_called_off() {
    let untimed = TimeControl::fischer(0, 0);
    let mut r = GameRoom::new(setup(GameKind::Xiangqi, untimed)).unwrap();
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    run(&mut r, mv(SECOND, 1, "h9g7", 10), 10).unwrap();
    run(&mut r, Command::Idle { at: 20 }, 20).unwrap();
    let result = r.result().unwrap();
    assert_eq!((result.winner, result.reason.as_str()), (None, "aborted"));
    assert_eq!(code(run(&mut r, Command::Idle { at: 30 }, 30)), ErrorCode::GameOver);
    let mut timed = room(GameKind::Xiangqi);
    assert_eq!(code(run(&mut timed, Command::Idle { at: 0 }, 0)), ErrorCode::Invalid);
    assert!(timed.result().is_none());
}

#[test]
fn a_tick_past_the_deadline_ends_the_game() {
    let mut r = room(GameKind::Xiangqi);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    assert_eq!(r.deadline(), Some(60_000));
    assert!(run(&mut r, Command::Tick { at: 59_999 }, 59_999).unwrap().events.is_empty());
    run(&mut r, Command::Tick { at: 60_000 }, 60_000).unwrap();
    assert_eq!(r.result().map(|r| r.reason.as_str()), Some("time"));
    assert_eq!(r.deadline(), None);
}

#[test]
fn a_mating_move_ends_the_game_with_it() {
    let mut s = setup(GameKind::Xiangqi, BLITZ);
    s.start = s.spec.position("4k4/R8/1R7/9/9/9/9/9/9/3K5 w").unwrap();
    let mut r = GameRoom::new(s).unwrap();
    let d = run(&mut r, mv(FIRST, 0, "b7b9", 0), 0).unwrap();
    assert_eq!(d.events.len(), 2, "the move and the end, stored together");
    assert_eq!(r.result().map(|r| r.reason.as_str()), Some("checkmate"));
}

#[test]
fn offers_take_two_and_lapse_with_a_move() {
    let mut r = room(GameKind::Xiangqi);
    let offer = |user: &str, kind| Command::Offer { user: user.into(), kind, at: 0 };
    run(&mut r, offer(FIRST, OfferKind::Draw), 0).unwrap();
    assert_eq!(code(run(&mut r, offer(FIRST, OfferKind::Draw), 0)), ErrorCode::Invalid);
    assert_eq!(code(run(&mut r, offer(WATCHER, OfferKind::Draw), 0)), ErrorCode::Forbidden);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    assert!(r.offers().is_empty());
    run(&mut r, offer(SECOND, OfferKind::Draw), 0).unwrap();
    let accept = Command::Accept { user: FIRST.into(), kind: OfferKind::Draw, at: 10 };
    run(&mut r, accept, 10).unwrap();
    assert_eq!(r.result().map(|r| r.reason.as_str()), Some("agreement"));
}

#[test]
fn a_takeback_reopens_the_ply_and_its_proposals() {
    let mut r = room(GameKind::Xiangqi);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    run(&mut r, mv(SECOND, 1, "h9g7", 100), 100).unwrap();
    let propose = Command::Propose { user: WATCHER.into(), ply: 2, mv: "b0c2".into() };
    run(&mut r, propose, 200).unwrap();
    assert_eq!(r.proposals().tally().len(), 1);
    let offer = Command::Offer { user: SECOND.into(), kind: OfferKind::Takeback, at: 300 };
    run(&mut r, offer, 300).unwrap();
    let accept = Command::Accept { user: FIRST.into(), kind: OfferKind::Takeback, at: 400 };
    let d = run(&mut r, accept, 400).unwrap();
    assert!(d.effects.contains(&Effect::ClearProposals));
    assert_eq!(r.moves().len(), 1);
    assert_eq!(r.record().position().mover(), Side::Second);
    assert_eq!(r.clock().running(), Some(Side::Second));
    assert!(r.proposals().tally().is_empty());
}

#[test]
fn a_claim_waits_for_the_grace_period() {
    let mut r = room(GameKind::Xiangqi);
    let claim =
        |at, since| Command::Claim { user: FIRST.into(), at, opponent_offline_since: since };
    assert_eq!(code(run(&mut r, claim(0, None), 0)), ErrorCode::Invalid);
    assert_eq!(code(run(&mut r, claim(59_999, Some(0)), 59_999)), ErrorCode::Invalid);
    run(&mut r, claim(60_000, Some(0)), 60_000).unwrap();
    assert_eq!(r.result().map(|r| r.reason.as_str()), Some("abandonment"));
}

#[test]
fn nobody_claims_a_correspondence_game_for_absence() {
    let mut r = GameRoom::new(setup(GameKind::Xiangqi, TimeControl::correspondence(3))).unwrap();
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    let week = 7 * cannonade_wire::DAY_MS;
    let claim = Command::Claim { user: FIRST.into(), at: week, opponent_offline_since: Some(0) };
    assert_eq!(code(run(&mut r, claim, week)), ErrorCode::Invalid);
    assert_eq!(r.result(), None);
}

/// A correspondence game played with its moves stamped as the shell stores them (wall-clock
/// ms), two moves in: the second seat's move at `wall`, so First's days run from there.
fn correspondence_history(days: u32, wall: i64) -> Vec<StoredEvent> {
    let mut live =
        GameRoom::new(setup(GameKind::Xiangqi, TimeControl::correspondence(days))).unwrap();
    let mut stored = Vec::new();
    for (i, (user, text)) in [(FIRST, "h2e2"), (SECOND, "h9g7")].into_iter().enumerate() {
        let d = run(&mut live, mv(user, i as u32, text, 1_000), 1_000).unwrap();
        stored.extend(d.events.into_iter().filter_map(|e| match e {
            Event::Game(g) => Some(g.stamped(wall - 1_000 + i as i64 * 1_000)),
            _ => None,
        }));
    }
    stored
}

fn restore_at(days: u32, events: Vec<StoredEvent>, now: Ms, wall_now: i64) -> GameRoom {
    let setup = setup(GameKind::Xiangqi, TimeControl::correspondence(days));
    let history = History { events, ..History::default() };
    GameRoom::restore(setup, history, now, wall_now, |_, _| {}).unwrap()
}

#[test]
fn a_restored_correspondence_game_charges_the_wall_clock_time_since_the_last_move() {
    let day = cannonade_wire::DAY_MS as i64;
    let wall = 1_764_000_000_000;
    // The server went down and came back 30 hours after Second's move; its monotonic
    // clock starts again near zero.
    let r = restore_at(3, correspondence_history(3, wall), 5, wall + day + 6 * 3_600_000);
    assert_eq!(r.clock().running(), Some(Side::First));
    let left = 3 * cannonade_wire::DAY_MS - cannonade_wire::DAY_MS - 6 * 3_600_000;
    assert_eq!(r.clock().remaining(Side::First, 5), left);
    assert_eq!(r.clock().remaining(Side::Second, 5), 3 * cannonade_wire::DAY_MS);
    assert_eq!(r.deadline(), Some(5 + left));
}

#[test]
fn a_correspondence_clock_that_ran_out_while_the_server_was_down_ends_on_time_at_restore() {
    let day = cannonade_wire::DAY_MS as i64;
    let wall = 1_764_000_000_000;
    let mut r = restore_at(1, correspondence_history(1, wall), 5, wall + 2 * day);
    assert_eq!(r.clock().remaining(Side::First, 5), 0);
    assert_eq!(r.deadline(), Some(5));
    let d = run(&mut r, Command::Tick { at: 5 }, 5).unwrap();
    assert!(!d.events.is_empty());
    let result = r.result().unwrap();
    assert_eq!((result.winner, result.reason.as_str()), (Some(Seat::Second), "time"));
}

#[test]
fn chat_goes_to_the_room_of_the_writer() {
    let r = room(GameKind::Xiangqi);
    let chat = |user: &str, text: &str| Command::Chat {
        user: user.into(),
        name: user.into(),
        text: text.into(),
    };
    let room_of = |d: Decision| match &d.events[0] {
        Event::Chat(line) => line.room,
        other => panic!("{other:?}"),
    };
    assert_eq!(room_of(r.decide(&chat(FIRST, "gl")).unwrap()), Room::Players);
    assert_eq!(room_of(r.decide(&chat(WATCHER, "wow")).unwrap()), Room::Spectators);
    assert_eq!(code(r.decide(&chat(FIRST, "   "))), ErrorCode::Invalid);
    assert_eq!(code(r.decide(&chat(FIRST, &"x".repeat(MAX_CHAT_CHARS + 1)))), ErrorCode::Invalid);
}

/// Hardening finding 6: NUL and U+202E (right-to-left override) were accepted.
#[test]
fn chat_refuses_control_and_direction_characters() {
    let r = room(GameKind::Xiangqi);
    let chat =
        |text: &str| Command::Chat { user: FIRST.into(), name: FIRST.into(), text: text.into() };
    for bad in ["a\0b", "gg \u{202E}0-1", "two\nlines", "\u{2066}x", "bell\u{7}"] {
        assert_eq!(code(r.decide(&chat(bad))), ErrorCode::Invalid, "{bad:?}");
    }
    // Other scripts, emoji and joiners are fine.
    for good in ["好棋", "Cờ tư lệnh", "👍🏽", "ok!"] {
        assert!(r.decide(&chat(good)).is_ok(), "{good:?}");
    }
}

/// Hardening finding 6: flip, take back, flip elsewhere revealed the deal piece by piece.
#[test]
fn a_banqi_flip_cannot_be_taken_back() {
    let mut r = room(GameKind::Banqi);
    run(&mut r, mv(FIRST, 0, "a1?", 0), 0).unwrap();
    run(&mut r, mv(SECOND, 1, "h4?", 100), 100).unwrap();
    assert!(r.record().moves().iter().all(|m| m.revealed));
    for user in [FIRST, SECOND] {
        let offer = Command::Offer { user: user.into(), kind: OfferKind::Takeback, at: 200 };
        assert_eq!(code(run(&mut r, offer, 200)), ErrorCode::Invalid);
    }
    assert_eq!(r.moves().len(), 2);
    // Against the engine (which takes back at once) and in hot-seat play the same.
    let mut s = setup(GameKind::Banqi, BLITZ);
    s.players[1] = seated(FIRST);
    let mut hotseat = GameRoom::new(s).unwrap();
    run(&mut hotseat, mv(FIRST, 0, "a1?", 0), 0).unwrap();
    let offer = Command::Offer { user: FIRST.into(), kind: OfferKind::Takeback, at: 10 };
    assert_eq!(code(run(&mut hotseat, offer, 10)), ErrorCode::Invalid);
}

#[test]
fn held_clocks_stop_and_moves_wait() {
    let mut r = room(GameKind::Xiangqi);
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
    r.pause(1_000);
    assert_eq!(r.deadline(), None);
    assert_eq!(code(run(&mut r, mv(SECOND, 1, "h9g7", 2_000), 2_000)), ErrorCode::Storage);
    r.resume(30_000);
    assert_eq!(r.clock().remaining(Side::Second, 30_000), 59_000);
    run(&mut r, mv(SECOND, 1, "h9g7", 31_000), 31_000).unwrap();
}

#[test]
fn restore_is_live_play_applied_again() {
    let mut live = room(GameKind::Banqi);
    let mut stored = Vec::new();
    for (i, sq) in ["a1?", "h4?", "d2?", "e3?"].iter().enumerate() {
        let user = if i % 2 == 0 { FIRST } else { SECOND };
        let d = run(&mut live, mv(user, i as u32, sq, i as u64 * 100), i as u64 * 100).unwrap();
        stored.extend(d.events.into_iter().filter_map(|e| match e {
            Event::Game(g) => Some(g),
            _ => None,
        }));
    }
    let history = History { events: stored, ..History::default() };
    let restored =
        GameRoom::restore(setup(GameKind::Banqi, BLITZ), history, 1_000, 0, |_, _| {}).unwrap();
    assert_eq!(restored.moves(), live.moves());
    assert_eq!(restored.version(), live.version());
    assert_eq!(restored.record().position(), live.record().position());
    assert_eq!(
        restored.clock().remaining(Side::First, 1_000),
        live.clock().remaining(Side::First, 300)
    );
}

// ---- Random play ----

/// One random request: who (0 first seat, 1 second, 2 and 3 spectators), what, a pick among
/// the choices, and how many milliseconds pass before it.
#[derive(Clone, Debug)]
struct Step {
    who: u8,
    what: u8,
    pick: u16,
    wait: u16,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (0u8..4, 0u8..12, any::<u16>(), 0u16..4000).prop_map(|(who, what, pick, wait)| Step {
            who,
            what,
            pick,
            wait,
        }),
        1..120,
    )
}

const USERS: [&str; 4] = [FIRST, SECOND, WATCHER, "dan"];

/// The command of a step in `room` at `at`.
fn command(room: &GameRoom, s: &Step, at: Ms) -> Command {
    let user = USERS[s.who as usize].to_string();
    let ply = room.moves().len() as u32;
    let legal = {
        let pos = room.record().position();
        let moves = pos.legal_moves();
        moves.get(s.pick as usize % moves.len().max(1)).map(|&m| pos.move_text(m))
    };
    let kind = [OfferKind::Draw, OfferKind::Takeback, OfferKind::Rematch][s.pick as usize % 3];
    match s.what {
        0..=4 => Command::Move { user, ply, mv: legal.unwrap_or_default(), at },
        5 => Command::Move { user, ply: ply + (s.pick % 2) as u32, mv: "zz9".into(), at },
        6 => Command::Propose { user, ply, mv: legal.unwrap_or_default() },
        7 => Command::Offer { user, kind, at },
        8 => Command::Accept { user, kind, at },
        9 => Command::Chat { name: user.clone(), user, text: format!("line {}", s.pick) },
        10 if s.pick.is_multiple_of(5) => Command::Idle { at },
        10 => Command::Tick { at },
        _ => match s.pick % 3 {
            0 => Command::Resign { user, at },
            1 => Command::Abort { user, at },
            _ => Command::Decline { user, kind },
        },
    }
}

/// The user of a command, if it names one.
fn user_of(cmd: &Command) -> Option<&str> {
    match cmd {
        Command::Move { user, .. }
        | Command::Propose { user, .. }
        | Command::Resign { user, .. }
        | Command::Abort { user, .. }
        | Command::Claim { user, .. }
        | Command::Offer { user, .. }
        | Command::Accept { user, .. }
        | Command::Decline { user, .. }
        | Command::Chat { user, .. } => Some(user),
        _ => None,
    }
}

fn check_random_play(kind: GameKind, steps: &[Step]) {
    let mut room = room(kind);
    let hidden = room.setup().dealer.as_ref().map(|d| (d.reveal_seed(), ()));
    let mut now: Ms = 0;
    for s in steps {
        now += s.wait as Ms;
        let cmd = command(&room, s, now);
        let before_clock = room.clock().clone();
        let over_before = room.result().is_some();
        let before_moves = room.moves().len();
        let Ok(decision) = room.decide(&cmd) else { continue };
        for e in &decision.events {
            if let Event::Game(StoredEvent::Moved { info, .. }) = e {
                // Only the seated player moves.
                let user = user_of(&cmd).expect("a move comes from a user");
                assert!(room.role_of(user).holds(info.seat), "{user} moved for {:?}", info.seat);
            }
            if over_before {
                // A finished game accepts nothing but chat and the rematch.
                let allowed = match e {
                    Event::Chat(_) => true,
                    Event::Game(
                        StoredEvent::Offered { kind, .. } | StoredEvent::Declined { kind, .. },
                    ) => *kind == OfferKind::Rematch,
                    Event::Game(StoredEvent::Rematch { .. }) => true,
                    _ => false,
                };
                assert!(allowed, "after the end: {e:?}");
            }
            room.apply(e, now).unwrap();
            if let Event::Game(g) = e {
                let frame = view::event_frame(&room, g);
                let text = frame.as_str();
                // What a player gets: no proposal, tally or score …
                for word in ["\"reveal\"", "\"counts\"", "\"tally\"", "\"score\""] {
                    assert!(!text.contains(word), "{word} in a player's frame: {text}");
                }
                // … and in Banqi nothing of the deal: no seed before the end, and no piece
                // face up that no flip revealed.
                if let Some((seed, _)) = &hidden {
                    let ended = matches!(g, StoredEvent::Ended { .. });
                    assert_eq!(text.contains(seed.as_str()), ended, "{text}");
                    let json: serde_json::Value = serde_json::from_str(text).unwrap();
                    if let Some(pieces) = json["event"]["position"]["pieces"].as_object() {
                        let up = pieces.values().filter(|p| p.as_str() != Some("X")).count();
                        let flips = room.moves().iter().filter(|m| m.mv.contains('=')).count();
                        assert!(up <= flips, "{up} pieces face up after {flips} flips: {text}");
                    }
                }
            }
        }
        // Clocks never run backwards: a seat gains time only by its increment, on its move.
        for side in [Side::First, Side::Second] {
            let was = before_clock.remaining(side, now);
            let is = room.clock().remaining(side, now);
            let moved = room.moves().len() > before_moves
                && room.moves().last().is_some_and(|m| Side::from(m.seat) == side);
            let undone = room.moves().len() < before_moves;
            if !moved && !undone {
                assert!(is <= was, "{side:?} went from {was} to {is}");
            } else if moved {
                assert!(is <= was + BLITZ.increment_ms, "{side:?} went from {was} to {is}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_invariants_in_xiangqi(steps in steps()) {
        check_random_play(GameKind::Xiangqi, &steps);
    }

    #[test]
    fn random_play_keeps_the_invariants_in_banqi(steps in steps()) {
        check_random_play(GameKind::Banqi, &steps);
    }

    #[test]
    fn random_play_keeps_the_invariants_in_chess_battle(steps in steps()) {
        check_random_play(GameKind::ChessBattle, &steps);
    }

    #[test]
    fn random_play_keeps_the_invariants_in_commander(steps in steps()) {
        check_random_play(GameKind::Commander, &steps);
    }
}

#[test]
fn a_stored_clock_state_names_who_runs() {
    let mut r = room(GameKind::Xiangqi);
    let d = r.decide(&mv(FIRST, 0, "h2e2", 0)).unwrap();
    let Event::Game(StoredEvent::Moved { clock, .. }) = &d.events[0] else { panic!() };
    assert_eq!(
        *clock,
        ClockState { remaining_ms: [60_000, 60_000], running: Some(Seat::Second), game_ms: None }
    );
    run(&mut r, mv(FIRST, 0, "h2e2", 0), 0).unwrap();
}
