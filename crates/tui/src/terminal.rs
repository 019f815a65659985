//! The real terminal: raw mode and the alternate screen for as long as the board runs, put
//! back on every way out (return, error, panic), and the loop that feeds keys to the app.

use crate::app::App;
use crate::draw::draw;
use crate::engine_job::ENGINE_THREAD;
use crate::input_wait::{self, Input};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

/// How often the screen is redrawn while nothing happens (the thinking indicator moves).
const FRAME: Duration = Duration::from_millis(100);

/// Puts the terminal back as it was; safe to call more than once.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, ratatui::crossterm::cursor::Show);
}

/// Holds the terminal in raw mode on the alternate screen; dropping it restores the terminal.
struct Guard;

impl Guard {
    fn enter() -> io::Result<Guard> {
        enable_raw_mode()?;
        // From here on the guard exists, so a failure below still restores the terminal.
        let guard = Guard;
        execute!(io::stdout(), EnterAlternateScreen, ratatui::crossterm::cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// A panic restores the terminal before the message is printed, so it can be read. The
/// engine's thread is the exception: its panic is caught and shown on the board, which goes
/// on, so the terminal must stay as it is and nothing may be printed over the screen.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(ENGINE_THREAD) {
                return;
            }
            restore_terminal();
            previous(info);
        }));
    });
}

/// Sets a flag when the process is asked to stop (SIGTERM, SIGHUP when the terminal goes
/// away, SIGINT from `kill`: in raw mode Ctrl-C is a key, not a signal). The loop polls it so
/// the terminal is put back and the game saved instead of the process dying mid-screen.
fn stop_flag() -> io::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        #[cfg(unix)]
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register(signal, Arc::clone(&flag))?;
    }
    Ok(flag)
}

/// Runs the board in the terminal until the player quits or the process is asked to stop;
/// returns the app (its record holds the game as it stands; after a stop signal
/// [`App::interrupted`] is set and the game has been saved).
pub fn run(mut app: App) -> io::Result<App> {
    install_panic_hook();
    let stop = stop_flag()?;
    let _guard = Guard::enter()?;
    let mut terminal: Terminal<CrosstermBackend<Stdout>> =
        Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    loop {
        terminal.draw(|frame| draw(frame, &app))?;
        let input = input_wait::wait(FRAME)?;
        // One read can bring several events (keys typed fast, a paste): crossterm queues them,
        // and they are all handled now, as the terminal will not signal them again. Bytes
        // that hold no whole event yet (half an escape sequence) stay with crossterm.
        while input == Input::Ready && event::poll(Duration::ZERO)? {
            match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => app.handle_key(key),
                // The next draw uses the new size.
                Event::Resize(_, _) => terminal.autoresize()?,
                _ => {}
            }
        }
        app.tick();
        // A terminal that hung up is a stop: nobody is there to quit (SIGHUP may not come
        // when only the terminal's master side closed).
        if stop.load(Ordering::Relaxed) || input == Input::HungUp {
            app.interrupt();
            return Ok(app);
        }
        if app.should_quit() {
            return Ok(app);
        }
    }
}
