//! Rendering an [`App`] into a ratatui frame: the board from its [`BoardShape`], the side panel
//! (players, move list), the status lines, and the pop-ups (move picker, help).

use crate::app::{App, Mode, Purpose, Seat};
use crate::board_shape::{BoardShape, Cell, Gap, Palette, Terrain};
use crate::board_view::{Occupant, piece_label};
use cannonade_core::{Next, Side};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};
use std::collections::HashSet;

/// The smallest window the board is drawn in.
pub const MIN_WIDTH: u16 = 40;
/// The smallest window height.
pub const MIN_HEIGHT: u16 = 12;

/// Width of the side panel when the window is wide enough for it.
const SIDE_WIDTH: u16 = 30;

/// Cell sizes tried from largest to smallest: (columns, rows) per square.
const CELL_SIZES: [(u16, u16); 8] =
    [(9, 4), (7, 3), (7, 2), (5, 2), (6, 1), (5, 1), (4, 1), (3, 1)];

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

fn ground(g: &BoardShape, cell: Cell) -> Color {
    match g.terrain(cell) {
        Terrain::Palace => Color::Indexed(216),
        Terrain::Water => Color::Indexed(74),
        Terrain::Mixed => Color::Indexed(116),
        Terrain::Plain if g.checkered => {
            if (cell.file + cell.rank) % 2 == 1 {
                Color::Indexed(223)
            } else {
                Color::Indexed(137)
            }
        }
        Terrain::Plain if g.palette == Palette::RedBlue => Color::Indexed(151),
        Terrain::Plain if g.points => Color::Indexed(222),
        Terrain::Plain => Color::Indexed(180),
    }
}

/// The colours of a piece token: the first colour red, the other by the game's palette.
fn token_style(g: &BoardShape, first_colour: Option<bool>) -> Style {
    let (fg, bg) = match (first_colour, g.palette) {
        (None, _) => (Color::Indexed(223), Color::Indexed(94)),
        (Some(true), _) => (Color::Indexed(231), Color::Indexed(160)),
        (Some(false), Palette::RedBlack) => (Color::Indexed(231), Color::Indexed(235)),
        (Some(false), Palette::RedWhite) => (Color::Indexed(16), Color::Indexed(255)),
        (Some(false), Palette::RedBlue) => (Color::Indexed(231), Color::Indexed(26)),
    };
    Style::default().fg(fg).bg(bg).add_modifier(Modifier::BOLD)
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "Window too small: {}×{}, the board needs at least {MIN_WIDTH}×{MIN_HEIGHT}. q quits.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [main, status, message, keys] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let side_width = if area.width >= MIN_WIDTH + SIDE_WIDTH { SIDE_WIDTH } else { 0 };
    let [board_area, side_area] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(side_width)]).areas(main);
    draw_board(frame.buffer_mut(), board_area, app);
    if side_width > 0 {
        draw_side(frame, side_area, app);
    }
    frame.render_widget(Paragraph::new(status_line(app)), status);
    if let Some(m) = app.message() {
        let style = if m.error { Color::LightRed } else { Color::LightGreen };
        frame.render_widget(Paragraph::new(Span::styled(m.text.clone(), style)), message);
    }
    frame.render_widget(Paragraph::new(keys_line(app)), keys);
    match app.mode() {
        // Over the move list when there is one, so the board (and the squares each choice
        // names) stays in view.
        Mode::Picker { options, index } => {
            let over = if side_width > 0 { side_area } else { board_area };
            draw_picker(frame, over, app, options, *index)
        }
        Mode::Help => draw_help(frame, main, app),
        _ => {}
    }
}

/// The squares to mark on the board.
struct Marks {
    targets: HashSet<Cell>,
    sources: HashSet<Cell>,
    picked: HashSet<Cell>,
}

fn marks(app: &App) -> Marks {
    let mut m = Marks { targets: HashSet::new(), sources: HashSet::new(), picked: HashSet::new() };
    let moves = app.choices();
    if let Some(from) = app.selected() {
        m.targets
            .extend(moves.iter().filter(|c| c.from() == Some(from)).filter_map(|c| c.target()));
    } else if matches!(app.mode(), Mode::Board) {
        // Before a piece is chosen, the squares under the cursor's piece show where it goes.
        let here = app.cursor();
        m.targets
            .extend(moves.iter().filter(|c| c.from() == Some(here)).filter_map(|c| c.target()));
        m.targets.remove(&here);
    }
    if let Mode::Picker { options, index } = app.mode()
        && let Some(c) = options.get(*index).and_then(|&i| moves.get(i))
    {
        m.picked.extend(c.squares.iter().skip(2).copied());
        m.targets.extend(c.target());
    }
    m.sources.extend(app.selected());
    m
}

/// The junction drawn at an empty point: lines to the neighbours that exist.
fn junction(g: &BoardShape, cell: Cell, flipped: bool) -> (char, bool, bool, bool, bool) {
    let has = |df: i32, dr: i32| {
        let (df, dr) = if flipped { (-df, -dr) } else { (df, dr) };
        let (f, r) = (cell.file as i32 + df, cell.rank as i32 + dr);
        f >= 0 && r >= 0 && g.exists(Cell { file: f as u8, rank: r as u8 })
    };
    let (l, r, u, d) = (has(-1, 0), has(1, 0), has(0, 1), has(0, -1));
    let centre_of_palace = g.terrain(cell) == Terrain::Palace && {
        let up = Cell { file: cell.file, rank: cell.rank + 1 };
        let down = cell.rank.checked_sub(1).map(|rank| Cell { file: cell.file, rank });
        g.terrain(up) == Terrain::Palace
            && down.is_some_and(|d| g.terrain(d) == Terrain::Palace)
            && g.terrain(Cell { file: cell.file + 1, rank: cell.rank }) == Terrain::Palace
            && cell.file > 0
            && g.terrain(Cell { file: cell.file - 1, rank: cell.rank }) == Terrain::Palace
    };
    let c = if centre_of_palace {
        '╳'
    } else {
        match (l, r, u, d) {
            (true, true, true, true) => '┼',
            (false, true, true, true) => '├',
            (true, false, true, true) => '┤',
            (true, true, false, true) => '┬',
            (true, true, true, false) => '┴',
            (false, true, false, true) => '┌',
            (true, false, false, true) => '┐',
            (false, true, true, false) => '└',
            (true, false, true, false) => '┘',
            _ => '·',
        }
    };
    (c, l, r, u, d)
}

fn text_width(s: &str) -> u16 {
    Span::raw(s).width() as u16
}

/// The label of a square's occupant that fits in `width` columns.
fn occupant_label(app: &App, occupant: &Occupant, width: u16) -> String {
    let g = app.geometry();
    let chinese = g.chinese && !app.letters;
    match occupant {
        Occupant::FaceDown => {
            if chinese {
                "▓▓".into()
            } else {
                "?".into()
            }
        }
        Occupant::Unit(pieces) => {
            let all: String = pieces.iter().map(|p| piece_label(*p, chinese)).collect();
            if text_width(&all) <= width || pieces.len() == 1 {
                all
            } else {
                format!("{}*", piece_label(pieces[0], chinese))
            }
        }
    }
}

/// The board, centred in its area, with rank numbers on the left and file letters below.
fn draw_board(buf: &mut Buffer, area: Rect, app: &App) {
    let g = app.geometry();
    let title = format!(" {} ", app.record().kind().title());
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    if let Err(e) = &app.view {
        Paragraph::new(e.clone()).wrap(Wrap { trim: true }).render(inner, buf);
        return;
    }
    let chinese = g.chinese && !app.letters;
    let min_cw = if chinese { 4 } else { 3 };
    let label_w = 3u16;
    let gaps = g.gaps.len() as u16;
    // Rows: the ranks, one per river, and the file letters.
    let board_height = |ch: u16| g.ranks as u16 * ch + gaps + 1;
    let fit = CELL_SIZES.iter().copied().find(|&(cw, ch)| {
        cw >= min_cw
            && label_w + g.files as u16 * cw <= inner.width
            && board_height(ch) <= inner.height
    });
    let Some((cw, ch)) = fit else {
        Paragraph::new("The board does not fit: make the window larger.")
            .wrap(Wrap { trim: true })
            .render(inner, buf);
        return;
    };
    let board_w = label_w + g.files as u16 * cw;
    let board_h = board_height(ch);
    let left = inner.x + (inner.width - board_w) / 2;
    let top = inner.y + (inner.height - board_h) / 2;
    let x0 = left + label_w;
    let flipped = app.flipped;
    let screen_ranks: Vec<u8> =
        if flipped { (0..g.ranks).collect() } else { (0..g.ranks).rev().collect() };
    let screen_col = |file: u8| if flipped { g.files - 1 - file } else { file } as u16;
    let m = marks(app);
    let last: HashSet<Cell> = app.last_move.iter().copied().collect();
    let line_style = Style::default().fg(Color::Indexed(94));
    let mut y = top;
    for (i, &rank) in screen_ranks.iter().enumerate() {
        let mid = y + ch / 2;
        let number = g.rank_label(rank).to_string();
        buf.set_string(left, mid, format!("{number:>2}"), Style::default().fg(Color::Gray));
        for file in 0..g.files {
            let cell = Cell { file, rank };
            if !g.exists(cell) {
                continue;
            }
            let x = x0 + screen_col(file) * cw;
            let mut bg = ground(g, cell);
            if last.contains(&cell) {
                bg = Color::Indexed(186);
            }
            if m.targets.contains(&cell) {
                bg = Color::Indexed(114);
            }
            if m.picked.contains(&cell) {
                bg = Color::Indexed(209);
            }
            if m.sources.contains(&cell) {
                bg = Color::Indexed(71);
            }
            let base = Style::default().bg(bg).fg(Color::Indexed(16));
            for row in 0..ch {
                buf.set_string(x, y + row, " ".repeat(cw as usize), base);
            }
            let occupant = app.occupant(cell);
            if g.points {
                let (c, l, r, u, d) = junction(g, cell, flipped);
                let half = (cw - 1) / 2;
                let left_part = if l { "─" } else { " " }.repeat(half as usize);
                let right_part = if r { "─" } else { " " }.repeat((cw - 1 - half) as usize);
                buf.set_string(
                    x,
                    mid,
                    format!("{left_part}{c}{right_part}"),
                    base.patch(line_style),
                );
                for row in 0..ch {
                    let y_row = y + row;
                    if (y_row < mid && u) || (y_row > mid && d) {
                        buf.set_string(x + half, y_row, "│", base.patch(line_style));
                    }
                }
            }
            let inner_w = cw.saturating_sub(2).max(1);
            let text = match occupant {
                Some(o) => {
                    Some((occupant_label(app, o, inner_w), token_style(g, o.first_colour())))
                }
                None if m.targets.contains(&cell) || m.picked.contains(&cell) => {
                    let mark = if m.picked.contains(&cell) { "×" } else { "•" };
                    Some((
                        mark.to_string(),
                        base.fg(Color::Indexed(22)).add_modifier(Modifier::BOLD),
                    ))
                }
                None => None,
            };
            let w = text.as_ref().map_or(1, |(label, _)| text_width(label).min(cw));
            let tx = x + (cw - w) / 2;
            if let Some((label, style)) = text {
                if occupant.is_some() && w + 2 <= cw {
                    // A piece the highlighted choice removes is crossed out on both sides;
                    // otherwise, with room to spare, a space either side makes it a chip.
                    if m.picked.contains(&cell) {
                        let cross = Style::default().fg(Color::Indexed(196)).bg(bg);
                        buf.set_string(tx - 1, mid, "×", cross.add_modifier(Modifier::BOLD));
                        buf.set_string(tx + w, mid, "×", cross.add_modifier(Modifier::BOLD));
                    } else if w + 4 <= cw {
                        buf.set_string(tx - 1, mid, " ".repeat(w as usize + 2), style);
                    }
                }
                buf.set_stringn(tx, mid, &label, cw as usize, style);
            }
            if cell == app.cursor() {
                let cursor = Style::default()
                    .fg(Color::Indexed(16))
                    .bg(Color::Indexed(226))
                    .add_modifier(Modifier::BOLD);
                buf.set_string(tx.saturating_sub(1).max(x), mid, "[", cursor);
                buf.set_string((tx + w).min(x + cw - 1), mid, "]", cursor);
            }
        }
        y += ch;
        if let Some(&next) = screen_ranks.get(i + 1)
            && let Some(gap) = g.gaps.iter().find(|gap| gap.below == rank.min(next))
        {
            draw_gap(buf, g, gap, x0, y, cw, &screen_col);
            y += 1;
        }
    }
    for file in 0..g.files {
        let x = x0 + screen_col(file) * cw + (cw - 1) / 2;
        let letter = ((b'a' + file) as char).to_string();
        buf.set_string(x, y, letter, Style::default().fg(Color::Gray));
    }
}

/// A river between two ranks: water across its files, fords marked, its label in the middle.
fn draw_gap(
    buf: &mut Buffer,
    g: &BoardShape,
    gap: &Gap,
    x0: u16,
    y: u16,
    cw: u16,
    screen_col: &dyn Fn(u8) -> u16,
) {
    let water = Style::default().fg(Color::Indexed(31)).bg(Color::Indexed(153));
    let ford = Style::default().fg(Color::Indexed(94)).bg(Color::Indexed(180));
    for file in gap.from_file..g.files {
        let x = x0 + screen_col(file) * cw;
        let (text, style) = if gap.fords.contains(&file) {
            ("▒".repeat(cw as usize), ford)
        } else {
            ("~".repeat(cw as usize), water)
        };
        buf.set_string(x, y, text, style);
    }
    let span = (g.files - gap.from_file) as u16 * cw;
    let w = text_width(&gap.label);
    if !gap.label.is_empty() && w + 2 <= span {
        let first = x0 + screen_col(gap.from_file).min(screen_col(g.files - 1)) * cw;
        let x = first + (span - w) / 2;
        buf.set_string(x, y, &gap.label, water.add_modifier(Modifier::BOLD));
    }
}

/// The players, whose turn it is, and the move list.
fn draw_side(frame: &mut Frame, area: Rect, app: &App) {
    let to_move = match app.next() {
        Next::Player(side) => Some(side),
        _ => None,
    };
    let width = area.width.saturating_sub(2) as usize;
    let dim = Style::default().fg(Color::Gray);
    let mut info = Vec::new();
    for side in [Side::First, Side::Second] {
        let marker = if to_move == Some(side) { "▶ " } else { "  " };
        let name = Span::styled(
            format!("{marker}{}", app.seat_name(side)),
            if to_move == Some(side) {
                Style::default().add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            },
        );
        let player = app.seat_player(side);
        if player.is_empty() {
            info.push(Line::from(name));
        } else if name.width() + 2 + player.len() <= width {
            info.push(Line::from(vec![name, Span::styled(format!("  {player}"), dim)]));
        } else {
            info.push(Line::from(name));
            info.push(Line::styled(format!("    {player}"), dim));
        }
    }
    let options = app.record().start().options();
    if !options.is_empty() {
        info.push(Line::styled(format!("rules: {options}"), dim));
    }
    let legend = app.geometry().legend.clone();
    if !legend.is_empty() {
        info.push(Line::styled(legend, dim));
    }
    if let Some(note) = &app.engine_note {
        info.push(Line::styled(note.clone(), dim));
    }
    // Long lines wrap: the block grows to hold them, leaving the rest to the moves.
    let rows: usize = info.iter().map(|l| l.width().max(1).div_ceil(width.max(1))).sum();
    let [info_area, moves_area] =
        Layout::vertical([Constraint::Length(rows as u16 + 2), Constraint::Min(3)]).areas(area);
    frame.render_widget(
        Paragraph::new(info).wrap(Wrap { trim: false }).block(Block::bordered().title(" Players ")),
        info_area,
    );
    let mut lines: Vec<Line> = Vec::new();
    for (n, pair) in app.history.chunks(2).enumerate() {
        let first = pair.first().cloned().unwrap_or_default();
        let second = pair.get(1).cloned().unwrap_or_default();
        lines.push(Line::from(format!("{:>3}. {first:<11} {second}", n + 1)));
    }
    let visible = moves_area.height.saturating_sub(2) as usize;
    let skip = lines.len().saturating_sub(visible);
    let title = format!(" Moves ({}) ", app.history.len());
    frame.render_widget(
        Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>())
            .block(Block::bordered().title(title)),
        moves_area,
    );
}

fn status_line(app: &App) -> Line<'static> {
    match app.next() {
        Next::Over(outcome) => Line::styled(
            format!("Game over: {}.", app.outcome_text(outcome)),
            Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ),
        Next::Chance => Line::from("Drawing a face-down piece…"),
        Next::Player(side) => {
            let name = app.seat_name(side);
            let check = if app.record().position().in_check() { " — check!" } else { "" };
            if let (Some(job), Seat::Engine(level)) =
                (app.engine.as_ref(), app.seats[if side == Side::First { 0 } else { 1 }])
            {
                let elapsed = job.elapsed();
                let spin = SPINNER[(elapsed.as_millis() / 100) as usize % SPINNER.len()];
                let detail = job
                    .progress()
                    .map(|p| format!(" · depth {} · {} nodes", p.depth, p.nodes))
                    .unwrap_or_default();
                return Line::styled(
                    format!(
                        "{spin} {name} (engine level {level}) is thinking {:.1} s{detail}{check}",
                        elapsed.as_secs_f32()
                    ),
                    Style::default().fg(Color::Cyan),
                );
            }
            let mut text = format!("{name} to move{check}");
            if let Some(from) = app.selected() {
                text.push_str(&format!(
                    " · {} selected: Enter on a marked square",
                    app.geometry().name(from)
                ));
            }
            let style = if check.is_empty() {
                Style::default().add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::LightRed).add_modifier(Modifier::BOLD)
            };
            Line::styled(text, style)
        }
    }
}

fn keys_line(app: &App) -> Line<'static> {
    let dim = Style::default().fg(Color::Gray);
    match app.mode() {
        Mode::Prompt { purpose, text } => {
            let label = match purpose {
                Purpose::Move => "move> ",
                Purpose::Save => "save to> ",
                Purpose::Load => "load> ",
            };
            Line::from(vec![
                Span::styled(label, Style::default().fg(Color::Cyan)),
                Span::raw(text.clone()),
                Span::styled("█", Style::default().fg(Color::Gray)),
                Span::styled("   Enter confirm · Ctrl-U clear · Esc cancel", dim),
            ])
        }
        Mode::Picker { .. } => Line::styled("↑↓ choose · 1-9 pick · Enter play · Esc back", dim),
        Mode::Help => Line::styled("any key closes the help", dim),
        Mode::Board => Line::styled(
            "←↑→↓ Enter · : type move · u undo · s save · o load · f flip · ? help · q quit",
            dim,
        ),
    }
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn draw_picker(frame: &mut Frame, area: Rect, app: &App, options: &[usize], index: usize) {
    let lines: Vec<Line> = options
        .iter()
        .enumerate()
        .filter_map(|(n, &i)| app.choices().get(i).map(|c| (n, c)))
        .map(|(n, c)| {
            let text = format!("{} {}", n + 1, c.display);
            if n == index {
                Line::styled(format!("▶ {text}"), Style::default().add_modifier(Modifier::REVERSED))
            } else {
                Line::from(format!("  {text}"))
            }
        })
        .collect();
    let width = lines.iter().map(|l| l.width() as u16).max().unwrap_or(10).max(24) + 4;
    let height = lines.len() as u16 + 2;
    let rect = centered(area, width, height);
    let visible = rect.height.saturating_sub(2) as usize;
    let skip = (index + 1).saturating_sub(visible);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>())
            .block(Block::bordered().title(" Which move? ")),
        rect,
    );
}

fn draw_help(frame: &mut Frame, area: Rect, app: &App) {
    let mut text = vec![
        Line::from("arrows / h j k l   move the cursor"),
        Line::from("Enter / Space      pick a piece, then its target"),
        Line::from("                   (one Enter flips a face-down piece)"),
        Line::from("Esc                drop the piece / close"),
        Line::from(":  or  m           type a move in the game's notation"),
        Line::from("u  or  Backspace   take back a move"),
        Line::from("s / o              save / load a record"),
        Line::from("f                  turn the board round"),
        Line::from("g                  letters instead of Chinese pieces"),
        Line::from("q  or  Ctrl-C      quit"),
        Line::from(""),
        Line::from("Marked squares are where the piece can go. When"),
        Line::from("several moves share the target (a removal, a chain,"),
        Line::from("a deploy), a list asks which one."),
    ];
    if let Some(example) = app.choices().first() {
        text.push(Line::from(format!("Moves are typed like: {}", example.text)));
    }
    let rect = centered(area, 58, text.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(text).block(Block::bordered().title(" Help ")), rect);
}
