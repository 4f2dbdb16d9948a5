//! The client side of GTP: an outside engine as a child process, driven
//! by us as the controller (not to be confused with [`crate::gtp`], our
//! own engine, the server side).
//!
//! Commands are built and responses framed and parsed with the `gtp` crate,
//! imported as `gtp_client` ([`gtp_client::Command`],
//! [`gtp_client::ResponseParser`]); the process itself is run here rather
//! than with `gtp_client::controller::Engine`, because that one prints
//! the engine's standard error on our standard output, polls with sleeps of
//! a quarter of the time-out, and cannot kill a hung engine. Here every
//! request has a deadline, a hung or crashed engine is killed, and the tail
//! of its standard error is kept for the record.
//!
//! Lines before the first line starting with `=` or `?` are ignored (stray
//! chatter, as Sabaki does), and a bare `=` or `=12` line is read as an
//! empty answer. Vertices in answers are read with our own
//! [`crate::point::parse_gtp_move`] by the caller.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of an engine's standard error is kept.
const STDERR_TAIL: usize = 2000;

/// Why a request to an engine did not get an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientError {
    /// The command line is empty or badly quoted, or the program could not
    /// be started.
    Spawn(String),
    /// The engine exited or closed its output; the text says how, with the
    /// end of its standard error.
    Crashed(String),
    /// No answer within the deadline (the engine has been killed).
    TimedOut(Duration),
    /// The answer is not a GTP response.
    Malformed(String),
    /// The stop flag was raised while waiting (the engine has been killed).
    Interrupted,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn(s) => write!(f, "cannot start engine: {s}"),
            ClientError::Crashed(s) => write!(f, "engine crashed: {s}"),
            ClientError::TimedOut(d) => {
                write!(f, "engine did not answer within {:.1} s", d.as_secs_f64())
            }
            ClientError::Malformed(s) => write!(f, "malformed engine response: {s}"),
            ClientError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for ClientError {}

/// Splits a command line into words as a POSIX shell would for simple
/// cases: blanks separate words, single quotes keep everything, double
/// quotes keep everything but `\"` and `\\`, a backslash outside quotes
/// escapes the next character.
///
/// # Errors
/// [`ClientError::Spawn`] for an unterminated quote or an empty line.
pub fn split_command_line(line: &str) -> Result<Vec<String>, ClientError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(ClientError::Spawn("unterminated ' quote".into())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(ClientError::Spawn("unterminated \" quote".into())),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(ClientError::Spawn("unterminated \" quote".into())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(ClientError::Spawn("empty command line".into()));
    }
    Ok(words)
}

/// A running GTP engine.
pub struct GtpClient {
    command_line: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_closed: Arc<AtomicBool>,
    next_id: u32,
    dead: bool,
    /// The engine's `list_commands`, empty if it has none.
    pub commands: Vec<String>,
    /// The engine's `name` and `version`, or the program name.
    pub name: String,
}

impl fmt::Debug for GtpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtpClient")
            .field("command_line", &self.command_line)
            .field("name", &self.name)
            .finish()
    }
}

impl GtpClient {
    /// Starts `command_line` (split by [`split_command_line`]), asks for
    /// `list_commands`, `name` and `version` within `timeout` each.
    ///
    /// # Errors
    /// [`ClientError::Spawn`] if the program cannot be started; any error
    /// of the first requests.
    pub fn start(command_line: &str, timeout: Duration) -> Result<GtpClient, ClientError> {
        GtpClient::start_in(command_line, None, timeout)
    }

    /// [`GtpClient::start`] with the working directory `dir` (ours when
    /// `None`), as regression suites need for their relative paths.
    ///
    /// # Errors
    /// As [`GtpClient::start`].
    pub fn start_in(
        command_line: &str,
        dir: Option<&std::path::Path>,
        timeout: Duration,
    ) -> Result<GtpClient, ClientError> {
        let words = split_command_line(command_line)?;
        let mut cmd = Command::new(&words[0]);
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        cmd.args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Our own process group, so that a Ctrl-C on the terminal reaches
        // us (who then stop cleanly) and not the engine mid-game.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{}: {e}", words[0])))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr_pipe = child.stderr.take().expect("stderr was piped");

        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let stderr_closed = Arc::new(AtomicBool::new(false));
        let closed = Arc::clone(&stderr_closed);
        std::thread::spawn(move || {
            let mut r = stderr_pipe;
            let mut buf = [0u8; 4096];
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                        t.extend(&buf[..n]);
                        while t.len() > STDERR_TAIL {
                            t.pop_front();
                        }
                    }
                }
            }
            closed.store(true, Ordering::SeqCst);
        });

        let mut e = GtpClient {
            command_line: command_line.to_string(),
            child,
            stdin,
            lines: rx,
            stderr,
            stderr_closed,
            next_id: 0,
            dead: false,
            commands: Vec::new(),
            name: words[0].clone(),
        };
        let never = AtomicBool::new(false);
        if let Ok(list) = e.request("list_commands", &[], timeout, &never)? {
            e.commands = list.split_whitespace().map(|s| s.to_string()).collect();
        }
        if let Ok(name) = e.request("name", &[], timeout, &never)? {
            let name = name.trim();
            if !name.is_empty() {
                e.name = name.to_string();
            }
        }
        if let Ok(v) = e.request("version", &[], timeout, &never)? {
            let v = v.trim();
            if !v.is_empty() {
                e.name = format!("{} {}", e.name, v);
            }
        }
        Ok(e)
    }

    /// The command line this engine was started with.
    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    /// Whether the engine lists `command`.
    pub fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }

    /// Whether the engine has crashed, timed out or been killed.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// The last part of the engine's standard error, trimmed.
    pub fn stderr_tail(&self) -> String {
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let (a, b) = t.as_slices();
        let mut bytes = a.to_vec();
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).trim().to_string()
    }

    /// Sends `name args...` and waits for the answer until `timeout` has
    /// passed or `stop` is raised. `Ok(Ok(text))` is a success answer
    /// (`=`), `Ok(Err(text))` a failure answer (`?`).
    ///
    /// # Errors
    /// [`ClientError`] when there is no well-formed answer; the engine is
    /// then killed (except for a malformed answer) and marked dead.
    pub fn request(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Result<String, String>, ClientError> {
        if self.dead {
            return Err(ClientError::Crashed("engine is not running".into()));
        }
        self.next_id += 1;
        let id = self.next_id;
        let mut cmd = gtp_client::Command::new_with_args(name, |e| {
            for a in args {
                e.s(a);
            }
            if args.is_empty() {
                e
            } else {
                e.list()
            }
        });
        cmd.set_id(id);
        let written = match self.stdin.as_mut() {
            Some(w) => w.write_all(&cmd.to_bytes()).and_then(|_| w.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if let Err(e) = written {
            return Err(self.crashed(&format!("cannot write to the engine ({e})")));
        }
        let deadline = Instant::now() + timeout;
        let mut block = String::new();
        let mut started = false;
        loop {
            if stop.load(Ordering::SeqCst) {
                self.kill();
                return Err(ClientError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(ClientError::TimedOut(timeout));
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            let line = match self.lines.recv_timeout(slice) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed("the engine closed its output"));
                }
            };
            let line: String = line
                .chars()
                .filter(|&c| c == '\t' || c == '\n' || !c.is_control())
                .map(|c| if c == '\t' { ' ' } else { c })
                .collect();
            let text = line.trim_end_matches('\n');
            if !started {
                if text.starts_with('=') || text.starts_with('?') {
                    started = true;
                    // `=` or `=12` alone: the gtp parser wants a blank
                    // after the id.
                    if text[1..].bytes().all(|b| b.is_ascii_digit()) {
                        block.push_str(text);
                        block.push_str(" \n");
                    } else {
                        block.push_str(text);
                        block.push('\n');
                    }
                }
                continue;
            }
            if text.trim().is_empty() {
                block.push('\n');
                break;
            }
            block.push_str(text);
            block.push('\n');
        }
        let mut parser = gtp_client::ResponseParser::new();
        parser.feed(&block);
        match parser.get_response() {
            Ok(resp) => {
                let rid = resp.id_0();
                if rid != 0 && rid != id {
                    return Err(ClientError::Malformed(format!(
                        "answer to command {rid} where {id} was expected"
                    )));
                }
                match resp {
                    gtp_client::Response::Result((_, t)) => Ok(Ok(t.trim().to_string())),
                    gtp_client::Response::Error((_, t)) => Ok(Err(t.trim().to_string())),
                }
            }
            Err(e) => Err(ClientError::Malformed(format!("{e:?}"))),
        }
    }

    /// Marks the engine dead and says how it ended, with its stderr.
    fn crashed(&mut self, what: &str) -> ClientError {
        // Give the process a moment to exit and its last words on stderr
        // to arrive, so the record can say how it ended.
        let mut status = None;
        for _ in 0..50 {
            if status.is_none() {
                if let Ok(Some(s)) = self.child.try_wait() {
                    status = Some(s);
                }
            }
            if status.is_some() && self.stderr_closed.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
        let mut msg = what.to_string();
        if let Some(s) = status {
            msg.push_str(&format!("; {s}"));
        }
        let tail = self.stderr_tail();
        if !tail.is_empty() {
            let tail: String = tail
                .chars()
                .rev()
                .take(300)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            msg.push_str(&format!("; stderr: {tail}"));
        }
        ClientError::Crashed(msg)
    }

    /// Kills the process and everything it started (its process group,
    /// on Unix), and marks the engine dead.
    pub fn kill(&mut self) {
        self.dead = true;
        self.stdin = None;
        #[cfg(unix)]
        if let Ok(None) = self.child.try_wait() {
            // The child is not reaped yet, so its id still names its group.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for GtpClient {
    /// Sends `quit`, waits a little, then kills the process.
    fn drop(&mut self) {
        if !self.dead {
            if let Some(w) = self.stdin.as_mut() {
                let _ = w.write_all(b"quit\n").and_then(|_| w.flush());
            }
            self.stdin = None;
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line("gnugo --mode gtp  --level 10").unwrap(),
            ["gnugo", "--mode", "gtp", "--level", "10"]
        );
        assert_eq!(
            split_command_line(r#"sh -c 'echo "a b"' "x\"y" a\ b"#).unwrap(),
            ["sh", "-c", "echo \"a b\"", "x\"y", "a b"]
        );
        assert!(split_command_line("   ").is_err());
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let e = GtpClient::start(
            "/nonexistent/kosumi-test-engine --gtp",
            Duration::from_secs(5),
        )
        .unwrap_err();
        assert!(matches!(e, ClientError::Spawn(_)), "{e:?}");
    }
}
