//! Waiting for the next key without trusting crossterm with a terminal that went away.
//!
//! crossterm 0.29 reads the terminal in a loop that ends only on "would block": once the
//! terminal hangs up (its window closed, tmux killed, ssh dropped) every read returns 0 or
//! EIO, so the loop spins forever at full CPU — inside `event::poll`, where no stop signal
//! is seen. The board waits with poll(2) here first and treats a hang-up like a stop signal.

use std::io;
use std::time::Duration;

/// What waiting on the terminal found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Bytes to read: crossterm can read them without waiting.
    Ready,
    /// Nothing within the time.
    Idle,
    /// The terminal is gone: nothing will ever come.
    HungUp,
}

/// Waits up to `timeout` for input on standard input when it is a terminal; elsewhere (no
/// terminal on standard input, not Unix) leaves the waiting to crossterm.
pub fn wait(timeout: Duration) -> io::Result<Input> {
    #[cfg(unix)]
    {
        use std::io::IsTerminal;
        let stdin = io::stdin();
        if stdin.is_terminal() {
            use std::os::fd::AsFd;
            return wait_on(stdin.as_fd(), timeout);
        }
    }
    Ok(if ratatui::crossterm::event::poll(timeout)? { Input::Ready } else { Input::Idle })
}

/// Waits up to `timeout` for `fd` to become readable or hang up.
#[cfg(unix)]
pub fn wait_on(fd: std::os::fd::BorrowedFd<'_>, timeout: Duration) -> io::Result<Input> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let timeout = Timespec::try_from(timeout).unwrap_or(Timespec { tv_sec: 1, tv_nsec: 0 });
    match poll(&mut fds, Some(&timeout)) {
        Ok(0) => return Ok(Input::Idle),
        Ok(_) => {}
        // A signal (a resize, a stop): the caller looks at its flags and waits again.
        Err(rustix::io::Errno::INTR) => return Ok(Input::Idle),
        Err(e) => return Err(e.into()),
    }
    let got = fds[0].revents();
    Ok(if got.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
        Input::HungUp
    } else if got.contains(PollFlags::IN) {
        Input::Ready
    } else {
        Input::Idle
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::os::unix::net::UnixStream;

    const SHORT: Duration = Duration::from_millis(20);

    /// The three answers, on a socket pair standing in for the terminal: nothing yet, a key,
    /// and the other end gone (what a closed terminal window looks like to the board).
    #[test]
    fn waiting_tells_idle_ready_and_hung_up_apart() {
        let (mut far, near) = UnixStream::pair().unwrap();
        assert_eq!(wait_on(near.as_fd(), SHORT).unwrap(), Input::Idle);
        far.write_all(b"q").unwrap();
        assert_eq!(wait_on(near.as_fd(), SHORT).unwrap(), Input::Ready);
        drop(far);
        // Unread bytes or not, a hang-up wins: the board stops rather than spin.
        assert_eq!(wait_on(near.as_fd(), SHORT).unwrap(), Input::HungUp);
    }
}
