//! A terminal where standard output and standard error meet, for the tests of the
//! progress lines (`grid_core::progress`): both streams written into one buffer, and
//! read back as a person would see it.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use grid_core::progress::WIPE;

/// One buffer behind every clone: give one clone as standard output and another as
/// standard error. It can be shared between threads, as the two streams are.
#[derive(Debug, Clone, Default)]
pub struct Terminal(Arc<Mutex<Vec<u8>>>);

impl Terminal {
    /// Everything written so far, wipes and all.
    pub fn written(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// What the terminal shows of each line: what follows its last wipe.
    pub fn shown(&self) -> Vec<String> {
        self.written()
            .split('\n')
            .map(|line| line.rsplit(WIPE).next().unwrap_or(line).to_owned())
            .collect()
    }
}

impl Write for Terminal {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_shows_what_follows_its_last_wipe() -> std::io::Result<()> {
        let mut terminal = Terminal::default();
        write!(terminal, "{WIPE}1 s{WIPE}2 s{WIPE}answer\nnext")?;
        assert_eq!(terminal.shown(), ["answer", "next"]);
        assert!(terminal.written().starts_with(WIPE));
        Ok(())
    }
}
