//! The state of the terminal board and what each key does to it. Nothing here touches the
//! terminal: [`crate::draw`] renders an `App`, [`crate::terminal`] feeds it keys, and tests
//! do both with ratatui's `TestBackend`.

use crate::board_shape::{BoardShape, Cell};
use crate::board_view::{BoardView, Occupant};
use crate::engine_job::{EngineJob, Poll};
use crate::level::{engine_level, think_limits};
use crate::move_choice::{MoveChoice, choices};
use cannonade_core::{Next, Outcome, Side};
use cannonade_games::pgn::{MAX_PGN_BYTES, PgnGame, date_tag, read_game, write_game};
use cannonade_games::{AnyGame, AnyMove, AnyRecord, GameError, GameKind};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// The engine at a level, 1 to 10 (see [`crate::engine_level`]).
    Engine(u8),
}

/// What the keys are doing right now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Moving the cursor over the board.
    Board,
    /// Choosing among moves that share their piece and target square (Chess-Battle removals,
    /// Banqi chains, Commander deploys): indices into the legal moves, and the highlighted one.
    Picker {
        /// Indices into [`App::choices`].
        options: Vec<usize>,
        /// The highlighted entry.
        index: usize,
    },
    /// Typing a line.
    Prompt {
        /// What the line is for.
        purpose: Purpose,
        /// The text so far.
        text: String,
    },
    /// The help page.
    Help,
}

/// What a typed line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move in the game's notation.
    Move,
    /// A file to save the record to.
    Save,
    /// A record file to load.
    Load,
}

/// A line shown under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Whether it reports something that went wrong.
    pub error: bool,
}

/// The terminal board.
pub struct App {
    pub(crate) record: AnyRecord,
    pub(crate) geometry: BoardShape,
    pub(crate) view: Result<BoardView, String>,
    pub(crate) choices: Vec<MoveChoice>,
    pub(crate) history: Vec<String>,
    pub(crate) seats: [Seat; 2],
    pub(crate) cursor: Cell,
    pub(crate) selected: Option<Cell>,
    pub(crate) mode: Mode,
    pub(crate) message: Option<Message>,
    pub(crate) engine: Option<EngineJob>,
    pub(crate) engine_note: Option<String>,
    pub(crate) flipped: bool,
    pub(crate) letters: bool,
    pub(crate) save_path: String,
    pub(crate) last_move: Vec<Cell>,
    quit: bool,
    interrupted: Option<Result<String, String>>,
    chance_counter: u64,
}

/// The start of a local game: a Banqi game holds a fresh random deal so flips are decided
/// at once, while only the public view is ever drawn or searched.
pub fn local_start(kind: GameKind) -> Result<AnyGame, GameError> {
    let start = AnyGame::start(kind)?;
    if let AnyGame::Banqi(public) = &start {
        let seed = cannonade_banqi::DealSeed::random()
            .map_err(|e| GameError::Position(format!("cannot draw a deal: {e}")))?;
        return Ok(AnyGame::BanqiDealt(cannonade_banqi::deal_from_seed(public, &seed)));
    }
    Ok(start)
}

fn seat_index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

impl App {
    /// A board for a record (a fresh game or a loaded one) with who plays each seat.
    pub fn new(record: AnyRecord, seats: [Seat; 2]) -> App {
        let geometry = BoardShape::of(record.kind());
        let save_path = format!("cannonade-{}.pgn", record.kind().name());
        let mut app = App {
            cursor: Cell { file: geometry.files / 2, rank: 0 },
            geometry,
            record,
            view: Ok(BoardView::default()),
            choices: Vec::new(),
            history: Vec::new(),
            seats,
            selected: None,
            mode: Mode::Board,
            message: None,
            engine: None,
            engine_note: None,
            // A person playing only the second seat sees the board from that side.
            flipped: matches!(seats, [Seat::Engine(_), Seat::Human]),
            letters: false,
            save_path,
            last_move: Vec::new(),
            quit: false,
            interrupted: None,
            chance_counter: 0,
        };
        app.refresh();
        app.cursor = app.start_cursor();
        app
    }

    /// The game record being played.
    pub fn record(&self) -> &AnyRecord {
        &self.record
    }

    /// The message under the board, if any.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The current key mode.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The square under the cursor.
    pub fn cursor(&self) -> Cell {
        self.cursor
    }

    /// The selected piece's square.
    pub fn selected(&self) -> Option<Cell> {
        self.selected
    }

    /// The board's geometry.
    pub fn geometry(&self) -> &BoardShape {
        &self.geometry
    }

    /// The legal moves of the current position as the board offers them.
    pub fn choices(&self) -> &[MoveChoice] {
        &self.choices
    }

    /// Whether the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Where the game went when the board was stopped by a signal: `Some(Ok(path))` once
    /// saved, `Some(Err(reason))` if it could not be, `None` if no signal stopped it.
    pub fn interrupted(&self) -> Option<&Result<String, String>> {
        self.interrupted.as_ref()
    }

    /// The board is being stopped from outside (a signal): keeps the game by saving it beside
    /// the save path as `…-interrupted.pgn`, never over a file the player chose.
    pub fn interrupt(&mut self) {
        self.engine = None;
        let path = interrupted_path(&self.save_path);
        let result = write_atomically(&path, &record_text(&self.record, &self.seats))
            .map(|()| path.clone())
            .map_err(|e| format!("could not save the game to {path}: {e}"));
        self.interrupted = Some(result);
        self.quit = true;
    }

    /// Whether the engine is thinking.
    pub fn engine_busy(&self) -> bool {
        self.engine.is_some()
    }

    /// Shows the board from the other side.
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    /// The file name offered when saving.
    pub fn set_save_path(&mut self, path: &str) {
        self.save_path = path.to_string();
    }

    /// Shows a message under the board.
    pub fn say(&mut self, text: impl Into<String>, error: bool) {
        self.message = Some(Message { text: text.into(), error });
    }

    /// Who acts now, by all the rules (history included).
    pub fn next(&self) -> Next {
        self.record.next()
    }

    /// A seat's name: `Red`, `Black`, …; Banqi seats get their colour once the first flip
    /// has decided it.
    pub fn seat_name(&self, side: Side) -> String {
        let base = self.geometry.seat_names[seat_index(side)].clone();
        if let AnyGame::Banqi(p) = self.record.position().public() {
            return match p.colour_of(side) {
                Some(c) => format!("{base} ({})", c.name()),
                None => base,
            };
        }
        base
    }

    /// Who plays a seat, as shown: `you`, `engine level 3`.
    pub fn seat_player(&self, side: Side) -> String {
        match self.seats[seat_index(side)] {
            Seat::Human if self.seats == [Seat::Human, Seat::Human] => String::new(),
            Seat::Human => "you".into(),
            Seat::Engine(level) => format!("engine level {level}"),
        }
    }

    /// The end of the game in words, such as `Red wins by checkmate`.
    pub fn outcome_text(&self, outcome: Outcome) -> String {
        let reason = outcome.reason.as_str().replace('-', " ");
        match outcome.winner {
            Some(side) => format!("{} wins by {reason}", self.seat_name(side)),
            None => format!("draw by {reason}"),
        }
    }

    fn human_to_move(&self) -> Option<Side> {
        match self.next() {
            Next::Player(side) if self.seats[seat_index(side)] == Seat::Human => Some(side),
            _ => None,
        }
    }

    /// Recomputes everything drawn from the record.
    fn refresh(&mut self) {
        let position = self.record.position();
        self.geometry = BoardShape::of(position.kind());
        self.view = BoardView::of(&position, &self.geometry).map_err(|e| e.to_string());
        self.choices = match self.next() {
            Next::Player(_) => choices(&position, &self.geometry),
            _ => Vec::new(),
        };
        // The moves as people read them (WXF in Xiangqi), else as recorded (`d2=C`).
        let mut replay = AnyRecord::new(self.record.start());
        self.history = Vec::with_capacity(self.record.len());
        for text in self.record.moves_text() {
            let at = replay.position();
            let shown = match at.public().parse_move(&text).or_else(|_| at.parse_move(&text)) {
                Ok(mv) if at.display_move(mv) != at.move_text(mv) => at.display_move(mv),
                _ => text.clone(),
            };
            self.history.push(shown);
            if replay.play_text_past_end(&text).is_err() {
                break;
            }
        }
        if !self.geometry.exists(self.cursor) {
            self.cursor = self.start_cursor();
        }
    }

    fn start_cursor(&self) -> Cell {
        let middle = self.geometry.files / 2;
        // The piece with a move nearest the middle of the mover's edge, else the centre.
        let from_edge = |c: &Cell| match self.next() {
            Next::Player(Side::Second) => self.geometry.ranks - 1 - c.rank,
            _ => c.rank,
        };
        self.geometry
            .cells()
            .filter(|c| self.choices.iter().any(|m| m.from() == Some(*c)))
            .min_by_key(|c| (from_edge(c), c.file.abs_diff(middle)))
            .unwrap_or(Cell { file: middle, rank: self.geometry.ranks / 2 })
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q'))
        {
            self.quit = true;
            return;
        }
        match self.mode.clone() {
            Mode::Board => self.board_key(key),
            Mode::Picker { options, index } => self.picker_key(key, options, index),
            Mode::Prompt { purpose, text } => self.prompt_key(key, purpose, text),
            Mode::Help => self.mode = Mode::Board,
        }
    }

    /// Presses a key without modifiers (tests and scripted input).
    pub fn press(&mut self, code: KeyCode) {
        self.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    /// Types each character of `text` as a key press.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    fn board_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.step_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.step_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.step_cursor(0, 1),
            KeyCode::Down | KeyCode::Char('j') => self.step_cursor(0, -1),
            KeyCode::Enter | KeyCode::Char(' ') => self.act(),
            KeyCode::Esc => {
                self.selected = None;
                self.message = None;
            }
            KeyCode::Char(':') | KeyCode::Char('m') | KeyCode::Char('/') => {
                self.mode = Mode::Prompt { purpose: Purpose::Move, text: String::new() }
            }
            KeyCode::Char('s') => {
                self.mode = Mode::Prompt { purpose: Purpose::Save, text: self.save_path.clone() }
            }
            KeyCode::Char('o') => {
                self.mode = Mode::Prompt { purpose: Purpose::Load, text: self.save_path.clone() }
            }
            KeyCode::Char('u') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('g') => self.letters = !self.letters,
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Char('q') => self.quit = true,
            _ => {}
        }
    }

    /// Moves the cursor one square on the screen (directions follow the board as drawn),
    /// skipping squares that do not exist.
    fn step_cursor(&mut self, dx: i32, dy: i32) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        let (mut f, mut r) = (self.cursor.file as i32, self.cursor.rank as i32);
        loop {
            f += dx;
            r += dy;
            if f < 0 || r < 0 || f >= self.geometry.files as i32 || r >= self.geometry.ranks as i32
            {
                return;
            }
            let cell = Cell { file: f as u8, rank: r as u8 };
            if self.geometry.exists(cell) {
                self.cursor = cell;
                return;
            }
        }
    }

    fn moves_from(&self, cell: Cell) -> Vec<usize> {
        (0..self.choices.len()).filter(|&i| self.choices[i].from() == Some(cell)).collect()
    }

    /// Enter on the board: select a piece, or play to the square under the cursor.
    fn act(&mut self) {
        if let Next::Over(outcome) = self.next() {
            let text =
                format!("The game is over: {}. u undoes, q quits.", self.outcome_text(outcome));
            self.say(text, true);
            return;
        }
        if self.human_to_move().is_none() {
            self.say("Wait for the engine's move.", true);
            return;
        }
        let cursor = self.cursor;
        let name = self.geometry.name(cursor);
        let Some(from) = self.selected else {
            let moves = self.moves_from(cursor);
            if moves.is_empty() {
                let why = if self.view.as_ref().ok().and_then(|v| v.at(cursor)).is_some() {
                    format!("No legal move for the piece on {name}.")
                } else {
                    format!("{name} is empty: pick a piece of the side to move.")
                };
                self.say(why, true);
                return;
            }
            // A move that names only its own square (a Banqi flip) needs no target.
            if moves.iter().all(|&i| self.choices[i].target() == Some(cursor)) {
                return self.play_among(moves);
            }
            self.selected = Some(cursor);
            self.message = None;
            return;
        };
        let matching: Vec<usize> = self
            .moves_from(from)
            .into_iter()
            .filter(|&i| self.choices[i].target() == Some(cursor))
            .collect();
        if matching.is_empty() {
            if cursor == from {
                self.selected = None;
            } else if !self.moves_from(cursor).is_empty() {
                self.selected = Some(cursor);
                self.message = None;
            } else {
                let text = format!("{} to {name} is not a legal move.", self.geometry.name(from));
                self.say(text, true);
            }
            return;
        }
        self.play_among(matching);
    }

    /// Plays the one move, or opens the list to choose among several.
    fn play_among(&mut self, options: Vec<usize>) {
        match options.as_slice() {
            [one] => {
                let mv = self.choices[*one].mv;
                self.play_human(mv);
            }
            _ => self.mode = Mode::Picker { options, index: 0 },
        }
    }

    fn picker_key(&mut self, key: KeyEvent, options: Vec<usize>, index: usize) {
        let n = options.len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.mode = Mode::Picker { options, index: (index + n - 1) % n }
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.mode = Mode::Picker { options, index: (index + 1) % n }
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                self.mode = Mode::Board;
                let mv = self.choices[options[index]].mv;
                self.play_human(mv);
            }
            KeyCode::Char(c @ '1'..='9') => {
                let pick = c as usize - '1' as usize;
                if pick < n {
                    self.mode = Mode::Board;
                    let mv = self.choices[options[pick]].mv;
                    self.play_human(mv);
                }
            }
            KeyCode::Esc => self.mode = Mode::Board,
            _ => {}
        }
    }

    fn prompt_key(&mut self, key: KeyEvent, purpose: Purpose, mut text: String) {
        match key.code {
            KeyCode::Esc => {
                self.mode = Mode::Board;
                return;
            }
            KeyCode::Enter => {
                self.mode = Mode::Board;
                let line = text.trim().to_string();
                if line.is_empty() {
                    return;
                }
                match purpose {
                    Purpose::Move => self.play_typed(&line),
                    Purpose::Save => self.save(&line),
                    Purpose::Load => self.load(&line),
                }
                return;
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => text.clear(),
            KeyCode::Char(c) if text.chars().count() < 200 && !c.is_control() => text.push(c),
            _ => {}
        }
        self.mode = Mode::Prompt { purpose, text };
    }

    /// Plays a move typed in the game's notation, or as the move list writes it. The text is
    /// read against the public position, so a typed Banqi flip learns nothing of the deal.
    fn play_typed(&mut self, text: &str) {
        if let Next::Over(outcome) = self.next() {
            let msg = format!("The game is over: {}.", self.outcome_text(outcome));
            return self.say(msg, true);
        }
        if self.human_to_move().is_none() {
            return self.say("Wait for the engine's move.", true);
        }
        let position = self.record.position();
        // Any notation the game reads, or a move as the list shows it (WXF in Xiangqi).
        let parsed = position.public().parse_move(text).or_else(|e| {
            self.choices.iter().find(|c| c.display == text || c.text == text).map(|c| c.mv).ok_or(e)
        });
        match parsed {
            Ok(mv) if position.legal_moves().contains(&mv) => self.play_human(mv),
            Ok(_) => self.say(format!("{text}: not a legal move here."), true),
            Err(e) => self.say(format!("{text}: {e}"), true),
        }
    }

    fn play_human(&mut self, mv: AnyMove) {
        if self.human_to_move().is_none() {
            return;
        }
        self.play(mv);
    }

    /// Plays a legal move of the current position, resolves chance, and refreshes.
    fn play(&mut self, mv: AnyMove) {
        let position = self.record.position();
        let squares =
            self.choices.iter().find(|c| c.mv == mv).map(|c| c.squares.clone()).unwrap_or_default();
        if let Err(e) = self.record.play(mv) {
            return self.say(format!("{}: {e}", position.move_text(mv)), true);
        }
        self.resolve_chance();
        self.selected = None;
        self.message = None;
        self.last_move = squares;
        self.refresh();
        if let Next::Over(outcome) = self.next() {
            let text = format!("Game over: {}.", self.outcome_text(outcome));
            self.say(text, false);
        }
    }

    /// A public Banqi record (loaded without its deal) turns a flip into a chance event: draw
    /// the piece at random, weighted by how many of each kind are still face down.
    fn resolve_chance(&mut self) {
        while self.record.next() == Next::Chance {
            let outcomes = self.record.position().chance_outcomes();
            let total: u64 = outcomes.iter().map(|(_, w)| *w as u64).sum();
            if total == 0 {
                return;
            }
            self.chance_counter += 1;
            let mut pick = random_u64(self.chance_counter) % total;
            let mut chosen = None;
            for (text, weight) in &outcomes {
                if pick < *weight as u64 {
                    chosen = Some(text.clone());
                    break;
                }
                pick -= *weight as u64;
            }
            let Some(text) = chosen else { return };
            if self.record.resolve_text(&text).is_err() {
                return;
            }
        }
    }

    fn undo_step(&mut self) -> bool {
        let undone = self.record.undo();
        // A resolved chance step goes back with the move that caused it.
        while undone && self.record.next() == Next::Chance {
            if !self.record.undo() {
                break;
            }
        }
        undone
    }

    /// Takes back the last move; against the engine, back to the person's last turn.
    fn undo(&mut self) {
        self.engine = None;
        self.engine_note = None;
        if !self.undo_step() {
            self.refresh();
            return self.say("Nothing to undo.", true);
        }
        let human_somewhere = self.seats.contains(&Seat::Human);
        while human_somewhere && !self.record.is_empty() {
            match self.record.next() {
                Next::Player(side) if self.seats[seat_index(side)] == Seat::Human => break,
                _ => {
                    self.undo_step();
                }
            }
        }
        self.selected = None;
        self.last_move.clear();
        self.refresh();
        self.say("Move taken back.", false);
    }

    fn save(&mut self, path: &str) {
        self.save_path = path.to_string();
        match write_atomically(path, &record_text(&self.record, &self.seats)) {
            Ok(()) => self.say(format!("Saved {} moves to {path}.", self.history.len()), false),
            Err(e) => self.say(format!("Could not save to {path}: {e}"), true),
        }
    }

    /// Loads a record file in place of the current game (the seats stay as they are).
    pub fn load(&mut self, path: &str) {
        match load_record(Path::new(path)) {
            Ok(record) => {
                self.save_path = path.to_string();
                self.replace_record(record);
                let text = format!("Loaded {path}: {} moves.", self.history.len());
                self.say(text, false);
                if let Next::Over(outcome) = self.next() {
                    let text =
                        format!("Loaded {path}: the game is over, {}.", self.outcome_text(outcome));
                    self.say(text, false);
                }
            }
            Err(e) => self.say(e, true),
        }
    }

    /// Replaces the game.
    pub fn replace_record(&mut self, record: AnyRecord) {
        self.engine = None;
        self.engine_note = None;
        self.record = record;
        self.mode = Mode::Board;
        self.selected = None;
        self.last_move.clear();
        self.refresh();
        self.cursor = self.start_cursor();
    }

    /// Lets time pass: collects the engine's answer, or starts it when its seat is to move.
    /// Returns whether anything changed on screen.
    pub fn tick(&mut self) -> bool {
        if let Some(job) = self.engine.as_mut() {
            let ply = job.ply;
            return match job.poll() {
                Poll::Thinking => true,
                Poll::Done(result) => {
                    self.engine = None;
                    let legal = self.record.position().legal_moves();
                    match result.best {
                        Some(mv) if ply == self.record.len() && legal.contains(&mv) => {
                            let side = self.record.position().mover();
                            self.engine_note = Some(engine_note(
                                &self.seat_name(side),
                                result.depth,
                                result.score,
                            ));
                            self.play(mv);
                        }
                        _ => self.engine_gave_up("the engine found no move"),
                    }
                    true
                }
                Poll::Failed(why) => {
                    self.engine = None;
                    self.engine_gave_up(&format!("the engine failed ({why})"));
                    true
                }
                Poll::Lost => {
                    self.engine = None;
                    self.engine_gave_up("the engine stopped without a move");
                    true
                }
            };
        }
        if let Next::Player(side) = self.next()
            && let Seat::Engine(level) = self.seats[seat_index(side)]
        {
            self.engine = Some(EngineJob::start(
                &self.record,
                engine_level(level),
                think_limits(),
                self.record.len(),
            ));
            return true;
        }
        false
    }

    /// The engine could not move: the person takes over its seat rather than the game
    /// hanging.
    fn engine_gave_up(&mut self, why: &str) {
        if let Next::Player(side) = self.next() {
            self.seats[seat_index(side)] = Seat::Human;
        }
        self.say(format!("{why}; you play its side now."), true);
    }

    /// Waits (up to `limit`) until the engine has moved; for tests and scripts.
    pub fn wait_for_engine(&mut self, limit: std::time::Duration) -> bool {
        let start = std::time::Instant::now();
        loop {
            self.tick();
            if self.engine.is_none() {
                return true;
            }
            if start.elapsed() > limit {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Whether a square holds a piece (face-down pieces included).
    pub fn occupied(&self, cell: Cell) -> bool {
        self.view.as_ref().ok().and_then(|v| v.at(cell)).is_some()
    }

    /// What stands on a square.
    pub fn occupant(&self, cell: Cell) -> Option<&Occupant> {
        self.view.as_ref().ok().and_then(|v| v.at(cell))
    }
}

/// The engine's last verdict in a few words: `depth 5, +1.00 for Black`.
fn engine_note(seat: &str, depth: u32, score: i32) -> String {
    let verdict = if score.abs() >= cannonade_engine::MATE - 256 {
        if score > 0 { "mating".to_string() } else { "being mated".to_string() }
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    };
    format!("depth {depth}, {verdict} for {seat}")
}

/// Reads and replays a record file, with a message fit for the status line on failure.
pub fn load_record(path: &Path) -> Result<AnyRecord, String> {
    let shown = path.display();
    let size = std::fs::metadata(path).map_err(|e| format!("Cannot read {shown}: {e}"))?.len();
    if size > MAX_PGN_BYTES as u64 {
        return Err(format!("{shown} is {size} bytes: not a game record"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("Cannot read {shown}: {e}"))?;
    read_game(&text)
        .map(|game| game.record)
        .map_err(|e| format!("{shown} is not a valid record: {e}"))
}

/// The record as a PGN file (docs/record-format.md). A Banqi game holding its deal writes
/// its full start position, so loading it brings back the same deal.
pub fn record_text(record: &AnyRecord, seats: &[Seat; 2]) -> String {
    let mut game = PgnGame::new(record.clone());
    game.set_tag("Event", "Cannonade terminal board");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    game.set_tag("Date", date_tag(now.map_or(-1, |d| d.as_millis() as i64)));
    // The person at the keyboard by their login name where the system gives one.
    let person = std::env::var("USER").ok().filter(|n| !n.trim().is_empty());
    for (tag, seat) in [("White", seats[0]), ("Black", seats[1])] {
        let name = match seat {
            Seat::Human => person.clone().unwrap_or_else(|| "Player".to_string()),
            Seat::Engine(level) => format!("Cannonade AI level {level}"),
        };
        game.set_tag(tag, name);
    }
    write_game(&game)
}

/// A random number for chance events of games loaded without their deal (std's per-process
/// random hash keys; fairness, not secrecy, is what a local game needs here).
fn random_u64(counter: u64) -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(counter)
}

/// Writes beside the target and renames, so a full disk never leaves half a record in place
/// of a good one.
fn write_atomically(path: &str, text: &str) -> std::io::Result<()> {
    let tmp = format!("{path}.part");
    let result = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `game.pgn` → `game-interrupted.pgn`; other names get the suffix appended.
fn interrupted_path(save_path: &str) -> String {
    match save_path.strip_suffix(".pgn") {
        Some(stem) => format!("{stem}-interrupted.pgn"),
        None => format!("{save_path}-interrupted.pgn"),
    }
}
