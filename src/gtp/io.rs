//! The thin I/O loop: a reader thread turns input into lines and feeds a
//! channel; the main loop answers them in order, flushing after each
//! response.
//!
//! The reader sees every line as soon as it arrives, even while a command
//! runs: GoGui's `# interrupt` line sets the engine's stop flag at once
//! (and, being a comment, gets no response). Every queued line is still
//! answered in order. [`InputSignal`] counts the lines read, so a streaming
//! command can stop when any new input arrives.
//!
//! The end of input stops whatever runs for the last line read (a
//! `genmove` search, an analysis, pondering) within a fraction of a
//! second; the loop answers it and returns, and the process exits 0. A
//! command with more lines queued after it runs to its end, so a script
//! piped in and ending in `quit` gets every answer in full.

use super::engine::Engine;
use super::line;
pub use super::signal::InputSignal;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;

/// The longest line read whole; a longer one gets an error response (its
/// first bytes still give the id), unless a `#` comment starts within it.
pub const MAX_LINE: usize = 64 * 1024;

/// One line as read: its bytes (without the LF), and whether it was cut
/// at [`MAX_LINE`].
#[derive(Debug)]
struct RawLine {
    seq: u64,
    bytes: Vec<u8>,
    too_long: bool,
}

/// Reads one line of at most `max` bytes, discarding the rest of a longer
/// line. `Ok(None)` at the end of input.
fn read_line_capped<R: BufRead>(r: &mut R, max: usize) -> io::Result<Option<(Vec<u8>, bool)>> {
    let mut out = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(if any { Some((out, too_long)) } else { None });
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(out.len());
        if chunk.len() > room {
            too_long = true;
        }
        out.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            return Ok(Some((out, too_long)));
        }
    }
}

/// Runs the engine on `input` and `output` until `quit` or the end of
/// input. Only responses go to `output`, each flushed at once.
///
/// # Errors
/// A failed write to `output` (the controller went away).
pub fn run<R, W>(engine: &mut Engine, input: R, mut output: W) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write,
{
    let signal = Arc::new(InputSignal::default());
    let stop = engine.stop_flag();
    let (tx, rx) = mpsc::channel::<RawLine>();
    let reader_signal = signal.clone();
    let reader_stop: Arc<AtomicBool> = stop.clone();
    thread::Builder::new()
        .name("gtp-reader".into())
        .spawn(move || {
            let mut r = BufReader::new(input);
            let mut seq = 0u64;
            loop {
                match read_line_capped(&mut r, MAX_LINE) {
                    Ok(Some((bytes, too_long))) => {
                        seq += 1;
                        reader_signal.lines_read.store(seq, Ordering::SeqCst);
                        if reader_signal.streaming.load(Ordering::SeqCst) {
                            reader_stop.store(true, Ordering::SeqCst);
                        }
                        if !too_long && line::is_interrupt(&bytes) {
                            reader_signal.last_interrupt.store(seq, Ordering::SeqCst);
                            reader_stop.store(true, Ordering::SeqCst);
                            continue;
                        }
                        if tx
                            .send(RawLine {
                                seq,
                                bytes,
                                too_long,
                            })
                            .is_err()
                        {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        eprintln!("kosumi: reading input: {e}");
                        break;
                    }
                }
            }
            reader_signal.eof.store(true, Ordering::SeqCst);
            if reader_signal.streaming.load(Ordering::SeqCst)
                || reader_signal.running.load(Ordering::SeqCst) == seq
            {
                reader_stop.store(true, Ordering::SeqCst);
            }
        })?;
    for raw in rx {
        // An interrupt read after this line (and so meant for it) stops it
        // at once; a stale one from before does not. Clear first, then
        // look: the reader stores the sequence number before the flag, so
        // an interrupt racing with this is never lost.
        stop.store(false, Ordering::SeqCst);
        signal.running.store(raw.seq, Ordering::SeqCst);
        if signal.last_interrupt.load(Ordering::SeqCst) > raw.seq {
            stop.store(true, Ordering::SeqCst);
        }
        // The end of input with nothing queued after this line stops it
        // (a search too: nobody waits for its answer). The reader stores
        // `eof` before it reads `running`, and this loop stores `running`
        // before it reads `eof`, so one of the two always sees the other.
        if signal.ended_after(raw.seq) {
            stop.store(true, Ordering::SeqCst);
        }
        engine.set_input(signal.clone(), raw.seq);
        engine.log_input(&raw.bytes);
        let parsed = if raw.too_long && !line::has_comment(&raw.bytes) {
            line::too_long(&raw.bytes)
        } else {
            line::parse(&raw.bytes)
        };
        engine.respond_to(parsed, &mut output)?;
        if engine.quit_requested() {
            break;
        }
        engine.ponder();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_lines() {
        let data = b"abc\r\n0123456789\nlast".to_vec();
        let mut r = BufReader::with_capacity(4, &data[..]);
        assert_eq!(
            read_line_capped(&mut r, 5).unwrap(),
            Some((b"abc\r".to_vec(), false))
        );
        assert_eq!(
            read_line_capped(&mut r, 5).unwrap(),
            Some((b"01234".to_vec(), true))
        );
        assert_eq!(
            read_line_capped(&mut r, 5).unwrap(),
            Some((b"last".to_vec(), false))
        );
        assert_eq!(read_line_capped(&mut r, 5).unwrap(), None);
    }
}
