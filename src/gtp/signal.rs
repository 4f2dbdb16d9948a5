//! What the I/O loop's reader thread tells the engine while a command
//! runs. The engine and the loop both see this module; neither sees the
//! other through it, so the engine never depends on the loop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the reader thread tells the running command.
#[derive(Debug, Default)]
pub struct InputSignal {
    /// Lines read so far (the sequence number of the latest line).
    pub lines_read: AtomicU64,
    /// Sequence number of the latest `# interrupt` line (0: none yet).
    pub last_interrupt: AtomicU64,
    /// Set while a streaming command (`lz-analyze`) runs: then any new line
    /// sets the engine's stop flag.
    pub streaming: AtomicBool,
    /// Set at the end of input (or a read error): a streaming command stops
    /// then too, so that the engine can exit.
    pub eof: AtomicBool,
}

impl InputSignal {
    /// Whether any line arrived after line `seq`, or the input ended.
    pub fn input_after(&self, seq: u64) -> bool {
        self.lines_read.load(Ordering::SeqCst) > seq || self.eof.load(Ordering::SeqCst)
    }
}
