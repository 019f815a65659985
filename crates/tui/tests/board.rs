//! The terminal board driven by key presses and drawn on ratatui's `TestBackend`, for every
//! game this build plays.

use cannonade_core::Next;
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use cannonade_tui::{App, Cell, Mode, Seat, draw, local_start};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::Duration;

const HOT_SEAT: [Seat; 2] = [Seat::Human, Seat::Human];

fn app(kind: GameKind) -> App {
    App::new(AnyRecord::new(local_start(kind).unwrap()), HOT_SEAT)
}

fn app_at(kind: GameKind, fen: &str) -> App {
    App::new(AnyRecord::new(AnyGame::from_fen(kind, fen).unwrap()), HOT_SEAT)
}

/// The screen as text, one string per row.
fn screen(app: &App, width: u16, height: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    (0..height)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < width {
                let symbol = buffer[(x, y)].symbol();
                row.push_str(symbol);
                // A wide character covers the next cell too.
                x += ratatui::text::Span::raw(symbol).width().max(1) as u16;
            }
            row
        })
        .collect()
}

fn text(app: &App) -> String {
    screen(app, 100, 32).join("\n")
}

/// Moves the cursor to a square with the arrow keys (the board not turned round).
fn goto(app: &mut App, cell: Cell) {
    for _ in 0..64 {
        let c = app.cursor();
        let key = if c.file < cell.file {
            KeyCode::Right
        } else if c.file > cell.file {
            KeyCode::Left
        } else if c.rank < cell.rank {
            KeyCode::Up
        } else if c.rank > cell.rank {
            KeyCode::Down
        } else {
            return;
        };
        app.press(key);
        // A missing square on the way (Chess-Battle corners) is skipped by the cursor.
        if app.cursor() == c {
            let detour = if c.rank < 6 { KeyCode::Up } else { KeyCode::Down };
            app.press(detour);
        }
    }
    assert_eq!(app.cursor(), cell, "cursor did not reach the square");
}

/// Moves the cursor to the square with this name.
fn go(app: &mut App, name: &str) {
    let cell = square(app, name);
    goto(app, cell);
}

fn square(app: &App, name: &str) -> Cell {
    app.geometry().parse(name).unwrap_or_else(|| panic!("no square {name}"))
}

#[test]
fn every_game_draws_its_board_title_and_turn() {
    for kind in GameKind::available_games() {
        let a = app(kind);
        let s = text(&a);
        assert!(s.contains(kind.title()), "{kind}:\n{s}");
        assert!(s.contains("to move"), "{kind}:\n{s}");
        let g = a.geometry();
        let files: String = (0..g.files).map(|f| (b'a' + f) as char).collect();
        let letters_row =
            s.lines().any(|l| l.split_whitespace().collect::<String>().contains(&files));
        assert!(letters_row, "{kind}: file letters missing\n{s}");
    }
}

#[test]
fn every_game_redraws_at_any_window_size_without_panicking() {
    for kind in GameKind::available_games() {
        let a = app(kind);
        for (w, h) in
            [(200, 60), (100, 32), (80, 24), (60, 20), (45, 14), (40, 12), (20, 5), (1, 1)]
        {
            let rows = screen(&a, w, h);
            assert_eq!(rows.len(), h as usize);
        }
        let tiny = screen(&a, 30, 10).join("\n");
        assert!(tiny.contains("Window too small"), "{tiny}");
        // Without room for the side panel the board still shows.
        let narrow = screen(&a, 60, 20).join("\n");
        assert!(narrow.contains(kind.title()) && !narrow.contains("Moves"), "{narrow}");
    }
}

#[test]
fn every_game_plays_a_move_by_cursor_and_enter() {
    for kind in GameKind::available_games() {
        let mut a = app(kind);
        let choice = a.choices().first().cloned().unwrap();
        let (from, target) = (choice.from().unwrap(), choice.target().unwrap());
        // The other moves with the same squares are offered in a list: take the first.
        goto(&mut a, from);
        a.press(KeyCode::Enter);
        if from != target {
            assert_eq!(a.selected(), Some(from), "{kind}");
            let marked = text(&a);
            assert!(marked.contains("selected"), "{kind}:\n{marked}");
            goto(&mut a, target);
            a.press(KeyCode::Enter);
        }
        if let Mode::Picker { .. } = a.mode() {
            a.press(KeyCode::Enter);
        }
        assert_eq!(a.record().len(), 1, "{kind}: no move played");
        // Exactly the chosen move (a dealt Banqi start reveals the same piece again).
        let mut expected = a.record().start();
        expected.play(choice.mv).unwrap();
        assert_eq!(a.record().position(), expected, "{kind}");
        let s = text(&a);
        assert!(s.contains("Moves (1)"), "{kind}:\n{s}");
    }
}

#[test]
fn legal_targets_are_marked_and_an_illegal_target_is_refused() {
    let mut a = app(GameKind::Xiangqi);
    go(&mut a, "b2");
    a.press(KeyCode::Enter);
    let s = text(&a);
    // The cannon on b2 reaches b3..b6 and c2..g2 on empty points, each marked.
    assert!(s.matches('•').count() >= 9, "{s}");
    go(&mut a, "c4");
    a.press(KeyCode::Enter);
    assert_eq!(a.record().len(), 0);
    let msg = a.message().unwrap();
    assert!(msg.error && msg.text.contains("not a legal move"), "{msg:?}");
    // Esc drops the piece.
    a.press(KeyCode::Esc);
    assert_eq!(a.selected(), None);
}

#[test]
fn a_typed_move_is_played_and_bad_text_gives_a_message() {
    let mut a = app(GameKind::Xiangqi);
    for bad in ["h2h8", "zzz", "h2e2e2e2", "\u{1F600}"] {
        a.press(KeyCode::Char(':'));
        a.type_text(bad);
        a.press(KeyCode::Enter);
        assert_eq!(a.record().len(), 0, "{bad}");
        assert!(a.message().is_some_and(|m| m.error), "{bad}");
        assert!(text(&a).contains(bad), "the message names the text");
    }
    a.press(KeyCode::Char(':'));
    a.type_text("h2e2");
    a.press(KeyCode::Enter);
    assert_eq!(a.record().moves_text(), ["h2e2"]);
    // WXF is a notation of the game too.
    a.press(KeyCode::Char(':'));
    a.type_text("H8+7");
    a.press(KeyCode::Enter);
    assert_eq!(a.record().moves_text(), ["h2e2", "h9g7"]);
    let s = text(&a);
    assert!(s.contains("C2=5") && s.contains("H8+7"), "the list shows WXF:\n{s}");
    // Esc leaves the line without playing.
    a.press(KeyCode::Char(':'));
    a.type_text("a0a1");
    a.press(KeyCode::Esc);
    assert_eq!(a.record().len(), 2);
}

#[test]
fn banqi_flips_with_one_enter_and_shows_only_the_public_board() {
    let mut a = app(GameKind::Banqi);
    let before = text(&a);
    // 32 on the board, and one in the legend of the side panel.
    assert_eq!(before.matches("▓▓").count(), 32 + 1, "{before}");
    // The local game holds a deal; the screen never shows it.
    assert_ne!(a.record().position(), a.record().position().public());
    a.press(KeyCode::Enter);
    assert_eq!(a.record().len(), 1);
    let after = text(&a);
    assert_eq!(after.matches("▓▓").count(), 31 + 1, "{after}");
    assert!(after.contains("=") && after.contains("(red)") && after.contains("(black)"), "{after}");
    // With letters instead of Chinese pieces the face-down pieces are '?'.
    a.press(KeyCode::Char('g'));
    let letters = text(&a);
    assert_eq!(
        letters.matches('?').count(),
        31 + 2,
        "31 on the board, the legend's and the keys line's:\n{letters}"
    );
}

#[test]
fn a_typed_banqi_flip_cannot_choose_the_piece() {
    let mut a = app(GameKind::Banqi);
    let dealt = a.record().position();
    a.press(KeyCode::Char(':'));
    a.type_text("a1?");
    a.press(KeyCode::Enter);
    assert_eq!(a.record().len(), 1);
    let mut expected = dealt;
    let flip = expected.parse_move("a1?").unwrap();
    expected.play(flip).unwrap();
    assert_eq!(a.record().position(), expected, "the deal decides the piece");
}

#[test]
fn chess_battle_last_rank_removal_is_chosen_from_a_list() {
    // Example 9 of the rules: e11-e12 may remove a5, d12 or f12.
    let mut a = app_at(GameKind::ChessBattle, "1c1th3/2S5/12/12/12/12/12/m11/12/12/7S/4H3 r 0 1");
    go(&mut a, "e11");
    a.press(KeyCode::Enter);
    go(&mut a, "e12");
    a.press(KeyCode::Enter);
    let Mode::Picker { options, .. } = a.mode().clone() else { panic!("no list") };
    assert_eq!(options.len(), 3);
    let s = text(&a);
    let texts: Vec<&str> = options.iter().map(|&i| a.choices()[i].text.as_str()).collect();
    assert_eq!(texts, ["e11-e12@a5", "e11-e12@d12", "e11-e12@f12"]);
    // Each is listed as people read it.
    for &i in &options {
        let shown = &a.choices()[i].display;
        assert!(s.contains(shown.as_str()), "{shown} missing:\n{s}");
    }
    // The highlighted choice marks the piece it removes.
    assert!(s.contains('×'), "{s}");
    a.press(KeyCode::Down);
    a.press(KeyCode::Enter);
    assert_eq!(a.record().moves_text(), ["e11-e12@d12"]);
}

#[test]
fn chess_battle_shot_is_played_from_the_board() {
    // Example 2: the gun on e5 shoots a9.
    let mut a =
        app_at(GameKind::ChessBattle, "4h3/8/4c7/s7s3/7t4/12/12/s3G4m1s/12/2s1s7/8/4H3 r 0 1");
    go(&mut a, "e5");
    a.press(KeyCode::Enter);
    go(&mut a, "a9");
    a.press(KeyCode::Enter);
    assert_eq!(a.record().moves_text(), ["e5*a9"]);
    // The gun stayed, the target is gone.
    assert!(a.occupied(square(&a, "e5")) && !a.occupied(square(&a, "a9")));
}

#[test]
fn the_chess_battle_cross_has_no_corners() {
    let a = app(GameKind::ChessBattle);
    let g = a.geometry();
    assert!(!g.exists(Cell { file: 0, rank: 0 }));
    // The cursor never stops on a missing corner.
    let mut b = app(GameKind::ChessBattle);
    for _ in 0..20 {
        b.press(KeyCode::Left);
        b.press(KeyCode::Down);
        assert!(b.geometry().exists(b.cursor()));
    }
    // Rank 1 is drawn with eight pieces and two blank squares either side.
    let s = text(&a);
    let rank1 =
        s.lines().find(|l| l.trim_start_matches('│').trim_start().starts_with("1 ")).unwrap();
    assert!(rank1.contains("G  C  M  B  H  M  C  G") || rank1.contains('G'), "{rank1}");
}

#[test]
fn xiangqi_draws_the_river_and_the_palaces() {
    let a = app(GameKind::Xiangqi);
    let s = text(&a);
    assert!(s.contains("楚 河") && s.contains("漢 界"), "{s}");
    assert!(s.contains('╳'), "palace centres are marked:\n{s}");
    assert!(s.contains('帥') && s.contains('將'));
    let mut b = app(GameKind::Xiangqi);
    b.press(KeyCode::Char('g'));
    let letters = text(&b);
    assert!(letters.contains('K') && letters.contains('k') && !letters.contains('帥'), "{letters}");
}

#[test]
fn turning_the_board_puts_the_second_seat_at_the_bottom() {
    let mut a = app(GameKind::Xiangqi);
    let rank_rows = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.trim_start_matches('│').split_whitespace().next().map(String::from))
            .filter(|w| w.parse::<u8>().is_ok())
            .collect()
    };
    assert_eq!(rank_rows(&text(&a)).first().map(String::as_str), Some("9"));
    a.press(KeyCode::Char('f'));
    assert_eq!(rank_rows(&text(&a)).first().map(String::as_str), Some("0"));
    // Arrow keys follow the screen: Up on a turned board goes towards rank 0.
    let before = a.cursor();
    a.press(KeyCode::Up);
    assert!(a.cursor().rank < before.rank || before.rank == 0);
}

#[test]
fn undo_takes_back_moves() {
    let mut a = app(GameKind::Xiangqi);
    a.press(KeyCode::Char('u'));
    assert!(a.message().is_some_and(|m| m.error && m.text.contains("Nothing")));
    for mv in ["h2e2", "h9g7"] {
        a.press(KeyCode::Char(':'));
        a.type_text(mv);
        a.press(KeyCode::Enter);
    }
    a.press(KeyCode::Char('u'));
    assert_eq!(a.record().moves_text(), ["h2e2"]);
    a.press(KeyCode::Backspace);
    assert!(a.record().is_empty());
}

#[test]
fn the_engine_answers_in_the_background_and_undo_goes_back_to_the_person() {
    for kind in GameKind::available_games() {
        let mut a =
            App::new(AnyRecord::new(local_start(kind).unwrap()), [Seat::Human, Seat::Engine(1)]);
        let c = a.choices()[0].clone();
        a.press(KeyCode::Char(':'));
        a.type_text(&c.text);
        a.press(KeyCode::Enter);
        assert_eq!(a.record().len(), 1, "{kind}");
        a.tick();
        assert!(a.engine_busy() || a.record().len() == 2, "{kind}: the engine did not start");
        if a.engine_busy() {
            let s = text(&a);
            assert!(s.contains("thinking"), "{kind}:\n{s}");
            // Keys still work while it thinks; Enter says whose turn it is.
            a.press(KeyCode::Enter);
            assert!(a.message().is_some_and(|m| m.text.contains("engine")));
        }
        assert!(a.wait_for_engine(Duration::from_secs(20)), "{kind}: no answer");
        assert_eq!(a.record().len(), 2, "{kind}");
        assert!(matches!(a.next(), Next::Player(cannonade_core::Side::First)));
        a.press(KeyCode::Char('u'));
        assert!(a.record().is_empty(), "{kind}: undo goes back to the person's turn");
        assert!(!a.engine_busy());
    }
}

#[test]
fn the_engine_moves_first_when_the_person_takes_the_second_seat() {
    let mut a = App::new(
        AnyRecord::new(local_start(GameKind::Xiangqi).unwrap()),
        [Seat::Engine(1), Seat::Human],
    );
    // The board is seen from the second seat.
    let s = text(&a);
    let first_rank = s.lines().find_map(|l| {
        l.trim_start_matches('│').split_whitespace().next().and_then(|w| w.parse::<u8>().ok())
    });
    assert_eq!(first_rank, Some(0));
    assert!(a.wait_for_engine(Duration::from_secs(20)));
    assert_eq!(a.record().len(), 1);
}

#[test]
fn save_and_load_round_trip_and_a_bad_record_is_a_message() {
    let dir = std::env::temp_dir().join(format!("cannonade-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.pgn");
    let path_text = path.to_string_lossy().to_string();
    let mut a = app(GameKind::Banqi);
    for _ in 0..3 {
        let c = a.choices()[0].clone();
        a.press(KeyCode::Char(':'));
        a.type_text(&c.text);
        a.press(KeyCode::Enter);
    }
    a.press(KeyCode::Char('s'));
    a.handle_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    a.type_text(&path_text);
    a.press(KeyCode::Enter);
    assert!(a.message().is_some_and(|m| !m.error), "{:?}", a.message());
    let saved = a.record().clone();

    let mut b = app(GameKind::Xiangqi);
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "[Variant \"banqi\"]\n\n1. z9-z9 *\n").unwrap();
    b.load(&bad.to_string_lossy());
    let m = b.message().unwrap();
    assert!(m.error && m.text.contains("line 3"), "{m:?}");
    assert_eq!(b.record().kind(), GameKind::Xiangqi, "a bad record changes nothing");
    b.load(&dir.join("missing.txt").to_string_lossy());
    assert!(b.message().is_some_and(|m| m.error));

    b.press(KeyCode::Char('o'));
    b.handle_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    b.type_text(&path_text);
    b.press(KeyCode::Enter);
    assert_eq!(b.record().kind(), GameKind::Banqi);
    assert_eq!(b.record().moves_text(), saved.moves_text());
    assert_eq!(b.record().position(), saved.position(), "the deal comes back too");
    assert!(text(&b).contains("Moves (3)"));

    // Saving where no file can be written is a message, not a crash.
    b.press(KeyCode::Char('s'));
    b.handle_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    b.type_text(&dir.join("no/such/dir/x.txt").to_string_lossy());
    b.press(KeyCode::Enter);
    assert!(b.message().is_some_and(|m| m.error && m.text.contains("Could not save")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stop_signal_saves_the_game_beside_the_save_path_and_quits() {
    let dir = std::env::temp_dir().join(format!("cannonade-tui-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut a = app(GameKind::Xiangqi);
    a.set_save_path(&dir.join("game.pgn").to_string_lossy());
    a.press(KeyCode::Char(':'));
    a.type_text("h2e2");
    a.press(KeyCode::Enter);
    a.interrupt();
    assert!(a.should_quit());
    let saved = dir.join("game-interrupted.pgn");
    assert_eq!(a.interrupted(), Some(&Ok(saved.to_string_lossy().to_string())));
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.lines().any(|l| l == "1. C2=5 *"), "{text}");
    assert!(!dir.join("game.pgn").exists(), "the player's own file is not touched");

    // Where nothing can be written the reason comes back instead of a panic.
    let mut b = app(GameKind::Xiangqi);
    b.set_save_path(&dir.join("no/such/dir/game.txt").to_string_lossy());
    b.interrupt();
    assert!(matches!(b.interrupted(), Some(Err(reason)) if reason.contains("could not save")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_end_of_the_game_is_shown_with_its_reason() {
    let mut a = app_at(GameKind::Xiangqi, "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1");
    a.press(KeyCode::Char(':'));
    a.type_text("b1b9");
    a.press(KeyCode::Enter);
    let s = text(&a);
    assert!(s.contains("Game over: Red wins by checkmate"), "{s}");
    a.press(KeyCode::Enter);
    assert!(a.message().is_some_and(|m| m.error && m.text.contains("over")));
    a.press(KeyCode::Char(':'));
    a.type_text("e9e8");
    a.press(KeyCode::Enter);
    assert_eq!(a.record().len(), 1, "no move after the end");
}

#[test]
fn check_is_announced() {
    // Red's chariot gives check along the e-file.
    let a = app_at(GameKind::Xiangqi, "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1");
    assert!(text(&a).contains("Black to move — check!"));
}

#[test]
fn help_opens_and_any_key_closes_it_and_q_quits() {
    let mut a = app(GameKind::ChessBattle);
    a.press(KeyCode::Char('?'));
    assert!(text(&a).contains("Help"));
    a.press(KeyCode::Char('x'));
    assert_eq!(a.mode(), &Mode::Board);
    assert!(!a.should_quit());
    a.press(KeyCode::Char('q'));
    assert!(a.should_quit());
    let mut b = app(GameKind::Xiangqi);
    b.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(b.should_quit());
}

#[test]
fn random_keys_never_panic() {
    let keys = [
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Char(':'),
        KeyCode::Char('u'),
        KeyCode::Char('f'),
        KeyCode::Char('g'),
        KeyCode::Char('?'),
        KeyCode::Char('1'),
        KeyCode::Char('2'),
        KeyCode::Char('a'),
        KeyCode::Backspace,
        KeyCode::Tab,
        KeyCode::Char(' '),
    ];
    for kind in GameKind::available_games() {
        let mut a = app(kind);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for step in 0..600 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            a.press(keys[(x % keys.len() as u64) as usize]);
            if step % 50 == 0 {
                let _ = screen(&a, 80, 24);
            }
        }
        assert!(!a.should_quit());
    }
}

/// A saved game names its players (the engine by its level) and the day, as PGN's
/// standard tags, and loads back to the same moves.
#[test]
fn a_saved_game_names_its_players_and_date() {
    let mut record = cannonade_games::AnyRecord::from_spec(&cannonade_games::GameSpec::standard(
        GameKind::Xiangqi,
    ));
    record.play_text("h2e2").unwrap();
    let text = cannonade_tui::record_text(&record, &[Seat::Human, Seat::Engine(3)]);
    let game = cannonade_games::pgn::read_game(&text).unwrap();
    assert_eq!(game.tag("Black"), Some("Cannonade AI level 3"), "{text}");
    assert!(game.tag("White").is_some_and(|n| !n.is_empty()), "{text}");
    let date = game.tag("Date").unwrap_or("");
    assert!(date.len() == 10 && date.starts_with("20"), "{text}");
    assert_eq!(game.record.moves_text(), ["h2e2"]);
}
